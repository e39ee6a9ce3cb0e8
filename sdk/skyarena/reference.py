"""One reference per game for bot authors (``skyarena docs GAME``), generated from what
is installed: the game's spec (players, options), its SDK observation's field docs, the
decision kinds and legal actions seen in seeded games, and the engine README's notation,
results and ``setup`` sections.

Generated rather than written: it cannot drift from the code, and a pip user without the
repository has every part of it (the engine READMEs are package data, the field docs are in
the installed source).
"""

from __future__ import annotations

import json
import random
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from referee.games import GameSpec, make, spec

from .games import module_name, observation_class
from .observation import document_fields, fields_section, nested_types

SAMPLE_SEEDS = range(40)       # seeded random games whose decisions the reference shows...
SAMPLE_PATIENCE = 8            # ... until this many games in a row showed no new decision kind
EXAMPLES_PER_KIND = 4          # legal actions shown per decision kind
README_SECTIONS = ("## Action notation", "## Who decides when", "## Result", "## `setup`")


@dataclass
class DecisionKind:
    """What a bot meets at one kind of decision, as seen in the sample games."""

    name: str
    action_types: dict[str, Any] = field(default_factory=dict)   # type name -> the type
    examples: list[str] = field(default_factory=list)
    payload: Any = None                                            # an example ``pending``


def _decision_key(observation: dict[str, Any]) -> str:
    """A game names its decision kinds in ``decision`` (Skyjo Action) or else ``phase``."""
    return str(observation.get("decision") or observation.get("phase") or "decision")


def sample_decisions(game: str) -> list[DecisionKind]:
    """Every decision kind met in a few seeded games of random play, with its legal actions."""
    game_spec = spec(game)
    kinds: dict[str, DecisionKind] = {}
    last_new = 0
    for seed in SAMPLE_SEEDS:
        if seed - last_new >= SAMPLE_PATIENCE:
            break
        known = len(kinds)
        state = make(game, game_spec.min_players, seed)
        chooser = random.Random(seed)
        while not state.is_over():
            joint = {}
            for seat in state.to_move():
                observation = state.observation(seat)
                legal = state.legal_actions(seat)
                kind = kinds.setdefault(_decision_key(observation), DecisionKind(_decision_key(observation)))
                for action in legal:
                    kind.action_types.setdefault(type(action).__name__, type(action))
                for action in legal:
                    if len(kind.examples) >= EXAMPLES_PER_KIND:
                        break
                    if str(action) not in kind.examples:
                        kind.examples.append(str(action))
                if kind.payload is None and observation.get("pending"):
                    kind.payload = observation["pending"]
                joint[seat] = legal[chooser.randrange(len(legal))]
            state.apply(joint)
        if len(kinds) > known:
            last_new = seed
    return list(kinds.values())


def readme_sections(game: str) -> Iterator[str]:
    """The engine README's sections a bot author needs, verbatim (one source of truth)."""
    try:
        text = (resources.files(f"referee.games.{module_name(game)}") / "README.md").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return
    sections = ("\n" + text).split("\n## ")
    for section in sections[1:]:
        if any(("## " + section).startswith(prefix) for prefix in README_SECTIONS):
            yield "## " + section.strip() + "\n"


def _action_type(cls: type[Any]) -> str:
    if cls is str:
        return "`str`: the action is its notation"
    fields_ = getattr(cls, "_fields", None)
    signature = f"{cls.__name__}({', '.join(fields_)})" if fields_ else cls.__name__
    doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
    generated = doc == signature  # a named tuple's own docstring says no more than its signature
    return f"`{signature}` ({cls.__module__})" + (f": {doc}" if doc and not generated else "")


def _options(game_spec: GameSpec) -> list[str]:
    lines = ["## Options (`-o NAME=VALUE`)", ""]
    for option in game_spec.all_options():
        default = option.default if isinstance(option.default, str) else json.dumps(option.default)
        lines.append(f"- `{option.name}` (default `{default}`; {option.allowed()}): {option.description}")
    return lines


def _observation(game: str) -> list[str]:
    cls = observation_class(game)
    document_fields(cls)
    lines = [f"## The observation: `skyarena.games.{module_name(game)}.{cls.__name__}`", "",
             textwrap.dedent((cls.__doc__ or "").split("\nFields\n")[0]).strip(), "", "```", fields_section(cls), "```"]
    seen: list[type[Any]] = []
    todo = nested_types(cls)
    while todo:
        nested = todo.pop(0)
        if nested in seen:
            continue
        seen.append(nested)
        todo.extend(nested_types(nested))
        summary = (nested.__doc__ or "").split("\nFields\n")[0].strip()
        lines += ["", f"### `{nested.__name__}`", "", textwrap.dedent(summary), "",
                  "```", fields_section(nested), "```"]
    return lines


def _decisions(game: str) -> list[str]:
    lines = ["## Decisions and legal actions", "",
             "`act(observation, legal_actions)` gets the legal actions in canonical order; return one of them, its "
             "notation string (`str(action)`) or its index. The fallback for a fault is the first one.", "",
             "The decision kinds below are those met in a few seeded games of random play (rarer ones are listed in "
             "the observation's field docs), each with its legal actions' types and first examples.", ""]
    kinds = sample_decisions(game)
    types = {name: t for kind in kinds for name, t in kind.action_types.items()}
    lines += ["Action types:", ""] + [f"- {_action_type(t)}" for t in types.values()] + [""]
    for kind in kinds:
        lines.append(f"### `{kind.name}`")
        lines.append("")
        lines.append(f"- {' or '.join(f'`{name}`' for name in kind.action_types)}, e.g. "
                     + ", ".join(f"`{e}`" for e in kind.examples))
        if kind.payload is not None:
            lines.append(f"- `pending` e.g. `{json.dumps(kind.payload, sort_keys=True)}`")
        lines.append("")
    return lines


def rulebook_note(game_spec: GameSpec) -> str:
    """Where the rulebook is: its file on this machine when the source tree is here, else
    said plainly to be part of the source only (pip installs the engines, not the rulebooks)."""
    if not game_spec.rulebook:
        return ""
    source = Path(__file__).resolve().parents[2] / game_spec.rulebook  # sdk/skyarena/ -> the checkout
    if source.is_file():
        return f" Rules: {source}."
    return (f" Rules: the rulebook {Path(game_spec.rulebook).name} is in the Skyarena source ({game_spec.rulebook}),"
            " not in a pip install; what a bot needs of it is below.")


def reference(game: str) -> str:
    """The whole reference of ``game`` as Markdown."""
    game_spec = spec(game)
    players = (str(game_spec.min_players) if game_spec.min_players == game_spec.max_players
               else f"{game_spec.min_players}–{game_spec.max_players}")
    head = [f"# {game_spec.title} (`{game}`): the bot author's reference", "",
            f"{players} players" + (", co-operative (the seats win or lose together)" if game_spec.cooperative else "")
            + f"; engine version {game_spec.version}."
            + rulebook_note(game_spec), ""]
    if game_spec.description:
        head += [game_spec.description, ""]
    parts = [*head, *_observation(game), "", *_decisions(game), *_options(game_spec), "", *readme_sections(game)]
    return "\n".join(parts).rstrip() + "\n"
