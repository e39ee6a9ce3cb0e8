"""Referee throughput and latency over loopback, beside a raw gRPC ping-pong of the same size.

The referee and the bots run as separate processes, as in production: the referee
(``skyarena referee serve``) and a bot process whose seats each play over their own
channel and ``Play`` stream, as real gRPC clients over loopback. The baseline is a bare
gRPC echo server with a client process that sends messages of the referee's answer size
and gets back messages of its turn-request size, on one bidirectional stream, strictly one
at a time.

The headline bot is the echo client's counterpart: a raw client that answers index 0 the
moment a turn request arrives, so the gap to the ping-pong is the referee's own work (the
target is about the referee). The same match played by the SDK's seat logic (typed
observation, ``Bot.act``, answer encoding: what a Python bot pays on its own clock) is
reported beside it (``decisions_per_s_sdk_bot``).

Both figures therefore have the same topology: one server process and one client process
(the single match's two seats are two streams of one client process, on one event loop).
The same match with each seat in its own process is reported beside it
(``decisions_per_s_two_processes``): on a two-core machine three busy processes share two
cores, which costs about a third by itself (``relay_two_streams_per_s`` shows it with no
referee in between).

The bot, echo and relay processes are ``bench/referee_roles.py``; this file starts them and
the referee and computes the figures.

The game is a dedicated two-seat alternating game with a trivial rule (``bench-alternate``)
so the figures measure the referee and the protocol, not an engine (``bench/engines.py``
does that); ``--game`` measures a real game too.

- decisions_per_s: seat decisions answered per second in one match (strictly sequential:
  one decision in flight, the same shape as the ping-pong), both seats in one raw bot process;
- decisions_per_s_sdk_bot: the same, the seats played by the SDK's SeatSession;
- decisions_per_s_two_processes: the same with each seat in its own bot process;
- p50_ms / p99_ms: the referee's turnaround per decision, from a bot sending its answer to
  the next turn request arriving at a bot (two network hops plus the referee's work),
  against the ping-pong's round trip from send to echo;
- concurrent8_decisions_per_s: eight such matches at once in one referee (two bot
  processes with eight seats each);
- relay_two_streams_per_s: the two-process shape with nothing in it (a server passing each
  message from one stream to the other, two client processes taking turns), which shows
  what that topology itself costs against the one-stream ping-pong.

- scale: the figure that matters once many leagues share a referee. For 1, 8, 32 and 128
  concurrent matches of a real game (Sky Team by default, ``--scale-game``), every seat a raw
  client answering index 0 at once: total decisions per second across the matches, p50/p99
  turnaround, and the referee process's CPU time (user + system, from /proc) per decision.
  Each level keeps its matches going for at least ``--scale-decisions`` decisions: a slot
  that finishes its match starts the next one.

    python bench/referee.py                 # table
    python bench/referee.py --scale-only    # only the scale curve
    python bench/referee.py --json          # {"decisions_per_s", "raw_pingpong_per_s", "ratio", ...}
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games import GameSpec, OptionSpec, Result, State  # noqa: E402
from referee.games.core.rng import CounterRng  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ROLES = str(Path(__file__).with_name("referee_roles.py"))  # the bot, echo and relay processes
TARGET_RATIO = 0.70
TARGET_CONCURRENT8 = 2000.0


# ----- the bench game ----------------------------------------------------------------------

class AlternateState(State):
    """Two seats take turns choosing "a" or "b" until ``decisions`` choices were made."""

    game = "bench-alternate"
    __slots__ = ("n", "last")

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.n = 0
        self.last = ""

    def to_move(self) -> tuple[int, ...]:
        return () if self.n >= self.options["decisions"] else (self.n % 2,)

    def _legal_actions(self, seat: int) -> list[Any]:
        return ["a", "b"] if self.n < self.options["decisions"] and seat == self.n % 2 else []

    def _apply(self, actions: dict[int, Any]) -> None:
        self.last = next(iter(actions.values()))
        self.n += 1

    def _observation(self, seat: int) -> dict[str, Any]:
        return {"decision": self.n, "seat": seat, "last": self.last}

    def public_view(self) -> dict[str, Any]:
        return {"decision": self.n, "last": self.last}

    def result(self) -> Result | None:
        return Result.from_scores([0, 0], "done") if self.n >= self.options["decisions"] else None

    def _copy_into(self, twin: State) -> None:
        assert isinstance(twin, AlternateState)
        twin.n = self.n
        twin.last = self.last

    def snapshot(self) -> dict[str, Any]:
        return {"n": self.n, "last": self.last}

    def resample_hidden(self, seat: int, rng: CounterRng) -> State:
        return self.clone()


SPEC = GameSpec(
    name="bench-alternate", title="Alternate (benchmark game)", version="1", min_players=2, max_players=2,
    factory=AlternateState,
    options=(OptionSpec("decisions", 2000, "Decisions in a match.", int, minimum=1, maximum=1_000_000),),
    max_decisions=1_000_000,
)


# ----- the orchestrator --------------------------------------------------------------------

def _spawn(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.update(kwargs.pop("env", {}))
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, text=True, **kwargs)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Referee:
    # Set by --profile: the referee runs under cProfile and writes its profile here on exit.
    profile: Path | None = None

    def __init__(self) -> None:
        import tempfile

        self.token = secrets.token_urlsafe(24)
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - the referee's stderr, shown if it dies; close()
        profiler = ("-m", "cProfile", "-o", str(self.profile)) if self.profile else ()
        self.proc = _spawn(*profiler, "-m", "skyarena.cli", "referee", "serve", "--listen", "127.0.0.1:0",
                           "--register-game", "bench.referee:SPEC", "--log-level", "warning",
                           "--max-matches", "10000", stdout=subprocess.PIPE, stderr=self.log,
                           env={"SKYARENA_SERVICE_TOKEN": self.token})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"listening on ([\d.]+:\d+)", line)
        if not match:
            raise SystemExit(f"the referee did not start: {line!r}")
        self.address = match.group(1)

    def start_matches(self, game: str, count: int, options: dict[str, Any]) -> list[list[str]]:
        """Start ``count`` two-seat matches (seeds 0, 1, ...); each one's seat tokens."""
        from referee.match import TimeControl
        from skyarena.referee_client import RefereeClient, start_request

        self.check()
        clock = TimeControl(move_s=30, bank_s=60, first_move_s=60)

        async def start() -> list[list[str]]:
            out = []
            async with RefereeClient.connect(self.address, self.token, timeout_s=10) as client:
                for i in range(count):
                    started = await client.start(start_request(game, 2, options, clock, None, ["bench"] * 2, seed=i,
                                                               join_timeout_s=120))
                    out.append([seat.token for seat in started.seats])
            return out

        return asyncio.run(start())

    def cpu_s(self) -> float:
        """The referee process's CPU time so far (user + system), from /proc."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def check(self) -> None:
        """Stop the bench with the referee's last words if it died."""
        if self.proc.poll() is not None:
            self.log.seek(0)
            tail = self.log.read().decode(errors="replace")[-4000:]
            raise SystemExit(f"the referee exited with code {self.proc.returncode}:\n{tail}")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()


