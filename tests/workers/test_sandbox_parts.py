"""The sandbox's parts on their own: the log cap, entry points, uid leases, the staged copy,
the handle's kill and clean-up, the bootstrap's limits, the fallback's refusal. Real
processes and real sandboxes throughout; the whole matches are in test_sandbox_hostile.py."""

from __future__ import annotations

import asyncio
import fcntl
import json
import logging
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from skyarena.remote.relay import MAX_BOT_FRAME, read_frame_async
from workers.sandbox import EntryError, SandboxLimits, SandboxUnavailable, seccomp, select_backend, start_hosted_bot
from workers.sandbox.backend import BOOTSTRAP, Backend
from workers.sandbox.launcher import check_entry
from workers.sandbox.logcapture import LogCapture
from workers.sandbox.stage import make_stage, sweep_abandoned
from workers.sandbox.uids import NoFreeUid, lease_uid

FIRST_BOT = "from skyarena import Bot\n\n\nclass First(Bot):\n    def act(self, observation, legal_actions):\n" \
            "        return 0\n"


def bot_dir(tmp_path: Path, source: str = FIRST_BOT) -> Path:
    path = tmp_path / "bot"
    path.mkdir()
    (path / "bot.py").write_text(source)
    return path


def test_log_keeps_the_cap_then_marks_what_it_dropped() -> None:
    async def run() -> LogCapture:
        reader = asyncio.StreamReader()
        capture = LogCapture(reader, cap=1000)
        for _ in range(30):
            reader.feed_data(b"x" * 99 + b"\n")
        reader.feed_eof()
        await capture.finish(timeout=5)
        return capture

    capture = asyncio.run(run())
    text = capture.text()
    assert capture.truncated and capture.dropped == 2000
    assert text.startswith(b"x" * 99 + b"\n") and text[:1000].count(b"\n") == 10
    assert text[1000:].decode().strip() == \
        "[skyarena: log truncated: 2000 more bytes were dropped; the cap is 1000 bytes per match]"


def test_log_under_the_cap_is_kept_whole() -> None:
    async def run() -> LogCapture:
        reader = asyncio.StreamReader()
        capture = LogCapture(reader, cap=1000)
        reader.feed_data(b"hello\n")
        reader.feed_eof()
        await capture.finish(timeout=5)
        return capture

    capture = asyncio.run(run())
    assert capture.text() == b"hello\n" and not capture.truncated


@pytest.mark.parametrize(("entry", "message"), [
    ("/etc/bot.py", "must be a .py file inside the bot's directory"),
    ("../bot.py", "must be a .py file inside the bot's directory"),
    ("bot.txt", "must be a .py file inside the bot's directory"),
    ("missing.py:Bot", "'missing.py' is not a file in"),
])
def test_bad_entry_points_are_refused_with_what_to_fix(tmp_path: Path, entry: str, message: str) -> None:
    with pytest.raises(EntryError, match=message.replace("(", r"\(").replace(".", r"\.")):
        check_entry(bot_dir(tmp_path), entry)
    assert check_entry(tmp_path / "bot", "bot.py:First") == "bot.py:First"


def test_uid_leases_are_exclusive_until_released(tmp_path: Path) -> None:
    first = lease_uid(tmp_path, base=5_000_000, count=2)
    second = lease_uid(tmp_path, base=5_000_000, count=2)
    assert {first.uid, second.uid} == {5_000_000, 5_000_001}
    with pytest.raises(NoFreeUid, match="all 2 sandbox uids from 5000000 are in use"):
        lease_uid(tmp_path, base=5_000_000, count=2)
    first.release()
    again = lease_uid(tmp_path, base=5_000_000, count=2)
    assert again.uid == first.uid
    again.release()
    second.release()


def test_stage_copies_the_code_without_following_links(tmp_path: Path) -> None:
    source = bot_dir(tmp_path)
    (source / "data").mkdir()
    (source / "data" / "table.json").write_text("{}")
    (source / "passwd").symlink_to("/etc/passwd")
    stage = make_stage(source, None)
    try:
        assert (stage.code / "bot.py").read_text() == FIRST_BOT
        assert (stage.code / "data" / "table.json").read_text() == "{}"
        assert (stage.code / "passwd").is_symlink() and os.readlink(stage.code / "passwd") == "/etc/passwd"
        assert stage.scratch.is_dir() and list(stage.scratch.iterdir()) == []
        assert oct(stage.root.stat().st_mode & 0o777) == "0o750"
    finally:
        stage.remove()
    assert not stage.root.exists()


