"""What several test files share: where the repository and the shared corpus are, the command line
run in a child process, and a rulebook for the settlement's unit tests.

The tests import it as ``helpers`` (pyproject's ``pythonpath = ["tests"]``); fixtures built on it
are in conftest.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from handaudit.rules.rulebook import Rulebook

REPO = Path(__file__).resolve().parents[1]

# Three-handed no-limit hold'em, blinds 1/2, stacks 200: the table most inline cases use.
NT3 = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
"""
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


def settlement_rulebook(base: str = "roberts-v11", **params) -> Rulebook:
    """A real, loaded rulebook for the settlement's unit tests: the built-in ``base`` (Robert's:
    ``odd_chip_stud = all-cards``, the reading these tests assume) with keyword arguments replacing
    parameters, each checked as a rulebook file's value is (``Rulebook.replace``)."""
    from handaudit.rules.params import PARAMETERS
    from handaudit.rules.rulebook import load_rulebook

    book = load_rulebook(base)
    for key, value in params.items():
        PARAMETERS[key].check(value, "settlement_rulebook")
    return book.replace(**params)


# A valid three-handed no-limit hold'em hand in dollars and cents (p3 raises, the others fold),
# the shared input of the CLI, report and hostile-input tests.
VALID_HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.05, 0.10, 0]
min_bet = 0.10
starting_stacks = [10.00, 26.85, 5.00]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'd dh p3 QhQd', 'p3 cbr 0.30', 'p1 f', 'p2 f']
finishing_stacks = [9.95, 26.75, 5.15]
winnings = [0, 0, 0.25]
"""
# The same hand with p1 acting out of turn (an error finding).
OUT_OF_TURN_HAND = VALID_HAND.replace("'p3 cbr 0.30', 'p1 f'", "'p1 cbr 0.30', 'p3 f'")
