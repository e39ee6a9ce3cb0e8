"""The README's configuration reference is the code's: every flag and every environment variable."""

from __future__ import annotations

import re

from tests import config_reference
from tests.cli_reference import README, ROOT, current_block, reference

SOURCES = ("sdk/skyarena", "referee", "workers", "dashboard", "serving")
ENV_NAME = re.compile(r"""["'](SKYARENA_[A-Z][A-Z0-9_]*|DATABASE_URL|CELERY_BROKER_URL)["']""")


def test_readme_command_reference_is_generated_from_the_commands() -> None:
    block = current_block(README.read_text())
    assert block is not None, "README.md lost its cli-reference markers"
    assert block == reference(), "README.md's command reference is stale: run python -m tests.cli_reference --write"


def test_readme_configuration_reference_is_generated_from_the_settings_classes() -> None:
    block = current_block(README.read_text(), config_reference.BEGIN, config_reference.END)
    assert block is not None, "README.md lost its config-reference markers"
    assert block == config_reference.reference(), \
        "README.md's configuration reference is stale: run python -m tests.config_reference --write"


def test_every_environment_variable_the_code_reads_is_in_the_readme() -> None:
    text = README.read_text()
    names = {m.group(1) for folder in SOURCES for path in (ROOT / folder).rglob("*.py")
             for m in ENV_NAME.finditer(path.read_text())}
    assert names, "no environment variable found: the pattern is broken"
    missing = sorted(n for n in names if n not in text)
    assert not missing, f"README.md's configuration table does not mention {missing}"
