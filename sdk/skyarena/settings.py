"""Typed settings from flags and the environment: one parse path for every process's configuration.

A settings class is a frozen dataclass deriving from :class:`Settings` whose fields are made
by :func:`setting`: a default, the range a number must lie in, an optional command-line
flag and a line of help; a switch (bool) or a text is taken as given. Its environment variable is
derived from the field's name (``SKYARENA_<NAME>``) unless the field names one (``env=``,
for names older than that rule, such as ``DATABASE_URL``).

Flags and variables go through one path (:meth:`Settings.from_sources`): each value is
parsed from its text and checked here, whichever way it came, and a bad one is a one-line
``ValueError`` naming the flag or variable and what is allowed. Flag help and the README's
configuration reference are generated from the same fields, so neither can drift from the
code. The referee's limits (`referee/service/limits.py`) and every platform process's
settings are built on this; it imports only the standard library (a hosted bot reads its
settings here too, and its start-up is measured).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
from collections.abc import Mapping
from dataclasses import field
from typing import Any, ClassVar, Self, TypeVar

ENV_PREFIX = "SKYARENA_"
DAY_S = 86_400.0
TRUE_WORDS = ("1", "true", "t", "yes", "y", "on")    # click's words for a flag's variable
FALSE_WORDS = ("0", "false", "f", "no", "n", "off")
SWITCH = "1 or 0 (or on/off, true/false, yes/no)"

log = logging.getLogger(__name__)
S = TypeVar("S", bound="Settings")


def setting(default: Any, low: float | None = None, high: float | None = None, *, flag: str | None = None,
            unit: str = "", help: str = "", env: str | None = None, old_env: tuple[str, ...] = ()) -> Any:
    """A settings field. Numbers (int or float, by the default's type) lie from ``low`` to
    ``high`` in ``unit``; a switch (bool) or a text is taken as given; ``old_env`` are names the
    variable had before, still read (with a deprecation line) when the current one is unset."""
    if isinstance(default, (int, float)) and not isinstance(default, bool) and (low is None or high is None):
        raise TypeError("a numeric setting needs its range (low and high)")
    return field(default=default, metadata={"low": low, "high": high, "flag": flag, "unit": unit, "help": help,
                                            "env": env, "old_env": old_env})


class Settings:
    """What every settings dataclass shares: checking, parsing, sources, help and reference rows."""

    # How a bad value is named when it did not come from a flag or a variable ("limit max_matches").
    WHAT: ClassVar[str] = "setting"
    # Which processes read these settings, for the configuration reference.
    READ_BY: ClassVar[str] = ""
    # The start of every derived variable name (``SKYARENA_ARENA_`` for the Arena's caps).
    PREFIX: ClassVar[str] = ENV_PREFIX

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            kind = _kind(f)
            if not _is_kind(value, kind):
                raise ValueError(f"{self.WHAT} {f.name} must be {_what(f)}, got {value!r}")
            _check(f, value, f"{self.WHAT} {f.name}")

    @classmethod
    def env_name(cls, name: str) -> str:
        return cls._field(name).metadata["env"] or cls.PREFIX + name.upper()

    @classmethod
    def parse(cls, name: str, text: str, source: str) -> Any:
        """One setting's value from its text (flag or variable), checked; ``source`` names
        where it came from in the error."""
        f = cls._field(name)
        kind = _kind(f)
        value: Any
        if kind is bool:
            word = text.strip().lower()
            if word not in TRUE_WORDS + FALSE_WORDS:
                raise ValueError(f"{source}={text!r} is not {_what(f)}")
            value = word in TRUE_WORDS
        elif kind is str:
            value = text.strip()
        else:
            try:
                value = kind(text.strip())
            except ValueError:
                raise ValueError(f"{source}={text!r} is not {_what(f)}") from None
        _check(f, value, source)
        return value

    @classmethod
    def from_sources(cls, flags: Mapping[str, str | None] | None = None,
                     environ: Mapping[str, str] | None = None) -> Self:
        """Defaults, then the variables, then flags (texts, None when not given), each through
        :meth:`parse`."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            name, text = cls._variable(f, environ)
            if text is not None and text.strip():
                values[f.name] = cls.parse(f.name, text, name)
            flag_text = (flags or {}).get(f.name)
            if flag_text is not None:
                values[f.name] = cls.parse(f.name, flag_text, f.metadata["flag"] or f.name)
        return cls(**values)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Self:
        """Defaults, then the variables, then explicit (non-None) overrides (values or texts;
        texts are parsed like flags)."""
        flags = {k: str(v) for k, v in overrides.items() if v is not None}
        return cls.from_sources(flags, environ)

    @classmethod
    def _variable(cls, f: dataclasses.Field[Any], environ: Mapping[str, str]) -> tuple[str, str | None]:
        """The variable that sets ``f`` and its text: the current name, else an old one."""
        name = cls.env_name(f.name)
        if environ.get(name, "").strip():
            return name, environ[name]
        for old in f.metadata["old_env"]:
            if environ.get(old, "").strip():
                log.warning("the %s reads %s as %s for now: set %s instead (the old name will stop being read "
                            "here)", cls.READ_BY or cls.__name__, old, name, name)
                return old, environ[old]
        return name, None

    @classmethod
    def _field(cls, name: str) -> dataclasses.Field[Any]:
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name == name:
                return f
        raise KeyError(name)

    @classmethod
    def flags(cls) -> list[tuple[str, str, str]]:
        """(field name, flag, help) of every setting that has a flag, for the command line."""
        out = []
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            meta = f.metadata
            if meta["flag"]:
                what = meta["help"] or meta["unit"]
                text = f"{what[:1].upper()}{what[1:]}" + (": 1 or 0" if _kind(f) is bool else f", {allowed(f)}")
                out.append((f.name, meta["flag"], f"{text} (default {_number(f.default)}; env "
                                                  f"{cls.env_name(f.name)})."))
        return out

    @classmethod
    def reference_rows(cls) -> list[str]:
        """One Markdown table row per setting: variable, default, allowed values, reader, meaning."""
        rows = []
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            meta = f.metadata
            names = f"`{cls.env_name(f.name)}`"
            if meta["flag"]:
                names += f" (`{meta['flag']}`)"
            if meta["old_env"]:
                names += " (formerly " + ", ".join(f"`{old}`" for old in meta["old_env"]) + ")"
            default = f"`{_number(f.default)}`" if f.default != "" else "none"
            unit = f" {meta['unit']}" if meta["unit"] and _kind(f) in (int, float) else ""
            meaning = meta["help"] or f"like `{meta['flag']}`"
            rows.append(f"| {names} | {default} | {allowed(f)}{unit} | {cls.READ_BY} | {meaning} |")
        return rows

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload, no-any-return]


