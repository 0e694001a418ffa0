"""The finding-code reference in docs/codes.md is generated; it must match the catalogue."""

from pathlib import Path

from handaudit.findings.codes import CODES
from handaudit.rules.docs import render_codes_markdown

DOC = Path(__file__).resolve().parents[1] / "docs" / "codes.md"


def test_codes_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == render_codes_markdown(), \
        "regenerate with: python -m handaudit.rules.docs > docs/codes.md"


def test_every_code_is_documented_with_an_example_and_fix():
    for info in CODES.values():
        assert info.summary and info.example and info.fix, info.code

