"""The README's Python API example runs as pasted, as a plain script (no __main__ guard)."""

import re
import shutil
import subprocess
import sys

from helpers import REPO, cli_env


def _example() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Python API"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_python_api_example_runs_as_a_plain_script(tmp_path):
    shutil.copytree(REPO / "samples", tmp_path / "hands")
    script = tmp_path / "example.py"
    code = _example()
    assert "__main__" not in code and "jobs=2" in code  # the case that used to re-run in each worker
    runs = tmp_path / "runs.log"  # each time the script's top level runs: once, not once per worker too
    script.write_text(f"open({str(runs)!r}, 'a').write(__name__ + '\\n')\n" + code
                      + "\nprint(summary)\nprint(sorted(tables))\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=cli_env(), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "died" not in proc.stderr
    assert runs.read_text() == "__main__\n"
    lines = proc.stdout.splitlines()
    # every .phh sample is one hand, and so is every PokerStars sample (read by its content)
    hands = len(list((REPO / "samples").glob("*.phh"))) + len(list((REPO / "samples").glob("pokerstars-*.txt")))
    hands += sum(len(re.findall(r"(?m)^\[\d+\]$", f.read_text()))  # the sessions' samples
                 for f in (REPO / "samples" / "sessions").glob("*.phhs"))
    hands += 2  # samples/foreign-site.txt: another site's log of two hands, an entry each
    assert any(line.startswith(f"{hands} hands: ") for line in lines), proc.stdout  # print(summary): short
    assert lines[-1] == "['actions', 'findings', 'hands', 'players', 'pots']"
    assert (tmp_path / "report" / "_SUCCESS").exists()
