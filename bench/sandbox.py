"""The hosted-bot sandbox's start-up cost per bot, beside the same bot started unconfined.

Both start ``python -m skyarena.remote bot.py --stdio`` (a bot playing the first legal
action) and time it from the spawn to the bot's first frame (its Join) on stdout: what a
worker waits for before the match can start. The sandboxed start is the whole
:func:`workers.sandbox.start_hosted_bot` (copy of the code, scratch directory, uid lease,
bwrap, rlimits, the uid drop) and the unconfined one a bare subprocess of the same
interpreter with the same flags; the two are measured in alternation in the same run, so
the median of the paired differences is the sandbox's own overhead (target: under 100 ms
per bot). The machine's load average is reported with the figures: on a shared 2-core
machine other work moves every start by more than the overhead itself. Tearing the
sandbox down (kill, wait, remove the copies) is reported beside it.

Where the rest of the time goes, measured in the same run: the interpreter alone
(``python -I -c pass``), the SDK's import (``import skyarena.remote.__main__``: protobuf
and the frames; grpc and asyncio stay out of a stdio bot since the gRPC transport has its
own module), one engine's import (``referee.games`` imports a game's engine only when the
game is named, so a bot loads its own game's alone: Sky Team's here; before that registry
was lazy every bot imported all five, about 45 % of its start-up CPU),
and bwrap alone with the bot's mounts running ``/bin/true``.

    python bench/sandbox.py                 # table
    python bench/sandbox.py --json          # {"sandbox_start_ms", "unconfined_start_ms", ...}

``bench/season.py`` imports :func:`measure_start_ms`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyarena.remote.relay import MAX_BOT_FRAME, read_frame_async  # noqa: E402
from workers.sandbox import SandboxLimits, select_backend, start_hosted_bot  # noqa: E402
from workers.sandbox.bwrap import bwrap_argv  # noqa: E402
from workers.sandbox.runtime import current_runtime  # noqa: E402
from workers.sandbox.stage import make_stage, sandbox_root  # noqa: E402

TARGET_OVERHEAD_MS = 100.0
BOT_SOURCE = """from skyarena import Bot


class FirstBot(Bot):
    def act(self, observation, legal_actions):
        return 0
"""


async def _first_frame(stdout: asyncio.StreamReader) -> None:
    if await read_frame_async(stdout, MAX_BOT_FRAME) is None:
        raise RuntimeError("the bot ended before its first frame")


async def _sandboxed(bot_dir: Path, limits: SandboxLimits) -> tuple[float, float]:
    start = time.perf_counter()
    bot = await start_hosted_bot(bot_dir, "bot.py", limits)
    try:
        await _first_frame(bot.stdout)
        started = time.perf_counter() - start
    finally:
        stop = time.perf_counter()
        await bot.close()
    return started, time.perf_counter() - stop


async def _unconfined(bot_dir: Path) -> float:
    start = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-B", "-m", "skyarena.remote", str(bot_dir / "bot.py"), "--stdio",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    assert process.stdout is not None
    try:
        await _first_frame(process.stdout)
        return time.perf_counter() - start
    finally:
        process.kill()
        await process.communicate()


def _run_ms(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def breakdown(bot_dir: Path, repeats: int) -> dict[str, float]:
    """Medians of the pieces of a bot's start, in ms."""
    python = [sys.executable, "-I", "-B", "-c"]
    bare = [_run_ms([*python, "pass"]) for _ in range(repeats)]
    sdk = [_run_ms([*python, "import skyarena.remote.__main__"]) for _ in range(repeats)]
    one_engine = "import skyarena.remote.__main__, referee.games; referee.games.GAMES['sky-team']"
    engines = [_run_ms([*python, one_engine]) for _ in range(repeats)]
    figures = {"python_bare_ms": statistics.median(bare),
               "sdk_import_ms": statistics.median(sdk) - statistics.median(bare),
               "engines_import_ms": statistics.median(engines) - statistics.median(sdk)}
    backend = select_backend()
    if backend.name == "bwrap":
        samples = []
        for _ in range(repeats):
            stage = make_stage(bot_dir, None)
            try:
                argv = bwrap_argv(backend.binary, current_runtime(), stage.code, stage.scratch, {}, backend.as_root)
                samples.append(_run_ms([*argv, "/bin/true"]))
            finally:
                stage.remove()
        figures["bwrap_true_ms"] = statistics.median(samples)
    return figures


def measure_start_ms(repeats: int = 15, limits: SandboxLimits | None = None) -> dict[str, float]:
    """Median start-up to the first frame, sandboxed and unconfined, alternated in one run (ms)."""
    limits = limits or SandboxLimits()
    select_backend()  # the one-off probe is not a bot's start-up
    with tempfile.TemporaryDirectory(dir=sandbox_root()) as tmp:
        bot_dir = Path(tmp) / "bot"
        bot_dir.mkdir()
        (bot_dir / "bot.py").write_text(BOT_SOURCE)

        async def run() -> tuple[list[float], list[float], list[float]]:
            sandboxed, stops, unconfined = [], [], []
            for _ in range(repeats):
                started, stopped = await _sandboxed(bot_dir, limits)
                sandboxed.append(started)
                stops.append(stopped)
                unconfined.append(await _unconfined(bot_dir))
            return sandboxed, stops, unconfined

        sandboxed, stops, unconfined = asyncio.run(run())
    # The overhead is the median of the paired differences (each sandboxed start against the
    # unconfined start right after it), which a busy machine disturbs less than two medians.
    overhead = statistics.median(a - b for a, b in zip(sandboxed, unconfined))
    return {"sandbox_start_ms": round(statistics.median(sandboxed) * 1000, 1),
            "unconfined_start_ms": round(statistics.median(unconfined) * 1000, 1),
            "sandbox_overhead_ms": round(overhead * 1000, 1),
            "sandbox_stop_ms": round(statistics.median(stops) * 1000, 1),
            "load_average": round(os.getloadavg()[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="bots started each way (medians are reported)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--json-out", type=Path, help="also write the JSON here")
    args = parser.parse_args()
    figures: dict[str, object] = dict(measure_start_ms(args.repeats))
    with tempfile.TemporaryDirectory(dir=sandbox_root()) as tmp:
        (Path(tmp) / "bot.py").write_text(BOT_SOURCE)
        figures["breakdown"] = {name: round(value, 1) for name, value in breakdown(Path(tmp), args.repeats).items()}
    figures["confinement"] = select_backend().summary
    figures["target_overhead_ms"] = TARGET_OVERHEAD_MS
    figures["targets_met"] = figures["sandbox_overhead_ms"] < TARGET_OVERHEAD_MS  # type: ignore[operator]
    text = json.dumps(figures)
    if args.json_out:
        args.json_out.write_text(text + "\n")
    if args.json:
        print(text)
        return
    for name, value in figures.items():
        if isinstance(value, dict):
            for part, ms in value.items():
                print(f"  {part:<26} {ms:>8} ms")
        else:
            print(f"{name:<28} {value}")


if __name__ == "__main__":
    main()
