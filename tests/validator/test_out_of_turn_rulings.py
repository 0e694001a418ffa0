"""Out-of-turn rulings enforced (issue 15, item 3d): rulebook parameters check_out_of_turn and
changed_action_out_of_turn, on samples/check-out-of-turn-then-raise.phh (Robert's Rules of Poker
v11, Section 3 rule 11), samples/check-out-of-turn-heads-up.phh (TDA 2026 Rule 55, heads-up) and
samples/out-of-turn-bet-returned.phh (TDA 2026 Rule 55; WSOP 2023 Live Action Rules 132 and 133),
plus inline hands. Exact action indexes, codes, contributions and records."""

from pathlib import Path

import pytest

from handaudit import audit
from handaudit.grammar.reader import read_hands, read_text
from handaudit.rules.rulebook import load_rulebook
from handaudit.validator import replay

from helpers import NT3

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
ALL = ("tda-2026", "roberts-v11", "wsop-2023-live", "house")
PREFLOP = "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db AcKd7h'"


def _sample(name, book, overrides=()):
    read = next(read_hands([str(SAMPLES / f"{name}.phh")]))
    assert read.hand is not None, read.findings
    return replay(read.hand, load_rulebook(book, list(overrides)))


def _inline(actions, book, overrides=(), table=NT3):
    hand = read_text(table + f"actions = [{actions}]\n").hand
    assert hand is not None
    return replay(hand, load_rulebook(book, list(overrides)))


def _found(rep):
    return [(f.code, f.action_index) for f in rep.findings if f.severity in ("error", "warning", "info")]


# --- check_out_of_turn -------------------------------------------------------------------------

def test_roberts_check_out_of_turn_may_not_raise_next_turn():
    rep = _sample("check-out-of-turn-then-raise", "roberts-v11")
    # one fault, one error: the calls of the raise (19, 20) and p3 showing first follow from the
    # record's raise, so they are judged against the record's state and are no second fault
    assert _found(rep) == [("out-of-turn", 15), ("bet-after-check-out-of-turn", 18)]
    f = rep.findings[1]
    assert f.actor == "p3" and "treated as a call" in f.ruling and "rule 11" in f.rule
    rec = rep.records[18]
    assert (rec.index, rec.kind, rec.amount) == (18, "call", 10)
    assert rep.contributions == (12, 12, 12)  # 2 before the river, 10 on it; p3's 30 is a call of 10


@pytest.mark.parametrize("book", ["tda-2026", "wsop-2023-live", "house"])
def test_multiway_check_out_of_turn_keeps_all_options(book):
    rep = _sample("check-out-of-turn-then-raise", book)
    assert _found(rep) == [("out-of-turn", 15)]
    assert rep.records[18].kind == "raise" and rep.records[18].to == 30
    assert rep.contributions == (32, 32, 32)


@pytest.mark.parametrize("book", ["tda-2026", "roberts-v11"])
def test_heads_up_check_out_of_turn_may_only_call_or_fold(book):
    rep = _sample("check-out-of-turn-heads-up", book)
    # p1's fold (8) folds to the recorded raise: in the record's state it is in turn, not a fold
    # before the turn is dealt, and not an unnecessary fold either
    assert _found(rep) == [("out-of-turn", 5), ("bet-after-check-out-of-turn", 7)]
    assert rep.records[7].kind == "call" and rep.records[7].amount == 10
    assert rep.contributions == (12, 12)  # the settlement keeps the ruling: p2's raise is a call of 10
    assert rep.folded == (True, False) and rep.complete


@pytest.mark.parametrize("book", ["wsop-2023-live", "house"])
def test_heads_up_check_out_of_turn_may_raise_where_the_book_allows(book):
    rep = _sample("check-out-of-turn-heads-up", book)
    assert _found(rep) == [("out-of-turn", 5)]
    assert rep.contributions == (12, 32)
    report = next(audit([str(SAMPLES / "check-out-of-turn-heads-up.phh")], book))
    assert report.settlement.returned == (0, 20)  # p1 folds to the raise: 20 uncalled


def test_tda_restriction_applies_once_the_hand_is_heads_up():
    # flop: p2 bets 4, p3 folds, p1 calls; turn, heads-up: p2 checks out of turn, p1 bets 10, p2
    # raises to 30 (index 14): ruled a call, and p1's fold (15) comes before the river is dealt.
    acts = PREFLOP + ", 'p1 cc', 'p2 cbr 4', 'p3 f', 'p1 cc', 'd db 2s', 'p2 cc', 'p1 cbr 10', 'p2 cbr 30', 'p1 f'"
    rep = _inline(acts, "tda-2026")
    assert _found(rep) == [("out-of-turn", 12), ("bet-after-check-out-of-turn", 14)]
    assert rep.contributions == (16, 16, 2)
    # the same check three-handed stands without restriction (see the multiway sample)
    rep = _inline(acts, "tda-2026", ["check_out_of_turn=may-bet"])
    assert _found(rep) == [("out-of-turn", 12)] and rep.contributions == (16, 36, 2)


