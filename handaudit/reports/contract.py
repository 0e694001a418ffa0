"""The contract's JSON object for a hand (../shared/docs/contract.md, extended as the README says),
with its layout: every object's members in order, and amounts as exact numbers.

One place for the JSON's shape, outside the domain values: :func:`hand_json` builds a hand's
object from its :class:`~handaudit.reports.hand_report.HandReport` (``HandReport.to_json`` calls
it), :func:`finding_json` a finding's, :func:`settlement_members` the settlement's members.
Each gives the library's plain dicts, or with ``text`` the JSONL writer's own objects
(:class:`JSONObject`, :class:`JSONNumber`), which it writes without building a dict or a Decimal
(:mod:`.jsonl`; docs/performance.md).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from ..core.amounts import EXACT, amount_text
from ..core.hand import Hand
from ..findings.finding import Finding
from ..grammar.result import ReadResult
from ..settlement import Settlement

try:  # the C escaper that json.encoder.encode_basestring is, as the JSONL writer uses; taken from
    # _json itself, since the json package costs about 1 ms of a start that a text run does without
    from _json import encode_basestring
except ImportError:  # pragma: no cover - a Python without the accelerator
    from json.encoder import encode_basestring

if TYPE_CHECKING:
    from .hand_report import HandReport


class JSONShape:
    """The member names of an object in a hand's JSON, in order (see :class:`JSONObject`).

    With them, their text as the JSONL writer writes them: the first name where the object
    stands (alone, first in a list, later in a list: ``{"a":``, ``[{"a":``, ``,{"a":``), the
    others after a comma (``,"b":``).
    """

    def __init__(self, keys: tuple[str, ...]) -> None:
        self.keys: Final = keys
        names = [encode_basestring(key) + ":" for key in keys]
        self.first: Final[tuple[str, ...]] = ("{" + names[0], "[{" + names[0], ",{" + names[0])
        self.rest: Final[tuple[str, ...]] = tuple(["," + name for name in names[1:]])

    def make(self, values: tuple[object, ...], text: bool) -> Any:
        """The object with these members' ``values``: a dict, or with ``text`` a JSONObject."""
        if text:
            return JSONObject(self, values)
        return dict(zip(self.keys, values, strict=True))


class JSONObject:
    """An object of a hand's JSON for the JSONL writer: a shape's members and their values.

    What ``to_json(text=True)`` gives in place of a dict: the writer copies the names' text
    from the shape, where a dict costs building, iterating, a name lookup per member and
    freeing, per member.
    """

    def __init__(self, shape: JSONShape, values: tuple[object, ...]) -> None:
        self.shape: Final = shape
        self.values: Final = values

    def to_dict(self) -> dict[str, object]:
        """The members as a dict (values as they are: JSONNumbers, JSONObjects)."""
        return dict(zip(self.shape.keys, self.values, strict=True))

    def __repr__(self) -> str:
        return f"JSONObject({self.to_dict()!r})"


class JSONNumber:
    """An exact decimal already in its JSON text (``26.85``): the JSONL writer copies it as is.

    Making and then formatting a Decimal is a cost per amount; handaudit's own writer asks
    :func:`amount_json` for this instead (about 25 amounts a hand).
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
    return Decimal(amount).scaleb(-scale, EXACT)


def amounts_json(values: tuple[int | None, ...], scale: int, text: bool = False) -> list[object]:
    """``[amount_json(v, scale, text) for v in values]``, choosing by scale once per list.

    At scale 0 the list holds the tuple's own ints (a C-level copy, not a call per amount); with
    ``text`` each amount is looked up in its scale's cache directly.
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
# cached number costs a dict lookup where formatting one costs far more.
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


# --- the objects ----------------------------------------------------------------------------

def hand_json(report: HandReport, text: bool = False) -> Any:
    """The contract's JSON object for this hand, a dict (amounts exact: int or Decimal).

    ``text``: for the JSONL writer (:func:`handaudit.reports.jsonl.report_line`), which writes
    it as it writes the dict: objects as :class:`JSONObject`, amounts at scale > 0 as
    :class:`JSONNumber` (their exact text).
    """
    read = report.read
    hand = read.hand
    recorded: object = None
    settled: object = None
    rake: object = None
    rake_check: str | None = None
    if hand is not None:
        recorded = _recorded(hand, text)
        settlement = report.settlement
        if settlement is not None:  # made for every read hand (audit_read)
            settled = settlement_object(settlement, hand, text)
            rake = amount_json(settlement.rake, hand.scale, text)
            rake_check = settlement.rake_check
    check = report.payout_check
    return _REPORT.make((
        read.source,
        read.hand_key,
        _plain(hand.hand) if hand is not None else (_plain(read.known.get("hand")) if read.known else None),
        _raw_variant(read) if hand is None else hand.variant,
        report.rulebook,
        report.status,
        report.complete,
        [finding_json(f, text) for f in report.findings],
        settled,
        recorded,
        check,
        rake,
        rake_check,
    ), text)


def finding_json(finding: Finding, text: bool = False) -> Any:
    """The contract's finding object (plus line/column when known)."""
    values = (finding.code, finding.severity, finding.action_index, finding.actor, finding.rule, finding.message,
              finding.ruling)
    if finding.line is not None:
        return _FINDING_AT.make((*values, finding.line, finding.column), text)
    return _FINDING.make(values, text)


def settlement_members(settlement: Settlement, hand: Hand, text: bool = False) -> dict[str, object]:
    """The hand object's ``settlement``, ``payout_check``, ``rake`` and ``rake_check`` members."""
    return {"settlement": settlement_object(settlement, hand, text), "payout_check": settlement.payout_check,
            "rake": amount_json(settlement.rake, hand.scale, text), "rake_check": settlement.rake_check}


def settlement_object(settlement: Settlement, hand: Hand, text: bool = False) -> Any:
    """The hand's ``settlement`` member: pots (with awards and rake), returns, winnings, stacks."""
    scale = hand.scale
    pots: list[object] = []
    pot_rakes = settlement.pot_rakes
    for k in range(len(settlement.pots)):
        p = settlement.pots[k]
        awards: list[object] = []
        for a in p.awards:
            awards.append(_AWARD.make((a.player + 1, amount_json(a.amount, scale, text), a.share), text))
        pot_rake = None if pot_rakes is None else amount_json(pot_rakes[k], scale, text)
        pots.append(_POT.make((amount_json(p.amount, scale, text), [i + 1 for i in p.eligible], awards,
                               pot_rake), text))
    received = settlement.received
    stacks = settlement.finishing_stacks
    return _SETTLEMENT.make((
        settlement.determined,
        pots,
        amounts_json(settlement.returned, scale, text),
        None if received is None else amounts_json(received, scale, text),
        None if stacks is None else amounts_json(stacks, scale, text),
    ), text)


# The members of each object, in the contract's order (a finding's line and column only when known).
_REPORT: Final = JSONShape(("source", "hand_key", "hand", "variant", "rulebook", "status", "complete", "findings",
                            "settlement", "recorded", "payout_check", "rake", "rake_check"))
_RECORDED: Final = JSONShape(("finishing_stacks", "winnings"))
_FINDING: Final = JSONShape(("code", "severity", "action_index", "actor", "rule", "message", "ruling"))
_FINDING_AT: Final = JSONShape((*_FINDING.keys, "line", "column"))
_SETTLEMENT: Final = JSONShape(("determined", "pots", "returned", "winnings", "finishing_stacks"))
_POT: Final = JSONShape(("amount", "eligible", "awards", "rake"))
_AWARD: Final = JSONShape(("player", "amount", "share"))


def _plain(value):
    return value if isinstance(value, (str, int)) or value is None else str(value)


_VARIANT: Final = re.compile(r"^\s*variant\s*=\s*['\"]([^'\"]*)['\"]", re.M)


def _raw_variant(read: ReadResult) -> str | None:
    """The variant written in an unreadable hand's text, if any."""
    m = _VARIANT.search(read.text or "")
    return m.group(1) if m else None


def _recorded(hand: Hand, text: bool) -> object:
    stacks = hand.finishing_stacks
    winnings = hand.winnings
    if stacks is None and winnings is None:
        return None
    return _RECORDED.make((None if stacks is None else amounts_json(stacks, hand.scale, text),
                           None if winnings is None else amounts_json(winnings, hand.scale, text)), text)
