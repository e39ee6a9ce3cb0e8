"""Messages assembled from serialized parts, so kept bytes need no parse and no re-serialization."""

from __future__ import annotations

from collections.abc import Sequence


def repeated_field_bytes(number: int, payloads: Sequence[bytes]) -> bytes:
    """The wire form of a repeated message field: each payload with its tag and length.
    Merged into a message with ``MergeFromString``, it appends the elements."""
    tag = _varint(number << 3 | 2)
    parts = []
    for payload in payloads:
        parts.append(tag)
        parts.append(_varint(len(payload)))
        parts.append(payload)
    return b"".join(parts)


_SMALL_VARINTS = [bytes([i]) for i in range(0x80)]


def _varint(value: int) -> bytes:
    if value < 0x80:
        return _SMALL_VARINTS[value]
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
