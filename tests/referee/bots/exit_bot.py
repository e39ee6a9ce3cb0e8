"""Plays one decision, then its process dies without a word (a hard crash)."""

import os

from skyarena import Bot


class ExitBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def act(self, observation, legal_actions):
        self.decisions += 1
        if self.decisions == 2:
            os._exit(3)
        return 0
