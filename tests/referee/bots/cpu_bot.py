"""A bot for CPU clocks: CPU_BOT=think:S burns S seconds of CPU each move; spin spins
forever on its second decision; sleep sleeps forever on its second decision."""

import os
import time

from skyarena import Bot


def burn(seconds: float) -> None:
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


class CpuBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0
        self.mode = os.environ.get("CPU_BOT", "think:0")

    def act(self, observation, legal_actions):
        self.decisions += 1
        if self.mode.startswith("think:"):
            burn(float(self.mode.partition(":")[2]))
        elif self.decisions == 2 and self.mode == "spin":
            while True:
                pass
        elif self.decisions == 2 and self.mode == "sleep":
            time.sleep(3600)
        return 0
