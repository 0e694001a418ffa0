"""Table-based poker hand evaluators for settling showdowns.

Every evaluator returns an ``int`` strength where a higher value is a better hand for that
game, so a pot is awarded with ``max()`` and tied hands have equal strengths (only the
kind's own strengths are comparable with each other). :func:`describe` turns a strength back
into ledger text, so strengths are structured integers rather than opaque ranks.

Cards use :mod:`handaudit.core.cards` (``rank * 4 + suit``). Callers pass distinct, known cards;
``UNKNOWN`` (``-1``) raises ``ValueError``, duplicates are not checked here (the replay
validator rejects them) and give meaningless results.

Why it is fast: a hand's value without flushes depends only on its multiset of ranks, so each
card adds ``5 ** rank`` to a key (at most four cards share a rank, so base-5 digits never
carry) and one dict lookup gives the best 5-card hand of 5..7 cards. Suit counts ride in the
same sum as 4-bit fields starting at 3, so bit 3 of a field is set exactly when five or more
cards share that suit; then the hand's value is read from a table keyed by that suit's rank
bitmask. With at most seven cards a flush rules out a full house or quads (both would need
cards of the flush suit to pair), so the flush table alone decides flushed hands. The tables
fill lazily: a key is computed (from the 5-card rules below) the first time it is seen, so
import is cheap and a long-running process quickly stops computing anything.

Strength layouts (all decodable by :func:`describe`):

* high / short deck: ``position << 24 | category << 20 | five 4-bit ranks`` where
  ``position`` is the category's place in that game's order (short deck reorders flush/full
  house, and optionally trips/straight) and ranks are ``0..12`` for ``2..A``, most
  significant first (a straight stores only its top card; the wheel's top is the five, the
  short-deck A-6-7-8-9's top is the nine).
* deuce-to-seven: ``_TOP_27 - high`` where ``high`` is the high layout without wrap-around
  straights, so a worse high hand is a better low.
* ace-to-five and eight-or-better: ``_TOP_A5 - (category << 20 | ranks)`` with ace-low ranks
  (``A=0, 2=1 .. K=12``) ordered as the hand is read (pairs first, then kickers high to low);
  category 0 unpaired, 1 pair, 2 two pair, 3 trips, 4 full house, 5 quads.
* badugi: ``size << 13 | (0x1FFF ^ ace-low rank mask)``: more cards win, then the lower set,
  which for sets of equal size is the smaller bitmask (highest card compared first).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, product
from typing import Final

from handaudit.core.cards import RANKS

__all__ = [
    "badugi_best",
    "describe",
    "high_best",
    "high_omaha",
    "low_27_best",
    "low_a5_best",
    "low_eight_best",
    "low_eight_omaha",
    "short_deck_best",
]

# --------------------------------------------------------------------------------------------
# Categories and orders
# --------------------------------------------------------------------------------------------

HIGH_CARD: Final = 0
PAIR: Final = 1
TWO_PAIR: Final = 2
TRIPS: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
QUADS: Final = 7
STRAIGHT_FLUSH: Final = 8

# position of each category (indexed by category) in a game's ranking, weakest first
_ORDER_STANDARD: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8)
_ORDER_SHORT: Final = (0, 1, 2, 3, 4, 6, 5, 7, 8)  # flush above full house
_ORDER_SHORT_TBS: Final = (0, 1, 2, 4, 3, 6, 5, 7, 8)  # ... and three of a kind above a straight

# (window bitmask, top rank) pairs, best straight first
_Straights = tuple[tuple[int, int], ...]
_STRAIGHTS_STANDARD: Final[_Straights] = tuple((0x1F << (t - 4), t) for t in range(12, 3, -1)) + ((1 << 12 | 0xF, 3),)
_STRAIGHTS_NO_WRAP: Final[_Straights] = tuple((0x1F << (t - 4), t) for t in range(12, 3, -1))
_STRAIGHTS_SHORT: Final[_Straights] = tuple((0x1F << (t - 4), t) for t in range(12, 7, -1)) + ((1 << 12 | 0xF0, 7),)

# ace-to-five categories, best first
_A5_SHAPES: Final[dict[tuple[int, ...], int]] = {
    (1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}
_HIGH_SHAPES: Final[dict[tuple[int, ...], int]] = {
    (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS, (3, 2): FULL_HOUSE, (4, 1): QUADS}

_TOP_27: Final = (1 << 28) - 1
_TOP_A5: Final = (1 << 24) - 1

# --------------------------------------------------------------------------------------------
# Per-card weights, indexed by card code 0..51 (:func:`_weights` rejects anything else)
# --------------------------------------------------------------------------------------------

_POW5: Final[tuple[int, ...]] = tuple(5**r for r in range(13))
_SUIT_SHIFT: Final = 31  # 5 ** 13 < 2 ** 31: the rank key never reaches the suit fields
_RANK_KEY_MASK: Final = (1 << _SUIT_SHIFT) - 1
_SUIT_OFFSET: Final = 0x3333 << _SUIT_SHIFT
_FLUSH_BITS: Final = 0x8888 << _SUIT_SHIFT
_SHORT_DECK_LOW: Final = 5**4  # key % 625 != 0 <=> some card is a 2..5

_RK: Final[list[int]] = [_POW5[c >> 2] for c in range(52)]  # rank key
_HW: Final[list[int]] = [_POW5[c >> 2] + (1 << (_SUIT_SHIFT + 4 * (c & 3))) for c in range(52)]
_RB: Final[list[int]] = [1 << (c >> 2) for c in range(52)]  # rank bit, ace high
_SW: Final[list[int]] = [1 << (4 * (c & 3)) for c in range(52)]  # one in the suit's nibble
_LB: Final[list[int]] = [(1 << ((c >> 2) + 1) % 13) if (c >> 2) in (12, 0, 1, 2, 3, 4, 5, 6) else 0
                         for c in range(52)]  # ace-low bit for A..8 (A = bit 0), else nothing
_BE: Final[list[int]] = [(1 << ((c >> 2) + 1) % 13) | (1 << (13 + (c & 3))) for c in range(52)]


def _card(c: int) -> int:
    """``c`` if it is a card code 0..51, else IndexError (``UNKNOWN``, i.e. -1, included): the
    public evaluators turn it into :func:`_bad_cards`."""
    if not 0 <= c < 52:
        raise IndexError(c)
    return c


def _weights(table: list[int], cards: Sequence[int], start: int = 0) -> int:
    """``start`` plus the cards' weights from ``table``."""
    total = start
    for c in cards:
        total += table[_card(c)]
    return total


