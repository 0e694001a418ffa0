"""What several test files share: where the repository and the shared corpus are, the command line
run in a child process, and a stand-in rulebook for the settlement's unit tests.

The tests import it as ``helpers`` (pyproject's ``pythonpath = ["tests"]``); fixtures built on it
are in conftest.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The shared corpus lives next to the repository (README): real/ and generated/ hands.
CORPUS = REPO.parent / "shared" / "corpus"


def in_ci() -> bool:
    """CI is set to anything but "", "0" or "false": the whole suite runs, a missing corpus fails."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def cli_env(extra: dict | None = None) -> dict:
    """The environment of a child ``handaudit``: this checkout first on the path, no debug output."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("HANDAUDIT_DEBUG", None)
    env.update(extra or {})
    return env


def run_cli(*args: str, stdin: bytes | str | None = None, env: dict | None = None, cwd: Path | str = REPO,
            prefix: tuple[str, ...] = (), timeout: float = 600, **kw) -> subprocess.CompletedProcess:
    """``python -m handaudit.cli ARGS`` in a child process (output captured, never raising on the
    exit status); ``env`` adds to :func:`cli_env`, ``prefix`` goes before the interpreter
    (``("setsid",)``), ``kw`` goes to :func:`subprocess.run` (``text=True``)."""
    return subprocess.run([*prefix, sys.executable, "-m", "handaudit.cli", *args], input=stdin,
                          capture_output=True, env=cli_env(env), cwd=cwd, timeout=timeout, check=False, **kw)


def settlement_rulebook(**kw) -> types.SimpleNamespace:
    """The parameters the settlement reads from a rulebook, with the built-in books' values; keyword
    arguments change some of them."""
    base = {"name": "test", "odd_chip_stud": "all-cards", "odd_chip_button": "first-left-of-button",
            "short_deck_trips_beat_straight": False, "rake_limit_percent": 10, "rake_rounding_units": 1,
            "cite": lambda code: None}
    base.update(kw)
    return types.SimpleNamespace(**base)
