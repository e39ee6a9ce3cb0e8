"""The referee: game engines (``referee.games``), the rules-independent match runner
(``referee.match``) and, on the server side, the gRPC service."""