def _bad_cards(cards: object) -> ValueError:
    return ValueError(f"cards must be distinct known card codes 0..51, got {cards!r}")


# --------------------------------------------------------------------------------------------
# 5-card rules (the only place the rankings are spelled out)
# --------------------------------------------------------------------------------------------


def _nibbles(ranks: Sequence[int]) -> int:
    v = 0
    for r in ranks:
        v = v << 4 | r
    return v << 4 * (5 - len(ranks))


def _pack(order: tuple[int, ...], cat: int, ranks: Sequence[int]) -> int:
    return order[cat] << 24 | cat << 20 | _nibbles(ranks)


def _straight_top(mask: int, straights: _Straights) -> int | None:
    for window, top in straights:
        if mask & window == window:
            return top
    return None


def _groups(values: Sequence[int]) -> tuple[tuple[int, ...], list[int]]:
    """Counts (largest first) and the grouped values, ordered as a hand is read."""
    grouped = sorted(((values.count(v), v) for v in set(values)), reverse=True)
    return tuple(n for n, _ in grouped), [v for _, v in grouped]


def _high_five(ranks: Sequence[int], order: tuple[int, ...], straights: _Straights) -> int:
    """Unsuited 5-card high hand (ranks 0..12 = 2..A)."""
    shape, values = _groups(ranks)
    if len(shape) == 5:
        top = _straight_top(sum(1 << r for r in ranks), straights)
        if top is not None:
            return _pack(order, STRAIGHT, (top,))
        return _pack(order, HIGH_CARD, values)
    return _pack(order, _HIGH_SHAPES[shape], values)


