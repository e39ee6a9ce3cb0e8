"""Raises in every act(): each decision is an 'exception' fault until the seat forfeits."""

from skyarena import Bot


class CrashBot(Bot):
    def act(self, observation, legal_actions):
        raise ValueError("my bug")
