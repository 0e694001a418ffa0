"""The games PokerStars deals, as the site names them, and the lines only some games have.

The hand header names a game and a limit (``7 Card Stud Limit``, ``5 Card Omaha Hi/Lo Pot
Limit``); :func:`variant_of` turns the pair into the variant code the replay knows: PHH's own
(``F7S``, ``PO``, ...) or handaudit's extension codes for the games PHH 1.0 lacks (``PO/8``,
``P5O/8``, ``PC``, ``F5CD``, ...: README, "Variants beyond PHH"). The code is the structure's
letter and the game's letters, so every limit the site deals a game in has its code without a
row per pair.

The site's text of each family of games, as the reader (:mod:`.pokerstars`) reads it:

* board games (hold'em, Omaha, Courchevel): ``*** HOLE CARDS ***``, ``*** FLOP ***`` ...; in
  Courchevel the first flop card is dealt face up before the first betting round, and the
  flop line repeats it (``*** FLOP *** [Ah] [7d Kc]``);
* stud (7 card stud, stud hi/lo, razz): no button; antes (``posts the ante``), the bring-in
  (``brings in for $0.05``), a completion (``completes it to $0.10``, or in older logs
  ``raises $0.05 to $0.10``); ``*** 3rd STREET ***`` .. ``*** 6th STREET ***`` and ``***
  RIVER ***`` (seventh street); each street's up cards on ``Dealt to NAME [old] [new]`` lines
  (the player's own hand in full: ``Dealt to Hero [9s 9h 3c]``), seventh street's down card
  only to its owner;
* draw games (2-7 single and triple draw, badugi, 5-card draw): ``*** DEALING HANDS ***``, then
  ``*** FIRST DRAW ***`` .. ``*** THIRD DRAW ***`` (triple draw, badugi); a single draw has no
  marker: its draw begins at the first ``discards`` or ``stands pat`` line. ``NAME: discards 2
  cards`` (the owner's log names them: ``discards 2 cards [9s Kd]``, then ``Dealt to NAME [kept]
  [new]``), ``NAME: stands pat``.
"""

from __future__ import annotations

from typing import Final

from ..core.variants import VARIANTS

BOARD: Final = "board"
STUD: Final = "stud"
DRAW: Final = "draw"

# The game as the header names it -> the variant code's game letters (core/variants.py).
GAME_LETTERS: Final[dict[str, str]] = {
    "Hold'em": "T", "Omaha": "O", "Omaha Hi/Lo": "O/8",
    "5 Card Omaha": "5O", "Omaha 5 Cards": "5O", "5 Card Omaha Hi/Lo": "5O/8",
    "6 Card Omaha": "6O", "Omaha 6 Cards": "6O", "6 Card Omaha Hi/Lo": "6O/8",
    "Courchevel": "C", "Courchevel Hi/Lo": "C/8",
    "7 Card Stud": "7S", "7 Card Stud Hi/Lo": "7S/8", "Razz": "R",
    "5 Card Draw": "5CD", "Single Draw 2-7 Lowball": "2L1D", "Triple Draw 2-7 Lowball": "2L3D", "Badugi": "B",
}
# The header's limit words -> the structure's letter.
LIMIT_LETTER: Final[dict[str, str]] = {"Limit": "F", "Fixed Limit": "F", "Pot Limit": "P", "No Limit": "N"}
# The header's game alternatives, longest first (a regular expression takes the first that matches).
GAME_NAMES: Final = tuple(sorted(GAME_LETTERS, key=len, reverse=True))
LIMIT_NAMES: Final = tuple(sorted(LIMIT_LETTER, key=len, reverse=True))


def variant_of(game: str, limit: str) -> str | None:
    """The variant code of the site's game and limit, None when there is none (stud is dealt in
    fixed limit only: ``7 Card Stud Pot Limit`` has no code)."""
    letters = GAME_LETTERS.get(game)
    letter = LIMIT_LETTER.get(limit)
    if letters is None or letter is None:
        return None
    code = letter + letters
    return code if code in VARIANTS else None


def _family_of(variant: str) -> str:
    v = VARIANTS[variant]
    if not v.button_game:
        return STUD
    if any(st.draw for st in v.streets):
        return DRAW
    return BOARD


