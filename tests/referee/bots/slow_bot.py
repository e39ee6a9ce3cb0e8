"""Answers instantly except on its second decision, where it sleeps past any short clock."""

import os
import time

from skyarena import Bot


class SlowBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def act(self, observation, legal_actions):
        self.decisions += 1
        if self.decisions == 2:
            time.sleep(float(os.environ.get("SLOW_BOT_SLEEP", "0.6")))
        return 0
