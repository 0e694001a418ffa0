"""The full JSONL output over the shared corpora, pinned by a digest.

Optimisations must not change a single byte of what handaudit says (issue: "twenty times
faster"): the digest in tests/data/corpus-jsonl.sha256 was made before them. A deliberate
change of behaviour updates it: run this file with HANDAUDIT_WRITE_DIGEST=1 and say why in
the commit.
"""

import hashlib
import os
from pathlib import Path

import pytest

from handaudit import audit
from handaudit.reports.jsonl import dumps, report_line

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
DIGEST = Path(__file__).resolve().parent / "data" / "corpus-jsonl.sha256"


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
@pytest.mark.parametrize("book", ["tda-2026", "wsop-2023-live"])
def test_corpus_jsonl_digest(book, monkeypatch):
    monkeypatch.chdir(CORPUS)  # sources as given: "real/...", "generated/..."
    h = hashlib.sha256()
    count = 0
    for report in audit(["real", "generated"], rulebook=book):
        line = report_line(report)  # what the CLI writes
        assert line == dumps(report.to_json()), report.hand_key  # the library's object, same text
        h.update(line.encode() + b"\n")
        count += 1
    assert count == 844
    line = f"{book} {h.hexdigest()}"
    if os.environ.get("HANDAUDIT_WRITE_DIGEST"):
        kept = [x for x in DIGEST.read_text().splitlines() if not x.startswith(book + " ")] if DIGEST.exists() else []
        DIGEST.write_text("\n".join(sorted(kept + [line])) + "\n")
    assert line in DIGEST.read_text().splitlines()
