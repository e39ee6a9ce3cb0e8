"""Draft a game's wire messages from its engine: ``proto/skyarena/v1/games/<pkg>.proto``.

The typed messages mirror the engine's JSON observation field by field. Rather than
transcribing them by hand (and drifting), this tool plays random games at every player
count, infers each field's type from every observation reached, takes each field's
documentation from the SDK's typed Observation dataclasses (their attribute docstrings),
and writes the .proto file, which is then reviewed and committed like any source. Run it
again when an engine's observation changes; the round-trip test in tests/referee says when.

    python proto/draft_game.py sky-team            # prints the draft
    python proto/draft_game.py sky-team --write    # writes proto/skyarena/v1/games/sky_team.proto
    python proto/draft_game.py --all --write

Type rules (the converters in sdk/skyarena/wire/ follow the same conventions):
ints -> sint32 (sint64 when large), numbers -> double, strings, bools; a value that can be
null -> ``optional`` (or an unset message); objects -> nested messages, or
``map<string, ...>`` when their keys are data (not identifiers, or many); lists of lists
and lists with nulls -> wrapper messages; an int-or-string value -> a union message;
anything less regular -> ``Json`` (exact JSON, see json.proto).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import random
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# This directory holds proto/skyarena/, which must not shadow the skyarena package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "proto"]
sys.path.insert(0, str(ROOT))

from referee.games import GAMES, make  # noqa: E402
from referee.games.core.playout import random_joint_action  # noqa: E402

IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")
MAX_FIELDS = 40


# ----- sampling ------------------------------------------------------------------------------

def sample(game: str, seeds: int, max_steps: int) -> tuple[list[dict[str, Any]], list[Any]]:
    spec = GAMES[game]
    observations: list[dict[str, Any]] = []
    actions: list[Any] = []
    for players in spec.player_counts():
        for seed in range(seeds):
            try:
                state = make(game, players, seed=seed)
            except Exception:
                break
            rng = random.Random(seed)
            steps = 0
            while not state.is_over() and steps < max_steps:
                for seat in range(players):
                    observations.append(state.observation(seat))
                for seat in state.to_move():
                    actions.extend(state.legal_actions(seat))
                state.apply(random_joint_action(state, rng))
                steps += 1
            for seat in range(players):
                observations.append(state.observation(seat))
    return observations, actions


# ----- the shape of the data -------------------------------------------------------------------

@dataclasses.dataclass
class Shape:
    """Everything seen at one place in the data."""

    kinds: set[str] = dataclasses.field(default_factory=set)   # null bool int float str list obj
    items: Shape | None = None
    fields: dict[str, Shape] = dataclasses.field(default_factory=dict)
    key_order: list[str] = dataclasses.field(default_factory=list)
    objects: int = 0
    present: int = 0
    empties: int = 0
    big: bool = False

    def add(self, value: Any) -> None:
        self.present += 1
        if value is None:
            self.kinds.add("null")
        elif isinstance(value, bool):
            self.kinds.add("bool")
        elif isinstance(value, int):
            self.kinds.add("int")
            self.big |= not -(2 ** 31) <= value < 2 ** 31
        elif isinstance(value, float):
            self.kinds.add("float")
        elif isinstance(value, str):
            self.kinds.add("str")
        elif isinstance(value, list):
            self.kinds.add("list")
            self.empties += not value
            if self.items is None:
                self.items = Shape()
            for item in value:
                self.items.add(item)
        elif isinstance(value, dict):
            self.kinds.add("obj")
            self.objects += 1
            self.empties += not value
            for key, item in value.items():
                if key not in self.fields:
                    self.fields[key] = Shape()
                    self.key_order.append(key)
                self.fields[key].add(item)
        else:
            raise TypeError(f"not JSON: {value!r}")

    def is_map(self) -> bool:
        keys = self.key_order
        return len(keys) > MAX_FIELDS or any(not IDENT.match(k) for k in keys)


# ----- documentation from the SDK dataclasses --------------------------------------------------

def attribute_docs(cls: type) -> dict[str, str]:
    """Attribute docstrings of a dataclass (the string literal after each field)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and isinstance(after, ast.Expr) \
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def hint_of(cls: type | None, name: str) -> Any:
    if cls is None or not dataclasses.is_dataclass(cls):
        return None
    import typing

    try:
        return typing.get_type_hints(cls).get(name)
    except Exception:
        return None


