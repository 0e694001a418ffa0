"""One PokerStars line -> an event, by string tests (the fast path), with the Lark grammar
(``pokerstars.lark``) as the reading of anything else.

The player a line is about is found by the seat list (:func:`player_at`), never by a pattern:
names may hold spaces, colons, brackets and slashes. An event is a tuple ``(kind, player,
amount text, second amount text, cards text)``; the hand reader (:mod:`.pokerstars`) turns
events into PHH actions.
"""

from __future__ import annotations

import os
from typing import Final

# Event kinds.
E_FOLD: Final = "fold"
E_CHECK: Final = "check"
E_CALL: Final = "call"
E_BET: Final = "bet"
E_RAISE: Final = "raise_to"
E_SHOWS: Final = "shows"
E_MUCKS: Final = "mucks"
E_NO_SHOW: Final = "no_show"
E_DEALT: Final = "dealt"
E_UNCALLED: Final = "uncalled"
E_COLLECTED: Final = "collected"
E_CASH_OUT: Final = "cash_out"
E_POST: Final = "post"
E_STREET: Final = "street"
E_CANCELLED: Final = "cancelled"
E_RUN_TWICE: Final = "run_twice"
E_TOTALS: Final = "totals"
E_BOARD: Final = "board"
E_SEAT_RESULT: Final = "seat_result"
E_OTHER: Final = "other"
E_NO_LOW: Final = "no_low"
E_UNKNOWN: Final = "unknown"

Event = tuple[str, int, str, str, str]
_UNKNOWN: Final[Event] = (E_UNKNOWN, -1, "", "", "")
_OTHER: Final[Event] = (E_OTHER, -1, "", "", "")

ALL_IN: Final = " and is all-in"
_POSTS: Final[tuple[tuple[str, str], ...]] = (
    ("posts small blind ", "sb"), ("posts big blind ", "bb"), ("posts the ante ", "ante"),
    ("posts small & big blinds ", "both"), ("posts straddle ", "straddle"))
# Endings of the lines that are not actions (after the name, or after any text for a person not
# seated): chat, seats taken and left, time-outs, connections, tournament results.
_OTHER_ENDS: Final[tuple[str, ...]] = (
    ": sits out", ": is sitting out", ": is connected", ": is disconnected", " leaves the table", " is disconnected",
    " is connected", " has returned", " has timed out", " has timed out while disconnected",
    " will be allowed to play after the button")
_OTHER_PARTS: Final[tuple[str, ...]] = (" joins the table at seat #", " said, \"", " finished the tournament",
                                        " wins the tournament", " was removed from the table")


def player_at(line: str, names: list[str], start: int = 0) -> int:
    """The index (into ``names``, longest first) of the seated name ``line`` holds at ``start``
    followed by ``:`` or a space, or -1."""
    n = len(line)
    if start == 0:  # (compiled, the one-argument startswith is a native call; with a start it is not)
        for i in range(len(names)):
            name = names[i]
            end = len(name)
            if end < n and line.startswith(name) and (line[end] == ":" or line[end] == " "):
                return i
        return -1
    for i in range(len(names)):
        name = names[i]
        end = start + len(name)
        if end < n and line.startswith(name, start) and (line[end] == ":" or line[end] == " "):
            return i
    return -1


def _strip_cap(rest: str) -> str:
    cut = rest.find(" and has reached the ")
    return rest[:cut] if cut >= 0 else rest


def player_line(rest: str, who: int) -> Event:
    """The line after ``NAME`` (``rest`` starts with ``:`` or a space) -> its event, or unknown."""
    if rest.startswith(": "):
        r = rest[2:].rstrip()
        if r == "folds":
            return (E_FOLD, who, "", "", "")
        if r == "checks":
            return (E_CHECK, who, "", "", "")
        if r.startswith("calls "):
            a = _strip_cap(r[6:])
            return (E_CALL, who, a[:-len(ALL_IN)] if a.endswith(ALL_IN) else a, "", "")
        if r.startswith("bets "):
            a = _strip_cap(r[5:])
            return (E_BET, who, a[:-len(ALL_IN)] if a.endswith(ALL_IN) else a, "", "")
        if r.startswith("raises "):
            a = _strip_cap(r[7:])
            if a.endswith(ALL_IN):
                a = a[:-len(ALL_IN)]
            cut = a.find(" to ")
            if cut < 0:
                return _UNKNOWN
            return (E_RAISE, who, a[cut + 4:], a[:cut], "")
        if r.startswith("posts "):
            for prefix, kind in _POSTS:
                if r.startswith(prefix):
                    a = r[len(prefix):]
                    return (E_POST, who, a[:-len(ALL_IN)] if a.endswith(ALL_IN) else a, kind, "")
            return _UNKNOWN
        if r.startswith("shows ["):
            end = r.find("]")
            return (E_SHOWS, who, "", "", r[7:end]) if end > 0 else _UNKNOWN
        if r == "mucks hand":
            return (E_MUCKS, who, "", "", "")
        if r == "doesn't show hand":
            return (E_NO_SHOW, who, "", "", "")
        if r.startswith("folds ["):
            return (E_FOLD, who, "", "", "")
        if r == "sits out" or r == "is sitting out" or r == "is disconnected" or r == "is connected":
            return _OTHER
        return _UNKNOWN
    r = rest.rstrip()
    if r.startswith(" collected "):
        cut = r.find(" from ", 11)
        if cut < 0:
            return _UNKNOWN
        pot = r[cut + 6:]
        if pot == "pot" or pot == "main pot" or pot.startswith("side pot"):
            return (E_COLLECTED, who, r[11:cut], pot, "")
        return _UNKNOWN
    if r.startswith(" cashed out the hand for "):
        cut = r.find(" | Cash Out Fee ")
        if cut < 0:
            return _UNKNOWN
        return (E_CASH_OUT, who, r[25:cut], r[cut + 16:], "")
    if r.startswith(" said, \""):
        return _OTHER
    for ending in _OTHER_ENDS:
        if r == ending:
            return _OTHER
    for part in _OTHER_PARTS:
        if r.startswith(part):
            return _OTHER
    return _UNKNOWN


