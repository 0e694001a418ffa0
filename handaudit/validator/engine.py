"""Replay a hand action by action and judge every action under a rulebook.

The engine knows at each step whose turn it is and what they may do. Each irregularity becomes
one :class:`~handaudit.findings.finding.Finding` with the action index, the contract's code, the rule
the rulebook cites, and the ruling; the replay then goes on *as ruled*. When the ruling changes
what the history records, the actions after it are also judged against the recorded state, and
the findings are those of the state the history follows (see :func:`replay`), so one mistake
does not cascade into spurious findings. Nothing is repaired silently: a missing action is
reported where the omission shows.

Phases of a hand: forced bets are posted at the start; then per street the dealer deals
(``DEAL``), players draw (``DRAW``, draw games), players bet (``BET``); after the last street
comes the ``SHOWDOWN``; the hand is ``OVER`` when one player is left or everyone still in has
shown or mucked.

This module holds the phases (forced bets, streets, turn order, the run); the state is declared
in state.py, and the rules are judged in dealing.py (deals, draws, showdown) and betting.py
(player betting actions). The four are one class chain, ReplayState -> Dealing -> Betting ->
_Engine, not mixins: the compiled build (mypyc) lays the state out once, as one native class
with typed attributes (see state.py).
"""

from __future__ import annotations

from typing import Final

from ..core.cards import UNKNOWN, rank, suit
from ..core.status import ERROR, WARNING
from ..core.hand import CHECK_CALL, DEAL_BOARD, DEAL_HOLE, NOOP, Action, Hand
from ..core.variants import OPEN_BLINDS, OPEN_BRING_IN, OPEN_LOW_SHOWING
from ..findings.finding import Finding
from ..rules.rulebook import Rulebook
from . import outcome as K
from .betting import Betting
from .outcome import ActionRecord, Replay
from .phases import BET, DEAL, DRAW, OVER, SHOWDOWN, UNKNOWN_STACK
from .showing import showing_order_key

__all__ = ["replay", "BET", "DEAL", "DRAW", "OVER", "SHOWDOWN", "UNKNOWN_STACK"]


def replay(hand: Hand, rulebook: Rulebook) -> Replay:
    """Replay ``hand`` under ``rulebook``; never raises for any readable hand.

    One fault, one error (docs/rules.md, "After a ruling"): when a ruling changes a recorded
    action (``diverged``: a raise ruled a call, an amount brought up or cut back), the history
    after it follows either the ruling (the table enforced it and the log kept the action as
    first made) or the action as recorded (the table let it stand). The actions after it are
    judged against both states, the ruled replay's and the record's (the action applied as
    recorded), and the findings after that action are those of the state the record follows:
    the one that finds fewer faults there (a tie keeps the ruled one). The chips, cards and
    records stay the ruled replay's when the history follows the ruling; when it follows the
    record, they are the recorded history's with what the rulings take out of its chips (a raise
    ruled a call: the chips above the call, its own and those that called them), the ruling's row
    as ruled, and the recorded chips and folds come along (``recorded_contributions``) for the
    payout check. Either way the settlement keeps the ruling's effect. Only hands with such a
    ruling are replayed twice."""
    engine = _Engine(hand, rulebook)
    ruled = engine.run()
    k = engine.diverged
    if k < 0:
        return ruled
    follower = _Engine(hand, rulebook, True)
    record = follower.run()
    if _faults_after(record.findings, k) >= _faults_after(ruled.findings, k):
        return ruled
    out = [f for f in ruled.findings if f.action_index is not None and f.action_index <= k]
    out.extend([f for f in record.findings if f.action_index is None or f.action_index > k])
    findings = tuple(out)
    if not follower.ruled_exact:
        # a ruling raised an amount (brought up to the minimum): what the later actions would
        # have put in under it is not in the record; the ruled replay's chips stand
        return ruled.replace(findings=findings, complete=record.complete, ruling_index=k,
                             recorded_contributions=record.contributions, recorded_folded=record.folded)
    # The history as recorded, with what the rulings take out of it: the ruled action's chips
    # above the ruled level, and the later chips that only matched them (see _note_ruling).
    out_chips = follower.ruled_out
    chips = tuple([c - out_chips[i] for i, c in enumerate(record.contributions)]) if out_chips \
        else record.contributions
    rows = ruled.records[:k + 1] + record.records[k + 1:]
    return record.replace(findings=findings, records=rows, contributions=chips, ruling_index=k,
                          recorded_contributions=record.contributions, recorded_folded=record.folded)


def _faults_after(findings: tuple[Finding, ...], k: int) -> int:
    """How many errors and warnings are found at actions after ``k``, or at the end of the hand
    (an incomplete hand: the replay's state never reached the end)."""
    n = 0
    for f in findings:
        at = f.action_index
        if (at is None or at > k) and f.severity in (ERROR, WARNING) or f.code == "incomplete-hand":
            n += 1
    return n