def allows_none(hint: Any) -> bool:
    """The SDK declares the field Optional (or Any): null may come even if no sample had it."""
    if hint is None:
        return False
    if hint is Any or hint is type(None):
        return True
    return any(allows_none(arg) for arg in getattr(hint, "__args__", ()) or () if arg is type(None) or arg is Any) \
        or type(None) in (getattr(hint, "__args__", ()) or ())


def nested_class(cls: type | None, name: str) -> type | None:
    """The dataclass a field of ``cls`` holds (directly or in a list/dict), if any."""
    if cls is None or not dataclasses.is_dataclass(cls):
        return None
    import typing

    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        return None
    hint = hints.get(name)
    stack = [hint]
    while stack:
        current = stack.pop()
        if isinstance(current, type) and dataclasses.is_dataclass(current):
            return current
        stack.extend(getattr(current, "__args__", ()) or ())
    return None


# ----- writing the .proto ------------------------------------------------------------------------

def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\-\s]+", name) if part)


def singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


SCALAR_NAMES = {"bool": "Bool", "sint64": "Int", "double": "Double", "string": "String"}


class Writer:
    def __init__(self) -> None:
        self.uses_common = False

    def scalar(self, shape: Shape) -> str | None:
        kinds = shape.kinds - {"null"}
        if kinds == {"bool"}:
            return "bool"
        if kinds == {"int"}:
            return "sint64"
        if kinds and kinds <= {"int", "float"}:
            return "double"
        if kinds == {"str"}:
            return "string"
        return None

    def common(self, name: str) -> str:
        self.uses_common = True
        return name

    def element(self, shape: Shape, name: str, out: list[str], cls: type | None, indent: str,
                hint_name: str = "") -> str:
        """The message or scalar type of a list element (nulls and nested lists wrapped)."""
        kinds = shape.kinds - {"null"}
        nullable = "null" in shape.kinds
        scalar = self.scalar(shape)
        if not kinds:
            return self.common("Json")
        if scalar is not None:
            return self.common(f"Nullable{SCALAR_NAMES[scalar]}") if nullable else scalar
        if kinds <= {"int", "str"}:
            return self.common("IntOrString")
        if kinds == {"list"}:
            items = shape.items if shape.items is not None else Shape()
            inner = self.element(items, singular(name), out, cls, indent, hint_name)
            if nullable or "null" in items.kinds and inner in SCALAR_NAMES:
                return self.common("Json")
            if inner in SCALAR_NAMES:
                return self.common(f"{SCALAR_NAMES[inner]}List")
            wrapper = f"{camel(singular(name))}List"
            self.declare(out, indent, wrapper, [f"repeated {inner} values = 1;"], "A list inside a list.")
            return wrapper
        if kinds == {"obj"} and not nullable and not shape.is_map():
            return self.object_message(shape, name, out, cls, indent, hint_name)
        return self.common("Json")

    def object_message(self, shape: Shape, name: str, out: list[str], cls: type | None, indent: str,
                       hint_name: str = "") -> str:
        sub_cls = nested_class(cls, hint_name or name) if cls is not None else None
        message_name = camel(sub_cls.__name__ if sub_cls is not None else singular(name))
        body = self.message_body(shape, sub_cls, indent + "  ")
        self.declare(out, indent, message_name, body, (sub_cls.__doc__ or "").strip() if sub_cls else "", raw=True)
        return message_name

    def field(self, shape: Shape, name: str, out: list[str], cls: type | None, indent: str,
              always: bool) -> tuple[str, str, bool]:
        """(label, type, omit_when_unset) of an object's field."""
        kinds = shape.kinds - {"null"}
        hint = hint_of(cls, name)
        nullable = "null" in shape.kinds or (allows_none(hint) and hint is not Any)
        absent = not always
        scalar = self.scalar(shape)
        if scalar == "sint64" and hint is not None and float in (getattr(hint, "__args__", ()) or (hint,)):
            scalar = "double"
        if not kinds and hint is not None:  # only nulls seen: the SDK's declared type decides
            declared = [a for a in (getattr(hint, "__args__", ()) or (hint,)) if a is not type(None)]
            names = {bool: "bool", int: "sint64", float: "double", str: "string"}
            if len(declared) == 1 and declared[0] in names and not absent:
                return "optional ", names[declared[0]], False
        if not kinds or (absent and (nullable or shape.empties)):
            return "", self.common("Json"), absent
        if scalar is not None:
            return ("optional " if nullable or absent else ""), scalar, absent
        if kinds <= {"int", "str"}:
            return "", self.common("IntOrString"), absent
        if kinds == {"list"} and not nullable:
            return "repeated ", self.element(shape.items or Shape(), singular(name), out, cls, indent, name), absent
        if kinds == {"obj"} and shape.is_map() and not nullable:
            values = Shape()
            for sub in shape.fields.values():
                merge(values, sub)
            inner = self.element(values, singular(name), out, cls, indent, name)
            if inner.startswith("Nullable"):
                return "", self.common("Json"), absent
            return "", f"map<string, {inner}>", absent
        if kinds == {"obj"}:
            return "", self.object_message(shape, name, out, cls, indent, name), absent
        return "", self.common("Json"), absent

    def declare(self, out: list[str], indent: str, name: str, body: list[str], doc: str, raw: bool = False) -> None:
        marker = f"{indent}message {name} {{"
        if marker in out:
            return
        for line in textwrap.wrap(" ".join(doc.split()), 96) if doc else []:
            out.append(f"{indent}// {line}")
        out.append(marker)
        out.extend(body if raw else [f"{indent}  {line}" for line in body])
        out.append(f"{indent}}}")

    def message_body(self, shape: Shape, cls: type | None, indent: str) -> list[str]:
        docs = attribute_docs(cls) if cls is not None else {}
        nested: list[str] = []
        fields: list[str] = []
        for number, key in enumerate(shape.key_order, 1):
            sub = shape.fields[key]
            label, kind, omit = self.field(sub, key, nested, cls, indent, always=sub.present == shape.objects)
            doc = docs.get(key, "")
            if omit:
                doc = (doc + " " if doc else "") + "(Absent from some observations: unset means no such key.)"
            for line in textwrap.wrap(doc, 96) if doc else []:
                fields.append(f"{indent}// {line}")
            option = " [(omit_when_unset) = true]" if omit else ""
            fields.append(f"{indent}{label}{kind} {key} = {number}{option};")
        return nested + fields


