"""What one hosted bot may use during one match.

The numbers are per bot process tree and per match. They are enforced inside the sandbox
as rlimits (``bootstrap.py`` sets them before the bot's code is loaded, after the
namespaces exist, so the process count is the bot's own and not its user's across the
machine), and the worker side enforces the wall clock, the grace after the match and the
log cap.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1 << 20


@dataclass(frozen=True)
class SandboxLimits:
    """Per-bot, per-match limits. The defaults suit a full match at the platform's usual
    time controls; a season may set its own (``dataclasses.replace``)."""

    # CPU seconds for the whole match (SIGXCPU, then SIGKILL a second later): above what the
    # match's clocks let a bot think in total (per-move limit x its decisions + bank), which
    # the worker knows from the season's time control and should pass in.
    cpu_s: int = 600
    memory_bytes: int = 1024 * MIB   # address space: Python with the SDK maps ~60 MiB, a bot's own data the rest
    processes: int = 32              # tasks (processes and threads) the bot may have at once
    file_bytes: int = 16 * MIB       # the largest file it may write in its scratch directory
    open_files: int = 256            # descriptors: Python and the SDK need ~20
    log_bytes: int = 256 * 1024      # the stderr kept as the bot's log for its author
    wall_s: float = 3600.0           # a backstop: the match's own clocks end it long before
    grace_s: float = 1.0             # after the match ends, time to exit before the sandbox is killed
    sandbox_uid_base: int = 1_000_000  # a root worker runs each bot as its own uid from here ...
    sandbox_uid_count: int = 4096      # ... to base + count - 1 (one per bot running at once)

    def rlimits(self) -> list[tuple[str, int, int]]:
        """(resource name, soft, hard) for the bootstrap inside the sandbox. CPU gets a
        one-second hard margin so the bot first sees SIGXCPU (a catchable warning) and
        then SIGKILL; the others are hard at once."""
        return [
            ("RLIMIT_CPU", self.cpu_s, self.cpu_s + 1),
            ("RLIMIT_AS", self.memory_bytes, self.memory_bytes),
            ("RLIMIT_NPROC", self.processes, self.processes),
            ("RLIMIT_FSIZE", self.file_bytes, self.file_bytes),
            ("RLIMIT_NOFILE", self.open_files, self.open_files),
            ("RLIMIT_CORE", 0, 0),  # no core dumps: they would be big and could hold the bot's secrets
        ]

    def describe(self) -> str:
        """The limits as the match record's ``confinement`` string shows them."""
        return (f"rlimits cpu={self.cpu_s}s as={self.memory_bytes // MIB}MiB nproc={self.processes} "
                f"fsize={self.file_bytes // MIB}MiB nofile={self.open_files}")

