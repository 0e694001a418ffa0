"""What a syntax error in an action string says: where the grammar stopped and what it wanted.

Kept apart from the parser (``actions.py``): it runs only for actions that fail to parse, and its
wording is the user's view of the notation rather than the grammar's.
"""

from __future__ import annotations

from lark import UnexpectedInput


def describe_unexpected(text: str, err: UnexpectedInput) -> tuple[str, int]:
    """The message and column for an action the grammar refused at ``err``."""
    column = getattr(err, "column", None) or 1
    token = getattr(err, "token", None)
    rest = text[column - 1 :].split()
    if token is not None and token.type == "$END":
        word, column = "end of action", len(text.rstrip()) + 1
    else:
        word = repr(rest[0]) if rest else "end of action"
    expected = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    hint = f" (expected one of: {', '.join(expected)})" if expected else ""
    return f"cannot parse action {text!r} at column {column}: unexpected {word}{hint}", column
