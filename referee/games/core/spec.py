"""Game specifications: what the registry knows about a game before any state exists.

Options are declared once, with their defaults and their allowed values, so the CLI, the
referee and the league configuration all validate them the same way and every error
names the option and what it accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import OptionError, PlayerCountError

if TYPE_CHECKING:
    from .state import State

_TYPE_NAMES = {bool: "true/false", int: "an integer", float: "a number", str: "a string"}


@dataclass(frozen=True)
class OptionSpec:
    """One game option.

    ``choices`` restricts the value to a fixed set; ``minimum``/``maximum`` bound numbers;
    ``kind`` is the Python type (``object`` for structured values such as ``setup``).
    A ruling from RULINGS.md is an option whose default is the ruling.
    """

    name: str
    default: Any
    description: str
    kind: type = object
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        text = _TYPE_NAMES.get(self.kind, "a JSON value")
        if self.minimum is not None and self.maximum is not None:
            text += f" from {self.minimum:g} to {self.maximum:g}"
        elif self.minimum is not None:
            text += f" of at least {self.minimum:g}"
        elif self.maximum is not None:
            text += f" of at most {self.maximum:g}"
        return text

    def validate(self, game: str, value: Any) -> Any:
        """Return the value (numbers coerced where lossless) or raise OptionError.

        ``None`` is accepted when it is the default: it means "decided by the game" (as with
        Skyjo Action's large-group variant, which switches itself on for 9-10 players)."""
        if value is None and self.default is None:
            return None
        kind = self.kind
        if kind is bool and not isinstance(value, bool):
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
                value = value.lower() in ("true", "yes", "1")
            else:
                self._fail(game, value)
        elif kind is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    self._fail(game, value)
            if isinstance(value, bool) or not isinstance(value, int):
                self._fail(game, value)
        elif kind is float:
            if isinstance(value, str):
                try:
                    value = float(value)
                except ValueError:
                    self._fail(game, value)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                self._fail(game, value)
            value = float(value)
        elif kind is str and not isinstance(value, str):
            self._fail(game, value)
        if self.choices is not None and value not in self.choices:
            self._fail(game, value)
        if self.minimum is not None and value < self.minimum:
            self._fail(game, value)
        if self.maximum is not None and value > self.maximum:
            self._fail(game, value)
        return value

    def _fail(self, game: str, value: Any) -> None:
        raise OptionError(
            f"{game}: option {self.name!r} cannot be {value!r}; it must be {self.allowed()} "
            f"(default {self.default!r}). {self.description}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "description": self.description,
            "allowed": self.allowed(),
            **({"choices": list(self.choices)} if self.choices is not None else {}),
        }


SETUP_OPTION = OptionSpec(
    "setup",
    None,
    "Fixes the initial deal, deck order or dice (see the game's README); null deals at random.",
)


@dataclass(frozen=True)
class GameSpec:
    """Everything the platform needs to know about a game without playing it.

    ``factory(players, seed, options)`` builds the initial state from validated options;
    ``check_options`` rejects combinations that contradict each other (with the fix in the
    message); ``max_decisions`` bounds the number of ``apply`` calls of any game, which
    the invariant suite enforces and the referee uses as a safety stop.
    """

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    factory: Callable[[int, int, dict[str, Any]], State]
    options: Sequence[OptionSpec] = field(default_factory=tuple)
    max_decisions: int = 10_000
    cooperative: bool = False
    rulebook: str = ""
    check_options: Callable[[int, dict[str, Any]], None] | None = None
    description: str = ""

    def option(self, name: str) -> OptionSpec:
        for spec in self.all_options():
            if spec.name == name:
                return spec
        raise KeyError(name)

    def all_options(self) -> tuple[OptionSpec, ...]:
        names = {o.name for o in self.options}
        extra = () if "setup" in names else (SETUP_OPTION,)
        return tuple(self.options) + extra

    def player_range_text(self) -> str:
        """"2" or "2 to 5": how many may play, as a person would say it."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def validate(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Full, validated options (defaults filled in) for this player count."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise PlayerCountError(f"{self.name}: the player count must be an integer, got {players!r}")
        if options is None:
            options = {}
        elif not isinstance(options, Mapping):
            raise OptionError(
                f"{self.name}: options must be a mapping of option name to value, such as "
                f"{{'setup': None}}, got {type(options).__name__} {options!r}; `skyarena games` lists the options."
            )
        given = dict(options)
        known = {o.name: o for o in self.all_options()}
        unknown = sorted(set(given) - set(known), key=repr)
        if unknown:
            raise OptionError(
                f"{self.name}: unknown option {unknown[0]!r}; known options: "
                + ", ".join(sorted(known))
                + " (see `skyarena games`)."
            )
        full = {name: o.validate(self.name, given[name]) if name in given else o.default for name, o in known.items()}
        if self.check_options is not None:
            self.check_options(players, full)
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(f"{self.name} is played by {self.player_range_text()} players, not {players}.")
        return full

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "version": self.version,
            "players": list(self.player_counts()),
            "cooperative": self.cooperative,
            "options": [o.to_json() for o in self.all_options()],
            "rulebook": self.rulebook,
        }