class _Engine(Betting):
    """One hand's replay: the last link of the chain ReplayState -> Dealing -> Betting -> _Engine."""

    def __init__(self, hand: Hand, book: Rulebook, follow_record: bool = False) -> None:
        super().__init__(hand, book, follow_record)
        self._post_forced_bets()

    # ------------------------------------------------------------------ forced bets
    def _post_forced_bets(self) -> None:
        h, n = self.hand, self.n
        antes = h.antes
        blinds = h.blinds_or_straddles
        if n == 2 and self.v.button_game:
            # Heads-up, the forced bets are reverse-assigned: p1 is the big blind, p2 the
            # button and small blind (PHH spec, required.rst "Antes" and "Blinds or Straddles").
            antes = antes[::-1]
            blinds = blinds[::-1]
        for i, a in enumerate(antes):
            if a > 0:
                self.put(i, a, dead=True)
        largest = 0  # the largest blind or straddle posted (0: none)
        straddles = 0  # blinds posted after the first two seats
        for i, b in enumerate(blinds):
            if b > largest:
                largest = b
            if b > 0 and i >= 2 and n > 2:
                straddles += 1
        if self.v.button_game and n > 2:
            self.big_blind = blinds[1] if blinds[1] > blinds[0] else blinds[0]
        else:
            self.big_blind = largest
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
        self.largest_blind = largest
        self.straddles = straddles

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
        pending = 0
        if per_player:
            ahead = self.hole_ahead  # cards dealt before their street (almost always none)
            due = self.hole_due
            for i in range(self.n):
                if self.folded >> i & 1:
                    continue
                need = per_player - ahead[i]
                ahead[i] = 0
                if need > 0:
                    pending |= 1 << i
                    due[i] = need
        self.pending_hole = pending
        self.pending_board = max(0, st.board - self.board_ahead)
        self.board_ahead = max(0, self.board_ahead - st.board)
        if st.draw:
            self.phase = DRAW
            # Draws go in betting order from the button's left (p1 first in PHH order).
            self.to_discard = self.live()
            self.to_draw = {}
        else:
            self.phase = DEAL
        self._maybe_start_betting()

    def _maybe_start_betting(self) -> None:
        if self.phase == DEAL and (self.pending_board or self.pending_hole):
            return
        if self.phase == DRAW and (self.to_discard or self.to_draw):
            return
        if not self.dealt_street:
            # The deal that completes a street names it, even when the betting is over and the
            # replay runs on to later streets at once (an all-in before the flop).
            self.dealt_street = self.street_name or ""
        self._start_betting()

    def _start_betting(self) -> None:
        st = self.v.streets[self.street]
        self.phase = BET
        fixed = self.fixed
        unit = (self.hand.big_bet if st.big_bet else self.hand.small_bet) if fixed else 0
        self.unit = unit or 0
        self.raises = 0  # bets and raises counted towards a fixed-limit cap
        self.capped_multiway = False
        self.acted = 0
        self.skipped = 0
        self.return_to = None
        self.checked_oot = 0
        self.called_oot = 0
        self.sub_actions = 0
        self.sub_chips = False
        self.turn_lost = 0
        self.call_cap = -1
        self.oot_bettor = -1
        self.oot_over = 0
        self.level = self.highest_bet()
        self.fl_level = 0
        self.round_aggressor = None
        min_bet = self.hand.min_bet or self.hand.small_bet or 0
        self.last_full = min_bet
        first = 0
        if st.opener == OPEN_BLINDS:
            if self.largest_blind > self.level:
                # A big blind all in for less than the blind: the opening bet is still the full
                # big blind, which the others call or raise (TDA 2026 Rules 45 and 50; Robert's
                # Rules of Poker v11, Section 14 rules 1 and 3: the big blind is the opening bet).
                self.level = self.largest_blind
            if self.largest_blind:
                # Before the flop the big blind counts as the opening bet (TDA 2026 Rules 45 and 50; Robert's Rules of Poker v11, Section 14 (No-Limit) rules 1 and 3); over a
                # straddle the straddle is the last full bet, so the minimum raise-to is twice
                # the straddle (rulebook `straddle_min_raise`, reading of TDA 2026 Rules 45 and 50; Robert's Rules of Poker v11, Section 14 (No-Limit) rules 1 and 3).
                self.last_full = self._preflop_raise_size() if not fixed else self.unit
                self.fl_level = self.largest_blind if fixed else 0
                self.raises = 1
                if self.straddles and self.rules.straddle_counts_as_raise:
                    self.raises += self.straddles
            if self.n == 2:
                first = 1  # heads-up the button (p2) acts first before the flop (Robert's Rules of Poker v11, Section 4 introduction and Section 8 rule 2)
            elif self.blind_seat_last is not None:
                first = (self.blind_seat_last + 1) % self.n
        elif st.opener == OPEN_BRING_IN:
            first = self._bring_in_seat()
            self.bring_in_player = first
        elif st.opener != "button":
            first = self._best_showing(low=st.opener == OPEN_LOW_SHOWING)
        self.order_start = first
        self.to_act = self.active
        self.cursor = (first - 1) % self.n
        self.round_starts_heads_up = self._cap_players() <= 2
        if self.closed or not self._betting_possible():
            self.closed = self.closed or self._count_can_act() <= 1
            self._end_round()

    def _preflop_raise_size(self) -> int:
        """The last full raise before the flop: the big blind; over straddles, per the rulebook's
        `straddle_min_raise`: the straddle itself (double-straddle) or the straddle's own raise
        over the blind before it (straddle-plus-raise, PokerKit's minimum)."""
        if not self.straddles or self.rules.double_straddle:
            return self.largest_blind
        levels = sorted({b for b in self.hand.blinds_or_straddles if b > 0})
        return levels[-1] - levels[-2] if len(levels) > 1 else levels[-1]

    def _betting_possible(self) -> bool:
        """Betting happens while two players can act, or one can and faces a bet."""
        if self.n_active >= 2:
            return True
        return any(self.active >> i & 1 and self.bet[i] < self.level for i in range(self.n))

    def _end_round(self) -> None:
        if self.ruled_spans:
            self._take_ruled_out()
        for i in range(self.n):
            self.bet[i] = 0
        if self._count_can_act() <= 1:
            self.closed = True
        self._next_street()

    # ------------------------------------------------------------------ turn order
    def _bring_in_seat(self) -> int:
        """Stud: the lowest up card brings in, ties broken by suit c<d<h<s; razz: the highest
        (ace low), ties by the highest suit (Robert's Rules v11, Seven-Card Stud rule 2; Razz)."""
        razz = self.v.code == "FR"
        best, best_key, found = 0, 0, False
        for i in self.live():
            ups = self._up_cards(i)
            if not ups or ups[-1] == UNKNOWN:
                continue
            c = ups[-1]
            r = rank(c)
            # (rank, suit) as one int, rank * 4 + suit, ordered as the pair (the suit is 0..3)
            if razz:
                r = -1 if r == 12 else r  # ace is low in razz
                key = -(r * 4 + suit(c))  # highest card brings in
            else:
                key = r * 4 + suit(c)  # lowest card brings in
            if not found or key < best_key:
                best, best_key, found = i, key, True
        return best

    def _best_showing(self, low: bool) -> int:
        """Stud later streets: the best hand showing acts first (razz: the lowest); ties go to
        the player nearest the dealer's left (Robert's Rules v11, Seven-Card Stud rule 2)."""
        best, best_key = None, None
        for i in self.live():
            ups = self._up_cards(i)
            key = showing_order_key(ups, low)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best if best is not None else 0

    def _up_cards(self, i: int) -> list[int]:
        """Player ``i``'s face-up cards, in the order dealt."""
        up = self.up[i]
        cards = []
        k = 0
        for c in self.hole[i]:
            if up >> k & 1:
                cards.append(c)
            k += 1
        return cards

    # ------------------------------------------------------------------ the run
    def run(self) -> Replay:
        self.start()
        for index, action in enumerate(self.hand.actions):
            self.step(index, action)
        return self.finish()

    def start(self) -> None:
        """Open the first street (forced bets are already posted)."""
        self._next_street()

    def step(self, index: int, action: Action) -> None:
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
        if kind == DEAL_HOLE or kind == DEAL_BOARD:
            self.dealt_street = ""  # (a str, never None: compiled, a narrowed None is checked)
            rec_kind = self._deal(action)
            name = self.dealt_street or self._street_name()
            self.records.append(ActionRecord(index, name, "d", rec_kind, pot_before=pot_before))
        elif kind == NOOP:
            self.records.append(ActionRecord(index, street, None, K.K_NOOP, pot_before=pot_before))
        else:
            self._player_action(action, pot_before)

    def finish(self) -> Replay:
        """The replayed hand, once every action has been stepped."""
        self.index = -1
        if self.ruled_spans:
            self._take_ruled_out()
        complete = self.phase == OVER
        if not complete:
            self.findings.append(Finding("incomplete-hand", self._incomplete_message(), None, None,
                                         self.book.cite("incomplete-hand"), self.book.ruled("incomplete-hand")))
        return Replay(
            findings=tuple(self.findings),
            records=tuple(self.records),
            complete=complete,
            contributions=tuple(self.contrib),
            dead=tuple(self.dead),
            folded=tuple([bool(self.folded >> i & 1) for i in range(self.n)]),
            all_in=tuple([self.all_in(i) for i in range(self.n)]),
            hole=tuple(tuple(c) for c in self.hole),
            up=tuple([_flags(self.up[i], len(self.hole[i])) for i in range(self.n)]),
            board=tuple(self.board),
            shown=tuple(self.shown),
            showdown=self.n_live >= 2 and (self.phase in (SHOWDOWN, OVER) or self.street >= len(self.v.streets)),
            order_at_showdown=tuple(self.show_order),
        )

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


_DOWN: Final[tuple[bool, ...]] = (False,)  # a constant: compiled, a literal (False,) is built anew each time


def _flags(mask: int, count: int) -> tuple[bool, ...]:
    """The ``count`` low bits of ``mask`` as bools (bit 0 first)."""
    if not mask:
        return _DOWN * count  # no card face up (every game but stud): one tuple repeat
    return tuple([mask >> k & 1 == 1 for k in range(count)])
