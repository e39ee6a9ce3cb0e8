"""The seccomp filter every hosted bot runs under: the kernel's attack surface cut down.

A classic-BPF program built here, in plain Python, and installed by the bootstrap
(``prctl(PR_SET_SECCOMP)``) just before the bot's code runs, in both backends. Why our own
few dozen lines rather than a library: the one maintained binding (libseccomp's own) ships
with the system Python only, the PyPI ctypes wrapper has had no release since 2021, and a
deny-list is a short table plus four instruction kinds.

What it refuses, modelled on the blocked set of Docker's default profile (a deny-list, so a
bot that uses ordinary Python, threads, subprocesses or numpy is not broken by it):

- making or entering namespaces (``unshare``, ``setns``, ``clone`` with a namespace flag;
  ``clone3``, whose flags the filter cannot read, answers ENOSYS so libc falls back to
  ``clone``): in bwrap's root mode nothing else stops a bot making a user namespace;
- mounts and the new mount API, ``chroot``, ``pivot_root``;
- tracing and other processes' memory (``ptrace``, ``process_vm_*``), though the pid
  namespace already hides every other process;
- the kernel's riskiest interfaces for unprivileged code: ``bpf``, ``perf_event_open``,
  ``userfaultfd``, ``io_uring_*``, the key ring, ``open_by_handle_at``;
- administration that needs capabilities the bot has not got (modules, kexec, reboot,
  swap, clocks, quotas, accounting): refused before the kernel looks at them;
- sockets other than Unix, IPv4 and IPv6 ones (netlink, packet, ...): the network
  namespace is empty anyway, and asyncio needs Unix socket pairs.

Anything else is allowed. A system call of another ABI (32-bit ``int 0x80`` on x86-64, or
x32) kills the process: no hosted bot needs one, and they are how filters get sidestepped.
"""

from __future__ import annotations

import errno
import platform
import struct
from dataclasses import dataclass
from functools import cache

# struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6] (little-endian hosts)
NR_OFFSET = 0
ARCH_OFFSET = 4
ARG0_LOW_OFFSET = 16

# classic BPF: 8-byte instructions (struct sock_filter), and the opcodes used
INSTRUCTION = 8
LOAD_WORD = 0x20        # BPF_LD | BPF_W | BPF_ABS
JUMP_IF_EQUAL = 0x15    # BPF_JMP | BPF_JEQ | BPF_K
JUMP_IF_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JUMP_IF_ANY_BIT = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RETURN = 0x06           # BPF_RET | BPF_K

ALLOW = 0x7FFF0000
KILL_PROCESS = 0x80000000
ERRNO = 0x00050000      # | the errno the call then returns

# clone's flags that make a new namespace: CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME
NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x80
ALLOWED_SOCKET_FAMILIES = (1, 2, 10)  # AF_UNIX, AF_INET, AF_INET6
X32_SYSCALL_BIT = 0x40000000

REFUSED = (
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "ptrace", "process_vm_readv", "process_vm_writev", "bpf",
    "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "add_key",
    "request_key", "keyctl", "open_by_handle_at", "name_to_handle_at", "lookup_dcookie", "init_module",
    "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct",
    "quotactl", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname",
    "syslog", "vhangup",
)
X86_64_ONLY = ("iopl", "ioperm", "uselib", "nfsservctl")
SPECIAL = ("clone3", "clone", "socket")  # filtered by their own rules (ENOSYS; a flag test; a family test)


@dataclass(frozen=True, eq=False)  # one object per table: hashed by identity, for the cache
class Architecture:
    name: str
    audit_arch: int             # AUDIT_ARCH_*: what seccomp_data.arch holds for this ABI
    syscalls: dict[str, int]    # the numbers of the calls the filter looks at
    x32: bool = False           # x86-64: refuse the x32 ABI's numbers too
    own_refused: tuple[str, ...] = ()  # calls refused on this architecture only (beside REFUSED)

    @property
    def refused(self) -> tuple[str, ...]:
        return REFUSED + self.own_refused


X86_64 = Architecture("x86_64", 0xC000003E, {
    "clone": 56, "clone3": 435, "socket": 41, "unshare": 272, "setns": 308, "mount": 165, "umount2": 166,
    "pivot_root": 155, "chroot": 161, "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431,
    "fsmount": 432, "fspick": 433, "mount_setattr": 442, "ptrace": 101, "process_vm_readv": 310,
    "process_vm_writev": 311, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "add_key": 248, "request_key": 249, "keyctl": 250,
    "open_by_handle_at": 304, "name_to_handle_at": 303, "lookup_dcookie": 212, "init_module": 175,
    "finit_module": 313, "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320, "reboot": 169,
    "swapon": 167, "swapoff": 168, "acct": 163, "quotactl": 179, "settimeofday": 164, "clock_settime": 227,
    "clock_adjtime": 305, "adjtimex": 159, "sethostname": 170, "setdomainname": 171, "syslog": 103,
    "vhangup": 153, "iopl": 172, "ioperm": 173, "uselib": 134, "nfsservctl": 180,
}, x32=True, own_refused=X86_64_ONLY)

