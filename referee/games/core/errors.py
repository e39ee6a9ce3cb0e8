"""Errors raised by the engine contract.

Every message is written for a person: it says what was wrong and what to do instead.
"""

from __future__ import annotations


class SkyarenaError(Exception):
    """Base of every error the engines raise on purpose."""


class IllegalAction(SkyarenaError):
    """An action that is not legal for that seat now; the state is left unchanged."""


class MalformedAction(IllegalAction):
    """Text that is not in the game's action notation at all (as opposed to a well-formed
    action that is not legal now)."""


class ArgumentError(SkyarenaError):
    """An argument of the engine API of the wrong type or out of range (a seed that is not
    an integer, notation that is not a string...). The message names the argument and what
    it must be; nothing was changed."""


class SeatError(ArgumentError):
    """A seat that is not one of the game's seats. Refused before any game code runs, so a
    wrong seat can never reach (and index) another seat's hidden information."""


class UnknownGame(SkyarenaError):
    """A game name that is not registered."""


class OptionError(SkyarenaError):
    """A bad game option: unknown name, wrong type, a value outside the allowed set,
    or options that contradict each other."""


class PlayerCountError(SkyarenaError):
    """A player count outside the game's range."""


class ReplayError(SkyarenaError):
    """A replay that cannot be read or whose re-play does not match what it recorded."""


class ObservationError(ArgumentError):
    """An observation the forward model cannot rebuild a state from: one of another game,
    of a finished match, or not a seat's observation at all. Nothing was drawn."""
