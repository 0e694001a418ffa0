"""The shared corpus replayed under every built-in rulebook.

Generated hands (../shared/corpus/generated, see its README): every legal hand is valid and
complete; every illegal hand's first error is at the expected index with the expected code
(`rulebook_dependent` hands: raise_after_cap is legal under the WSOP's bet + 4 raises).
Real hands: the only errors are the true irregularities of the data, listed here.
"""

import json
from pathlib import Path

import pytest

from handaudit.grammar.reader import read_hands
from handaudit.rules.rulebook import BUILTIN, load_rulebook
from handaudit.validator import replay

from helpers import CORPUS

GENERATED = sorted((CORPUS / "generated").glob("*/*.phh"))


def _legal_until(expected: dict, book: str) -> bool:
    """A rulebook-dependent mutation (a 5th bet) is legal under the WSOP: the hand must then be
    clean up to and including that action (the original continuation after it no longer fits)."""
    return expected.get("rulebook_dependent", False) and book == "wsop-2023-live"


@pytest.mark.skipif(not GENERATED, reason="shared corpus not present")
@pytest.mark.parametrize("book", BUILTIN)
def test_generated_corpus(book):
    rulebook = load_rulebook(book)
    problems = []
    for path in GENERATED:
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        read = next(read_hands([str(path)]))
        rep = replay(read.hand, rulebook)
        errors = [f for f in rep.findings if f.severity == "error"]
        if _legal_until(expected, book):
            if errors and errors[0].action_index <= expected["first_illegal_action_index"]:
                problems.append((path.name, "legal under the WSOP", [(f.code, f.action_index) for f in errors]))
        elif expected["legal"]:
            if errors or not rep.complete:
                problems.append((path.name, [(f.code, f.action_index) for f in rep.findings]))
        else:
            want = (expected["finding_code"], expected["first_illegal_action_index"])
            got = (errors[0].code, errors[0].action_index) if errors else None
            if got != want:
                problems.append((path.name, want, got))
    assert problems == []
    assert len(GENERATED) == 440


# True irregularities in the real data (each looked at by hand):
# - wsop 2019 #42: p8 (Ashish Ahuja) never acts before the flop; the history goes on without him
#   (he folded: his finishing stack equals his starting stack), so p1's call is out of turn.
REAL_ERRORS = {("wsop/2019-42-3/00-01-07.phh", ""): [("out-of-turn", 13)]}
# - ipn hand 22 stops on the river with p3 to act (the source log is cut there).
REAL_INCOMPLETE = {("handhq/ipn-100nl-handhq_1-part.phhs", "22")}


@pytest.mark.skipif(not (CORPUS / "real").exists(), reason="shared corpus not present")
def test_real_corpus_errors_are_the_known_irregularities():
    rulebook = load_rulebook("tda-2026")
    errors, incomplete, count = {}, set(), 0
    for read in read_hands([str(CORPUS / "real")]):
        count += 1
        rep = replay(read.hand, rulebook)
        key = (Path(read.source).relative_to(CORPUS / "real").as_posix(), read.hand_key)
        found = [(f.code, f.action_index) for f in rep.findings if f.severity == "error"]
        if found:
            errors[key] = found
        if not rep.complete:
            incomplete.add(key)
    assert count == 404
    assert errors == REAL_ERRORS
    assert incomplete == REAL_INCOMPLETE
