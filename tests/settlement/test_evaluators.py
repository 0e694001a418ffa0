"""Hand evaluators: hand-written category boundaries, and agreement with PokerKit 0.7.7.

PokerKit is only a test oracle here. Its ``from_game`` tries every card combination through
Python objects (0.3-2 ms a hand), too slow for 100,000 hands of every type in one test run, so
the bulk comparison memoises PokerKit's own hands of 5 (badugi: 1-4) cards and combines them
exactly as its ``from_game`` methods do (``CombinationHand``: best of every 5 cards;
``HoleBoardCombinationHand``: best of 2 hole x 3 board; ``BadugiHand``: the largest size with a
valid subset, best of that size). The memo key is what PokerKit's lookups read in
``Lookup._get_key`` / ``BadugiLookup._get_key``: the rank multiset, whether the cards are
suited, and whether they are rainbow. ``test_oracle_matches_pokerkit_from_game`` checks that
shortcut against the real ``from_game`` on a smaller sample of every type.

Order agreement is checked by sorting the hands by our strength and requiring PokerKit to agree
on every adjacent pair (less / equal): that makes the two orders identical on the whole sample,
which is stronger than comparing random pairs.
"""

from __future__ import annotations

import random
from itertools import (
    combinations,
    combinations_with_replacement,
    pairwise,
    product,
    starmap,
)
from operator import add

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    BadugiHand,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
    StandardLowHand,
)
from pokerkit.lookups import Label
from pokerkit.utilities import Card

from handaudit.core.cards import UNKNOWN, card_text, cards_from_text
from handaudit.settlement import evaluators as ev

RANDOM_HANDS = 100_000  # random hands per hand type that must agree with PokerKit
DIRECT_HANDS = 600  # hands per type also run through PokerKit's real (slow) from_game
SEED = 0x5E77
NONE = -(1 << 40)  # sorts a non-qualifying low below every qualifying one

FULL = list(range(52))
SHORT = [c for c in range(52) if c >> 2 >= 4]
PK = [next(iter(Card.parse(card_text(c)))) for c in range(52)]


def C(text: str) -> tuple[int, ...]:
    return cards_from_text(text)


def category(strength: int) -> int:
    return (strength >> 20) & 0xF


def category_27(strength: int) -> int:
    return ((ev._TOP_27 - strength) >> 20) & 0xF


# ------------------------------------------------------------------------------------------
# Standard high
# ------------------------------------------------------------------------------------------


def test_wheel_is_the_lowest_straight():
    wheel = ev.high_best(C("Ah2c3d4s5h"))
    six_high = ev.high_best(C("2c3d4s5h6h"))
    assert category(wheel) == ev.STRAIGHT
    assert ev.high_best(C("AcAdAh2c3d")) < wheel < six_high < ev.high_best(C("AcKdQhJsTc"))
    assert ev.describe("high", wheel) == "straight, five high"
    # with a six available, the six-high straight is played
    assert ev.high_best(C("Ah2c3d4s5h6cKd")) == six_high


def test_steel_wheel_and_royal():
    steel = ev.high_best(C("Ah2h3h4h5h"))
    assert category(steel) == ev.STRAIGHT_FLUSH
    assert ev.high_best(C("AcAdAhAsKd")) < steel < ev.high_best(C("2h3h4h5h6h"))
    assert ev.describe("high", steel) == "straight flush, five high"
    royal = ev.high_best(C("AsKsQsJsTs9s2c"))
    assert ev.describe("high", royal) == "royal flush"
    assert royal > max(ev.high_best(C(h)) for h in ("KsQsJsTs9s", "AcAdAhAsKd", "As2s3s4s5s"))


def test_broadway_below_any_flush():
    broadway = ev.high_best(C("AcKdQhJsTc"))
    assert ev.high_best(C("KcQdJhTs9c")) < broadway < ev.high_best(C("2h3h4h5h7h"))
    assert ev.describe("high", broadway) == "straight, ace high"


