"""What the Arena tests share: the Arena under test, archives' parts, and the in-process CLI.

The smoke match is dispatched to a thread that runs the plain ``smoke.run_smoke`` with a
real MatchPlayer (a referee process, hosted bots in the sandbox), the very function the
``skyarena.smoke`` Celery task wraps; the workers' Celery tests already cover the task path.
"""

from __future__ import annotations

import io
import tarfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from click.testing import CliRunner

from skyarena.cli import main
from skyarena.v1 import arena_pb2 as pb
from skyarena.v1 import arena_pb2_grpc as pb_grpc
from workers.arena.archive import ArchiveLimits
from workers.arena.smoke import SmokeResult, run_smoke
from workers.play import MatchPlayer, play_match
from workers.store import Database
from workers.store.accounts import issue_token
from workers.store.challenges import ChallengeLimits

# Small caps so the bomb and too-many-files archives stay small.
TEST_LIMITS = ArchiveLimits(max_archive_bytes=256 * 1024, max_unpacked_bytes=1 << 20, max_files=50)
# A small daily quota, so spending it takes few matches.
TEST_CHALLENGES = ChallengeLimits(per_day=4, in_flight=3)

GOOD_BOT = b'''from skyarena import Bot


class Steady(Bot):
    name = "steady"

    def act(self, observation, legal_actions):
        print("thinking about", len(legal_actions), "actions", file=__import__("sys").stderr)
        return 0
'''


def manifest(game: str = "sky-team", entry: str = "bot.py", name: str = "steady") -> bytes:
    return f'game = "{game}"\nentry = "{entry}"\nname = "{name}"\n'.encode()


@dataclass
class Smokes:
    """The smoke matches the Arena dispatched, played in threads; ``wait`` joins them."""

    player: MatchPlayer
    threads: list[threading.Thread] = field(default_factory=list)
    results: list[SmokeResult] = field(default_factory=list)

    def dispatch(self, version_id: int) -> None:
        thread = threading.Thread(target=lambda: self.results.append(run_smoke(self.player, version_id)))
        thread.start()
        self.threads.append(thread)

    def play(self, match_ids: list[str]) -> None:
        """The Arena's enqueue for challenges: each match played by the real player, in a thread."""
        thread = threading.Thread(target=lambda: [play_match(self.player, m) for m in match_ids])
        thread.start()
        self.threads.append(thread)

    def wait(self) -> list[SmokeResult]:
        for thread in self.threads:
            thread.join(120)
        return self.results


@dataclass
class ArenaUnderTest:
    address: str
    db: Database
    smokes: Smokes
    channel: grpc.Channel

    @property
    def stub(self) -> Any:
        return pb_grpc.ArenaStub(self.channel)

    def token(self, account: str, scope: str = "author", expires_in_s: float | None = None) -> str:
        with self.db.connection() as conn:
            return issue_token(conn, account, scope, "test", expires_in_s)

    def call(self, method: str, request: Any, token: str) -> Any:
        return getattr(self.stub, method)(request, metadata=(("authorization", f"Bearer {token}"),), timeout=60)

    def submit(self, archive: bytes, token: str, **header: Any) -> pb.SubmitVersionResponse:
        def chunks() -> Iterator[pb.SubmitChunk]:
            yield pb.SubmitChunk(header=pb.SubmitHeader(size=len(archive), **header))
            for start in range(0, len(archive), 32 * 1024):
                yield pb.SubmitChunk(data=archive[start:start + 32 * 1024])

        return self.stub.SubmitVersion(chunks(), metadata=(("authorization", f"Bearer {token}"),), timeout=60)


def cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    """Run ``skyarena ARGS`` in-process with a private config directory; returns the click result."""
    runner = CliRunner()
    return runner.invoke(main, list(args), env={"SKYARENA_CONFIG_DIR": str(tmp_path / "config"), **(env or {})},
                         catch_exceptions=False)


def tar_archive(entries: list[tarfile.TarInfo | tuple[str, bytes]], mode: str = "w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:  # type: ignore[call-overload]
        for entry in entries:
            if isinstance(entry, tarfile.TarInfo):
                archive.addfile(entry)
                continue
            name, data = entry
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()