# Looked up once a hand (dicts, not the variant's streets walked each time).
_FAMILY: Final[dict[str, str]] = {code: _family_of(code) for code in VARIANTS}
_HOLE: Final[dict[str, int]] = {code: v.streets[0].hole_down + v.streets[0].hole_up for code, v in VARIANTS.items()}
_EARLY: Final[dict[str, int]] = {code: v.streets[0].board for code, v in VARIANTS.items()}


def family(variant: str) -> str:
    """BOARD, STUD or DRAW: which of the site's texts the variant's hands are written in."""
    return _FAMILY[variant]


def hole_cards(variant: str) -> int:
    """Cards dealt to each player before the first betting round (stud: two down, one up)."""
    return _HOLE[variant]


def early_board(variant: str) -> int:
    """Board cards dealt before the first betting round (Courchevel: 1)."""
    return _EARLY[variant]


# Street markers (the words between ``*** `` and `` ***``) -> the street's index in the
# variant's streets (core/variants.py), by family. The first street's marker starts the deal.
STREET_OF_MARKER: Final[dict[str, dict[str, int]]] = {
    BOARD: {"HOLE CARDS": 0, "FLOP": 1, "TURN": 2, "RIVER": 3},
    STUD: {"3rd STREET": 0, "4th STREET": 1, "5th STREET": 2, "6th STREET": 3, "RIVER": 4, "7th STREET": 4},
    DRAW: {"DEALING HANDS": 0, "HOLE CARDS": 0, "PRE-DRAW": 0, "FIRST DRAW": 1, "DRAW": 1, "SECOND DRAW": 2,
           "THIRD DRAW": 3},
}
# Every marker any game writes (the reader's test of a street line).
MARKERS: Final = frozenset(m for table in STREET_OF_MARKER.values() for m in table)


def brackets(text: str) -> list[str]:
    """The contents of each ``[...]`` group of ``text``, in order: ``"[Kd 7h] [Kc]"`` ->
    ``["Kd 7h", "Kc"]``."""
    out: list[str] = []
    at = text.find("[")
    while at >= 0:
        end = text.find("]", at)
        if end < 0:
            break
        out.append(text[at + 1:end].strip())
        at = text.find("[", end)
    return out


# Draw lines, by the words after ``NAME: ``.
DISCARDS: Final = "discards "
STANDS_PAT: Final = "stands pat"
BRINGS_IN: Final = ("brings in for ", "brings-in for ", "brings in low for ")
COMPLETES: Final = "completes it to "


def discard(rest: str) -> tuple[int, str] | None:
    """``"discards 2 cards [9s Kd]"`` -> ``(2, "9s Kd")``; ``"discards 1 card"`` -> ``(1, "")``;
    ``"stands pat"`` (with or without the cards kept) -> ``(0, "")``; None for any other words."""
    if rest.startswith(STANDS_PAT):
        return 0, ""
    if not rest.startswith(DISCARDS):
        return None
    words = rest[len(DISCARDS):].split(" ", 2)
    if len(words) < 2 or not words[0].isdigit() or words[1] not in ("card", "cards"):
        return None
    count = int(words[0])
    tail = words[2] if len(words) > 2 else ""
    if tail and not (tail.startswith("[") and tail.rstrip().endswith("]")):
        return None
    cards = brackets(tail)
    return count, cards[0] if cards else ""


def bring_in(rest: str) -> str | None:
    """``"brings in for $0.05"`` (``and is all-in`` too) -> ``"$0.05"``; None otherwise."""
    for words in BRINGS_IN:
        if rest.startswith(words):
            amount = rest[len(words):].strip()
            if amount.endswith(" and is all-in"):
                amount = amount[:-len(" and is all-in")]
            return amount or None
    return None


def completes(rest: str) -> str | None:
    """``"completes it to $0.10"`` (``and is all-in`` too) -> ``"$0.10"``; None otherwise."""
    if not rest.startswith(COMPLETES):
        return None
    amount = rest[len(COMPLETES):].strip()
    if amount.endswith(" and is all-in"):
        amount = amount[:-len(" and is all-in")]
    return amount or None
