"""The full JSONL output over the shared corpora, pinned by a digest.

Optimisations must not change a single byte of what handaudit says (issue: "twenty times
faster"): the digest in tests/data/corpus-jsonl.sha256 was made before them. Beside it,
tests/data/corpus-jsonl-hands.<rulebook>.tsv holds one line per hand (source, hand_key, a digest
of its JSON line, a short digest of each member of its JSON object), so that a mismatch names the
first hand whose output differs and the members that differ in it.

A deliberate change of behaviour updates both: run

    HANDAUDIT_WRITE_DIGEST=1 python -m pytest tests/test_corpus_digest.py

and say why in the commit (the diff of the .tsv files shows which hands changed).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from handaudit import audit
from handaudit.reports.jsonl import dumps, report_line

from helpers import CORPUS

DATA = Path(__file__).resolve().parent / "data"
DIGEST = DATA / "corpus-jsonl.sha256"
HANDS = 844
SHOWN = 300  # characters of a member's new text in the message


def hands_file(book: str) -> Path:
    return DATA / f"corpus-jsonl-hands.{book}.tsv"


def _short(text: str, n: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:n]


_DECODER = json.JSONDecoder()
_SPACE = json.decoder.WHITESPACE.match


def members(line: str) -> list[tuple[str, str]]:
    """The members of the JSON object on ``line``: (name, the exact text of its value)."""
    out: list[tuple[str, str]] = []
    i = _SPACE(line, 0).end()
    assert line[i] == "{", line[:80]
    i = _SPACE(line, i + 1).end()
    if line[i] == "}":
        return out
    while True:
        name, i = _DECODER.raw_decode(line, i)
        i = _SPACE(line, i).end()
        assert line[i] == ":", line[:80]
        start = _SPACE(line, i + 1).end()
        _, end = _DECODER.raw_decode(line, start)
        out.append((name, line[start:end]))
        i = _SPACE(line, end).end()
        if line[i] == "}":
            return out
        assert line[i] == ",", line[:80]
        i = _SPACE(line, i + 1).end()


def _columns(names: list[str]) -> str:
    return "# members: " + " ".join(names)


def hand_lines(book: str, lines: list[tuple[str, str, str]]) -> str:
    """The text of the per-hand file: a header naming the members, then one line per hand."""
    names = [name for name, _ in members(lines[0][2])] if lines else []
    out = [f"# handaudit check --format jsonl --rulebook {book} real generated (in ../shared/corpus), one line per hand:",
           "# source, hand_key, sha256 of the JSON line (16 hex), sha256 of each member's text (4 hex, in this order)",
           _columns(names)]
    for source, key, line in lines:
        assert "\t" not in source + key and "\n" not in source + key, (source, key)
        parts = members(line)
        each = " ".join(_short(text, 4) for _, text in parts) if [n for n, _ in parts] == names else \
            "members:" + ",".join(n for n, _ in parts)
        out.append(f"{source}\t{key}\t{_short(line, 16)}\t{each}")
    return "\n".join(out) + "\n"


def first_difference(book: str, lines: list[tuple[str, str, str]], pinned: str) -> str | None:
    """What the first hand of ``lines`` (source, hand_key, JSON line) whose output differs from
    the per-hand file's text ``pinned`` is and how it differs; None when every hand agrees."""
    header = [x for x in pinned.splitlines() if x.startswith("# members: ")]
    names = header[0].split()[2:] if header else []
    rows = [x.split("\t") for x in pinned.splitlines() if x and not x.startswith("#")]
    for index, ((source, key, line), row) in enumerate(zip(lines, rows, strict=False)):  # lengths compared below
        where = f"hand #{index} (source {source!r}, hand_key {key!r})"
        if (source, key) != (row[0], row[1]):
            return f"{where} is where the pinned output had source {row[0]!r}, hand_key {row[1]!r}: hands added, lost or reordered"
        if _short(line, 16) == row[2]:
            continue
        parts = members(line)
        if [n for n, _ in parts] != names or row[3].startswith("members:"):
            was = row[3][len("members:"):].split(",") if row[3].startswith("members:") else names
            return f"{where}: its JSON object's members are now {[n for n, _ in parts]}, were {was}"
        old = row[3].split()
        changed = [(name, text) for (name, text), digest in zip(parts, old, strict=False) if _short(text, 4) != digest]
        if not changed:
            return f"{where}: its JSON line differs, though no member's short digest does"
        name, text = changed[0]
        shown = text if len(text) <= SHOWN else text[:SHOWN] + f"... ({len(text)} characters)"
        return (f"{where}: first differing key {name!r}" +
                (f" (also {', '.join(repr(n) for n, _ in changed[1:])})" if changed[1:] else "") +
                f"; now {name}={shown}")
    if len(lines) != len(rows):
        index = min(len(lines), len(rows))
        extra = lines[index][:2] if len(lines) > len(rows) else tuple(rows[index][:2])
        return (f"{len(lines)} hands where the pinned output had {len(rows)}: the first "
                f"{'new' if len(lines) > len(rows) else 'missing'} one is hand #{index} (source {extra[0]!r}, hand_key {extra[1]!r})")
    return None


