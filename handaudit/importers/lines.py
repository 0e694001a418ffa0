"""One PokerStars line -> an event, by string tests (the fast path), with the Lark grammar
(``pokerstars.lark``) as the reading of anything else.

The player a line is about is found by the seat list (:func:`player_at`), never by a pattern:
names may hold spaces, colons, brackets and slashes. An event is a tuple ``(kind, player,
amount text, second amount text, cards text)``; the hand reader (:mod:`.pokerstars`) turns
events into PHH actions.
"""

from __future__ import annotations

import os
from typing import Final, NamedTuple

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
# A table event: a line that is no action but says what happened at the table (kept in the
# hand's ``_site_events``, shown by ``explain``). The event's own kind is the tuple's 4th item,
# one of the T_ names below; its amount (a rebuy's price, a bounty, a prize) the 3rd; what else
# it says (the seat taken, the words said, the place finished) the 5th.
E_EVENT: Final = "event"

T_SITS_OUT: Final = "sits-out"
T_RETURNED: Final = "returned"
T_JOINS: Final = "joins"
T_LEAVES: Final = "leaves"
T_DISCONNECTED: Final = "disconnected"
T_CONNECTED: Final = "connected"
T_TIMED_OUT: Final = "timed-out"
T_TIME: Final = "time"  # "has 15 seconds left to act", "has requested TIME", time bank
T_CHAT: Final = "chat"
T_WAITS: Final = "waits-for-button"  # "will be allowed to play after the button"
T_REMOVED: Final = "removed"
T_REBUY: Final = "rebuy"
T_ADD_ON: Final = "add-on"
T_BOUNTY: Final = "bounty"
T_FINISHED: Final = "finished"
T_PRIZE: Final = "prize"  # a ticket or a seat in another tournament won
T_DEPOSIT: Final = "deposit"  # a Home Game "Table deposit"
T_ALL_IN: Final = "treated-all-in"
T_TABLE: Final = "table"  # a line about the hand, no player: "Betting is capped", "Hand ended at ..."

Event = tuple[str, int, str, str, str]
_UNKNOWN: Final[Event] = (E_UNKNOWN, -1, "", "", "")
_OTHER: Final[Event] = (E_OTHER, -1, "", "", "")

ALL_IN: Final = " and is all-in"
_POSTS: Final[tuple[tuple[str, str], ...]] = (
    ("posts small blind ", "sb"), ("posts big blind ", "bb"), ("posts the ante ", "ante"),
    ("posts small & big blinds ", "both"), ("posts straddle ", "straddle"))

# The table events, by the words after the player's name (the whole rest of the line):
# exact endings, then beginnings. A name ends with ": " before some of them (the site wrote
# "NAME: sits out" in some eras and "NAME sits out" in others).
_EVENT_ENDS: Final[tuple[tuple[str, str], ...]] = (
    (": sits out", T_SITS_OUT), (" sits out", T_SITS_OUT), (": is sitting out", T_SITS_OUT),
    (" is sitting out", T_SITS_OUT), (" has returned", T_RETURNED), (": has returned", T_RETURNED),
    (" leaves the table", T_LEAVES), (": leaves the table", T_LEAVES),
    (" is disconnected", T_DISCONNECTED), (": is disconnected", T_DISCONNECTED),
    (" is connected", T_CONNECTED), (": is connected", T_CONNECTED), (" has reconnected", T_CONNECTED),
    (" has timed out", T_TIMED_OUT), (" has timed out while disconnected", T_TIMED_OUT),
    (" has timed out while being disconnected", T_TIMED_OUT), (": has timed out", T_TIMED_OUT),
    (" will be allowed to play after the button", T_WAITS), (" has requested TIME", T_TIME),
    (" is being treated as all-in", T_ALL_IN), (" stands up", T_LEAVES), (" sits down", T_JOINS),
)
_EVENT_STARTS: Final[tuple[tuple[str, str], ...]] = (
    (" said, \"", T_CHAT), (": said, \"", T_CHAT), (" joins the table at seat #", T_JOINS),
    (" was removed from the table", T_REMOVED), (" re-buys and receives ", T_REBUY),
    (" rebuys and receives ", T_REBUY), (" takes the add-on and receives ", T_ADD_ON),
    (" finished the tournament", T_FINISHED), (" wins the tournament", T_FINISHED),
    (" wins the ", T_BOUNTY), (" wins $", T_BOUNTY), (" wins an entry to", T_PRIZE), (" wins a ", T_PRIZE),
    (" wins ", T_BOUNTY), (" has ", T_TIME), (": Table deposit", T_DEPOSIT), (" Table deposit", T_DEPOSIT),
    (" was moved ", T_LEAVES), (" was eliminated", T_FINISHED), (" split the ", T_BOUNTY),
)
# Lines about the hand that name nobody (beginnings).
_TABLE_STARTS: Final[tuple[str, ...]] = (
    "Betting is capped", "Hand ended at ", "#encoding ", "Table deposit", "The tournament ", "Tournament is ",
    "Time has expired", "Time-bank", "Dealer: ", "Hand was run ", "Run it ", "This hand was run ")
_AMOUNT_CHARS: Final = "0123456789.,$€£¥₹"


