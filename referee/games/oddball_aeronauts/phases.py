"""The phases of an Oddball Äeronauts round, by the decision they wait for."""

from __future__ import annotations

ANNOUNCE, PREPARE, PLAY, CAPTURE, PROTECT, DISCARD, OVER = range(7)
PHASE_NAMES = ("announce", "prepare", "play", "capture", "protect", "discard", "over")
# What the round does once the pending Discard orders are chosen.
THEN_ANNOUNCE, THEN_EFFECTS = range(2)
