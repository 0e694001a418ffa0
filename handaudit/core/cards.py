"""Cards as small integers, so that decks, hands and evaluator tables are cheap to build.

A known card is ``rank * 4 + suit`` with ranks ``2..A`` as ``0..12`` and suits ``c d h s`` as
``0..3`` (so ``2c`` is 0 and ``As`` is 51). An unknown card (``??`` in PHH) is :data:`UNKNOWN`.
The suit order c < d < h < s is also the order stud rulebooks use for the bring-in and odd chips.
"""

from __future__ import annotations

from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
UNKNOWN: Final = -1

RANK_OF_CHAR = {ch: i for i, ch in enumerate(RANKS)}
SUIT_OF_CHAR = {ch: i for i, ch in enumerate(SUITS)}

FULL_DECK: frozenset[int] = frozenset(range(52))
# Short-deck (NS) removes the deuces to fives: ranks 0..3.
SHORT_DECK: frozenset[int] = frozenset(c for c in range(52) if c // 4 >= 4)


def rank(card: int) -> int:
    """Rank index 0 (deuce) .. 12 (ace)."""
    return card >> 2


def suit(card: int) -> int:
    """Suit index 0 (clubs) .. 3 (spades)."""
    return card & 3


_CODE_OF_TEXT = {r + s: RANK_OF_CHAR[r] * 4 + SUIT_OF_CHAR[s] for r in RANKS for s in SUITS}
_CODE_OF_TEXT["??"] = UNKNOWN

# The same codes indexed by the two characters' ordinals (ASCII: 128 * first + second), so that
# cards_from_text reads a card without making a 2-character string and hashing it (compiled,
# about a third of the cost: docs/performance.md). _NO_CARD marks the other pairs.
_NO_CARD: Final = -2
_CODE_OF_PAIR: Final = [_NO_CARD] * (128 * 128)
for _text, _code in _CODE_OF_TEXT.items():
    _CODE_OF_PAIR[ord(_text[0]) * 128 + ord(_text[1])] = _code


def card_from_text(text: str) -> int:
    """One two-character card; ``??`` is :data:`UNKNOWN`. Raises ``ValueError`` on bad notation."""
    try:
        return _CODE_OF_TEXT[text]
    except KeyError:
        raise ValueError(f"bad card {text!r}") from None


def cards_from_text(text: str) -> tuple[int, ...]:
    """Concatenated cards (``AsKd??``) as a tuple of card codes."""
    n = len(text)
    if n % 2:
        raise ValueError(f"bad card string {text!r}: odd length")
    codes: list[int] = []
    for i in range(0, n, 2):
        first = ord(text[i])
        second = ord(text[i + 1])
        code = _CODE_OF_PAIR[first * 128 + second] if first < 128 and second < 128 else _NO_CARD
        if code == _NO_CARD:
            raise ValueError(f"bad card string {text!r}")
        codes.append(code)
    return tuple(codes)


def card_text(card: int) -> str:
    """The PHH notation of one card code."""
    if card == UNKNOWN:
        return "??"
    return RANKS[card >> 2] + SUITS[card & 3]


# Each card's text by its code + 1 (UNKNOWN first), and each pair's, made on first use (53 x 53
# slots): the report writes the text of every card dealt or shown, one to four at a time, which
# is then a shared string or one concatenation (compiled, a join over a generator cost some 4,000
# instructions a call, a pair's slot a few).
_CARD_TEXTS: Final = [card_text(card) for card in range(UNKNOWN, 52)]
_PAIRS: Final[list[str | None]] = [None] * (53 * 53)


def _pair(first: int, second: int) -> str:
    slot = (first + 1) * 53 + second + 1
    text = _PAIRS[slot]
    if text is None:
        text = _PAIRS[slot] = _CARD_TEXTS[first + 1] + _CARD_TEXTS[second + 1]
    return text


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    """The PHH notation of several cards, concatenated."""
    return _text_of(cards if isinstance(cards, tuple) else tuple(cards))


def _text_of(cards: tuple[int, ...]) -> str:
    # (a tuple, not the union: compiled, its length, items and loop are native, some 500
    # instructions a call less)
    for card in cards:
        if not UNKNOWN <= card <= 51:
            return "".join([card_text(c) for c in cards])
    n = len(cards)
    if n == 2:
        return _pair(cards[0], cards[1])
    if n == 1:
        return _CARD_TEXTS[cards[0] + 1]
    if n == 3:
        return _pair(cards[0], cards[1]) + _CARD_TEXTS[cards[2] + 1]
    if n == 4:
        return _pair(cards[0], cards[1]) + _pair(cards[2], cards[3])
    return "".join([_CARD_TEXTS[card + 1] for card in cards])
