"""Hostile hosted bots, each in a real match against a house bot on a real referee.

The referee is ``skyarena referee serve`` as a subprocess on loopback; the hosted seat is
played through :func:`workers.sandbox.play_hosted_seat` exactly as a worker plays it; the
other seat is the house ``heuristic`` bot as its own process. Every test checks that the
match finished with the hostile seat's fault recorded (or none, when the sandbox simply
contained the attempt), that the house seat has no fault and ended normally, that nothing
leaked (the bot's log never holds a secret of the worker, host-side traps saw nothing), and
that the sandbox left nothing behind. The bots report what they tried on stderr, which is
their log; where a host-side fact can be checked instead of the bot's word, it is.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc
from workers.sandbox import HostedSeatOutcome, SandboxLimits, play_hosted_seat, select_backend
from workers.sandbox.stage import sandbox_root

SERVICE_TOKEN = "sandbox-suite-service-token-0123456789"
AUTH = (("authorization", f"Bearer {SERVICE_TOKEN}"),)
GAME = "fly-away"
# Short clocks keep each match to a few seconds (a match starts once every seat has joined,
# so the sandbox's start-up is not on the clock; the first move still gets some slack).
TIME_CONTROL = pb.TimeControl(move_s=0.5, bank_s=1.0, first_move_s=2.0)
STRIKES = 2
LIMITS = SandboxLimits(cpu_s=3, memory_bytes=512 << 20, processes=16, file_bytes=1 << 20, log_bytes=256 * 1024,
                       grace_s=2.0, wall_s=60.0)
# The worker's secrets: in the worker's environment for the whole module, never in a bot's view.
SECRETS = {
    "DATABASE_URL": "postgresql://postgres:db-secret-8c1f@127.0.0.1:5432/skyarena",
    "CELERY_BROKER_URL": "amqp://guest:broker-secret-77ad@127.0.0.1:5672//",
    "SKYARENA_SERVICE_TOKEN": SERVICE_TOKEN,
    "SKYARENA_ARENA_ADMIN_TOKEN": "admin-secret-51e0",
}


@dataclass
class Referee:
    address: str
    stub: pb_grpc.RefereeStub
    process: subprocess.Popen[bytes]


@pytest.fixture(scope="module")
def referee() -> Iterator[Referee]:
    saved = {name: os.environ.get(name) for name in SECRETS}
    os.environ.update(SECRETS)
    skyarena = str(Path(sys.executable).parent / "skyarena")
    process = subprocess.Popen([skyarena, "referee", "serve", "--listen", "127.0.0.1:0", "--log-level", "warning",
                                "--shutdown-grace", "0.5"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()
        assert "listening on" in line, f"the referee did not start: {line!r}"
        address = line.split()[-1]
        channel = grpc.insecure_channel(address)
        yield Referee(address, pb_grpc.RefereeStub(channel), process)
        channel.close()
    finally:
        process.terminate()
        process.wait(10)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@dataclass
class Played:
    outcome: HostedSeatOutcome
    status: pb.MatchStatus
    house_exit: int
    house_stderr: str
    seat_token: str

    @property
    def log(self) -> str:
        return self.outcome.log.decode(errors="replace")

    def faults(self, seat: int) -> list[pb.Fault]:
        return [fault for fault in self.status.end.faults if fault.seat == seat]


def play(referee: Referee, tmp_path: Path, source: str) -> Played:
    """One match: the hostile ``source`` as hosted seat 0, the house heuristic as seat 1."""
    bot_dir = tmp_path / "bot"
    bot_dir.mkdir()
    (bot_dir / "bot.py").write_text(textwrap.dedent(source))
    start = referee.stub.StartMatch(pb.StartMatchRequest(
        game=GAME, players=2, seed=7, options_json="{}", time_control=TIME_CONTROL, strike_limit=STRIKES,
        join_timeout_s=20.0, seats=[pb.SeatSpec(name="hostile"), pb.SeatSpec(name="house")]), metadata=AUTH, timeout=10)
    house = subprocess.Popen([sys.executable, "-m", "skyarena.remote", "heuristic", "--game", GAME,
                              "--referee", referee.address],
                             env={**os.environ, "SKYARENA_SEAT_TOKEN": start.seats[1].token},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seat_token = start.seats[0].token
    outcome = asyncio.run(play_hosted_seat(bot_dir, "bot.py", referee.address, seat_token, LIMITS))
    _, house_err = house.communicate(timeout=60)
    status = referee.stub.GetMatch(pb.GetMatchRequest(match_id=start.match_id), metadata=AUTH, timeout=10)
    assert referee.process.poll() is None, "the referee died"  # and it just answered GetMatch
    return Played(outcome, status, house.returncode, house_err.decode(errors="replace"), seat_token)


def processes_of(uid: int) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "status").read_text().split("\nUid:")[1].split()[0]) == uid:
                found.append(entry.name + " " + (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()[:100])
        except (OSError, IndexError):
            continue
    return found


def assert_contained(played: Played) -> None:
    """What every hostile match must show, whatever the bot did."""
    assert played.status.state == pb.MATCH_STATE_FINISHED, played.status
    assert played.faults(1) == [], f"the house seat was harmed: {played.faults(1)}"
    assert played.house_exit == 0, played.house_stderr
    assert played.outcome.confinement.startswith("bwrap") or "FALLBACK" in played.outcome.confinement
    leaked = [name for name, value in SECRETS.items() if value in played.log] + \
        (["seat token"] if played.seat_token in played.log else [])
    assert not leaked, f"the bot saw {leaked}"
    assert played.outcome.log_truncated == (len(played.outcome.log) > LIMITS.log_bytes)
    if os.geteuid() == 0:  # the bot ran as a host uid of its own (it says which at import): nothing of it is left
        uid = int(played.log.split("PROBE running as uid ")[1].split()[0])
        assert LIMITS.sandbox_uid_base <= uid < LIMITS.sandbox_uid_base + LIMITS.sandbox_uid_count
        assert processes_of(uid) == []


def forfeited(played: Played) -> bool:
    return any(fault.forfeit for fault in played.faults(0))


# ----- the bots ---------------------------------------------------------------------------

PREAMBLE = """
import os, sys
from skyarena import Bot

