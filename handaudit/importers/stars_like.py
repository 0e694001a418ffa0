"""What the GGPoker and Winamax importers share: a hand's text read into seats, forced bets,
events and the site's figures (:class:`SiteText`), then built into the same
:class:`~handaudit.core.hand.Hand` the PHH reader makes, with the site's figures as ``_site_...``
user fields (:mod:`handaudit.settlement.site_totals` reconciles them after the settlement).

Each site's module reads its own lines (string tests, its Lark grammar for the rest) and calls
the ``post``/``event``/``collect``/... methods here; nothing here knows a site's wording. Amounts
are exact integers of the hand's smallest unit: each amount read is kept as (digits, decimal
places) and brought to the hand's scale (the most places of any amount PHH holds) at the end.
"""

from __future__ import annotations

from typing import Final

from ..core.currencies import hand_minor_units
from ..core.amounts import amount_text
from ..core.cards import card_from_text
from ..core.hand import BET_RAISE, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, FOLD, NOOP, SHOW_MUCK, Action, Hand
from ..findings.finding import ENCODING_MESSAGE, Finding
from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from . import lines as L
from .common import phh_order
from .limits import INVALID, amount_problem

# Forced-bet kinds (``SiteText.post``).
P_SMALL: Final = "sb"
P_BIG: Final = "bb"
P_ANTE: Final = "ante"
P_STRADDLE: Final = "straddle"
P_DEAD: Final = "dead"  # a missed blind posted dead: in the pot, no part of a call
P_BUTTON: Final = "button"  # short deck's button blind
P_OUT: Final = "out"  # a blind posted out of position (a new player, a missed blind): live up to the big blind

# Event kinds beside the Hand's action kinds.
DEAL: Final = "deal"
BOARD: Final = "db"

_SYMBOLS: Final = "$€£¥₹"


def site_amount(text: str) -> tuple[int, int]:
    """An amount as these sites write it -> (digits as an int, decimal places written, trailing
    zeros dropped); (-1, 0) when it is not one. The currency symbol may stand before or after
    the number (``$0.5``, ``0.50€``, ``€4.50``); a comma followed by one or two digits that end
    the number is a decimal comma (``0,50€``), any other comma separates thousands (``24,940``).
    Exact: read digit by digit, never through a float."""
    n = len(text)
    i = 0
    while i < n and text[i] in _SYMBOLS:
        i += 1
    while n > i and text[n - 1] in _SYMBOLS:
        n -= 1
    value = 0
    digits = 0
    places = -1
    zeros = 0
    while i < n:
        ch = text[i]
        o = ord(ch)
        if 48 <= o <= 57:
            value = value * 10 + (o - 48)
            digits += 1
            if places >= 0:
                places += 1
                zeros = zeros + 1 if o == 48 else 0
        elif ch == "," and places < 0 and digits > 0:
            rest = n - i - 1
            if (rest == 1 or rest == 2) and text[i + 1:n].isdigit():
                places = 0
        elif ch == "." and places < 0 and digits > 0:
            places = 0
        else:
            return -1, 0
        i += 1
    if digits == 0 or places == 0:
        return -1, 0
    if places < 0:
        return value, 0
    while zeros > 0:
        value //= 10
        places -= 1
        zeros -= 1
    return value, places


def cards_of(text: str) -> tuple[int, ...] | None:
    """``"Qh Jc 3h"`` (or ``"QhJc3h"``) -> card codes; None when one is not a card."""
    out: list[int] = []
    t = text.replace(" ", "")
    if len(t) % 2:
        return None
    for i in range(0, len(t), 2):
        try:
            out.append(card_from_text(t[i:i + 2]))
        except ValueError:
            return None
    return tuple(out)


def player_at(line: str, names: list[str], start: int = 0) -> int:
    """The index (into ``names``, longest first) of the seated name ``line`` holds at ``start``,
    followed by ``:``, a space or the line's end; -1 for none. Names are read against the seat
    list, never by a pattern: they may hold spaces, colons and brackets. (The one-argument
    ``startswith`` is a native call when compiled; with a start it is not: the line is cut once.)"""
    if start:
        line = line[start:]
    n = len(line)
    for i in range(len(names)):
        name = names[i]
        end = len(name)
        if end <= n and line.startswith(name) and (end == n or line[end] == ":" or line[end] == " "):
            return i
    return -1


