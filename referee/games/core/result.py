"""The outcome of a finished game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .views import private_copy


@dataclass(frozen=True)
class Result:
    """Ranks (0 is best, ties share a rank), scores and why the game ended.

    ``reason`` is a short machine-readable word (``landed``, ``spin``, ``armistice``...);
    ``details`` carries whatever explains it (e.g. which landing conditions failed).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    details: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def from_scores(scores: Sequence[float], reason: str, *, lower_is_better: bool = False,
                    details: dict[str, Any] | None = None) -> Result:
        """Competition ranking: equal scores share a rank; the next rank counts them."""
        keyed = [(-s if not lower_is_better else s) for s in scores]
        ranks = tuple(sum(1 for other in keyed if other < mine) for mine in keyed)
        return Result(ranks, tuple(scores), reason, dict(details or {}))

    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 0]

    def to_json(self) -> dict[str, Any]:
        return {"ranks": list(self.ranks), "scores": list(self.scores), "reason": self.reason,
                "details": private_copy(self.details)}  # a copy: handed to every seat's bot

    @staticmethod
    def from_json(data: dict[str, Any]) -> Result:
        return Result(tuple(data["ranks"]), tuple(data["scores"]), data["reason"], dict(data.get("details", {})))
