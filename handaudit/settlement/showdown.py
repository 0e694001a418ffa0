"""Who wins each pot, and how a split pot is divided to the chip.

For each pot (:mod:`.pots`), the *contenders* are its eligible players (not folded, reached
the pot's level) minus those who mucked at showdown. Then:

* one contender (everyone else folded or mucked): the pot is theirs. In a hi/lo game that went
  to showdown with the contender's cards known, it is still awarded as a high half and a low
  half when the contender has a qualifying low (how PokerKit records it; the chips are the same);
* otherwise the hands are compared with :mod:`.evaluators`: hold'em and stud use the best five
  of all the player's cards and the board, Omaha exactly two hole and three board cards, draw
  games the five (badugi four) cards held at the end;
* hi/lo (FO/8, F7S/8): the pot is halved only when some contender has a qualifying
  eight-or-better low; the odd chip of an odd pot goes to the high half, and each half is split
  on its own among the best hands for it. With no qualifying low the best high hand scoops.

A pot or half that several hands tie for is split at the hand's smallest unit; the ``r``
leftover units go one each to the first ``r`` winners (nobody gets two):

* button games: in seat order starting left of the button. PHH lists the players from the
  first seat left of the button (p1 is the small blind), so that is the lowest index first;
* stud games: to the highest card by suit (spades > hearts > diamonds > clubs) for a high hand,
  the lowest card by suit for a low hand (Robert's Rules v11, "Ties"); the rulebook parameter
  ``odd_chip_stud`` says which cards count: ``all-cards`` (Robert's: all the player's cards) or
  ``hand-cards`` (WSOP: only the five cards of the hand);
* button games under ``odd_chip_button = "high-card-by-suit"``: as in stud, by the highest
  (lowest, low hand) card by suit among the player's own hole cards (reading: the board is
  shared by all, so it cannot break the tie); tied cards keep seat order.

A pot is *undetermined* (no awards) when the hand is incomplete or a contender's cards are
unknown (``??``) or cannot form a hand; the pots themselves are still exact.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import ClassVar, Final

from ..core.cards import UNKNOWN
from ..core.value import Value
from ..core.variants import USE_OMAHA, Variant
from ..rules.params import HIGH_CARD_BY_SUIT
from ..rules.rulebook import Rulebook
from . import evaluators as E

WHOLE: Final = "whole"
HIGH: Final = "high"
LOW: Final = "low"

_HOLE_CARDS: Final = "hole-cards"  # odd_chip_button = high-card-by-suit: by the player's own cards
_SEAT_ORDER: Final = "seat-order"  # odd_chip_button = first-left-of-button
_LOW_KINDS: Final = frozenset(("low_eight", "low_a5"))  # ace-low kinds: odd chip to the lowest card


_AWARD_FIELDS: Final = ("player", "amount", "share", "kind", "strength")


class Award(Value):
    """Chips of one pot (or half) paid to one player. ``kind``/``strength``: the hand that won
    it (None when uncontested); :attr:`hand` is its text. (A value, see
    :class:`~handaudit.core.value.Value`: compiled, its constructor stays native, where a named
    tuple's runs interpreted.)"""

    __slots__ = _AWARD_FIELDS  # pure Python; compiled, the class is a native (C) layout anyway
    FIELDS: ClassVar[tuple[str, ...]] = _AWARD_FIELDS

    def __init__(self, player: int, amount: int, share: str = WHOLE, kind: str | None = None,
                 strength: int | None = None) -> None:
        self.player: Final = player
        self.amount: Final = amount
        self.share: Final = share
        self.kind: Final = kind
        self.strength: Final = strength

    @property
    def hand(self) -> str | None:
        if self.kind is None or self.strength is None:
            return None
        return E.describe(self.kind, self.strength)


_POT_FIELDS: Final = ("amount", "eligible", "awards", "contenders", "hands", "reason", "determined", "odd_chips",
                      "order")


class Pot(Value):
    """One pot: amount, eligible players (0-based), awards, and why.

    ``contenders``: eligible players who did not muck. ``hands``: the hands compared, as
    ``(player, kind, strength)`` (strength None: no qualifying low). ``reason``: one line for
    the ledger (who won and why, or why it is undetermined). ``odd_chips``: the players who got
    an odd chip of a tie, in the order given. ``order``: per share (whole, or high then low), its
    winners in odd-chip order, so that any other amount (the pot after rake) is split the same
    way (:func:`split_like`). (A value, like :class:`Award`.)
    """

    __slots__ = _POT_FIELDS  # pure Python; compiled, the class is a native (C) layout anyway
    FIELDS: ClassVar[tuple[str, ...]] = _POT_FIELDS

    def __init__(self, amount: int, eligible: tuple[int, ...], awards: tuple[Award, ...] = (),
                 contenders: tuple[int, ...] = (), hands: tuple[tuple[int, str, int | None], ...] = (),
                 reason: str = "", determined: bool = True, odd_chips: tuple[int, ...] = (),
                 order: tuple[tuple[str, tuple[int, ...]], ...] = ()) -> None:
        self.amount: Final = amount
        self.eligible: Final = eligible
        self.awards: Final = awards
        self.contenders: Final = contenders
        self.hands: Final = hands
        self.reason: Final = reason
        self.determined: Final = determined
        self.odd_chips: Final = odd_chips
        self.order: Final = order


# what :func:`strength` returns for a hand it cannot evaluate (every real strength is >= 0)
UNKNOWN_HAND: Final = -1
_NOT_EVALUATED: Final = -2  # (the showdown's cache of strengths, below)


def strength(kind: str, use: str, hole: tuple[int, ...], board: tuple[int, ...],
             trips_beat_straight: bool = False) -> int | None:
    """The evaluator strength of a player's hand for ``kind``; None for no qualifying low;
    :data:`UNKNOWN_HAND` when a card is unknown or the cards cannot make a hand."""
    if UNKNOWN in hole or UNKNOWN in board:
        return UNKNOWN_HAND
    try:
        if use == USE_OMAHA:
            if kind == "high":
                return E.high_omaha(hole, board)
            if kind == "low_eight":
                return E.low_eight_omaha(hole, board)
        cards = hole + board if board else hole
        if kind == "high":
            return E.high_best(cards)
        if kind == "short_deck":
            return E.short_deck_best(cards, trips_beat_straight)
        if kind == "low_eight":
            if len(cards) < 5:
                return UNKNOWN_HAND
            return E.low_eight_best(cards)
        if kind == "low_a5":
            return E.low_a5_best(cards)
        if kind == "low_27":
            return E.low_27_best(cards)
        if kind == "badugi":
            return E.badugi_best(cards)
    except (ValueError, KeyError, IndexError, TypeError):
        return UNKNOWN_HAND
    return UNKNOWN_HAND


def split(amount: int, winners: list[int]) -> list[int]:
    """``amount`` split among ``winners`` (already in odd-chip order): the first ``r`` get one
    more unit. 14 three ways is 5, 5, 4."""
    q, r = divmod(amount, len(winners))
    return [q + 1 if k < r else q for k in range(len(winners))]


def share_of(pot: Pot, player: int, amount: int) -> int:
    """What ``player`` gets of ``amount`` split like ``pot`` (its shares, its odd-chip order):
    a hi/lo pot's high half is ``amount - amount // 2``, each share is split as :func:`split`."""
    got = 0
    halves = len(pot.order) == 2
    for share, winners in pot.order:
        part = amount if not halves else (amount - amount // 2 if share == HIGH else amount // 2)
        for k in range(len(winners)):
            if winners[k] == player:
                q, r = divmod(part, len(winners))
                got += q + 1 if k < r else q
    return got


def split_like(pot: Pot, amount: int) -> dict[int, int]:
    """``amount`` (the pot after its rake) split among the pot's winners as the pot was."""
    out: dict[int, int] = {}
    for _, winners in pot.order:
        for p in winners:
            if p not in out:
                out[p] = share_of(pot, p, amount)
    return out


def _card_key_high(card: int) -> int:
    return card  # rank * 4 + suit: higher rank first, then s > h > d > c


def _card_key_low(card: int) -> int:
    # ace-low rank, then suit (clubs lowest): smaller is "lower"
    r = card >> 2
    return ((0 if r == 12 else r + 1) << 2) | (card & 3)


def _stud_order(winners: list[int], kind: str, strengths: dict[int, int],
                cards_of: Callable[[int], tuple[int, ...]], mode: str) -> list[int]:
    """Order tied stud winners for the odd chip: highest (lowest, in a low game) card by suit."""
    low = kind in _LOW_KINDS
    keyf = _card_key_low if low else _card_key_high

    def best_card(p: int) -> int:
        cards = cards_of(p)
        if mode == "hand-cards" and len(cards) > 5:
            target = strengths[p]
            chosen: int | None = None
            for sub in combinations(cards, 5):
                if strength(kind, "any", sub, ()) == target:
                    k = min(map(keyf, sub)) if low else max(map(keyf, sub))
                    if chosen is None or (k < chosen if low else k > chosen):
                        chosen = k
            if chosen is not None:
                return chosen
        return min(map(keyf, cards)) if low else max(map(keyf, cards))

    keys = {p: best_card(p) for p in winners}
    return sorted(winners, key=lambda p: keys[p], reverse=not low)


class _Hands:
    """The players' hands at showdown, each evaluated once per kind (made only for a pot that
    compares hands: a plain class, not closures, whose shared frame would be built on every call)."""

    def __init__(self, hole: tuple[tuple[int, ...], ...], board: tuple[int, ...], use: str,
                 rulebook: Rulebook) -> None:
        self.hole = hole
        self.board = board
        self.use = use
        self.trips_beat_straight = rulebook.short_deck_trips_beat_straight
        # kind -> strength by player (_NOT_EVALUATED until asked for): no (player, kind) key
        # tuple to make per look-up
        self.strengths: dict[str, list[int | None]] = {}

    def value(self, p: int, kind: str) -> int | None:
        strengths = self.strengths.get(kind)
        if strengths is None:
            strengths = [_NOT_EVALUATED] * len(self.hole)
            self.strengths[kind] = strengths
        v = strengths[p]
        if v is not None and v == _NOT_EVALUATED:
            v = strength(kind, self.use, self.hole[p], self.board, self.trips_beat_straight)
            strengths[p] = v
        return v

    def cards_of(self, p: int) -> tuple[int, ...]:
        return self.hole[p] + self.board

    def hole_of(self, p: int) -> tuple[int, ...]:
        return self.hole[p]


def award_pots(variant: Variant | None, rulebook: Rulebook, complete: bool, showdown: bool,
               folded: tuple[bool, ...], shown: tuple[bool | None, ...],
               hole: tuple[tuple[int, ...], ...], board: tuple[int, ...],
               pots: list[tuple[int, tuple[int, ...]]]) -> tuple[list[Pot], bool]:
    """Award every pot. ``pots`` as :func:`.pots.build_pots` returns them (without detail).

    Returns ``(pots, determined)``.
    """
    out: list[Pot] = []
    if not complete:
        for amount, eligible in pots:
            out.append(Pot(amount, eligible, (), eligible, (), "undetermined: the history stops "
                           "before the hand is over", False))
        return out, False

    determined = True
    hi_lo = variant is not None and len(variant.hands) == 2
    kinds: tuple[str, ...] = variant.hands if variant is not None else ()
    use: str = variant.use if variant is not None else "any"
    stud = variant is not None and not variant.button_game
    odd_mode: str | None = None
    hands_at: _Hands | None = None  # made for the first pot whose hands are looked at

    odd_rule: str | None = None  # the odd-chip rule text, made only when a tie leaves odd chips

    for amount, eligible in pots:
        if not eligible:
            out.append(Pot(amount, eligible, (), (), (), "undetermined: nobody is eligible", False))
            determined = False
            continue
        if showdown:
            contenders = tuple([p for p in eligible if shown[p] is not False])
        else:
            contenders = eligible
        if not contenders:
            out.append(Pot(amount, eligible, (), (), (), "undetermined: every eligible player mucked",
                           False))
            determined = False
            continue

        if len(contenders) == 1:
            p = contenders[0]
            others = [q for q in eligible if q != p]
            why = ("everyone else folded" if not others else
                   "the other eligible players mucked: " + ", ".join(f"p{q + 1}" for q in others))
            if hi_lo and showdown:
                if hands_at is None:
                    hands_at = _Hands(hole, board, use, rulebook)
                hv = hands_at.value(p, kinds[0])
                lv = hands_at.value(p, kinds[1])
                if hv != UNKNOWN_HAND and lv != UNKNOWN_HAND and lv is not None:
                    high = amount - amount // 2
                    out.append(Pot(amount, eligible, (
                        Award(p, high, HIGH, kinds[0], hv), Award(p, amount - high, LOW, kinds[1], lv)),
                        contenders, ((p, kinds[0], hv), (p, kinds[1], lv)),
                        f"p{p + 1} uncontested ({why}); high and low halves", True, (),
                        ((HIGH, (p,)), (LOW, (p,)))))
                    continue
            out.append(Pot(amount, eligible, (Award(p, amount),), contenders, (),
                           f"p{p + 1} uncontested ({why})", True, (), ((WHOLE, (p,)),)))
            continue

        # a real comparison
        main_kind = kinds[0] if kinds else None
        if main_kind is None:
            out.append(Pot(amount, eligible, (), contenders, (), "undetermined: unknown variant", False))
            determined = False
            continue
        if hands_at is None:
            hands_at = _Hands(hole, board, use, rulebook)
        if odd_mode is None:
            # button games under high-card-by-suit: as in stud, among the player's own (hole)
            # cards; reading: the board is shared, so its cards cannot break a tie
            odd_mode = rulebook.odd_chip_stud if stud else (
                _HOLE_CARDS if rulebook.odd_chip_button == HIGH_CARD_BY_SUIT else _SEAT_ORDER)
        order_mode = None if odd_mode == _SEAT_ORDER else odd_mode
        cards_of = hands_at.cards_of if stud else hands_at.hole_of
        highs: list[int] = []
        unknown: list[int] = []
        for p in contenders:
            hv = hands_at.value(p, main_kind)
            if hv is None or hv == UNKNOWN_HAND:  # (None, "no qualifying low", is never a main kind's)
                unknown.append(p)
            else:
                highs.append(hv)
        # The zips over contenders below are plain (noqa: B905): mypyc compiles only a plain zip
        # into a loop (with strict=True it iterates a generic zip object, a cost per pot), and
        # lows has one value per contender, as highs has once no hand is unknown (asserted).
        lows = [hands_at.value(p, kinds[1]) for p in contenders] if hi_lo else None
        if lows is not None:
            unknown += [p for p, v in zip(contenders, lows) if v == UNKNOWN_HAND and p not in unknown]  # noqa: B905
        if unknown:
            out.append(Pot(amount, eligible, (), contenders, (),
                           "undetermined: hand unknown for " + ", ".join(f"p{p + 1}" for p in unknown),
                           False))
            determined = False
            continue

        assert len(highs) == len(contenders)
        hands: list[tuple[int, str, int | None]] = [(p, main_kind, v) for p, v in zip(contenders, highs)]  # noqa: B905
        awards: list[Award] = []
        odd: list[int] = []
        order: list[tuple[str, tuple[int, ...]]] = []
        if lows is not None and any(v is not None for v in lows):
            qualifying = True
            hands += [(p, kinds[1], v) for p, v in zip(contenders, lows)]  # noqa: B905
            high_amount = amount - amount // 2
            _split_share(awards, odd, order, high_amount, HIGH, main_kind, contenders, highs, order_mode, cards_of)
            low_contenders = tuple([p for p, v in zip(contenders, lows) if v is not None])  # noqa: B905
            low_values = [v for v in lows if v is not None]
            _split_share(awards, odd, order, amount - high_amount, LOW, kinds[1], low_contenders, low_values,
                         order_mode, cards_of)
            reason = "high and low halves" + ("; the odd chip of the pot goes to the high half"
                                              if amount % 2 else "")
        else:
            qualifying = False
            _split_share(awards, odd, order, amount, WHOLE, main_kind, contenders, highs, order_mode, cards_of)
            reason = "no qualifying low: the high hand scoops" if lows is not None else "best hand"
        if len(awards) > (2 if qualifying else 1):
            reason += "; tied hands split the chips evenly"
        if odd:
            if odd_rule is None:
                odd_rule = _odd_chip_rule(rulebook, order_mode)
            by_share: dict[str, list[str]] = {}
            for a in awards:
                if a.player in odd:
                    same = [b.amount for b in awards if b.share == a.share]
                    if a.amount > min(same):
                        by_share.setdefault(a.share, []).append(f"p{a.player + 1}")
            reason += "; odd chips: " + "; ".join(
                (f"{share} half " if share != WHOLE else "") + "to " + ", ".join(ps)
                for share, ps in by_share.items()) + f" ({odd_rule})"
        out.append(Pot(amount, eligible, tuple(awards), contenders, tuple(hands), reason, True, tuple(odd),
                       tuple(order)))
    return out, determined


def _odd_chip_rule(rulebook: Rulebook, order_mode: str | None) -> str:
    if order_mode is None:
        text = "first seat left of the button"
        src = rulebook.sources.get("odd_chip_button")
    elif order_mode == _HOLE_CARDS:
        text = "highest (low hand: lowest) card by suit among the player's own cards"
        src = rulebook.sources.get("odd_chip_button")
    else:
        text = ("highest (low hand: lowest) card by suit, "
                + ("all the player's cards" if order_mode == "all-cards" else "the five cards of the hand"))
        src = rulebook.sources.get("odd_chip_stud")
    return f"{text}; {src}" if src else text


def _split_share(awards: list[Award], odd: list[int], order: list[tuple[str, tuple[int, ...]]], amount: int,
                 share: str, kind: str, players: tuple[int, ...], values: list[int], order_mode: str | None,
                 cards_of: Callable[[int], tuple[int, ...]]) -> None:
    """Award one share (the whole pot, or a half) to its best hands; ``order`` gets the
    winners in odd-chip order, worked out for every tie (a raked amount may leave odd chips
    where the pot left none)."""
    # loops, not max() of a list and zip(): compiled, those are generic calls
    best = values[0]
    for v in values:
        best = max(best, v)
    winners: list[int] = []
    for k in range(len(values)):
        if values[k] == best:
            winners.append(players[k])
    if len(winners) == 1:
        awards.append(Award(winners[0], amount, share, kind, best))
        order.append((share, (winners[0],)))
        return
    if order_mode is not None:
        strengths = {p: best for p in winners}
        ordered = _stud_order(winners, kind, strengths, cards_of, order_mode)
    else:
        ordered = winners  # seat order: left of the button first
    order.append((share, tuple(ordered)))
    amounts = split(amount, ordered)
    r = amount % len(winners)
    odd.extend(ordered[:r])
    by_player = dict(zip(ordered, amounts, strict=True))
    for p in winners:  # awards listed in seat order
        awards.append(Award(p, by_player[p], share, kind, best))
