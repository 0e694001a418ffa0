"""The checks across hands of one session, at the later hand, naming the earlier one.

Each check is a finding code (``findings/codes.py``, group "sessions"), cited per rulebook
(``[citations]`` of ``rules/books/*.toml``) and changed by the parameters ``button_rule``,
``missed_blinds`` and ``new_player_posts`` (``rules/params.py``). docs/rules.md, "Across
hands", says what each check compares and why.

Amounts of two hands are compared at one scale: a session's amounts are brought to its largest
``scale`` as integers (:func:`at`).
"""

from __future__ import annotations

from ..findings.codes import CODES
from ..rules.params import BIG_AND_SMALL, BIG_BLIND, MOVING_BUTTON, NONE
from .record import CHIPS_IN, JOIN, LEAVE, SIT_IN, SIT_OUT, HandRecord, TableEvent

# Venues whose hand numbers count each table's hands one by one (a gap is a missing hand). Any
# other session counts as numbered consecutively when most of its steps are exactly 1.
CONSECUTIVE_VENUES = frozenset({"Ongame Network"})


class SessionFinding:
    """A finding of the cross-hand pass: at ``hand`` (the later hand), about ``earlier``."""

    __slots__ = ("code", "severity", "message", "hand", "earlier", "player", "seat", "rule", "session")

    def __init__(self, code: str, message: str, hand: HandRecord, earlier: HandRecord | None,
                 player: str | None = None, seat: int | None = None, rule: str | None = None,
                 session: str = "") -> None:
        self.code = code
        self.severity = CODES[code].severity
        self.message = message
        self.hand = hand
        self.earlier = earlier
        self.player = player
        self.seat = seat
        self.rule = rule
        self.session = session

    def __repr__(self) -> str:
        return f"SessionFinding({self.code!r}, hand={self.hand.hand!r}, player={self.player!r})"


class PlayerTotal:
    """One player's totals over a session: hands dealt in, net and rake paid (session scale;
    ``unknown``: hands whose net is not determined, left out of ``net``), first and last stack."""

    __slots__ = ("name", "hands", "net", "unknown", "rake", "first_stack", "last_stack", "seats")

    def __init__(self, name: str) -> None:
        self.name = name
        self.hands = 0
        self.net = 0
        self.unknown = 0
        self.rake = 0
        self.first_stack: int | None = None
        self.last_stack: int | None = None
        self.seats: list[int] = []


class Session:
    """One table session: its hands in order, why it began, its findings and players' totals."""

    __slots__ = ("id", "venue", "table", "event", "began", "hands", "scale", "findings", "players", "gaps")

    def __init__(self, sid: str, began: str, hands: list[HandRecord]) -> None:
        first = hands[0]
        self.id = sid
        self.venue = first.venue
        self.table = first.table
        self.event = first.event
        self.began = began
        self.hands = hands
        self.scale = max(h.scale for h in hands)
        self.findings: list[SessionFinding] = []
        self.players: dict[str, PlayerTotal] = {}
        self.gaps = 0  # missing hands found (by numbers, or stacks and button)


def at(amount: int, scale: int, to: int) -> int:
    """``amount`` of ``scale`` decimals as units of ``to`` decimals (``to >= scale``)."""
    return amount * 10 ** (to - scale) if to > scale else amount


def money(units: int, scale: int) -> str:
    """Exact text of an amount: 2685 at scale 2 -> ``26.85``."""
    if scale <= 0:
        return str(units)
    sign = "-" if units < 0 else ""
    digits = str(abs(units)).rjust(scale + 1, "0")
    return f"{sign}{digits[:-scale]}.{digits[-scale:]}"


def next_seat(seats: list[int], after: int) -> int:
    """The first seat of ``seats`` clockwise after seat ``after`` (seat numbers rise clockwise)."""
    later = [s for s in seats if s > after]
    return min(later) if later else min(seats)


