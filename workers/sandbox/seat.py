"""Play one seat of a match with a hosted bot: sandbox, relay, end, log. The call the
workers' ``play_match`` makes per hosted seat."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc import aio

from skyarena.cputime import TreeClock, supported
from skyarena.remote.relay import relay

from .launcher import start_hosted_bot
from .limits import SandboxLimits


@dataclass(frozen=True)
class HostedSeatOutcome:
    exit_status: int | None   # the bot's exit status; negative: the signal that ended it
    killed: bool              # the sandbox had to kill it (still running after the match's end and the grace)
    ended: str                # how it ended, in words, for the match record and the author's log page
    relay_status: str         # the Play stream's final gRPC status (OK when the match ran to its end)
    log: bytes                # the bot's stderr, capped, truncation marked
    log_truncated: bool
    confinement: str          # what confined it (the match record keeps it)

    def to_json(self) -> dict[str, object]:
        return {"exit_status": self.exit_status, "killed": self.killed, "ended": self.ended,
                "relay_status": self.relay_status, "log_truncated": self.log_truncated,
                "confinement": self.confinement}


def describe_end(exit_status: int | None, killed: bool, wall_clock: bool) -> str:
    if wall_clock:
        return "killed: the sandbox's wall clock ran out"
    if killed:
        return "killed: still running after the match ended"
    if exit_status == 0:
        return "exited"
    if exit_status is not None and exit_status < 0:
        return f"ended by signal {exit_status * -1} (a limit: CPU time, or the kernel)"
    return f"exited with status {exit_status}"


async def play_hosted_seat(bot_dir: Path, entry: str, referee: str, seat_token: str,
                           limits: SandboxLimits | None = None, *, channel: aio.Channel | None = None,
                           backend: str = "auto", service_token: str | None = None) -> HostedSeatOutcome:
    """Run ``entry`` from ``bot_dir`` sandboxed for one seat, relayed to ``referee`` with
    ``seat_token`` (which the bot never sees), until the match ends. Faults of the bot are
    the referee's to record; this reports how the bot's process ended and its log.

    With ``service_token`` the relay measures the CPU time of the bot's whole process tree
    (the sandbox's process and everything under it, from /proc) for each decision and
    reports it on the service-token stream, for a seat the match put on a CPU clock."""
    limits = limits or SandboxLimits()
    bot = await start_hosted_bot(bot_dir, entry, limits, backend=backend)
    clock = TreeClock(bot.process.pid) if service_token and supported() else None
    wall_clock = False
    try:
        try:
            status = await asyncio.wait_for(relay(bot.stdout, bot.stdin, referee, seat_token, channel,
                                                  cpu_clock=clock, service_token=service_token), limits.wall_s)
        except TimeoutError:
            status, wall_clock = grpc.StatusCode.DEADLINE_EXCEEDED, True
            bot.kill()
        bot.discard_stdout()
        exit_status = await bot.wait(limits.grace_s)
        if exit_status is None:
            bot.kill()
            exit_status = await bot.wait()
    finally:
        await bot.close()
    log, truncated = bot.log()
    return HostedSeatOutcome(exit_status, bot.killed, describe_end(exit_status, bot.killed, wall_clock),
                             status.name, log, truncated, bot.confinement)

