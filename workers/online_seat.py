"""Play one seat of a match with an online version: invite it, wait for it, follow its match.

Where a hosted seat's bot runs in this worker's sandbox behind a relay
(`workers.sandbox.play_hosted_seat`), an online seat's bot runs on its author's machine:
the worker writes an invitation with the seat token into the store, the Arena's Connect
stream hands it to the bot, the bot accepts it and joins the referee itself. This side
only watches: the invitation accepted within ``accept_within_s``, the seat joined on the
referee within ``join_within_s`` of that, then the match's end. Either deadline missed is a
no-show (:class:`NoShow`): ``play_match`` voids the match (nothing rated, no strike) and
counts it against the version. A bot that joined and then drops keeps its clock running on
the referee, and the usual strikes and forfeit apply: nothing here interferes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from skyarena.referee_client import ENDED, RefereeClient
from workers.sandbox import HostedSeatOutcome
from workers.store import Database
from workers.store import online as store
from workers.store.queue import HostedSeat

ACCEPT_POLL_S = 0.05    # how often the worker looks for the bot's acceptance (a small indexed read)
JOIN_POLL_S = 0.1       # how often it asks the referee whether the seat has joined
END_POLL_S = 0.5        # how often it asks whether the match is over (no hosted relay tells it)
CONFINEMENT = "online (the author's machine)"
T = TypeVar("T")


class NoShow(Exception):
    """The online version did not take its seat up: the match is void and it counts against the version."""

    def __init__(self, seat: HostedSeat, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason


@dataclass(frozen=True)
class OnlineDeadlines:
    accept_within_s: float   # to accept the invitation
    join_within_s: float     # after accepting, to join the referee


def online_outcome(ended: str) -> HostedSeatOutcome:
    """An online seat in the match record: nothing of its process is known here (no log, no exit status)."""
    return HostedSeatOutcome(exit_status=None, killed=False, ended=ended, relay_status="", log=b"",
                             log_truncated=False, confinement=CONFINEMENT)


async def play_online_seat(db: Database, client: RefereeClient, seat: HostedSeat, invitation: store.NewInvitation,
                           deadlines: OnlineDeadlines) -> HostedSeatOutcome:
    """Invite the seat's version and follow the seat until the match ends; NoShow if it never came."""
    invitation_id = await asyncio.to_thread(_with_conn, db, store.invite, invitation, deadlines.accept_within_s,
                                          deadlines.join_within_s)
    await _accepted(db, seat, invitation_id, deadlines.accept_within_s)
    await _joined(db, client, seat, invitation, invitation_id, deadlines.join_within_s)
    while True:
        status = await client.status(invitation.referee_match_id)
        if status.state in ENDED:
            return online_outcome("played online")
        await asyncio.sleep(END_POLL_S)


def _with_conn(db: Database, function: Callable[..., T], *args: Any) -> T:
    """One store call on a connection of its own (run in a thread: the store is blocking)."""
    with db.connection() as conn:
        return function(conn, *args)


async def _accepted(db: Database, seat: HostedSeat, invitation_id: int, within_s: float) -> None:
    deadline = time.monotonic() + within_s
    while True:
        state = await asyncio.to_thread(_with_conn, db, store.invitation_state, invitation_id)
        if state in ("accepted", "joined"):
            return
        if state != "pending":
            raise NoShow(seat, f"no-show: {seat.name} (seat {seat.seat}): its invitation is {state}")
        if time.monotonic() >= deadline:
            reason = f"no-show: {seat.name} (seat {seat.seat}) did not accept its invitation within {within_s:g} s"
            if await asyncio.to_thread(_with_conn, db, store.expire_if_pending, invitation_id, reason):
                raise NoShow(seat, reason)
            continue  # accepted at the last moment
        await asyncio.sleep(ACCEPT_POLL_S)


async def _joined(db: Database, client: RefereeClient, seat: HostedSeat, invitation: store.NewInvitation,
                  invitation_id: int, within_s: float) -> None:
    deadline = time.monotonic() + within_s
    while True:
        status = await client.status(invitation.referee_match_id)
        if status.seats[seat.seat].joined:
            await asyncio.to_thread(_with_conn, db, store.mark_joined, invitation_id)
            return
        if status.state in ENDED or time.monotonic() >= deadline:
            raise NoShow(seat, f"no-show: {seat.name} (seat {seat.seat}) accepted its invitation but did not join "
                               f"the referee within {within_s:g} s")
        await asyncio.sleep(JOIN_POLL_S)