def allowed(f: dataclasses.Field[Any]) -> str:
    """What ``f`` accepts, in words: ``1 to 86400`` for a number, else what kind of value."""
    if _kind(f) in (int, float):
        return f"{_number(f.metadata['low'])} to {_number(f.metadata['high'])}"
    return _what(f)


def _kind(f: dataclasses.Field[Any]) -> type:
    default = f.default
    if isinstance(default, bool):
        return bool
    if isinstance(default, int):
        return int
    if isinstance(default, float):
        return float
    return str


def _is_kind(value: Any, kind: type) -> bool:
    if kind is bool or kind is str:
        return isinstance(value, kind)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return kind is float or isinstance(value, int)


def _what(f: dataclasses.Field[Any]) -> str:
    kind, unit = _kind(f), f.metadata["unit"]
    if kind is int:
        return f"a whole number of {unit}" if unit else "a whole number"
    if kind is float:
        return f"a number of {unit}" if unit else "a number"
    return SWITCH if kind is bool else "text"


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"  # a switch, as its variable is written
    return f"{value:g}" if isinstance(value, float) else str(value)


def _check(f: dataclasses.Field[Any], value: Any, source: str) -> None:
    meta = f.metadata
    if isinstance(value, (str, bool)):
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{source} must be a finite number, got {value!r}")
    low, high = meta["low"], meta["high"]
    if not low <= value <= high:
        unit = f" {meta['unit']}" if meta["unit"] else ""
        raise ValueError(f"{source} must be from {_number(low)} to {_number(high)}{unit}, got {_number(value)}")


_read: dict[type, Any] = {}


def read_at_start(cls: type[S], environ: Mapping[str, str] | None = None) -> S:
    """Read ``cls`` from the environment as a process starts (its entry point calls this once)
    and keep it as the process's settings of that kind; a fork inherits them."""
    settings = cls.from_env(environ)
    _read[cls] = settings
    return settings


def current(cls: type[S]) -> S:
    """The settings of kind ``cls`` this process read at start, read now if it started some
    other way (a test calling tasks directly, ``celery -A``)."""
    settings = _read.get(cls)
    return settings if settings is not None else read_at_start(cls)
