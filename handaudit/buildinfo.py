"""Which build is running: the mypyc-compiled modules of a regular install, or pure Python.

Throughput differs about threefold between the two (see setup.py and benchmarks/), so the
benchmarks and ``handaudit --version`` say which one they ran.
"""

from __future__ import annotations

import importlib
import importlib.machinery

# The per-hand path: read, replay, settle, report. setup.py compiles these with mypyc in a regular
# install (it reads this assignment from the file, without importing handaudit); the command line,
# the runners, the rulebook loader and the Parquet writer orchestrate and stay pure Python.
COMPILED: tuple[str, ...] = (
    "handaudit/core/cards.py",
    "handaudit/core/variants.py",
    "handaudit/core/status.py",
    "handaudit/core/value.py",
    "handaudit/core/amounts.py",
    "handaudit/core/hand.py",
    "handaudit/findings/codes.py",
    "handaudit/findings/finding.py",
    "handaudit/findings/selection.py",
    "handaudit/grammar/result.py",
    "handaudit/grammar/chunk.py",
    "handaudit/grammar/splitter.py",
    "handaudit/grammar/sources.py",
    "handaudit/grammar/duplicates.py",
    "handaudit/grammar/tomlscan.py",
    "handaudit/grammar/actions.py",
    "handaudit/grammar/fields.py",
    "handaudit/grammar/reader.py",
    "handaudit/importers/common.py",
    "handaudit/importers/lines.py",
    "handaudit/importers/pokerstars.py",
    "handaudit/importers/text_sites.py",
    "handaudit/importers/poker888.py",
    "handaudit/importers/partypoker.py",
    "handaudit/importers/pokerstars_games.py",
    "handaudit/importers/__init__.py",
    "handaudit/validator/phases.py",
    "handaudit/validator/outcome.py",
    "handaudit/validator/showing.py",
    "handaudit/validator/limits.py",
    "handaudit/validator/state.py",
    "handaudit/validator/dealing.py",
    "handaudit/validator/betting.py",
    "handaudit/validator/engine.py",
    "handaudit/settlement/evaluators.py",
    "handaudit/settlement/pots.py",
    "handaudit/settlement/showdown.py",
    "handaudit/settlement/rake.py",
    "handaudit/settlement/payouts.py",
    "handaudit/settlement/site_totals.py",
    "handaudit/settlement/__init__.py",
    "handaudit/reports/contract.py",
    "handaudit/reports/hand_facts.py",
    "handaudit/reports/hand_report.py",
    "handaudit/reports/ledger.py",
    "handaudit/reports/summary.py",
    "handaudit/reports/jsonl.py",
    "handaudit/reports/rows.py",
    "handaudit/reports/buffer.py",
    "handaudit/run/hand_loop.py",
    "handaudit/api.py",
    # the cross-hand pass's per-record checks (handaudit/sessions; its reading and writing stay pure)
    "handaudit/sessions/record.py",
    "handaudit/sessions/keying.py",
    "handaudit/sessions/checks.py",
)


def module_name(path: str) -> str:
    """``handaudit/settlement/__init__.py`` -> ``handaudit.settlement``."""
    name = path.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def compiled_modules() -> list[str]:
    """Names of the handaudit modules loaded as compiled extensions (empty: pure Python)."""
    import sys

    for path in COMPILED:
        importlib.import_module(module_name(path))
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("handaudit") and (getattr(module, "__file__", None) or "").endswith(suffixes))


def is_compiled() -> bool:
    """The per-hand loop (``run.hand_loop``) is a compiled extension: the build that runs is the
    compiled one. Cheap (one module, loaded anyway by a run), unlike :func:`compiled_modules`."""
    from .run import hand_loop

    return (getattr(hand_loop, "__file__", None) or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def build_name() -> str:
    """``compiled build`` or ``pure-Python build``, for the summary line of ``handaudit check``."""
    return "compiled build" if is_compiled() else "pure-Python build"


PURE_WARNING = ("warning: this is the pure-Python build, about 3 times slower than the compiled one; "
                "`python -m pip install .` installs the compiled build (README, Install; HANDAUDIT_PURE=1 "
                "silences this)")


def describe() -> str:
    """One line: ``compiled (17 modules)`` or ``pure Python``."""
    n = len(compiled_modules())
    return f"compiled ({n} modules)" if n else "pure Python"
