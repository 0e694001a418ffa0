"""What the bracketed text sites share: 888poker's and PartyPoker's hand histories are one family
of format (the Pacific/Party lineage): a header block, "Seat N is the button", "Total number of
players", seat lines ``Seat 3: NAME ( $25 )``, amounts in square brackets that are what the player
put in with that action (not a total), "** Dealing ... **" street markers, and the pots written
as what each winner took. This module reads such a hand's seats and body into the same
:class:`~handaudit.core.hand.Hand` the PHH reader makes; each site's module
(:mod:`.poker888`, :mod:`.partypoker`) reads its own header lines and says which of the family's
lines it writes. The vocabulary of each site is documented in its grammar file
(``poker888.lark``, ``partypoker.lark``).

The player a line is about is found by the seat list (:func:`.lines.player_at`), never by a
pattern. Amounts are read exactly (:func:`bracket_amount`). What PHH cannot hold is kept as
``_site_...`` user fields and reconciled after the settlement (:mod:`handaudit.settlement.site_totals`).
"""

from __future__ import annotations

import datetime as _dt
from typing import Final

from ..core.amounts import amount_text
from ..core.cards import card_from_text
from ..core.hand import BET_RAISE, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, FOLD, NOOP, SHOW_MUCK, Action, Hand
from ..findings.finding import ENCODING_MESSAGE, Finding
from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from .common import amount_units, phh_order
from .limits import (INVALID, MAX_AMOUNT_DIGITS, amount_problem, date_problem, digits_problem, scaled_problem,
                     seat_problem, seats_problems, table_problem, time_problem)
from .lines import (T_CHAT, T_CONNECTED, T_DISCONNECTED, T_FINISHED, T_JOINS, T_LEAVES, T_REMOVED, T_RETURNED,
                    T_SITS_OUT, T_TIME, T_TIMED_OUT, T_WAITS, player_at)

