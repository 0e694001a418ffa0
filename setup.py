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
import time
from concurrent.futures import ThreadPoolExecutor

from setuptools import setup
from setuptools.command.build_ext import build_ext


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
    _say(f"mypyc: translating {len(modules)} modules to C ...")
    start = time.monotonic()
    try:
        # multi_file: one C file per module (not one 17 MB file), so the C compiler runs on all cores
        extensions = mypycify(modules, opt_level="3", debug_level="0", multi_file=True)
    except (Exception, SystemExit) as err:  # mypyc exits on a type error
        print(f"handaudit: mypyc could not compile the hot modules ({err}); building pure Python",
              file=sys.stderr)
        return []
    _say(f"mypyc: done in {time.monotonic() - start:.0f} s")
    return extensions


def _say(text: str) -> None:
    """Progress on standard error (pip shows it with ``pip install -v``)."""
    print(f"handaudit build: {text}", file=sys.stderr, flush=True)


def _jobs() -> int:
    try:
        return max(1, int(os.environ.get("HANDAUDIT_BUILD_JOBS", "")))
    except ValueError:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class ParallelBuildExt(build_ext):
    """build_ext compiling the C files of each extension on every core (setuptools compiles one
    extension's sources one after the other), saying which file it is at."""

    def build_extension(self, ext):
        compiler = self.compiler
        serial = compiler.compile

        def compile_all(sources, output_dir=None, macros=None, include_dirs=None, debug=0, extra_preargs=None,
                        extra_postargs=None, depends=None):
            if len(sources) < 2:
                return serial(sources, output_dir, macros, include_dirs, debug, extra_preargs, extra_postargs,
                              depends)
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
            # the largest first, so that no core is left with a big file at the end
            order = sorted(objects, key=lambda o: -os.path.getsize(build[o][0]) if o in build else 0)
            done = [0]
            start = time.monotonic()

            def one(obj):
                if obj not in build:
                    return
                src, ext_ = build[obj]
                compiler._compile(obj, src, ext_, cc_args, extra_postargs, pp_opts)
                done[0] += 1
                _say(f"C compiler: {done[0]}/{len(build)} files ({os.path.basename(src)}), "
                     f"{time.monotonic() - start:.0f} s")

            with ThreadPoolExecutor(_jobs()) as pool:
                list(pool.map(one, order))
            return objects

        compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = serial


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": ParallelBuildExt})
