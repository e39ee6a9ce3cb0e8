"""Always the first legal action, by index (the fastest possible bot)."""

from skyarena import Bot


class FirstBot(Bot):
    def act(self, observation, legal_actions):
        return 0
