"""Plays like RandomBot and says, when its match ends, whether its process loaded gRPC or
asyncio: a hosted bot speaks stdio frames and needs neither (they are half its start-up)."""

import sys

from skyarena import Bot


class LeanBot(Bot):
    def act(self, observation, legal_actions):
        return self.random.randrange(len(legal_actions))

    def on_match_end(self, info, result):
        loaded = sorted({name.partition(".")[0] for name in sys.modules} & {"grpc", "asyncio"})
        print(f"loaded at the end: {','.join(loaded) or 'neither'}", file=sys.stderr)