def in_arc(start: int, end: int, seat: int) -> bool:
    """Seat ``seat`` lies clockwise after ``start`` up to ``end`` (inclusive)."""
    if start < end:
        return start < seat <= end
    if start > end:
        return seat > start or seat <= end
    return True  # a whole turn


def label(r: HandRecord) -> str:
    return f"hand {r.hand}" if r.hand else f"{r.source} hand #{r.hand_index}"


class Checker:
    """The checks of one rulebook: ``button_rule``, ``missed_blinds``, ``new_player_posts`` and
    the citations of the codes."""

    def __init__(self, book) -> None:
        self.button_rule: str = book.button_rule
        self.missed_blinds: str = book.missed_blinds
        self.new_player_posts: str = book.new_player_posts
        self.book = book

    def find(self, s: Session, code: str, message: str, hand: HandRecord, earlier: HandRecord | None,
             player: str | None = None, seat: int | None = None) -> None:
        s.findings.append(SessionFinding(code, message, hand, earlier, player, seat, self.book.cite(code), s.id))

    # -- a session ---------------------------------------------------------------------------
    def check(self, s: Session) -> None:
        hands = s.hands
        consecutive = self._consecutive(hands)
        last_seen: dict[str, int] = {}
        for j, cur in enumerate(hands):
            self._totals(s, cur)
            if j:
                prev = hands[j - 1]
                gapped = self._transition(s, prev, cur, consecutive)
                if not gapped:
                    self._arrivals(s, hands, j, last_seen)
            for name in cur.names:
                last_seen[name] = j

    def _consecutive(self, hands: list[HandRecord]) -> bool:
        if hands[0].venue in CONSECUTIVE_VENUES:
            return True
        steps = [b.number - a.number for a, b in zip(hands, hands[1:], strict=False)
                 if a.number is not None and b.number is not None]
        return len(steps) >= 2 and 2 * sum(1 for d in steps if d == 1) > len(steps)

    def _totals(self, s: Session, r: HandRecord) -> None:
        players = s.players
        f = 10 ** (s.scale - r.scale)
        nets, rake, starts, finishes = r.nets, r.rake, r.starts, r.finishes
        seats = r.seats if len(r.seats) == r.n else None
        for i, name in enumerate(r.names):
            t = players.get(name)
            if t is None:
                t = players[name] = PlayerTotal(name)
            t.hands += 1
            net = nets[i]
            if net is None:
                t.unknown += 1
            else:
                t.net += net * f
            t.rake += rake[i] * f
            start = starts[i]
            if t.hands == 1 and start is not None:
                t.first_stack = start * f
            finish = finishes[i]
            t.last_stack = None if finish is None else finish * f
            if seats is not None and seats[i] not in t.seats:
                t.seats.append(seats[i])

    # -- two consecutive hands -----------------------------------------------------------------
    def _transition(self, s: Session, prev: HandRecord, cur: HandRecord, consecutive: bool) -> bool:
        """Check ``cur`` against ``prev``; True unless the two are known to be next to each other
        (a missing hand, or nothing to tell): then players arriving are not checked."""
        scale = max(prev.scale, cur.scale)
        if consecutive and prev.number is not None and cur.number is not None and cur.number - prev.number > 1:
            missing = cur.number - prev.number - 1
            first, last = prev.number + 1, cur.number - 1
            what = f"{cur.prefix}{first}" if missing == 1 else f"{cur.prefix}{first} to {cur.prefix}{last}"
            self.find(s, "hand-number-gap", f"{missing} hand{'s' if missing > 1 else ''} ({what}) missing between "
                      f"{label(prev)} and {label(cur)}: the site numbers each table's hands one by one", cur, prev)
            s.gaps += missing
            return True
        events: dict[str, list[TableEvent]] = {}
        for e in cur.events:
            events.setdefault(e.player, []).append(e)
        index = {name: i for i, name in enumerate(prev.names)}
        fp, fc = 10 ** (scale - prev.scale), 10 ** (scale - cur.scale)
        seated = len(cur.seats) == cur.n and len(prev.seats) == prev.n
        stack_faults: list[tuple[str, int, int, int, int]] = []  # name, seat, finish, start (scale), cur index
        carried = 0
        for i, name in enumerate(cur.names):
            k = index.get(name)
            if k is None:
                continue
            own = events.get(name) if events else None
            seat = cur.seats[i] if seated else None
            if own is not None:
                kinds = {e.kind for e in own}
                if kinds & {LEAVE, JOIN}:
                    continue  # a new buy-in (a seat change with it is no fault)
            else:
                kinds = set()
            if seated and prev.seats[k] != seat:
                self.find(s, "seat-changed", f"{name} moves from seat {prev.seats[k]} in {label(prev)} to seat "
                          f"{seat} in {label(cur)} without leaving and joining", cur, prev, name, seat)
            finish = prev.finishes[k]
            start = cur.starts[i]
            if finish is None or start is None:
                continue
            f, st = finish * fp, start * fc
            added = 0
            if own is not None:
                added = sum(e.amount * fc for e in own if e.kind in CHIPS_IN)
                if added and cur.max_buy_in is not None and st > cur.max_buy_in * fc:
                    self.find(s, "top-up-over-limit", f"{name} tops up to {money(st, scale)}, above the table's "
                              f"maximum buy-in {money(cur.max_buy_in * fc, scale)}", cur, prev, name, seat)
            if st != f + added and self._raked(prev, k, f + added - st, scale):
                st = f + added  # the rake the settlement could not know, taken from what they won
            if st != f + added:
                stack_faults.append((name, seat if seat is not None else 0, f + added, st, i))
            else:
                carried += 1
        button_fault = self._button(prev, cur)
        if stack_faults and button_fault == 2:
            self.find(s, "hand-missing", f"a hand is missing between {label(prev)} and {label(cur)}: "
                      f"{len(stack_faults)} stack{'s' if len(stack_faults) > 1 else ''} do not carry over and the "
                      f"{'button' if self.button_rule == MOVING_BUTTON else 'big blind'} moved two seats", cur, prev)
            s.gaps += 1
            return True
        if self._played_between(stack_faults, scale):
            moved = sum(abs(st - f) for _, _, f, st, _ in stack_faults) // 2
            self.find(s, "hand-missing", f"a hand is missing between {label(prev)} and {label(cur)}: "
                      f"{len(stack_faults)} stacks changed, chips moving from some players to others "
                      f"({money(moved, scale)} or so) as a hand moves them", cur, prev)
            s.gaps += 1
            return True
        for name, seat, f, st, _i in stack_faults:
            if st > f and not cur.event:
                self.find(s, "stack-added-unrecorded", f"{name} starts {label(cur)} with {money(st, scale)}, "
                          f"{money(st - f, scale)} more than the {money(f, scale)} they finished {label(prev)} with, "
                          "and no top-up, rebuy or add-on is recorded", cur, prev, name, seat)
                continue
            how = "more" if st > f else "less"
            self.find(s, "stack-not-carried", f"{name} starts {label(cur)} with {money(st, scale)}, "
                      f"{money(abs(st - f), scale)} {how} than the {money(f, scale)} they finished {label(prev)} "
                      "with, and no top-up, rebuy or add-on is recorded", cur, prev, name, seat)
        if button_fault:
            self._button_finding(s, prev, cur)
        if cur.event and prev.event == cur.event:
            self._level(s, prev, cur, scale)
        # the two hands are known to be next to each other: no gap in consecutive numbers, or the
        # button moved one seat and every stack that can be compared carried over
        adjacent = consecutive or (button_fault == 0 and not stack_faults and carried >= 2
                                   and self._button_known(prev, cur))
        return not adjacent

    def _played_between(self, faults: list[tuple[str, int, int, int, int]], scale: int) -> bool:
        """Stacks that reconcile only with a hand played in between: some players lost what others
        won, the total falling by no more than a rake could take (``rake_limit_percent`` of the
        chips that moved, plus ``rake_rounding_units``), and never growing (a top-up adds)."""
        if len(faults) < 2:
            return False
        lost = sum(f - st for _, _, f, st, _ in faults if st < f)
        won = sum(st - f for _, _, f, st, _ in faults if st > f)
        if not lost or not won:
            return False
        taken = lost - won
        return 0 <= 100 * taken <= lost * self.book.rake_limit_percent + 100 * self.book.rake_rounding_units

    def _raked(self, prev: HandRecord, k: int, short: int, scale: int) -> bool:
        """A stack ``short`` units (at ``scale``) below the settled finish of a player who won in
        ``prev``, a hand whose rake nothing recorded: the rake, within ``rake_limit_percent`` of
        the pot plus ``rake_rounding_units`` (the settlement's own bounds)."""
        if short <= 0 or prev.rake_known or k >= len(prev.computed) or not prev.computed[k]:
            return False
        if k >= len(prev.received) or prev.received[k] <= 0:
            return False
        pot = at(prev.pot, prev.scale, scale)
        slack = at(self.book.rake_rounding_units, prev.scale, scale)
        return 100 * short <= pot * self.book.rake_limit_percent + 100 * slack

    def _button_known(self, prev: HandRecord, cur: HandRecord) -> bool:
        if self.button_rule == MOVING_BUTTON:
            return prev.button_seat() is not None and cur.button_seat() is not None
        return prev.big_blind_seat() is not None and cur.big_blind_seat() is not None

    def _button(self, prev: HandRecord, cur: HandRecord) -> int:
        """0: the button (moving) or big blind (dead button) moved as the rule says; 2: it moved
        two seats (a hand missing?); 1: elsewhere. 0 when it cannot be told."""
        if not (prev.button_game and cur.button_game) or prev.n < 2 or cur.n < 2:
            return 0
        if (prev.n == 2) != (cur.n == 2):
            return 0  # heads-up begins or ends: the button may be adjusted (TDA 2026 Rule 34)
        seats = cur.seats
        if len(seats) != cur.n or len(set(seats)) != len(seats):
            return 0
        if self.button_rule == MOVING_BUTTON:
            was, now = prev.button_seat(), cur.button_seat()
        else:
            was, now = prev.big_blind_seat(), cur.big_blind_seat()
        if was is None or now is None:
            return 0
        # a player new to the table (or back) may be passed over: they wait for the big blind, or
        # take it (the arrival check rules on their post)
        one = next_seat(seats, was)
        if now == one:
            return 0
        known = set(prev.names)
        stayed = [seat for seat, name in zip(seats, cur.names, strict=True) if name in known] or seats
        one_stayed = next_seat(stayed, was)
        if now == one_stayed:
            return 0
        if len(stayed) > 2 and now == next_seat(stayed, one_stayed):
            return 2
        return 1

    def _button_finding(self, s: Session, prev: HandRecord, cur: HandRecord) -> None:
        seats = cur.seats
        if self.button_rule == MOVING_BUTTON:
            was, now = prev.button_seat(), cur.button_seat()
            assert was is not None and now is not None
            self.find(s, "button-out-of-order", f"the button moves from seat {was} in {label(prev)} to seat {now} "
                      f"in {label(cur)}; the next seat with a player is {next_seat(seats, was)}", cur, prev, None, now)
        else:
            was, now = prev.big_blind_seat(), cur.big_blind_seat()
            assert was is not None and now is not None
            self.find(s, "big-blind-out-of-order", f"the big blind moves from seat {was} in {label(prev)} to seat "
                      f"{now} in {label(cur)}; under the dead-button rule it moves to the next seat with a player, "
                      f"{next_seat(seats, was)}", cur, prev, None, now)

    def _level(self, s: Session, prev: HandRecord, cur: HandRecord, scale: int) -> None:
        if prev.level is not None and cur.level is not None:
            if cur.level < prev.level:
                self.find(s, "blinds-went-down", f"{label(cur)} is played at level {cur.level}, after level "
                          f"{prev.level} in {label(prev)}", cur, prev)
            return
        was, now = at(prev.big_blind(), prev.scale, scale), at(cur.big_blind(), cur.scale, scale)
        if now and was and now < was:
            self.find(s, "blinds-went-down", f"the big blind falls from {money(was, scale)} in {label(prev)} to "
                      f"{money(now, scale)} in {label(cur)} in the same tournament", cur, prev)

    # -- players arriving: new, or back after missing hands ------------------------------------
    def _arrivals(self, s: Session, hands: list[HandRecord], j: int, last_seen: dict[str, int]) -> None:
        cur, prev = hands[j], hands[j - 1]
        if not cur.button_game or cur.n < 3 or len(cur.seats) != cur.n:
            return
        in_prev = set(prev.names)
        if in_prev.issuperset(cur.names):
            return
        bb_index = cur.big_blind_index()
        bb = cur.big_blind()
        sb = cur.small_blind()
        sitting = {e.player for e in cur.events if e.kind in (SIT_IN, JOIN, SIT_OUT)}
        for i, name in enumerate(cur.names):
            if name in in_prev or i == bb_index:
                continue
            seat = cur.seats[i]
            posted = cur.extra_post(i)
            k = last_seen.get(name)
            if k is None:
                if self.new_player_posts == BIG_BLIND and posted < bb and name not in sitting:
                    self.find(s, "new-player-not-posted", f"{name} joins at seat {seat} and is dealt in at "
                              f"{label(cur)} without posting the big blind ({money(bb, cur.scale)}) or waiting for "
                              f"it (posted {money(posted, cur.scale)})", cur, prev, name, seat)
                continue
            if self.missed_blinds == NONE:
                continue
            passed = False
            for t in range(k + 1, j + 1):
                a, b = hands[t - 1].big_blind_seat(), hands[t].big_blind_seat()
                if a is not None and b is not None and in_arc(a, b, seat):
                    passed = True
                    break
            if not passed:
                continue
            owed = bb + sb if self.missed_blinds == BIG_AND_SMALL else bb
            if posted < owed:
                rule = "the big and small blinds" if self.missed_blinds == BIG_AND_SMALL else "the big blind"
                self.find(s, "missed-blind-not-posted", f"{name} missed the big blind while away after "
                          f"{label(hands[k])} and is dealt in at seat {seat} in {label(cur)} with "
                          f"{money(posted, cur.scale)} posted: the rule owes {rule}, {money(owed, cur.scale)}, "
                          "or waiting for the big blind", cur, hands[k], name, seat)

    # -- a tournament's tables -----------------------------------------------------------------
    def moves(self, sessions: list[Session]) -> None:
        """A tournament player moved to another table starts there with the stack they finished
        the other table with (hands ordered by time; hands without a time are not compared)."""
        timed = [(h.when, n, h) for n, s in enumerate(sessions) for h in s.hands if h.when is not None]
        if len({sessions[n].table for _, n, _ in timed}) < 2:
            return
        timed.sort(key=lambda x: (x[0], x[1]))
        last: dict[str, tuple[int, HandRecord, int]] = {}
        for _, n, h in timed:
            for i, name in enumerate(h.names):
                seen = last.get(name)
                if seen is not None and seen[0] != n:
                    m, before, k = seen
                    finish = before.finishes[k] if k < len(before.finishes) else None
                    start = h.starts[i] if i < len(h.starts) else None
                    if finish is not None and start is not None and not any(
                            e.player == name and e.kind in CHIPS_IN for e in h.events):
                        scale = max(before.scale, h.scale)
                        f, st = at(finish, before.scale, scale), at(start, h.scale, scale)
                        if f != st:
                            self.find(sessions[n], "stack-not-carried", f"{name} moves from table "
                                      f"{sessions[m].table} ({label(before)}, finished with {money(f, scale)}) to "
                                      f"table {h.table} and starts {label(h)} with {money(st, scale)}", h, before,
                                      name, h.seats[i] if i < len(h.seats) else None)
                last[name] = (n, h, i)

