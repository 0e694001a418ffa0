"""Who opens a stud round after third street: the category of the hand showing comes first."""

from handaudit.core.cards import cards_from_text
from handaudit.validator.showing import showing_order_key


def key(text, low=False):
    return showing_order_key(list(cards_from_text(text)), low)


def test_two_pair_beats_a_higher_pair():
    assert key("5c5d3c3d") > key("KhKd7s9h")


def test_categories_in_order():
    quads, trips, two_pair, pair, high = key("2c2d2h2s"), key("3c3d3hAs"), key("4c4d5h5s"), key("AcAdKhQs"), key("AcKdQhJs")
    assert quads > trips > two_pair > pair > high


def test_within_a_category_the_ranks_decide():
    assert key("KcKd5h5s") > key("QcQdJhJs")
    assert key("AcKd") > key("AcQd")


def test_razz_lowest_opens_and_pairs_are_worse():
    assert key("Ac2d3h4s", low=True) > key("Ac2d3h5s", low=True)
    assert key("KcQdJh9s", low=True) > key("2c2d3h4s", low=True)  # unpaired beats paired
    assert key("2c2d3h4s", low=True) > key("2c2d3h3s", low=True)  # one pair beats two pair


def test_two_pair_showing_opens_sixth_street():
    from pathlib import Path

    from handaudit.grammar.reader import read_hands
    from handaudit.rules.rulebook import load_rulebook
    from handaudit.validator import replay

    sample = Path(__file__).resolve().parents[2] / "samples" / "stud-two-pair-opens.phh"
    hand = next(read_hands([str(sample)])).hand
    rep = replay(hand, load_rulebook("roberts-v11", []))
    assert [f.code for f in rep.findings if f.code == "out-of-turn"] == []
    assert (rep.records[14].street, rep.records[14].actor) == ("sixth", "p2")


def test_deals_after_an_all_in_keep_their_street_names():
    from pathlib import Path

    from handaudit.grammar.reader import read_hands
    from handaudit.rules.rulebook import load_rulebook
    from handaudit.validator import replay

    sample = Path(__file__).resolve().parents[2] / "samples" / "all-in-street-names.phh"
    rep = replay(next(read_hands([str(sample)])).hand, load_rulebook("tda-2026", []))
    assert [r.street for r in rep.records[4:7]] == ["flop", "turn", "river"]
