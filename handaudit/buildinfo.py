"""Which build is running: the mypyc-compiled modules of a regular install, or pure Python.

Throughput differs about threefold between the two (see setup.py and benchmarks/), so the
benchmarks and ``handaudit --version`` say which one they ran.
"""

from __future__ import annotations

import importlib
import importlib.machinery

# The per-hand path; setup.py compiles these (and the modules they use) in a regular install.
HOT = ("handaudit.audit", "handaudit.auditing", "handaudit.validator.engine", "handaudit.settlement",
       "handaudit.reports.ledger", "handaudit.reports.jsonl", "handaudit.reports.rows")


def compiled_modules() -> list[str]:
    """Names of the handaudit modules loaded as compiled extensions (empty: pure Python)."""
    import sys

    for name in HOT:
        importlib.import_module(name)
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("handaudit") and (getattr(module, "__file__", None) or "").endswith(suffixes))


def describe() -> str:
    """One line: ``compiled (17 modules)`` or ``pure Python``."""
    n = len(compiled_modules())
    return f"compiled ({n} modules)" if n else "pure Python"