_SYMBOLS: Final = "$€£¥₹"
_ISO: Final[tuple[str, ...]] = ("USD", "EUR", "GBP", "CAD", "INR", "SEK", "DKK", "RON", "PLN", "CNY")
_ISO_SET: Final[frozenset[str]] = frozenset(_ISO)
CURRENCY_OF_SYMBOL: Final[dict[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}
MONTHS: Final[dict[str, int]] = {
    "January": 1, "February": 2, "March": 3, "April": 4, "May": 5, "June": 6, "July": 7, "August": 8,
    "September": 9, "October": 10, "November": 11, "December": 12,
    "Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "Jun": 6, "Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12}

# Player lines (after "NAME "): the kinds.
K_FOLD: Final = 1
K_CHECK: Final = 2
K_CALL: Final = 3
K_BET: Final = 4
K_RAISE: Final = 5
K_ALL_IN: Final = 6  # PartyPoker's "is all-In [X]": a call, bet or raise, by its amount
K_SB: Final = 10
K_BB: Final = 11
K_ANTE: Final = 12
K_DEAD: Final = 13  # a blind posted out of turn: the big-blind part live, the rest dead
K_DEAD_SMALL: Final = 14  # a dead small blind only
K_SHOWS: Final = 20
K_MUCKS: Final = 21  # mucks, or does not show (cards, where written, are known but not shown)
K_WINS: Final = 30  # what the player took (a "collected" or "wins" line)
K_EVENT: Final = 40  # a table event about the player (joins, leaves, time bank, chat, ...)
K_UNKNOWN: Final = 0

# What a site's win amount holds of the uncalled bet (SiteHand.returns_in_wins).
RETURNS_NEVER: Final = 0
RETURNS_ALWAYS: Final = 1
RETURNS_INFERRED: Final = 2  # held or not: told by the sum of the wins

# Phases of a hand's text.
_POSTS: Final = 0
_DEAL: Final = 1
_SUMMARY: Final = 2

# Events (lines after the name that are not actions), as the two sites write them: chat is
# "NAME: text". Kept in the hand's `_site_events` (the table events PHH has no action for).
EVENT_ENDS: Final[tuple[str, ...]] = (
    " has joined the table.", " has left the table.", " is sitting out", " is sitting out.", " sits out",
    " has returned", " has returned.", " is sitting in", " did not respond in time", " did not respond in time.",
    " could not respond in time.(disconnected)", " could not respond in time.", " is disconnected",
    " is disconnected.", " is connected", " is connected.", " has been disconnected", " has been disconnected.",
    " has timed out", " has timed out.", " has reconnected", " has reconnected.", " has been reconnected",
    " is back", " is back.")
EVENT_PARTS: Final[tuple[str, ...]] = (
    " will be using their time bank", " will be using his time bank", " will be using her time bank",
    " is disconnected. We will wait for ", " has been reconnected and has ", " finished in ",
    " has requested TIME", " joined the table at seat", " has joined the table at seat",
    " sitting out", " has left the table")
# Lines about nobody in particular (or someone not seated) that are no action.
OTHER_STARTS: Final[tuple[str, ...]] = (
    "Your time bank will be activated", "Due to current high memory use", "There is no Small Blind in this hand",
    "Congratulations to player ", "Player ", "Table Closed", "Connection Lost due to some reason",
    "Trny:", "Blinds(", "Blinds-Antes(", "Stakes(", "Stakes-Antes(", "Game #", "#Game No", "The player ",
    "Dealer: ", "Tournament ", "Level ", "You have ", "Time bank ", "The game is ", "(Hi: ", "(Lo: ")
OTHER_PARTS: Final[tuple[str, ...]] = (
    " finished in ", " has left the table", " has joined the table", " is sitting out",
    " will be allowed to play after the button", " was removed from the table", " received ", "for low.")


# The hand's own lines that name nobody and are said elsewhere (not table events).
STRUCTURE_STARTS: Final[tuple[str, ...]] = ("Trny:", "Blinds(", "Blinds-Antes(", "Stakes(", "Stakes-Antes(", "Game #",
                                            "#Game No", "(Hi: ", "(Lo: ", "Level ", "Tournament ", "Dealer: ")
# A table event's kind (lines.T_...) by the words it holds, first match.
_EVENT_KINDS: Final[tuple[tuple[str, str], ...]] = (
    ("joined the table", T_JOINS), ("left the table", T_LEAVES), ("sitting out", T_SITS_OUT), ("sits out", T_SITS_OUT),
    ("returned", T_RETURNED), ("is back", T_RETURNED), ("sitting in", T_RETURNED), ("reconnected", T_CONNECTED),
    ("disconnected", T_DISCONNECTED), ("Connection Lost", T_DISCONNECTED), ("is connected", T_CONNECTED),
    ("respond in time", T_TIMED_OUT), ("timed out", T_TIMED_OUT), ("time bank", T_TIME), ("TIME", T_TIME),
    ("finished in", T_FINISHED), ("Congratulations to player", T_FINISHED),
    ("allowed to play after the button", T_WAITS), ("was removed", T_REMOVED))


def event_kind(text: str) -> str:
    """The kind (lines.T_...) of a table event's words; ``"other"`` for notices of the client."""
    for words, kind in _EVENT_KINDS:
        if words in text:
            return kind
    return "other"


def bracket_amount(text: str, chips: bool) -> tuple[int, int]:
    """An amount as these sites write it -> (digits as an int, decimal places), (-1, 0) if not one
    (:func:`_any_amount`). The usual forms (``$0.25``, ``1,500``, ``$0.05 USD``) by the shared
    reader at once: a comma there only groups thousands, a point is the decimal point."""
    t = text.strip()
    if t and (t[0] == "[" or t[0] == "(") and (t[-1] == "]" or t[-1] == ")"):
        t = t[1:-1].strip()
    n = len(t)
    if n > 4 and t[n - 4] == " " and t[n - 3:] in _ISO_SET:
        t = t[:n - 4]
        n -= 4
    if n == 0:
        return -1, 0
    comma = t.rfind(",")
    if (comma < 0 or n - comma == 4) and not (chips and "." in t) and " " not in t and t[n - 1] not in _SYMBOLS \
            and "\xa0" not in t:
        value, places = amount_units(t)
        if value >= 0:
            return value, places
    return _any_amount(t, chips)


def _any_amount(text: str, chips: bool) -> tuple[int, int]:
    """An amount as these sites write it -> (digits as an int, decimal places), (-1, 0) if not one.

    ``[$0.25 USD]``, ``( $1,594 )``, ``$ 1 USD``, ``0,50 €``, ``1.200`` (tournament chips, a
    dot grouping thousands), ``1 200``: brackets, a currency symbol before or after, an ISO code
    after, spaces and a closing full stop are dropped. A separator followed by exactly three
    digits groups thousands when another separator follows or when ``chips`` (tournament chips
    are whole); otherwise the last ``.`` or ``,`` is the decimal point. Exact: digits, never a
    float."""
    t = text.strip()
    if t.endswith("."):
        t = t[:-1].rstrip()
    if t.startswith("[") or t.startswith("("):
        t = t[1:]
    if t.endswith("]") or t.endswith(")"):
        t = t[:-1]
    t = t.strip()
    for iso in _ISO:
        if t.endswith(iso):
            t = t[:-3].rstrip()
            break
    if t.endswith(" chips"):
        t = t[:-6].rstrip()
    if t and t[0] in _SYMBOLS:
        t = t[1:].lstrip()
    if t and t[-1] in _SYMBOLS:
        t = t[:-1].rstrip()
    t = t.replace(" ", "").replace("\xc2\xa0", "").replace("\xa0", "").replace("'", "")
    if not t:
        return -1, 0
    # find the decimal point: the last separator unless it groups thousands
    last = max(t.rfind("."), t.rfind(","))
    point = -1
    if last >= 0:
        tail = len(t) - last - 1
        other = t.find("," if t[last] == "." else ".")
        if tail != 3:
            point = last
        elif other >= 0 and other < last:
            point = last  # "1,234.567"? three places after a point that follows a comma
        elif chips:
            point = -1
        elif t[last] == "." and t.count(".") == 1:
            point = last  # "$0.125": a point with three places (no thousands group has one)
        else:
            point = -1
    value = 0
    digits = 0
    places = 0
    for i in range(len(t)):
        ch = t[i]
        o = ord(ch)
        if 48 <= o <= 57:
            value = value * 10 + (o - 48)
            digits += 1
            if digits > MAX_AMOUNT_DIGITS:
                return -2, 0
            if point >= 0 and i > point:
                places += 1
        elif (ch == "," or ch == ".") and i != point:
            if i == 0 or i == len(t) - 1:
                return -1, 0
        elif i == point:
            if i == len(t) - 1:
                return -1, 0
        else:
            return -1, 0
    if digits == 0:
        return -1, 0
    while places > 0 and value % 10 == 0:
        value //= 10
        places -= 1
    return value, places


# Card words of the clients' languages (888 wrote its logs in the player's language): ranks
# Swedish (E ess, D dam, Kn knekt), Dutch (H heer, V vrouw, B boer), German (B bube, D dame);
# suits Spanish (t treboles, p picas, e ... as the site writes them), German words. Used only when
# the word is no standard card.
_RANKS: Final[dict[str, str]] = {"10": "T", "E": "A", "D": "Q", "Kn": "J", "H": "K", "V": "Q", "B": "J"}
_SUITS: Final[dict[str, str]] = {"t": "c", "p": "s", "e": "d", "o": "h", "Kreuz": "c", "Karo": "d", "Pik": "s",
                                 "Herz": "h"}


def card_word(word: str) -> str:
    """A card as the site writes it -> its standard two-character text ("" if not a card)."""
    if len(word) == 2:
        try:
            card_from_text(word)
            return word
        except ValueError:
            pass
    for rank, std_rank in _RANKS.items():
        if word.startswith(rank):
            suit = word[len(rank):]
            std = std_rank + _SUITS.get(suit, suit)
            try:
                card_from_text(std)
                return std
            except ValueError:
                continue
    if len(word) >= 2:
        std = word[0] + _SUITS.get(word[1:], word[1:])
        try:
            card_from_text(std)
            return std
        except ValueError:
            pass
    return ""


def cards_of(text: str) -> tuple[int, ...] | None:
    """``" 8c, Qs "`` or ``"  3h Js "`` (commas or spaces; ``10`` for a ten, the client's language's
    card words) -> card codes, or None."""
    out: list[int] = []
    for word in text.replace(",", " ").split():
        std = card_word(word)
        if not std:
            return None
        out.append(card_from_text(std))
    return tuple(out)


def _card_text(codes: tuple[int, ...], text: str) -> str:
    """The PHH text of cards read by :func:`cards_of` (``"8cQs"``)."""
    out = ""
    for word in text.replace(",", " ").split():
        out += card_word(word)
    return out


def bracketed(rest: str) -> str:
    """The text inside the first ``[...]`` of ``rest`` ("" if none)."""
    b = rest.find("[")
    if b < 0:
        return ""
    e = rest.find("]", b)
    return rest[b + 1:e] if e > b else ""


class SiteHand:
    """One hand of a bracketed text site, read line by line. A site module fills the header's
    fields (:attr:`fields`, :attr:`variant`, the stakes, the button, the row of the first seat
    line) and calls :meth:`read_body`."""

    def __init__(self, chunk: Chunk, text: str, venue: str, site: str) -> None:
        self.chunk = chunk
        self.text = text
        self.venue = venue
        self.site = site  # "888poker", "PartyPoker": named in messages
        self.findings: list[Finding] = []
        self.fatal = False
        self.places = 0
        self.raw: list[tuple[int, int]] = []  # every amount read: (digits, places)
        self.chips = False  # tournament chips: whole numbers, a dot may group thousands
        self.fields: dict = {"venue": venue}
        self.variant = ""
        self.fixed = False
        self.hole = 2
        self.small = -1  # the small blind (or small bet, fixed limit) as an index into raw; -1 unknown
        self.big = -1
        self.button = 0
        # Whether the site's "wins"/"collected" amount includes the uncalled bet it gave back:
        # RETURNS_NEVER, RETURNS_ALWAYS (PartyPoker), RETURNS_INFERRED (888poker: the site's logs
        # hold it in some hands, not in others; the sum of the wins tells which).
        self.returns_in_wins = RETURNS_NEVER
        self.second_small_live = False  # a second "posts small blind" (a new player's) is live (PartyPoker)
        self.events: list[dict] = []  # table events: {line, kind, player, text} (lines.TableEvent)
        self.unread_lines: list[dict] = []  # lines read as nothing: site-unknown-line warnings

    # -- helpers -----------------------------------------------------------------------------
    def find(self, code: str, message: str, line: int, fatal: bool = False) -> None:
        self.findings.append(Finding(code, message, line=self.chunk.line + line, column=1))
        self.fatal = self.fatal or fatal

    def amount(self, text: str, line: int, phh: bool = True) -> int:
        """``text`` read as an amount, kept as ``self.raw[index]``; -1 (with a finding) if it is not one."""
        value, places = bracket_amount(text, self.chips)
        why = amount_problem(text.strip(), value, places) if value >= 0 or value == -2 else None
        if why is not None:  # past the limits every importer applies (importers/limits.py)
            self.find(INVALID, f"line {self.chunk.line + line}: {why}", line, True)
            return -1
        if value < 0:
            self.find("site-unreadable-line", f"line {self.chunk.line + line}: {text.strip()[:60]!r} is not an amount",
                      line, True)
            return -1
        if phh and places > self.places:
            self.places = places
        self.raw.append((value, places))
        return len(self.raw) - 1

    def units(self, index: int) -> int:
        if index < 0:
            return 0
        value, places = self.raw[index]
        if places > self.places:
            return value // 10 ** (places - self.places)
        return value * 10 ** (self.places - places)

    def set_date(self, year: int, month: int, day: int, h: int, mi: int, s: int, line: int = 0) -> None:
        """The hand's date and time, each only if real (else an ``invalid-field`` finding, the hand read)."""
        why = date_problem(str(year), str(month), str(day))
        if why is None:
            self.fields["year"] = year
            self.fields["month"] = month
            self.fields["day"] = day
        else:
            self.find(INVALID, f"line {self.chunk.line + line}: {why}", line)
        why = time_problem(str(h), str(mi), str(s))
        if why is None:
            self.fields["time"] = _dt.time(h, mi, s)
        else:
            self.find(INVALID, f"line {self.chunk.line + line}: {why}", line)

    def number(self, text: str, what: str, line: int) -> int:
        """An id or a level (ASCII digits) within the limits, or -1 (with an ``invalid-field`` finding)."""
        why = digits_problem(text, what)
        if why is not None:
            self.find(INVALID, f"line {self.chunk.line + line}: {why}", line, True)
            return -1
        return int(text)

    def seat_count(self, text: str, line: int) -> None:
        """The table's size (``6 Max``, ``2/6``): the ``seat_count`` field, or an ``invalid-field`` finding."""
        why = table_problem(text)
        if why is not None:
            self.find(INVALID, f"line {self.chunk.line + line}: {why}", line, True)
        else:
            self.fields["seat_count"] = int(text)

    def set_button(self, text: str, line: int) -> None:
        why = seat_problem(text, "the button's seat")
        if why is not None:
            self.find(INVALID, f"line {self.chunk.line + line}: {why}", line, True)
        else:
            self.button = int(text)

    def unreadable(self) -> ReadResult:
        return self.result(None)

    def result(self, hand: Hand | None) -> ReadResult:
        if hand is None:  # (a hand read says its unread lines by its `_site_unread`, as its conversion does)
            for entry in self.unread_lines:
                self.findings.append(Finding("site-unknown-line", f"line {entry['line']}: {entry['text']}",
                                             line=entry["line"], column=1))
        if "\n#encoding " in self.text:
            if hand is not None and hand.fields is not None:
                hand.fields["_site_encoding"] = "cp1252"  # said by site_totals (a converted file says it too)
            else:
                self.findings.append(Finding("site-encoding", ENCODING_MESSAGE, line=self.chunk.line, column=1))
        known = None
        if hand is None:  # an unreadable hand is still named by what its header said
            known = {k: self.fields[k] for k in ("hand", "table", "venue", "event") if k in self.fields} or None
        return ReadResult(self.chunk.source, self.chunk.hand_key, hand, tuple(self.findings), self.text,
                          self.chunk.line, known)

    def unread(self, line: int, text: str, why: str = "not a line the importer knows") -> None:
        """A line read as nothing (no action, no table event): a ``site-unknown-line`` warning,
        the hand still audited; kept as the hand's ``_site_unread`` (a converted file says it too)."""
        self.unread_lines.append({"line": self.chunk.line + line, "text": f"{why}: {text[:160]}"})

    def event(self, line: int, player: str, text: str, kind: str) -> None:
        """A table event kept in the hand's ``_site_events`` (:func:`.lines.table_events`)."""
        self.events.append({"line": self.chunk.line + line, "kind": kind, "player": player, "text": text[:200]})

    def other_event(self, line: int, text: str) -> None:
        """A line about nobody seated: a table event, or one of the hand's own lines said elsewhere
        (a tournament's level and blinds, a lead-in, Omaha hi/lo's hand descriptions)."""
        for s in STRUCTURE_STARTS:
            if text.startswith(s):
                return
        self.event(line, "", text, event_kind(text))

    # -- seats and body ------------------------------------------------------------------------
    def read_body(self, lines: list[str], start: int) -> ReadResult:
        """Seat lines from ``start``, then the hand's lines to the end."""
        seat_nos: list[int] = []
        names: list[str] = []
        stacks: list[int] = []
        i = start
        n_lines = len(lines)
        while i < n_lines:
            line = lines[i].rstrip()
            if not line:
                i += 1
                continue
            if not (line.startswith("Seat ") or line.startswith("seat ")):
                break
            colon = line.find(": ")
            open_ = line.rfind("( ")
            if open_ < 0:
                open_ = line.rfind("(")
            close = line.rfind(")")
            if colon < 0 or open_ <= colon or close < open_ or not line[5:colon].strip().isdigit():
                if line.endswith(" is the button"):
                    i += 1
                    continue
                break
            name = line[colon + 2:open_].strip()
            if not name:
                self.find("site-unknown-player", f"line {self.chunk.line + i}: seat {line[5:colon].strip()} names no "
                          "player: the hand's lines cannot be told apart", i, True)
                return self.unreadable()
            why = seat_problem(line[5:colon].strip())
            if why is not None:
                self.find(INVALID, f"line {self.chunk.line + i}: {why}", i, True)
                return self.unreadable()
            seat_nos.append(int(line[5:colon].strip()))
            names.append(line[colon + 2:open_].rstrip())
            stacks.append(self.amount(line[open_ + 1:close], i))
            i += 1
        if not names:
            self.find("site-truncated-hand", f"line {self.chunk.line + i}: no seat lines: the hand cannot be replayed",
                      i, True)
            return self.unreadable()
        problems = seats_problems(seat_nos, names)  # two players in a seat, a name in two seats
        for why in problems:
            self.find(INVALID, f"line {self.chunk.line + start}: {why}", start, True)
        if problems:
            return self.unreadable()
        order = sorted(range(len(names)), key=lambda k: seat_nos[k])
        seat_nos = [seat_nos[k] for k in order]
        names = [names[k] for k in order]
        stacks = [stacks[k] for k in order]
        return self._body(lines, i, seat_nos, names, stacks)

    def player_kind(self, rest: str) -> tuple[int, str, str]:
        """The line after ``NAME`` (``rest`` starts with a space or ``:``) -> (kind, amount text,
        cards text). Both sites' vocabularies: each writes only its own (see the grammars)."""
        if rest.startswith(": "):
            return K_EVENT, "", ""  # chat: "NAME: text"
        r = rest[1:].rstrip()
        if r == "folds" or r == "folds." or r.startswith("folds "):
            return K_FOLD, "", ""
        if r == "checks" or r == "checks.":
            return K_CHECK, "", ""
        if r.startswith("calls "):
            return K_CALL, bracketed(r) or r[6:], ""
        if r.startswith("bets "):
            return K_BET, bracketed(r) or r[5:], ""
        if r.startswith("raises "):
            return K_RAISE, bracketed(r) or r[7:], ""
        if r.startswith("is all-In") or r.startswith("is all-in"):
            return K_ALL_IN, bracketed(r), ""
        if r.startswith("posts "):
            p = r[6:]
            if p.startswith("small blind "):
                return K_SB, bracketed(p), ""
            if p.startswith("big blind + dead "):
                return K_DEAD, bracketed(p), ""
            if p.startswith("big blind "):
                return K_BB, bracketed(p), ""
            if p.startswith("ante ") or p.startswith("the ante ") or p.startswith("ante of "):
                return K_ANTE, bracketed(p), ""
            if p.startswith("dead blind "):
                return K_DEAD, bracketed(p), ""
            if p.startswith("dead small blind ") or p.startswith("small blind dead "):
                return K_DEAD_SMALL, bracketed(p), ""
            return K_UNKNOWN, "", ""
        if r.startswith("shows ["):
            return K_SHOWS, "", bracketed(r)
        if r.startswith("shows") and r.endswith("for low."):
            return K_EVENT, "", ""  # PartyPoker's low hand: "shows7,5,4,2,A  for low."
        if r.startswith("mucks [") or r.startswith("doesn't show ["):
            return K_MUCKS, "", bracketed(r)
        if (r == "mucks" or r == "does not show cards." or r == "does not show cards" or r == "did not show his hand"
                or r == "did not show her hand" or r == "did not show their hand" or r == "doesn't show"
                or r == "mucks hand"):
            return K_MUCKS, "", ""
        if r.startswith("collected "):
            return K_WINS, bracketed(r) or r[10:], ""
        if r.startswith("wins "):
            w = r[5:]
            if w.startswith("Lo ("):
                e = w.find(")")
                return (K_WINS, w[4:e], "") if e > 0 else (K_UNKNOWN, "", "")
            cut = w.find(" from the ")
            if cut < 0:
                cut = w.find(" with ")
            return K_WINS, w if cut < 0 else w[:cut], ""
        for end in EVENT_ENDS:
            if rest == end or rest.rstrip() == end:
                return K_EVENT, "", ""
        for part in EVENT_PARTS:
            if rest.startswith(part):
                return K_EVENT, "", ""
        return K_UNKNOWN, "", ""

    @staticmethod
    def other_line(line: str) -> bool:
        """A line about nobody seated (or nobody in particular) that is no action."""
        for s in OTHER_STARTS:
            if line.startswith(s):
                return True
        for p in OTHER_PARTS:
            if p in line:
                return True
        return line.startswith("#encoding ")

    def _body(self, lines: list[str], start: int, seat_nos: list[int], names: list[str],
              stacks: list[int]) -> ReadResult:
        n_seats = len(names)
        by_length = sorted(range(n_seats), key=lambda k: -len(names[k]))
        ordered = [names[k] for k in by_length]
        posts: list[list[tuple[int, int]]] = [[] for _ in range(n_seats)]  # (kind, amount index)
        # events: (kind, seat position, amount index, cards)
        events: list[tuple[int, int, int, str]] = []
        wins = [-1] * n_seats
        known = [""] * n_seats
        active = [False] * n_seats
        phase = _POSTS
        pending: list[tuple[int, int]] = []  # folds before the deal line: (position, line index)
        streets = 0  # board streets dealt
        last = start - 1
        for i in range(start, len(lines)):
            line = lines[i].rstrip()
            if not line:
                continue
            last = i
            if line.startswith("** "):
                lower = line.lower()
                if lower.startswith("** dealing down cards"):
                    phase = _DEAL
                    events.append((-1, -1, -1, "deal"))
                    for fpos, fline in pending:
                        self.event(fline, names[fpos], "folds before the deal: not dealt in", T_SITS_OUT)
                    pending = []
                elif lower.startswith("** dealing flop") or lower.startswith("** dealing turn") or \
                        lower.startswith("** dealing river"):
                    cards = bracketed(line)
                    if phase == _POSTS:
                        _deal_unwritten(events, pending, active)
                        pending = []
                        phase = _DEAL
                    events.append((-2, -1, -1, cards))
                    streets += 1
                elif lower.startswith("** summary"):
                    if phase == _POSTS:  # (no deal line and no action: the pending folds were the hand's)
                        _deal_unwritten(events, pending, active)
                        pending = []
                    phase = _SUMMARY
                else:
                    self.unread(i, line, "an unknown street marker")
                continue
            if line.startswith("Dealt to "):
                k = player_at(line, ordered, 9)
                if k < 0:
                    self.find("site-unknown-player", f"line {self.chunk.line + i}: cards dealt to someone not seated: "
                              f"{line[:120]!r}", i, True)
                    continue
                pos = by_length[k]
                dealt_text = bracketed(line[9 + len(ordered[k]):])
                if cards_of(dealt_text) is None:
                    self.find("invalid-card", f"line {self.chunk.line + i}: the cards dealt to {names[pos]} "
                              f"[{dealt_text[:40]}] are not cards", i, True)
                    continue
                known[pos] = dealt_text
                active[pos] = True
                continue
            k = player_at(line, ordered)
            if k < 0:
                if self.other_line(line):
                    self.other_event(i, line)
                    continue
                if _looks_like_action(line):
                    self.find("site-unknown-player", f"line {self.chunk.line + i}: an action by someone not in the "
                              f"seat list: {line[:120]!r}", i, True)
                    continue
                self.unread(i, line)
                continue
            pos = by_length[k]
            kind, a_text, cards = self.player_kind(line[len(ordered[k]):])
            if kind == K_UNKNOWN:
                if self.other_line(line):
                    self.event(i, names[pos], line[len(ordered[k]):].strip(), event_kind(line))
                    continue
                # a line of a seated player that is no action or event read: it may have moved chips
                self.find("site-unreadable-line", f"line {self.chunk.line + i}: a line of {names[pos]} that is not "
                          f"one of a {self.site} hand: {line[:120]!r}", i, True)
                continue
            if kind == K_EVENT:
                rest = line[len(ordered[k]):]
                if rest.endswith("for low."):
                    continue  # PartyPoker's low hand, said: "shows7,5,4,2,A  for low."
                chat = rest.startswith(":")
                self.event(i, names[pos], rest[1:].strip() if chat else rest.strip(),
                           T_CHAT if chat else event_kind(rest))
                continue
            if kind == K_WINS:
                a = self.amount(a_text, i)  # (counted in the scale: the winnings are in the hand's units)
                if a >= 0:
                    wins[pos] = a if wins[pos] < 0 else self._sum(wins[pos], a)
                continue
            if kind >= K_SB and kind <= K_DEAD_SMALL:
                if kind == K_DEAD and "+" in a_text:  # 888: "[$1 + $2]": dead small, live big
                    parts = a_text.split("+")
                    a = self.amount(parts[0], i)
                    b = self.amount(parts[1], i)
                    if a >= 0 and b >= 0:
                        posts[pos].append((K_DEAD, self._sum(a, b)))
                else:
                    a = self.amount(a_text, i)
                    if a >= 0:
                        posts[pos].append((kind, a))
                active[pos] = True
                continue
            if kind == K_FOLD and phase == _POSTS:
                # a fold before the deal line: among the posts, a player who declines to post
                # (888 writes it for a seat owing a blind) is not dealt in; if an action follows
                # before any deal line, the line is missing and the folds were the hand's
                pending.append((pos, i))
                continue
            if phase == _POSTS:  # an action with no deal line before it: the hand's deal is unwritten
                phase = _DEAL
                _deal_unwritten(events, pending, active)
                pending = []
            active[pos] = True
            if kind == K_SHOWS or kind == K_MUCKS:
                if cards:
                    if cards_of(cards) is None:
                        self.find("invalid-card", f"line {self.chunk.line + i}: [{cards[:40]}] are not cards", i, True)
                        continue
                    known[pos] = cards
                events.append((kind, pos, -1, cards))
                continue
            if kind == K_FOLD or kind == K_CHECK:
                events.append((kind, pos, -1, ""))
                continue
            a = self.amount(a_text, i)
            events.append((kind, pos, a, ""))
        if phase == _POSTS and pending:
            _deal_unwritten(events, pending, active)
        if self.events:
            self.fields["_site_events"] = list(self.events)
        if self.unread_lines:
            self.fields["_site_unread"] = list(self.unread_lines)
        dealt = [k for k in range(n_seats) if active[k]]
        if len(dealt) < 2:
            if not self.fatal:
                self.find("site-truncated-hand", f"line {self.chunk.line + last}: {len(dealt)} player(s) dealt in: "
                          "a hand needs 2 to be replayed", max(last, 0), True)
            return self.unreadable()
        if not any(w >= 0 for w in wins):
            self.find("site-truncated-hand", f"line {self.chunk.line + last}: the hand stops here, before anyone "
                      "is awarded a pot: not read", max(last, 0), True)
            return self.unreadable()
        if self.fatal:
            return self.unreadable()
        return self._build(dealt, seat_nos, names, stacks, posts, events, known, wins)

    def _sum(self, a: int, b: int) -> int:
        (va, pa), (vb, pb) = self.raw[a], self.raw[b]
        p = max(pa, pb)
        self.raw.append((va * 10 ** (p - pa) + vb * 10 ** (p - pb), p))
        return len(self.raw) - 1

    def _build(self, dealt: list[int], seat_nos: list[int], names: list[str], stacks: list[int],
               posts: list[list[tuple[int, int]]], events: list[tuple[int, int, int, str]], known: list[str],
               wins: list[int]) -> ReadResult:
        sb_seat = -1
        for k in dealt:
            for kind, _ in posts[k]:
                if kind == K_SB and sb_seat < 0:
                    sb_seat = seat_nos[k]
        dealt_seats = [seat_nos[k] for k in dealt]
        button = self.button
        if button == 0 and sb_seat >= 0:
            button = dealt_seats[dealt_seats.index(sb_seat) - 1]
        order = phh_order(dealt_seats, button, sb_seat)
        positions = [dealt[o] for o in order]
        n = len(positions)
        p_of = {pos: p for p, pos in enumerate(positions)}
        heads_up = n == 2
        antes = [0] * n
        blinds = [0] * n
        street_in = [0] * n  # what each player has put in on this street (live)
        total_in = [0] * n  # in the hand, dead money and antes included
        small_seen = big_seen = False
        posted_big = 0  # the first big blind posted: the big blind when the header states none
        for k in dealt:
            for kind, a in posts[k]:
                if kind == K_BB and posted_big == 0:
                    posted_big = self.units(a)
        if self.fixed:
            live_big = self.units(self.small) if self.small >= 0 else posted_big
        else:
            live_big = self.units(self.big) if self.big >= 0 else posted_big
            if 0 < posted_big != live_big and not self.fixed and _full_post(posts, dealt, stacks, self, posted_big):
                # a tournament's header may name another level than the blinds posted (888 writes
                # the next level's): the big blind posted in full is the hand's
                live_big = posted_big
                self.fields["_site_header_big_blind"] = amount_text(self.units(self.big), self.places)
        for p in range(n):
            slot = 1 - p if heads_up else p  # heads-up the forced bets are written reversed
            for kind, a in posts[positions[p]]:
                u = self.units(a)
                total_in[p] += u
                if kind == K_ANTE:
                    antes[slot] += u
                elif kind == K_SB and not small_seen:
                    blinds[slot] += u
                    street_in[p] += u
                    small_seen = True
                elif kind == K_BB and not big_seen:
                    blinds[slot] += u
                    street_in[p] += u
                    big_seen = True
                elif kind == K_SB and self.second_small_live and not _folds_first(events, positions[p]):
                    # PartyPoker: a new player's small blind counts towards the call ("calls
                    # [$0.05]" after it, the big blind being $0.10). PHH has no live blind outside
                    # the blind seats, so it is not a blind here: what the player puts in with the
                    # post and the call is their call, the same chips. Folded at once, it is dead.
                    street_in[p] += u
                else:  # posted out of turn (a new player, a missed blind): negative, the big blind part live
                    blinds[slot] -= u
                    street_in[p] += live_big if u >= live_big else 0
        if self.fixed:
            small_blind = self.units(self.small) if self.small >= 0 else posted_big
            big_blind = self.units(self.big) if self.big >= 0 else 2 * small_blind
        else:
            small_blind = 0
            big_blind = live_big
        stack = [self.units(stacks[pos]) for pos in positions]
        live_in = list(street_in)  # in the hand, live (antes and dead blinds are never returned)
        left = [stack[p] - total_in[p] for p in range(n)]
        high = max(street_in) if street_in else 0
        actions: list[Action] = []
        texts: list[str] = []
        folded = 0
        for e in range(len(events)):
            kind, pos, a, cards = events[e]
            if kind == -1:  # the deal
                for q in range(n):
                    shown = known[positions[q]]
                    codes = cards_of(shown) if shown else None
                    if codes is None or len(codes) != self.hole:
                        text = "??" * self.hole
                        codes = tuple([-1] * self.hole)
                        action = Action(DEAL_HOLE, q, _unknown_cards(self.hole))
                    else:
                        text = _card_text(codes, shown)
                        action = Action(DEAL_HOLE, q, codes)
                    actions.append(action)
                    texts.append(f"d dh p{q + 1} {text}")
                continue
            if kind == -2:  # a board street
                codes = cards_of(cards)
                if codes is None or not codes:
                    self.find("invalid-card", f"board [{cards}] is not cards", 0, True)
                    continue
                actions.append(Action(DEAL_BOARD, None, codes))
                texts.append(f"d db {_card_text(codes, cards)}")
                for q in range(n):
                    street_in[q] = 0
                high = 0
                continue
            p = p_of[pos]
            if kind == K_FOLD:
                folded += 1
                actions.append(Action(FOLD, p))
                texts.append(f"p{p + 1} f")
                continue
            if kind == K_CHECK:
                actions.append(Action(CHECK_CALL, p))
                texts.append(f"p{p + 1} cc")
                continue
            if kind == K_SHOWS or (kind == K_MUCKS and cards and wins[pos] >= 0):
                # 888 writes "mucks [cards]" and PartyPoker "doesn't show [cards]" also of hands
                # that were tabled and won (888 awards pots to them): a player the site awards is
                # settled by the cards it wrote; one it does not, as having mucked
                if folded >= n - 1:
                    note = f"p{p + 1} shows [{cards}] after the hand" if kind == K_SHOWS else \
                        f"p{p + 1} does not show after the hand"
                    actions.append(Action(NOOP, None, None, None, note))
                    texts.append(f"# {note}")
                else:
                    codes = cards_of(cards)
                    if codes is None:
                        continue
                    actions.append(Action(SHOW_MUCK, p, codes))
                    texts.append(f"p{p + 1} sm {_card_text(codes, cards)}")
                continue
            if kind == K_MUCKS:
                if folded >= n - 1:
                    note = f"p{p + 1} does not show after the hand"
                    actions.append(Action(NOOP, None, None, None, note))
                    texts.append(f"# {note}")
                else:
                    actions.append(Action(SHOW_MUCK, p))
                    texts.append(f"p{p + 1} sm")
                continue
            u = self.units(a)
            left[p] -= u
            total_in[p] += u
            live_in[p] += u
            to = street_in[p] + u
            street_in[p] = to
            if kind == K_ALL_IN and to <= high or kind == K_CALL and (to <= high or not _answered(events, e)):
                # (a call of more than the highest bet, the full big blind called after a short
                # all-in one, that nobody answers: the excess comes back, as a call's would)
                actions.append(Action(CHECK_CALL, p))
                texts.append(f"p{p + 1} cc")
                continue
            # a call of more than the highest bet that others then call: the full big blind
            # called after a short all-in one (the site's rule); replayed as the bet it is
            # a bet or raise: PHH's amount is the total the player has in on the street
            high = to if to > high else high
            actions.append(Action(BET_RAISE, p, None, to))
            texts.append(f"p{p + 1} cbr {amount_text(to, self.places)}")
        if self.fatal:
            return self.unreadable()
        # The uncalled bet: what the player with the most in put in above the next most.
        returned = [0] * n
        top = max(range(n), key=lambda q: live_in[q])
        second = max([live_in[q] for q in range(n) if q != top])
        if live_in[top] > second:
            returned[top] = live_in[top] - second
        mode = self.returns_in_wins
        if mode == RETURNS_INFERRED:
            # the site's wins hold the return exactly when they add up to more than the pot
            # without it (a pot is never more than what was put in less the return)
            stated = 0
            for w_index in wins:
                stated += self.units(w_index) if w_index >= 0 else 0
            mode = RETURNS_ALWAYS if returned[top] > 0 and stated > sum(total_in) - returned[top] else RETURNS_NEVER
        largest = max([value * 10 ** (self.places - places) for value, places in self.raw] or [0])
        why = scaled_problem(largest, sum(stack))
        if why is not None:  # each amount within the limits, but not all at the hand's one scale
            self.find(INVALID, why, 0, True)
            return self.unreadable()
        fields = self.fields
        fields["variant"] = self.variant
        fields["seats"] = [seat_nos[pos] for pos in positions]
        fields["players"] = [names[pos] for pos in positions]
        fields["actions"] = texts
        collected: list[int] = []
        for p in range(n):
            w = self.units(wins[positions[p]]) if wins[positions[p]] >= 0 else 0
            if mode != RETURNS_NEVER and returned[p] > 0 and w >= returned[p]:
                w -= returned[p]  # the site's win includes the uncalled bet it gave back
            collected.append(w)
        fields["_site_collected"] = [amount_text(c, self.places) for c in collected]
        fields["_site_returned"] = ["" for _ in range(n)]  # neither site writes its uncalled returns
        small, big = small_blind, big_blind
        fixed = self.fixed
        hand = Hand(
            self.chunk.source, self.chunk.hand_key, self.variant, n, self.places, tuple(antes), tuple(blinds), None,
            small if fixed else None, big if fixed else None, None if fixed else big,
            tuple(stack), tuple(actions), tuple(texts), False, None, tuple(collected), fields["hand"], fields,
            self.text, self.chunk.line)
        return self.result(hand)


def _full_post(posts: list[list[tuple[int, int]]], dealt: list[int], stacks: list[int], hand: "SiteHand",
               amount: int) -> bool:
    """Whether the first big blind (``amount``) was posted by a player who had chips left."""
    for k in dealt:
        spent = 0
        big = False
        for kind, a in posts[k]:
            spent += hand.units(a)
            big = big or kind == K_BB
        if big:
            return hand.units(stacks[k]) > spent
    return False


def _answered(events: list[tuple[int, int, int, str]], e: int) -> bool:
    """Whether another player puts chips in after ``events[e]`` on the same street."""
    pos = events[e][1]
    for k in range(e + 1, len(events)):
        kind, p, _, _ = events[k]
        if kind == -2:
            return False
        if p != pos and (kind == K_CALL or kind == K_BET or kind == K_RAISE or kind == K_ALL_IN):
            return True
    return False


def _folds_first(events: list[tuple[int, int, int, str]], pos: int) -> bool:
    """Whether the player at seat position ``pos`` folds as their first action."""
    for kind, p, _, _ in events:
        if p == pos:
            return kind == K_FOLD
    return True


def _deal_unwritten(events: list[tuple[int, int, int, str]], pending: list[tuple[int, int]], active: list[bool]) -> None:
    """The deal, where the hand does not write its line (its first action, street or summary
    comes first): the folds before it were the hand's own."""
    events.append((-1, -1, -1, "deal"))
    for pos, _ in pending:
        active[pos] = True
        events.append((K_FOLD, pos, -1, ""))


_ACTION_WORDS: Final[tuple[str, ...]] = (" folds", " checks", " calls [", " bets [", " raises [", " posts ",
                                          " is all-In", " shows [", " collected [", " wins ", " mucks")


def _looks_like_action(line: str) -> bool:
    for w in _ACTION_WORDS:
        if w in line:
            return True
    return False


def _unknown_cards(n: int) -> tuple[int, ...]:
    return tuple([card_from_text("??") for _ in range(n)])


def problem_result(chunk: Chunk) -> ReadResult:
    """The ReadResult of a chunk the splitter could not cut as a hand (text before the first header)."""
    problem = chunk.problem
    code, message = problem if problem is not None else ("site-unreadable-line", "not a hand")
    return ReadResult(chunk.source, chunk.hand_key, None, (Finding(code, message, line=chunk.line, column=1),), "",
                      chunk.line)


# ---------------------------------------------------------------------------------------------
# the grammars: each site's line vocabulary as a Lark grammar (poker888.lark, partypoker.lark),
# the format's documentation, which the tests hold the string tests above to

_PARSERS: dict = {}  # site module name -> its Lark parser, built on first use


def grammar_parser(module: str):  # -> lark.Lark (untyped: lark is not part of the compiled build's types)
    """The Lark parser of ``module``'s grammar (``poker888``, ``partypoker``)."""
    if module not in _PARSERS:
        import os

        from lark import Lark

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{module}.lark")
        with open(path, encoding="utf-8") as f:
            _PARSERS[module] = Lark(f.read(), parser="earley", lexer="dynamic", ambiguity="resolve")
    return _PARSERS[module]


def grammar_rule(module: str, line: str, names: list[str]) -> str:
    """The grammar's name for one line ("call", "seat", "event", ...), its seated name (the
    longest of ``names`` it starts with, or that follows "Dealt to ") replaced by PLAYER; "" when
    the grammar does not accept it."""
    from lark import LarkError, Tree

    ordered = sorted(names, key=lambda s: -len(s))
    text = line.rstrip()
    start = 9 if text.startswith("Dealt to ") else 0
    if text.startswith("Seat ") and ": " in text:
        start = text.find(": ") + 2
    for k in range(len(ordered)):
        name = ordered[k]
        if text.startswith(name, start) and (len(text) == start + len(name) or text[start + len(name)] in " :("):
            text = f"{text[:start]}\x01{names.index(name)}\x02{text[start + len(name):]}"
            break
    parser = grammar_parser(module)
    try:
        tree = parser.parse(text)
    except LarkError:
        return ""
    node = tree.children[0]
    return str(node.data) if isinstance(node, Tree) else ""