def merge(into: Shape, other: Shape) -> None:
    into.kinds |= other.kinds
    into.big |= other.big
    into.objects += other.objects
    into.present += other.present
    into.empties += other.empties
    if other.items is not None:
        if into.items is None:
            into.items = Shape()
        merge(into.items, other.items)
    for key in other.key_order:
        if key not in into.fields:
            into.fields[key] = Shape()
            into.key_order.append(key)
        merge(into.fields[key], other.fields[key])


def draft(game: str, seeds: int = 4, max_steps: int = 400) -> str:
    from skyarena.games import module_name, observation_class

    pkg = module_name(game)
    prefix = camel(pkg)
    observations, actions = sample(game, seeds, max_steps)
    shape = Shape()
    for observation in observations:
        shape.add(observation)
    writer = Writer()
    cls = observation_class(game)
    lines = writer.message_body(shape, cls, "  ")
    classes = engine_action_classes(pkg)
    for action in actions:
        if type(action) not in classes:
            classes.append(type(action))
    action_lines = action_message(prefix, classes, actions, writer)
    doc = (cls.__doc__ or "").strip()
    out = [
        f"// {GAMES[game].title}: the typed observation and action messages.",
        "//",
        f"// Drafted by proto/draft_game.py from the engine (referee/games/{pkg}) and the SDK's documented",
        f"// Observation (sdk/skyarena/games/{pkg}.py); the field names, nesting and meaning are the",
        "// engine's JSON observation's, documented in the game's README.",
        'syntax = "proto3";',
        "",
        "package skyarena.v1;",
        "",
    ]
    if writer.uses_common or "omit_when_unset" in "\n".join(lines + action_lines):
        out += ['import "skyarena/v1/common.proto";', ""]
    out += [f"// {line}" for line in textwrap.wrap(" ".join(doc.split()), 96)] if doc else []
    out += [f"message {prefix}Observation {{", *lines, "}", "", *action_lines]
    return "\n".join(out) + "\n"