def other_line(line: str) -> bool:
    """A line about someone not seated (or not dealt in) that is no action: chat, joins, leaves,
    sits out, connections, tournament results."""
    r = line.rstrip()
    for ending in _OTHER_ENDS:
        if r.endswith(ending):
            return True
    for part in _OTHER_PARTS:
        if part in r:
            return True
    return r.startswith("Hand ended at ") or r.startswith("#encoding ")


# ---------------------------------------------------------------------------------------------
# the grammar: the reading of a line the string tests above do not know

_PARSER: list = []  # the Lark parser, built on first use (a log whose every line is usual never builds it)


def grammar_text() -> str:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pokerstars.lark"), encoding="utf-8") as f:
        return f.read()


def parser():  # -> lark.Lark (untyped: lark is not part of the compiled build's types)
    if not _PARSER:
        from lark import Lark

        _PARSER.append(Lark(grammar_text(), parser="earley", lexer="dynamic", ambiguity="resolve"))
    return _PARSER[0]


def placeholder(line: str, start: int, length: int, who: int) -> str:
    """``line`` with the seated name at ``start`` replaced by the grammar's PLAYER token."""
    return f"{line[:start]}\x01{who}\x02{line[start + length:]}"


_MEMO: dict[str, Event] = {}  # a line's reading by its text (names replaced): a parse costs milliseconds
_MEMO_MAX: Final = 4096


def grammar_event(text: str) -> Event:
    """The grammar's reading of one line (names already replaced by :func:`placeholder`):
    its event, or unknown when the grammar does not accept the line either. Remembered by the
    line's text (bounded), as the PHH reader remembers an action's parse."""
    event = _MEMO.get(text)
    if event is None:
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        event = _MEMO[text] = _grammar_event(text)
    return event


def _grammar_event(text: str) -> Event:
    from lark import LarkError, Token, Tree

    try:
        tree = parser().parse(text)
    except LarkError:
        return _UNKNOWN
    node = tree.children[0]
    if not isinstance(node, Tree):
        return _UNKNOWN
    kind = str(node.data)
    tokens = [c for c in node.scan_values(lambda v: isinstance(v, Token))]
    who = -1
    amounts: list[str] = []
    cards: list[str] = []
    post = ""
    for t in tokens:
        if t.type == "PLAYER":
            who = int(t[1:-1])
        elif t.type == "AMOUNT":
            amounts.append(str(t))
        elif t.type == "CARDS":
            cards.append(str(t)[1:-1])
        elif t.type == "POST_KIND":
            post = {"small blind": "sb", "big blind": "bb", "the ante": "ante", "small & big blinds": "both",
                    "straddle": "straddle"}[str(t)]
        elif t.type == "POT_NAME":
            post = str(t)
    if kind == "post":
        return (E_POST, who, amounts[0], post, "")
    if kind == "raise_to":
        return (E_RAISE, who, amounts[1], amounts[0], "")
    if kind in (E_CALL, E_BET, E_UNCALLED):
        return (kind, who, amounts[0], "", "")
    if kind == E_COLLECTED:
        return (kind, who, amounts[0], post, "")
    if kind == E_CASH_OUT:
        return (kind, who, amounts[0], amounts[1], "")
    if kind in (E_SHOWS, E_DEALT):
        return (kind, who, "", "", cards[-1] if cards else "")
    if kind in (E_FOLD, E_CHECK, E_MUCKS, E_NO_SHOW):
        return (kind, who, "", "", "")
    if kind in ("other", "seat", "header", "table"):
        return _OTHER
    return (kind, who, "", "", " ".join(cards))
