"""Prints on every decision (to stdout!) and plays like RandomBot: in stdio mode the SDK must
keep its prints out of the frames."""

from skyarena import Bot


class ChattyBot(Bot):
    def act(self, observation, legal_actions):
        print(f"thinking about {len(legal_actions)} actions")
        return self.random.randrange(len(legal_actions))
