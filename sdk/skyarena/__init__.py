"""Skyarena SDK: write a bot, play it locally, run it on the platform.

    from skyarena import Bot

    class MyBot(Bot):
        def act(self, observation, legal_actions):
            return legal_actions[0]
"""

from .bot import Bot, MatchInfo, RandomBot
from .observation import Observation

__version__ = "0.1.0"
__all__ = ["Bot", "MatchInfo", "Observation", "RandomBot", "__version__"]
