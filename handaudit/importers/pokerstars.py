"""PokerStars hand histories (the site's text) -> the same :class:`~handaudit.core.hand.Hand` the
PHH reader makes, as a :class:`~handaudit.grammar.result.ReadResult` with findings.

The header, table and seat lines are read by regular expressions (once a hand); every other line
by :mod:`.lines` (string tests, the Lark grammar ``pokerstars.lark`` for the rest). What PHH
cannot hold is kept as user fields ``_site_...`` (the site's totals, its collections and
returns, run it twice, cash-outs) and reconciled after the settlement
(:mod:`handaudit.settlement.site_totals`). Amounts are exact integers at the hand's scale.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Final

from ..core.amounts import amount_text
from ..core.hand import BET_RAISE, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, FOLD, NOOP, SHOW_MUCK, Action, Hand
from ..core.cards import card_from_text
from ..core.currencies import hand_minor_units
from ..findings.finding import Finding
from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from . import lines as L
from .common import CURRENCY_OF_SYMBOL, TABLE_LINE, amount_units, currency_symbol, phh_order
from .limits import (INVALID, MAX_PLACES, MAX_PLAYERS, MAX_SEAT, MAX_UNITS, amount_problem, date_problem, digits_problem, scaled_problem, seat_problem,
                     seats_problems, table_problem, time_problem)

_HEADER: Final = re.compile(
    r"(?P<site>PokerStars(?: Zoom)? (?:Hand|Game)|PPPoker Hand) #(?P<id>\d+):\s+"
    r"(?:Tournament #(?P<tid>\d+),?\s+(?P<buyin>.*?)\s+)?"
    r"(?P<game>Hold'em|Omaha Hi/Lo|Omaha|5 Card Omaha Hi/Lo|5 Card Omaha|Razz|7 Card Stud Hi/Lo|7 Card Stud"
    r"|5 Card Draw|Triple Draw 2-7 Lowball|Single Draw 2-7 Lowball|Badugi|Courchevel Hi/Lo|Courchevel)"
    r"\s+(?P<limit>No Limit|Pot Limit|Limit)"
    r"(?:\s+-\s+(?:Match Round [IVXLC]+, )?Level (?P<level>[IVXLC\d]+))?"
    r"\s+\((?P<stakes>[^)]*)\)\s+-\s+(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})\s+(?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2})"
    r"\s*(?P<zone>[A-Za-z]*)")
# Any other game: read only to say which game PHH has no code for.
_OTHER_GAME: Final = re.compile(r"(?:PokerStars(?: Zoom)? (?:Hand|Game)|PPPoker Hand) #\d+:\s+(?:Tournament #\d+,?\s+)?"
                                r"(?P<game>[^(]+?)\s+(?P<limit>No Limit|Pot Limit|Limit)\b")
_TABLE: Final = re.compile(TABLE_LINE)
_SEAT: Final = re.compile(r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[$€£¥₹]?[\d.,]+) in chips(?:, [^)]*)?\)"
                          r"(?P<note> is sitting out| out of hand.*)?\s*$")
_STREET: Final = re.compile(r"\*\*\* (?:(?P<run>FIRST|SECOND) )?(?P<street>HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY) \*\*\*"
                            r"(?P<cards>(?: \[[^\]]*\])*)\s*(?:\{Rake: [^}]*\})?\s*$")
_TOTALS: Final = re.compile(r"Total pot (?P<total>\S+)(?P<pots>(?: Main pot \S+\.)?(?: Side pot(?:-\d+)? \S+\.)*)"
                            r" \| Rake (?P<rake>\S+)")
_SIDE: Final = re.compile(r"(?:Main pot|Side pot(?:-\d+)?) (\S+?)\.(?= |$)")
_ROMAN: Final = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}

# (game, limit) -> PHH variant code; the rest has no PHH code (a `site-game-not-phh` finding).
VARIANT_OF_GAME: Final[dict[tuple[str, str], str]] = {
    ("Hold'em", "No Limit"): "NT", ("Hold'em", "Limit"): "FT", ("Omaha", "Pot Limit"): "PO",
    ("Omaha Hi/Lo", "Limit"): "FO/8",
}
# Games PHH has a code for whose text this importer does not read yet (street markers, up cards,
# discards): a `site-game-not-read` finding naming the code.
NOT_READ_YET: Final[dict[tuple[str, str], str]] = {
    ("7 Card Stud", "Limit"): "F7S", ("7 Card Stud Hi/Lo", "Limit"): "F7S/8", ("Razz", "Limit"): "FR",
    ("Triple Draw 2-7 Lowball", "Limit"): "F2L3D", ("Single Draw 2-7 Lowball", "No Limit"): "N2L1D",
    ("Badugi", "Limit"): "FB",
}
_HOLE: Final[dict[str, int]] = {"NT": 2, "FT": 2, "PO": 4, "FO/8": 4}
_FIXED: Final = ("FT", "FO/8")
# What a line that starts with a seated player's name can be (the rest are said elsewhere).
_PLAYER_EVENTS: Final = frozenset([L.E_POST, L.E_FOLD, L.E_CHECK, L.E_CALL, L.E_BET, L.E_RAISE, L.E_SHOWS,
                                   L.E_MUCKS, L.E_NO_SHOW, L.E_COLLECTED, L.E_CASH_OUT])
# Phases of the hand's text.
_POSTS: Final = 0
_DEAL: Final = 1
_SHOWDOWN: Final = 2
_SECOND_SHOWDOWN: Final = 3
_SUMMARY: Final = 4


def _roman(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    total = 0
    for i in range(len(text)):
        v = _ROMAN.get(text[i], 0)
        if i + 1 < len(text) and _ROMAN.get(text[i + 1], 0) > v:
            total -= v
        else:
            total += v
    return total or None


def _cards(text: str) -> tuple[int, ...] | None:
    """``"Qh Jc 3h"`` -> card codes, None when a card is not one."""
    out: list[int] = []
    for word in text.split():
        try:
            out.append(card_from_text(word))
        except ValueError:
            return None
    return tuple(out)


class _Hand:
    """One hand's lines read into what a :class:`Hand` needs."""

    def __init__(self, chunk: Chunk, text: str, venue: str) -> None:
        self.chunk = chunk
        self.text = text
        self.venue = venue
        self.findings: list[Finding] = []
        self.fatal = False
        self.places = 0  # the most decimal places of an amount PHH holds
        self.raw: list[tuple[int, int]] = []  # every amount read: (digits, places), referred to by index
        self.largest = 0  # the largest amount's digits (the limits at the hand's scale: _build)

    # -- helpers -----------------------------------------------------------------------------
    def find(self, code: str, message: str, line: int, fatal: bool = False) -> None:
        self.findings.append(Finding(code, message, line=self.chunk.line + line, column=1))
        self.fatal = self.fatal or fatal

    def amount(self, text: str, line: int, phh: bool = True) -> int:
        """Reads ``text`` as an amount, kept as ``self.raw[index]``; -1 (with a finding) if bad."""
        value, places = amount_units(text.strip())
        if value == -2 or places > MAX_PLACES or value > MAX_UNITS:  # past the limits (importers/limits.py)
            self.find(INVALID, f"line {self.chunk.line + line}: {amount_problem(text.strip(), value, places)}",
                      line, True)
            return -1
        if value > self.largest:
            self.largest = value
        if value < 0:
            self.find("site-unknown-line", f"line {self.chunk.line + line}: {text!r} is not an amount", line, True)
            return -1
        if phh and places > self.places:
            self.places = places
        self.raw.append((value, places))
        return len(self.raw) - 1

    def units(self, index: int) -> int:
        """``self.raw[index]`` in units of the hand's scale (``self.places``)."""
        if index < 0:
            return 0
        value, places = self.raw[index]
        return value * 10 ** (self.places - places)

    def site_text(self, index: int) -> str:
        value, places = self.raw[index]
        return amount_text(value, places)

    # -- the read ----------------------------------------------------------------------------
    def read(self) -> ReadResult:
        chunk = self.chunk
        lines = self.text.split("\n")
        header = _HEADER.match(lines[0])
        if header is None:
            other = _OTHER_GAME.match(lines[0])
            if other is not None:
                self.find("site-game-not-phh", f"{other.group('game')} {other.group('limit')} has no PHH variant code: "
                          "the hand is not audited", 0, True)
            else:
                self.find("site-unknown-line", f"line {chunk.line}: the hand header cannot be read: "
                          f"{lines[0][:120]!r}", 0, True)
            return self._result(None)
        game, limit = header.group("game"), header.group("limit")
        variant = VARIANT_OF_GAME.get((game, limit))
        why = digits_problem(header.group("id"), "hand id")
        if why is not None:
            self.find(INVALID, f"line {chunk.line}: {why}", 0, True)
            return self._result(None)
        fields: dict = {"venue": self.venue, "hand": int(header.group("id"))}
        self._header_fields(header, fields)
        if variant is None and (game, limit) in NOT_READ_YET:
            self.find("site-game-not-read", f"{game} {limit} (PHH variant {NOT_READ_YET[(game, limit)]}) is not read "
                      "by the PokerStars importer yet: the hand is not audited", 0)
            return self._result(None)
        if variant is None:
            self.find("site-game-not-phh", f"{game} {limit} has no PHH variant code (PHH has FT, NT, NS, PO, FO/8, "
                      "F7S, F7S/8, FR, N2L1D, F2L3D, FB): the hand is not audited", 0)
            return self._result(None)
        stakes = header.group("stakes")
        cap = " Cap " in stakes
        if cap:
            fields["_site_cap"] = stakes[stakes.find(" - ") + 3:stakes.find(" Cap ")].strip()
        small_big = stakes.split(" ")[0].split("/")
        if len(small_big) != 2:
            self.find("site-unknown-line", f"line {chunk.line}: stakes {stakes!r} cannot be read", 0)
            return self._result(None)
        # No-limit and pot-limit: "small blind/big blind"; fixed limit: "small bet/big bet".
        small_stake = self.amount(small_big[0], 0)
        big_blind = self.amount(small_big[1], 0)
        words = stakes.split()
        if words and words[-1].isalpha() and words[-1].isupper() and len(words[-1]) == 3:
            fields["currency"] = words[-1]
        symbol = currency_symbol(small_big[0])
        if symbol is not None:
            fields["currency_symbol"] = symbol
            if "currency" not in fields:
                fields["currency"] = CURRENCY_OF_SYMBOL[symbol]
        if "currency" in fields:  # amounts at no fewer places than the currency's minor units (ISO 4217)
            self.places = max(self.places, hand_minor_units(fields["currency"], fields.get("currency_symbol")))
        # (some logs have a blank line after every line: the header lines are the first non-blank ones)
        rows = [k for k in range(len(lines)) if lines[k].strip()]
        if len(rows) < 2:
            self.find("site-truncated-hand", f"line {chunk.line}: the hand stops after its header", 0, True)
            return self._result(None)
        table = _TABLE.match(lines[rows[1]])
        button = 0
        r = 1
        if table is None:
            self.find("site-unknown-line", f"line {chunk.line + rows[1]}: the table line cannot be read: "
                      f"{lines[rows[1]][:120]!r}", rows[1])
            if lines[rows[1]].startswith("Table '"):
                r = 2  # the table line, unread: the seats are read from the next line (button: see _build)
        else:
            fields["table"] = table.group("name")
            why = table_problem(table.group("max")) or seat_problem(table.group("button"), "the button's seat")
            if why is not None:
                self.find(INVALID, f"line {chunk.line + rows[1]}: {why}", rows[1], True)
                return self._result(None, fields)
            fields["seat_count"] = int(table.group("max"))
            button = int(table.group("button"))
            r = 2
        # Seats: number, name, stack, whether dealt in.
        seat_nos: list[int] = []
        names: list[str] = []
        stacks: list[int] = []
        out: list[str] = []  # "", "sitting out" or "out" (of hand)
        while r < len(rows):
            i = rows[r]
            m = _SEAT.match(lines[i]) if lines[i].startswith("Seat ") else None
            if m is None:
                break
            seat = m.group("seat")
            why = None if len(seat) <= 4 and 0 < int(seat) <= MAX_SEAT else seat_problem(seat)
            if why is not None:
                self.find(INVALID, f"line {self.chunk.line + i}: {why}", i, True)
                return self._result(None, fields)
            seat_nos.append(int(m.group("seat")))
            names.append(m.group("name"))
            stacks.append(self.amount(m.group("stack"), i))
            note = m.group("note")
            out.append("" if note is None else "out" if note.startswith(" out of hand") else "sitting out")
            r += 1
        clash = len(set(seat_nos)) < len(seat_nos) or len(set(names)) < len(names) or len(names) > MAX_PLAYERS
        for why in seats_problems(seat_nos, names) if clash else ():  # two players in a seat, a name in two seats
            self.find(INVALID, f"line {chunk.line + rows[2] if len(rows) > 2 else chunk.line}: {why}",
                      rows[2] if len(rows) > 2 else 0, True)
        if self.fatal:
            return self._result(None, fields)
        start = rows[r] if r < len(rows) else len(lines)
        return self._body(lines, start, variant, fields, seat_nos, names, stacks, out, button, (small_stake, big_blind))

    def _header_fields(self, header: re.Match, fields: dict) -> None:
        month, day = int(header.group("mo")), int(header.group("d"))
        why = None if 1 <= month <= 12 and 1 <= day <= 28 else date_problem(header.group("y"), header.group("mo"),
                                                                               header.group("d"))
        if why is None:
            fields["year"] = int(header.group("y"))
            fields["month"] = int(header.group("mo"))
            fields["day"] = int(header.group("d"))
        else:  # the hand is read and audited; its date is not set (an invalid-field error on it)
            self.find(INVALID, f"line {self.chunk.line}: {why}", 0)
        h, mi, sec = int(header.group("h")), int(header.group("mi")), int(header.group("s"))
        if h < 24 and mi < 60 and sec < 60:
            fields["time"] = _dt.time(h, mi, sec)
        else:
            why = time_problem(header.group("h"), header.group("mi"), header.group("s"))
            self.find(INVALID, f"line {self.chunk.line}: {why}", 0)
        zone = header.group("zone")
        if zone:
            fields["time_zone_abbreviation"] = zone  # "ET", "CET": the PHH field for the abbreviation
        if header.group("tid"):
            fields["event"] = f"Tournament #{header.group('tid')}"
            fields["_site_buyin"] = (header.group("buyin") or "").strip()
        level = header.group("level")
        why = digits_problem(level, "level") if level and level.isdigit() else None
        if why is not None:
            self.find(INVALID, f"line {self.chunk.line}: {why}", 0)
        elif level:
            value = _roman(level)
            if value is not None:
                fields["level"] = value

    def _body(self, lines: list[str], start: int, variant: str, fields: dict, seat_nos: list[int], names: list[str],
              stacks: list[int], out: list[str], button: int, stakes: tuple[int, int]) -> ReadResult:
        n_seats = len(names)
        by_length = sorted(range(n_seats), key=lambda k: -len(names[k]))
        ordered = [names[k] for k in by_length]
        posts: list[list[tuple[str, int]]] = [[] for _ in range(n_seats)]
        events: list[tuple[str, int, int, str]] = []  # (kind, seat position, amount index, cards)
        collected = [-1] * n_seats
        returned = [-1] * n_seats
        known: list[str] = [""] * n_seats
        active = [False] * n_seats
        sat_out = [False] * n_seats
        phase = _POSTS
        total = rake = -1
        site_pots: list[int] = []
        cancelled = run_twice = summary = False
        cash_outs: list[str] = []
        second_board: list[str] = []
        last = start - 1
        for i in range(start, len(lines)):
            line = lines[i].rstrip()
            if not line:
                continue
            last = i
            if line.startswith("*** "):
                m = _STREET.match(line)
                if m is None:
                    self.find("site-unknown-line", f"line {self.chunk.line + i}: unknown street marker {line[:120]!r}", i)
                    continue
                street, run = m.group("street"), m.group("run")
                if street == "HOLE CARDS":
                    phase = _DEAL
                    events.append(("deal", -1, -1, ""))
                elif street == "SHOW DOWN":
                    phase = _SECOND_SHOWDOWN if run == "SECOND" else _SHOWDOWN
                elif street == "SUMMARY":
                    phase = _SUMMARY
                    summary = True
                else:
                    cards = m.group("cards").rsplit("[", 1)[-1].rstrip("] ") if m.group("cards") else ""
                    if run is not None:
                        run_twice = True
                    if run == "SECOND":
                        second_board.append(cards)
                    else:
                        events.append(("db", -1, -1, cards))
                continue
            if phase == _SUMMARY:
                if line.startswith("Total pot "):
                    t = _TOTALS.match(line)
                    if t is None:
                        self.find("site-unknown-line", f"line {self.chunk.line + i}: the totals cannot be read: "
                                  f"{line[:120]!r}", i)
                        continue
                    total = self.amount(t.group("total"), i, False)
                    rake = self.amount(t.group("rake"), i, False)
                    site_pots = [self.amount(a, i, False) for a in _SIDE.findall(t.group("pots"))]
                elif line.startswith("Seat ") or "Board [" in line or line == "Hand was run twice":
                    run_twice = run_twice or line == "Hand was run twice"
                elif not L.other_line(line):
                    self._grammar(line, i, ordered, by_length)
                continue
            if line.startswith("Dealt to "):
                k = L.player_at(line, ordered, 9)
                if k < 0:
                    self.find("site-unknown-player", f"line {self.chunk.line + i}: cards dealt to someone not seated: "
                              f"{line[:120]!r}", i, True)
                    continue
                pos = by_length[k]
                rest = line[9 + len(ordered[k]):]
                b = rest.find("[")
                e = rest.find("]", b)
                if b < 0 or e < 0:
                    self.find("site-unknown-line", f"line {self.chunk.line + i}: {line[:120]!r}", i)
                    continue
                dealt_cards = rest[b + 1:e]
                if _cards(dealt_cards) is None:
                    self.find("invalid-card", f"line {self.chunk.line + i}: the cards dealt to {names[pos]} "
                              f"[{dealt_cards[:40]}] are not cards", i, True)
                    continue
                known[pos] = dealt_cards
                active[pos] = True
                continue
            if line.startswith("Uncalled bet ("):
                cut = line.find(") returned to ")
                k = L.player_at(line + ":", ordered, cut + 14) if cut > 0 else -1
                if k < 0:
                    self.find("site-unknown-player", f"line {self.chunk.line + i}: an uncalled bet returned to someone "
                              f"not seated: {line[:120]!r}", i, True)
                    continue
                pos = by_length[k]
                a = self.amount(line[14:cut], i, False)
                if a >= 0:
                    returned[pos] = a if returned[pos] < 0 else self._sum(returned[pos], a)
                continue
            if line == "Hand cancelled":
                cancelled = True
                continue
            if line == "Hand was run twice":
                run_twice = True
                continue
            if line == "No low hand qualified":
                continue
            k = L.player_at(line, ordered)
            ev = L.player_line(line[len(ordered[k]):], k) if k >= 0 else ("unknown", -1, "", "", "")
            if ev[0] == L.E_UNKNOWN and k >= 0:
                ev = self._grammar(line, i, ordered, by_length, quiet=True)
            if ev[0] == L.E_UNKNOWN:
                if L.other_line(line):
                    continue
                if k < 0 and ": " in line and self._looks_like_action(line):
                    self.find("site-unknown-player", f"line {self.chunk.line + i}: an action by someone not in the seat "
                              f"list: {line[:120]!r}", i, True)
                    continue
                if k < 0:
                    ev = self._grammar(line, i, ordered, by_length)
                else:
                    self.find("site-unknown-line", f"line {self.chunk.line + i}: not a line of a PokerStars hand: "
                              f"{line[:120]!r}", i)
                if ev[0] == L.E_UNKNOWN:
                    continue
            kind = ev[0]
            pos = by_length[ev[1]] if ev[1] >= 0 else -1
            if kind != L.E_OTHER and (pos < 0 or kind not in _PLAYER_EVENTS):
                # a line of another part of the hand (a summary's, a header's) where actions are
                self.find("site-unknown-line", f"line {self.chunk.line + i}: a line out of place: {line[:120]!r}", i)
                continue
            if kind == L.E_OTHER:
                if phase == _POSTS and pos >= 0 and (line.endswith(": sits out") or line.endswith(": is sitting out")):
                    sat_out[pos] = not posts[pos]
                continue
            active[pos] = True
            if kind == L.E_POST:
                posts[pos].append((ev[3], self.amount(ev[2], i)))
            elif kind == L.E_FOLD:
                events.append((FOLD, pos, -1, ""))
            elif kind == L.E_CHECK or kind == L.E_CALL:
                events.append((CHECK_CALL, pos, -1, ""))
            elif kind == L.E_BET or kind == L.E_RAISE:
                events.append((BET_RAISE, pos, self.amount(ev[2], i), ""))
            elif kind == L.E_SHOWS or kind == L.E_MUCKS:
                if phase != _SECOND_SHOWDOWN:
                    shown = ev[4] if kind == L.E_SHOWS else ""
                    events.append((SHOW_MUCK, pos, -1, shown))
            elif kind == L.E_COLLECTED:
                a = self.amount(ev[2], i)
                if a >= 0:
                    collected[pos] = a if collected[pos] < 0 else self._sum(collected[pos], a)
            elif kind == L.E_CASH_OUT:
                cash_outs.append(f"{names[pos]} cashed out the hand for {ev[2]} (fee {ev[3]})")
            elif kind == L.E_UNCALLED:
                a = self.amount(ev[2], i, False)
                if a >= 0:
                    returned[pos] = a if returned[pos] < 0 else self._sum(returned[pos], a)
        if not summary and not cancelled:
            self.find("site-truncated-hand", f"line {self.chunk.line + last}: the hand stops here, before its "
                      "*** SUMMARY ***: not read", last, True)
        if run_twice:
            fields["_site_run_twice"] = " / ".join(second_board) or True  # the second run's boards
        # Dealt in: seated and not "out of hand"; a player marked sitting out (on the seat line, or
        # before the deal) only if they post or act (a tournament deals sitting-out players in).
        dealt = [k for k in range(n_seats) if out[k] != "out" and (active[k] or (not out[k] and not sat_out[k]
                                                                            and not cancelled))]
        if len(dealt) < 2:
            if not self.findings or not self.fatal:
                self.find("site-hand-cancelled" if cancelled else "site-truncated-hand",
                          f"{'the site cancelled the hand; ' if cancelled else ''}{len(dealt)} player(s) dealt in: "
                          "a hand needs 2 to be replayed", 0, True)
            return self._result(None, fields)
        if self.fatal:
            return self._result(None, fields)
        return self._build(variant, fields, dealt, seat_nos, names, stacks, posts, events, known, collected,
                           returned, button, stakes, total, rake, site_pots, run_twice, cash_outs, cancelled)

    def _sum(self, a: int, b: int) -> int:
        (va, pa), (vb, pb) = self.raw[a], self.raw[b]
        p = max(pa, pb)
        self.raw.append((va * 10 ** (p - pa) + vb * 10 ** (p - pb), p))
        return len(self.raw) - 1

    @staticmethod
    def _looks_like_action(line: str) -> bool:
        for verb in (": folds", ": checks", ": calls ", ": bets ", ": raises ", ": posts ", ": shows ", ": mucks"):
            if verb in line:
                return True
        return " collected " in line

    def _grammar(self, line: str, i: int, ordered: list[str], by_length: list[int],
                 quiet: bool = False) -> L.Event:
        """The grammar's reading of a line the string tests do not know; a finding if none."""
        k = L.player_at(line, ordered)
        text = L.placeholder(line, 0, len(ordered[k]), k) if k >= 0 else line
        ev = L.grammar_event(text)
        if ev[0] == L.E_UNKNOWN and not quiet:
            self.find("site-unknown-line", f"line {self.chunk.line + i}: not a line of a PokerStars hand: "
                      f"{line[:120]!r}", i)
        return ev

    def _build(self, variant: str, fields: dict, dealt: list[int], seat_nos: list[int], names: list[str],
               stacks: list[int], posts: list[list[tuple[str, int]]], events: list[tuple[str, int, int, str]],
               known: list[str], collected: list[int], returned: list[int], button: int, stakes: tuple[int, int],
               total: int, rake: int, site_pots: list[int], run_twice: bool, cash_outs: list[str],
               cancelled: bool) -> ReadResult:
        sb_seat = -1
        for k in dealt:
            for kind, _ in posts[k]:
                if kind == "sb" and sb_seat < 0:
                    sb_seat = seat_nos[k]
        dealt_seats = [seat_nos[k] for k in dealt]
        if button == 0 and sb_seat >= 0:  # the table line was not read: the button is the seat
            # before the small blind's (heads-up, phh_order places the players by the small blind)
            button = dealt_seats[dealt_seats.index(sb_seat) - 1]
        order = phh_order(dealt_seats, button, sb_seat)
        positions = [dealt[o] for o in order]
        n = len(positions)
        p_of = {pos: p for p, pos in enumerate(positions)}
        heads_up = n == 2
        antes = [0] * n
        blinds = [0] * n
        big_seen = False
        small_seen = False
        for p in range(n):
            slot = 1 - p if heads_up else p  # heads-up the forced bets are written reversed
            for kind, a in posts[positions[p]]:
                units = self.units(a)
                if kind == "ante":
                    antes[slot] += units
                elif kind == "sb" and not small_seen:
                    blinds[slot] += units
                    small_seen = True
                elif kind == "bb" and not big_seen:
                    blinds[slot] += units
                    big_seen = True
                elif kind == "straddle":
                    blinds[slot] += units
                else:  # a blind posted from another seat (a new player, a missed blind): negative
                    blinds[slot] -= units
        for pos in range(len(names)):
            if pos not in p_of and (posts[pos] or collected[pos] >= 0):
                self.find("site-unknown-player", f"{names[pos]} posts or collects but is not dealt in", 0, True)
        hole = _HOLE[variant]
        actions: list[Action] = []
        texts: list[str] = []
        folds = 0
        for kind, pos, a, cards in events:
            if pos >= 0 and pos not in p_of:
                self.find("site-unknown-player", f"{names[pos]} acts but is not dealt in", 0, True)
                continue
            p = p_of[pos] if pos >= 0 else -1
            if kind == "deal":
                for q in range(n):
                    shown = known[positions[q]].replace(" ", "")
                    if len(shown) != 2 * hole:
                        shown = "??" * hole
                    self._act(actions, texts, Action(DEAL_HOLE, q, _cards_of(shown)), f"d dh p{q + 1} {shown}")
            elif kind == "db":
                board = cards.replace(" ", "")
                parsed = _cards(cards)
                if parsed is None:
                    self.find("invalid-card", f"board [{cards}] is not cards", 0, True)
                    continue
                self._act(actions, texts, Action(DEAL_BOARD, None, parsed), f"d db {board}")
            elif kind == FOLD:
                folds += 1
                self._act(actions, texts, Action(FOLD, p), f"p{p + 1} f")
            elif kind == CHECK_CALL:
                self._act(actions, texts, Action(CHECK_CALL, p), f"p{p + 1} cc")
            elif kind == BET_RAISE:
                units = self.units(a)
                self._act(actions, texts, Action(BET_RAISE, p, None, units),
                          f"p{p + 1} cbr {amount_text(units, self.places)}")
            elif kind == SHOW_MUCK and folds >= n - 1:  # a show or muck after the others folded: said in a
                # commentary (PHH has no action for it once the hand is over)
                note = f"p{p + 1} shows [{cards}] after the hand" if cards else f"p{p + 1} mucks after the hand"
                self._act(actions, texts, Action(NOOP, None, None, None, note), f"# {note}")
            elif kind == SHOW_MUCK:
                if cards:
                    parsed = _cards(cards)
                    if parsed is None:
                        self.find("invalid-card", f"p{p + 1} shows [{cards}]: not cards", 0, True)
                        continue
                    self._act(actions, texts, Action(SHOW_MUCK, p, parsed), f"p{p + 1} sm {cards.replace(' ', '')}")
                else:
                    self._act(actions, texts, Action(SHOW_MUCK, p), f"p{p + 1} sm")
        if self.fatal:
            return self._result(None, fields)
        scale = self.places
        fields["variant"] = variant
        fields["seats"] = [seat_nos[pos] for pos in positions]
        fields["players"] = [names[pos] for pos in positions]
        fields["actions"] = texts
        if total >= 0:
            fields["_site_total_pot"] = self.site_text(total)
        if rake >= 0:
            fields["_site_rake"] = self.site_text(rake)
        if site_pots:
            fields["_site_pots"] = [self.site_text(a) for a in site_pots]
        fields["_site_collected"] = [self.site_text(collected[pos]) if collected[pos] >= 0 else "0" for pos in positions]
        fields["_site_returned"] = [self.site_text(returned[pos]) if returned[pos] >= 0 else "" for pos in positions]
        if cash_outs:
            fields["_site_cash_out"] = cash_outs
        if cancelled:
            fields["_site_cancelled"] = True
        winnings: tuple[int, ...] | None = None
        if not run_twice and not cash_outs and not cancelled:
            winnings = tuple([self.units(collected[pos]) for pos in positions])
        why = None
        if self.largest * 10 ** scale * (len(positions) + 1) > MAX_UNITS:  # (else nothing can be past the limits)
            largest = max([value * 10 ** (scale - places) for value, places in self.raw] or [0])
            why = scaled_problem(largest, sum([self.units(stacks[pos]) for pos in positions]))
        if why is not None:  # each amount within the limits, but not all at the hand's one scale
            self.find(INVALID, why, 0, True)
            return self._result(None, fields)
        small, big = self.units(stakes[0]), self.units(stakes[1])
        fixed = variant in _FIXED
        hand = Hand(
            self.chunk.source, self.chunk.hand_key, variant, n, scale, tuple(antes), tuple(blinds), None,
            small if fixed else None, big if fixed else None, None if fixed else big,
            tuple([self.units(stacks[pos]) for pos in positions]), tuple(actions), tuple(texts),
            False, None, winnings, fields["hand"], fields, self.text, self.chunk.line)
        return self._result(hand, fields)

    @staticmethod
    def _act(actions: list[Action], texts: list[str], action: Action, text: str) -> None:
        actions.append(action)
        texts.append(text)

    def _result(self, hand: Hand | None, fields: dict | None = None) -> ReadResult:
        if "\n#encoding " in self.text:
            self.findings.append(Finding("site-encoding", "the file is not UTF-8: read as Windows-1252, the code page "
                                         "the site wrote its older logs in", line=self.chunk.line, column=1))
        return ReadResult(self.chunk.source, self.chunk.hand_key, hand, tuple(self.findings), self.text,
                          self.chunk.line)


def _cards_of(text: str) -> tuple[int, ...]:
    return tuple([card_from_text(text[i:i + 2]) for i in range(0, len(text), 2)])


def read_hand(chunk: Chunk, venue: str) -> ReadResult:
    """One PokerStars hand (a chunk cut by :func:`~handaudit.importers.common.split_log`) -> ReadResult."""
    if chunk.problem:
        code, message = chunk.problem
        return ReadResult(chunk.source, chunk.hand_key, None,
                          (Finding(code, message, line=chunk.line, column=1),), "", chunk.line)
    text = chunk.data.decode("utf-8", "replace")
    return _Hand(chunk, text, venue).read()