def _high_flush(mask: int, order: tuple[int, ...], straights: _Straights) -> int:
    """Best hand from the ranks (5..7 bits) of the flush suit."""
    top = _straight_top(mask, straights)
    if top is not None:
        return _pack(order, STRAIGHT_FLUSH, (top,))
    return _pack(order, FLUSH, [r for r in range(12, -1, -1) if mask >> r & 1][:5])


def _a5_badness(ranks: Sequence[int]) -> int:
    """Ace-to-five 5-card value, lower is better: straights and flushes are ignored."""
    shape, values = _groups([(r + 1) % 13 for r in ranks])
    return _A5_SHAPES[shape] << 20 | _nibbles(values)


# --------------------------------------------------------------------------------------------
# Lazily filled tables
# --------------------------------------------------------------------------------------------


def _ranks_of_key(key: int) -> list[int]:
    ranks: list[int] = []
    for r in range(13):
        ranks += [r] * (key % 5)
        key //= 5
    return ranks[::-1]


class _BestOfRanks:
    """Rank key of 5..``most`` cards -> best strength of its 5-card sub-multisets."""

    def __init__(self, five: Callable[[list[int]], int], most: int = 7) -> None:
        self.values: dict[int, int] = {}
        self._five = five
        self._most = most

    def get(self, key: int) -> int:
        value = self.values.get(key)
        if value is None:
            value = self._compute(key)
        return value

    def _compute(self, key: int) -> int:
        ranks = _ranks_of_key(key)
        if len(ranks) == 5:
            value = self._five(ranks)
        elif 5 < len(ranks) <= self._most:
            drop = {sum([_POW5[r] for r in out]) for out in combinations(ranks, len(ranks) - 5)}
            value = max([self.get(key - d) for d in drop])
        else:
            raise ValueError(f"need 5..{self._most} cards, got {len(ranks)}")
        self.values[key] = value
        return value


class _ByMask:
    """Rank bitmask -> strength, computed on first use."""

    def __init__(self, compute: Callable[[int], int]) -> None:
        self.values: dict[int, int] = {}
        self._compute = compute

    def get(self, mask: int) -> int:
        value = self.values.get(mask)
        if value is None:
            value = self.values[mask] = self._compute(mask)
        return value


_HIGH: Final = _BestOfRanks(lambda ranks: _high_five(ranks, _ORDER_STANDARD, _STRAIGHTS_STANDARD))
_HIGH_FLUSH: Final = _ByMask(lambda mask: _high_flush(mask, _ORDER_STANDARD, _STRAIGHTS_STANDARD))
_SHORT: Final = _BestOfRanks(lambda ranks: _high_five(ranks, _ORDER_SHORT, _STRAIGHTS_SHORT))
_SHORT_FLUSH: Final = _ByMask(lambda mask: _high_flush(mask, _ORDER_SHORT, _STRAIGHTS_SHORT))
_SHORT_TBS: Final = _BestOfRanks(lambda ranks: _high_five(ranks, _ORDER_SHORT_TBS, _STRAIGHTS_SHORT))
_SHORT_TBS_FLUSH: Final = _ByMask(lambda mask: _high_flush(mask, _ORDER_SHORT_TBS, _STRAIGHTS_SHORT))
_L27: Final = _BestOfRanks(lambda ranks: _TOP_27 - _high_five(ranks, _ORDER_STANDARD, _STRAIGHTS_NO_WRAP), 5)
_L27_FLUSH: Final = _ByMask(lambda mask: _TOP_27 - _high_flush(mask, _ORDER_STANDARD, _STRAIGHTS_NO_WRAP))
_A5: Final = _BestOfRanks(lambda ranks: _TOP_A5 - _a5_badness(ranks))


def _low8_of_mask(mask: int) -> int | None:
    """Ace-low mask of distinct A..8 ranks -> the best qualifying low it contains."""
    bits = [v for v in range(8) if mask >> v & 1][:5]
    if len(bits) < 5:
        return None
    return _TOP_A5 - _nibbles(bits[::-1])


_LOW8: Final[list[int | None]] = [_low8_of_mask(m) for m in range(256)]