def test_category_ladder():
    ladder = ["AhKd9c7s3d", "2c2d3h4s5c", "3c3d2h2s4c", "2c2d2h3s4c", "Ah2c3d4s5h",
              "2h3h4h5h7h", "2c2d2h3s3c", "2c2d2h2s3c", "2h3h4h5h6h"]
    values = [ev.high_best(C(h)) for h in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [category(v) for v in values] == list(range(9))


def test_seven_card_choices():
    # three pairs: the third pair is only a kicker
    assert ev.describe("high", ev.high_best(C("AhAd8c8s4c4d2h"))) == "two pair, aces and eights, kicker 4"
    assert ev.high_best(C("AhAd8c8s4c4d2h")) > ev.high_best(C("AhAd8c8s3c3d2h"))
    # two sets make a full house of the higher set
    assert ev.describe("high", ev.high_best(C("KhKdKc9c9s9d2h"))) == "full house, kings over nines"
    # a flush beats the straight in the same seven cards; six suited cards play their top five
    assert ev.describe("high", ev.high_best(C("9h8h7c6h5d2hKh"))) == "flush, K-9-8-6-2"
    assert ev.describe("high", ev.high_best(C("AhKh9h7h3h2hQd"))) == "flush, A-K-9-7-3"
    # kickers decide
    assert ev.high_best(C("KhKd9c9s2c")) < ev.high_best(C("KhKd9c9s3c"))
    assert ev.high_best(C("KhKd9c9s2c")) == ev.high_best(C("KcKs9d9h2d"))


def test_bad_input():
    with pytest.raises(ValueError):
        ev.high_best((UNKNOWN, 1, 2, 3, 4, 5, 6))
    with pytest.raises(ValueError):
        ev.high_best(C("AhKhQh9c"))
    with pytest.raises(ValueError):
        ev.high_best(C("AhKhQhJhTh9h8h7h"))
    with pytest.raises(ValueError):
        ev.short_deck_best(C("2c6d7h8s9c"))
    with pytest.raises(ValueError):
        ev.low_a5_best(C("Ah2c3d4s"))
    with pytest.raises(ValueError):
        ev.high_omaha(C("AhKhQhJh"), C("2c3d"))
    with pytest.raises(ValueError):
        ev.badugi_best((0, 5, UNKNOWN, 11))


# ------------------------------------------------------------------------------------------
# Short deck
# ------------------------------------------------------------------------------------------


def test_short_deck_straights_and_flush_over_full_house():
    low_straight = ev.short_deck_best(C("Ah6c7d8s9h"))
    assert category(low_straight) == ev.STRAIGHT
    assert low_straight < ev.short_deck_best(C("6c7d8s9hTh"))
    assert ev.describe("short_deck", low_straight) == "straight, nine high"
    flush, boat = ev.short_deck_best(C("6h7h8hThQh")), ev.short_deck_best(C("AcAdAhKcKd"))
    assert boat < flush < ev.short_deck_best(C("6c6d6h6sAc"))
    steel = ev.short_deck_best(C("Ah6h7h8h9h"))
    assert ev.short_deck_best(C("AcAdAhAsKd")) < steel < ev.short_deck_best(C("6h7h8h9hTh"))
    # the same cards in a standard deck: no straight, and the full house wins
    assert category(ev.high_best(C("Ah6c7d8s9h"))) == ev.HIGH_CARD
    assert ev.high_best(C("6h7h8hThQh")) < ev.high_best(C("AcAdAhKcKd"))


@pytest.mark.parametrize("tbs", [False, True])
def test_short_deck_trips_versus_straight(tbs):
    trips = ev.short_deck_best(C("AcAdAh6c7d"), trips_beat_straight=tbs)
    straight = ev.short_deck_best(C("Ah6c7d8s9h"), trips_beat_straight=tbs)
    assert (trips > straight) == tbs
    best = ev.short_deck_best(C("6c6d6h7s8c9dTs"), trips_beat_straight=tbs)
    assert ev.describe("short_deck", best) == ("three of a kind, sixes, kickers T-9" if tbs
                                               else "straight, ten high")
    # everything else keeps its place
    flush = ev.short_deck_best(C("6h7h8hThQh"), trips_beat_straight=tbs)
    boat = ev.short_deck_best(C("AcAdAhKcKd"), trips_beat_straight=tbs)
    two_pair = ev.short_deck_best(C("AcAdKhKc6d"), trips_beat_straight=tbs)
    assert two_pair < min(trips, straight) < max(trips, straight) < boat < flush


# ------------------------------------------------------------------------------------------
# Omaha
# ------------------------------------------------------------------------------------------


def test_omaha_exactly_two_hole_cards():
    # four hearts in the hand and one on the board is no flush
    assert category(ev.high_omaha(C("AhKh7h6h"), C("2h9cTcJd3s"))) == ev.HIGH_CARD
    # one heart in the hand and four on the board is no flush either
    assert category(ev.high_omaha(C("AhKcQdJd"), C("2h5h8h9hTc"))) != ev.FLUSH
    # a five-card straight on the board does not play
    assert ev.describe("high", ev.high_omaha(C("AhAdKcKd"), C("5c6d7h8s9c"))) == "pair of aces, kickers 9-8-7"
    # two suited hole cards plus three on the board do
    assert ev.describe("high", ev.high_omaha(C("AhKh2c3d"), C("Qh7h4h9cTs"))) == "flush, A-K-Q-7-4"
    # trips on the board plus a pocket pair is a full house, plus the fourth king is quads
    assert ev.describe("high", ev.high_omaha(C("2c2d5h6s"), C("KhKdKcAs3d"))) == "full house, kings over deuces"
    assert ev.describe("high", ev.high_omaha(C("Kc2d5h6s"), C("KhKdKs9s3d"))) == "four of a kind, kings, kicker 6"
    # quads on the board play as three kings with a hole pair
    assert ev.describe("high", ev.high_omaha(C("AcAd2h2s"), C("KhKdKcKs3d"))) == "full house, kings over aces"
    assert ev.describe("high", ev.high_omaha(C("Ac7d2h9s"), C("KhKdKcKs3d"))) == "three of a kind, kings, kickers A-9"


def test_omaha_low():
    assert ev.describe("low_eight", ev.low_eight_omaha(C("Ah2hKdKc"), C("3c4d5s9cTd"))) == "5-4-3-2-A low"
    # exactly two from the hand: four low hole cards do not make a wheel with one low board card
    assert ev.describe("low_eight", ev.low_eight_omaha(C("Ah2h3h4h"), C("5c6d7sKdQc"))) == "7-6-5-2-A low"
    # one low hole card: no low
    assert ev.low_eight_omaha(C("AhKcQdJd"), C("2c3d4s5h6c")) is None
    # paired board: only two distinct low ranks on it
    assert ev.low_eight_omaha(C("Ah2dKcQc"), C("3c3d4h4s9c")) is None
    # a board card that pairs a hole card cannot be used
    assert ev.low_eight_omaha(C("Ah2dKcQc"), C("As3c4d9hTd")) is None
    # counterfeit: the board duplicates the hole low, the next pair plays
    assert ev.describe("low_eight", ev.low_eight_omaha(C("Ah2d3cKc"), C("2s4c5d8hKd"))) == "5-4-3-2-A low"


# ------------------------------------------------------------------------------------------
# Lows
# ------------------------------------------------------------------------------------------


def test_eight_or_better():
    low = ev.low_eight_best(C("8h6c4d2sAh"))
    assert ev.describe("low_eight", low) == "8-6-4-2-A low"
    assert ev.low_eight_best(C("9h6c4d2sAh")) is None
    assert ev.low_eight_best(C("9h6c4d2sAhKcKd")) is None
    assert ev.low_eight_best(C("AhAd2c2d3h4s4c")) is None  # paired: four distinct lows
    # straights and flushes are ignored: the suited wheel is the best low
    assert ev.low_eight_best(C("Ah2h3h4h5h")) == ev.low_eight_best(C("Ac2d3h4s5c9d9h"))
    assert ev.describe("low_eight", None) == "no qualifying low"
    assert ev.low_eight_best(C("7h6c4d2sAh")) > low > ev.low_eight_best(C("8h7c4d2sAh"))
    assert ev.low_eight_best(C("8h6c5d4s3h")) < low  # 8-6-5 is worse than 8-6-4


def test_razz():
    wheel = ev.low_a5_best(C("Ah2h3h4h5h"))
    assert wheel == ev.low_a5_best(C("Ac2d3h4s5cKdKh")) == ev.low_a5_best(C("Ac2d3h4s5c"))
    assert ev.describe("low_a5", wheel) == "5-4-3-2-A low"
    assert ev.low_a5_best(C("AcAd2h3s4c")) < ev.low_a5_best(C("KcQdJhTs9c"))
    assert ev.low_a5_best(C("AcAdAh2c3h")) < ev.low_a5_best(C("AcAd2c2d3h"))  # trips < two pair
    assert ev.low_a5_best(C("KcKdQhQsJcJd2h")) == ev.low_a5_best(C("JcJdKhQs2c"))
    assert ev.describe("low_a5", ev.low_a5_best(C("KcKdQhQsJcJd2h"))) == "pair of jacks, kickers K-Q-2"
    assert ev.describe("low_a5", ev.low_a5_best(C("3h3c7d5sAhAc3d"))) == "pair of aces, kickers 7-5-3"
    assert ev.describe("low_a5", ev.low_a5_best(C("AcAdAhAs2c"))) == "four of a kind, aces, kicker 2"


def test_deuce_to_seven():
    best = ev.low_27_best(C("7h5c4d3s2h"))
    ace_high = ev.low_27_best(C("Ah5c4d3s2h"))
    assert category_27(ace_high) == ev.HIGH_CARD
    assert ev.describe("low_27", ace_high) == "A-5-4-3-2 low"
    assert ace_high < ev.low_27_best(C("KhQcJdTs8h")) < best
    assert best > max(ev.low_27_best(C(h)) for h in ("7h6c4d3s2h", "8h5c4d3s2h", "7s5s4s3s2s"))
    assert best == ev.low_27_best(C("7c5d4h3s2s"))
    suited = ev.low_27_best(C("8h6h5h4h3h"))
    assert category_27(suited) == ev.FLUSH
    assert ev.describe("low_27", suited) == "flush, 8-6-5-4-3"
    assert suited < ev.low_27_best(C("6c5d4h3s2c")) < ev.low_27_best(C("2c2d2h9sKc"))  # flush < straight < trips
    assert ev.low_27_best(C("2c2d3h4s5c")) < ace_high  # any pair is worse than any unpaired hand
    # six or seven cards: the best five are chosen, avoiding the flush
    assert ev.low_27_best(C("Ah7h5h4h3h2c9d")) == ev.low_27_best(C("7h5h4h3h2c"))


def test_badugi():
    assert ev.describe("badugi", ev.badugi_best(C("As2s3d4h"))) == "3-card badugi 4-3-A"
    four = ev.badugi_best(C("KcQdJhTs"))
    assert ev.describe("badugi", four) == "4-card badugi K-Q-J-T"
    assert four > ev.badugi_best(C("As2s3d4h"))
    assert ev.badugi_best(C("Ac2d3h4s")) > ev.badugi_best(C("Ac2d3h5s")) > ev.badugi_best(C("Kc4d8hAs"))
    assert ev.badugi_best(C("QcJdTh9s")) > ev.badugi_best(C("Kc4d8hAs"))  # highest card first
    assert ev.describe("badugi", ev.badugi_best(C("AcAd2h3s"))) == "3-card badugi 3-2-A"
    assert ev.describe("badugi", ev.badugi_best(C("AcAdAhAs"))) == "1-card badugi A"
    assert ev.describe("badugi", ev.badugi_best(C("Ac2c3c4c"))) == "1-card badugi A"
    assert ev.describe("badugi", ev.badugi_best(C("2s3d3c4d"))) == "3-card badugi 4-3-2"
    assert ev.describe("badugi", ev.badugi_best(C("KsKdQsQd"))) == "2-card badugi K-Q"
    # other card counts go through the general path and agree with the 4-card one
    assert ev.badugi_best(C("Ac2d3h")) == ev.badugi_best(C("Ac2d3h3c")) == ev.badugi_best(C("Ac2d3h3cKc"))


# ------------------------------------------------------------------------------------------
# Properties
# ------------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.permutations(FULL).map(lambda d: d[:9]))
def test_order_of_cards_is_irrelevant(cards):
    seven = cards[:7]
    shuffled = list(reversed(seven))
    assert ev.high_best(seven) == ev.high_best(shuffled)
    assert ev.low_a5_best(seven) == ev.low_a5_best(shuffled)
    assert ev.low_eight_best(seven) == ev.low_eight_best(shuffled)
    assert ev.badugi_best(seven[:4]) == ev.badugi_best(seven[3::-1])
    assert ev.high_omaha(cards[:4], cards[4:]) == ev.high_omaha(cards[3::-1], cards[:3:-1])
    # more cards never make a worse hand
    assert ev.high_best(seven) >= ev.high_best(seven[:6]) >= ev.high_best(seven[:5])
    # Omaha is a restriction of seven-card-of-nine play
    assert ev.high_omaha(cards[:4], cards[4:]) == max(
        ev.high_best(h + b) for h in combinations(cards[:4], 2) for b in combinations(cards[4:], 3))


def test_describe_every_kind():
    assert ev.describe("high", ev.high_best(C("AhKd9c7s3d"))) == "high card, A-K-9-7-3"
    assert ev.describe("high", ev.high_best(C("KhKd9c7s3d"))) == "pair of kings, kickers 9-7-3"
    assert ev.describe("high", ev.high_best(C("KhKd9c9s3d"))) == "two pair, kings and nines, kicker 3"
    assert ev.describe("high", ev.high_best(C("7h7d7cAsKd"))) == "three of a kind, sevens, kickers A-K"
    assert ev.describe("high", ev.high_best(C("AhAdAcAsKd"))) == "four of a kind, aces, kicker K"
    assert ev.describe("high", ev.high_best(C("9h8h7h6h5h"))) == "straight flush, nine high"
    with pytest.raises(ValueError):
        ev.describe("stud", 0)


# ------------------------------------------------------------------------------------------
# Agreement with PokerKit
# ------------------------------------------------------------------------------------------


def pk_value(hand) -> int:
    """PokerKit's own ordering as an int where higher is better (its low hands invert)."""
    return -hand.entry.index if hand.low else hand.entry.index


# The memo key of a few cards is what PokerKit's lookups read: the rank multiset (a 4-bit count
# per rank) plus whether the cards are suited and whether they are rainbow. The flags come from
# the suit counts through SUIT_FLAGS so that a whole hand's keys are built by C-level map/sum.
RANK_WEIGHT = [1 << 4 * (c >> 2) for c in range(52)]
SUIT_WEIGHT = [1 << 4 * (c & 3) for c in range(52)]
SUITED, RAINBOW = 1 << 60, 1 << 61
SUIT_FLAGS = {
    sum(n << 4 * s for s, n in enumerate(counts)):
        (SUITED if max(counts) == sum(counts) else 0) | (RAINBOW if max(counts) <= 1 else 0)
    for counts in product(range(8), repeat=4) if 0 < sum(counts) <= 7
}


class Oracle:
    """PokerKit's value of a hand of ``hand_type`` made of a few cards, memoised per class."""

    def __init__(self, hand_type, value=None):
        self.hand_type = hand_type
        self.value = value or pk_value
        self.memo: dict[int, int] = {}

    def miss(self, key: int, cards) -> int:
        try:
            value = self.value(self.hand_type([PK[c] for c in cards]))
        except ValueError:
            value = NONE
        self.memo[key] = value
        return value

    def best(self, rank_keys, suit_keys, subsets) -> int:
        """Best value over card subsets given by their rank and suit weight sums; ``subsets()``
        lists the same subsets in the same order and is only called when the memo misses.
        ``suit_keys`` is None when no subset can be suited or rainbow (both flags clear)."""
        if suit_keys is None:
            keys = list(rank_keys)
        else:
            keys = list(map(add, rank_keys, map(SUIT_FLAGS.__getitem__, suit_keys)))
        values = list(map(self.memo.get, keys))
        if None in values:
            values = [self.miss(k, sub) if v is None else v for k, v, sub in zip(keys, values, subsets(), strict=True)]
        return max(values)


def flags_possible(cards, size: int) -> bool:
    """Whether some ``size`` of the cards can be suited or rainbow: five or more cards are
    never rainbow (four suits) and are suited only if the cards hold five of one suit."""
    return size < 5 or max(map([c & 3 for c in cards].count, range(4))) >= 5


def oracle_best_of(oracle, cards, size: int = 5) -> int:
    """``CombinationHand.from_game``: the best valid hand of any five of the cards."""
    return oracle.best(
        map(sum, combinations([RANK_WEIGHT[c] for c in cards], size)),
        map(sum, combinations([SUIT_WEIGHT[c] for c in cards], size)) if flags_possible(cards, size) else None,
        lambda: combinations(cards, size),
    )


def oracle_omaha(oracle, hole, board) -> int:
    """``HoleBoardCombinationHand.from_game``: two hole cards with three board cards."""

    def keys(weight):
        pairs = list(map(sum, combinations([weight[c] for c in hole], 2)))
        triples = list(map(sum, combinations([weight[c] for c in board], 3)))
        return starmap(add, product(pairs, triples))

    return oracle.best(keys(RANK_WEIGHT), keys(SUIT_WEIGHT) if flags_possible(hole + board, 5) else None,
                       lambda: starmap(add, product(combinations(hole, 2), combinations(board, 3))))


def oracle_badugi(oracle, cards) -> int:
    """``BadugiHand.from_game``: the best valid subset of the largest size that has one."""
    for size in range(len(cards), 0, -1):
        best = oracle_best_of(oracle, cards, size)
        if best != NONE:
            return best
    raise AssertionError("a single card is always a badugi")


# PokerKit has no "three of a kind beats a straight" short deck; ranking its own 5-card hands by
# (category in that order, PokerKit's index) is that variant, built from PokerKit's labels.
TBS_ORDER = [Label.HIGH_CARD, Label.ONE_PAIR, Label.TWO_PAIR, Label.STRAIGHT, Label.THREE_OF_A_KIND,
             Label.FULL_HOUSE, Label.FLUSH, Label.FOUR_OF_A_KIND, Label.STRAIGHT_FLUSH]


def pk_value_trips_over_straight(hand) -> int:
    return TBS_ORDER.index(hand.entry.label) << 20 | hand.entry.index


def pk_direct(hand_type, hole, board=()) -> int:
    try:
        return pk_value(hand_type.from_game([PK[c] for c in hole], [PK[c] for c in board]))
    except ValueError:
        return NONE


def ours_or_none(value):
    return NONE if value is None else value


# name -> (deck, cards per hand, ours(hand), oracle(hand), PokerKit hand type for from_game or None)
def _types():
    high, short = Oracle(StandardHighHand), Oracle(ShortDeckHoldemHand)
    omaha, omaha8 = Oracle(OmahaHoldemHand), Oracle(OmahaEightOrBetterLowHand)
    eight, razz = Oracle(EightOrBetterLowHand), Oracle(RegularLowHand)
    deuce, badugi = Oracle(StandardLowHand), Oracle(BadugiHand)
    short_tbs = Oracle(ShortDeckHoldemHand, pk_value_trips_over_straight)
    return {
        "high 7": (FULL, 7, ev.high_best, lambda h: oracle_best_of(high, h), StandardHighHand),
        "high 6": (FULL, 6, ev.high_best, lambda h: oracle_best_of(high, h), StandardHighHand),
        "short deck 7": (SHORT, 7, ev.short_deck_best, lambda h: oracle_best_of(short, h), ShortDeckHoldemHand),
        "short deck 7, trips beat straight": (
            SHORT, 7, lambda h: ev.short_deck_best(h, trips_beat_straight=True),
            lambda h: oracle_best_of(short_tbs, h), None),
        "omaha high": (FULL, 9, lambda h: ev.high_omaha(h[:4], h[4:]),
                       lambda h: oracle_omaha(omaha, h[:4], h[4:]), OmahaHoldemHand),
        "omaha eight": (FULL, 9, lambda h: ours_or_none(ev.low_eight_omaha(h[:4], h[4:])),
                        lambda h: oracle_omaha(omaha8, h[:4], h[4:]), OmahaEightOrBetterLowHand),
        "eight or better 7": (FULL, 7, lambda h: ours_or_none(ev.low_eight_best(h)),
                              lambda h: oracle_best_of(eight, h), EightOrBetterLowHand),
        "razz 7": (FULL, 7, ev.low_a5_best, lambda h: oracle_best_of(razz, h), RegularLowHand),
        "deuce to seven 5": (FULL, 5, ev.low_27_best, lambda h: oracle_best_of(deuce, h), StandardLowHand),
        "deuce to seven 7": (FULL, 7, ev.low_27_best, lambda h: oracle_best_of(deuce, h), StandardLowHand),
        "badugi 4": (FULL, 4, ev.badugi_best, lambda h: oracle_badugi(badugi, h), BadugiHand),
        # handaudit's extension games: five card draw (high 5), 5- and 6-card Omaha and Courchevel
        # (exactly two of the 5 or 6 hole cards with three of the board), hi and eight-or-better
        "high 5": (FULL, 5, ev.high_best, lambda h: oracle_best_of(high, h), StandardHighHand),
        **{f"{n}-card omaha high": (FULL, n + 5, lambda h, n=n: ev.high_omaha(h[:n], h[n:]),
                                    lambda h, n=n: oracle_omaha(omaha, h[:n], h[n:]), OmahaHoldemHand)
           for n in (5, 6)},
        **{f"{n}-card omaha eight": (FULL, n + 5, lambda h, n=n: ours_or_none(ev.low_eight_omaha(h[:n], h[n:])),
                                     lambda h, n=n: oracle_omaha(omaha8, h[:n], h[n:]), OmahaEightOrBetterLowHand)
           for n in (5, 6)},
    }


TYPES = _types()
SAMPLE_SIZES = {"high 6": 20_000, "deuce to seven 7": 20_000, "high 5": 20_000,  # extra shapes, smaller samples
                "5-card omaha high": 20_000, "6-card omaha high": 20_000, "5-card omaha eight": 20_000,
                "6-card omaha eight": 20_000}


def random_hands(name: str, count: int) -> list[tuple[int, ...]]:
    deck, size = TYPES[name][0], TYPES[name][1]
    rng = random.Random(f"{SEED}-{name}")
    return [tuple(rng.sample(deck, size)) for _ in range(count)]


def split(name: str, hand):
    """(hole, board) of an Omaha sample (its board is the last five cards), else (cards, ())."""
    return (hand[:-5], hand[-5:]) if "omaha" in name else (hand, ())


def assert_same_order(name, hands, ours, theirs):
    assert len(hands) == len(ours) == len(theirs)
    by_ours = sorted(range(len(hands)), key=ours.__getitem__)
    for i, j in pairwise(by_ours):
        if (ours[i] == ours[j]) != (theirs[i] == theirs[j]) or (
            ours[i] < ours[j] and not theirs[i] < theirs[j]
        ):
            a, b = (" ".join(card_text(c) for c in hands[k]) for k in (i, j))
            pytest.fail(f"{name}: ours {ours[i]} vs {ours[j]} but PokerKit {theirs[i]} vs {theirs[j]}"
                        f" for [{a}] and [{b}]")
    # a non-qualifying low is the same thing on both sides
    assert [o == NONE for o in ours] == [t == NONE for t in theirs]


@pytest.mark.parametrize("name", list(TYPES))
def test_random_hands_agree_with_pokerkit(name):
    count = SAMPLE_SIZES.get(name, RANDOM_HANDS)
    hands = random_hands(name, count)
    ours_fn, oracle = TYPES[name][2], TYPES[name][3]
    ours = [ours_fn(h) for h in hands]
    theirs = [oracle(h) for h in hands]
    assert_same_order(name, hands, ours, theirs)
    assert len(set(ours)) > (5 if "badugi" in name or "eight" in name else 50)  # the sample spans many classes


@pytest.mark.parametrize("name", [n for n in TYPES if TYPES[n][4] is not None])
def test_oracle_matches_pokerkit_from_game(name):
    """The memoised oracle is exactly PokerKit's from_game, and so are we, on a direct sample."""
    hands = random_hands(name, DIRECT_HANDS)  # a prefix of the big sample
    oracle, hand_type = TYPES[name][3], TYPES[name][4]
    direct = [pk_direct(hand_type, *split(name, h)) for h in hands]
    assert [oracle(h) for h in hands] == direct
    assert_same_order(name, hands, [TYPES[name][2](h) for h in hands], direct)


def five_card_classes(ranks):
    """One 5-card hand per (rank multiset, suited) class over the given ranks."""
    for multiset in combinations_with_replacement(ranks, 5):
        if max(multiset.count(r) for r in multiset) > 4:
            continue
        seen: dict[int, int] = {}
        cards = []
        for i, r in enumerate(multiset):
            # spread suits so that an unsuited hand never is all one suit
            suit = seen[r] = seen.get(r, -1) + 1 if multiset.count(r) > 1 else i % 4
            cards.append(r * 4 + suit)
        yield tuple(cards)
        if len(set(multiset)) == 5:
            yield tuple(r * 4 + 2 for r in multiset)


@pytest.mark.parametrize(
    "label, ranks, ours, hand_type",
    [
        ("high", range(13), ev.high_best, StandardHighHand),
        ("short deck", range(4, 13), ev.short_deck_best, ShortDeckHoldemHand),
        ("eight or better", range(13), lambda h: ours_or_none(ev.low_eight_best(h)), EightOrBetterLowHand),
        ("razz", range(13), ev.low_a5_best, RegularLowHand),
        ("deuce to seven", range(13), ev.low_27_best, StandardLowHand),
    ],
)
def test_every_five_card_class_agrees_with_pokerkit(label, ranks, ours, hand_type):
    hands = list(five_card_classes(ranks))
    theirs = []
    for h in hands:
        try:
            theirs.append(pk_value(hand_type([PK[c] for c in h])))
        except ValueError:
            theirs.append(NONE)
    assert_same_order(label, hands, [ours(h) for h in hands], theirs)
    if label == "high":
        assert len({ours(h) for h in hands}) == 7462  # the well-known number of 5-card classes


def test_pokerkit_short_deck_puts_straight_over_trips():
    """Why the comparison uses the default ranking: PokerKit has no trips-over-straight option."""
    trips = ShortDeckHoldemHand([PK[c] for c in C("AcAdAh6c7d")])
    straight = ShortDeckHoldemHand([PK[c] for c in C("Ah6c7d8s9h")])
    assert trips < straight


def test_badugi_every_rank_and_suit_pattern_agrees_with_pokerkit():
    """Every 4-card badugi situation up to suit renaming: sorted ranks x suit pattern."""
    oracle = TYPES["badugi 4"][3]
    hands = []
    patterns = sorted({(0, a, b, c) for a in range(2) for b in range(a + 2) for c in range(max(a, b) + 2)
                       if max(a, b, c) <= 3})
    for ranks in combinations_with_replacement(range(13), 4):
        for pattern in patterns:
            cards = [r * 4 + s for r, s in zip(ranks, pattern, strict=True)]
            if len(set(cards)) == 4:
                hands.append(tuple(cards))
    assert_same_order("badugi patterns", hands, [ev.badugi_best(h) for h in hands],
                      [oracle(h) for h in hands])
