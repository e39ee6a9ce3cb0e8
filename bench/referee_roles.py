"""The processes of the referee benchmark (``bench/referee.py``), each started as
``python bench/referee_roles.py --role ROLE``: the bot processes that play the referee's
seats, and the bare gRPC echo and relay the referee is measured against.

Their own file so the orchestrator stays one job (start processes, compute the figures);
each role prints its record as one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))



async def role_seats(address: str, tokens: list[str], sdk: bool) -> dict[str, Any]:
    """Play seats, each over its own channel, with the SDK's SeatSession (``sdk``: typed
    observation, ``Bot.act``, answer encoding) or as a raw client that answers index 0 the
    moment a turn request arrives (the ping-pong client's counterpart: only the referee's
    work is then added to the ping-pong's). Records when each request arrived and each
    answer left (CLOCK_MONOTONIC is system-wide, so processes' stamps compare)."""
    from grpc import aio

    from skyarena.bot import Bot
    from skyarena.remote.runner import SeatSession
    from skyarena.v1 import referee_pb2 as pb
    from skyarena.v1 import referee_pb2_grpc as pb_grpc

    class FirstBot(Bot):
        def act(self, observation: Any, legal_actions: Any) -> Any:
            return 0

    async def play(token: str) -> dict[str, Any]:
        async with aio.insecure_channel(address) as channel:  # one channel per seat, as separate bots have
            return await play_on(pb_grpc.RefereeStub(channel), token)

    class RawSeat:
        """The raw client: answers index 0 the moment a turn request arrives, nothing else."""

        def __init__(self) -> None:
            self.finished = False
            self.match_id = ""

        def handle(self, message: Any) -> Any:
            kind = message.WhichOneof("kind")
            if kind == "turn":
                return pb.BotMessage(answer=pb.Answer(turn=message.turn.turn, index=0))
            if kind == "welcome":
                self.match_id = message.welcome.match_id
            elif kind == "end":
                self.finished = True
            return None

    async def play_on(stub: Any, token: str) -> dict[str, Any]:
        seat = SeatSession(lambda game: FirstBot(), say=lambda text: None) if sdk else RawSeat()
        call = stub.Play()
        await call.write(pb.BotMessage(join=pb.Join(token=token, client="bench")))
        received: list[float] = []
        sent: list[float] = []
        sizes: list[tuple[int, int]] = []
        clock = time.monotonic
        while not seat.finished:
            message = await call.read()
            now = clock()
            if message is aio.EOF:
                break
            reply = seat.handle(message)
            if reply is not None:
                received.append(now)
                sent.append(clock())
                await call.write(reply)
                if len(sizes) < 50:
                    sizes.append((message.ByteSize(), reply.ByteSize()))
        await call.done_writing()
        if isinstance(seat, SeatSession):
            match_id = seat.conclude().match_id
        elif seat.finished:
            match_id = seat.match_id
        else:
            raise SystemExit("the referee closed a bench stream before the match ended")
        return {"received": received, "sent": sent, "sizes": sizes, "match_id": match_id}

    seats = await asyncio.gather(*(play(t) for t in tokens))
    return {"seats": list(seats)}


async def serve_on_loopback(handler: Any, port_file: Path) -> None:
    """Serve one generic handler on a free loopback port, written to ``port_file`` for the parent."""
    from grpc import aio

    server = aio.server()
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    port_file.write_text(str(port))
    await server.wait_for_termination()


async def role_echo_server(port_file: Path) -> None:
    """A bare gRPC echo: every request is answered with a reply of the given size."""
    import grpc

    async def pingpong(requests: Any, context: Any) -> Any:
        reply = b""
        async for message in requests:
            if not reply:
                reply = b"x" * int(message[:12])
            yield reply

    handler = grpc.method_handlers_generic_handler("bench.Echo", {
        "PingPong": grpc.stream_stream_rpc_method_handler(pingpong, request_deserializer=bytes,
                                                          response_serializer=bytes)})
    await serve_on_loopback(handler, port_file)


async def role_relay_server(port_file: Path) -> None:
    """The referee's shape with no referee in it: two streams, and every message read from
    one is written to the other (through the other stream's writer task)."""
    import grpc
    from grpc import aio

    queues: dict[bytes, asyncio.Queue[bytes | None]] = {}
    both = asyncio.Event()

    async def relay(requests: Any, context: Any) -> None:
        me = await context.read()
        other = b"B" if me == b"A" else b"A"
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        queues[me] = queue
        if len(queues) == 2:
            both.set()
        await both.wait()

        async def reader() -> None:
            while True:
                message = await context.read()
                if message is aio.EOF:
                    queue.put_nowait(None)
                    return
                queues[other].put_nowait(message)

        task = asyncio.ensure_future(reader())
        while (message := await queue.get()) is not None:
            await context.write(message)
        task.cancel()

    handler = grpc.method_handlers_generic_handler("bench.Relay", {
        "Relay": grpc.stream_stream_rpc_method_handler(relay, request_deserializer=bytes, response_serializer=bytes)})
    await serve_on_loopback(handler, port_file)


async def role_relay_client(port: int, me: str, n: int, request_size: int, reply_size: int) -> dict[str, Any]:
    """One side of the relay: A sends answer-sized messages, B turn-request-sized ones; each
    answers what it receives, like two bots taking turns."""
    from grpc import aio

    async with aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.stream_stream("/bench.Relay/Relay", request_serializer=bytes, response_deserializer=bytes)()
        await call.write(me.encode())
        payload = b"x" * (request_size if me == "A" else reply_size)
        clock = time.monotonic
        if me == "A":
            await asyncio.sleep(0.3)
            await call.write(payload)
        start = clock()
        for i in range(n):
            await call.read()
            if me == "A" and i == n - 1:
                break
            await call.write(payload)
        elapsed = clock() - start
        await call.done_writing()
    return {"per_s": 2 * n / elapsed}


async def role_echo_client(port: int, n: int, request_size: int, reply_size: int) -> dict[str, Any]:
    from grpc import aio

    async with aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.stream_stream("/bench.Echo/PingPong", request_serializer=bytes, response_deserializer=bytes)()
        first = f"{reply_size:<12}".encode() + b"x" * max(0, request_size - 12)
        payload = b"y" * request_size
        await call.write(first)
        await call.read()
        for _ in range(200):  # warm-up
            await call.write(payload)
            await call.read()
        rtts = []
        clock = time.monotonic
        start = clock()
        for _ in range(n):
            t0 = clock()
            await call.write(payload)
            await call.read()
            rtts.append(clock() - t0)
        elapsed = clock() - start
        await call.done_writing()
    return {"per_s": n / elapsed, "rtts": rtts}


async def role_slots(address: str, slots: list[list[list[str]]]) -> dict[str, Any]:
    """Play matches slot by slot: each slot is a list of matches (the seat tokens of each),
    played one after the other, both seats of a match in this process over their own
    channels; the slots run at once. Raw seats (index 0 at once), stamps as role_seats."""
    from grpc import aio

    from skyarena.v1 import referee_pb2 as pb
    from skyarena.v1 import referee_pb2_grpc as pb_grpc

    clock = time.monotonic

    async def seat(channel: Any, token: str) -> dict[str, Any]:
        call = pb_grpc.RefereeStub(channel).Play()
        await call.write(pb.BotMessage(join=pb.Join(token=token, client="bench-scale")))
        received: list[float] = []
        sent: list[float] = []
        match_id = ""
        while True:
            message = await call.read()
            now = clock()
            if message is aio.EOF:
                raise SystemExit("the referee closed a bench stream before the match ended")
            kind = message.WhichOneof("kind")
            if kind == "turn":
                received.append(now)
                sent.append(clock())
                await call.write(pb.BotMessage(answer=pb.Answer(turn=message.turn.turn, index=0)))
            elif kind == "welcome":
                match_id = message.welcome.match_id
            elif kind == "end":
                break
        await call.done_writing()
        return {"received": received, "sent": sent, "sizes": [], "match_id": match_id}

    async def slot(matches: list[list[str]]) -> list[dict[str, Any]]:
        out = []
        async with aio.insecure_channel(address) as a, aio.insecure_channel(address) as b:
            for tokens in matches:
                out += await asyncio.gather(*(seat(ch, t) for ch, t in zip((a, b), tokens)))
        return out

    results = await asyncio.gather(*(slot(s) for s in slots))
    return {"seats": [seat for r in results for seat in r]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--role", choices=["seats", "slots", "echo-server", "echo-client", "relay-server",
                                           "relay-client"],
                        required=True)
    parser.add_argument("--side")
    parser.add_argument("--sdk", action="store_true")
    parser.add_argument("--address")
    parser.add_argument("--tokens")
    parser.add_argument("--port-file", type=Path)
    parser.add_argument("--port", type=int)
    parser.add_argument("--n", type=int)
    parser.add_argument("--request-size", type=int)
    parser.add_argument("--reply-size", type=int)
    args = parser.parse_args()
    if args.role == "seats":
        print(json.dumps(asyncio.run(role_seats(args.address, args.tokens.split(","), args.sdk))))
        return
    if args.role == "slots":
        print(json.dumps(asyncio.run(role_slots(args.address, json.loads(sys.stdin.read())))))
        return
    if args.role == "echo-server":
        asyncio.run(role_echo_server(args.port_file))
        return
    if args.role == "relay-server":
        asyncio.run(role_relay_server(args.port_file))
        return
    if args.role == "relay-client":
        print(json.dumps(asyncio.run(role_relay_client(args.port, args.side, args.n, args.request_size,
                                                       args.reply_size))))
        return
    if args.role == "echo-client":
        print(json.dumps(asyncio.run(role_echo_client(args.port, args.n, args.request_size, args.reply_size))))
        return


if __name__ == "__main__":
    main()
