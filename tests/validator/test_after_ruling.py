"""One fault, one error (issue 44): how the replay goes on after a ruling that changes a recorded
action, Robert's "called out of turn may not raise", and substantial action.

**A second error after a ruling**, as this file defines and checks it. The *ruling's action* k of
a hand is the first action whose ruling changed what the history records (a raise ruled a call, an
amount brought up or cut back: ``ReplayState.diverged``). Two states can judge the actions after k:
the ruled one (the table enforced the ruling) and the recorded one (the table let the action stand
as recorded: ``follow_record``). A history follows one of them. An error finding at an action after
k that the state the history follows does not give is a *second error after the ruling*: the
ruling, not the history, caused it. Both states are replayed here independently of ``replay()``,
and the report's errors after k must be exactly those of the state that finds fewer faults (never
more than either). For the samples (one rule each) and the real corpus (histories that follow
themselves), no error after k may have a turn-order code either (out-of-turn, action-after-end,
premature-deal, wrong-card-count: what a ruling that ends or changes a round makes the next action
of a consistent history raise).
"""

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit import audit
from handaudit.api import audit_read
from handaudit.core.status import ERROR, WARNING
from handaudit.core.variants import FIXED, VARIANTS
from handaudit.grammar.actions import parse_action
from handaudit.grammar.reader import read_hands, read_text
from handaudit.importers import read_any
from handaudit.importers.inputs import expand_inputs, read_inputs
from handaudit.rules.rulebook import load_rulebook
from handaudit.validator import replay
from handaudit.validator.engine import _Engine

