"""Generate the Python wire modules (``skyarena.v1``) from ``proto/skyarena/v1/*.proto``.

``make proto`` runs this into ``sdk/``; the staleness test runs it into a temporary
directory and compares, so committed code can never drift from the .proto files. The
generators are pinned in pyproject.toml (grpcio-tools, mypy-protobuf) because their
version is part of the output.

    python proto/generate.py            # writes sdk/skyarena/v1/
    python proto/generate.py --out DIR  # writes DIR/skyarena/v1/
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PACKAGE = Path("skyarena") / "v1"

INIT = '''"""Generated wire modules of the Skyarena protocol (package ``skyarena.v1``).

Do not edit: run ``make proto`` after changing ``proto/skyarena/v1/*.proto``.
"""
'''


def proto_files() -> list[Path]:
    return sorted(p.relative_to(PROTO_ROOT) for p in (PROTO_ROOT / PACKAGE).rglob("*.proto"))


def generate(out: Path) -> Path:
    """Write the generated package under ``out``; returns the package directory."""
    target = out / PACKAGE
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    # protoc finds its plugins (protoc-gen-mypy, protoc-gen-mypy_grpc) on PATH: use the
    # ones installed beside this interpreter.
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    cmd = [
        sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_ROOT}",
        f"--python_out={out}", f"--grpc_python_out={out}", f"--mypy_out={out}", f"--mypy_grpc_out={out}",
        *[str(p) for p in proto_files()],
    ]
    done = subprocess.run(cmd, cwd=PROTO_ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:  # mypy-protobuf chats on stderr; show it only when protoc failed
        raise SystemExit(f"protoc failed:\n{done.stdout}{done.stderr}")
    for directory in [target, *[d for d in target.rglob("*") if d.is_dir()]]:
        init = directory / "__init__.py"
        if not init.exists():
            init.write_text(INIT if directory == target else "")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "sdk", help="directory that receives skyarena/v1/")
    args = parser.parse_args()
    target = generate(args.out)
    print(f"generated {len(list(target.rglob('*.py*')))} files in {target}")


if __name__ == "__main__":
    main()