def test_stage_of_a_missing_directory_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="does not exist; unpack the version's archive first"):
        make_stage(tmp_path / "nowhere", None)


def test_handle_speaks_frames_and_close_kills_and_cleans_up(tmp_path: Path) -> None:
    """A bot that never gets a referee: it sends its Join, then waits on stdin forever."""
    async def run() -> tuple[str, int | None, bool, Path]:
        bot = await start_hosted_bot(bot_dir(tmp_path), "bot.py", SandboxLimits(grace_s=0.1))
        first = await read_frame_async(bot.stdout, MAX_BOT_FRAME)
        assert first is not None
        assert await bot.wait(timeout=0.2) is None  # still running, waiting for the referee
        pipe = bot.stdin.transport.get_extra_info("pipe")
        assert fcntl.fcntl(pipe.fileno(), fcntl.F_GETPIPE_SZ) >= 64 * 1024  # widened where the host allows
        stage_root = bot._stage.root
        await bot.close()
        return first.WhichOneof("kind"), bot.process.returncode, bot.killed, stage_root

    kind, returncode, killed, stage_root = asyncio.run(run())
    assert kind == "join" and killed and returncode == -9
    assert not stage_root.exists()


def test_limits_are_in_force_inside_the_sandbox(tmp_path: Path) -> None:
    source = FIRST_BOT.replace("from skyarena import Bot", """import resource, sys
from skyarena import Bot
for name in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_NOFILE", "RLIMIT_CORE"):
    print(name, *resource.getrlimit(getattr(resource, name)), file=sys.stderr)
print("status", open("/proc/self/status").read(), file=sys.stderr, flush=True)""")
    limits = SandboxLimits(cpu_s=7, memory_bytes=300 << 20, processes=9, file_bytes=2 << 20, open_files=99)

    async def run() -> str:
        bot = await start_hosted_bot(bot_dir(tmp_path, source), "bot.py", limits)
        await read_frame_async(bot.stdout, MAX_BOT_FRAME)
        await bot.close()
        return bot.log()[0].decode()

    log = asyncio.run(run())
    for line in ("RLIMIT_CPU 7 8", f"RLIMIT_AS {300 << 20} {300 << 20}", "RLIMIT_NPROC 9 9",
                 f"RLIMIT_FSIZE {2 << 20} {2 << 20}", "RLIMIT_NOFILE 99 99", "RLIMIT_CORE 0 0"):
        assert line in log, log
    status = dict(line.split(":\t", 1) for line in log.split("status ", 1)[1].splitlines() if ":\t" in line)
    assert status["CapEff"].strip() == status["CapPrm"].strip() == status["CapAmb"].strip() == "0" * 16
    assert status["NoNewPrivs"].strip() == "1"
    if os.geteuid() == 0:
        assert int(status["Uid"].split()[0]) >= limits.sandbox_uid_base


