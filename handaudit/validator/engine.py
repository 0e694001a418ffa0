"""Replay a hand action by action and judge every action under a rulebook.

The engine knows at each step whose turn it is and what they may do. Each irregularity becomes
one :class:`~handaudit.findings.Finding` with the action index, the contract's code, the rule
the rulebook cites, and the ruling; the replay then goes on *as ruled*, so one mistake does not
cascade into spurious findings. Nothing is repaired silently: a missing action is reported
where the omission shows.

Phases of a hand: forced bets are posted at the start; then per street the dealer deals
(``DEAL``), players draw (``DRAW``, draw games), players bet (``BET``); after the last street
comes the ``SHOWDOWN``; the hand is ``OVER`` when one player is left or everyone still in has
shown or mucked.
"""

from __future__ import annotations

from ..cards import UNKNOWN, card_text, cards_text, rank, suit
from ..findings import INFO, WARNING, Finding
from ..model import (
    BET_RAISE,
    BRING_IN,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DISCARD,
    FOLD,
    NOOP,
    SHOW_MUCK,
    Hand,
)
from ..variants import (
    FIXED,
    OPEN_BLINDS,
    OPEN_BRING_IN,
    OPEN_LOW_SHOWING,
    POT,
    VARIANTS,
    Variant,
)
from . import limits
from . import outcome as K
from .outcome import ActionRecord, Replay
from .showing import showing_order_key

DEAL, DRAW, BET, SHOWDOWN, OVER = "deal", "draw", "bet", "showdown", "over"
UNKNOWN_STACK = 10**30  # an `inf` starting stack: never all in


def replay(hand: Hand, rulebook) -> Replay:
    """Replay ``hand`` under ``rulebook``; never raises for any readable hand."""
    return _Engine(hand, rulebook).run()