AARCH64 = Architecture("aarch64", 0xC00000B7, {
    "clone": 220, "clone3": 435, "socket": 198, "unshare": 97, "setns": 268, "mount": 40, "umount2": 39,
    "pivot_root": 41, "chroot": 51, "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431,
    "fsmount": 432, "fspick": 433, "mount_setattr": 442, "ptrace": 117, "process_vm_readv": 270,
    "process_vm_writev": 271, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "add_key": 217, "request_key": 218, "keyctl": 219,
    "open_by_handle_at": 265, "name_to_handle_at": 264, "lookup_dcookie": 18, "init_module": 105,
    "finit_module": 273, "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294, "reboot": 142,
    "swapon": 224, "swapoff": 225, "acct": 89, "quotactl": 60, "settimeofday": 170, "clock_settime": 112,
    "clock_adjtime": 266, "adjtimex": 171, "sethostname": 161, "setdomainname": 162, "syslog": 116,
    "vhangup": 58, "nfsservctl": 42,
})

ARCHITECTURES = {arch.name: arch for arch in (X86_64, AARCH64)}


def host_architecture() -> Architecture | None:
    """This machine's table, or None where the filter has none (the confinement then says so)."""
    return ARCHITECTURES.get(platform.machine())


def _op(code: int, k: int, jump_true: int = 0, jump_false: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jump_true, jump_false, k)


def _refuse(error: int) -> bytes:
    return _op(RETURN, ERRNO | error)


def _refused_call(number: int) -> bytes:
    """Two instructions: this call returns EPERM; anything else goes on to the next test."""
    return _op(JUMP_IF_EQUAL, number, 0, 1) + _refuse(errno.EPERM)


def _clone_without_namespaces(number: int) -> bytes:
    """clone with a namespace flag is refused, any other clone (fork, threads) allowed."""
    body = _op(LOAD_WORD, ARG0_LOW_OFFSET) + _op(JUMP_IF_ANY_BIT, NAMESPACE_FLAGS, 0, 1) + _refuse(errno.EPERM) \
        + _op(RETURN, ALLOW)
    return _op(JUMP_IF_EQUAL, number, 0, len(body) // INSTRUCTION) + body


def _socket_families(number: int) -> bytes:
    """socket(family, ...) is allowed for the families in ALLOWED_SOCKET_FAMILIES only."""
    checks = b"".join(_op(JUMP_IF_EQUAL, family, len(ALLOWED_SOCKET_FAMILIES) - i, 0)
                      for i, family in enumerate(ALLOWED_SOCKET_FAMILIES))
    body = _op(LOAD_WORD, ARG0_LOW_OFFSET) + checks + _refuse(errno.EAFNOSUPPORT) + _op(RETURN, ALLOW)
    return _op(JUMP_IF_EQUAL, number, 0, len(body) // INSTRUCTION) + body


@cache
def filter_program(arch: Architecture) -> bytes:
    """The filter as the kernel takes it: an array of ``struct sock_filter`` (8 bytes each)."""
    calls = arch.syscalls
    program = _op(LOAD_WORD, ARCH_OFFSET) + _op(JUMP_IF_EQUAL, arch.audit_arch, 1, 0) + _op(RETURN, KILL_PROCESS)
    program += _op(LOAD_WORD, NR_OFFSET)
    if arch.x32:
        program += _op(JUMP_IF_AT_LEAST, X32_SYSCALL_BIT, 0, 1) + _op(RETURN, KILL_PROCESS)
    program += _op(JUMP_IF_EQUAL, calls["clone3"], 0, 1) + _refuse(errno.ENOSYS)
    for name in arch.refused:
        program += _refused_call(calls[name])
    # the two that look at an argument come last: they load it over the call's number
    program += _clone_without_namespaces(calls["clone"])
    program += _socket_families(calls["socket"])
    return program + _op(RETURN, ALLOW)


def describe(arch: Architecture | None) -> str:
    """For the match record's confinement string."""
    if arch is None:
        return f"no seccomp (no syscall table for {platform.machine()})"
    return f"seccomp: {len(arch.refused) + len(SPECIAL)} calls filtered"