def test_fallback_either_runs_loudly_or_refuses_with_the_reason(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """The unshare fallback on this host: where it can run a bot, every start says FALLBACK
    in a WARNING and in the confinement string; where it cannot, the refusal says why."""
    try:
        backend = select_backend("unshare")
    except SandboxUnavailable as exc:
        assert "unshare" in str(exc) and "so none will run" in str(exc)
        return

    async def run() -> str:
        bot = await start_hosted_bot(bot_dir(tmp_path), "bot.py", backend="unshare")
        first = await read_frame_async(bot.stdout, MAX_BOT_FRAME)
        assert first is not None and first.WhichOneof("kind") == "join"
        await bot.close()
        return bot.confinement

    with caplog.at_level(logging.WARNING, logger="workers.sandbox"):
        confinement = asyncio.run(run())
    assert backend.fallback and confinement.startswith("FALLBACK unshare")
    assert any("FALLBACK" in record.getMessage() for record in caplog.records)


def test_confinement_strings_say_what_the_record_needs() -> None:
    limits = SandboxLimits()
    strong = Backend("bwrap", "/bwrap", "bwrap 0.11.0 (wheel): net,pid", fallback=False, as_root=True)
    weak = Backend("unshare", "/unshare", "unshare: net,pid", fallback=True, as_root=False)
    assert strong.describe(limits, (1000005, 1000005)).startswith("bwrap 0.11.0 (wheel): net,pid; uid 1000005; "
                                                                  "read-only code and runtime")
    described = weak.describe(limits, None)
    assert described.startswith("FALLBACK unshare: net,pid; uid of the worker; no read-only view")
    assert described.endswith(seccomp.describe(seccomp.host_architecture()))
    assert "rlimits cpu=600s as=1024MiB nproc=32" in described


def test_stages_left_by_a_killed_worker_are_swept_and_live_ones_kept(tmp_path: Path) -> None:
    live = make_stage(bot_dir(tmp_path), None)
    worker = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from pathlib import Path
        from workers.sandbox.stage import make_stage, sweep_abandoned
        stage = make_stage(Path({str(tmp_path / "bot")!r}), None)
        print(stage.root, flush=True)
        os._exit(0)  # as if killed: no clean-up
    """)], capture_output=True, text=True, check=True)
    abandoned = Path(worker.stdout.strip())
    assert abandoned.is_dir()
    try:
        assert sweep_abandoned(live.root.parent, min_age_s=0) >= 1
        assert not abandoned.exists() and live.root.is_dir()
    finally:
        live.remove()


def test_the_benchmark_runs_and_reports_its_figures() -> None:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve().parents[2] / "bench" / "sandbox.py"),
                           "--repeats", "1", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert figures["sandbox_start_ms"] > 0 and figures["unconfined_start_ms"] > 0 and figures["sandbox_stop_ms"] > 0
    assert {"python_bare_ms", "sdk_import_ms", "engines_import_ms", "bwrap_true_ms"} <= set(figures["breakdown"])
    assert figures["confinement"].startswith("bwrap") and isinstance(figures["targets_met"], bool)


@pytest.mark.parametrize("status, meaning", [(0, 0), (1, 1), (128 + 24, -24), (128 + 9, -9), (-9, -9), (300, 300)])
def test_a_death_by_signal_reported_by_the_wrapper_reads_as_that_signal(status: int, meaning: int) -> None:
    from workers.sandbox.launcher import signal_status

    assert signal_status(status) == meaning


SYSCALL_PROBE = '''import ctypes, errno, os, socket, subprocess, sys, threading
from skyarena import Bot
libc = ctypes.CDLL(None, use_errno=True)

def outcome(name, call):
    try:
        result = call()
        print("PROBE", name, "allowed" if result in (None, 0) or result is True else f"returned {result}",
              file=sys.stderr)
    except OSError as exc:
        print("PROBE", name, errno.errorcode.get(exc.errno, exc.errno), file=sys.stderr)

def raw(number, *args):
    def call():
        if libc.syscall(number, *args) == -1:
            raise OSError(ctypes.get_errno(), "refused")
    return call

def clone_into_new_user_namespace():
    pid = libc.syscall(CLONE, CLONE_NEWUSER | 17, 0, 0, 0, 0)  # 17: SIGCHLD, as fork() does
    if pid == 0:
        os._exit(0)
    if pid == -1:
        raise OSError(ctypes.get_errno(), "refused")
    os.waitpid(pid, 0)

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
outcome("unshare-user", raw(UNSHARE, CLONE_NEWUSER))
outcome("unshare-net", raw(UNSHARE, CLONE_NEWNET))
outcome("clone-user", clone_into_new_user_namespace)
outcome("ptrace", raw(PTRACE, 16, 1, 0, 0))  # PTRACE_ATTACH to pid 1
outcome("mount", raw(MOUNT, b"none", b"/scratch", b"tmpfs", 0, 0))
outcome("bpf", raw(BPF, 0, 0, 0))
outcome("io_uring", raw(IO_URING_SETUP, 1, 0))
outcome("keyctl", raw(KEYCTL, 0, 0, 0, 0, 0))
outcome("netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close())
outcome("unix-pair", lambda: [s.close() for s in socket.socketpair()] and None)
outcome("inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close())
outcome("thread", lambda: (lambda t: (t.start(), t.join()))(threading.Thread(target=lambda: None)) and None)
outcome("subprocess", lambda: subprocess.run([sys.executable, "-c", "pass"], check=True) and None)
outcome("fork", lambda: (lambda pid: pid == 0 and os._exit(0) or os.waitpid(pid, 0) and None)(os.fork()))
sys.stderr.flush()

class First(Bot):
    def act(self, observation, legal_actions):
        return 0
'''


def _probe_syscalls(tmp_path: Path, where: str) -> tuple[str, str]:
    """The probe bot's log and confinement, run in bwrap, or by the bootstrap alone (what the
    unshare fallback runs inside its namespaces, which this host's root worker may not offer)."""
    arch = seccomp.host_architecture()
    assert arch is not None, f"no seccomp table for {os.uname().machine}: add one to workers/sandbox/seccomp.py"
    numbers = {name.upper(): arch.syscalls[name] for name in ("ptrace", "mount", "bpf", "io_uring_setup", "keyctl",
                                                              "unshare", "clone")}
    code = bot_dir(tmp_path, "\n".join(f"{name} = {number}" for name, number in numbers.items()) + "\n"
                   + SYSCALL_PROBE)
    if where == "bootstrap":
        spec = {"rlimits": [], "home": str(tmp_path), "argv": [str(code / "bot.py"), "--stdio"],
                "seccomp": seccomp.filter_program(arch).hex()}
        done = subprocess.run([sys.executable, "-I", "-c", BOOTSTRAP, json.dumps(spec)], input=b"",
                              capture_output=True, timeout=60)
        return done.stderr.decode(), seccomp.describe(arch)

    async def run() -> tuple[str, str]:
        bot = await start_hosted_bot(code, "bot.py", backend=where)
        first = await read_frame_async(bot.stdout, MAX_BOT_FRAME)
        assert first is not None and first.WhichOneof("kind") == "join", bot.log()
        await bot.close()
        return bot.log()[0].decode(), bot.confinement

    return asyncio.run(run())


@pytest.mark.parametrize("where", ["bwrap", "bootstrap"])
def test_the_seccomp_filter_refuses_namespaces_mounts_tracing_and_raw_sockets(tmp_path: Path, where: str) -> None:
    """Probed from inside: what the filter refuses fails with its errno (the bot goes on), and
    what ordinary Python does still works. Without the filter a root-mode bot could make a
    user namespace (unshare-user), the hole the filter closes."""
    log, confinement = _probe_syscalls(tmp_path, where)
    probes = dict(line.split(" ", 2)[1:] for line in log.splitlines() if line.startswith("PROBE "))
    assert probes == {"unshare-user": "EPERM", "unshare-net": "EPERM", "clone-user": "EPERM", "ptrace": "EPERM",
                      "mount": "EPERM", "bpf": "EPERM", "io_uring": "EPERM", "keyctl": "EPERM",
                      "netlink": "EAFNOSUPPORT", "unix-pair": "allowed", "inet": "allowed", "thread": "allowed",
                      "subprocess": "allowed", "fork": "allowed"}, log
    assert confinement.endswith(seccomp.describe(seccomp.host_architecture())), confinement


def test_the_seccomp_program_is_well_formed_for_every_architecture() -> None:
    """Every table names every filtered call, and every jump lands inside the program."""
    for arch in seccomp.ARCHITECTURES.values():
        program = seccomp.filter_program(arch)
        assert len(program) % seccomp.INSTRUCTION == 0 and len(program) // seccomp.INSTRUCTION < 4096
        count = len(program) // seccomp.INSTRUCTION
        for index in range(count):
            code, jump_true, jump_false, _ = struct.unpack_from("=HBBI", program, index * seccomp.INSTRUCTION)
            if code & 0x07 == 0x05:  # a jump
                assert index + 1 + max(jump_true, jump_false) < count, (arch.name, index)
        last = struct.unpack_from("=HBBI", program, (count - 1) * seccomp.INSTRUCTION)
        assert last == (seccomp.RETURN, 0, 0, seccomp.ALLOW)
