"""Amounts: integers of the hand's smallest unit (``10 ** -scale`` of the currency or chip),
printed back exactly (:func:`format_amount`); the JSON forms are in :mod:`handaudit.reports.contract`.
"""

from __future__ import annotations

import decimal
from typing import Final


def format_amount(amount: int | None, scale: int) -> str | None:
    """Minor units back to an exact decimal string: ``(2685, 2) -> '26.85'`` (None stays None)."""
    if amount is None:
        return None
    return amount_text(amount, scale)


# Unlimited precision: scaleb under the default context (28 digits) would round long amounts.
EXACT: Final = decimal.Context(prec=decimal.MAX_PREC)


def amount_text(amount: int, scale: int) -> str:
    """The exact decimal text of ``amount`` at ``scale``, from the int's digits: ``(-5, 2) -> '-0.05'``
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


def grouped_amount(amount: int, scale: int) -> str:
    """:func:`amount_text` with the whole part in groups of three for a person to read
    (``(2302500000, 2) -> '23,025,000.00'``); the reports' data keep the plain form."""
    text = amount_text(amount, scale)
    sign = "-" if text.startswith("-") else ""
    whole, dot, fraction = text.lstrip("-").partition(".")
    return f"{sign}{int(whole):,}{dot}{fraction}"
