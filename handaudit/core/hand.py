"""The values that flow between the rooms: a parsed action and a read hand.

Both are immutable. Amounts are integers of the hand's smallest unit (``10 ** -scale`` of the
currency or chip); :func:`format_amount` prints them back exactly.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from .amounts import format_amount
from .value import Value

# Action kinds (the second word of the PHH notation, spelled out).
DEAL_BOARD: Final = "db"  # d db CARDS
DEAL_HOLE: Final = "dh"  # d dh pN CARDS
BRING_IN: Final = "pb"  # pN pb
BET_RAISE: Final = "cbr"  # pN cbr AMOUNT  (complete, bet or raise to AMOUNT)
CHECK_CALL: Final = "cc"  # pN cc
FOLD: Final = "f"  # pN f
DISCARD: Final = "sd"  # pN sd [CARDS]   (no cards: stand pat)
SHOW_MUCK: Final = "sm"  # pN sm [CARDS | -]  (no cards: muck; '-': the cards already dealt)
NOOP: Final = "noop"  # '', whitespace, or '# commentary' only


_ACTION_FIELDS: Final = ("kind", "player", "cards", "amount", "commentary", "show_dash")


class Action(Value):
    """One entry of the ``actions`` array, parsed.

    ``player`` is the 0-based player the action concerns: the actor for player actions, the
    player dealt to for ``d dh``; None for board deals and no-ops. ``cards`` is None when the
    notation has no card argument; ``show_dash`` is True for ``sm -``. ``amount`` (``cbr`` only)
    is in the hand's minor units once the reader has scaled it.

    A value: compared, hashed, pickled and printed by its fields, never changed once made. A
    plain class rather than a named tuple: hands are made of millions of these, and compiled
    (setup.py) one is built natively, where a named tuple's constructor stays interpreted.
    """

    __slots__ = _ACTION_FIELDS  # pure Python; compiled, the class is a native (C) layout anyway
    FIELDS: ClassVar[tuple[str, ...]] = _ACTION_FIELDS

    def __init__(self, kind: str, player: int | None = None, cards: tuple[int, ...] | None = None,
                 amount: int | None = None, commentary: str | None = None, show_dash: bool = False) -> None:
        self.kind: Final = kind
        self.player: Final = player
        self.cards: Final = cards
        self.amount: Final = amount
        self.commentary: Final = commentary
        self.show_dash: Final = show_dash

    @property
    def by_dealer(self) -> bool:
        return self.kind in (DEAL_BOARD, DEAL_HOLE)

    @property
    def actor(self) -> str | None:
        """The contract's actor name: ``"d"``, ``"p3"`` or None for a no-op."""
        player = self.player
        if self.kind == NOOP:
            return None
        if self.by_dealer:
            return "d"
        return None if player is None else f"p{player + 1}"  # the grammar gives every other kind a player


_HAND_FIELDS: Final = ("source", "hand_key", "variant", "players", "scale", "antes", "blinds_or_straddles",
                       "bring_in", "small_bet", "big_bet", "min_bet", "starting_stacks", "actions", "action_texts",
                       "ante_trimming_status", "finishing_stacks", "winnings", "hand", "fields", "text", "line")


class Hand(Value):
    """A hand as read from its PHH text, with amounts as exact integers.

    Per-player tuples are in PHH player order. ``starting_stacks`` entries are None for ``inf``
    (an unknown stack). ``fields`` keeps every TOML value as read (for unknown and user fields);
    ``text`` is the hand's original text, kept so that clean subsets can be written unchanged.

    A value (:class:`~handaudit.core.value.Value`: set-once attributes; compared, printed and
    pickled by its fields, in :data:`FIELDS` order; hashing fails, as the ``fields`` dict cannot
    be hashed). Not a frozen dataclass: the reader builds one per hand, and compiled (setup.py) a
    plain class is built natively, while a dataclass's generated ``__init__`` stays interpreted
    (docs/performance.md).
    """

    __slots__ = _HAND_FIELDS  # pure Python; compiled, the class is a native (C) layout anyway
    FIELDS: ClassVar[tuple[str, ...]] = _HAND_FIELDS

    def __init__(self, source: str, hand_key: str, variant: str, players: int, scale: int,
                 antes: tuple[int, ...], blinds_or_straddles: tuple[int, ...], bring_in: int | None,
                 small_bet: int | None, big_bet: int | None, min_bet: int | None,
                 starting_stacks: tuple[int | None, ...], actions: tuple[Action, ...], action_texts: tuple[str, ...],
                 ante_trimming_status: bool | None = None, finishing_stacks: tuple[int, ...] | None = None,
                 winnings: tuple[int, ...] | None = None, hand: Any = None, fields: dict | None = None,
                 text: str = "", line: int = 1) -> None:
        self.source: Final = source
        self.hand_key: Final = hand_key
        self.variant: Final = variant
        self.players: Final = players
        self.scale: Final = scale
        self.antes: Final = antes
        self.blinds_or_straddles: Final = blinds_or_straddles
        self.bring_in: Final = bring_in
        self.small_bet: Final = small_bet
        self.big_bet: Final = big_bet
        self.min_bet: Final = min_bet
        self.starting_stacks: Final = starting_stacks
        self.actions: Final = actions
        self.action_texts: Final = action_texts
        self.ante_trimming_status: Final = ante_trimming_status
        self.finishing_stacks: Final = finishing_stacks
        self.winnings: Final = winnings
        self.hand: Final = hand
        self.fields: Final[dict] = {} if fields is None else fields
        self.text: Final = text
        self.line: Final = line

    def format_amount(self, amount: int | None) -> str | None:
        return format_amount(amount, self.scale)