class TableEvent(NamedTuple):
    """One table event of a hand, as kept in its ``_site_events`` (and in its conversion)."""

    line: int  # the line of the file
    kind: str  # T_SITS_OUT, T_JOINS, T_BOUNTY, ...
    player: str  # the seated player it names ("" when it names nobody seated)
    amount: str | None  # an exact decimal (a rebuy's price, a bounty, a prize), or None
    text: str  # the words after the name (the whole line when it names nobody seated)


def table_events(fields: dict) -> list[TableEvent]:
    """A hand's table events (its ``_site_events`` field) as typed values: for the reports and
    the cross-hand checks (joins, leaves, rebuys, finishes)."""
    out: list[TableEvent] = []
    raw = fields.get("_site_events")
    if not isinstance(raw, list):
        return out
    for e in raw:
        if isinstance(e, dict) and isinstance(e.get("line"), int) and isinstance(e.get("kind"), str):
            amount = e.get("amount")
            out.append(TableEvent(e["line"], e["kind"], str(e.get("player") or ""),
                                  amount if isinstance(amount, str) else None, str(e.get("text") or "")))
    return out


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


def _first_amount(text: str) -> str:
    """The first word of ``text`` that is an amount (``$1.00``, ``1,500``), without a final
    ``.``; "" if none."""
    for word in text.split():
        w = word.rstrip(".,!")
        if w and w[-1].isdigit() and all([c in _AMOUNT_CHARS for c in w]) and any([c.isdigit() for c in w]):
            return w
    return ""


def event_of(rest: str, who: int) -> Event:
    """``rest`` (what follows a player's name, starting with ``:`` or a space) as a table event,
    or unknown. The amount is the first the words state (a rebuy's price is the second:
    "re-buys and receives 1500 chips for $1.00"); the detail is the words after the name."""
    r = rest.rstrip()
    for ending, kind in _EVENT_ENDS:
        if r == ending:
            return (E_EVENT, who, "", kind, r.lstrip(": "))
    for start, kind in _EVENT_STARTS:
        if r.startswith(start):
            detail = r.lstrip(": ")
            if kind == T_CHAT:
                return (E_EVENT, who, "", kind, detail[7:-1] if detail.endswith("\"") else detail[7:])
            if kind == T_JOINS:
                return (E_EVENT, who, "", kind, detail[len("joins the table at seat #"):])
            if kind == T_TIME and not ("second" in r or "time" in r.lower()):
                return _UNKNOWN
            if kind == T_REBUY or kind == T_ADD_ON:
                cut = r.rfind(" for ")
                return (E_EVENT, who, _first_amount(r[cut + 5:]) if cut >= 0 else "", kind, detail)
            money = kind == T_BOUNTY or kind == T_FINISHED or kind == T_DEPOSIT
            return (E_EVENT, who, _first_amount(detail) if money else "", kind, detail)
    return _UNKNOWN


def table_line(line: str) -> Event:
    """A line about the hand that names nobody (``Betting is capped``), or unknown."""
    for start in _TABLE_STARTS:
        if line.startswith(start):
            return (E_EVENT, -1, "", T_TABLE, line.rstrip())
    return _UNKNOWN


def _suffix_ok(r: str, word: str) -> bool:
    """``r`` is ``word`` alone or followed by a note the site adds in brackets or parentheses
    ("folds [Ah Kd]", "folds (disconnect)", "checks (timeout)")."""
    return r == word or (r.startswith(word + " ") and r[len(word) + 1:len(word) + 2] in "[(")


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
        if r == "mucks hand" or r.startswith("mucks hand ["):
            return (E_MUCKS, who, "", "", "")
        if r == "doesn't show hand":
            return (E_NO_SHOW, who, "", "", "")
        if _suffix_ok(r, "folds"):
            return (E_FOLD, who, "", "", "")
        if _suffix_ok(r, "checks"):
            return (E_CHECK, who, "", "", "")
        return event_of(rest, who)
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
    return event_of(rest, who)


def other_line(line: str) -> Event:
    """A line about someone not seated (or not dealt in), or about nobody, that is no action:
    its table event (player -1, the detail the whole line), or unknown. Where the name ends
    cannot be known, so the event's words are looked for anywhere in the line."""
    r = line.rstrip()
    ev = table_line(r)
    if ev[0] != E_UNKNOWN:
        return ev
    for ending, kind in _EVENT_ENDS:
        if r.endswith(ending) and len(r) > len(ending):
            return (E_EVENT, -1, "", kind, r)
    for start, kind in _EVENT_STARTS:
        if kind == T_TIME or kind == T_BOUNTY and start == " wins ":
            continue  # too common words to place a name by
        cut = r.find(start)
        if cut > 0:
            ev = event_of(r[cut:], -1)
            if ev[0] == E_EVENT:
                return (E_EVENT, -1, ev[2], ev[3], r)
    return _UNKNOWN


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
    if kind == "event":  # the event's kind and figures as the string tests read them (one table: T_...)
        who_token = [c for c in node.children if isinstance(c, Token) and c.type == "PLAYER"]
        who = int(who_token[0][1:-1]) if who_token else -1
        return event_of(text[text.index("\x02") + 1:], who) if "\x02" in text else _UNKNOWN
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