def report(*words):
    print("PROBE", *words, file=sys.stderr, flush=True)

report("running as uid", os.getuid())
"""


def hostile(imports: str, code: str, when: str = "start") -> str:
    """A bot that runs ``code`` when it starts (before it joins: off the match's clock, so a
    contained attempt is no fault) or on its first turn (``when="turn"``: mid-match), and
    otherwise plays the first legal action."""
    code = textwrap.dedent(code).strip()
    once = textwrap.indent(code if when == "turn" else "pass", " " * 12)
    return PREAMBLE + imports + (code + "\n" if when == "start" else "") + f"""
class Hostile(Bot):
    def act(self, observation, legal_actions):
        if not getattr(self, "done_once", False):
            self.done_once = True
{once}
        return 0
"""


def test_well_behaved_bot_plays_a_clean_match_in_bwrap(referee: Referee, tmp_path: Path) -> None:
    played = play(referee, tmp_path, hostile("", 'report("cwd", os.getcwd())', when="turn"))
    assert_contained(played)
    assert played.faults(0) == []
    assert played.outcome.exit_status == 0 and not played.outcome.killed, played.log
    assert played.outcome.relay_status == "OK"
    assert played.outcome.confinement.startswith("bwrap") and "net,pid,ipc,uts,mount" in played.outcome.confinement
    assert "PROBE running as uid 0" not in played.log and "PROBE cwd /scratch" in played.log


def test_no_network_at_all(referee: Referee, tmp_path: Path) -> None:
    trap = socket.create_server(("127.0.0.1", 0))
    trap.settimeout(0.5)
    host, port = referee.address.rsplit(":", 1)
    targets = [("127.0.0.1", 5432), ("127.0.0.1", 5672), ("127.0.0.1", 6379), ("127.0.0.1", trap.getsockname()[1]),
               (host, int(port)), ("1.1.1.1", 443), ("8.8.8.8", 53)]
    played = play(referee, tmp_path, hostile("import socket\n", f"""
        for host, port in {targets!r}:
            try:
                socket.create_connection((host, port), timeout=1).close()
                report("CONNECTED", host, port)
            except OSError as exc:
                report("blocked", host, port, type(exc).__name__)
        try:
            socket.getaddrinfo("example.com", 80)
            report("CONNECTED dns")
        except OSError as exc:
            report("blocked dns", type(exc).__name__)
    """))
    with pytest.raises(TimeoutError):
        trap.accept()
    trap.close()
    assert_contained(played)
    assert "CONNECTED" not in played.log
    assert played.log.count("PROBE blocked") == len(targets) + 1, played.log
    assert played.faults(0) == []


def test_cannot_read_other_bots_files_the_workers_environment_or_other_processes(referee: Referee,
                                                                                    tmp_path: Path) -> None:
    other = tmp_path / "other-bot"
    other.mkdir()
    (other / "bot.py").write_text("SECRET_STRATEGY = 'other-bot-secret-3b9a'\n")
    worker_pid = os.getpid()
    played = play(referee, tmp_path, hostile("import glob\n", f"""
        report("env", dict(os.environ))
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        report("pids", pids)
        for pid in pids + ["{worker_pid}"]:
            for part in ("environ", "cmdline"):
                try:
                    report("proc", pid, part, open(f"/proc/{{pid}}/{{part}}", "rb").read())
                except OSError as exc:
                    report("proc-blocked", pid, part, type(exc).__name__)
        for path in ["{other / 'bot.py'}", "/etc/shadow", "/root/.bash_history", "{sandbox_root()}"]:
            try:
                report("read", path, open(path, "rb").read()[:200])
            except OSError as exc:
                report("read-blocked", path, type(exc).__name__)
        report("visible", sorted(glob.glob("/*")), sorted(glob.glob("/bot/*")))
    """))
    assert_contained(played)
    assert "other-bot-secret-3b9a" not in played.log
    pids = json.loads(played.log.split("PROBE pids ")[1].splitlines()[0].replace("'", '"'))
    assert len(pids) <= 3, f"the bot sees processes outside its sandbox: {pids}"
    assert f"read-blocked {other / 'bot.py'} FileNotFoundError" in played.log
    assert f"proc-blocked {worker_pid} environ FileNotFoundError" in played.log
    assert "read-blocked /root/.bash_history FileNotFoundError" in played.log
    assert "['/bot/bot.py']" in played.log.split("PROBE visible")[1].splitlines()[0]
    assert played.faults(0) == []


def test_cannot_write_outside_its_scratch_directory(referee: Referee, tmp_path: Path) -> None:
    outside = tmp_path / "written-by-bot.txt"
    played = play(referee, tmp_path, hostile("", f"""
        for path in ["{outside}", "/bot/bot.py", "/bot/new.py", "/tmp/x", "/x", "{sys.prefix}/x", "/proc/sys/kernel/x"]:
            try:
                with open(path, "w") as f:
                    f.write("owned")
                report("WROTE", path)
            except OSError as exc:
                report("write-blocked", path, type(exc).__name__)
        with open("notes.txt", "w") as f:
            f.write("scratch is fine")
        report("scratch", open(os.path.join(os.environ["HOME"], "notes.txt")).read())
        try:
            open("big.bin", "wb").write(b"x" * (4 << 20))
            report("WROTE big file")
        except OSError as exc:
            report("big-blocked", type(exc).__name__, exc.errno)
    """))
    assert_contained(played)
    assert "WROTE" not in played.log, played.log
    assert not outside.exists()
    assert (tmp_path / "bot" / "bot.py").read_text().startswith("\nimport os")
    assert "scratch scratch is fine" in played.log
    assert "big-blocked OSError 27" in played.log  # EFBIG: over the file-size limit
    assert played.faults(0) == []


def test_fork_bomb_is_stopped_at_the_process_limit_and_cleaned_up(referee: Referee, tmp_path: Path) -> None:
    played = play(referee, tmp_path, hostile("import time\n", """
        children = 0
        try:
            while True:
                if os.fork() == 0:
                    time.sleep(3600)
                    os._exit(0)
                children += 1
        except OSError as exc:
            report("fork-stopped", children, type(exc).__name__)
    """))
    assert_contained(played)
    stopped = played.log.split("PROBE fork-stopped ")[1].split()
    assert int(stopped[0]) < LIMITS.processes and stopped[1] == "BlockingIOError", played.log
    assert played.faults(0) == []


def test_ten_gigabytes_are_refused(referee: Referee, tmp_path: Path) -> None:
    played = play(referee, tmp_path, hostile("", """
        try:
            hoard = bytearray(10 << 30)
            report("ALLOCATED", len(hoard))
        except MemoryError:
            report("memory-refused")
    """))
    assert_contained(played)
    assert "PROBE memory-refused" in played.log and "ALLOCATED" not in played.log
    assert played.faults(0) == [] and played.outcome.exit_status == 0


def test_spinning_forever_times_out_forfeits_and_is_killed(referee: Referee, tmp_path: Path) -> None:
    played = play(referee, tmp_path, hostile("", "while True:\n    pass", when="turn"))
    assert_contained(played)
    assert forfeited(played) and {fault.kind for fault in played.faults(0)} <= {"timeout", "disconnect"}
    # Killed by its CPU limit (SIGXCPU) or by the sandbox after the match: never left running.
    assert played.outcome.killed or played.outcome.exit_status in (-24, -9), played.outcome


def test_sleeping_past_every_deadline_forfeits_and_is_killed(referee: Referee, tmp_path: Path) -> None:
    played = play(referee, tmp_path, hostile("import time\n", "time.sleep(3600)", when="turn"))
    assert_contained(played)
    assert forfeited(played) and {fault.kind for fault in played.faults(0)} == {"timeout"}
    assert played.outcome.killed and "still running after the match ended" in played.outcome.ended


def test_stderr_flood_is_capped_and_marked(referee: Referee, tmp_path: Path) -> None:
    played = play(referee, tmp_path, hostile("", """
        chunk = "y" * 65536 + "\\n"
        for _ in range(64):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    """, when="turn"))
    assert_contained(played)
    assert played.outcome.log_truncated and "log truncated" in played.log
    assert LIMITS.log_bytes < len(played.outcome.log) < LIMITS.log_bytes + 200


@pytest.mark.parametrize("junk", ["flood", "garbage"])
def test_stdout_flood_or_garbage_frames_drop_the_seat_not_the_match(referee: Referee, tmp_path: Path,
                                                                     junk: str) -> None:
    write = 'os.write(1, b"\\xff" * (8 << 20))' if junk == "flood" else 'os.write(1, b"\\x05" + b"\\x0f\\x80garb")'
    played = play(referee, tmp_path, hostile("", write + "\nos.close(1)", when="turn"))
    assert_contained(played)
    assert forfeited(played) and {fault.kind for fault in played.faults(0)} <= {"timeout", "disconnect"}
    assert played.outcome.relay_status == "UNAVAILABLE"


def test_exit_mid_match_is_a_disconnect(referee: Referee, tmp_path: Path) -> None:
    played = play(referee, tmp_path, PREAMBLE + """