def _low8_omaha(key: int) -> int:
    """``hole mask << 8 | board mask`` -> the ace-low mask of the best low from two hole ranks
    and three board ranks (0: none qualifies; ``_LOW8`` of it is the strength)."""
    hole, board = key >> 8, key & 0xFF
    best = 0
    for a, b in combinations([1 << v for v in range(8) if hole >> v & 1], 2):
        avail = board & ~(a | b)
        if avail.bit_count() >= 3:
            low3 = 0
            for _ in range(3):
                low3 |= avail & -avail
                avail &= avail - 1
            cand = a | b | low3
            if best == 0 or cand < best:
                best = cand
    return best


_LOW8_OMAHA: Final = _ByMask(_low8_omaha)


# --------------------------------------------------------------------------------------------
# Public evaluators
# --------------------------------------------------------------------------------------------


def _flush_mask(cards: Sequence[int], key: int) -> int:
    if len(cards) > 7:  # beyond seven cards a flush no longer excludes full houses
        raise ValueError(f"need 5..7 cards, got {len(cards)}")
    suit = (((key >> _SUIT_SHIFT) & 0x8888).bit_length() - 1) >> 2
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return mask


def high_best(cards: Sequence[int]) -> int:
    """Best standard high hand from 5..7 cards (hold'em, stud); the wheel is the lowest straight."""
    try:
        key = _weights(_HW, cards, _SUIT_OFFSET)
    except (TypeError, IndexError):
        raise _bad_cards(cards) from None
    if key & _FLUSH_BITS:
        return _HIGH_FLUSH.get(_flush_mask(cards, key))
    return _HIGH.get(key & _RANK_KEY_MASK)


def short_deck_best(cards: Sequence[int], trips_beat_straight: bool = False) -> int:
    """Best short-deck (6..A) high hand from 5..7 cards.

    A flush beats a full house and A-6-7-8-9 is the lowest straight. By default a straight
    beats three of a kind (as PokerKit ranks it); ``trips_beat_straight=True`` is the venue
    variant that puts three of a kind above the straight.
    """
    try:
        key = _weights(_HW, cards, _SUIT_OFFSET)
    except (TypeError, IndexError):
        raise _bad_cards(cards) from None
    if (key & _RANK_KEY_MASK) % _SHORT_DECK_LOW:
        raise ValueError(f"short deck has no 2..5: {cards!r}")
    if key & _FLUSH_BITS:
        table = _SHORT_TBS_FLUSH if trips_beat_straight else _SHORT_FLUSH
        return table.get(_flush_mask(cards, key))
    return (_SHORT_TBS if trips_beat_straight else _SHORT).get(key & _RANK_KEY_MASK)


# (board rank key << 31 | hole-pair rank key) -> best unsuited hand using both hole ranks and
# three board ranks. Omaha showdowns repeat these pairs constantly, so after warm-up a hand
# costs six lookups instead of sixty; there are under 600k keys (about 45 MB when all seen).
_OMAHA_PAIRS: Final[dict[int, int]] = {}


def high_omaha(hole: Sequence[int], board: Sequence[int]) -> int:
    """Best high hand using exactly two hole cards and exactly three board cards."""
    if len(hole) < 2 or len(board) < 3:
        raise ValueError(f"Omaha needs 2+ hole and 3+ board cards, got {len(hole)} and {len(board)}")
    rk = _RK
    try:
        base = _weights(rk, board) << _SUIT_SHIFT
        suits = (_weights(_SW, hole) + 0x6666) & (_weights(_SW, board) + 0x5555)
    except (TypeError, IndexError):
        raise _bad_cards((hole, board)) from None
    keys = [base + rk[a] + rk[b] for a, b in combinations(hole, 2)]
    table = _OMAHA_PAIRS
    best = -1
    triples: list[int] | None = None
    for key in keys:
        value = table.get(key)
        if value is None:
            if triples is None:
                triples = [rk[a] + rk[b] + rk[c] for a, b, c in combinations(board, 3)]
            pair = key & _RANK_KEY_MASK
            value = table[key] = max([_HIGH.get(pair + t) for t in triples])
        if value > best:
            best = value
    suits &= 0x8888  # suits with 2+ hole cards and 3+ board cards: a flush is possible
    while suits:
        s = (suits.bit_length() - 1) >> 2
        suits &= ~(0x8 << 4 * s)
        hb = [1 << (c >> 2) for c in hole if c & 3 == s]
        bb = [1 << (c >> 2) for c in board if c & 3 == s]
        for (a, b), (c, d, e) in product(combinations(hb, 2), combinations(bb, 3)):
            value = _HIGH_FLUSH.get(a | b | c | d | e)
            if value > best:
                best = value
    return best