def test_in_turn_check_is_not_restricted():
    rep = _inline(PREFLOP + ", 'p1 cc', 'p2 cc', 'p3 cbr 10', 'p1 cbr 30', 'p2 f', 'p3 f'", "roberts-v11")
    assert _found(rep) == []


# --- changed_action_out_of_turn ----------------------------------------------------------------

@pytest.mark.parametrize("book", ALL)
def test_out_of_turn_bet_returned_when_the_action_changes(book):
    rep = _sample("out-of-turn-bet-returned", book)
    assert _found(rep) == [("out-of-turn", 7), ("out-of-turn-bet-returned", 8)]
    f = rep.findings[1]
    assert f.actor == "p3" and f.severity == "info" and "10 returned to p3" in f.ruling
    bet = rep.records[8]
    # p3's 10 is back before p1 acts: the pot is the 6 of the blinds and calls, p1's 6 opens
    assert (bet.kind, bet.amount, bet.to, bet.pot_before, bet.to_call, bet.min_to) == ("bet", 6, 6, 6, 0, 2)
    assert rep.records[10].kind == "call" and rep.records[10].amount == 6  # p3 calls with all options
    assert rep.contributions == (8, 8, 8)


def test_binding_out_of_turn_bet_stands():
    rep = _sample("out-of-turn-bet-returned", "tda-2026", ["changed_action_out_of_turn=binding"])
    assert _found(rep)[:2] == [("out-of-turn", 7), ("raise-below-minimum", 8)]
    assert rep.contributions == (12, 12, 12)  # p1's 6 is ruled a call of p3's 10


def test_passed_over_players_call_the_bet_before_it_then_face_it():
    # p3 bets 10 out of turn; p1 and p2 check (the action does not change), so the bet stands and
    # they then call it: 2 + 10 each, and no other finding.
    acts = PREFLOP + ", 'p3 cbr 10', 'p1 cc', 'p2 cc', 'p1 cc', 'p2 cc', 'd db 2s'"
    rep = _inline(acts, "tda-2026")
    assert _found(rep) == [("out-of-turn", 7), ("incomplete-hand", None)]
    assert [(r.kind, r.amount) for r in rep.records[8:12]] == [("check", None), ("check", None),
                                                                ("call", 10), ("call", 10)]
    assert rep.contributions == (12, 12, 12)
    # binding: the first checks are calls of the 10, and the second pair comes after the round
    rep = _inline(acts, "tda-2026", ["changed_action_out_of_turn=binding"])
    assert rep.records[8].kind == "call" and rep.contributions == (12, 12, 12)
    assert ("out-of-turn", 10) in _found(rep)


def test_a_returned_raise_restores_the_round():
    # preflop p1 raises to 6 out of turn (p3 passed over); p3 raises to 8: p1's 6 comes back, p3's
    # 8 is a raise over the big blind (min raise to 4), p1 then calls 8, p2 calls.
    acts = "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p1 cbr 6', 'p3 cbr 8', 'p1 cc', 'p2 cc', 'd db AcKd7h'"
    rep = _inline(acts, "wsop-2023-live")
    assert _found(rep) == [("out-of-turn", 3), ("out-of-turn-bet-returned", 4), ("incomplete-hand", None)]
    rec = rep.records[4]
    assert (rec.kind, rec.to, rec.to_call, rec.min_to, rec.pot_before) == ("raise", 8, 2, 4, 3)
    assert rep.contributions == (8, 8, 8)


def test_a_returned_all_in_bet_gives_the_player_his_chips_and_options():
    table = NT3.replace("[200, 200, 200]", "[200, 200, 20]")
    acts = PREFLOP + ", 'p3 cbr 18', 'p1 cbr 6', 'p2 cc', 'p3 cc', 'd db 2s', 'p1 cc', 'p2 cc', 'p3 cc'"
    rep = _inline(acts, "tda-2026", table=table)
    assert _found(rep)[:2] == [("out-of-turn", 7), ("out-of-turn-bet-returned", 8)]
    assert rep.records[7].all_in and not rep.records[10].all_in
    assert rep.contributions == (8, 8, 8)
