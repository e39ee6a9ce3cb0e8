"""What a hosted bot's Python needs to see, read-only: the interpreter, the virtual
environment with the SDK's dependencies, and the SDK's own source (an editable install
keeps it in the repository, outside the environment). Nothing else of the host."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# Packages the bot process imports from outside site-packages when the project is
# installed in editable mode: the SDK, and the engines it plays local games with.
SDK_PACKAGES = ("skyarena", "referee")
SYSTEM_DIRS = ("/usr",)                           # libc and the dynamic loader
SYSTEM_LINKS = ("/bin", "/lib", "/lib64", "/sbin")  # merged-/usr links (or real directories on older systems)
SYSTEM_FILES = ("/etc/ld.so.cache",)              # the loader finds libraries faster with it


@dataclass(frozen=True)
class Runtime:
    python: str                    # the interpreter the bot runs (this one)
    read_only: tuple[str, ...]     # directories bound read-only at the same path


def package_dir(name: str) -> Path:
    found = importlib.util.find_spec(name)
    if found is None or not found.submodule_search_locations:
        raise RuntimeError(f"the sandbox cannot find the {name!r} package; is the project installed (make install)?")
    return Path(next(iter(found.submodule_search_locations))).resolve()


@cache
def current_runtime() -> Runtime:
    """This process's interpreter and packages: the bot runs the same Python as the worker."""
    dirs = {str(Path(sys.base_prefix).resolve()), str(Path(sys.prefix).resolve())}
    dirs.update(str(package_dir(name)) for name in SDK_PACKAGES)
    return Runtime(python=sys.executable, read_only=tuple(sorted(dirs)))
