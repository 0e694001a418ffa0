"""The 11 PHH variants, and handaudit's extension variants, as data: deck, streets, dealing,
betting structure, showdown hand types.

The validator and the settlement look things up here instead of branching on variant codes.
Sources: the PHH spec's variant table (required.rst), Robert's Rules of Poker v11 sections on
each game (stud street sizes, draw games), and Robert's Rules of Poker v11, Section 4 introduction and Section 8 rule 2 (who opens each round).

PHH 1.0 has codes for 11 games only. The games sites deal beyond them (pot-limit hold'em, Omaha
hi and hi/lo in every structure, 5- and 6-card Omaha, Courchevel, 5-card draw, the draw games in
other structures) get handaudit's own codes in :data:`EXTENSION_VARIANTS`, built the way PHH
builds its codes: the structure's letter (``F`` fixed, ``P`` pot, ``N`` no limit), the game
(``T`` hold'em, ``O`` Omaha, ``5O``/``6O`` 5- and 6-card Omaha, ``C`` Courchevel, ``5CD``
5-card draw, ``2L1D``/``2L3D`` deuce-to-seven single and triple draw, ``B`` badugi) and ``/8`` for
eight-or-better hi/lo. A PHH file with one of them reads and audits like any other; PHH tools
that know only the 11 codes will refuse it (README, "Variants beyond PHH").
"""

from __future__ import annotations

from typing import ClassVar, Final

from .cards import FULL_DECK, SHORT_DECK
from .value import Value

# Betting structures
FIXED: Final = "fixed-limit"
POT: Final = "pot-limit"
NO: Final = "no-limit"

# Who opens a betting round
OPEN_BLINDS: Final = "blinds"  # first round of a button game: left of the last blind/straddle
OPEN_BUTTON: Final = "button"  # later rounds of a button game: first live player left of the button
OPEN_BRING_IN: Final = "bring-in"  # stud third street: the bring-in
OPEN_HIGH_SHOWING: Final = "high-showing"  # stud later streets: best board showing
OPEN_LOW_SHOWING: Final = "low-showing"  # razz later streets: lowest board showing

# How hole and board cards make a hand
USE_ANY: Final = "any"  # best five of all cards (hold'em, stud, draw games)
USE_OMAHA: Final = "omaha"  # exactly two hole cards and three board cards


_STREET_FIELDS = ("name", "hole_down", "hole_up", "board", "draw", "big_bet", "opener")


class Street(Value):
    """One street: what is dealt, whether there is a draw, and the betting round that follows.

    A value (handaudit/core/value.py), not a frozen dataclass: a dataclass is built by ``exec``
    of generated code at import, about 1 ms of every run's start each (docs/performance.md).
    """

    __slots__ = _STREET_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _STREET_FIELDS

    def __init__(self, name: str, hole_down: int = 0, hole_up: int = 0, board: int = 0, draw: bool = False,
                 big_bet: bool = False, opener: str = OPEN_BUTTON) -> None:
        self.name: Final = name
        self.hole_down: Final = hole_down  # cards dealt face down to each player
        self.hole_up: Final = hole_up  # cards dealt face up to each player (stud)
        self.board: Final = board  # community cards
        self.draw: Final = draw  # players discard and draw before the betting
        self.big_bet: Final = big_bet  # fixed limit: this round uses big_bet (else small_bet)
        self.opener: Final = opener


_VARIANT_FIELDS = ("code", "name", "structure", "deck", "streets", "hands", "use", "button_game", "required",
                   "phh")


class Variant(Value):
    """One variant: its code and name, betting structure, deck, streets, the hands its pots are
    shown down for, how hole and board cards combine, the fields it requires, and whether PHH 1.0
    defines it (``phh``) or it is a handaudit extension."""

    __slots__ = _VARIANT_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _VARIANT_FIELDS

    def __init__(self, code: str, name: str, structure: str, deck: frozenset[int], streets: tuple[Street, ...],
                 hands: tuple[str, ...], use: str = USE_ANY, button_game: bool = True,
                 required: tuple[str, ...] = (), phh: bool = True) -> None:
        self.code: Final = code
        self.name: Final = name
        self.structure: Final = structure
        self.deck: Final = deck
        self.streets: Final = streets
        self.hands: Final = hands  # evaluator kinds; two entries = hi/lo split ("high", "low_eight")
        self.use: Final = use
        self.button_game: Final = button_game  # blinds_or_straddles; False: antes + bring-in (stud)
        self.required: Final = required
        self.phh: Final = phh

    @property
    def hole_cards(self) -> int:
        return sum(s.hole_down + s.hole_up for s in self.streets)

    @property
    def betting_rounds(self) -> int:
        return len(self.streets)

    @property
    def hi_lo(self) -> bool:
        return len(self.hands) == 2


_BUTTON_FIXED = ("antes", "blinds_or_straddles", "small_bet", "big_bet", "starting_stacks", "actions")
_BUTTON_BIG = ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions")
_STUD = ("antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")


def _holdem(hole: int, early_board: int = 0) -> tuple[Street, ...]:
    """Hold'em and Omaha streets; ``early_board`` board cards dealt face up before the first
    betting round and the rest of the flop after it (Courchevel: the first flop card)."""
    return (
        Street("preflop", hole_down=hole, board=early_board, opener=OPEN_BLINDS),
        Street("flop", board=3 - early_board),
        Street("turn", board=1, big_bet=True),
        Street("river", board=1, big_bet=True),
    )


