"""Fair clocks (issue 23): wall-clock against CPU-time charging of hosted bots, same run.

A "thinker" bot burns 70 % of the move limit in CPU every move; matches of it against itself
are played N at once (3, then 6) the way a worker hosts them: each seat a stdio bot process
relayed to a real referee on loopback (the relay measuring the bot's process tree, on the
service-token stream), every seat on a wall clock (the old rule) or on a CPU clock. Also: a
bot that spins forever and one that sleeps forever, and when each is cut off; and the
decisions per second of quick bots with and without the measuring.

``python bench/clocks.py --json`` prints one JSON object: ``matches`` (per configuration),
``time_faults`` ``{"wall": {"3": n, "6": n}, "cpu": {...}}``, ``platform_voids`` (matches
aborted as the platform's fault, same shape), ``spin_cutoff_s``, ``sleep_cutoff_s`` (with
the configured ``move_s`` and ``wall_backstop``), and ``overhead_ratio``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import statistics
import sys
import time
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games import GAMES  # noqa: E402
from referee.service import Limits, RefereeServer  # noqa: E402
from skyarena.cputime import TreeClock, tree_sample  # noqa: E402
from skyarena.remote.relay import relay  # noqa: E402
from skyarena.v1 import referee_pb2 as pb  # noqa: E402
from skyarena.v1 import referee_pb2_grpc as pb_grpc  # noqa: E402
from tests.toy_game import SPEC as TOY  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "tests" / "referee" / "bots" / "cpu_bot.py"
TOKEN = "bench-clocks-service-token-0123456789"
AUTH = (("authorization", f"Bearer {TOKEN}"),)
MOVE_S = 0.1
THINK = 0.7 * MOVE_S
BACKSTOP = 10.0
ROUNDS = 5
OVERHEAD_GAME = "skybirds"


def _serve(port_out: Connection, stop: EventType) -> None:
    """The referee process: serves on a free loopback port until ``stop`` is set."""

    async def serve() -> None:
        GAMES[TOY.name] = TOY
        server = RefereeServer(TOKEN, Limits(join_timeout_s=60.0, max_matches=10_000))
        port_out.send(await server.start("127.0.0.1:0"))
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await server.stop(grace_s=1.0)

    asyncio.run(serve())


class Referee:
    """A RefereeServer in a process of its own, as on the platform: the relays (the
    worker's side, this process) and the referee do not share an interpreter, so the
    measuring's cost is not inflated by the two taking turns on one GIL."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self.stop = context.Event()
        self.process = context.Process(target=_serve, args=(theirs, self.stop), daemon=True)
        self.process.start()
        if not ours.poll(60):
            raise RuntimeError("the benchmark's referee process did not start within 60 s")
        self.address = f"127.0.0.1:{ours.recv()}"

    def close(self) -> None:
        self.stop.set()
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()


async def play_one(stub: Any, address: str, mode: str, cpu: bool, measure: bool, move_s: float = MOVE_S,
                   first_move_s: float = 10.0, rounds: int = ROUNDS, game: str = TOY.name) -> pb.MatchStatus:
    options = {"rounds": rounds} if game == TOY.name else {}
    request = pb.StartMatchRequest(
        game=game, players=2, seed=int.from_bytes(os.urandom(4), "little"), options_json=json.dumps(
            options), time_control=pb.TimeControl(move_s=move_s, bank_s=0.0, first_move_s=first_move_s,
                                                             wall_backstop=BACKSTOP),
        strike_limit=1000, seats=[pb.SeatSpec(name=f"s{i}", cpu_clock=cpu) for i in range(2)])
    started = await stub.StartMatch(request, metadata=AUTH)

    async def seat(token: str) -> None:
        env = {**os.environ, "CPU_BOT": mode, "PYTHONPATH": str(ROOT)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "skyarena.remote", str(BOT), "--stdio", cwd=ROOT, env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        assert proc.stdout is not None and proc.stdin is not None
        try:
            await relay(proc.stdout, proc.stdin, address, token, cpu_clock=TreeClock(proc.pid) if measure else None,
                        service_token=TOKEN if measure else None)
        finally:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()

    await asyncio.gather(*(seat(s.token) for s in started.seats))
    status: pb.MatchStatus = await stub.GetMatch(pb.GetMatchRequest(match_id=started.match_id, include_replay=True),
                                                 metadata=AUTH)
    return status


def stack_cpu_s(referee_pid: int | None) -> float:
    """CPU seconds the whole stack has used so far: this process (the relays), its reaped
    children (the bots of finished matches) and the referee's process. Unlike a throughput,
    this does not move with what else the machine runs."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    referee = tree_sample(referee_pid).cpu_s if referee_pid is not None else 0.0
    return time.process_time() + children.ru_utime + children.ru_stime + referee


async def series(address: str, at_once: int, matches: int, cpu: bool, mode: str = f"think:{THINK}",
                 measure: bool = True, rounds: int = ROUNDS, game: str = TOY.name,
                 referee_pid: int | None = None) -> dict[str, Any]:
    from grpc import aio

    faults = voids = decisions = 0
    void_reasons: list[str] = []
    cpu_before = stack_cpu_s(referee_pid)
    async with aio.insecure_channel(address) as channel:
        stub = pb_grpc.RefereeStub(channel)
        todo = list(range(matches))
        started = time.perf_counter()

        async def lane() -> None:
            nonlocal faults, voids, decisions
            while todo:
                todo.pop()
                status = await play_one(stub, address, mode, cpu, measure, rounds=rounds, game=game)
                if status.state == pb.MATCH_STATE_ABORTED:
                    voids += 1
                    void_reasons.append(status.end.reason)
                faults += sum(1 for f in status.end.faults if f.kind == "timeout")
                decisions += status.decisions

        await asyncio.gather(*(lane() for _ in range(at_once)))
        seconds = time.perf_counter() - started
    return {"matches": matches, "time_faults": faults, "platform_voids": voids, "void_reasons": void_reasons,
            "decisions": decisions, "seconds": seconds, "cpu_s": stack_cpu_s(referee_pid) - cpu_before}


async def cutoff(address: str, mode: str) -> float:
    """When a bot stuck on its second decision is cut off: CPU seconds (spin) or wall (sleep)."""
    from grpc import aio

    async with aio.insecure_channel(address) as channel:
        status = await play_one(pb_grpc.RefereeStub(channel), address, mode, cpu=True, measure=True, move_s=0.5,
                                first_move_s=0.5, rounds=2)
    records = [json.loads(line) for line in status.replay_jsonl.splitlines()]
    charges = [c for c in records[-1]["charges"] if c["turn"] == 2]
    key = "charged_s" if mode == "spin" else "wall_s"
    return max(c[key] for c in charges)


def overhead(referee: Referee, pairs: int) -> dict[str, Any]:
    """Decisions per second of quick bots with the measuring (CPU clocks, the relay sampling
    /proc at each answer) and without (wall clocks, no sampling), in alternating series so
    the machine's load falls on both alike: the median of the pairs' ratios
    (``overhead_ratio``). The game is Skybirds, whose first-legal-action matches run about a
    thousand decisions, so a bot process's start-up (a fifth of a second) does not hide the
    per-decision cost. The same series also give decisions per CPU second of the whole
    stack (relays, bots, referee; ``overhead_ratio_cpu``): what the measuring costs in CPU,
    which the load of other work on the machine does not blur as it blurs a throughput."""
    rates: dict[str, list[float]] = {"measured": [], "bare": []}
    per_cpu: dict[str, list[float]] = {"measured": [], "bare": []}
    ratios, cpu_ratios = [], []
    for _ in range(pairs):
        for kind in ("measured", "bare"):
            run = asyncio.run(series(referee.address, 3, 3, cpu=kind == "measured", mode="think:0",
                                     measure=kind == "measured", game=OVERHEAD_GAME, referee_pid=referee.process.pid))
            rates[kind].append(run["decisions"] / run["seconds"])
            per_cpu[kind].append(run["decisions"] / run["cpu_s"])
        ratios.append(rates["measured"][-1] / rates["bare"][-1])
        cpu_ratios.append(per_cpu["measured"][-1] / per_cpu["bare"][-1])
    return {"decisions_per_s": rates, "decisions_per_cpu_s": per_cpu, "overhead_ratio": statistics.median(ratios),
            "overhead_ratio_cpu": statistics.median(cpu_ratios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches per configuration")
    parser.add_argument("--overhead-pairs", type=int, default=7,
                        help="alternating with/without series for overhead_ratio (their median ratio)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--json-out", type=Path, help="also write them to this file")
    args = parser.parse_args()
    referee = Referee()
    out: dict[str, Any] = {"move_s": MOVE_S, "think_s": THINK, "wall_backstop": BACKSTOP, "rounds": ROUNDS,
                           "cores": len(os.sched_getaffinity(0)), "load_before": os.getloadavg()[0],
                           "matches": {}, "time_faults": {}, "platform_voids": {}, "void_reasons": {}}
    try:
        for clock in ("wall", "cpu"):
            for at_once in (3, 6):
                run = asyncio.run(series(referee.address, at_once, args.matches, cpu=clock == "cpu"))
                out["matches"].setdefault(clock, {})[str(at_once)] = run["matches"]
                out["time_faults"].setdefault(clock, {})[str(at_once)] = run["time_faults"]
                out["platform_voids"].setdefault(clock, {})[str(at_once)] = run["platform_voids"]
                out["void_reasons"].setdefault(clock, {})[str(at_once)] = sorted(set(run["void_reasons"]))
        out["spin_cutoff_s"] = asyncio.run(cutoff(referee.address, "spin"))
        out["sleep_cutoff_s"] = asyncio.run(cutoff(referee.address, "sleep"))
        out["cutoff_configured"] = {"spin_s": 0.5, "sleep_s": 0.5 * BACKSTOP}
        # A referee of its own: one that has kept 400 finished matches in memory collects
        # garbage for longer, which blurs a few-percent comparison.
        fresh = Referee()
        try:
            out.update(overhead(fresh, pairs=args.overhead_pairs))
        finally:
            fresh.close()
        out["load_after"] = os.getloadavg()[0]
    finally:
        referee.close()
    text = json.dumps(out, indent=None if args.json else 2)
    if args.json_out:
        args.json_out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