def audit_lines(book: str) -> list[tuple[str, str, str]]:
    """(source, hand_key, JSON line) of every corpus hand under ``book``, as the CLI writes them;
    the working directory must be the corpus (sources as given: "real/...", "generated/...")."""
    out = []
    for report in audit(["real", "generated"], rulebook=book):
        line = report_line(report)  # what the CLI writes
        assert line == dumps(report.to_json()), report.hand_key  # the library's object, same text
        out.append((report.source, report.hand_key, line))
    return out


def check_digest(book: str, lines: list[tuple[str, str, str]]) -> None:
    """The output ``lines`` (see :func:`audit_lines`) against the pinned digest and, when they
    differ, the per-hand file: the assertion names the first hand that differs."""
    h = hashlib.sha256()
    for _, _, line in lines:
        h.update(line.encode() + b"\n")
    pin = f"{book} {h.hexdigest()}"
    if os.environ.get("HANDAUDIT_WRITE_DIGEST"):
        kept = [x for x in DIGEST.read_text().splitlines() if not x.startswith(book + " ")] if DIGEST.exists() else []
        DIGEST.write_text("\n".join(sorted(kept + [pin])) + "\n")
        hands_file(book).write_text(hand_lines(book, lines))
    per_hand = hands_file(book).read_text() if hands_file(book).exists() else ""
    difference = first_difference(book, lines, per_hand)
    regenerate = "HANDAUDIT_WRITE_DIGEST=1 python -m pytest tests/test_corpus_digest.py (a deliberate change: say why)"
    if pin in DIGEST.read_text().splitlines() and len(lines) == HANDS:
        assert difference is None, f"{book}: the pinned digest matches but {hands_file(book).name} does not: {difference}; rewrite it: {regenerate}"
        return
    assert difference is not None or not per_hand, f"{book}: {hands_file(book).name} matches, the pinned digest does not: {regenerate}"
    raise AssertionError(f"{book}: the JSONL output over the corpus differs from the pinned digest ({len(lines)} hands); "
                         f"the first hand that differs: {difference or 'unknown (' + hands_file(book).name + ' missing)'}")


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
@pytest.mark.parametrize("book", ["tda-2026", "wsop-2023-live"])
def test_corpus_jsonl_digest(book, monkeypatch):
    monkeypatch.chdir(CORPUS)  # sources as given: "real/...", "generated/..."
    check_digest(book, audit_lines(book))


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_a_changed_hand_is_named(monkeypatch):
    """One hand's output changed (its rake, in the line the CLI writes): the failure names that
    hand and that member of its JSON object."""
    monkeypatch.chdir(CORPUS)
    monkeypatch.delenv("HANDAUDIT_WRITE_DIGEST", raising=False)
    lines = audit_lines("tda-2026")
    source, key, line = lines[500]
    rake = dict(members(line))["rake"]
    tail = f',"rake":{rake},"rake_check":{dict(members(line))["rake_check"]}}}'
    assert line.endswith(tail)
    lines[500] = (source, key, line[: -len(tail)] + ',"rake":12345.67' + tail[len(f',"rake":{rake}'):])
    with pytest.raises(AssertionError) as failure:
        check_digest("tda-2026", lines)
    message = str(failure.value)
    assert "differs from the pinned digest" in message, message
    assert f"hand #500 (source {source!r}, hand_key {key!r}): first differing key 'rake'; now rake=12345.67" in message, message