def _low_mask(cards: Sequence[int]) -> int:
    """The ace-low rank bits of the cards' A..8 (IndexError for a card that is not 0..51)."""
    mask = 0
    for c in cards:
        mask |= _LB[_card(c)]
    return mask


def low_eight_best(cards: Sequence[int]) -> int | None:
    """Best ace-to-five low of five distinct ranks all eight or lower, or None if none qualifies."""
    try:
        mask = _low_mask(cards)
    except (TypeError, IndexError):
        raise _bad_cards(cards) from None
    return _LOW8[mask]


def low_eight_omaha(hole: Sequence[int], board: Sequence[int]) -> int | None:
    """Best eight-or-better low from exactly two hole and three board cards, or None."""
    try:
        hm = _low_mask(hole)
        bm = _low_mask(board)
    except (TypeError, IndexError):
        raise _bad_cards((hole, board)) from None
    return _LOW8[_LOW8_OMAHA.get(hm << 8 | bm)]


def low_a5_best(cards: Sequence[int]) -> int:
    """Best ace-to-five (razz) low from 5..7 cards: ace low, straights and flushes don't count."""
    try:
        key = _weights(_RK, cards)
    except (TypeError, IndexError):
        raise _bad_cards(cards) from None
    return _A5.get(key)


def _low27_five(cards: Sequence[int]) -> int:
    key = _weights(_HW, cards, _SUIT_OFFSET)
    if key & _FLUSH_BITS:
        return _L27_FLUSH.get(_weights(_RB, cards))
    return _L27.get(key & _RANK_KEY_MASK)


def low_27_best(cards: Sequence[int]) -> int:
    """Deuce-to-seven low: ace high only, straights and flushes count, 7-5-4-3-2 is best.

    Five cards is the draw-game case; with six or seven the best five are chosen.
    """
    try:
        if len(cards) == 5:
            return _low27_five(cards)
        if 5 < len(cards) <= 7:
            return max([_low27_five(five) for five in combinations(cards, 5)])
    except (TypeError, IndexError):
        raise _bad_cards(cards) from None
    raise ValueError(f"need 5..7 cards, got {len(cards)}")


_SUBSETS: Final[dict[int, list[list[tuple[int, ...]]]]] = {
    n: [[s for s in combinations(range(n), k)] for k in range(n, 0, -1)] for n in range(1, 8)}


def badugi_best(cards: Sequence[int]) -> int:
    """Badugi (ace low): most cards of distinct ranks and suits, then the lowest such set."""
    try:
        enc = [_BE[_card(c)] for c in cards]
    except (TypeError, IndexError):
        raise _bad_cards(cards) from None
    if len(enc) == 4:
        a, b, c, d = enc
        x = a | b | c | d
        if x.bit_count() == 8:
            return 4 << 13 | (0x1FFF ^ (x & 0x1FFF))
        best = 0x2000
        for x in (a | b | c, a | b | d, a | c | d, b | c | d):
            if x.bit_count() == 6 and x & 0x1FFF < best:
                best = x & 0x1FFF
        if best < 0x2000:
            return 3 << 13 | (0x1FFF ^ best)
        for x in (a | b, a | c, a | d, b | c, b | d, c | d):
            if x.bit_count() == 4 and x & 0x1FFF < best:
                best = x & 0x1FFF
        if best < 0x2000:
            return 2 << 13 | (0x1FFF ^ best)
        return 1 << 13 | (0x1FFF ^ (min(a & 0x1FFF, b & 0x1FFF, c & 0x1FFF, d & 0x1FFF)))
    if not 1 <= len(enc) <= 7:
        raise ValueError(f"need 1..7 cards, got {len(enc)}")
    for subsets in _SUBSETS[len(enc)]:
        size = len(subsets[0])
        best = 0x2000
        for sub in subsets:
            x = 0
            for i in sub:
                x |= enc[i]
            if x.bit_count() == 2 * size and x & 0x1FFF < best:
                best = x & 0x1FFF
        if best < 0x2000:
            return size << 13 | (0x1FFF ^ best)
    raise AssertionError("unreachable: a single card is always a badugi")


