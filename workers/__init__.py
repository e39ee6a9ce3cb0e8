"""The platform half: the Postgres store, ratings, matchmaking, seasons, the Celery app,
the hosted-bot sandbox and the Arena service (DESIGN.md, "The shape")."""
