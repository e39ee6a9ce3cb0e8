"""An honest bot process: plays both seats of each given match, answering index 0 the moment
a turn request arrives, one match after another, and reports how the referee served it.

    python -m tests.referee.honest ADDRESS < matches.json     ([[token, token], ...])

Prints {"elapsed_s", "gaps_s", "faults", "states"}: the time from the first turn request to
the last answer, every turnaround (an answer sent to the next turn request received, of
either seat), the faults the referee recorded against these seats, and how each match ended.
Run in its own process so the attacks of a test cannot slow it through the test's GIL.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

from grpc import aio

from skyarena.v1 import referee_pb2 as pb
from skyarena.v1 import referee_pb2_grpc as pb_grpc


async def seat(stub: Any, token: str, stamps: list[tuple[float, float]]) -> pb.MatchEnd:
    call = stub.Play()
    await call.write(pb.BotMessage(join=pb.Join(token=token, client="honest")))
    while True:
        message = await call.read()
        now = time.monotonic()
        if message is aio.EOF:
            raise SystemExit(f"the stream closed before the match ended: {await call.code()} {await call.details()}")
        kind = message.WhichOneof("kind")
        if kind == "turn":
            await call.write(pb.BotMessage(answer=pb.Answer(turn=message.turn.turn, index=0)))
            stamps.append((now, time.monotonic()))
        elif kind == "end":
            await call.done_writing()
            return message.end


async def main(address: str, matches: list[list[str]]) -> dict[str, Any]:
    stamps: list[tuple[float, float]] = []
    faults: list[str] = []
    states: list[int] = []
    gaps: list[float] = []
    async with aio.insecure_channel(address) as channel:
        stub = pb_grpc.RefereeStub(channel)
        for tokens in matches:
            mine: list[tuple[float, float]] = []
            ends = await asyncio.gather(*(seat(stub, token, mine) for token in tokens))
            mine.sort()
            gaps += [mine[i + 1][0] - mine[i][1] for i in range(len(mine) - 1)]
            stamps += mine
            states.append(ends[0].state)
            faults += [f"{f.kind} (seat {f.seat}, turn {f.turn}): {f.reason}" for f in ends[0].faults]
    return {"elapsed_s": stamps[-1][1] - stamps[0][0], "gaps_s": gaps, "faults": faults, "states": states}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], json.loads(sys.stdin.read())))))
