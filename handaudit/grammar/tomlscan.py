"""TOML's lexical layer, as far as the ``.phhs`` splitter and the nesting guard need it.

Where a TOML text's strings and comments are, so that a ``[``, a quote or a ``#`` inside one is
text and not structure: basic strings ``"..."`` (with ``\\`` escapes), literal strings
``'...'``, multi-line basic strings (escapes, and up to two quotes of content right before the
closing delimiter: three quotes, ``a`` and four quotes are the text ``a`` and a quote),
multi-line literal strings (likewise), and comments
to the end of the line. The patterns match complete tokens only; a token that a text's end cuts
off is left for the caller, which knows whether more text follows.

The nesting guard (:func:`nesting_finding`) refuses a hand whose arrays and inline tables nest
deeper than :data:`MAX_DEPTH` before a TOML parser sees it: toml-rs overflows its stack and
kills the process (SIGSEGV) at about 7,000 levels, tomllib raises RecursionError at about 450;
a PHH hand needs 2 (an array of arrays).
"""

from __future__ import annotations

import re
from typing import Final

from ..findings.finding import Finding

MAX_DEPTH: Final = 64

# A complete one-line string or a comment that a newline ends. The quote of a multi-line string
# ('''/""") is not matched, nor an empty string at the text's end ('' or "", which a
# third quote in the next piece would make a delimiter): those are left for the caller.
STRING_OR_COMMENT: Final = r"""'(?!''|'\Z)[^'\n]*'|"(?!""|"\Z)(?:[^"\\\n]|\\.)*"|#[^\n]*(?=\n)"""
# An array holding no bracket or brace, across lines: the usual PHH field value (actions,
# stacks), skipped whole.
FLAT_ARRAY: Final = r"""\[(?:[^'"#\[\]{}]+|""" + STRING_OR_COMMENT + r""")*+\]"""
# Text of no lexical meaning within a line: stops at a newline, a bracket or brace, and a quote
# or '#' that does not begin a complete token.
IN_LINE: Final = re.compile(r"""(?:[^'"#\[\]{}\n]+|""" + STRING_OR_COMMENT + "|" + FLAT_ARRAY + r""")*+""")
# Whole lines of no lexical meaning: stops at the start of a line whose first character after
# blanks is '[' (a table header at depth 0), or of a line holding something IN_LINE stops at.
LINES: Final = re.compile(r"""(?:(?![ \t]*\[)(?:[^'"#\[\]{}\n]+|""" + STRING_OR_COMMENT + "|" + FLAT_ARRAY + r""")*+\n)*+""")
# The body of a multi-line basic string up to a quote, a backslash at the text's end, or the end.
ML_BASIC_BODY: Final = re.compile(r"""(?:[^"\\]+|\\.)*+""", re.DOTALL)
# The body of a one-line basic string (cut off by a text's end) up to its quote or a newline.
BASIC_BODY: Final = re.compile(r"""(?:[^"\\\n]+|\\.)*+""")
LITERAL_BODY: Final = re.compile(r"""[^'\n]*""")
QUOTES: Final = re.compile(r"""'+|"+""")  # a run of one kind of quote (the first character's)
# Blanks, newlines and comments (between an array's elements).
GAP: Final = re.compile(r"""(?:[ \t\r\n]+|#[^\n]*(?=\n))*+""")
# Everything of no meaning to the depth scan (a whole text: newlines are plain).
_DEPTH_SKIP: Final = re.compile(r"""(?:[^'"#\[\]{}]+|""" + STRING_OR_COMMENT + r""")*+""")


def nesting_finding(text: str, first_line: int) -> Finding | None:
    """A ``syntax-error`` finding where ``text``'s arrays and inline tables first nest deeper
    than :data:`MAX_DEPTH` (``first_line``: the file line of ``text``'s first line), or None.

    A C count of the brackets (and braces, if any) bounds the depth for nearly every hand;
    only a text holding more than the limit is scanned, skipping strings and comments."""
    opening = text.count("[")  # (a PHH hand has no brace: a find, at memchr speed, says so)
    if opening <= MAX_DEPTH and (text.find("{") < 0 or opening + text.count("{") <= MAX_DEPTH):
        return None
    at = deepest(text, MAX_DEPTH)
    if at < 0:
        return None
    line = text.count("\n", 0, at)
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return Finding("syntax-error", f"arrays and inline tables nested more than {MAX_DEPTH} deep; not read",
                   line=first_line + line, column=column)


def deepest(text: str, limit: int) -> int:
    """The offset of the first bracket or brace of ``text`` opening level ``limit + 1`` of
    arrays and inline tables (outside strings and comments), or -1 if none does. Headers'
    brackets are counted too, as an opening and a closing: they never reach a depth of 2."""
    size = len(text)
    depth = 0
    pos = 0
    while pos < size:
        m = _DEPTH_SKIP.match(text, pos)
        pos = m.end() if m else pos
        if pos >= size:
            break
        c = text[pos]
        if c == "[" or c == "{":
            depth += 1
            if depth > limit:
                return pos
            pos += 1
        elif c == "]" or c == "}":
            if depth:
                depth -= 1
            pos += 1
        elif c == "#":  # a comment at the end, without a newline
            break
        else:
            pos = skip_quote(text, pos)
    return -1


def skip_quote(text: str, pos: int) -> int:
    """``text[pos]`` is a quote no complete one-line string starts at: the end of the
    multi-line string it opens, or of the line (an unterminated string, not TOML)."""
    q = text[pos]
    if text.startswith(q * 3, pos):
        end = close_multi_line(text, pos + 3, q)
        return end if end >= 0 else len(text)
    newline = text.find("\n", pos)
    return newline if newline >= 0 else len(text)


def close_multi_line(text: str, pos: int, quote: str) -> int:
    """Where the multi-line string whose content starts at ``pos`` ends (past its delimiter and
    the up to two quotes of content before it), or -1 if ``text`` ends first."""
    size = len(text)
    while True:
        if quote == "'":
            at = text.find("'''", pos)
            if at < 0:
                return -1
        else:
            m = ML_BASIC_BODY.match(text, pos)
            at = m.end() if m else pos
            if at >= size or text[at] == "\\":
                return -1
        r = QUOTES.match(text, at)
        run = r.end() - at if r else 1
        if run >= 3:
            return at + min(run, 5)
        pos = at + run
