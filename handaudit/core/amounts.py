"""Amounts: integers of the hand's smallest unit (``10 ** -scale`` of the currency or chip),
printed back exactly (:func:`format_amount`) and written to JSON exactly (:func:`amount_json`).
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from typing import Final


def format_amount(amount: int | None, scale: int) -> str | None:
    """Minor units back to an exact decimal string: ``(2685, 2) -> '26.85'`` (None stays None)."""
    if amount is None:
        return None
    return amount_text(amount, scale)


# Unlimited precision: scaleb under the default context (28 digits) would round long amounts.
_EXACT: Final = decimal.Context(prec=decimal.MAX_PREC)


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
    return Decimal(amount).scaleb(-scale, _EXACT)


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


def amount_text(amount: int, scale: int) -> str:
    """``format(amount_json(amount, scale), "f")`` from the int's digits: ``(-5, 2) -> '-0.05'``
    (``scale`` >= 0, as the reader makes it).

    The one formatting of an amount (:func:`format_amount`, JSONNumbers): slicing the digits
    costs a fraction of ``divmod`` by ``10**scale`` and a nested format spec."""
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
