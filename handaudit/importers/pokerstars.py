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
from ..core.cards import card_from_text, cards_text
from ..core.currencies import hand_minor_units
from ..core.hand import BET_RAISE, BRING_IN, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, DISCARD, FOLD, NOOP, SHOW_MUCK, Action, Hand
from ..core.variants import FIXED, VARIANTS
from ..findings.finding import ENCODING_MESSAGE, Finding
from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from . import lines as L
from . import pokerstars_games as G
from .common import CURRENCY_OF_SYMBOL, TABLE_LINE, amount_units, currency_symbol, phh_order
from .limits import (INVALID, MAX_PLACES, MAX_PLAYERS, MAX_SEAT, MAX_UNITS, amount_problem, date_problem, digits_problem, scaled_problem, seat_problem,
                     seats_problems, table_problem, time_problem)

# The games the header names ("Hold'em", "5 Card Omaha Hi/Lo", ...), longest first in the pattern;
# and their betting ("No Limit", "Pot Limit", "Limit"). Which variant a (game, limit) is:
# pokerstars_games.variant_of, the one table of it.
GAMES: Final[tuple[str, ...]] = G.GAME_NAMES + ("Triple Draw A-5 Lowball", "5 Card Stud")  # (these two: no code)
LIMITS: Final = ("No Limit", "Pot Limit", "Fixed Limit", "Limit")
_GAME_RE: Final = "|".join(re.escape(g) for g in sorted(GAMES, key=len, reverse=True))
_LIMIT_RE: Final = "|".join(LIMITS)
# The header of every era (the grammar file, pokerstars.lark, shows each form):
#   SITE #ID: [{CLUB}] [[Zoom ]Tournament #T, [BUY-IN] ]GAME LIMIT [- [Match Round R, ]Level L] [(STAKES)] - DATE TIME ZONE [[DATE TIME ZONE]]
# or, for a mixed game, MIX (GAME LIMIT[, STAKES]) in place of GAME LIMIT (STAKES).
_HEADER: Final = re.compile(
    r"(?P<site>PokerStars(?: Zoom| Home Game)? (?:Hand|Game)|PPPoker (?:Hand|Game)) #(?P<id>\d+):\s+"
    r"(?:\{(?P<club>[^}]*)\}\s+)?"
    r"(?:(?P<ztour>Zoom )?Tournament #(?P<tid>\d+),?\s+(?:(?P<buyin>Freeroll|\S*\d\S*(?:\s+[A-Z]{2,3}\b)?)\s+)?)?"
    r"(?:(?P<game>" + _GAME_RE + r")\s+(?P<limit>" + _LIMIT_RE + r")"
    r"|(?P<mix>[^(\n]+?)\s+\((?P<mgame>" + _GAME_RE + r")\s+(?P<mlimit>" + _LIMIT_RE + r")(?:,\s*(?P<mstakes>[^)]*))?\))"
    r"(?:\s+-\s+(?:Match Round [IVXLC\d]+,\s+)?Level (?P<level>[IVXLC\d]+))?"
    r"(?:\s+\((?P<stakes>[^)]*)\))?"
    r"\s+-\s+(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})\s+(?:-\s+)?(?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2})"
    r"\s*\(?(?P<zone>[A-Za-z]*)\)?")
# Any other game: read only to say which game PHH has no code for.
_OTHER_GAME: Final = re.compile(r"(?:PokerStars(?: Zoom| Home Game)? (?:Hand|Game)|PPPoker (?:Hand|Game)) #\d+:\s+"
                                r"(?:\{[^}]*\}\s+)?(?:(?:Zoom )?Tournament #\d+,?\s+)?"
                                r"(?:[^(\n]*\()?(?P<game>[^(,\n]+?)\s+(?P<limit>No Limit|Pot Limit|Fixed Limit|Limit)\b")
_TABLE: Final = re.compile(TABLE_LINE)
_SEAT: Final = re.compile(r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[$€£¥₹]?[\d.,]+) in chips(?:, [^)]*)?\)"
                          r"(?P<note> is sitting out| out of hand.*)?\s*$")
