"""Writes the clock it is handed at each decision to stderr, then plays the first action."""

import sys

from skyarena import Bot


class ClockBot(Bot):
    def act(self, observation, legal_actions):
        clock = self.clock
        print(f"clock move={clock.move_s:g} bank={clock.bank_s:g} deadline={clock.deadline_s:g} "
              f"left={clock.left() > 0}", file=sys.stderr, flush=True)
        return 0
