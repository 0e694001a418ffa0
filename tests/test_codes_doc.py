"""The finding-code catalogue is complete, its samples raise their codes, and the generated
reference (docs/codes.md and the README's table) matches it."""

from pathlib import Path

import pytest

from handaudit import audit
from handaudit.findings.codes import CODES
from handaudit.rules.docs import readme_with_table, render_codes_markdown
from handaudit.rules.rulebook import BUILTIN

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "codes.md"
README = ROOT / "README.md"
SAMPLES = ROOT / "samples"

# Codes no sample hand can show: a hand that cannot be read (the tests in tests/grammar/ and
# tests/test_hostile_inputs.py raise each), a file that is not a hand, and handaudit's own failure.
NO_SAMPLE = {"top-up-over-limit",  # (a site log's top-up and table limits: no PHH field holds them)
             "syntax-error", "missing-field", "invalid-field", "unknown-field", "unknown-variant", "invalid-card",
             "unknown-player", "duplicate-hand", "no-hands", "unreadable-input", "not-phh-file", "internal-error",
             "site-tournament-summary"}


def test_codes_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == render_codes_markdown(), \
        "regenerate with: python -m handaudit.rules.docs --write"


def test_readme_code_table_is_current():
    text = README.read_text(encoding="utf-8")
    assert text == readme_with_table(text), "regenerate with: python -m handaudit.rules.docs --write"


def test_every_code_is_documented():
    for info in CODES.values():
        assert info.summary and info.why and info.example and info.fix, info.code
        assert info.summary.endswith(".") and "\n" not in info.summary, info.code
        assert (not info.sample) == (info.code in NO_SAMPLE), info.code


@pytest.mark.parametrize("code", sorted(c for c in CODES if c not in NO_SAMPLE))
def test_sample_raises_its_code(code):
    path = SAMPLES / CODES[code].sample
    assert path.is_file(), path
    if CODES[code].sample.startswith("sessions/"):  # a cross-hand code: the session's pass raises it
        raised = {book: _session_codes(path, book) for book in BUILTIN}
    else:
        raised = {book: {f.code for r in audit([str(path)], rulebook=book) for f in r.findings} for book in BUILTIN}
    assert any(code in found for found in raised.values()), raised


def _session_codes(path, book) -> set:
    import tempfile

    from handaudit.run.local import Runner

    with tempfile.TemporaryDirectory() as out:
        result = Runner([str(path)], rulebook=book, out_dir=out, jobs=1, sessions=True).run()
        assert result.complete
        from handaudit.sessions import read_session_table

        return set(read_session_table(out, "session_findings").column("code").to_pylist())
