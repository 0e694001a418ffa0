"""The replay state is declared once (validator/state.py): every attribute a replay engine holds
is annotated on ReplayState, so the compiled build lays it out as one native class; and a Replay
survives pickling, also when compiled."""

import pickle
from pathlib import Path

import pytest

from handaudit.grammar.reader import read_hands
from handaudit.rules.rulebook import load_rulebook
from handaudit.validator.engine import _Engine, replay
from handaudit.validator.state import ReplayState

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_every_engine_attribute_is_declared_on_the_state():
    engines = []
    for read in read_hands([str(SAMPLES)]):
        if read.hand is not None:
            e = _Engine(read.hand, load_rulebook("tda-2026"))
            e.run()
            engines.append(e)
    assert engines
    if not hasattr(engines[0], "__dict__"):
        pytest.skip("compiled build: mypyc lays out the declared attributes only")
    declared = set(ReplayState.__annotations__)
    for e in engines:
        assert set(vars(e)) <= declared, sorted(set(vars(e)) - declared)


def test_replays_round_trip_through_pickle():
    """Reports may cross processes; a compiled frozen Replay pickles through its constructor."""
    book = load_rulebook("tda-2026")
    replays = [replay(r.hand, book) for r in read_hands([str(SAMPLES)]) if r.hand is not None]
    assert replays
    for rep in replays:
        copy = pickle.loads(pickle.dumps(rep))
        assert copy == rep and hash(copy) == hash(rep)


def test_action_record_is_a_value():
    """Compared, hashed, pickled and printed by its fields (it was a named tuple)."""
    import pickle

    from handaudit.validator.outcome import ActionRecord

    a = ActionRecord(3, "flop", "p1", "raise", 100, 150, 50, 20, 40, 500, True)
    b = ActionRecord(3, "flop", "p1", "raise", amount=100, to=150, pot_before=50, to_call=20, min_to=40,
                     max_to=500, all_in=True)
    assert a == b and hash(a) == hash(b) and a != ActionRecord(3, "flop", "p1", "call")
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.kind = "call"  # type: ignore[misc]
    assert repr(a) == ("ActionRecord(index=3, street='flop', actor='p1', kind='raise', amount=100, to=150, "
                       "pot_before=50, to_call=20, min_to=40, max_to=500, all_in=True)")


def test_rules_are_the_rulebook_of_each_replay():
    """The replay reads the rulebook's parameters from a native Rules made per rulebook; a run
    alternating rulebooks must never replay under the other book's Rules."""
    from handaudit.validator.state import rules_of

    a = load_rulebook("tda-2026")
    b = load_rulebook("tda-2026", ["limit_raises=7", "heads_up_uncap=never", "show_order=off",
                                   "limit_allin_reopen=full-bet", "short_raise_ruling=bring-to-minimum"])
    for book in (a, b, a, b):
        rules = rules_of(book)
        assert rules.book is book
        assert rules.limit_raises == book.limit_raises
        assert rules.uncap_when_heads_up == (book.heads_up_uncap == "when-heads-up")
        assert rules.show_order_off == (book.show_order == "off")
        assert rules.limit_reopen_half_bet == (book.limit_allin_reopen == "half-bet")
        assert rules.half_rule == (book.short_raise_ruling == "half-rule")
