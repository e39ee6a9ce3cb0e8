"""The rules-independent match runner: clocks, strikes, fallback and forfeits.

Game code never sees a clock or a fault; the runner owns them (as in Halite's coordinator
and Kaggle's episode runner). Drivers feed it answers: the local SDK driver calls bots in
process, the gRPC referee awaits them over the network.
"""

from .clock import SeatClock, TimeControl
from .faults import Fault, FaultKind
from .replay_check import verify_match_replay
from .runner import DecisionRequest, MatchRecord, MatchRunner

__all__ = ["DecisionRequest", "Fault", "FaultKind", "MatchRecord", "MatchRunner", "SeatClock", "TimeControl",
           "verify_match_replay"]