# --------------------------------------------------------------------------------------------
# Ledger text
# --------------------------------------------------------------------------------------------

_PLURAL: Final = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
                  "tens", "jacks", "queens", "kings", "aces")
_SINGULAR: Final = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                    "jack", "queen", "king", "ace")
_LOW_CHARS: Final = "A" + RANKS[:-1]  # ace-low value -> rank character
_A5_TO_HIGH: Final = [12] + list(range(12))  # ace-low value -> rank index


def _fields(value: int) -> list[int]:
    return [(value >> (16 - 4 * i)) & 0xF for i in range(5)]


def _chars(ranks: Sequence[int]) -> str:
    return "-".join(RANKS[r] for r in ranks)


def _kickers(ranks: Sequence[int]) -> str:
    return f", kicker {RANKS[ranks[0]]}" if len(ranks) == 1 else f", kickers {_chars(ranks)}"


def _describe_high(cat: int, r: list[int], low: bool = False) -> str:
    if cat == HIGH_CARD:
        return f"{_chars(r)} low" if low else f"high card, {_chars(r)}"
    if cat == PAIR:
        return f"pair of {_PLURAL[r[0]]}{_kickers(r[1:4])}"
    if cat == TWO_PAIR:
        return f"two pair, {_PLURAL[r[0]]} and {_PLURAL[r[1]]}{_kickers(r[2:3])}"
    if cat == TRIPS:
        return f"three of a kind, {_PLURAL[r[0]]}{_kickers(r[1:3])}"
    if cat == STRAIGHT:
        return f"straight, {_SINGULAR[r[0]]} high"
    if cat == FLUSH:
        return f"flush, {_chars(r)}"
    if cat == FULL_HOUSE:
        return f"full house, {_PLURAL[r[0]]} over {_PLURAL[r[1]]}"
    if cat == QUADS:
        return f"four of a kind, {_PLURAL[r[0]]}{_kickers(r[1:2])}"
    return "royal flush" if r[0] == 12 and not low else f"straight flush, {_SINGULAR[r[0]]} high"


def _describe_a5(badness: int) -> str:
    cat = badness >> 20
    values = _fields(badness)
    if cat == 0:
        return "-".join(_LOW_CHARS[v] for v in values) + " low"
    ranks = [_A5_TO_HIGH[v] for v in values]
    # categories 1..5 read like the high-hand ones (pair, two pair, trips, full house, quads)
    return _describe_high((PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS)[cat - 1], ranks)


def describe(kind: str, strength: int | None) -> str:
    """Short ledger text for a strength returned by the evaluator of ``kind``.

    ``kind`` is one of ``high`` (also Omaha), ``short_deck``, ``low_eight``, ``low_a5``,
    ``low_27`` or ``badugi``. A ``None`` eight-or-better strength reads "no qualifying low".
    """
    if kind in ("low_eight", "low_a5"):
        if strength is None:
            return "no qualifying low"
        return _describe_a5(_TOP_A5 - strength)
    if kind not in ("high", "short_deck", "low_27", "badugi"):
        raise ValueError(f"unknown hand kind {kind!r}")
    if strength is None:
        raise TypeError(f"a {kind} hand always has a strength")
    if kind == "low_27":
        value = _TOP_27 - strength
        return _describe_high((value >> 20) & 0xF, _fields(value), low=True)
    if kind == "badugi":
        size, mask = strength >> 13, 0x1FFF ^ (strength & 0x1FFF)
        text = "-".join(_LOW_CHARS[v] for v in range(12, -1, -1) if mask >> v & 1)
        return f"{size}-card badugi {text}"
    return _describe_high((strength >> 20) & 0xF, _fields(strength))  # high, short_deck
