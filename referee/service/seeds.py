"""Per-seat seeds for the bots' own randomness (``Welcome.bot_seed``, ``Bot.random``).

A plain hash of the match seed let a bot recover a caller-chosen seed (``--seed 7``, a
league's counter) by trying small numbers, then predict every die of the match, its
partner's hidden ones included. The seeds are now an HMAC of the match id, the match seed
and the seat under a key the bots never see: a process-wide random key, or
``SKYARENA_SEED_KEY`` when an operator wants the same bot seeds after a restart. A bot
learns nothing of the match seed nor of another seat's seed; the engine's replay does not
depend on them, and the operator sees each seat's seed in ``GetMatch`` (``SeatStatus.bot_seed``)
to re-run a bot exactly.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


class SeatSeeds:
    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key else secrets.token_bytes(32)

    def bot_seed(self, match_id: str, match_seed: int, seat: int) -> int:
        message = f"skyarena-bot-seed\0{match_id}\0{match_seed}\0{seat}".encode()
        return int.from_bytes(hmac.new(self._key, message, hashlib.sha256).digest()[:8], "big")
