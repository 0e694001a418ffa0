"""What a syntax error in an action says: where the grammar stopped and what it wanted there.

Kept apart from the parser (``actions.py``): it runs only for actions that fail to parse, and its
words are the notation's as a person writes it (``cbr AMOUNT``, ``sm [CARDS]``), not the
grammar's terminal names (``CBR``, ``SM``), which mean nothing to the reader of a report.
"""

from __future__ import annotations

import re
from typing import Final

from lark import UnexpectedInput

# Each terminal of phh.lark as the notation writes it, in the order a message lists them.
NOTATION: Final = {
    "DEALER": "d (the dealer)",
    "PLAYER": "a player (p1, p2, ...)",
    "DB": "db CARDS (board cards)",
    "DH": "dh PLAYER CARDS (hole cards)",
    "FOLD": "f",
    "CC": "cc",
    "CBR": "cbr AMOUNT",
    "PB": "pb",
    "SM": "sm [CARDS]",
    "SD": "sd [CARDS]",
    "AMOUNT": "an amount (10, 3.00)",
    "CARDS": "cards (AsKd; ?? for an unknown card)",
    "COMMENTARY": "# and a comment",
}


_CARDS: Final = re.compile(r"(?:[2-9TJQKA?][cdhs?])+")


def expected_words(terminals: object) -> str:
    """The terminals a parse wanted, as the notation writes them: 'f, cc, cbr AMOUNT or pb'."""
    names = set(terminals) if isinstance(terminals, (set, frozenset, list, tuple)) else set()
    words = [word for name, word in NOTATION.items() if name in names]
    words += sorted(str(n) for n in names if n not in NOTATION and n != "$END")
    if not words:
        return ""
    if names == {"COMMENTARY"}:
        return "the end of the action (or # and a comment)"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def describe_unexpected(text: str, err: UnexpectedInput) -> tuple[str, int]:
    """The message and column for an action the grammar refused at ``err``."""
    column = getattr(err, "column", None) or 1
    token = getattr(err, "token", None)
    rest = text[column - 1 :].split()
    if token is not None and token.type == "$END":
        word, column = "end of action", len(text.rstrip()) + 1
    else:
        word = repr(rest[0]) if rest else "end of action"
    expected = expected_words(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    hint = f"; expected {expected}" if expected else ""
    if rest and _CARDS.fullmatch(rest[0]) and len(text[: column - 1].split()) >= 3:
        hint += " (cards are written together, with no space: AsKd)"
    return f"cannot parse action {text!r} at column {column}: unexpected {word}{hint}", column
