"""A Celery app without tasks for the probe's test; its broker comes from the environment."""

from __future__ import annotations

import os

from celery import Celery

app = Celery("skyarena-probe-test", broker=os.environ["CELERY_BROKER_URL"])
