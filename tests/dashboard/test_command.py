"""``skyarena dashboard``: listed among the commands, and a store it cannot use is one clear line."""

from __future__ import annotations

from click.testing import CliRunner

from skyarena.cli import main


def test_the_dashboard_command_is_listed_and_refuses_an_unreachable_store() -> None:
    runner = CliRunner()
    listing = runner.invoke(main, ["--help"])
    assert "dashboard" in listing.output and "Streamlit dashboard" in listing.output
    refused = runner.invoke(main, ["dashboard", "--database-url", "postgresql://nobody@127.0.0.1:1/none"])
    assert refused.exit_code == 1
    assert "cannot connect to the database" in refused.output and "Traceback" not in refused.output


def test_an_unmigrated_store_is_refused_with_the_command_to_run(empty_database_url: str) -> None:
    refused = CliRunner().invoke(main, ["dashboard", "--database-url", empty_database_url])
    assert refused.exit_code == 1 and "skyarena db upgrade" in refused.output
