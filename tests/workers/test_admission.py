"""A worker's matches at once follow its cores (issue 23): one per core by default, and a
warning, saying what to use, when the settings oversubscribe them."""

from __future__ import annotations

from workers import admission


def test_the_default_is_one_match_per_core_and_more_than_two_per_core_warns() -> None:
    assert admission.default_concurrency(2) == 2
    assert admission.default_concurrency() == admission.cores() >= 1
    assert admission.oversubscription_warning(4, 2) is None
    warning = admission.oversubscription_warning(6, 2)
    assert warning is not None and "--concurrency 2" in warning and "\n" not in warning


def test_the_concurrency_is_read_from_celerys_flags_in_each_spelling() -> None:
    assert admission.requested_concurrency(["--loglevel", "info"]) is None
    assert admission.requested_concurrency(["--concurrency", "5"]) == 5
    assert admission.requested_concurrency(["-c", "3", "--pool", "threads"]) == 3
    assert admission.requested_concurrency(["--concurrency=7"]) == 7
