"""The bot author's side of the Arena: the ``skyarena`` commands that talk to it over gRPC.

Client only (grpcio and the generated ``skyarena.v1`` stubs; no server parts). Each command
is a module with a ``command`` (the ``PLATFORM_COMMANDS`` table in ``cli.py`` names them);
``client.py`` holds what they share: where the Arena is, the stored token, the channel, and
gRPC errors turned into one-line messages. The organisers' ``skyarena token`` uses that client
too but lives in ``workers/commands/token.py``, beside the store its ``--bootstrap`` writes.
"""