class SiteText:
    """One site hand's lines read into what a :class:`Hand` needs; the site's module fills it."""

    def __init__(self, chunk: Chunk, text: str, venue: str, site: str) -> None:
        self.chunk = chunk
        self.text = text
        self.venue = venue
        self.site = site
        self.findings: list[Finding] = []
        self.fatal = False
        self.unread_lines: list[dict] = []  # lines read as nothing: site-unknown-line warnings (_site_unread)
        self.table_events: list[dict] = []  # table events and tournament facts (_site_events)
        self.places = 0
        self.raw: list[tuple[int, int]] = []
        self.fields: dict = {"venue": venue}
        # seats, in the order of the seat lines
        self.seat_nos: list[int] = []
        self.names: list[str] = []
        self.stacks: list[int] = []
        self.sitting_out: list[bool] = []
        self.ordered: list[str] = []  # the names, longest first (for player_at)
        self.by_length: list[int] = []  # position of ordered[k]
        # the hand
        self.posts: list[list[tuple[str, int]]] = []
        self.events: list[tuple[str, int, int, str]] = []  # (kind, position, amount index, cards)
        self.known: list[str] = []
        self.dealt_line: list[bool] = []  # a "Dealt to" line names the player
        self.active: list[bool] = []
        self.collected: list[int] = []
        self.returned: list[int] = []
        self.top = -1  # the current street's highest bet so far (an amount index): see Winamax's "bets"
        self.total = -1
        self.total_rounded = ""  # a total the site rounded ("3.37k"), in place of ``total``
        self.rake = -1
        self.fees: list[tuple[str, int]] = []  # (name, amount index): what the site takes beside the rake
        self.added = -1  # what the site put in the pot (a cash drop)
        self.site_pots: list[int] = []
        self.runs: list[str] = []  # the boards of the second and later runs
        self.boards: dict[str, str] = {}  # each run's whole board so far ("FIRST", "SECOND", "THIRD")
        self.cash_outs: list[str] = []  # the pot was not awarded (a cash-out)
        self.ev_cashouts: list[str] = []  # paid beside the pot (GGPoker's all-in EV cashout)
        self.button = 0
        self.stakes: tuple[int, int] = (-1, -1)  # small blind (small bet), big blind (big bet): amount indices
        self.summary = False
        self.last = 0

    # -- findings and amounts -----------------------------------------------------------------
    def find(self, code: str, message: str, line: int, fatal: bool = False) -> None:
        """A finding at ``line`` (0-based in the hand's text). A line nobody knows that leaves the
        hand read (it names no seated player) is no finding here but an unread line
        (:meth:`unread`): a warning the hand's conversion carries too."""
        if code == "site-unknown-line" and not fatal:
            self.unread_lines.append({"line": self.chunk.line + line, "text": message.partition(": ")[2] or message})
            return
        if code == "site-unknown-line":
            code = "site-unreadable-line"
        self.findings.append(Finding(code, message, line=self.chunk.line + line, column=1))
        self.fatal = self.fatal or fatal

    def unknown(self, line: str, i: int, what: str = "") -> None:
        """A line read as nothing: a ``site-unknown-line`` warning, kept in the hand's ``_site_unread``."""
        self.unread_lines.append({"line": self.chunk.line + i,
                                  "text": f"{what or f'not a line of a {self.site} hand'}: {line[:160]!r}"})

    def event(self, i: int, kind: str, player: str, amount: str, text: str) -> None:
        """A table event or tournament fact, kept in the hand's ``_site_events``
        (:func:`.lines.table_events`): sitting out, joins, chat, bounties, finishes."""
        entry: dict = {"line": self.chunk.line + i, "kind": kind, "player": player}
        if amount:
            value, places = site_amount(amount.strip())
            if value >= 0:
                entry["amount"] = amount_text(value, places)
        entry["text"] = text[:200]
        self.table_events.append(entry)

    def table_event(self, line: str, i: int, pos: int) -> bool:
        """``line`` as a table event (the words after a seated player's name at ``pos``, or the
        whole line when it names nobody seated), kept; False if it is none the shared vocabulary
        (:mod:`.lines`) knows."""
        ev = L.event_of(line[len(self.names[pos]):], pos) if pos >= 0 else L.other_line(line)
        if ev[0] != L.E_EVENT:
            return False
        self.event(i, ev[3], self.names[pos] if pos >= 0 else "", ev[2], ev[4])
        return True

    def amount(self, text: str, line: int, phh: bool = True) -> int:
        """``text`` read as an amount, kept as ``self.raw[index]``; -1 (with a finding) if it is not one.
        ``phh``: an amount PHH holds (it sets the hand's scale)."""
        value, places = site_amount(text.strip())
        why = amount_problem(text.strip(), value, places) if value >= 0 else None
        if why is not None:  # past the limits every importer applies (importers/limits.py)
            self.find(INVALID, f"line {self.chunk.line + line}: {why}", line, True)
            return -1
        if value < 0:
            self.find("site-unreadable-line", f"line {self.chunk.line + line}: {text[:40]!r} is not an amount", line,
                      True)
            return -1
        if phh and places > self.places:
            self.places = places
        self.raw.append((value, places))
        return len(self.raw) - 1

    def units(self, index: int) -> int:
        if index < 0:
            return 0
        value, places = self.raw[index]
        return value * 10 ** (self.places - places)

    def site_text(self, index: int) -> str:
        value, places = self.raw[index]
        return amount_text(value, places)

    def add(self, a: int, b: int) -> int:
        """The amount index of ``raw[a] + raw[b]`` (``a`` may be -1: none yet)."""
        if a < 0:
            return b
        (va, pa), (vb, pb) = self.raw[a], self.raw[b]
        p = max(pa, pb)
        self.raw.append((va * 10 ** (p - pa) + vb * 10 ** (p - pb), p))
        return len(self.raw) - 1

    def larger(self, a: int, b: int) -> int:
        """The index of the larger of ``raw[a]`` and ``raw[b]`` (-1: none)."""
        if a < 0 or b < 0:
            return b if a < 0 else a
        (va, pa), (vb, pb) = self.raw[a], self.raw[b]
        p = max(pa, pb)
        return a if va * 10 ** (p - pa) >= vb * 10 ** (p - pb) else b

    # -- seats -----------------------------------------------------------------------------------
    def seat(self, number: int, name: str, stack: int, sitting_out: bool) -> None:
        self.seat_nos.append(number)
        self.names.append(name)
        self.stacks.append(stack)
        self.sitting_out.append(sitting_out)

    def seats_done(self) -> None:
        """Every seat line read: the per-player lists and the names longest first."""
        n = len(self.names)
        self.by_length = sorted(range(n), key=lambda k: -len(self.names[k]))
        self.ordered = [self.names[k] for k in self.by_length]
        self.posts = [[] for _ in range(n)]
        self.known = [""] * n
        self.dealt_line = [False] * n
        self.active = [False] * n
        self.collected = [-1] * n
        self.returned = [-1] * n

    def who(self, line: str, start: int = 0) -> int:
        """The position (seat-line order) of the seated player named at ``start`` of ``line``, or -1."""
        k = player_at(line, self.ordered, start)
        return -1 if k < 0 else self.by_length[k]

    # -- what the lines say ------------------------------------------------------------------------
    def post(self, pos: int, kind: str, a: int) -> None:
        self.active[pos] = True
        self.posts[pos].append((kind, a))

    def act(self, kind: str, pos: int, a: int = -1, cards: str = "") -> None:
        if pos >= 0:
            self.active[pos] = True
        self.events.append((kind, pos, a, cards))

    def dealt(self, pos: int, cards: str, i: int) -> None:
        self.dealt_line[pos] = True
        if cards:
            if cards_of(cards) is None:
                self.find("invalid-card", f"line {self.chunk.line + i}: the cards dealt to {self.names[pos]} "
                          f"[{cards[:40]}] are not cards", i, True)
                return
            self.known[pos] = cards

    def collect(self, pos: int, a: int) -> None:
        if a >= 0:
            self.collected[pos] = self.add(self.collected[pos], a)

    def give_back(self, pos: int, a: int) -> None:
        if a >= 0:
            self.returned[pos] = self.add(self.returned[pos], a)

    # -- the Hand ------------------------------------------------------------------------------------
    def _order_shows(self) -> None:
        """The final run of show events reordered: the last aggressor of the final betting round
        first, then the others in seat order from the button's left (TDA Rule 16)."""
        events = self.events
        end = len(events)
        start = end
        while start > 0 and events[start - 1][0] == SHOW_MUCK:
            start -= 1
        if end - start < 2:
            return
        aggressor = -1
        for k in range(start - 1, -1, -1):
            kind = events[k][0]
            if kind == BOARD or kind == DEAL:
                break
            if kind == BET_RAISE and aggressor < 0:
                aggressor = events[k][1]
        n = len(self.seat_nos)
        button = self.button

        def rank(event: tuple[str, int, int, str]) -> int:
            pos = event[1]
            if pos == aggressor:
                return -1
            seat = self.seat_nos[pos] if 0 <= pos < n else 0
            return (seat - button - 1) % 1000
        self.events = events[:start] + sorted(events[start:], key=rank)

    def result(self, hand: Hand | None) -> ReadResult:
        for entry in self.unread_lines:  # (a hand not read: its unread lines said here)
            self.findings.append(Finding("site-unknown-line", f"line {entry['line']}: {entry['text']}",
                                         line=entry["line"], column=1))
        if "\n#encoding " in self.text:
            if hand is not None:
                self.fields["_site_encoding"] = "cp1252"  # said by site_totals (a converted file says it too)
            else:
                self.findings.append(Finding("site-encoding", ENCODING_MESSAGE, line=self.chunk.line, column=1))
        known = None
        if hand is None:  # an unreadable hand is still named by what its header said
            known = {k: self.fields[k] for k in ("hand", "table", "venue", "event") if k in self.fields}
        return ReadResult(self.chunk.source, self.chunk.hand_key, hand, tuple(self.findings), self.text,
                          self.chunk.line, known)

    def board(self, run: str, cards_text: str) -> None:
        """A street marker's cards of run ``run`` ("" when the board is run once): the run's whole
        board so far is every bracketed group of the line ("[Th 9c 5s 4d] [Kd]")."""
        whole = " ".join(cards_text.replace("[", " ").replace("]", " ").split())
        if run == "":
            for key in ("", "FIRST", "SECOND", "THIRD"):
                if key == "" or key in self.boards:
                    self.boards[key] = whole
        else:
            self.boards[run] = whole

    def build(self, variant: str, hole: int, fixed: bool, uncalled_in_pot: bool = False,
              total_net: bool = False, shows_unordered: bool = False) -> ReadResult:
        """The Hand from what the lines said. ``uncalled_in_pot``: the site's total pot and
        collections include the uncalled bets it returns without a line (Winamax);
        ``total_net``: its total pot is after the rake (Winamax); ``shows_unordered``: the site
        writes the showdown's shows in an order of its own, not the order the players showed in
        (Winamax), so they are put in the order TDA Rule 16 asks for (the final round's last
        aggressor first, else the first to act), which the log cannot contradict."""
        if "currency" in self.fields:  # amounts at no fewer places than the currency's minor units (ISO 4217)
            self.places = max(self.places, hand_minor_units(self.fields["currency"], self.fields.get("currency_symbol")))
        if not self.summary:
            self.find("site-truncated-hand", f"line {self.chunk.line + self.last}: the hand stops here, before its "
                      "summary: not read", self.last, True)
        n_seats = len(self.names)
        dealt = [k for k in range(n_seats) if self.active[k] or self.dealt_line[k]
                 or (not self.sitting_out[k] and self.known[k] != "")]
        if len(dealt) < 2:
            if not self.fatal:
                self.find("site-truncated-hand", f"{len(dealt)} player(s) dealt in: a hand needs 2 to be replayed",
                          0, True)
            return self.result(None)
        if self.fatal:
            return self.result(None)
        if shows_unordered:
            self._order_shows()
        positions = self._positions(dealt)
        n = len(positions)
        p_of = {pos: p for p, pos in enumerate(positions)}
        antes, blinds = self._forced(positions)
        for pos in range(n_seats):
            if pos not in p_of and (self.posts[pos] or self.collected[pos] >= 0):
                self.find("site-unknown-player", f"{self.names[pos]} posts or collects but is not dealt in", 0, True)
        actions, texts = self._actions(positions, p_of, hole)
        if self.fatal:
            return self.result(None)
        fields = self.fields
        fields["variant"] = variant
        seat_list = [self.seat_nos[pos] for pos in positions]
        if min(seat_list) >= 1:
            fields["seats"] = seat_list
        else:  # (Winamax numbers some tables' seats from 0; PHH's seats start at 1)
            fields["_site_seats"] = seat_list
        fields["players"] = [self.names[pos] for pos in positions]
        fields["actions"] = texts
        self._site_fields(positions, uncalled_in_pot, total_net)
        winnings: tuple[int, ...] | None = None
        if (not self.runs or "_site_boards" in fields) and not self.cash_outs and self.added < 0 and self.rake >= 0:
            # (Winamax's collected amounts include the uncalled bet: "gross" winnings, which the
            # settlement reads as such)
            winnings = tuple([self.units(self.collected[pos]) for pos in positions])
        small, big = self.units(self.stakes[0]), self.units(self.stakes[1])
        hand = Hand(
            self.chunk.source, self.chunk.hand_key, variant, n, self.places, tuple(antes), tuple(blinds), None,
            small if fixed else None, big if fixed else None, None if fixed else big,
            tuple([self.units(self.stacks[pos]) for pos in positions]), tuple(actions), tuple(texts),
            False, None, winnings, fields.get("hand"), fields, self.text, self.chunk.line)
        return self.result(hand)

    def _positions(self, dealt: list[int]) -> list[int]:
        """The dealt-in players' positions (seat-line order) in PHH player order."""
        sb_seat = -1
        for k in dealt:
            for kind, _ in self.posts[k]:
                if kind == P_SMALL and sb_seat < 0:
                    sb_seat = self.seat_nos[k]
        seats = [self.seat_nos[k] for k in dealt]
        button = self.button
        if button not in seats and sb_seat >= 0 and len(seats) > 2:
            # no button line (or the button's seat is empty): the seat before the small blind's
            button = seats[seats.index(sb_seat) - 1]
        return [dealt[o] for o in phh_order(seats, button, sb_seat)]

    def _forced(self, positions: list[int]) -> tuple[list[int], list[int]]:
        """Antes and blinds in PHH order. A blind posted from outside the blind seats (out of
        position, a missed blind posted dead) is negative: live up to the big blind, the rest
        dead (the validator's reading, docs/rules.md)."""
        n = len(positions)
        heads_up = n == 2
        antes = [0] * n
        blinds = [0] * n
        small_seen = big_seen = False
        for p in range(n):
            slot = 1 - p if heads_up else p  # heads-up the forced bets are written reversed (PHH)
            straddle = 0
            for kind, a in self.posts[positions[p]]:
                units = self.units(a)
                if kind == P_ANTE:
                    antes[slot] += units
                elif kind == P_SMALL and not small_seen and blinds[slot] == 0:
                    blinds[slot] = units
                    small_seen = True
                elif kind == P_BIG and not big_seen and blinds[slot] == 0:
                    blinds[slot] = units
                    big_seen = True
                elif kind == P_STRADDLE or kind == P_BUTTON:
                    # a second straddle line by the same player states the new total (an over-straddle)
                    if units > straddle:
                        blinds[slot] += units - straddle
                        straddle = units
                elif blinds[slot] <= 0:  # dead, out of position, or a second blind
                    blinds[slot] -= units
                else:
                    self.find("site-unknown-line", f"{self.names[positions[p]]} posts a second blind PHH cannot "
                              "hold beside the first", 0, True)
        return antes, blinds

    def _actions(self, positions: list[int], p_of: dict[int, int], hole: int) -> tuple[list[Action], list[str]]:
        """The events as PHH actions and their texts."""
        n = len(positions)
        actions: list[Action] = []
        texts: list[str] = []
        folds = 0
        for kind, pos, a, cards in self.events:
            if pos >= 0 and pos not in p_of:
                self.find("site-unknown-player", f"{self.names[pos]} acts but is not dealt in", 0, True)
                continue
            p = p_of[pos] if pos >= 0 else -1
            if kind == DEAL:
                for q in range(n):
                    shown = self.known[positions[q]].replace(" ", "")
                    if len(shown) != 2 * hole:
                        shown = "??" * hole
                    parsed = tuple([card_from_text(shown[i:i + 2]) for i in range(0, len(shown), 2)])
                    actions.append(Action(DEAL_HOLE, q, parsed))
                    texts.append(f"d dh p{q + 1} {shown}")
            elif kind == BOARD:
                board = cards_of(cards)
                if board is None:
                    self.find("invalid-card", f"board [{cards}] is not cards", 0, True)
                    continue
                actions.append(Action(DEAL_BOARD, None, board))
                texts.append(f"d db {cards.replace(' ', '')}")
            elif kind == FOLD:
                folds += 1
                actions.append(Action(FOLD, p))
                texts.append(f"p{p + 1} f")
            elif kind == CHECK_CALL:
                actions.append(Action(CHECK_CALL, p))
                texts.append(f"p{p + 1} cc")
            elif kind == BET_RAISE:
                units = self.units(a)
                actions.append(Action(BET_RAISE, p, None, units))
                texts.append(f"p{p + 1} cbr {amount_text(units, self.places)}")
            elif kind == SHOW_MUCK:
                self._show(actions, texts, p, cards, folds >= n - 1)
        return actions, texts

    def _show(self, actions: list[Action], texts: list[str], p: int, cards: str, after: bool) -> None:
        """A show or muck; ``after`` the others folded, a commentary (PHH has no action for it)."""
        if after:
            note = f"p{p + 1} shows [{cards}] after the hand" if cards else f"p{p + 1} mucks after the hand"
            actions.append(Action(NOOP, None, None, None, note))
            texts.append(f"# {note}")
        elif cards:
            shown_cards = cards_of(cards)
            if shown_cards is None:
                self.find("invalid-card", f"p{p + 1} shows [{cards}]: not cards", 0, True)
                return
            actions.append(Action(SHOW_MUCK, p, shown_cards))
            texts.append(f"p{p + 1} sm {cards.replace(' ', '')}")
        else:
            actions.append(Action(SHOW_MUCK, p))
            texts.append(f"p{p + 1} sm")

    def _site_fields(self, positions: list[int], uncalled_in_pot: bool, total_net: bool) -> None:
        """The site's figures as ``_site_...`` fields (settlement/site_totals.py), per player in PHH order."""
        fields = self.fields
        if self.total >= 0:
            fields["_site_total_pot"] = self.site_text(self.total)
        elif self.total_rounded:
            fields["_site_total_rounded"] = self.total_rounded
        if self.rake >= 0:
            fields["_site_rake"] = self.site_text(self.rake)
        if self.fees:
            fields["_site_fees"] = [f"{name} {self.site_text(a)}" for name, a in self.fees]
        if self.added >= 0:
            fields["_site_added"] = self.site_text(self.added)
        if total_net:
            fields["_site_total_net"] = True
        if uncalled_in_pot:
            fields["_site_uncalled_in_pot"] = True
        if self.site_pots:
            fields["_site_pots"] = [self.site_text(a) for a in self.site_pots]
        collected = self.collected
        fields["_site_collected"] = [self.site_text(collected[pos]) if collected[pos] >= 0 else "0"
                                     for pos in positions]
        fields["_site_returned"] = [self.site_text(self.returned[pos]) if self.returned[pos] >= 0 else ""
                                    for pos in positions]
        if self.runs:
            fields["_site_run_twice"] = " / ".join(self.runs)
            boards = [self.boards[r] for r in ("FIRST", "SECOND", "THIRD") if r in self.boards]
            if len(boards) >= 2 and "SECOND" in self.boards:
                fields["_site_boards"] = boards  # each run's whole board: each settled on its own
        if self.table_events:
            fields["_site_events"] = self.table_events
        if self.unread_lines:
            fields["_site_unread"] = self.unread_lines
            self.unread_lines = []  # said by the settlement's reconciliation (site_totals), from the fields
        if self.cash_outs:
            fields["_site_cash_out"] = self.cash_outs
        if self.ev_cashouts:
            fields["_site_ev_cashout"] = self.ev_cashouts


def problem_result(chunk: Chunk) -> ReadResult:
    """A chunk the splitter could not make a hand of (its problem said as a finding)."""
    code, message = chunk.problem if chunk.problem else ("syntax-error", "not a hand")
    return ReadResult(chunk.source, chunk.hand_key, None, (Finding(code, message, line=chunk.line, column=1),),
                      "", chunk.line)
