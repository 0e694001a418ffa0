"""Fixtures shared by the test files, and the ``slow`` marker.

Tests marked ``slow`` (the compiled build, the Dask engine, killed workers, signals, concurrent
runs, 50 MB inputs) are skipped by a plain ``python -m pytest``; ``--slow`` runs them, and so does
CI (the environment variable CI set to anything but "", "0" or "false"), which runs everything.
Under CI a missing shared corpus is an error rather than a reason to skip.
"""

from __future__ import annotations

import os

import pytest
from helpers import CORPUS, REPO, in_ci, run_cli

# The suite runs the source tree, which is pure Python on purpose: `handaudit check` would warn
# about it on every run (tests/test_build_note.py checks the warning with this unset).
os.environ["HANDAUDIT_PURE"] = "1"

SLOW_REASON = "slow: run with `python -m pytest --slow` (CI=true runs every test)"


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run the tests marked slow (CI=true does too)")


def pytest_configure(config):
    if in_ci() and not CORPUS.is_dir():
        raise pytest.UsageError(f"CI is set but the shared corpus is not at {CORPUS} "
                                "(../shared/corpus next to the repository): its tests would be skipped")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow") or in_ci():
        return
    skip = pytest.mark.skip(reason=SLOW_REASON)
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def repo():
    """The repository's root (the directory of pyproject.toml)."""
    return REPO


@pytest.fixture(scope="session")
def corpus():
    """The shared corpus (``../shared/corpus``); the test is skipped when it is not there."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture()
def cli():
    """``cli(*args, ...)``: the command line in a child process (:func:`helpers.run_cli`)."""
    return run_cli