class Quitter(Bot):
    turns = 0

    def act(self, observation, legal_actions):
        self.turns += 1
        if self.turns == 3:
            os._exit(7)
        return 0
""")
    assert_contained(played)
    assert forfeited(played) and {fault.kind for fault in played.faults(0)} <= {"timeout", "disconnect"}
    assert played.outcome.exit_status == 7 and not played.outcome.killed


def test_the_backend_is_bwrap_and_unknown_backends_are_refused() -> None:
    assert select_backend().name == "bwrap"
    with pytest.raises(ValueError, match="unknown sandbox backend 'docker': use one of auto, bwrap, unshare"):
        select_backend("docker")


def test_a_fork_bomb_does_not_starve_a_hosted_bot_beside_it(referee: Referee, tmp_path: Path) -> None:
    """Both seats hosted at once: each bot's process limit is its own (its own uid as root,
    its own user namespace otherwise), so the bomb's processes cost its neighbour nothing."""
    bomb = textwrap.dedent("""
        import os, sys, time
        from skyarena import Bot
        children = 0
        while True:
            try:
                if os.fork() == 0:
                    time.sleep(3600)
                    os._exit(0)
                children += 1
            except OSError:
                break
        print("PROBE bomb holds", children, "children", file=sys.stderr, flush=True)

        class Bomb(Bot):
            def act(self, observation, legal_actions):
                return 0
    """)
    neighbour = textwrap.dedent("""
        import sys, threading
        from skyarena import Bot

        class Neighbour(Bot):
            def act(self, observation, legal_actions):
                # The match has started, so the bomb (which bombs before it joins) holds its
                # children now: these threads need room of this bot's own.
                if not getattr(self, "started", False):
                    self.started = True
                    workers = [threading.Thread(target=lambda: None) for _ in range(8)]
                    for worker in workers:
                        worker.start()
                    print("PROBE started", len(workers), "threads", file=sys.stderr, flush=True)
                return 0
    """)
    dirs = []
    for name, source in (("bomb", bomb), ("neighbour", neighbour)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "bot.py").write_text(source)
        dirs.append(tmp_path / name)
    start = referee.stub.StartMatch(pb.StartMatchRequest(
        game=GAME, players=2, seed=11, options_json="{}", time_control=TIME_CONTROL, strike_limit=STRIKES,
        join_timeout_s=20.0, seats=[pb.SeatSpec(name="bomb"), pb.SeatSpec(name="neighbour")]), metadata=AUTH,
        timeout=10)

    async def both() -> list[HostedSeatOutcome]:
        return list(await asyncio.gather(*(play_hosted_seat(path, "bot.py", referee.address, seat.token, LIMITS)
                                           for path, seat in zip(dirs, start.seats))))

    bomb_outcome, neighbour_outcome = asyncio.run(both())
    status = referee.stub.GetMatch(pb.GetMatchRequest(match_id=start.match_id), metadata=AUTH, timeout=10)
    assert status.state == pb.MATCH_STATE_FINISHED
    assert [fault for fault in status.end.faults if fault.seat == 1] == []
    assert neighbour_outcome.exit_status == 0, neighbour_outcome.log
    assert b"PROBE started 8 threads" in neighbour_outcome.log
    held = int(bomb_outcome.log.decode().split("PROBE bomb holds ")[1].split()[0])
    assert LIMITS.processes - 4 <= held < LIMITS.processes, bomb_outcome.log  # it reached its own limit
