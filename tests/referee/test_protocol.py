"""The wire contract: generated code is fresh, conversions are exact, services are discoverable."""

from __future__ import annotations

import filecmp
import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pool, message_factory
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from referee.games import GAMES, make
from referee.games.core.playout import random_joint_action
from skyarena.games import to_observation
from skyarena.v1 import game_pb2
from skyarena.wire import (
    ConversionError,
    action_bytes,
    action_kwargs,
    action_to_proto,
    dict_to_message,
    legal_actions_from_proto,
    message_to_dict,
    observation_from_proto,
    observation_kwargs,
    observation_to_proto,
    typed_action_bytes,
    wire_for,
)

from .conftest import ROOT, Referee

# ----- generated code --------------------------------------------------------------------


def test_generated_code_is_fresh(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("proto_generate", ROOT / "proto" / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    fresh = generate.generate(tmp_path)
    committed = ROOT / "sdk" / "skyarena" / "v1"
    fresh_files = sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file() and "__pycache__" not in str(p))
    committed_files = sorted(p.relative_to(committed) for p in committed.rglob("*")
                             if p.is_file() and "__pycache__" not in str(p))
    assert fresh_files == committed_files, "the generated files differ from the committed ones: run make proto"
    stale = [str(p) for p in fresh_files if not filecmp.cmp(fresh / p, committed / p, shallow=False)]
    assert not stale, f"stale generated code ({', '.join(stale)}): run make proto"


def test_the_protocol_reference_is_fresh_and_comments_every_online_field() -> None:
    """docs/PROTOCOL.md is what proto/reference.py makes of the .proto comments, and the Online
    service (what a bot in another language is written from) leaves no call, message or field bare."""
    spec = importlib.util.spec_from_file_location("proto_reference", ROOT / "proto" / "reference.py")
    assert spec is not None and spec.loader is not None
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    text = reference.reference()
    assert (ROOT / "docs" / "PROTOCOL.md").read_text() == text, "docs/PROTOCOL.md is stale: run make proto"
    online = text.split("## `skyarena/v1/online.proto`")[1].split("\n## ")[0]
    for line in online.splitlines():
        assert not line.endswith("|  |") and not line.endswith("| |"), f"an online.proto row has no comment: {line}"
    assert online.count("### ") == 9  # the service and its 8 messages


def test_generated_code_has_typed_stubs() -> None:
    committed = ROOT / "sdk" / "skyarena" / "v1"
    for module in committed.rglob("*_pb2.py"):
        assert module.with_suffix(".pyi").exists(), f"{module.name} has no .pyi stub: run make proto"


# ----- conversions -----------------------------------------------------------------------

def _default_counts(spec: Any) -> list[int]:
    """The fewest and the most players a game takes with its default options."""
    valid = []
    for n in spec.player_counts():
        try:
            spec.validate(n, {})
        except Exception:
            continue
        valid.append(n)
    return sorted({valid[0], valid[-1]}) if valid else []


def _cases() -> list[tuple[str, int]]:
    return [(name, n) for name, spec in sorted(GAMES.items()) for n in _default_counts(spec)]


def _roundtrip_observation(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """Through the referee's encoder, the bytes on the wire and the SDK's decoder."""
    wire = game_pb2.Observation(**observation_kwargs(game, data))  # type: ignore[arg-type]
    if wire_for(game) is not None:
        assert wire.WhichOneof("game") != "json"
        # the checked walk agrees with the fast path
        assert observation_to_proto(game, data) == wire
    back = game_pb2.Observation.FromString(wire.SerializeToString())
    return observation_from_proto(game, back)


@pytest.mark.parametrize(("game", "players"), _cases())
def test_observations_and_actions_convert_both_ways(game: str, players: int) -> None:
    """Every observation and legal action reached in random games survives the wire exactly,
    and the SDK builds the same typed objects from it as local play does."""
    try:
        _check_conversions(game, players)
    except (ConversionError, TypeError, ValueError, KeyError, AssertionError) as exc:
        raise AssertionError(
            f"{game}'s data no longer fits its wire messages ({type(exc).__name__}: {str(exc)[:300]}). If the "
            f"engine's observation or actions changed on purpose, redraft them: python proto/draft_game.py "
            f"{game} --write && make proto"
        ) from exc


def _check_conversions(game: str, players: int) -> None:
    wire = wire_for(game)
    for seed in range(2):
        state = make(game, players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in range(players):
                data = state.observation(seat)
                back = _roundtrip_observation(game, data)
                assert json.dumps(back, sort_keys=True) == json.dumps(data, sort_keys=True), (game, seat)
                assert to_observation(game, back) == to_observation(game, data)
            for seat in state.to_move():
                legal = state.legal_actions(seat)
                messages = [game_pb2.Action.FromString(
                    game_pb2.Action(**action_kwargs(game, a, wire)).SerializeToString())  # type: ignore[arg-type]
                    for a in legal]
                if wire is not None:
                    assert all(m.WhichOneof("game") == wire.field for m in messages)
                assert [m.notation for m in messages] == [str(a) for a in legal]
                rebuilt = legal_actions_from_proto(game, messages)
                if wire is not None:
                    assert rebuilt == legal and [type(a) for a in rebuilt] == [type(a) for a in legal]
                    # the referee's per-action caches (shared by every match of a process) hand out
                    # each action's own bytes, also for equal tuples of another class met earlier
                    fresh = [game_pb2.Action(**action_kwargs(game, a, wire)).SerializeToString()  # type: ignore[arg-type]
                             for a in legal]
                    assert [action_bytes(game, a, wire) for a in legal] == fresh, game
                    assert [typed_action_bytes(game, a, wire) for a in legal] == [
                        getattr(game_pb2.Action.FromString(f), wire.field).SerializeToString(deterministic=True)
                        for f in fresh], game
                else:
                    assert rebuilt == [str(a) for a in legal]
            state.apply(random_joint_action(state, rng))


def test_toy_game_travels_as_json(toy_game: str) -> None:
    state = make(toy_game, 3, seed=2)
    data = state.observation(1)
    message = observation_to_proto(toy_game, data)
    assert message.WhichOneof("game") == "json"
    assert observation_from_proto(toy_game, message) == data
    assert action_to_proto(toy_game, "keep").notation == "keep"


def test_generic_walker_conventions() -> None:
    """Nulls, nested lists and maps, checked on a hand-made descriptor-free example: the
    wire's JSON fallback and the error for a key with no field."""
    with pytest.raises(ConversionError, match="has no field 'nope'"):
        dict_to_message({"nope": 1}, game_pb2.Action())
    msg = dict_to_message({"notation": "x"}, game_pb2.Action())
    assert message_to_dict(msg)["notation"] == "x"


# ----- discoverability -------------------------------------------------------------------

def test_generic_client_lists_services_and_checks_health(referee: Referee) -> None:
    """A client that has none of our stubs: everything comes from server reflection."""
    with grpc.insecure_channel(referee.address) as channel:
        reflection_db = ProtoReflectionDescriptorDatabase(channel)
        services = set(reflection_db.get_services())
        assert {"skyarena.v1.Referee", "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= services
        pool = descriptor_pool.DescriptorPool(reflection_db)
        referee_service = pool.FindServiceByName("skyarena.v1.Referee")
        assert {m.name for m in referee_service.methods} >= {"StartMatch", "Play", "Watch", "GetMatch"}
        play = referee_service.methods_by_name["Play"]
        assert play.client_streaming and play.server_streaming
        health = pool.FindServiceByName("grpc.health.v1.Health")
        check = health.methods_by_name["Check"]
        request_cls = message_factory.GetMessageClass(check.input_type)
        response_cls = message_factory.GetMessageClass(check.output_type)
        call = channel.unary_unary("/grpc.health.v1.Health/Check", request_serializer=request_cls.SerializeToString,
                                   response_deserializer=response_cls.FromString)
        for service in ("", "skyarena.v1.Referee"):
            response = call(request_cls(service=service), timeout=5)
            assert response_cls.DESCRIPTOR.fields_by_name["status"].enum_type.values_by_number[
                response.status].name == "SERVING"
        # A generic call into the Referee itself, with reflected types: an unknown match.
        get = referee_service.methods_by_name["GetMatch"]
        get_call = channel.unary_unary("/skyarena.v1.Referee/GetMatch",
                                       request_serializer=message_factory.GetMessageClass(get.input_type)
                                       .SerializeToString,
                                       response_deserializer=message_factory.GetMessageClass(get.output_type)
                                       .FromString)
        with pytest.raises(grpc.RpcError) as err:
            get_call(message_factory.GetMessageClass(get.input_type)(match_id="nope"), timeout=5)
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert sys.modules  # keep the import of sys used on every platform


@pytest.mark.parametrize("game", sorted(g for g in GAMES if wire_for(g) is not None))
def test_the_per_action_caches_keep_equal_tuples_of_two_classes_apart(game: str) -> None:
    """The referee keeps each action's serialized message, for every match of its process.
    Most engines' actions are NamedTuples, and tuples of two classes with the same fields are
    equal and hash alike (Oddball's ``Announce(2) == Protect(2)``): a cache keyed by value
    alone sent a Protect as the Announce met before it, and the bot was handed the wrong
    legal actions. Every action reached in random games must get its own bytes."""
    wire = wire_for(game)
    assert wire is not None
    seen: dict[tuple[type, Any], Any] = {}
    for seed in range(30):
        state = make(game, GAMES[game].min_players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in state.to_move():
                for action in state.legal_actions(seat):
                    seen.setdefault((type(action), action), action)
            state.apply(random_joint_action(state, rng))
    actions = list(seen.values())
    random.Random(0).shuffle(actions)
    for action in actions:
        fresh = game_pb2.Action(**action_kwargs(game, action, wire)).SerializeToString()  # type: ignore[arg-type]
        assert action_bytes(game, action, wire) == fresh, (type(action).__name__, str(action))
        typed = getattr(game_pb2.Action.FromString(fresh), wire.field).SerializeToString(deterministic=True)
        assert typed_action_bytes(game, action, wire) == typed, (type(action).__name__, str(action))
    collide = [a for a in actions if any(type(b) is not type(a) and b == a for b in actions)]
    if game == "oddball-aeronauts":  # the case that was hit: the test must keep reaching it
        assert collide, "random play no longer reaches two equal actions of different classes"
