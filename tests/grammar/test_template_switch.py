"""The action-template fast path can be turned off, and turning it off changes no output."""

import json
import os
import subprocess
import sys
from pathlib import Path

from handaudit import audit
from handaudit.grammar import actions

REPO = Path(__file__).resolve().parents[2]


def _lines(paths):
    actions.parse_action.cache_clear()
    return [json.dumps(r.to_json(), sort_keys=True, default=str) for r in audit(paths)]


def test_templates_off_gives_the_same_reports(corpus):
    files = sorted(str(p) for p in (corpus / "real").rglob("*.phh*"))[:40] + [str(REPO / "samples")]
    try:
        actions.use_templates(True)
        on = _lines(files)
        learned = len(actions._TEMPLATES.shapes)
        actions.use_templates(False)
        off = _lines(files)
        assert not actions._TEMPLATES.shapes  # nothing learned while off
    finally:
        actions.use_templates(True)
    assert learned > 0 and len(on) > 100
    assert on == off


def test_environment_turns_templates_off():
    code = "from handaudit.grammar import actions; print(actions._TEMPLATES.enabled)"
    env = dict(os.environ, HANDAUDIT_TEMPLATES="off")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=REPO)
    assert out.stdout.strip() == "False", out.stderr
