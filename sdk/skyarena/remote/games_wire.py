"""Typed wire descriptions of the games (see :class:`skyarena.remote.convert.GameWire`).

A game listed here travels as its typed messages from ``proto/skyarena/v1/games/``; any
other game travels as JSON text and notation strings.
"""

from __future__ import annotations
