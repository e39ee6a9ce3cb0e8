"""What the hot path keeps per game: the referee's serialized actions, the SDK's rebuilt ones.

A game offers the same few hundred actions over and over (Fly Away hands out about two
hundred per decision), and building that many messages from dicts, or engine actions from
messages, on every decision cost more than everything else together. So each is done once
per distinct action and kept, bounded per game (``ACTION_CACHE_SIZE``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skyarena.v1 import game_pb2

from .actions import action_from_proto, action_kwargs
from .registry import GameWire, wire_for

# A game's store is emptied when it reaches this size.
ACTION_CACHE_SIZE = 50_000


class PerGameCache:
    """Values kept per game, bounded: a game's store is emptied when it is full. Callers
    look up in ``store(game)`` themselves (the lookups sit in per-action loops) and keep
    new values with ``put``."""

    def __init__(self) -> None:
        self._stores: dict[str, dict[Any, Any]] = {}

    def store(self, game: str) -> dict[Any, Any]:
        store = self._stores.get(game)
        if store is None:
            store = self._stores[game] = {}
        return store

    @staticmethod
    def put(store: dict[Any, Any], key: Any, value: Any) -> None:
        if len(store) >= ACTION_CACHE_SIZE:
            store.clear()
        store[key] = value


_ACTION_BYTES = PerGameCache()
_TYPED_BYTES = PerGameCache()
_ACTIONS_READ = PerGameCache()


def action_bytes(game: str, action: Any, wire: GameWire | None) -> bytes:
    """The serialized ``Action`` message of an engine action, kept per game: the referee
    splices these into turn requests, since building hundreds of action messages from dicts
    per decision costs more than the rest of a step."""
    store = _ACTION_BYTES.store(game)
    key = action_key(action)
    try:
        data: bytes | None = store.get(key)
    except TypeError:  # an unhashable action: convert it every time
        return game_pb2.Action(**action_kwargs(game, action, wire)).SerializeToString()
    if data is None:
        data = game_pb2.Action(**action_kwargs(game, action, wire)).SerializeToString()
        _ACTION_BYTES.put(store, key, data)
    return data


def action_key(action: Any) -> tuple[type, Any]:
    """What the per-action caches are keyed by: the value *and its class*. Most engines'
    actions are NamedTuples, and tuples of different classes with the same fields are equal
    with the same hash (Oddball's ``Announce(2) == Protect(2)``, ``Play((1, 2), 0) ==
    Prepare((1, 2), False)``): keyed by value alone, one would be sent as the other."""
    return type(action), action


def typed_action_bytes(game: str, action: Any, wire: GameWire) -> bytes:
    """The deterministic serialization of an engine action's typed message (the game's
    member of ``Action.game``), kept per game: the referee compares a bot's typed answer
    with these, by value, instead of building an engine object from the bot's numbers."""
    store: dict[Any, Any] | None = _TYPED_BYTES.store(game)
    key = action_key(action)
    try:
        data: bytes | None = store.get(key) if store is not None else None
    except TypeError:  # unhashable: convert every time
        data = store = None
    if data is None:
        message = game_pb2.Action.FromString(action_bytes(game, action, wire))
        data = getattr(message, wire.field).SerializeToString(deterministic=True)
        if store is not None:
            _TYPED_BYTES.put(store, key, data)
    return data


def legal_actions_from_proto(game: str, messages: Sequence[game_pb2.Action]) -> list[Any]:
    """The legal actions a bot is handed: engine action objects where the game has typed
    messages, notation strings otherwise (the same values local play hands it). Immutable
    (hashable) actions are kept by their bytes, so an action seen before is not rebuilt:
    the conversion runs on the bot's clock."""
    wire = wire_for(game)
    if wire is None:
        return [m.notation for m in messages]
    store = _ACTIONS_READ.store(game)
    out = []
    for message in messages:
        key = message.SerializeToString()
        action = store.get(key)
        if action is None:
            action = action_from_proto(game, message)
            if type(action).__hash__ is not None:  # only immutable actions are shared between turns
                _ACTIONS_READ.put(store, key, action)
        out.append(action)
    return out
