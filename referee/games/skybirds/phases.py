"""The phases of a Skybirds war, by the decision they wait for."""

from __future__ import annotations

TRADE_IN, PRE, GIVE, PLAY, WILD, TAKE, OVER = range(7)
PHASES = ("trade-in", "pre-campaign", "give", "play", "wild", "take", "over")
