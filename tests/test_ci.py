"""CI runs what the README says: the README's install-and-audit command and its test command (the
two lines of its first code block) are lines of ``.ci/run``, in that order."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```\n", 2)[1]
    return block.splitlines()


def test_ci_runs_the_readme_test_command_after_installing():
    install, test = _readme_commands()
    assert "python -m ruff check ." in test and "python -m mypy handaudit" in test
    assert test.index("ruff") < test.index("pytest") and test.index("mypy") < test.index("pytest")
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith("#")]
    assert test in ci, ".ci/run must run the README's test command as it is written"
    assert install in ci, ".ci/run must run the README's install command as it is written"
    assert ci.index(install) < ci.index(test)
    # the first command installs the compiled build (not an editable, pure-Python install) and runs the main job
    assert install.startswith("python -m pip install '.[test]' && ") and " -e " not in install
    assert "handaudit check samples/" in install
