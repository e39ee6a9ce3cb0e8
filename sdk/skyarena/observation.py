"""Observation objects handed to bots.

The engines produce JSON-ready dicts; each game's SDK module turns them into a typed,
documented dataclass (``skyarena.games.<game>.Observation``). Local play and remote play
(gRPC or stdio) build the same objects from the same data, so a bot behaves identically
on a laptop and on the platform.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import sys
import textwrap
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar, get_type_hints

ObsT = TypeVar("ObsT", bound="Observation")


# ----- field documentation -----------------------------------------------------------------
# A game module documents each field with a string right below it (an attribute docstring,
# as Sphinx reads them). Python keeps those strings nowhere at run time, so help() would show
# names and types only; they are read back from the module's source and written into the
# class docstring, for the observation and every nested type it holds.

FIELDS_HEADING = "Fields"


@functools.cache
def _module_tree(filename: str) -> ast.Module | None:
    try:
        with open(filename, encoding="utf-8") as source:
            return ast.parse(source.read(), filename)
    except (OSError, SyntaxError):
        return None


def field_docs(cls: type[Any]) -> dict[str, str]:
    """Each annotated field of ``cls`` -> the string literal written right below it."""
    try:
        filename = inspect.getsourcefile(cls)
    except TypeError:
        return {}
    tree = _module_tree(filename) if filename else None
    if tree is None:
        return {}
    for node in tree.body:  # the game modules define their types at the top level
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return dict(_documented(node.body))
    return {}


def _documented(body: list[ast.stmt]) -> Iterator[tuple[str, str]]:
    for statement, following in zip(body, body[1:]):
        if (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            yield statement.target.id, inspect.cleandoc(following.value.value)


def _annotation_text(cls: type[Any], name: str) -> str:
    annotation = cls.__dict__.get("__annotations__", {}).get(name, "")
    return annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))


def fields_section(cls: type[Any]) -> str:
    """The "Fields" section of ``cls``'s docstring: name, type and meaning of each field."""
    docs = field_docs(cls)
    lines = [FIELDS_HEADING, "-" * len(FIELDS_HEADING)]
    for name in cls.__dict__.get("__annotations__", {}):
        if name == "raw" or name.startswith("_"):
            continue
        lines.append(f"{name} : {_annotation_text(cls, name)}")
        lines.extend(textwrap.indent(docs.get(name, "(undocumented)"), "    ").splitlines())
    return "\n".join(lines)


def nested_types(cls: type[Any]) -> list[type[Any]]:
    """The dataclasses named in ``cls``'s field annotations (``Board``, ``list[Area]``...),
    looked up in its module, in order of first mention."""
    namespace = vars(sys.modules[cls.__module__]) if cls.__module__ in sys.modules else {}
    found: list[type[Any]] = []
    for annotation in cls.__dict__.get("__annotations__", {}).values():
        text = annotation if isinstance(annotation, str) else repr(annotation)
        for node in ast.walk(ast.parse(text, mode="eval")):
            if isinstance(node, ast.Name):
                candidate = namespace.get(node.id)
                if isinstance(candidate, type) and dataclasses.is_dataclass(candidate) and candidate not in found \
                        and candidate is not cls:
                    found.append(candidate)
    return found


def document_fields(cls: type[Any], _seen: set[type[Any]] | None = None) -> None:
    """Append the Fields section to the docstring of ``cls`` and of each nested type it
    holds, so that help() shows what every field means. Idempotent."""
    seen = _seen if _seen is not None else set()
    if cls in seen:
        return
    seen.add(cls)
    doc = inspect.cleandoc(cls.__dict__.get("__doc__") or "")
    if f"\n{FIELDS_HEADING}\n" not in f"\n{doc}\n" and cls.__dict__.get("__annotations__"):
        cls.__doc__ = f"{doc}\n\n{fields_section(cls)}" if doc else fields_section(cls)
    for nested in nested_types(cls):
        document_fields(nested, seen)


@dataclasses.dataclass(frozen=True)
class Observation:
    """Base of every game's observation. ``raw`` keeps the engine's dict as received."""

    raw: Mapping[str, Any] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        document_fields(cls)  # help(Observation) of every game shows each field's meaning

    @classmethod
    def from_json(cls: type[ObsT], data: Mapping[str, Any]) -> ObsT:
        """Build from the engine's dict; fields are filled by name, nested dataclasses too.

        A game whose dict does not map one-to-one onto its fields overrides this.
        """
        return _build(cls, data, keep_raw=True)

    def to_json(self) -> dict[str, Any]:
        return dict(self.raw)

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]


_FIELD_HINTS: dict[type[Any], tuple[tuple[str, Any], ...]] = {}


def _field_hints(cls: type[Any]) -> tuple[tuple[str, Any], ...]:
    """(name, type hint) of a dataclass's fields, computed once per class: resolving string
    annotations is far slower than building the observation itself."""
    cached = _FIELD_HINTS.get(cls)
    if cached is None:
        hints = get_type_hints(cls)
        cached = tuple((f.name, hints.get(f.name)) for f in dataclasses.fields(cls) if f.name != "raw")
        _FIELD_HINTS[cls] = cached
    return cached


def _build(cls: type[Any], data: Mapping[str, Any], keep_raw: bool = False) -> Any:
    kwargs: dict[str, Any] = {}
    for name, hint in _field_hints(cls):
        if name in data:
            kwargs[name] = _convert(hint, data[name])
    if keep_raw:
        kwargs["raw"] = dict(data)
    return cls(**kwargs)


def _convert(hint: Any, value: Any) -> Any:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(value, Mapping):
        return _build(hint, value)
    args = getattr(hint, "__args__", None)
    origin = getattr(hint, "__origin__", None)
    if args and origin in (list, tuple) and isinstance(value, list):
        inner = args[0]
        if isinstance(inner, type) and dataclasses.is_dataclass(inner):
            items = [_build(inner, v) if isinstance(v, Mapping) else v for v in value]
        else:
            items = [_convert(inner, v) for v in value]
        return tuple(items) if origin is tuple else items
    if isinstance(value, list):
        return tuple(value) if origin is tuple else value
    return value


@dataclasses.dataclass(frozen=True)
class GenericObservation(Observation):
    """For a game without a typed class: index it like the engine's dict."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self.raw[name]
        except KeyError:
            raise AttributeError(name) from None