# A street marker of any game (pokerstars_games.STREET_OF_MARKER), run it twice's (and three times') FIRST, SECOND
# and THIRD boards, the showdown and the summary, with the cards the marker shows.
_STREET: Final = re.compile(r"\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) (?=FLOP|TURN|RIVER|SHOW DOWN))?"
                            r"(?P<street>FIRST DRAW|SECOND DRAW|THIRD DRAW|HOLE CARDS|DEALING HANDS|PRE-DRAW|DRAW"
                            r"|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY|[3-7]th STREET|3rd STREET) \*\*\*"
                            r"(?P<cards>(?: \[[^\]]*\])*)\s*(?:\{Rake: [^}]*\})?\s*$")
_TOTALS: Final = re.compile(r"Total pot (?P<total>\S+)(?P<pots>(?: Main pot \S+\.)?(?: Side pot(?:-\d+)? \S+\.)*)"
                            r" \| Rake (?P<rake>\S+)")
_SIDE: Final = re.compile(r"(?:Main pot|Side pot(?:-\d+)?) (\S+?)\.(?= |$)")
_ROMAN: Final = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}

# (game, limit) -> variant code: pokerstars_games.variant_of (PHH's codes and handaudit's
# extension codes); a game without one is a `site-game-not-phh` finding.
# What a line that starts with a seated player's name can be (the rest are said elsewhere).
_PLAYER_EVENTS: Final = frozenset([L.E_POST, L.E_FOLD, L.E_CHECK, L.E_CALL, L.E_BET, L.E_RAISE, L.E_SHOWS,
                                   L.E_MUCKS, L.E_NO_SHOW, L.E_COLLECTED, L.E_CASH_OUT])
# Phases of the hand's text.
_POSTS: Final = 0
_DEAL: Final = 1
_SHOWDOWN: Final = 2
_SECOND_SHOWDOWN: Final = 3
_SUMMARY: Final = 4