def _stud(later_opener: str) -> tuple[Street, ...]:
    return (
        Street("third", hole_down=2, hole_up=1, opener=OPEN_BRING_IN),
        Street("fourth", hole_up=1, opener=later_opener),
        Street("fifth", hole_up=1, big_bet=True, opener=later_opener),
        Street("sixth", hole_up=1, big_bet=True, opener=later_opener),
        Street("seventh", hole_down=1, big_bet=True, opener=later_opener),
    )


def _draw(hole: int, draws: int) -> tuple[Street, ...]:
    # Triple draw and badugi: small bets before the first draw and after it, big bets after the
    # second and third draws (Robert's Rules v11, lowball and badugi sections). A single draw in
    # fixed limit: the small bet before the draw, the big bet after it (reading: the usual limit
    # draw structure, as the sites deal it; the published texts give no fixed-limit draw high).
    first = Street("predraw", hole_down=hole, opener=OPEN_BLINDS)
    rest = tuple(
        Street(f"draw{i}", draw=True, big_bet=(draws == 1 or i >= 2)) for i in range(1, draws + 1)
    )
    return (first, *rest)


PHH_VARIANTS: Final[dict[str, Variant]] = {
    v.code: v
    for v in [
        Variant("FT", "Fixed-limit Texas hold'em", FIXED, FULL_DECK, _holdem(2), ("high",), required=_BUTTON_FIXED),
        Variant("NT", "No-limit Texas hold'em", NO, FULL_DECK, _holdem(2), ("high",), required=_BUTTON_BIG),
        Variant("NS", "No-limit short-deck hold'em", NO, SHORT_DECK, _holdem(2), ("short_deck",), required=_BUTTON_BIG),
        Variant("PO", "Pot-limit Omaha hold'em", POT, FULL_DECK, _holdem(4), ("high",), USE_OMAHA, required=_BUTTON_BIG),
        Variant("FO/8", "Fixed-limit Omaha hold'em high/low-split eight or better", FIXED, FULL_DECK, _holdem(4),
                ("high", "low_eight"), USE_OMAHA, required=_BUTTON_FIXED),
        Variant("F7S", "Fixed-limit seven card stud", FIXED, FULL_DECK, _stud(OPEN_HIGH_SHOWING), ("high",),
                button_game=False, required=_STUD),
        Variant("F7S/8", "Fixed-limit seven card stud high/low-split eight or better", FIXED, FULL_DECK,
                _stud(OPEN_HIGH_SHOWING), ("high", "low_eight"), button_game=False, required=_STUD),
        Variant("FR", "Fixed-limit razz", FIXED, FULL_DECK, _stud(OPEN_LOW_SHOWING), ("low_a5",),
                button_game=False, required=_STUD),
        Variant("N2L1D", "No-limit deuce-to-seven lowball single draw", NO, FULL_DECK, _draw(5, 1), ("low_27",),
                required=_BUTTON_BIG),
        Variant("F2L3D", "Fixed-limit deuce-to-seven lowball triple draw", FIXED, FULL_DECK, _draw(5, 3), ("low_27",),
                required=_BUTTON_FIXED),
        Variant("FB", "Fixed-limit badugi", FIXED, FULL_DECK, _draw(4, 3), ("badugi",), required=_BUTTON_FIXED),
    ]
}

_STRUCTURES: Final = ((FIXED, "F", "Fixed-limit"), (POT, "P", "Pot-limit"), (NO, "N", "No-limit"))
_HI_LO: Final = " high/low-split eight or better"


def _button_variants() -> list[Variant]:
    """Every button game in every structure: (game letters, name, streets, hands, use)."""
    games: list[tuple[str, str, tuple[Street, ...], tuple[str, ...], str]] = [
        ("T", "Texas hold'em", _holdem(2), ("high",), USE_ANY),
        ("O", "Omaha hold'em", _holdem(4), ("high",), USE_OMAHA),
        ("O/8", "Omaha hold'em" + _HI_LO, _holdem(4), ("high", "low_eight"), USE_OMAHA),
        ("5O", "five card Omaha hold'em", _holdem(5), ("high",), USE_OMAHA),
        ("5O/8", "five card Omaha hold'em" + _HI_LO, _holdem(5), ("high", "low_eight"), USE_OMAHA),
        ("6O", "six card Omaha hold'em", _holdem(6), ("high",), USE_OMAHA),
        ("6O/8", "six card Omaha hold'em" + _HI_LO, _holdem(6), ("high", "low_eight"), USE_OMAHA),
        ("C", "Courchevel", _holdem(5, early_board=1), ("high",), USE_OMAHA),
        ("C/8", "Courchevel" + _HI_LO, _holdem(5, early_board=1), ("high", "low_eight"), USE_OMAHA),
        ("5CD", "five card draw", _draw(5, 1), ("high",), USE_ANY),
        ("2L1D", "deuce-to-seven lowball single draw", _draw(5, 1), ("low_27",), USE_ANY),
        ("2L3D", "deuce-to-seven lowball triple draw", _draw(5, 3), ("low_27",), USE_ANY),
        ("B", "badugi", _draw(4, 3), ("badugi",), USE_ANY),
    ]
    out: list[Variant] = []
    for letters, name, streets, hands, use in games:
        for structure, letter, words in _STRUCTURES:
            code = letter + letters
            if code in PHH_VARIANTS:
                continue
            out.append(Variant(code, f"{words} {name}", structure, FULL_DECK, streets, hands, use,
                               required=_BUTTON_FIXED if structure == FIXED else _BUTTON_BIG, phh=False))
    return out


# handaudit's own codes for the games PHH 1.0 has none for (see the module's docstring).
EXTENSION_VARIANTS: Final[dict[str, Variant]] = {v.code: v for v in _button_variants()}

VARIANTS: Final[dict[str, Variant]] = {**PHH_VARIANTS, **EXTENSION_VARIANTS}
