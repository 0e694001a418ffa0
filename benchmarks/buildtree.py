"""The handaudit tree a benchmark measures: the compiled build (default) or the pure source.

A regular install (``pip install .``) compiles the per-hand modules with mypyc (setup.py); the
editable install used for development is pure Python. So that a benchmark measures what users
run without reinstalling anything, ``tree("compiled")`` builds the compiled modules in a copy of
the project (``setup.py build_ext --inplace``, about a minute; reused while the sources are
unchanged) and returns that copy; ``tree("pure")`` returns the source tree itself. Put the
result first on ``sys.path`` (or ``PYTHONPATH`` for child processes). A new build removes the one
before it: to compare two states, copy a tree elsewhere (or install each in its own environment)
and pass it as ``--tree``, which :func:`existing_tree` checks.
"""

from __future__ import annotations

import compileall
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(__file__).resolve().parent / ".build"  # git-ignored


def _source_digest() -> str:
    h = hashlib.sha256()
    for path in sorted([*ROOT.joinpath("handaudit").rglob("*.py"), *ROOT.joinpath("handaudit").rglob("*.lark"),
                        *ROOT.joinpath("handaudit").rglob("*.toml"), ROOT / "setup.py", ROOT / "pyproject.toml"]):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def tree(build: str) -> Path:
    """The directory holding the ``handaudit`` package to measure."""
    if build == "pure":
        return ROOT
    if build != "compiled":
        raise ValueError(f"unknown build {build!r} (compiled or pure)")
    dest = CACHE / _source_digest()
    if (dest / "ok").exists():
        return dest
    if CACHE.exists():
        shutil.rmtree(CACHE)
    dest.mkdir(parents=True)
    shutil.copytree(ROOT / "handaudit", dest / "handaudit", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    print(f"building the compiled modules in {dest} (about a minute) ...", file=sys.stderr)
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=dest,
                          capture_output=True, text=True)
    if proc.returncode != 0 or "building pure Python" in proc.stderr:
        raise SystemExit(f"the compiled build failed:\n{proc.stderr[-3000:]}")
    # Byte-compile the pure-Python modules (batch, cli, reports, rulebook), as pip does when it
    # installs a wheel: with PYTHONDONTWRITEBYTECODE set, every process would parse them again
    # (some 190 million instructions, ~70 ms, for each --jobs worker and the parent).
    compileall.compile_dir(str(dest / "handaudit"), quiet=1)
    (dest / "ok").touch()
    return dest


def existing_tree(path: str) -> str:
    """A ``--tree`` argument, refused unless it holds a ``handaudit`` package: a missing directory
    on ``sys.path`` is skipped without a word, and the benchmark would measure whatever handaudit
    the interpreter finds next (an old install, say)."""
    if not (Path(path) / "handaudit" / "__init__.py").is_file():
        raise SystemExit(f"--tree {path}: no handaudit package there (a build directory replaced by a newer build?)")
    return path
