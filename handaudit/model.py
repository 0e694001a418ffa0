"""The values that flow between the rooms: a parsed action and a read hand.

Both are immutable. Amounts are integers of the hand's smallest unit (``10 ** -scale`` of the
currency or chip); :func:`format_amount` prints them back exactly.
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Any, ClassVar, Final

from .findings import Finding
from .jsonobjects import JSONObject, JSONShape  # noqa: F401  (re-exported: the JSON of hands and settlements)
from .values import Value

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
    (setup.py) one is built in about 70 ns, against 600 for a named tuple, whose constructor
    stays interpreted.
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

    A value (:class:`~handaudit.values.Value`: set-once attributes; compared, printed and
    pickled by its fields, in :data:`FIELDS` order; hashing fails, as the ``fields`` dict cannot
    be hashed). Not a frozen dataclass: the reader builds one per hand, and compiled (setup.py) a
    plain class is built natively, while a dataclass's generated ``__init__`` stays interpreted
    (some 30,000 instructions a hand).
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


def format_amount(amount: int | None, scale: int) -> str | None:
    """Minor units back to an exact decimal string: ``(2685, 2) -> '26.85'`` (None stays None)."""
    if amount is None:
        return None
    return amount_text(amount, scale)


# Unlimited precision: scaleb under the default context (28 digits) would round long amounts.
_EXACT: Final = decimal.Context(prec=decimal.MAX_PREC)


class JSONNumber:
    """An exact decimal already in its JSON text (``26.85``): the JSONL writer copies it as is.

    Making and then formatting a Decimal costs some thousand instructions per amount; handaudit's
    own writer asks :func:`amount_json` for this instead (about 25 amounts a hand).
    """

    def __init__(self, text: str) -> None:
        self.text: Final = text
        # The text as written where it stands: alone, first in a list, later in a list. One
        # piece instead of two in the writer's join (JSONNumbers are shared, see json_number).
        # Typed variable-length so that mypyc keeps it a tuple object (indexed without boxing).
        self.forms: Final[tuple[str, ...]] = (text, "[" + text, "," + text)

    def __repr__(self) -> str:
        return f"JSONNumber({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSONNumber) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


def amount_json(amount: int | None, scale: int, text: bool = False) -> int | Decimal | JSONNumber | None:
    """An amount for JSON: an int at scale 0, else an exact Decimal (written without rounding).

    ``text``: a :class:`JSONNumber` instead of the Decimal, the same number (for the JSONL writer).
    """
    if amount is None:
        return None
    if scale == 0:
        return amount
    if text:
        return json_number(amount, scale)
    return Decimal(amount).scaleb(-scale, _EXACT)


def amounts_json(values: tuple[int | None, ...], scale: int, text: bool = False) -> list[object]:
    """``[amount_json(v, scale, text) for v in values]``, choosing by scale once per list.

    At scale 0 the list holds the tuple's own ints (a C-level copy, where a call per amount
    costs ~250 instructions); with ``text`` each amount is looked up in its scale's cache directly.
    """
    if scale == 0:
        return list(values)
    if not text or scale >= 16:
        return [amount_json(v, scale, text) for v in values]
    numbers = _NUMBERS[scale]
    items: tuple[object, ...] = values  # objects: looked up without unboxing and boxing each int again
    out: list[object] = [None] * len(items)
    for k in range(len(items)):
        v = items[k]
        number = numbers.get(v)  # None for None
        if number is None and isinstance(v, int):
            number = json_number(v, scale)
        out[k] = number
    return out


# JSONNumbers made so far, one dict per scale: amounts repeat (zeros, blinds, stacks), and a
# cached number costs a dict lookup where formatting one costs some 1,500 instructions.
_NUMBERS: Final[list[dict[object, JSONNumber]]] = [{} for _ in range(16)]
_MAX_NUMBERS: Final = 8192  # per scale; a full dict starts again


def json_number(amount: int, scale: int) -> JSONNumber:
    """The :class:`JSONNumber` of ``amount`` at ``scale`` (> 0), shared between equal amounts."""
    if scale >= 16:
        return JSONNumber(amount_text(amount, scale))
    numbers = _NUMBERS[scale]
    number = numbers.get(amount)
    if number is None:
        if len(numbers) >= _MAX_NUMBERS:
            numbers.clear()
        number = JSONNumber(amount_text(amount, scale))
        numbers[amount] = number
    return number


def amount_text(amount: int, scale: int) -> str:
    """``format(amount_json(amount, scale), "f")`` from the int's digits: ``(-5, 2) -> '-0.05'``
    (``scale`` >= 0, as the reader makes it).

    The one formatting of an amount (:func:`format_amount`, JSONNumbers): slicing the digits
    costs a fraction of ``divmod`` by ``10**scale`` and a nested format spec (~8,000 instructions)."""
    if scale == 0:
        return str(amount)
    digits = str(-amount if amount < 0 else amount)
    cut = len(digits) - scale
    if cut <= 0:
        digits = "0" * (1 - cut) + digits
        cut = 1
    if amount < 0:
        return f"-{digits[:cut]}.{digits[cut:]}"
    return f"{digits[:cut]}.{digits[cut:]}"


_READ_RESULT_FIELDS: Final = ("source", "hand_key", "hand", "findings", "text", "line")


class ReadResult(Value):
    """What the reader hands on for one input hand: the Hand (None when unreadable) and findings.

    A value (see :class:`~handaudit.values.Value`), built once per hand.
    """

    __slots__ = _READ_RESULT_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _READ_RESULT_FIELDS

    def __init__(self, source: str, hand_key: str, hand: Hand | None, findings: tuple[Finding, ...],
                 text: str = "", line: int = 1) -> None:
        self.source: Final = source
        self.hand_key: Final = hand_key
        self.hand: Final = hand
        self.findings: Final = findings
        self.text: Final = text
        self.line: Final = line
