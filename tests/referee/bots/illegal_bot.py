"""Answers with text that is no action of any game, every time."""

from skyarena import Bot


class IllegalBot(Bot):
    def act(self, observation, legal_actions):
        return "fly to the moon"
