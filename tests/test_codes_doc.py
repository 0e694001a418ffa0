"""The finding-code reference in docs/codes.md is generated; it must match the catalogue."""

from pathlib import Path

from handaudit.codes_doc import render_codes_markdown
from handaudit.findings.codes import CODES

DOC = Path(__file__).resolve().parents[1] / "docs" / "codes.md"


def test_codes_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == render_codes_markdown(), \
        "regenerate with: python -m handaudit.codes_doc > docs/codes.md"


def test_every_code_is_documented_with_an_example_and_fix():
    for info in CODES.values():
        assert info.summary and info.example and info.fix, info.code

