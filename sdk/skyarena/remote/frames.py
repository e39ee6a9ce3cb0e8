"""Length-delimited protobuf frames on byte streams (the stdio transport).

Each frame is the message's length as a protobuf varint followed by the serialized
message: the standard "delimited" format (Java ``writeDelimitedTo``, Go ``protodelim``,
C++ ``SerializeDelimitedToOstream``), so a bot in any language can speak it. Frames are
capped in size on both sides; an oversized or truncated frame is an error, never a
partial message.
"""

from __future__ import annotations

from typing import BinaryIO, TypeVar

from google.protobuf.message import DecodeError, Message

M = TypeVar("M", bound=Message)

DEFAULT_MAX_FRAME = 4 << 20


class FrameError(Exception):
    """A frame that cannot be read: too big, truncated or not the expected message."""


def encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def encode_frame(message: Message, max_bytes: int = DEFAULT_MAX_FRAME) -> bytes:
    data = message.SerializeToString()
    if len(data) > max_bytes:
        raise FrameError(f"a {type(message).__name__} of {len(data)} bytes exceeds the frame cap of {max_bytes}")
    return encode_varint(len(data)) + data


def write_frame(stream: BinaryIO, message: Message, max_bytes: int = DEFAULT_MAX_FRAME) -> None:
    stream.write(encode_frame(message, max_bytes))
    stream.flush()


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    chunks = []
    while n:
        chunk = stream.read(n)
        if not chunk:
            raise FrameError("the stream ended in the middle of a frame")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(stream: BinaryIO, message_type: type[M], max_bytes: int = DEFAULT_MAX_FRAME) -> M | None:
    """The next message, or None at a clean end of stream (between frames)."""
    length = 0
    shift = 0
    first = True
    while True:
        byte = stream.read(1)
        if not byte:
            if first:
                return None
            raise FrameError("the stream ended in the middle of a frame length")
        first = False
        value = byte[0]
        length |= (value & 0x7F) << shift
        if not value & 0x80:
            break
        shift += 7
        if shift > 63:
            raise FrameError("a frame length is not a valid varint")
    if length > max_bytes:
        raise FrameError(f"a frame of {length} bytes exceeds the cap of {max_bytes}; is the other side speaking "
                         "length-delimited skyarena.v1 messages?")
    data = _read_exact(stream, length)
    message = message_type()
    try:
        message.ParseFromString(data)
    except DecodeError as exc:
        raise FrameError(f"a frame is not a valid {message_type.__name__}: {exc}") from None
    return message
