"""Engine data <-> ``skyarena.v1`` messages, for the referee and the SDK alike.

The engines speak JSON-ready dicts (observations) and small immutable action values; the
wire speaks ``skyarena.v1`` messages. The referee (which builds turn requests and checks
answers) and the bot's client (which reads them back and answers) convert with this same
code, so a round-trip test can prove that a bot sees on the platform exactly what it sees
locally. It belongs to neither side: it imports no gRPC and no asyncio, so a hosted bot
that speaks stdio frames loads neither.

- :mod:`.shapes`: how a message stands for a JSON value (the conventions of ``game.proto``);
- :mod:`.walk`: the checked dict <-> message walk, which names whatever does not fit;
- :mod:`.fast`: the same conversions compiled per message type, for the hot path;
- :mod:`.registry` and :mod:`.typed_games`: which games travel as typed messages;
- :mod:`.observations` and :mod:`.actions`: engine observations and actions <-> messages;
- :mod:`.caches`: serialized and rebuilt actions kept per game; :mod:`.splice`: messages
  assembled from kept bytes.
"""

from .actions import action_from_proto, action_kwargs, action_to_proto
from .caches import ACTION_CACHE_SIZE, action_bytes, action_key, legal_actions_from_proto, typed_action_bytes
from .fast import build_message, message_kwargs, read_message
from .observations import observation_from_proto, observation_kwargs, observation_to_proto
from .registry import GameWire, register_wire, wire_for
from .shapes import ConversionError
from .splice import repeated_field_bytes
from .walk import dict_to_message, message_to_dict

__all__ = [
    "ACTION_CACHE_SIZE", "ConversionError", "GameWire", "action_bytes", "action_from_proto", "action_key",
    "action_kwargs", "action_to_proto", "build_message", "dict_to_message", "legal_actions_from_proto",
    "message_kwargs", "message_to_dict", "observation_from_proto", "observation_kwargs", "observation_to_proto",
    "read_message", "register_wire", "repeated_field_bytes", "typed_action_bytes", "wire_for",
]
