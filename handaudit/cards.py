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


def card_from_text(text: str) -> int:
    """One two-character card; ``??`` is :data:`UNKNOWN`. Raises ``ValueError`` on bad notation."""
    try:
        return _CODE_OF_TEXT[text]
    except KeyError:
        raise ValueError(f"bad card {text!r}") from None


def cards_from_text(text: str) -> tuple[int, ...]:
    """Concatenated cards (``AsKd??``) as a tuple of card codes."""
    if len(text) % 2:
        raise ValueError(f"bad card string {text!r}: odd length")
    try:
        return tuple([_CODE_OF_TEXT[text[i : i + 2]] for i in range(0, len(text), 2)])
    except KeyError:
        raise ValueError(f"bad card string {text!r}") from None


def card_text(card: int) -> str:
    """The PHH notation of one card code."""
    if card == UNKNOWN:
        return "??"
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    """The PHH notation of several cards, concatenated."""
    return "".join(card_text(c) for c in cards)