def _game_of(header: re.Match) -> tuple[str, str]:
    """(game, limit) a header names, the mixed game's current one for a mixed header; "Fixed
    Limit" is "Limit"."""
    game = header.group("game") or header.group("mgame")
    limit = header.group("limit") or header.group("mlimit")
    return game, "Limit" if limit == "Fixed Limit" else limit


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
        self.unread_lines: list[dict] = []  # lines read as nothing: site-unknown-line warnings
        self.events: list[dict] = []  # table events
        # the game's lines (pokerstars_games): each street's "Dealt to" brackets by (street,
        # seat position); Courchevel's early board card; the stud bring-in; the summary's board
        self.dealt_cards: dict[tuple[int, int], list[str]] = {}
        self.early = ""
        self.bring_in = -1
        self.summary_board = ""

    # -- helpers -----------------------------------------------------------------------------
    def find(self, code: str, message: str, line: int, fatal: bool = False) -> None:
        self.findings.append(Finding(code, message, line=self.chunk.line + line, column=1))
        self.fatal = self.fatal or fatal

    def unread(self, line: int, text: str, why: str = "not a line the importer knows") -> None:
        """A line read as nothing (no action, no table event): said as a ``site-unknown-line``
        warning, the hand still audited. Kept as the hand's ``_site_unread`` (so a converted file
        says it too: handaudit.settlement.site_totals)."""
        self.unread_lines.append({"line": self.chunk.line + line, "text": f"{why}: {text[:160]}"})

    def event(self, line: int, ev: L.Event, player: str) -> None:
        """A table event kept in the hand's ``_site_events`` (:func:`.lines.table_events`)."""
        entry: dict = {"line": self.chunk.line + line, "kind": ev[3], "player": player}
        if ev[2]:
            value, places = amount_units(ev[2])
            if value >= 0:
                entry["amount"] = amount_text(value, places)
        entry["text"] = ev[4][:200]
        self.events.append(entry)

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
            self.find("site-unreadable-line", f"line {self.chunk.line + line}: {text!r} is not an amount", line, True)
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
                self.find("site-game-not-phh", f"{other.group('game')} {other.group('limit')} has no variant code, in "
                          "PHH or among handaudit's extension codes: the hand is not audited", 0, True)
            else:
                self.find("site-unreadable-line", f"line {chunk.line}: the hand header cannot be read: "
                          f"{lines[0][:120]!r}", 0, True)
            return self._result(None)
        game, limit = _game_of(header)
        variant = G.variant_of(game, limit)
        why = digits_problem(header.group("id"), "hand id")
        if why is not None:
            self.find(INVALID, f"line {chunk.line}: {why}", 0, True)
            return self._result(None)
        fields: dict = {"venue": self.venue, "hand": int(header.group("id"))}
        self._header_fields(header, fields)
        if variant is None:
            self.find("site-game-not-phh", f"{game} {limit} has no variant code, in PHH or among handaudit's "
                      "extension codes: the hand is not audited", 0)
            return self._result(None, fields)
        stakes = header.group("stakes") or header.group("mstakes") or ""
        cap = " Cap " in stakes
        if cap:
            fields["_site_cap"] = stakes[stakes.find(" - ") + 3:stakes.find(" Cap ")].strip()
        small_big = stakes.split(" ")[0].split("/")
        if len(small_big) != 2:
            self.find("site-unreadable-line", f"line {chunk.line}: stakes {stakes!r} cannot be read", 0, True)
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
        if table is None and _SEAT.match(lines[rows[1]]) is not None:
            r = 1  # no table line (some 2005 logs): the seats follow the header
        elif table is None:
            self.unread(rows[1], lines[rows[1]], "the table line cannot be read")
            if lines[rows[1]].startswith("Table '"):
                r = 2  # the table line, unread: the seats are read from the next line (button: see _build)
        else:
            fields["table"] = table.group("name")
            why = (table_problem(table.group("max")) if table.group("max") else None) or \
                (seat_problem(table.group("button"), "the button's seat") if table.group("button") else None)
            if why is not None:
                self.find(INVALID, f"line {chunk.line + rows[1]}: {why}", rows[1], True)
                return self._result(None, fields)
            if table.group("max"):
                fields["seat_count"] = int(table.group("max"))
            if table.group("button"):
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
            fields["_site_tournament"] = int(header.group("tid"))
            fields["_site_buyin"] = (header.group("buyin") or "").strip()
            if header.group("ztour"):
                fields["_site_zoom"] = True
        if header.group("site").endswith(("Zoom Hand", "Zoom Game")):
            fields["_site_zoom"] = True
        if header.group("club") is not None:
            fields["_site_club"] = header.group("club")  # a Home Game's club
        if header.group("mix"):
            fields["_site_mixed"] = header.group("mix").strip()  # the mixed game ("HORSE", "Mixed NLH/PLO")
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
        fam = G.family(variant)
        markers = G.STREET_OF_MARKER[fam]
        early_cards = G.early_board(variant)
        street = -1  # the street of the variant the lines are on (-1: the forced bets)
        # (street, seat position) -> the brackets of that player's "Dealt to" line on the street
        street_cards: dict[tuple[int, int], list[str]] = {}
        early = ""  # Courchevel: the first flop card, dealt face up before the first round
        bring_in = -1  # the stud bring-in's amount (index into self.raw)
        by_length = sorted(range(n_seats), key=lambda k: -len(names[k]))
        ordered = [names[k] for k in by_length]
        posts: list[list[tuple[str, int]]] = [[] for _ in range(n_seats)]
        events: list[tuple[str, int, int, str]] = []  # (kind, seat position, amount index, cards)
        collected = [-1] * n_seats
        returned = [-1] * n_seats
        known: list[str] = [""] * n_seats
        active = [False] * n_seats
        sat_out = [False] * n_seats
        allin = [False] * n_seats  # a line of theirs said "and is all-in"
        phase = _POSTS
        total = rake = -1
        site_pots: list[int] = []
        cancelled = run_twice = summary = False
        cash_outs: list[str] = []
        second_board: list[str] = []
        boards: dict[str, str] = {}  # run it twice (or three times): each run's board, by run
        cash_won = [-1] * n_seats  # a player who cashed out: the pot the summary says they won
        last = start - 1
        for i in range(start, len(lines)):
            line = lines[i].rstrip()
            if not line:
                continue
            last = i
            if line.startswith("*** "):
                m = _STREET.match(line)
                if m is None:
                    self.unread(i, line, "an unknown street marker")
                    continue
                marker, run = m.group("street"), m.group("run")
                at = markers.get(marker, -1) if run is None else -1
                if at == 0 or (at > 0 and fam != G.BOARD):
                    # the deal of a street: hole cards, stud's up cards (a draw street deals
                    # nothing itself: each player's draw is dealt as they discard)
                    street = at
                    phase = _DEAL
                    if fam != G.DRAW or at == 0:
                        events.append(("deal", -1, at, ""))
                    if at == 0 and m.group("cards"):
                        early = G.brackets(m.group("cards"))[-1]  # Courchevel: "*** HOLE CARDS *** [Ah]"
                    continue
                if at < 0 and marker not in ("FLOP", "TURN", "RIVER", "SHOW DOWN", "SUMMARY"):
                    self.unread(i, line, f"a street marker of another game in a {variant} hand")
                    continue
                street = at if at > 0 else street
                if marker == "SHOW DOWN":
                    phase = _SECOND_SHOWDOWN if run == "SECOND" or run == "THIRD" else _SHOWDOWN
                elif marker == "SUMMARY":
                    phase = _SUMMARY
                    summary = True
                else:
                    cards = m.group("cards").rsplit("[", 1)[-1].rstrip("] ") if m.group("cards") else ""
                    if run is not None:
                        run_twice = True
                        # the run's whole board so far: every bracket of its marker
                        boards[run] = " ".join(m.group("cards").replace("[", " ").replace("]", " ").split())
                    if run == "SECOND" or run == "THIRD":
                        second_board.append(cards)
                    elif early_cards:
                        # Courchevel: every card the line shows, the first flop card dealt before
                        # among them ("[Ah] [7d Kc]", or "[Ah 7d Kc]"): the new ones are found in _build
                        events.append(("db", -1, 1, " ".join(G.brackets(m.group("cards") or ""))))
                    else:
                        events.append(("db", -1, -1, cards))
                continue
            if phase == _SUMMARY:
                if line.startswith("Total pot "):
                    t = _TOTALS.match(line)
                    if t is None:
                        self.unread(i, line, "the totals cannot be read")
                        continue
                    total = self.amount(t.group("total"), i, False)
                    rake = self.amount(t.group("rake"), i, False)
                    site_pots = [self.amount(a, i, False) for a in _SIDE.findall(t.group("pots"))]
                elif line.startswith("Seat ") or "Board [" in line or line == "Hand was run twice":
                    if line.startswith("Board ["):
                        self.summary_board = " ".join(G.brackets(line))
                    run_twice = run_twice or line == "Hand was run twice"
                    if line.startswith("Seat ") and "cashed out" in line:
                        self._cash_won(line, i, seat_nos, cash_won)
                else:
                    k = L.player_at(line, ordered)
                    ev = L.event_of(line[len(ordered[k]):], k) if k >= 0 else L.other_line(line)
                    if ev[0] == L.E_EVENT:
                        self.event(i, ev, names[by_length[k]] if k >= 0 else "")
                    elif self._grammar(line, i, ordered, by_length, quiet=True)[0] == L.E_UNKNOWN:
                        self.unread(i, line)
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
                    self.find("site-unreadable-line", f"line {self.chunk.line + i}: the cards dealt to {names[pos]} "
                              f"cannot be read: {line[:120]!r}", i, True)
                    continue
                dealt_cards = rest[b + 1:e]
                if fam == G.BOARD:
                    if _cards(dealt_cards) is None:
                        self.find("invalid-card", f"line {self.chunk.line + i}: the cards dealt to {names[pos]} "
                                  f"[{dealt_cards[:40]}] are not cards", i, True)
                        continue
                    known[pos] = dealt_cards
                    active[pos] = True
                    continue
                groups = G.brackets(rest)  # stud's and draws' lines: "[old] [new]"
                if any(_cards(g) is None for g in groups):
                    self.find("invalid-card", f"line {self.chunk.line + i}: the cards dealt to {names[pos]} "
                              f"[{dealt_cards[:40]}] are not cards", i, True)
                    continue
                if fam == G.DRAW and street > 0:
                    # a draw's new cards ("Dealt to NAME [kept] [new]"), after the discard
                    for e_at in range(len(events) - 1, -1, -1):
                        ev_e = events[e_at]
                        if ev_e[0] == "sd" and ev_e[1] == pos:
                            events[e_at] = ("sd", pos, ev_e[2], ev_e[3] + "|" + groups[-1])
                            break
                else:
                    dealt_cards_at = max(street, 0)
                    street_cards[(dealt_cards_at, pos)] = groups
                    if dealt_cards_at == 0:
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
            if k >= 0 and fam != G.BOARD and line[len(ordered[k]):len(ordered[k]) + 2] == ": ":
                # the lines only stud and draw games have: the bring-in, a completion, a draw
                pos = by_length[k]
                rest = line[len(ordered[k]) + 2:].rstrip()
                drawn = G.discard(rest) if fam == G.DRAW else None
                if drawn is not None:
                    if street < 1:
                        street = 1  # a single draw has no marker: its draw begins at the first discard
                    events.append(("sd", pos, drawn[0], drawn[1]))
                    active[pos] = True
                    continue
                brought = G.bring_in(rest) if fam == G.STUD else None
                if brought is not None:
                    bring_in = self.amount(brought, i)
                    events.append(("pb", pos, bring_in, ""))
                    active[pos] = True
                    continue
                completed = G.completes(rest) if fam == G.STUD else None
                if completed is not None:
                    events.append((BET_RAISE, pos, self.amount(completed, i), ""))
                    active[pos] = True
                    continue
            ev = L.player_line(line[len(ordered[k]):], k) if k >= 0 else L.other_line(line)
            if ev[0] == L.E_UNKNOWN:
                ev = self._grammar(line, i, ordered, by_length, quiet=True)
            if ev[0] == L.E_UNKNOWN:
                if k < 0 and ": " in line and self._looks_like_action(line):
                    self.find("site-unknown-player", f"line {self.chunk.line + i}: an action by someone not in the seat "
                              f"list: {line[:120]!r}", i, True)
                elif k >= 0 and line[len(ordered[k])] == ":":
                    # "NAME: ..." is how the site writes what a player did: one it does not know
                    # may have moved chips, so the hand is not replayed from a guess.
                    self.find("site-unreadable-line", f"line {self.chunk.line + i}: {names[by_length[k]]} did something "
                              f"the importer cannot read: {line[:120]!r}", i, True)
                else:
                    self.unread(i, line)
                continue
            kind = ev[0]
            pos = by_length[ev[1]] if ev[1] >= 0 else -1
            if kind == L.E_EVENT or kind == L.E_OTHER:
                if kind == L.E_EVENT:
                    self.event(i, ev, names[pos] if pos >= 0 else "")
                    if phase == _POSTS and pos >= 0 and ev[3] == L.T_SITS_OUT and line[len(names[pos])] == ":":
                        sat_out[pos] = not posts[pos]
                continue
            if pos < 0 or kind not in _PLAYER_EVENTS:
                # a line of another part of the hand (a summary's, a header's) where actions are
                self.unread(i, line, "a line out of place")
                continue
            if kind == L.E_FOLD and allin[pos]:
                continue  # the site writes a fold for a player already all in: nothing to replay
            if L.ALL_IN in line:
                allin[pos] = True
            active[pos] = True
            if kind == L.E_POST:
                posts[pos].append((ev[3] + "!" if L.ALL_IN in line else ev[3], self.amount(ev[2], i)))
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
            runs = [boards[r] for r in ("FIRST", "SECOND", "THIRD") if r in boards]
            if len(runs) >= 2 and "FIRST" in boards:
                fields["_site_boards"] = runs  # each run's whole board: each settled on its own
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
        self.dealt_cards = street_cards
        self.early = early
        self.bring_in = bring_in
        return self._build(variant, fields, dealt, seat_nos, names, stacks, posts, events, known, collected,
                           returned, button, stakes, total, rake, site_pots, run_twice, cash_outs, cancelled, cash_won)

    def _cash_won(self, line: str, i: int, seat_nos: list[int], cash_won: list[int]) -> None:
        """``Seat 2: m788 (button) showed [Th Ts] and won ($38.95) with ... (pot not awarded as player
        cashed out)``: the pot the cashed-out player won, as the site states it."""
        colon = line.find(":")
        number = line[5:colon]
        won = line.find(" won (")
        if colon < 0 or not number.isdigit() or won < 0 or int(number) not in seat_nos:
            return
        end = line.find(")", won)
        a = self.amount(line[won + 6:end], i, False)
        if a >= 0:
            cash_won[seat_nos.index(int(number))] = a

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
        """The grammar's reading of a line the string tests do not know (unknown if none; not
        ``quiet``: said as a ``site-unknown-line`` warning)."""
        k = L.player_at(line, ordered)
        text = L.placeholder(line, 0, len(ordered[k]), k) if k >= 0 else line
        ev = L.grammar_event(text)
        if ev[0] == L.E_UNKNOWN and not quiet:
            self.unread(i, line)
        return ev

    def _build(self, variant: str, fields: dict, dealt: list[int], seat_nos: list[int], names: list[str],
               stacks: list[int], posts: list[list[tuple[str, int]]], events: list[tuple[str, int, int, str]],
               known: list[str], collected: list[int], returned: list[int], button: int, stakes: tuple[int, int],
               total: int, rake: int, site_pots: list[int], run_twice: bool, cash_outs: list[str],
               cancelled: bool, cash_won: list[int]) -> ReadResult:
        sb_seat = -1
        for k in dealt:
            for kind, _ in posts[k]:
                if (kind == "sb" or kind == "sb!") and sb_seat < 0:
                    sb_seat = seat_nos[k]
        dealt_seats = [seat_nos[k] for k in dealt]
        fam = G.family(variant)
        if fam == G.STUD:
            # no button: the players in seat order, as the site deals them (from seat 1)
            order = sorted(range(len(dealt)), key=lambda k: dealt_seats[k])
        else:
            if button == 0 and sb_seat >= 0:  # the table line was not read: the button is the seat
                # before the small blind's (heads-up, phh_order places the players by the small blind)
                button = dealt_seats[dealt_seats.index(sb_seat) - 1]
            order = phh_order(dealt_seats, button, sb_seat)
        positions = [dealt[o] for o in order]
        n = len(positions)
        p_of = {pos: p for p, pos in enumerate(positions)}
        heads_up = n == 2 and fam != G.STUD  # (stud's antes are not reverse-assigned: no button)
        antes = [0] * n
        blinds = [0] * n
        big_seen = False
        small_seen = False
        full_big = self.units(stakes[0] if VARIANTS[variant].structure == FIXED else stakes[1])  # the big blind of the stakes
        for p in range(n):
            slot = 1 - p if heads_up else p  # heads-up the forced bets are written reversed
            for kind, a in posts[positions[p]]:
                units = self.units(a)
                if kind.endswith("!"):  # "... and is all-in": exactly what the site says was put in
                    kind = kind[:-1]
                    if kind == "bb" and not big_seen and units < full_big:
                        # a big blind all in for less: PHH's blind is the full one, the stack the
                        # rest (the replay puts in what the stack holds; the others call the full
                        # blind, as the site has them do)
                        units = full_big
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
        hole = G.hole_cards(variant)
        streets = VARIANTS[variant].streets
        actions: list[Action] = []
        texts: list[str] = []
        folds = 0
        folded = [False] * n
        on_board: list[int] = []  # the board cards dealt so far
        early = self.early
        early_board = G.early_board(variant)
        if early_board and not early:
            # Courchevel's first flop card, when no line before the flop shows it: the board's
            # first card, else unknown
            # the summary's board first (it lists the board in the order dealt), then the flop's
            flop = self.summary_board or next((cards for kind, _, _, cards in events if kind == "db"), "")
            early = flop.split(" ")[0] if flop else ""
        for kind, pos, a, cards in events:
            if pos >= 0 and pos not in p_of:
                self.find("site-unknown-player", f"{names[pos]} acts but is not dealt in", 0, True)
                continue
            p = p_of[pos] if pos >= 0 else -1
            if kind == "deal":
                for q in range(n):
                    if folded[q]:
                        continue
                    if a == 0 and fam != G.STUD:
                        shown = known[positions[q]].replace(" ", "")
                        if len(shown) != 2 * hole:
                            shown = "??" * hole
                    else:
                        shown = self._hole_deal(fam, streets, a, positions[q], known[positions[q]], hole)
                    self._act(actions, texts, Action(DEAL_HOLE, q, _cards_of(shown)), f"d dh p{q + 1} {shown}")
                if a == 0 and early_board:
                    text = (early or "??").replace(" ", "")
                    parsed = _cards(early) if early else (-1,)
                    if parsed is None:
                        self.find("invalid-card", f"board [{early}] is not cards", 0, True)
                        continue
                    on_board.extend(parsed)
                    self._act(actions, texts, Action(DEAL_BOARD, None, parsed), f"d db {text}")
            elif kind == "db":
                parsed = _cards(cards)
                if parsed is None:
                    self.find("invalid-card", f"board [{cards}] is not cards", 0, True)
                    continue
                if a == 1:
                    # (Courchevel) the street's new cards: those the line shows that are not on
                    # the board yet
                    parsed = tuple([c for c in parsed if c not in on_board])
                    on_board.extend(parsed)
                    self._act(actions, texts, Action(DEAL_BOARD, None, parsed), f"d db {cards_text(parsed)}")
                    continue
                self._act(actions, texts, Action(DEAL_BOARD, None, parsed), f"d db {cards.replace(' ', '')}")
            elif kind == "pb":
                self._act(actions, texts, Action(BRING_IN, p), f"p{p + 1} pb")
            elif kind == "sd":
                drew, _, new_cards = cards.partition("|")
                thrown = _cards(drew) if drew else ()
                if thrown is None or (new_cards and _cards(new_cards) is None):
                    self.find("invalid-card", f"p{p + 1} discards [{drew}]: not cards", 0, True)
                    continue
                if not thrown and a > 0:
                    thrown = (-1,) * a
                self._act(actions, texts, Action(DISCARD, p, thrown), f"p{p + 1} sd {cards_text(thrown)}".rstrip())
                if thrown:
                    got = _cards(new_cards) if new_cards else None
                    if got is None or len(got) != len(thrown):
                        # (the draw's cards not shown as "[kept] [new]": unknown, as another player's)
                        got = (-1,) * len(thrown)
                    self._act(actions, texts, Action(DEAL_HOLE, p, got), f"d dh p{p + 1} {cards_text(got)}")
            elif kind == FOLD:
                folds += 1
                folded[p] = True
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
                    if len(parsed) < VARIANTS[variant].hole_cards:
                        # part of a hand shown ("shows [Qs]"): the hand does not contend, a muck
                        # (PHH's show is of the whole hand), the cards shown said in a commentary
                        note = f"p{p + 1} shows [{cards}], part of the hand: mucked"
                        self._act(actions, texts, Action(SHOW_MUCK, p, None, None, note), f"p{p + 1} sm # {note}")
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
        if any(antes):
            fields["_site_antes_layered"] = True  # the site's side pots hold the antes as any chip
        if self.events:
            fields["_site_events"] = self.events
        if self.unread_lines:
            fields["_site_unread"] = self.unread_lines
            self.unread_lines = []  # said by the settlement's reconciliation (site_totals), from the fields
        winnings: tuple[int, ...] | None = None
        runs_read = not run_twice or "_site_boards" in fields  # each run's board known: the awards compared
        if runs_read and not cancelled and (not cash_outs or all([cash_won[pos] >= 0 or collected[pos] >= 0
                                                                  for pos in positions if names[pos] in
                                                                  " ".join(cash_outs)])):
            # what the site paid from the pots: its "collected" lines, and for a player who cashed
            # out the pot the summary says they won (the site, not the player, took it)
            winnings = tuple([self.units(cash_won[pos] if cash_won[pos] >= 0 else collected[pos]) for pos in positions])
            if cash_outs:
                fields["_site_cash_won"] = [self.site_text(cash_won[pos]) if cash_won[pos] >= 0 else ""
                                            for pos in positions]
        why = None
        if self.largest * 10 ** scale * (len(positions) + 1) > MAX_UNITS:  # (else nothing can be past the limits)
            largest = max([value * 10 ** (scale - places) for value, places in self.raw] or [0])
            why = scaled_problem(largest, sum([self.units(stacks[pos]) for pos in positions]))
        if why is not None:  # each amount within the limits, but not all at the hand's one scale
            self.find(INVALID, why, 0, True)
            return self._result(None, fields)
        small, big = self.units(stakes[0]), self.units(stakes[1])
        fixed = VARIANTS[variant].structure == FIXED
        bring = None
        if fam == G.STUD:  # the bring-in the site's line states, else half the small bet
            bring = self.units(self.bring_in) if self.bring_in >= 0 else max(small // 2, 1)
        hand = Hand(
            self.chunk.source, self.chunk.hand_key, variant, n, scale, tuple(antes), tuple(blinds), bring,
            small if fixed else None, big if fixed else None, None if fixed else big,
            tuple([self.units(stacks[pos]) for pos in positions]), tuple(actions), tuple(texts),
            False, None, winnings, fields["hand"], fields, self.text, self.chunk.line)
        if min(blinds) < 0:
            # a blind posted from outside the blind seats (a new player's, a missed one) is written
            # negative: said as the PHH reader says it of the conversion, so both give one verdict
            from ..grammar.reader import read_text
            from ..grammar.writer import hand_text

            for f in read_text(hand_text(hand)).findings:
                if f.code == "negative-blind":
                    self.findings.append(Finding(f.code, f.message, line=self.chunk.line, column=1,
                                                 severity=f.severity))
        return self._result(hand, fields)

    def _hole_deal(self, fam: str, streets: tuple, street: int, pos: int, known: str, hole: int) -> str:
        """The cards (PHH text) a player is dealt on ``street``: what the site's "Dealt to" line
        shows of them, unknown (``??``) for the rest. Stud: two down and one up on third street
        (the owner sees all three, the others the up card), one up on fourth to sixth, one down
        on seventh (the owner's only)."""
        count = streets[street].hole_down + streets[street].hole_up
        groups = self.dealt_cards.get((street, pos), [])
        shown = groups[-1].replace(" ", "") if groups else ""
        if fam != G.STUD:
            shown = known.replace(" ", "") if street == 0 else shown
            return shown if len(shown) == 2 * count else "??" * count
        if len(shown) == 2 * count:
            return shown
        up = streets[street].hole_up
        if up and len(shown) == 2 * up:  # another player's up card(s): the down cards unknown
            return "??" * (count - up) + shown
        return "??" * count

    @staticmethod
    def _act(actions: list[Action], texts: list[str], action: Action, text: str) -> None:
        actions.append(action)
        texts.append(text)

    def _result(self, hand: Hand | None, fields: dict | None = None) -> ReadResult:
        for entry in self.unread_lines:  # (a hand not read: its unread lines said here)
            self.findings.append(Finding("site-unknown-line", f"line {entry['line']}: {entry['text']}",
                                         line=entry["line"], column=1))
        if "\n#encoding " in self.text:
            if hand is not None and hand.fields is not None:
                hand.fields["_site_encoding"] = "cp1252"  # said by site_totals (a converted file says it too)
            else:
                self.findings.append(Finding("site-encoding", ENCODING_MESSAGE, line=self.chunk.line, column=1))
        known = None
        if hand is None and fields:  # an unreadable hand is still named by what its header said
            known = {k: fields[k] for k in ("hand", "table", "venue", "event") if k in fields}
        return ReadResult(self.chunk.source, self.chunk.hand_key, hand, tuple(self.findings), self.text,
                          self.chunk.line, known)


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
