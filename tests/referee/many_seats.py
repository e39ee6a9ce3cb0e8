"""A bot process that plays many seats at once (one asyncio loop, one stream per seat).

    python -m tests.referee.many_seats ADDRESS BOT THINK_S < tokens.txt   (one token per line)

Each seat is the SDK's SeatSession (the same conversion and bot calls as ``skyarena run``);
the answer is held back THINK_S seconds without blocking the other seats, as a crowd of
independent bots thinking at once would. Prints one JSON line per seat result.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from grpc import aio

from skyarena.remote.runner import SeatSession, bot_factory
from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc


async def play(stub: Any, factory: Any, token: str, think_s: float) -> dict[str, Any]:
    session = SeatSession(factory, say=lambda _text: None)
    call = stub.Play()
    await call.write(pb.BotMessage(join=pb.Join(token=token, client="many-seats")))
    while not session.finished:
        message = await call.read()
        if message is aio.EOF:
            break
        reply = session.handle(message)
        if reply is not None:
            await asyncio.sleep(think_s)
            await call.write(reply)
    await call.done_writing()
    return session.conclude().to_json()


async def main(address: str, bot: str, think_s: float, tokens: list[str]) -> None:
    factory = bot_factory(bot)
    async with aio.insecure_channel(address) as channel:
        stub = pb_grpc.RefereeStub(channel)
        results = await asyncio.gather(*(play(stub, factory, token, think_s) for token in tokens),
                                       return_exceptions=True)
    for result in results:
        print(json.dumps({"error": repr(result)} if isinstance(result, BaseException) else result))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3]),
                     [line.strip() for line in sys.stdin if line.strip()]))