from helpers import CORPUS, NT3

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _load_random_play():
    """The random legal play of test_random_play.py (its hand builder and move chooser)."""
    spec = importlib.util.spec_from_file_location("_random_play", Path(__file__).with_name("test_random_play.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_RANDOM = _load_random_play()
_random_hand, _next_move = _RANDOM._hand, _RANDOM._next_move
ALL = ("tda-2026", "roberts-v11", "wsop-2023-live", "house")
SEQUENCE_CODES = {"out-of-turn", "action-after-end", "premature-deal", "wrong-card-count"}
FLOP = "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db AcKd7h'"


def _sample(name, book, overrides=()):
    read = next(read_hands([str(SAMPLES / f"{name}.phh")]))
    assert read.hand is not None, read.findings
    return replay(read.hand, load_rulebook(book, list(overrides)))


def _inline(actions, book, overrides=(), table=NT3):
    hand = read_text(table + f"actions = [{actions}]\n").hand
    assert hand is not None
    return hand, load_rulebook(book, list(overrides))


def _all(rep):
    return [(f.code, f.action_index) for f in rep.findings]


def _faults(findings, k):
    return [(f.code, f.action_index, f.actor) for f in findings
            if f.action_index is not None and f.action_index > k and f.severity in (ERROR, WARNING)]


def _second_errors(hand, book):
    """The report's errors after the ruling's action that the state the history follows does not
    give (see the module docstring); also the ruling's action, or None when no ruling changed one."""
    ruled_engine = _Engine(hand, book)
    ruled = ruled_engine.run()
    k = ruled_engine.diverged
    if k < 0:
        return None, []
    recorded = _Engine(hand, book, True).run()
    views = [_faults(ruled.findings, k), _faults(recorded.findings, k)]
    followed = min(views, key=len)
    reported = _faults(replay(hand, book).findings, k)
    return k, [f for f in reported if f not in followed] + ([("more than either state", k, None)]
                                                            if len(reported) > len(followed) else [])


# --- item 1: the two hands of the issue ---------------------------------------------------------

def test_check_out_of_turn_then_raise_three_players_roberts():
    rep = _sample("check-out-of-turn-then-raise", "roberts-v11")
    # every finding, of every severity: the calls of the raise (19, 20) and p3 showing first (21)
    # follow the recorded raise and are judged against it
    assert _all(rep) == [("out-of-turn", 15), ("bet-after-check-out-of-turn", 18)]
    assert rep.complete and rep.contributions == (12, 12, 12)  # the settlement keeps the ruling
    assert (rep.records[18].kind, rep.records[18].amount) == ("call", 10)


@pytest.mark.parametrize("book", ["tda-2026", "roberts-v11"])
def test_check_out_of_turn_heads_up(book):
    rep = _sample("check-out-of-turn-heads-up", book)
    assert _all(rep) == [("out-of-turn", 5), ("bet-after-check-out-of-turn", 7)]
    assert rep.complete and rep.contributions == (12, 12) and rep.folded == (True, False)


def test_a_history_that_follows_the_ruling_is_judged_against_it():
    # fixed limit, flop: a bet and three raises cap the round (TDA), so p2's raise to 10 (index 11)
    # is ruled a call of 8. This history goes on as the table ruled it: p3 calls 8 and the turn is
    # dealt. Judged against the recorded raise that deal would be premature (p1 would still owe 2);
    # against the ruled state nothing is wrong, so the history follows the ruling.
    table = NT3.replace("'NT'", "'FT'").replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
    raises = FLOP + ", 'p1 cbr 2', 'p2 cbr 4', 'p3 cbr 6', 'p1 cbr 8', 'p2 cbr 10'"
    rest = ", 'p1 cc', 'p2 cc', 'p3 cc', 'd db 3s', 'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm ????', 'p2 sm ????', 'p3 sm ????'"
    hand, book = _inline(raises + ", 'p3 cc', 'd db 2s'" + rest, "tda-2026", table=table)
    rep = replay(hand, book)
    assert _all(rep) == [("raise-cap-exceeded", 11)]
    assert rep.complete and rep.contributions == (10, 10, 10)
    # the same raise answered as recorded (p3 and p1 call 10): the history follows the record
    hand, book = _inline(raises + ", 'p3 cc', 'p1 cc', 'd db 2s'" + rest, "tda-2026", table=table)
    rep = replay(hand, book)
    assert _all(rep) == [("raise-cap-exceeded", 11)]
    assert rep.complete and rep.contributions == (10, 10, 10)  # the settlement keeps the ruling
    assert _second_errors(hand, book) == (11, [])


def test_a_second_fault_of_the_record_is_still_reported():
    # after the ruled raise (index 10, Robert's) the record's own next round has its own fault: a
    # bet below the minimum on a later street is judged against the record's state and reported
    acts = FLOP + ", 'p3 cc', 'p1 cbr 10', 'p2 cc', 'p3 cbr 30', 'p1 cc', 'p2 cc', 'd db 2s', " \
        "'p1 cbr 1', 'p2 f', 'p3 f'"
    hand, book = _inline(acts, "roberts-v11")
    rep = replay(hand, book)
    assert _all(rep) == [("out-of-turn", 7), ("bet-after-check-out-of-turn", 10), ("bet-below-minimum", 14)]
    # the settlement's chips are the ruled replay's: 2 + 10 each, the turn bet nobody called left out
    assert rep.contributions == (12, 12, 12)


def test_the_ruling_keeps_its_effect_on_the_later_streets():
    # Robert's: p3's raise to 30 on the flop (index 10) is ruled a call of 10 and the history goes
    # on from the raise (p1 and p2 call 30), then bets 40 on the turn and 50 on the river. The
    # chips are the history's with the ruling's taken out: the 20 above the call, from p3 and
    # from each call of it; the turn and river stand as recorded.
    acts = FLOP + ", 'p3 cc', 'p1 cbr 10', 'p2 cc', 'p3 cbr 30', 'p1 cc', 'p2 cc', 'd db 2s', 'p1 cbr 40', " \
        "'p2 cc', 'p3 cc', 'd db 9d', 'p1 cbr 50', 'p2 f', 'p3 cc', 'p1 sm ????', 'p3 sm ????'"
    hand, book = _inline(acts, "roberts-v11")
    rep = replay(hand, book)
    assert _all(rep) == [("out-of-turn", 7), ("bet-after-check-out-of-turn", 10)]
    assert rep.contributions == (2 + 10 + 40 + 50, 2 + 10 + 40, 2 + 10 + 40 + 50)
    assert rep.recorded_contributions == (122, 72, 122) and rep.ruling_index == 10
    assert rep.folded == (False, True, False) and rep.complete
    assert (rep.records[10].kind, rep.records[10].amount) == ("call", 10)  # the ruling's row, as ruled


# --- item 2: Robert's, a call out of turn may not become a raise --------------------------------

def test_roberts_call_out_of_turn_may_not_raise():
    rep = _sample("call-out-of-turn-then-raise", "roberts-v11")
    assert _all(rep) == [("out-of-turn", 4), ("raise-after-call-out-of-turn", 6)]
    f = rep.findings[1]
    assert f.actor == "p4" and "treated as a call" in f.ruling and "rule 11" in f.rule
    assert (rep.records[6].kind, rep.records[6].amount) == ("call", 4)  # 2 more, to p3's 6
    assert rep.contributions == (1, 2, 6, 6)
    report = next(audit([str(SAMPLES / "call-out-of-turn-then-raise.phh")], "roberts-v11"))
    assert report.settlement.received == (0, 0, 0, 15) and report.settlement.returned == (0, 0, 0, 0)


@pytest.mark.parametrize("book", ["tda-2026", "wsop-2023-live", "house"])
def test_call_out_of_turn_may_raise_where_the_book_allows(book):
    rep = _sample("call-out-of-turn-then-raise", book)
    assert _all(rep) == [("out-of-turn", 4)]
    assert rep.records[6].kind == "raise" and rep.records[6].to == 20
    report = next(audit([str(SAMPLES / "call-out-of-turn-then-raise.phh")], book))
    assert report.settlement.returned == (0, 0, 0, 14) and report.settlement.received == (0, 0, 0, 15)


def test_the_restriction_is_for_the_next_turn_only_and_in_turn_calls_are_free():
    # p4 calls out of turn, p3 raises to 6, p4 calls it (the next turn), p1 re-raises to 20:
    # p4's raise to 60 is a later turn and stands
    acts = "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'p4 cc', 'p3 cbr 6', 'p4 cc', " \
        "'p1 cbr 20', 'p2 f', 'p3 f', 'p4 cbr 60', 'p1 f'"
    table = NT3.replace("[0, 0, 0]", "[0, 0, 0, 0]").replace("[1, 2, 0]", "[1, 2, 0, 0]") \
        .replace("[200, 200, 200]", "[200, 200, 200, 200]")
    hand, book = _inline(acts, "roberts-v11", table=table)
    assert [(c, i) for c, i in _all(replay(hand, book))] == [("out-of-turn", 4)]
    # an in-turn call is never restricted (a call then a raise when a raise comes round)
    acts = "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'p3 cc', 'p4 cbr 6', 'p1 f', " \
        "'p2 f', 'p3 cbr 20', 'p4 f'"
    hand, book = _inline(acts, "roberts-v11", table=table)
    assert _all(replay(hand, book)) == []


# --- item 3: substantial action -----------------------------------------------------------------

@pytest.mark.parametrize("book,overrides", [("tda-2026", ()), ("wsop-2023-live", ()), ("house", ()),
                                            ("roberts-v11", ("substantial_action_count=2",))])
def test_after_substantial_action_the_out_of_turn_bet_stands(book, overrides):
    rep = _sample("substantial-action-bet-stands", book, overrides)
    assert _all(rep) == [("out-of-turn", 7), ("turn-lost-after-substantial-action", 8)]
    f = rep.findings[1]
    assert f.severity == "info" and "p1 has lost the turn" in f.ruling
    rec = rep.records[9]
    assert (rec.kind, rec.to, rec.to_call, rec.pot_before) == ("raise", 30, 10, 16)
    assert rep.contributions == (32, 12, 2)  # p2's 10 is lost to the raise


@pytest.mark.parametrize("book,overrides", [("roberts-v11", ()), ("tda-2026", ("substantial_action_chips=0",)),
                                            ("wsop-2023-live", ("substantial_action_count=3",))])
def test_before_substantial_action_the_skipped_player_keeps_the_turn(book, overrides):
    rep = _sample("substantial-action-bet-stands", book, overrides)
    assert _all(rep) == [("out-of-turn", 7), ("out-of-turn-bet-returned", 9)]
    rec = rep.records[9]
    assert (rec.kind, rec.to, rec.to_call, rec.pot_before) == ("bet", 30, 0, 6)
    assert rep.contributions == (32, 2, 2)  # p2's 10 came back


@pytest.mark.parametrize("book,lost", [("wsop-2023-live", True), ("tda-2026", False), ("roberts-v11", False),
                                       ("house", False)])
def test_two_checks_are_substantial_only_where_any_two_actions_are(book, lost):
    rep = _sample("substantial-action-two-checks", book)
    assert _all(rep) == [("out-of-turn", 9)] + ([("turn-lost-after-substantial-action", 10)] if lost else [])
    assert rep.contributions == (12, 2, 2, 2)
    rep = _sample("substantial-action-two-checks", book, ["substantial_action_count=2"])
    assert ("turn-lost-after-substantial-action", 10) in _all(rep)


def _next_after(acts, book, upto, overrides=(), table=NT3):
    hand, rulebook = _inline(acts, book, overrides, table)
    engine = _Engine(hand, rulebook)
    engine.start()
    for index, action in enumerate(hand.actions[:upto + 1]):
        engine.step(index, action)
    return engine.next_to_act()


def test_a_skipped_player_who_lost_the_turn_acts_when_the_action_reaches_him():
    # five players, flop, p1 to act: p3 bets out of turn (p1, p2 passed over), p4 calls. TDA:
    # two actions with chips in, so the action goes on to p5; Robert's: the turn is back with p1.
    table = NT3.replace("[0, 0, 0]", "[0, 0, 0, 0, 0]").replace("[1, 2, 0]", "[1, 2, 0, 0, 0]") \
        .replace("[200, 200, 200]", "[200, 200, 200, 200, 200]")
    deal = "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'd dh p5 ????', 'p3 cc', 'p4 cc', " \
        "'p5 cc', 'p1 cc', 'p2 cc', 'd db AcKd7h'"
    acts = deal + ", 'p3 cbr 10', 'p4 cc'"
    assert _next_after(acts, "tda-2026", 12, table=table) == 4  # p5
    assert _next_after(acts, "roberts-v11", 12, table=table) == 0  # p1
    assert _next_after(acts, "roberts-v11", 11, table=table) == 0


# --- the definition, over every sample and the shared corpus ------------------------------------

def _hands(paths):
    """Every readable hand of the paths: PHH files and site logs alike (the run's own reading)."""
    for path in expand_inputs([str(p) for p in paths]):
        for chunk in read_inputs(path):
            read = read_any(chunk)
            if read.hand is not None:
                yield read


def _check_no_second_error(paths, strict):
    problems, rulings = [], 0
    books = [load_rulebook(b) for b in ALL]
    for read in _hands(paths):
        for book in books:
            k, second = _second_errors(read.hand, book)
            if k is None:
                continue
            rulings += 1
            if strict:
                later = [f for f in replay(read.hand, book).findings
                         if f.action_index is not None and f.action_index > k and f.severity == ERROR]
                second += [(f.code, f.action_index, f.actor) for f in later if f.code in SEQUENCE_CODES]
            if second:
                problems.append((read.source, read.hand_key, book.name, k, second))
    return problems, rulings


def test_no_second_error_after_a_ruling_in_the_samples():
    problems, rulings = _check_no_second_error(sorted(SAMPLES.glob("*.phh")), strict=True)
    assert not problems
    assert rulings >= 25  # the samples' rulings that change an action, under the four books


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_no_second_error_after_a_ruling_in_the_shared_corpus():
    problems, _ = _check_no_second_error([CORPUS / "real", CORPUS / "sites"], strict=True)
    assert not problems
    # the generated hands are mutated: a changed action the rest of the history never answers
    # may leave later faults of the history's own; none may come from the ruling
    problems, rulings = _check_no_second_error([CORPUS / "generated"], strict=False)
    assert not problems
    assert rulings > 0


# --- property: a history consistent with itself gets one error per ruled action -----------------

FIXED_LIMIT = sorted(code for code, v in VARIANTS.items() if v.structure == FIXED)
LOOSE = load_rulebook("roberts-v11", ["limit_raises=50", "heads_up_uncap=never"])
STRICT = load_rulebook("roberts-v11", ["limit_raises=1", "heads_up_uncap=never"])


def _play_under(book, variant, stacks, seed):
    rng = random.Random(seed)
    deck = list(VARIANTS[variant].deck)
    rng.shuffle(deck)
    e = _Engine(_random_hand(variant, stacks), book)
    e.start()
    actions: list[str] = []
    for _ in range(400):
        text = _next_move(e, rng, deck)
        if text is None:
            break
        actions.append(text)
        e.step(len(actions) - 1, parse_action(text).action)
    return actions


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIXED_LIMIT), st.lists(st.integers(20, 200), min_size=2, max_size=5), st.integers(0, 10**6))
def test_a_self_consistent_history_gets_one_error_per_ruled_raise(variant, stacks, seed):
    # random legal play where a fixed-limit round may hold many raises, judged under a book that
    # caps it at a bet and one raise: every raise over the cap is ruled a call, the history goes on
    # from the recorded raises, and nothing but those raises may be an error
    if variant in ("F2L3D", "FB"):
        stacks = stacks[:4]  # keep draws within one deck
    actions = _play_under(LOOSE, variant, stacks, seed)
    hand = _random_hand(variant, stacks, actions)
    rep = replay(hand, STRICT)
    errors = [(f.code, f.action_index) for f in rep.findings if f.severity in (ERROR, WARNING)]
    assert all(code == "raise-cap-exceeded" and " cbr " in actions[i] for code, i in errors), errors
    assert rep.complete


