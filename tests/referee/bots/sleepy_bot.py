"""The first legal action after a short nap: keeps a match running for a while."""

import time

from skyarena import Bot


class SleepyBot(Bot):
    def act(self, observation, legal_actions):
        time.sleep(0.05)
        return 0