def engine_action_classes(package: str) -> list[type]:
    """The engine's declared action classes (its ``actions.Action`` union), in order, so a
    class that random games never reach still gets its message."""
    import importlib
    import typing

    try:
        module = importlib.import_module(f"referee.games.{package}.actions")
    except ImportError:
        return []
    union = getattr(module, "Action", None)
    return [c for c in typing.get_args(union) if isinstance(c, type)] if union is not None else []


ANNOTATION_TYPES = {int: "sint64", str: "string", bool: "bool", float: "double"}


def annotation_field(hint: Any) -> tuple[str, str]:
    """(label, type) of an action field from its annotation (for classes never sampled)."""
    import typing

    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if hint in ANNOTATION_TYPES:
        return "", ANNOTATION_TYPES[hint]
    if origin in (tuple, list) and args and args[0] in ANNOTATION_TYPES:
        return "repeated ", ANNOTATION_TYPES[args[0]]
    if type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and rest[0] in ANNOTATION_TYPES:
            return "optional ", ANNOTATION_TYPES[rest[0]]
    return "", "Json"


def annotated_body(cls: type, indent: str) -> list[str]:
    import typing

    hints = typing.get_type_hints(cls)
    names = list(getattr(cls, "_fields", ())) or [f.name for f in dataclasses.fields(cls)]
    return [f"{indent}{label}{kind} {name} = {i};" for i, name in enumerate(names, 1)
            for label, kind in [annotation_field(hints.get(name))]]


def action_message(prefix: str, classes: list[type], actions: list[Any], writer: Writer) -> list[str]:
    """One message per action class (fields as the class's), or a oneof of them."""
    from skyarena.wire.registry import action_fields, snake_name

    if not classes or classes == [str]:
        return [f"// {prefix} actions are plain notation strings: Action.notation carries them.",
                f"message {prefix}Action {{", "  string notation = 1;", "}"]
    per_class: dict[type, Shape] = {c: Shape() for c in classes}
    for action in actions:
        per_class[type(action)].add(action_fields(action))
    out = ["// An action, as the engine's action type: one message per action class, named like it.",
           "// str() of the action is its notation, which Action.notation carries too."]
    nested = []
    fields = []
    for number, cls in enumerate(classes, 1):
        body = writer.message_body(per_class[cls], None, "    ") if per_class[cls].objects else \
            annotated_body(cls, "    ")
        if "Json" in "".join(body):
            writer.uses_common = True
        nested += [f"  // {line}" for line in textwrap.wrap(" ".join((cls.__doc__ or "").split()), 94)]
        nested += [f"  message {cls.__name__} {{", *body, "  }"]
        fields.append(f"    {cls.__name__} {snake_name(cls.__name__)} = {number};")
    out += [f"message {prefix}Action {{", *nested, "  oneof kind {", *fields, "  }", "}"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--seeds", type=int, default=4)
    args = parser.parse_args()
    from skyarena.games import module_name

    for game in sorted(GAMES) if args.all else args.games:
        text = draft(game, args.seeds)
        if args.write:
            path = ROOT / "proto" / "skyarena" / "v1" / "games" / f"{module_name(game)}.proto"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
        else:
            print(text)


if __name__ == "__main__":
    main()