class _Engine:
    """Mutable replay state of one hand. One instance per hand; not shared."""

    def __init__(self, hand: Hand, book):
        self.hand, self.book = hand, book
        v: Variant = VARIANTS[hand.variant]
        self.v = v
        n = self.n = hand.players
        self.fmt = hand.format_amount
        self.findings: list[Finding] = []
        self.records: list[ActionRecord] = []
        self.unknown = [s is None for s in hand.starting_stacks]
        self.stack = [UNKNOWN_STACK if s is None else s for s in hand.starting_stacks]
        self.contrib = [0] * n
        self.dead = [0] * n
        self.bet = [0] * n
        self.folded = [False] * n
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.seen: set[int] = set()  # known cards dealt (live, discarded or mucked)
        self.shown: list[bool | None] = [None] * n
        self.show_order: list[int] = []
        self.street = -1
        self.phase = DEAL
        self.closed = False  # no more betting possible this hand (all-in run-out)
        self.pending_board = 0
        self.pending_hole: dict[int, int] = {}
        self.board_ahead = 0  # board cards dealt before their street (premature-deal)
        self.hole_ahead: dict[int, int] = {}
        self.to_discard: list[int] = []
        self.to_draw: dict[int, int] = {}
        self.last_aggressor: int | None = None
        self.bring_in_player: int | None = None
        self.index = -1
        self.optional_check: int | None = None  # a lone player's pointless check, accepted
        # Kept up to date as chips move and players fold, so no step rescans the table:
        self.active: set[int] = set(range(n))  # players who can still act (not folded, not all in)
        self.n_live = n  # players not folded
        self.pot = 0  # every chip in the middle
        self.street_name: str | None = None
        self.skipped: set[int] = set()  # players passed over by an out-of-turn action
        self.return_to: int | None = None  # after an out-of-turn action, the turn goes back here
        self._post_forced_bets()

    # ------------------------------------------------------------------ helpers
    def all_in(self, i: int) -> bool:
        return self.stack[i] == 0 and not self.unknown[i]

    def live(self) -> list[int]:
        return [i for i in range(self.n) if not self.folded[i]]

    def can_act(self, i: int) -> bool:
        return i in self.active

    def _mark_folded(self, i: int) -> None:
        self.folded[i] = True
        self.active.discard(i)
        self.n_live -= 1

    def find(self, code: str, message: str, actor: str | None = None, ruling: str | None = None,
             severity: str | None = None) -> None:
        self.findings.append(Finding(code, message, self.index if self.index >= 0 else None, actor,
                                     self.book.cite(code), ruling, severity=severity or ""))

    def put(self, i: int, amount: int, dead: bool = False) -> int:
        """Move up to ``amount`` chips from a stack into the middle; returns what was put."""
        amount = min(amount, self.stack[i])
        self.stack[i] -= amount
        if self.stack[i] == 0 and not self.unknown[i]:
            self.active.discard(i)  # all in
        self.contrib[i] += amount
        self.pot += amount
        if dead:
            self.dead[i] += amount
        else:
            self.bet[i] += amount
        return amount

    def in_middle(self) -> int:
        return self.pot

    def p(self, i: int) -> str:
        return _NAMES[i] if i < len(_NAMES) else f"p{i + 1}"

    # ------------------------------------------------------------------ forced bets
    def _post_forced_bets(self) -> None:
        h, n = self.hand, self.n
        antes = list(h.antes)
        blinds = list(h.blinds_or_straddles)
        if n == 2 and self.v.button_game:
            # Heads-up, the forced bets are reverse-assigned: p1 is the big blind, p2 the
            # button and small blind (PHH spec, required.rst "Antes" and "Blinds or Straddles").
            antes.reverse()
            blinds.reverse()
        self.antes = antes
        for i, a in enumerate(antes):
            if a > 0:
                self.put(i, a, dead=True)
        positive = [b for b in blinds if b > 0]
        self.big_blind = max(blinds[:2]) if self.v.button_game and n > 2 else max(positive, default=0)
        self.blind_seat_last = None
        for i, b in enumerate(blinds):
            if b > 0:
                self.put(i, b)
                self.blind_seat_last = i
            elif b < 0:
                # A blind posted from outside the blind seats (site logs write it negative): the
                # big-blind part is live, anything else (a missed small blind) is dead and does
                # not count towards a call (issue #3; Ongame hand [2] reconciles only this way).
                owed = -b
                live = min(owed, self.big_blind) if owed >= self.big_blind else 0
                self.put(i, live)
                self.put(i, owed - live, dead=True)
        self.largest_blind = max(positive, default=0)
        self.straddles = sum(1 for i, b in enumerate(blinds) if b > 0 and i >= 2 and n > 2)

    # ------------------------------------------------------------------ streets
    def _next_street(self) -> None:
        """Close the current street and open the next one (or the showdown)."""
        self.street += 1
        self.street_name = self.v.streets[self.street].name if self.street < len(self.v.streets) else "showdown"
        if self.n_live <= 1:
            self.phase = OVER
            return
        if self.street >= len(self.v.streets):
            self.phase = SHOWDOWN
            self._maybe_over()
            return
        st = self.v.streets[self.street]
        per_player = st.hole_down + st.hole_up
        self.pending_hole = {}
        if per_player:
            for i in self.live():
                need = per_player - self.hole_ahead.pop(i, 0)
                if need > 0:
                    self.pending_hole[i] = need
        self.pending_board = max(0, st.board - self.board_ahead)
        self.board_ahead = max(0, self.board_ahead - st.board)
        if st.draw:
            self.phase = DRAW
            # Draws go in betting order from the button's left (p1 first in PHH order).
            self.to_discard = [i for i in range(self.n) if not self.folded[i]]
            self.to_draw = {}
        else:
            self.phase = DEAL
        self._maybe_start_betting()

    def _maybe_start_betting(self) -> None:
        if self.phase == DEAL and (self.pending_board or self.pending_hole):
            return
        if self.phase == DRAW and (self.to_discard or self.to_draw):
            return
        self._start_betting()

    def _start_betting(self) -> None:
        st = self.v.streets[self.street]
        self.phase = BET
        s = self.v.structure
        unit = (self.hand.big_bet if st.big_bet else self.hand.small_bet) if s == FIXED else 0
        self.unit: int = unit or 0
        self.raises = 0  # bets and raises counted towards a fixed-limit cap
        self.capped_multiway = False
        self.acted: dict[int, int] = {}  # player -> level when they last acted voluntarily
        self.skipped.clear()
        self.return_to = None
        self.level = max(self.bet)
        self.fl_level = 0
        self.round_aggressor: int | None = None
        min_bet = self.hand.min_bet or self.hand.small_bet or 0
        self.last_full = min_bet
        first = 0
        if st.opener == OPEN_BLINDS:
            if self.largest_blind:
                # Before the flop the big blind counts as the opening bet (seed 4.8); over a
                # straddle the straddle is the last full bet, so the minimum raise-to is twice
                # the straddle (rulebook `straddle_min_raise`, reading of seed 4.8).
                self.last_full = self._preflop_raise_size() if s != FIXED else self.unit
                self.fl_level = self.largest_blind if s == FIXED else 0
                self.raises = 1
                if self.straddles and self.book.straddle_counts_as_raise:
                    self.raises += self.straddles
            if self.n == 2:
                first = 1  # heads-up the button (p2) acts first before the flop (seed 4.2)
            elif self.blind_seat_last is not None:
                first = (self.blind_seat_last + 1) % self.n
        elif st.opener == OPEN_BRING_IN:
            first = self._bring_in_seat()
            self.bring_in_player = first
        elif st.opener != "button":
            first = self._best_showing(low=st.opener == OPEN_LOW_SHOWING)
        self.order_start = first
        self.to_act = set(self.active)
        self.cursor = (first - 1) % self.n
        self.round_starts_heads_up = self._cap_players() <= 2
        if self.closed or not self._betting_possible():
            self.closed = self.closed or self._count_can_act() <= 1
            self._end_round()

    def _preflop_raise_size(self) -> int:
        """The last full raise before the flop: the big blind; over straddles, per the rulebook's
        `straddle_min_raise`: the straddle itself (double-straddle) or the straddle's own raise
        over the blind before it (straddle-plus-raise, PokerKit's minimum)."""
        if not self.straddles or self.book.straddle_min_raise == "double-straddle":
            return self.largest_blind
        levels = sorted({b for b in self.hand.blinds_or_straddles if b > 0})
        return levels[-1] - levels[-2] if len(levels) > 1 else levels[-1]

    def _count_can_act(self) -> int:
        return len(self.active)

    def _betting_possible(self) -> bool:
        """Betting happens while two players can act, or one can and faces a bet."""
        if len(self.active) >= 2:
            return True
        return any(self.bet[i] < self.level for i in self.active)

    def _cap_players(self) -> int:
        if self.book.cap_counts == "players-not-all-in":
            return len(self.active)
        return self.n_live

    def _end_round(self) -> None:
        for i in range(self.n):
            self.bet[i] = 0
        if self._count_can_act() <= 1:
            self.closed = True
        self._next_street()

    def _maybe_over(self) -> None:
        if self.phase == SHOWDOWN and all(self.shown[i] is not None for i in self.live()):
            self.phase = OVER

    # ------------------------------------------------------------------ turn order
    def next_to_act(self) -> int | None:
        if self.phase != BET or not self.to_act:
            return None
        for k in range(1, self.n + 1):
            i = (self.cursor + k) % self.n
            if i in self.to_act:
                return i
        return None

    def _bring_in_seat(self) -> int:
        """Stud: the lowest up card brings in, ties broken by suit c<d<h<s; razz: the highest
        (ace low), ties by the highest suit (Robert's Rules v11, Seven-Card Stud rule 2; Razz)."""
        razz = self.v.code == "FR"
        best, best_key = 0, None
        for i in self.live():
            ups = [c for c, u in zip(self.hole[i], self.up[i]) if u]
            if not ups or ups[-1] == UNKNOWN:
                continue
            c = ups[-1]
            r = rank(c)
            if razz:
                r = -1 if r == 12 else r  # ace is low in razz
                key = (-r, -suit(c))  # highest card brings in
            else:
                key = (r, suit(c))  # lowest card brings in
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    def _best_showing(self, low: bool) -> int:
        """Stud later streets: the best hand showing acts first (razz: the lowest); ties go to
        the player nearest the dealer's left (Robert's Rules v11, Seven-Card Stud rule 2)."""
        best, best_key = None, None
        for i in self.live():
            ups = [c for c, u in zip(self.hole[i], self.up[i]) if u]
            key = showing_order_key(ups, low)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best if best is not None else 0

    # ------------------------------------------------------------------ the run
    def run(self) -> Replay:
        self.start()
        for index, action in enumerate(self.hand.actions):
            self.step(index, action)
        return self.finish()

    def start(self) -> None:
        """Open the first street (forced bets are already posted)."""
        self._next_street()

    def step(self, index: int, action) -> None:
        """Judge and apply one action (the hand's ``index``-th)."""
        self.index = index
        pot_before = self.in_middle()
        kind = action.kind
        street = self._street_name()
        if self.optional_check is not None and kind != NOOP:
            lone, self.optional_check = self.optional_check, None
            if kind == CHECK_CALL and action.player == lone:
                self.records.append(ActionRecord(index, street, self.p(lone), K.K_CHECK, pot_before=pot_before,
                                                 to_call=0))
                return
        if kind == NOOP:
            self.records.append(ActionRecord(index, street, None, K.K_NOOP, pot_before=pot_before))
        elif kind in (DEAL_BOARD, DEAL_HOLE):
            rec_kind = self._deal(action)
            self.records.append(ActionRecord(index, self._street_name(), "d", rec_kind, pot_before=pot_before))
        else:
            self._player_action(action, pot_before)

    def finish(self) -> Replay:
        """The replayed hand, once every action has been stepped."""
        self.index = -1
        complete = self.phase == OVER
        if not complete:
            self.findings.append(Finding("incomplete-hand", self._incomplete_message(), None, None,
                                         self.book.cite("incomplete-hand")))
        live = self.live()
        return Replay(
            findings=tuple(self.findings),
            records=tuple(self.records),
            complete=complete,
            contributions=tuple(self.contrib),
            dead=tuple(self.dead),
            folded=tuple(self.folded),
            all_in=tuple(self.all_in(i) for i in range(self.n)),
            hole=tuple(tuple(c) for c in self.hole),
            up=tuple(tuple(u) for u in self.up),
            board=tuple(self.board),
            shown=tuple(self.shown),
            showdown=len(live) >= 2 and (self.phase in (SHOWDOWN, OVER) or self.street >= len(self.v.streets)),
            order_at_showdown=tuple(self.show_order),
        )

    def _street_name(self) -> str | None:
        return self.street_name

    def _incomplete_message(self) -> str:
        if self.phase == BET:
            who = self.next_to_act()
            return f"the history stops on {self._street_name()} with {self.p(who)} to act" if who is not None \
                else f"the history stops during the {self._street_name()} betting"
        if self.phase == SHOWDOWN:
            missing = [self.p(i) for i in self.live() if self.shown[i] is None]
            return f"the history stops at the showdown: {', '.join(missing)} neither showed nor mucked"
        if self.phase == DRAW:
            return f"the history stops during the {self._street_name()} draw"
        return f"the history stops before the {self._street_name()} cards are dealt"

    # ------------------------------------------------------------------ dealing
    def _check_cards(self, cards, who: str) -> None:
        for c in cards:
            if c == UNKNOWN:
                continue
            if c in self.seen:
                self.find("duplicate-card", f"{card_text(c)} is dealt again ({who}); it was already dealt in this hand",
                          "d", self.book.ruling("duplicate-card"))
            self.seen.add(c)

    def _deal(self, action) -> str:
        cards = action.cards or ()
        if self.phase == BET and self.to_act and self.to_act <= self.skipped:
            self._close_skipped()
        if action.kind == DEAL_BOARD:
            self._deal_board(cards)
            return K.K_DEAL_BOARD
        self._deal_hole(action.player, cards)
        return K.K_DEAL_HOLE

    def _premature(self, what: str) -> None:
        msg = f"{what} dealt before the betting round is over"
        who = self.next_to_act()
        if who is not None:
            msg += f" ({self.p(who)} still to act)"
        self.find("premature-deal", msg, "d", self.book.ruling("premature-deal"))

    def _deal_board(self, cards) -> None:
        if self.phase == OVER:
            self.find("action-after-end", "board cards dealt after the hand is over", "d")
            return
        if not any(st.board for st in self.v.streets):
            self.find("wrong-card-count", f"{self.v.code} deals no board cards", "d")
            return
        self._check_cards(cards, "board")
        if self.phase in (BET, DRAW) or (self.phase == DEAL and self.pending_hole):
            self._premature("board cards")
            self.board.extend(cards)
            self.board_ahead += len(cards)
            return
        if self.phase == SHOWDOWN or self.pending_board == 0:
            self.find("wrong-card-count", f"{len(cards)} board card(s) dealt when none is due", "d")
            self.board.extend(cards)
            return
        if len(cards) != self.pending_board:
            self.find("wrong-card-count", f"{len(cards)} board card(s) dealt on the {self._street_name()}; "
                      f"{self.pending_board} due", "d")
        self.board.extend(cards)
        self.pending_board = 0
        self._maybe_start_betting()

    def _deal_hole(self, i: int, cards) -> None:
        who = self.p(i)
        if self.phase == OVER or self.folded[i]:
            self.find("action-after-end", f"cards dealt to {who}, who is no longer in the hand", "d")
            return
        self._check_cards(cards, who)
        if self.phase == DRAW:
            if i in self.to_draw:
                due = self.to_draw.pop(i)
                if len(cards) != due:
                    self.find("wrong-card-count", f"{who} discarded {due} card(s) but is dealt {len(cards)}", "d")
                self._receive(i, cards, up=False)
                self._maybe_start_betting()
                return
            if i in self.to_discard:
                self.find("premature-deal", f"cards dealt to {who} before {who} has discarded", "d")
            else:
                self.find("wrong-card-count", f"{who} is dealt cards but has nothing to draw", "d")
            self._receive(i, cards, up=False)
            return
        if self.phase == DEAL and i in self.pending_hole:
            due = self.pending_hole.pop(i)
            if len(cards) != due:
                self.find("wrong-card-count", f"{who} is dealt {len(cards)} card(s) on the {self._street_name()}; "
                          f"{due} due", "d")
            self._receive(i, cards, up=None)
            self._maybe_start_betting()
            return
        if self.phase in (BET, DEAL) and self.street + 1 < len(self.v.streets) and \
                self.v.streets[self.street + 1].hole_down + self.v.streets[self.street + 1].hole_up:
            self._premature(f"cards to {who}")
            self.hole_ahead[i] = self.hole_ahead.get(i, 0) + len(cards)
            self._receive(i, cards, up=None, street=self.street + 1)
            return
        self.find("wrong-card-count", f"{who} is dealt {len(cards)} card(s) when none is due", "d")
        self._receive(i, cards, up=False)

    def _receive(self, i: int, cards, up: bool | None, street: int | None = None) -> None:
        """Give cards to a player; ``up=None`` takes face-up/down from the street (stud)."""
        st = self.v.streets[min(street if street is not None else max(self.street, 0), len(self.v.streets) - 1)]
        for k, c in enumerate(cards):
            self.hole[i].append(c)
            self.up[i].append(bool(k >= st.hole_down) if up is None and st.hole_up else bool(up))

    # ------------------------------------------------------------------ player actions
    def _player_action(self, action, pot_before: int) -> None:
        i = action.player
        who = self.p(i)
        kind = action.kind
        street = self._street_name()
        if kind == SHOW_MUCK:
            self._show(i, action)
            rec = K.K_SHOW if self.shown[i] else K.K_MUCK
            self.records.append(ActionRecord(self.index, street, who, rec, pot_before=pot_before))
            return
        if kind == DISCARD:
            rec = self._discard(i, action.cards)
            self.records.append(ActionRecord(self.index, street, who, rec, pot_before=pot_before))
            return
        if self.phase == OVER or self.folded[i]:
            why = "has folded" if self.folded[i] else "acts after the hand is over"
            self.find("action-after-end", f"{who} {why}; the action is ignored", who,
                      "ignored: a folded hand is dead" if self.folded[i] else "ignored")
            self.records.append(ActionRecord(self.index, street, who, _REC.get(kind, K.K_NOOP), pot_before=pot_before))
            return
        self.skipped.discard(i)
        reported = False
        if self.phase != BET:
            self._not_betting_time(i)
            reported = True
            if self.phase != BET:
                self.records.append(ActionRecord(self.index, street, who, _REC.get(kind, K.K_NOOP), pot_before=pot_before))
                return
        if self.all_in(i):
            self.find("out-of-turn", f"{who} is all in and has no action", who, "ignored")
            self.records.append(ActionRecord(self.index, street, who, _REC.get(kind, K.K_NOOP), pot_before=pot_before))
            return
        expected = self.next_to_act()
        to_call = max(0, self.level - self.bet[i])
        lo, hi = self._raise_range(i)
        if (kind == BRING_IN and self._is_bring_in_time()) or reported:
            pass  # judged in _bring_in, or already reported above
        elif expected != i:
            self._out_of_turn(i, expected)
        before = self.contrib[i]
        if kind == FOLD:
            rec = self._fold(i, to_call)
        elif kind == CHECK_CALL:
            rec = self._call(i)
        elif kind == BRING_IN:
            rec = self._bring_in(i)
        else:
            rec = self._bet_raise(i, action.amount, lo, hi)
        put = self.contrib[i] - before
        self.records.append(ActionRecord(
            self.index, street, who, rec, put or None,
            self.bet[i] if rec in (K.K_BET, K.K_RAISE, K.K_COMPLETE) else None,
            pot_before, to_call, lo, hi, self.all_in(i)))
        self.cursor = i if self.return_to is None else (self.return_to - 1) % self.n
        self.return_to = None
        self._after_action()

    def _out_of_turn(self, i: int, expected: int | None) -> None:
        """Report a player acting before their turn. The players passed over keep their turn
        (TDA Rule 55, seed 4.24/4.26); they are reported once, and if the history never gives
        them an action before the next deal, their hands are treated as folded when facing a
        bet and as checked otherwise."""
        who = self.p(i)
        if expected is None:
            self.find("out-of-turn", f"{who} acts but the betting round is over", who,
                      self.book.ruling("out-of-turn"))
            return
        passed = []
        for k in range(self.n):
            j = (expected + k) % self.n
            if j == i:
                break
            if j in self.to_act:
                passed.append(j)
        new = [j for j in passed if j not in self.skipped]
        self.skipped.update(passed)
        if passed:
            self.return_to = passed[0]  # the action goes back to the first player passed over
        if not new:
            return
        names = ", ".join(self.p(j) for j in new)
        ruling = self.book.ruling("out-of-turn") or "the action stands"
        self.find("out-of-turn", f"{who} acts out of turn; it is {self.p(expected)}'s turn ({names} passed over)",
                  who, f"{ruling}; if {names} never act, they are treated as folded (facing a bet) or checked")

    def _close_skipped(self) -> None:
        """The dealer moves on while only passed-over players are still to act (see _out_of_turn)."""
        for j in sorted(self.to_act):
            if self.bet[j] < self.level:
                self._mark_folded(j)
        self.to_act.clear()
        self._after_action()

    def _not_betting_time(self, i: int) -> None:
        """A betting action while the dealer or the draw is due: report it, then go on as if
        the missing step had happened (the omission is reported where it shows)."""
        who = self.p(i)
        if self.phase == DEAL:
            missing = "board cards" if self.pending_board else "hole cards"
            self.find("out-of-turn", f"{who} acts before the dealer has dealt the {self._street_name()} {missing}",
                      who, "the missing deal is reported; the replay goes on without those cards")
            self.pending_board, self.pending_hole = 0, {}
            self._maybe_start_betting()
        elif self.phase == DRAW:
            self.find("out-of-turn", f"{who} bets before the {self._street_name()} draw is complete", who,
                      "the missing draw is reported; the replay goes on")
            self.to_discard, self.to_draw = [], {}
            self._maybe_start_betting()
        elif self.phase == SHOWDOWN:
            self.find("action-after-end", f"{who} bets after the last betting round", who, "ignored")

    def _is_bring_in_time(self) -> bool:
        return (self.v.streets[self.street].opener == OPEN_BRING_IN and self.level == max(self.bet)
                and not self.acted)

    def _raise_range(self, i: int) -> tuple[int | None, int | None]:
        """Legal bet/raise-to range for player ``i`` now (None, None: may not raise)."""
        cap_to = self.bet[i] + self.stack[i]
        if cap_to <= self.level or not self._may_raise(i) or self._cap_reached():
            return None, None
        s = self.v.structure
        if s == FIXED:
            to = limits.fixed_to(self.fl_level, self.unit)
            if self._stud_bring_in_pending():
                to = self.hand.small_bet or to
            return min(to, cap_to), min(to, cap_to)
        lo = limits.min_raise_to(self.level, self.last_full)
        hi = cap_to
        if s == POT:
            hi = min(cap_to, limits.pot_limit_max_to(self.level, self.in_middle(), self.bet[i]))
        return min(lo, cap_to), hi

    def _stud_bring_in_pending(self) -> bool:
        return self.street == 0 and self.v.streets[0].opener == OPEN_BRING_IN and self.raises == 0

    def _may_raise(self, i: int) -> bool:
        if i not in self.acted:
            return True
        faced = self.level - self.acted[i]
        return faced > 0 and limits.may_reraise(self.v.structure, faced, self.last_full, self.unit,
                                                 self.book.limit_allin_reopen)

    def _cap_reached(self) -> bool:
        if self.v.structure != FIXED:
            return False
        limit = self.book.limit_raises if self.v.betting_rounds >= 3 else self.book.limit_raises_short
        if self.raises < 1 + limit:
            return False
        mode = self.book.heads_up_uncap
        if mode == "when-heads-up" and self._cap_players() <= 2 and not self.capped_multiway:
            return False
        if mode == "round-starts-heads-up" and self.round_starts_heads_up:
            return False
        return True

    def _fold(self, i: int, to_call: int) -> str:
        if to_call == 0 and self.book.unnecessary_fold != "off":
            self.find("unnecessary-fold", f"{self.p(i)} folds when checking was free; the fold stands",
                      self.p(i), self.book.ruling("unnecessary-fold"),
                      severity=WARNING if self.book.unnecessary_fold == "warning" else INFO)
        self._mark_folded(i)
        self.to_act.discard(i)
        return K.K_FOLD

    def _call(self, i: int) -> str:
        to_call = max(0, self.level - self.bet[i])
        self.put(i, to_call)
        self.acted[i] = self.level
        self.to_act.discard(i)
        return K.K_CALL if to_call else K.K_CHECK

    def _bring_in(self, i: int) -> str:
        who = self.p(i)
        if not self._is_bring_in_time():
            self.find("wrong-bring-in", f"{who} posts a bring-in when none is due", who, "treated as a call")
            return self._call(i)
        if i != self.bring_in_player and self.bring_in_player is not None:
            self.find("wrong-bring-in", f"{who} posts the bring-in, but {self.p(self.bring_in_player)} has the "
                      f"{'highest' if self.v.code == 'FR' else 'lowest'} up card and must bring in", who,
                      self.book.ruling("wrong-bring-in"))
        amount = self.hand.bring_in or 0
        self.put(i, amount - self.bet[i])
        self.level = max(self.level, self.bet[i])
        self.acted[i] = self.level
        self.to_act = self.active - {i}
        return K.K_BRING_IN

    def _bet_raise(self, i: int, to: int, lo: int | None, hi: int | None) -> str:
        """A ``cbr``: judge the amount, apply the ruling, and update the round."""
        who = self.p(i)
        s = self.v.structure
        cap_to = self.bet[i] + self.stack[i]
        fmt = self.fmt
        opening = self.level == 0 or (self._stud_bring_in_pending())
        word = "bet" if self.level == 0 else ("completion" if self._stud_bring_in_pending() else "raise")
        if to > cap_to:
            self.find("exceeds-stack", f"{who} {word}s to {fmt(to)} but has only {fmt(cap_to)} "
                      f"({fmt(self.stack[i])} behind)", who, f"all in for {fmt(cap_to)}")
            to = cap_to
        all_in = to == cap_to and not self.unknown[i]
        if to <= self.level:
            self.find("raise-below-minimum" if self.level else "bet-below-minimum",
                      f"{who} {word}s to {fmt(to)}, not above the current bet {fmt(self.level)}", who, "treated as a call")
            return self._call(i)
        if self._cap_reached():
            self.find("raise-cap-exceeded", f"{who} raises after the round is capped at a bet and "
                      f"{self.raises - 1} raises", who, self.book.ruling("raise-cap-exceeded") or "treated as a call")
            return self._call(i)
        if lo is None:
            if cap_to > self.level and not self._may_raise(i):
                faced = self.level - self.acted.get(i, self.level)
                self.find("betting-not-reopened", f"{who} raises after having acted, facing only {fmt(faced)} more "
                          "from short all-ins: the betting was not reopened", who,
                          self.book.ruling("betting-not-reopened") or "treated as a call")
            return self._call(i)
        if s == FIXED:
            fixed = lo
            if to != fixed and not (all_in and to < fixed):
                self.find("wrong-limit-amount", f"{who} {word}s to {fmt(to)}; the fixed-limit {word} is to "
                          f"{fmt(fixed)}", who, self.book.ruling("wrong-limit-amount") or f"one bet: to {fmt(fixed)}")
                to = fixed
        else:
            if to < lo and not all_in:
                code = "bet-below-minimum" if opening else "raise-below-minimum"
                if opening:
                    ruled, as_call = lo, False
                    ruling = f"brought up to the minimum bet {fmt(lo)}"
                else:
                    ruled, as_call = limits.short_raise_ruling(self.book.short_raise_ruling, self.level, to, lo)
                    ruling = ("treated as a call (half rule)" if as_call
                              else f"brought up to the minimum raise, to {fmt(ruled)}")
                self.find(code, f"{who} {word}s to {fmt(to)}; the minimum is to {fmt(lo)}", who,
                          ruling)
                if as_call:
                    return self._call(i)
                to = min(ruled, cap_to)
                all_in = to == cap_to
            if s == POT and hi is not None and to > hi:
                self.find("over-pot-limit", f"{who} {word}s to {fmt(to)}; the pot limit is to {fmt(hi)}"
                          + (" (an all-in above the pot is cut back, seed 4.23)" if all_in else ""), who,
                          f"cut back to a pot-sized {word}: to {fmt(hi)}")
                to = hi
                all_in = to == cap_to
        # apply
        raise_by = to - self.level
        prev_level = self.level
        self.put(i, to - self.bet[i])
        if self._stud_bring_in_pending() and s == FIXED and to >= (self.hand.small_bet or 0):
            full = True
        else:
            full = not all_in or limits.allin_counts_as_raise(s, raise_by, self.last_full, self.unit,
                                                               self.book.limit_allin_reopen)
            if all_in and s == FIXED and to >= limits.fixed_to(self.fl_level, self.unit):
                full = True
        self.level = to
        kind = K.K_BET if prev_level == 0 else K.K_RAISE
        if self._stud_bring_in_pending():
            kind = K.K_COMPLETE
        if full:
            if s != FIXED:
                self.last_full = max(self.last_full, raise_by) if prev_level == 0 else raise_by
            short_allin = s == FIXED and all_in and to < limits.fixed_to(self.fl_level, self.unit)
            if short_allin and self.book.limit_raise_over_half_allin == "completed-plus-bet":
                # The reopening all-in counts as completed to a full raise (seed 4.14(b) variant).
                self.fl_level = limits.fixed_to(self.fl_level, self.unit)
            else:
                self.fl_level = to  # allin-plus-bet: a raise over it is the all-in plus one bet
            self.raises += 1
            if kind == K.K_COMPLETE and self.book.completion_counts_as_raise:
                self.raises += 1  # the bring-in was the opening bet, the completion a raise (WSOP reads otherwise)
            limit = self.book.limit_raises if self.v.betting_rounds >= 3 else self.book.limit_raises_short
            if self.raises >= 1 + limit and self._cap_players() > 2:
                self.capped_multiway = True
        self.acted[i] = self.level
        self.round_aggressor = i
        self.last_aggressor = i
        self.to_act = self.active - {i}
        return kind

    def _after_action(self) -> None:
        if self.n_live <= 1:
            self.phase = OVER
            return
        # players who matched and acted are done; all-in players are never waited for
        self.to_act &= self.active
        # A lone player with chips who faces no bet has nobody left to bet against (seed 4.3).
        # PokerKit and some logs still record that player's check; it is accepted (no finding).
        if self.to_act and self._count_can_act() <= 1 and all(self.bet[j] >= self.level for j in self.to_act):
            self.optional_check = next(iter(self.to_act))
            self.to_act.clear()
        if not self.to_act:
            self._end_round()

    # ------------------------------------------------------------------ draws and showdown
    def _discard(self, i: int, cards) -> str:
        who = self.p(i)
        cards = cards or ()
        if self.phase == OVER or self.folded[i]:
            self.find("action-after-end", f"{who} draws but is no longer in the hand", who, "ignored")
            return K.K_DISCARD if cards else K.K_STAND_PAT
        if self.phase != DRAW:
            self.find("out-of-turn", f"{who} draws when no draw is due", who, "ignored")
            return K.K_DISCARD if cards else K.K_STAND_PAT
        if self.to_discard and self.to_discard[0] != i:
            if i in self.to_discard:
                self.find("out-of-turn", f"{who} draws out of turn; it is {self.p(self.to_discard[0])}'s turn", who,
                          self.book.ruling("out-of-turn"))
            else:
                self.find("out-of-turn", f"{who} draws twice in one draw", who, "ignored")
                return K.K_DISCARD if cards else K.K_STAND_PAT
        if i in self.to_discard:
            self.to_discard.remove(i)
        hole = self.hole[i]
        if len(cards) > len(hole):
            self.find("invalid-discard", f"{who} discards {len(cards)} cards but holds {len(hole)}", who)
        for c in cards:
            if c in hole:
                hole.remove(c)
                continue
            if c == UNKNOWN or UNKNOWN in hole:
                if UNKNOWN in hole:
                    hole.remove(UNKNOWN)
                elif hole:
                    hole.pop(0)
                continue
            self.find("invalid-discard", f"{who} discards {card_text(c)}, which {who} does not hold "
                      f"(holds {cards_text(hole)})", who)
        self.up[i] = [False] * len(hole)
        if cards:
            self.to_draw[i] = len(cards)
        self._maybe_start_betting()
        return K.K_DISCARD if cards else K.K_STAND_PAT

    def _show(self, i: int, action) -> None:
        who = self.p(i)
        if self.folded[i]:
            self.find("action-after-end", f"{who} shows or mucks after folding", who, "ignored")
            return
        # At the showdown, or in an all-in run-out (real logs show hands before the rest of the
        # board, and repeat `sm ????` on each street before the final `sm CARDS`: one showing,
        # refined, not a second show). Once the hand is over a later show still refines.
        at_showdown = self.n_live > 1 and (self.phase in (SHOWDOWN, OVER) or self.closed)
        if not at_showdown:
            if self.phase == OVER:
                # The winner uncontested may show; it changes nothing.
                self.shown[i] = self.shown[i] if self.shown[i] is not None else action.cards is not None
                return
            self.find("out-of-turn", f"{who} shows or mucks before the betting is over", who, "ignored")
            return
        cards = action.cards
        if action.show_dash:
            cards = tuple(self.hole[i])
        if cards is None:
            if self.shown[i] is None:
                self.shown[i] = False
                self.show_order.append(i)
                self._check_show_order(i)
        elif self.shown[i] is not False:  # a mucked hand stays dead
            self._refine(i, cards)
            if self.shown[i] is None:
                self.show_order.append(i)
                self._check_show_order(i)
            self.shown[i] = True
        if self.phase == SHOWDOWN:
            self._maybe_over()

    def _refine(self, i: int, cards) -> None:
        """A show reveals (or repeats) the player's cards: unknown cards become known."""
        hole = self.hole[i]
        who = self.p(i)
        if len(cards) != len(hole) and hole:
            self.find("wrong-card-count", f"{who} shows {len(cards)} card(s) but holds {len(hole)}", who)
        if not hole:
            self.hole[i] = list(cards)
            self.up[i] = [False] * len(cards)
            self._check_cards([c for c in cards], who)
            return
        known = [c for c in hole if c != UNKNOWN]
        new = []
        for c in cards:
            if c == UNKNOWN:
                continue
            if c in known:
                known.remove(c)
                continue
            new.append(c)
        if len(new) > hole.count(UNKNOWN):
            self.find("show-mismatch", f"{who} shows {cards_text(cards)} but was dealt {cards_text(hole)}", who)
        it = iter(new)
        for k, c in enumerate(hole):
            if c == UNKNOWN:
                nxt = next(it, None)
                if nxt is None:
                    break
                if nxt in self.seen:
                    self.find("duplicate-card", f"{who} shows {card_text(nxt)}, a card already dealt elsewhere", who)
                self.seen.add(nxt)
                hole[k] = nxt

    def first_to_show(self) -> tuple[int, int | None]:
        """Who shows first: the last aggressor of the final round, else the first player in the
        final round's order (TDA Rule 16). Returns (player, last aggressor or None)."""
        live = self.live()
        last = self.round_aggressor if getattr(self, "round_aggressor", None) in live else None
        if last is not None and self.book.show_order == "last-aggressor":
            return last, last
        return min(live, key=lambda j: (j - getattr(self, "order_start", 0)) % self.n), None

    def _check_show_order(self, i: int) -> None:
        """Warn when the first hand shown is not the one the rulebook asks for first: the last
        aggressor of the final round, else the first player left of the button (TDA Rule 16)."""
        if len(self.show_order) != 1 or self.book.show_order == "off":
            return
        live = self.live()
        if any(self.all_in(j) for j in live) or len(live) < 2:
            return  # all-in showdowns are tabled together (TDA Rule 16)
        expected, last = self.first_to_show()
        if i != expected:
            self.find("show-order", f"{self.p(i)} shows first; {self.p(expected)} should show first "
                      f"({'last aggressor' if last is not None else 'first to act'})", self.p(i),
                      "the hand stands; order only", severity=WARNING)


_NAMES = tuple(f"p{i + 1}" for i in range(64))
_REC = {FOLD: K.K_FOLD, CHECK_CALL: K.K_CALL, BET_RAISE: K.K_RAISE, BRING_IN: K.K_BRING_IN}
