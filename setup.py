"""Build: the hot modules compiled with mypyc for regular installs; pure Python otherwise.

The project's metadata is in pyproject.toml; this file only adds the compiled modules. mypyc
compiles the same typed source that the pure install runs (no second implementation), so every
test runs against the very code that gets compiled, and ``tests/test_compiled.py`` builds the
compiled modules and checks the corpus digest against them.

- ``pip install .`` (a wheel): the modules in ``handaudit.buildinfo.COMPILED`` become C extensions (about 3x
  faster per hand; see benchmarks/vs_pokerkit.py).
- ``pip install -e .`` (editable): pure Python, so an edited source is never shadowed by a
  stale extension module left from an earlier build.
- ``HANDAUDIT_PURE=1`` forces pure Python; if mypyc is missing or refuses the source, the build
  says so and falls back to pure Python rather than failing the install.
"""

from __future__ import annotations

import ast
import os
import sys

from setuptools import setup


def compiled_list() -> list[str]:
    """``handaudit.buildinfo.COMPILED``, the one list of compiled modules, read from the file's
    source (setup.py never imports handaudit: its dependencies need not be installed yet)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "handaudit", "buildinfo.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "COMPILED":
            return list(ast.literal_eval(node.value))
    raise SystemExit("setup.py: no COMPILED list in handaudit/buildinfo.py")


COMPILED = compiled_list()

# Commands that build modules; metadata-only commands (egg_info, dist_info) never compile.
_BUILDING = {"bdist_wheel", "build", "build_ext", "install"}


def compiled_extensions() -> list:
    if os.environ.get("HANDAUDIT_PURE") == "1" or not _BUILDING & set(sys.argv[1:]) or "editable_wheel" in sys.argv:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("handaudit: mypyc is not available; building pure Python", file=sys.stderr)
        return []
    here = os.path.dirname(os.path.abspath(__file__))
    modules = [m for m in COMPILED if os.path.exists(os.path.join(here, m))]
    try:
        return mypycify(modules, opt_level="3", debug_level="0")
    except (Exception, SystemExit) as err:  # mypyc exits on a type error
        print(f"handaudit: mypyc could not compile the hot modules ({err}); building pure Python",
              file=sys.stderr)
        return []


setup(ext_modules=compiled_extensions())
