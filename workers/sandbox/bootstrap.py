"""The first code that runs inside a sandbox, before any of the bot's.

Its source is handed to ``python -I -c`` (the sandbox has no view of the ``workers``
package), with one JSON argument: the rlimits to set, the uid/gid to become (a root
worker: the bot gets a host uid of its own), its scratch directory, the seccomp filter
(``seccomp.py`` builds it) and the ``skyarena.remote`` arguments.
Limits are set here rather than on the launcher so that they apply inside the new
namespaces: RLIMIT_NPROC then counts this bot's processes, not every process of its uid.
Only the standard library is used, and nothing that needs the SDK.
"""

import json
import os
import resource
import sys


def no_new_privileges() -> None:
    """What bwrap does itself, for the fallback: no setuid or file-capability binary of the
    host may give the bot back what it lost."""
    import ctypes

    pr_set_no_new_privs = 38
    if ctypes.CDLL(None, use_errno=True).prctl(pr_set_no_new_privs, 1, 0, 0, 0) != 0:
        raise SystemExit(f"sandbox bootstrap: prctl(PR_SET_NO_NEW_PRIVS) failed: errno {ctypes.get_errno()}")


def install_seccomp_filter(program: bytes) -> None:
    """Last of all, so the bootstrap's own setuid and chdir are not filtered; the bot's first
    import already is. Needs no new privileges (bwrap has set it, or ``confine`` did)."""
    import ctypes

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    instructions = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(instructions))
    pr_set_seccomp, seccomp_mode_filter = 22, 2
    if ctypes.CDLL(None, use_errno=True).prctl(pr_set_seccomp, seccomp_mode_filter, ctypes.byref(fprog), 0, 0) != 0:
        raise SystemExit(f"sandbox bootstrap: prctl(PR_SET_SECCOMP) failed: errno {ctypes.get_errno()}; "
                         "the kernel needs CONFIG_SECCOMP_FILTER")


def confine(spec: dict) -> None:  # type: ignore[type-arg]
    if spec.get("no_new_privs") or spec.get("seccomp"):
        no_new_privileges()
    for name, soft, hard in spec["rlimits"]:
        resource.setrlimit(getattr(resource, name), (soft, hard))
    uid = spec.get("uid")
    if uid is not None:
        os.setgroups([])
        os.setgid(spec["gid"])
        os.setuid(uid)  # from root: also clears every capability bwrap kept for this step
        if os.getuid() != uid or os.geteuid() != uid:
            raise SystemExit("sandbox bootstrap: could not drop to the bot's uid")
    os.chdir(spec["home"])
    if spec.get("seccomp"):
        install_seccomp_filter(bytes.fromhex(spec["seccomp"]))


def main() -> None:
    spec = json.loads(sys.argv[1])
    confine(spec)
    sys.argv = ["python -m skyarena.remote", *spec["argv"]]
    from skyarena.remote.__main__ import main as remote_main

    sys.exit(remote_main(spec["argv"]))


if __name__ == "__main__":
    main()
