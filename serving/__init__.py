"""What both gRPC servers (the referee's and the Arena's) share: logs, bearer tokens, metrics, status errors.

A neutral package: the referee (`referee.service`) and the Arena (`workers.arena`) both import
it, and it imports neither, so the Arena does not depend on the referee's service modules
(DESIGN.md: the Arena is its own process beside the store, never inside the referee).
"""