def run_seats(address: str, tokens_per_process: list[list[str]], sdk: bool = False) -> list[dict[str, Any]]:
    """Seat processes (tokens per process); returns every seat's record."""
    procs = [_spawn(ROLES, "--role", "seats", "--address", address, f"--tokens={','.join(tokens)}",
                    *(["--sdk"] if sdk else []), stdout=subprocess.PIPE) for tokens in tokens_per_process]
    seats = []
    for proc in procs:
        out, _ = proc.communicate(timeout=600)
        if proc.returncode != 0:
            raise SystemExit("a bench seat process failed")
        seats += json.loads(out)["seats"]
    return seats


SCALE_LEVELS = (1, 8, 32, 128)
SCALE_PROCESSES = 2  # bot processes per level (the slots are split between them)


def scale(game: str, min_decisions: int, levels: tuple[int, ...] = SCALE_LEVELS) -> list[dict[str, Any]]:
    """Total decisions/s, turnaround and referee CPU per decision with ``level`` concurrent
    matches of ``game``, for each level; one referee for all levels, warmed first."""
    referee = Referee()
    curve = []
    try:
        warm = referee.start_matches(game, 2, {})
        run_slots(referee.address, [[warm[0]], [warm[1]]])
        per_match = max(1, summarise(run_slots(referee.address, [[referee.start_matches(game, 1, {})[0]]]))
                        ["decisions"])
        for level in levels:
            rounds = max(1, -(-min_decisions // (per_match * level)))
            tokens = referee.start_matches(game, level * rounds, {})
            slots = [tokens[i * rounds:(i + 1) * rounds] for i in range(level)]
            cpu = referee.cpu_s()
            seats = run_slots(referee.address, slots)
            cpu = referee.cpu_s() - cpu
            figures = summarise(seats)
            curve.append({"matches": level, "decisions": figures["decisions"],
                          "decisions_per_s": round(figures["decisions_per_s"], 1),
                          "p50_ms": round(figures["p50_ms"], 3), "p99_ms": round(figures["p99_ms"], 3),
                          "referee_cpu_us_per_decision": round(1e6 * cpu / figures["decisions"], 1)})
    finally:
        referee.close()
    base = curve[0]["decisions_per_s"]
    for point in curve:
        point["speedup"] = round(point["decisions_per_s"] / base, 2)
    return curve


def run_slots(address: str, slots: list[list[list[str]]]) -> list[dict[str, Any]]:
    """Slots of matches split over SCALE_PROCESSES bot processes; every seat's record."""
    groups = [slots[i::SCALE_PROCESSES] for i in range(SCALE_PROCESSES)]
    procs = [_spawn(ROLES, "--role", "slots", "--address", address, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
             for group in groups if group]
    seats = []
    for proc, group in zip(procs, [g for g in groups if g]):
        out, _ = proc.communicate(json.dumps(group), timeout=900)
        if proc.returncode != 0:
            raise SystemExit("a bench slot process failed")
        seats += json.loads(out)["seats"]
    return seats


def summarise(seats: list[dict[str, Any]]) -> dict[str, Any]:
    by_match: dict[str, list[dict[str, Any]]] = {}
    for seat in seats:
        by_match.setdefault(seat["match_id"], []).append(seat)
    turnarounds: list[float] = []
    decisions = 0
    starts, ends = [], []
    for match_seats in by_match.values():
        events = sorted((r, s) for seat in match_seats for r, s in zip(seat["received"], seat["sent"]))
        decisions += len(events)
        starts.append(events[0][0])
        ends.append(events[-1][1])
        turnarounds += [events[i + 1][0] - events[i][1] for i in range(len(events) - 1)]
    elapsed = max(ends) - min(starts)
    sizes = [size for seat in seats for size in seat["sizes"]] or [(0, 0)]
    return {
        "decisions": decisions,
        "decisions_per_s": decisions / elapsed,
        "p50_ms": 1000 * _percentile(turnarounds, 0.50),
        "p99_ms": 1000 * _percentile(turnarounds, 0.99),
        "request_bytes": round(statistics.mean(s[0] for s in sizes)),
        "answer_bytes": round(statistics.mean(s[1] for s in sizes)),
    }


def pingpong(n: int, request_size: int, reply_size: int) -> dict[str, Any]:
    import tempfile

    port_file = Path(tempfile.mkstemp(prefix="bench-echo-")[1])
    port_file.write_text("")
    server = _spawn(ROLES, "--role", "echo-server", "--port-file", str(port_file))
    try:
        for _ in range(200):
            if port_file.read_text().strip():
                break
            time.sleep(0.05)
        client = _spawn(ROLES, "--role", "echo-client", "--port", port_file.read_text().strip(), "--n", str(n),
                        "--request-size", str(request_size), "--reply-size", str(reply_size),
                        stdout=subprocess.PIPE)
        out, _ = client.communicate(timeout=600)
        data = json.loads(out)
    finally:
        server.terminate()
        server.wait(30)
        port_file.unlink(missing_ok=True)
    rtts = data["rtts"]
    return {"per_s": data["per_s"], "p50_ms": 1000 * _percentile(rtts, 0.5), "p99_ms": 1000 * _percentile(rtts, 0.99)}


def relay(n: int, request_size: int, reply_size: int) -> float:
    """Messages per second through the do-nothing two-stream relay (two client processes)."""
    import tempfile

    port_file = Path(tempfile.mkstemp(prefix="bench-relay-")[1])
    port_file.write_text("")
    server = _spawn(ROLES, "--role", "relay-server", "--port-file", str(port_file))
    try:
        for _ in range(200):
            if port_file.read_text().strip():
                break
            time.sleep(0.05)
        port = port_file.read_text().strip()
        sides = [_spawn(ROLES, "--role", "relay-client", "--port", port, "--side", side, "--n", str(n // 2),
                        "--request-size", str(request_size), "--reply-size", str(reply_size),
                        stdout=subprocess.PIPE) for side in ("B", "A")]
        outs = [side.communicate(timeout=600)[0] for side in sides]
    finally:
        server.terminate()
        server.wait(30)
        port_file.unlink(missing_ok=True)
    return float(json.loads(outs[1])["per_s"])


def measure(decisions: int, repeats: int, game: str | None) -> dict[str, Any]:
    """Referee runs and ping-pong runs interleaved (this machine's load changes by the
    second), the best of each kept; the median ratio of the pairs is reported too."""
    referee = Referee()
    singles: list[dict[str, Any]] = []
    sdk_singles: list[dict[str, Any]] = []
    separates: list[dict[str, Any]] = []
    pings: list[dict[str, Any]] = []
    relays: list[float] = []
    try:
        # Warm the referee (imports, first-match costs) before measuring.
        warm = referee.start_matches("bench-alternate", 1, {"decisions": 200})
        run_seats(referee.address, [warm[0]])
        for _ in range(repeats):
            tokens = referee.start_matches("bench-alternate", 1, {"decisions": decisions})
            singles.append(summarise(run_seats(referee.address, [tokens[0]])))
            tokens = referee.start_matches("bench-alternate", 1, {"decisions": decisions})
            sdk_singles.append(summarise(run_seats(referee.address, [tokens[0]], sdk=True)))
            tokens = referee.start_matches("bench-alternate", 1, {"decisions": decisions})
            separates.append(summarise(run_seats(referee.address, [[tokens[0][0]], [tokens[0][1]]])))
            pings.append(pingpong(decisions, singles[-1]["answer_bytes"], singles[-1]["request_bytes"]))
            relays.append(relay(decisions, singles[-1]["answer_bytes"], singles[-1]["request_bytes"]))
        concurrents = []
        for _ in range(max(1, repeats // 2)):
            tokens = referee.start_matches("bench-alternate", 8, {"decisions": decisions})
            concurrents.append(summarise(run_seats(referee.address, [[t[0] for t in tokens],
                                                                     [t[1] for t in tokens]])))
        extra = None
        if game:
            tokens = referee.start_matches(game, 1, {})
            extra = summarise(run_seats(referee.address, [tokens[0]]))
    finally:
        referee.close()
    single = max(singles, key=lambda s: s["decisions_per_s"])
    ping = max(pings, key=lambda p: p["per_s"])
    concurrent = max(concurrents, key=lambda s: s["decisions_per_s"])
    paired = statistics.median(s["decisions_per_s"] / p["per_s"] for s, p in zip(singles, pings))
    figures: dict[str, Any] = {
        "decisions_per_s": round(single["decisions_per_s"], 1),
        "raw_pingpong_per_s": round(ping["per_s"], 1),
        "ratio": round(single["decisions_per_s"] / ping["per_s"], 3),
        "p50_ms": round(single["p50_ms"], 3),
        "p99_ms": round(single["p99_ms"], 3),
        "concurrent8_decisions_per_s": round(concurrent["decisions_per_s"], 1),
        "pingpong_p50_ms": round(ping["p50_ms"], 3),
        "pingpong_p99_ms": round(ping["p99_ms"], 3),
        "concurrent8_p50_ms": round(concurrent["p50_ms"], 3),
        "concurrent8_p99_ms": round(concurrent["p99_ms"], 3),
        "request_bytes": single["request_bytes"],
        "answer_bytes": single["answer_bytes"],
        "paired_median_ratio": round(paired, 3),
        "decisions_per_s_sdk_bot": round(max(s["decisions_per_s"] for s in sdk_singles), 1),
        "ratio_sdk_bot": round(max(s["decisions_per_s"] for s in sdk_singles) / ping["per_s"], 3),
        "decisions_per_s_two_processes": round(max(s["decisions_per_s"] for s in separates), 1),
        "ratio_two_processes": round(max(s["decisions_per_s"] for s in separates) / ping["per_s"], 3),
        "relay_two_streams_per_s": round(max(relays), 1),
        "ratio_two_processes_to_relay": round(max(s["decisions_per_s"] for s in separates) / max(relays), 3),
        "runs": repeats,
        "decisions_per_match": decisions,
        "cpus": os.cpu_count(),
    }
    if extra is not None:
        figures["game"] = {"name": game, **{k: round(v, 3) if isinstance(v, float) else v for k, v in extra.items()}}
    figures["targets_met"] = figures["ratio"] >= TARGET_RATIO and \
        figures["concurrent8_decisions_per_s"] >= TARGET_CONCURRENT8
    return figures


def print_scale(curve: list[dict[str, Any]], game: str) -> None:
    print(f"{game}: concurrent matches, every seat answering at once")
    print(f"{'matches':>8} {'decisions/s':>12} {'speedup':>8} {'p50 ms':>8} {'p99 ms':>8} {'CPU us/decision':>16}")
    for p in curve:
        print(f"{p['matches']:>8} {p['decisions_per_s']:>12.0f} {p['speedup']:>8.2f} {p['p50_ms']:>8.3f} "
              f"{p['p99_ms']:>8.3f} {p['referee_cpu_us_per_decision']:>16.1f}")


def print_table(f: dict[str, Any]) -> None:
    rows = [
        ("referee, 1 match", f"{f['decisions_per_s']:.0f}", f"{f['p50_ms']:.3f}", f"{f['p99_ms']:.3f}"),
        ("referee, 1 match, SDK bot", f"{f['decisions_per_s_sdk_bot']:.0f}", "", ""),
        ("referee, 1 match, 2 bot processes", f"{f['decisions_per_s_two_processes']:.0f}", "", ""),
        ("raw gRPC ping-pong", f"{f['raw_pingpong_per_s']:.0f}", f"{f['pingpong_p50_ms']:.3f}",
         f"{f['pingpong_p99_ms']:.3f}"),
        ("bare relay, 2 processes", f"{f['relay_two_streams_per_s']:.0f}", "", ""),
        ("referee, 8 matches", f"{f['concurrent8_decisions_per_s']:.0f}", f"{f['concurrent8_p50_ms']:.3f}",
         f"{f['concurrent8_p99_ms']:.3f}"),
    ]
    if "game" in f:
        g = f["game"]
        rows.append((f"referee, {g['name']}", f"{g['decisions_per_s']:.0f}", f"{g['p50_ms']:.3f}",
                     f"{g['p99_ms']:.3f}"))
    print(f"{'':34} {'decisions/s':>12} {'p50 ms':>9} {'p99 ms':>9}")
    for row in rows:
        print(f"{row[0]:34} {row[1]:>12} {row[2]:>9} {row[3]:>9}")
    print(f"ratio referee / ping-pong: {f['ratio']:.2f} (best of {f['runs']} each; median of paired runs "
          f"{f['paired_median_ratio']:.2f}; target {TARGET_RATIO:.2f}); with the SDK's bot "
          f"{f['ratio_sdk_bot']:.2f}; with 2 bot processes "
          f"{f['ratio_two_processes']:.2f} of the ping-pong, {f['ratio_two_processes_to_relay']:.2f} of the bare "
          f"relay; 8 matches: {f['concurrent8_decisions_per_s']:.0f}/s (target {TARGET_CONCURRENT8:.0f}); messages "
          f"{f['request_bytes']} B request, {f['answer_bytes']} B answer; {f['cpus']} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000, help="decisions per measured match")
    parser.add_argument("--repeats", type=int, default=7, help="interleaved runs of the single-match and ping-pong "
                        "figures (the best of each is kept)")
    parser.add_argument("--game", help="also measure one match of this real game (house-free, first action)")
    parser.add_argument("--scale-game", default="sky-team", help="the real game of the scale curve")
    parser.add_argument("--scale-decisions", type=int, default=4000,
                        help="decisions at least per level of the scale curve")
    parser.add_argument("--scale-levels", default=",".join(map(str, SCALE_LEVELS)),
                        help="concurrent matches per level, comma-separated")
    parser.add_argument("--profile", type=Path, help="run the referee under cProfile, writing its profile here")
    parser.add_argument("--scale-only", action="store_true", help="measure only the scale curve")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--json-out", type=Path, help="also write the JSON here")
    args = parser.parse_args()
    Referee.profile = args.profile
    levels = tuple(int(x) for x in args.scale_levels.split(","))
    curve = scale(args.scale_game, args.scale_decisions, levels)
    figures: dict[str, Any] = {"scale": {"game": args.scale_game, "curve": curve}}
    if not args.scale_only:
        figures = {**measure(args.decisions, args.repeats, args.game), **figures}
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps(figures, indent=2) + "\n")
    if args.json:
        print(json.dumps(figures))
        return
    if not args.scale_only:
        print_table(figures)
    print_scale(curve, args.scale_game)


if __name__ == "__main__":
    main()