# --- the settlement keeps the ruling and says when the payouts follow the record ----------------

def _cap_sample(winnings=None, stacks=None):
    text = (SAMPLES / "limit-cap-all-in-not-counted.phh").read_text()
    if winnings is not None:
        text = text.replace("winnings = [0, 60, 80]", f"winnings = {winnings}")
    if stacks is not None:
        text = text.replace("finishing_stacks = [940, 60, 1020]", f"finishing_stacks = {stacks}")
    return audit_read(read_text(text, "limit-cap.phh"), load_rulebook("tda-2026"))


def test_payouts_that_follow_the_recorded_raise_are_one_warning():
    # TDA: p1's raise to 50 (index 12) is over the cap and ruled a call of 40; p3 calls 50 and the
    # history pays the side pot of the recorded raise (80). Under the ruling it is 60.
    report = _cap_sample()
    assert [(f.code, f.severity, f.action_index) for f in report.findings] == [
        ("raise-cap-exceeded", "error", 12), ("payouts-follow-record", "warning", None)]
    f = report.findings[1]
    assert "index 12" in f.message and "p3 wins 60 (the history as recorded: 80)" in f.message
    s = report.settlement
    assert s.contributions == (50, 20, 50) and s.received == (0, 60, 60) and s.payout_check == "mismatch"


def test_payouts_that_follow_the_ruling_match():
    report = _cap_sample("[0, 60, 60]", "[950, 60, 1010]")
    assert [(f.code, f.action_index) for f in report.findings] == [("raise-cap-exceeded", 12)]
    assert report.settlement.payout_check == "match"


def test_payouts_that_follow_neither_are_mismatches():
    report = _cap_sample("[0, 60, 70]", "[940, 60, 1010]")
    codes = [f.code for f in report.findings]
    assert codes[0] == "raise-cap-exceeded" and "winnings-mismatch" in codes and "payouts-follow-record" not in codes
