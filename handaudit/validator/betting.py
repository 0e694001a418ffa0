"""The replay's betting rules: turn, fold, check/call, bring-in, bet/raise (a link of the engine's chain).

Every player action in a betting round is judged here: out of turn, minimum bets and raises,
short all-ins that do or do not reopen the betting, fixed-limit sizes and caps, the pot limit,
table stakes; each with the rulebook's citation and ruling, then applied as ruled. The
arithmetic of the limits is in limits.py; turn order and round state live in engine.py, the
state itself in state.py. One class chain, ReplayState -> Dealing -> Betting -> _Engine, rather
than mixins, so that the compiled build lays the state out once (see state.py).
"""

from __future__ import annotations

from typing import Final

from ..core.hand import (
    BET_RAISE,
    BRING_IN,
    CHECK_CALL,
    DISCARD,
    FOLD,
    SHOW_MUCK,
    Action,
)
from ..core.status import INFO, WARNING
from ..core.variants import OPEN_BRING_IN
from . import limits
from . import outcome as K
from .dealing import Dealing
from .outcome import ActionRecord
from .phases import BET, DEAL, DRAW, NO_RAISE, OVER, SHOWDOWN


class Betting(Dealing):
    """Judges and applies the players' betting actions (and routes shows and draws)."""

    def _player_action(self, action: Action, pot_before: int) -> None:
        player = action.player
        assert player is not None  # the reader gives every player action its player
        i: int = player  # a native int: compiled, the narrowed optional would be unboxed at every use
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
        folded = bool(self.folded >> i & 1)
        if self.phase == OVER or folded:
            why = "has folded" if folded else "acts after the hand is over"
            self.find("action-after-end", f"{who} {why}; the action is ignored", who,
                      "ignored: a folded hand is dead" if folded else "ignored")
            self.records.append(ActionRecord(self.index, street, who, _REC.get(kind, K.K_NOOP), pot_before=pot_before))
            return
        was_skipped = bool(self.skipped >> i & 1)
        self.skipped &= ~(1 << i)
        if not self.skipped & ~self.turn_lost:
            self.sub_actions, self.sub_chips = 0, False  # nobody is waiting for the turn back
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
        if self.oot_bettor >= 0:
            pot_before -= self._pending_oot_bet(i, kind, action.amount)
        expected = self._next_seat()
        to_call = self.level - self.bet[i]
        if to_call < 0:
            to_call = 0
        lo, hi = self._raise_range(i)
        # A bring-in is judged in _bring_in (wrong-bring-in), a missing deal was reported above.
        judged_elsewhere = reported or (kind == BRING_IN and self._is_bring_in_time())
        passed = 0
        if expected != i and not judged_elsewhere:
            passed = self._out_of_turn(i, expected if expected >= 0 else None)
        held = bool(self.checked_oot >> i & 1)
        if held and self.rules.check_oot_next_turn:
            self.checked_oot &= ~(1 << i)  # Robert's: on the next turn only
        called = bool(self.called_oot >> i & 1)
        if called:
            self.called_oot &= ~(1 << i)  # on the next turn only
        before = self.pot
        snapshot = bool(passed) and kind == BET_RAISE and self.rules.oot_bet_returned
        if snapshot:
            self._snapshot_round(i)
        if kind == FOLD:
            rec = self._fold(i, to_call)
        elif kind == CHECK_CALL:
            rec = self._call(i)
            if passed and to_call == 0:
                self._checked_out_of_turn(i)
            elif passed and self.rules.call_oot_no_raise:
                self.called_oot |= 1 << i  # Robert's Rules of Poker v11, Section 3 rule 11
        elif kind == BRING_IN:
            rec = self._bring_in(i)
        else:
            amount = action.amount
            assert amount is not None  # the reader gives every `cbr` its amount
            if held and amount > self.level and self.bet[i] + self.stack[i] > self.level:
                self.find("bet-after-check-out-of-turn",
                          f"{who} checked out of turn and now {'raises' if self.level else 'bets'} to "
                          f"{self.fmt(amount)}; the rulebook allows only a call or a fold", who,
                          "treated as a call" if to_call else "treated as a check")
                rec = self._ruled_as_recorded(i, amount, lo, hi) if self.follow_record else self._ruled_call(i)
            elif called and amount > self.level and self.bet[i] + self.stack[i] > self.level:
                self.find("raise-after-call-out-of-turn",
                          f"{who} called out of turn and now raises to {self.fmt(amount)}; the rulebook allows "
                          "only a call or a fold", who, "treated as a call")
                rec = self._ruled_as_recorded(i, amount, lo, hi) if self.follow_record else self._ruled_call(i)
            else:
                rec = self._bet_raise(i, amount, lo, hi)
        self.call_cap = -1
        put = self.pot - before  # only player i puts chips in during their action
        if snapshot and rec in (K.K_BET, K.K_RAISE, K.K_COMPLETE):
            # binding only if the action to it does not change (rulebook changed_action_out_of_turn)
            self.oot_bettor, self.oot_over, self.oot_put = i, passed, put
        self.records.append(ActionRecord(
            self.index, street, who, rec, put or None,
            self.bet[i] if rec in (K.K_BET, K.K_RAISE, K.K_COMPLETE) else None,
            pot_before, to_call, lo if lo != NO_RAISE else None, hi if lo != NO_RAISE else None, self.all_in(i)))
        if self.skipped & ~self.turn_lost and not was_skipped:
            self._count_substantial(i, put)
        self.cursor = i if self.return_to is None else (self.return_to - 1) % self.n
        self.return_to = None
        self._after_action()

    def _count_substantial(self, i: int, put: int) -> None:
        """Player ``i`` acted while players passed over by an out-of-turn action have not: count
        it towards substantial action (rulebook substantial_action_count and _chips: TDA 2026
        Rules 38 and 55; Robert's Rules of Poker v11, Section 3 rule 12; WSOP 2023 Live Action
        Rule 133). Once it is reached the passed-over players have lost the turn: it no longer
        comes back to them first (they act when the action reaches them), and the out-of-turn
        action stands (a pending out-of-turn bet binds)."""
        self.sub_actions += 1
        if put:
            self.sub_chips = True
        chips = self.rules.substantial_chips
        if self.sub_actions < self.rules.substantial_count and not (
                chips and self.sub_chips and self.sub_actions >= chips):
            return
        lost = self.skipped & ~self.turn_lost
        self.turn_lost |= lost  # still passed over: never reported again, closed by the dealer as before
        self.sub_actions, self.sub_chips = 0, False
        self.return_to = None
        if self.oot_bettor >= 0:
            self.oot_bettor, self.oot_over, self.call_cap = -1, 0, -1
        names = ", ".join(self.p(j) for j in range(self.n) if lost >> j & 1)
        one = lost & (lost - 1) == 0
        self.find("turn-lost-after-substantial-action",
                  f"substantial action has followed since {names} {'was' if one else 'were'} passed over "
                  f"({self.p(i)}'s is the action that makes it): the out-of-turn action stands",
                  self.p(i), f"{names} {'has' if one else 'have'} lost the turn; the action goes on round the table")

    def _ruled_as_recorded(self, i: int, amount: int, lo: int, hi: int) -> str:
        """Record mode: a bet or raise ruled a call by an out-of-turn rule, applied as recorded
        (and judged as any bet or raise), the chips above the call noted as the ruling's."""
        level = self.level
        rec = self._bet_raise(i, amount, lo, hi)
        if self.level > level:
            self._note_ruling(level, self.level)
        return rec

    def _ruled_call(self, i: int) -> str:
        """A bet or raise the rulebook rules a call (or a check): the ruled replay applies the call
        and notes that the record diverged here (see ReplayState.follow_record)."""
        if self.diverged < 0:
            self.diverged = self.index
        return self._call(i)

    def _ruled_to(self, to: int) -> int:
        """A bet or raise brought up or cut back to ``to`` by a ruling: noted as for _ruled_call."""
        if self.diverged < 0:
            self.diverged = self.index
        return to

    def _note_ruling(self, ruled: int, recorded: int) -> None:
        """Record mode: a ruling makes this round's level ``ruled`` where the record has
        ``recorded``. When the round ends, every chip a player's round bet holds between the two
        is taken out of their contribution: under the ruling nobody put it in (a raise ruled a
        call, and the calls of the raise; a re-raise keeps what it adds over the recorded level).
        A ruling that raises the level (an amount brought up) cannot be taken out of the record:
        ``ruled_exact`` turns false and the settlement keeps the ruled replay's chips."""
        if ruled < recorded:
            self.ruled_spans.append(ruled)
            self.ruled_spans.append(recorded)
        elif ruled > recorded:
            self.ruled_exact = False

    def _take_ruled_out(self) -> None:
        """Take this round's rulings out of the chips (see _note_ruling)."""
        spans = self.ruled_spans
        if not self.ruled_out:
            self.ruled_out = [0] * self.n
        for k in range(0, len(spans), 2):
            lo, hi = spans[k], spans[k + 1]
            for p in range(self.n):
                b = self.bet[p]
                if b > lo:
                    self.ruled_out[p] += (b if b < hi else hi) - lo
        self.ruled_spans = []

    def _as_recorded(self, i: int, to: int) -> str:
        """Record mode, after a ruling on this action: the bet or raise to ``to`` exactly as
        recorded, so that the actions after it are judged against the state the record implies.
        Lenient by design: it reopens the betting, counts as one fixed-limit raise, and a raise
        smaller than the last full one leaves the minimum raise as it was."""
        stud = self._stud_bring_in_pending()
        prev_level = self.level
        self.put(i, to - self.bet[i])
        if not self.fixed:
            raise_by = to - prev_level
            if prev_level == 0 or raise_by > self.last_full:
                self.last_full = max(self.last_full, raise_by)
        self.fl_level = to
        self.raises += 1
        self.level = to
        self._mark_acted(i)
        self.round_aggressor = i
        self.last_aggressor = i
        self.to_act = self.active & ~(1 << i)
        if stud:
            return K.K_COMPLETE
        return K.K_BET if prev_level == 0 else K.K_RAISE

    def _checked_out_of_turn(self, i: int) -> None:
        """Player ``i`` checked out of turn: under the rulebook's check_out_of_turn they may now only
        call or fold (Robert's Rules of Poker v11, Section 3 rule 11: on the next turn; TDA 2026
        Rule 55: heads-up, for the rest of the round; counted as cap_counts counts players)."""
        if self.rules.check_oot_next_turn or (self.rules.check_oot_heads_up and self._cap_players() <= 2):
            self.checked_oot |= 1 << i

    def _snapshot_round(self, i: int) -> None:
        """Keep the round as it is before player ``i``'s out-of-turn bet or raise, to give it back."""
        self.oot_level, self.oot_last_full, self.oot_fl_level = self.level, self.last_full, self.fl_level
        self.oot_raises, self.oot_capped = self.raises, self.capped_multiway
        self.oot_round_aggressor, self.oot_last_aggressor = self.round_aggressor, self.last_aggressor
        self.oot_acted, self.oot_acted_level = bool(self.acted >> i & 1), self.acted_level[i]
        self.oot_to_act = self.to_act

    def _pending_oot_bet(self, i: int, kind: str, amount: int | None) -> int:
        """An out-of-turn bet or raise is pending (changed_action_out_of_turn = returned: TDA 2026
        Rule 55; WSOP 2023 Live Action Rules 132 and 133). A player it passed over acts as if it
        had not been made: a bet or raise above the bet before it changes the action, and the bet
        goes back to its maker, who has all options; a check, call or fold does not, and a call is
        of the bet before it. Once every player passed over has acted, the bet stands. Returns the
        chips given back."""
        c = self.oot_bettor
        if i == c:
            self.oot_bettor = -1  # its maker acts again: the bet stands
            return 0
        if not self.oot_over >> i & 1:
            return 0
        self.oot_over &= ~(1 << i)
        if kind == BET_RAISE and amount is not None and amount > self.oot_level:
            return self._return_oot_bet(i)
        self.call_cap = self.oot_level
        if not self.oot_over:
            self.oot_bettor = -1
        return 0

    def _return_oot_bet(self, i: int) -> int:
        """Give the pending out-of-turn bet back: the chips to its maker, the round as it was before it."""
        c = self.oot_bettor
        self.oot_bettor, self.oot_over = -1, 0
        back = self.oot_put
        self.stack[c] = self.stack[c] + back
        self.contrib[c] = self.contrib[c] - back
        self.bet[c] = self.bet[c] - back
        self.pot -= back
        if back and not self.active >> c & 1 and not self.folded >> c & 1:
            self.active |= 1 << c  # no longer all in
            self.n_active += 1
        self.level, self.last_full, self.fl_level = self.oot_level, self.oot_last_full, self.oot_fl_level
        self.raises, self.capped_multiway = self.oot_raises, self.oot_capped
        self.round_aggressor, self.last_aggressor = self.oot_round_aggressor, self.oot_last_aggressor
        if self.oot_acted:
            self.acted |= 1 << c
        else:
            self.acted &= ~(1 << c)
        self.acted_level[c] = self.oot_acted_level
        # its maker has all options; a player passed over who called the bet before it is done
        to_act = (self.oot_to_act | 1 << c) & self.active
        for k in range(self.n):
            if k != c and to_act >> k & 1 and not self.to_act >> k & 1 and self.bet[k] >= self.level:
                to_act &= ~(1 << k)
        self.to_act = to_act
        who = self.p(c)
        self.find("out-of-turn-bet-returned",
                  f"{self.p(i)} {'raises' if self.level else 'bets'}: the action to {who} changed, so {who}'s out-of-turn bet "
                  f"of {self.fmt(back)} is not binding", who, f"{self.fmt(back)} returned to {who}")
        return back

    def _out_of_turn(self, i: int, expected: int | None) -> int:
        """Report a player acting before their turn. The players passed over keep their turn
        until substantial action has followed (TDA 2026 Rules 38 and 55; Robert's Rules of Poker
        v11, Section 3 rules 11 and 12; WSOP 2023 Live Action Rules 132 and 133; see
        _count_substantial); they are reported once, and if the history never gives them an
        action before the next deal, their hands are treated as folded when facing a bet and as
        checked otherwise."""
        who = self.p(i)
        if expected is None:
            self.find("out-of-turn", f"{who} acts but the betting round is over", who,
                      None)
            return 0
        passed = []
        for k in range(self.n):
            j = (expected + k) % self.n
            if j == i:
                break
            if self.to_act >> j & 1:
                passed.append(j)
        new = [j for j in passed if not self.skipped >> j & 1]
        for j in passed:
            self.skipped |= 1 << j
        mask = 0
        for j in passed:
            mask |= 1 << j
        if passed:
            self.return_to = passed[0]  # the action goes back to the first player passed over
        if not new:
            return mask
        names = ", ".join(self.p(j) for j in new)
        self.find("out-of-turn", f"{who} acts out of turn; it is {self.p(expected)}'s turn ({names} passed over)",
                  who, f"the action stands; if {names} never act, they are treated as folded (facing a bet) or checked")
        return mask

    def _close_skipped(self) -> None:
        """The dealer moves on while only passed-over players are still to act (see _out_of_turn)."""
        for j in range(self.n):
            if self.to_act >> j & 1 and self.bet[j] < self.level:
                self._mark_folded(j)
        self.to_act = 0
        self._after_action()

    def _not_betting_time(self, i: int) -> None:
        """A betting action while the dealer or the draw is due: report it, then go on as if
        the missing step had happened (the omission is reported where it shows)."""
        who = self.p(i)
        if self.phase == DEAL:
            missing = "board cards" if self.pending_board else "hole cards"
            self.find("out-of-turn", f"{who} acts before the dealer has dealt the {self._street_name()} {missing}",
                      who, "the missing deal is reported; the replay goes on without those cards")
            self.pending_board, self.pending_hole = 0, 0
            self._maybe_start_betting()
        elif self.phase == DRAW:
            self.find("out-of-turn", f"{who} bets before the {self._street_name()} draw is complete", who,
                      "the missing draw is reported; the replay goes on")
            self.to_discard, self.to_draw = [], {}
            self._maybe_start_betting()
        elif self.phase == SHOWDOWN:
            self.find("action-after-end", f"{who} bets after the last betting round", who, "ignored")

    def _is_bring_in_time(self) -> bool:
        return (self.v.streets[self.street].opener == OPEN_BRING_IN and self.level == self.highest_bet()
                and not self.acted)

    def _raise_range(self, i: int) -> tuple[int, int]:
        """Legal bet/raise-to range for player ``i`` now (NO_RAISE, NO_RAISE: may not raise).
        Native ints rather than optional ones: compiled, an optional int is a boxed object."""
        cap_to = self.bet[i] + self.stack[i]
        if cap_to <= self.level or not self._may_raise(i) or self._cap_reached():
            return NO_RAISE, NO_RAISE
        if self.fixed:
            to = limits.fixed_to(self.fl_level, self.unit)
            if self._stud_bring_in_pending():
                to = self.hand.small_bet or to
            return min(to, cap_to), min(to, cap_to)
        lo = limits.min_raise_to(self.level, self.last_full)
        hi = cap_to
        if self.pot_limit:
            hi = min(cap_to, limits.pot_limit_max_to(self.level, self.in_middle(), self.bet[i]))
        return min(lo, cap_to), hi

    def _open_pair_big_bet(self, to: int) -> bool:
        """Fixed-limit seven card stud (high), fourth street, an open pair showing: a bet or raise
        by the big bet is allowed, and from it the round's unit is the big bet (Robert's Rules of
        Poker v11, Section 4, rule 4; rulebook ``stud_open_pair_big_bet``)."""
        big = self.hand.big_bet or 0
        v = self.v
        if not self.rules.stud_open_pair_big_bet or v.button_game or len(v.hands) != 1 or v.hands[0] != "high" \
                or big <= self.unit or to != self.fl_level + big:
            return False
        for j in range(self.n):
            if self.folded >> j & 1:
                continue
            hole = self.hole[j]
            up = self.up[j]
            ranks = 0
            for k in range(len(hole)):
                if up >> k & 1 and hole[k] >= 0:
                    bit = 1 << (hole[k] >> 2)
                    if ranks & bit:
                        self.unit = big
                        return True
                    ranks |= bit
        return False

    def _stud_bring_in_pending(self) -> bool:
        return self.street == 0 and self.v.streets[0].opener == OPEN_BRING_IN and self.raises == 0

    def _may_raise(self, i: int) -> bool:
        """A player who has not acted may always raise; one who has, only when what they now face
        since acting is a full raise (TDA 2026 Rule 49; Robert's Rules of Poker v11, Section 14
        No-Limit rules 3 and 4; WSOP 2023 Live Action Rule 171; fixed limit: Robert's Section 3
        rule 7, WSOP 2023 Live Action Rule 129, house rule 9.5)."""
        if not self.acted >> i & 1:
            return True
        faced = self.level - self.acted_level[i]
        return faced > 0 and limits.may_reraise(self.fixed, faced, self.last_full, self.unit,
                                                 self.rules.limit_reopen_half_bet)

    def _cap_reached(self) -> bool:
        """Fixed limit: a bet and `limit_raises` raises (`limit_raises_short` with fewer than three
        betting rounds), lifted heads-up as the rulebook's `heads_up_uncap` says (Robert's Rules of Poker v11, Section 3 rules 4 and 5; WSOP 2023 Live Action Rules 126 and 127; TDA 2026 Rule 50; house
        9.3, 9.4, 9.6). The rulebook's parameters carry the citation of each value."""
        if not self.fixed or self.raises < self.max_raises:
            return False
        if self.rules.uncap_when_heads_up and self._cap_players() <= 2 and not self.capped_multiway:
            return False
        if self.rules.uncap_round_starts_heads_up and self.round_starts_heads_up:
            return False
        return True

    def _fold(self, i: int, to_call: int) -> str:
        """A fold always stands; with nothing to call it is non-standard (TDA 2026 Rule 60)."""
        if to_call == 0 and self.rules.unnecessary_fold != "off":
            self.find("unnecessary-fold", f"{self.p(i)} folds when checking was free; the fold stands",
                      self.p(i), None,
                      severity=WARNING if self.rules.unnecessary_fold == WARNING else INFO)
        self._mark_folded(i)
        self.to_act &= ~(1 << i)
        return K.K_FOLD

    def _call(self, i: int) -> str:
        """A check or call; a player passed over by a pending out-of-turn bet calls the bet before
        it (``call_cap``) and still has to act on it."""
        level = self.level
        if 0 <= self.call_cap < level:
            level = self.call_cap
        to_call = level - self.bet[i]
        if to_call < 0:
            to_call = 0
        self.put(i, to_call)
        self.acted |= 1 << i
        self.acted_level[i] = level
        if self.bet[i] >= self.level or self.all_in(i):
            self.to_act &= ~(1 << i)
        return K.K_CALL if to_call else K.K_CHECK

    def _bring_in(self, i: int) -> str:
        who = self.p(i)
        if not self._is_bring_in_time():
            self.find("wrong-bring-in", f"{who} posts a bring-in when none is due", who, "treated as a call")
            return self._call(i)
        if i != self.bring_in_player and self.bring_in_player is not None:
            self.find("wrong-bring-in", f"{who} posts the bring-in, but {self.p(self.bring_in_player)} has the "
                      f"{'highest' if self.v.code == 'FR' else 'lowest'} up card and must bring in", who,
                      None)
        amount = self.hand.bring_in or 0
        self.put(i, amount - self.bet[i])
        self.level = max(self.level, self.bet[i])
        self._mark_acted(i)
        self.to_act = self.active & ~(1 << i)
        return K.K_BRING_IN

    def _bet_raise(self, i: int, to: int, lo: int, hi: int) -> str:
        """A ``cbr``: judge the amount, apply the ruling, and update the round.

        In order: table stakes (never more than the stack: Robert's Rules of Poker v11, Glossary,
        Table stakes), not above the current bet, betting reopened (TDA 2026 Rule 49; Robert's
        Section 14 No-Limit rules 3 and 4; fixed limit: Robert's Section 3 rule 7), the fixed-limit
        cap (Robert's Section 3 rules 4 and 5; TDA 2026 Rule 50), then the size: fixed limit one
        unit, no-limit/pot-limit at least the minimum (TDA 2026 Rule 45; Robert's Section 14
        No-Limit rules 1 to 3) with the rulebook's short-raise ruling, pot-limit at most the pot
        (TDA 2026 Rules 3 and 47; Robert's Section 14 Pot-Limit rule 1).
        """
        who = self.p(i)
        fixed = self.fixed
        cap_to = self.bet[i] + self.stack[i]
        opening = self.level == 0 or (self._stud_bring_in_pending())
        word = "bet" if self.level == 0 else ("completion" if self._stud_bring_in_pending() else "raise")
        if to > cap_to:
            self.find("exceeds-stack", f"{who} {word}s to {self.fmt(to)} but has only {self.fmt(cap_to)} "
                      f"({self.fmt(self.stack[i])} behind)", who, f"all in for {self.fmt(cap_to)}",
                      facts={"to": self.fmt(cap_to), "stack": self.fmt(cap_to)})
            to = cap_to
        all_in = to == cap_to and not self.unknown >> i & 1
        if to <= self.level:
            self.find("raise-below-minimum" if self.level else "bet-below-minimum",
                      f"{who} {word}s to {self.fmt(to)}, not above the current bet {self.fmt(self.level)}", who, "treated as a call")
            return self._call(i)
        if self.level and not self.active & ~(1 << i):
            # reading: a raise is a wager for others to match; with every opponent all in or folded
            # nobody can, so its excess is never at risk and comes back as an uncalled bet.
            self.find("raise-not-callable", f"{who} raises to {self.fmt(to)}, but every opponent is all in or "
                      f"folded: nobody can call more than {self.fmt(self.level)}", who,
                      "the raise stands in the record; the excess is returned as an uncalled bet")
        if self._cap_reached():
            self.find("raise-cap-exceeded", f"{who} raises after the round is capped at a bet and "
                      f"{self.raises - 1} raises", who, "treated as a call")
            if self.follow_record:
                self._note_ruling(self.level, to)
                return self._as_recorded(i, to)
            return self._ruled_call(i)
        if lo == NO_RAISE:
            if cap_to > self.level and not self._may_raise(i):
                faced = self.level - (self.acted_level[i] if self.acted >> i & 1 else self.level)
                self.find("betting-not-reopened", f"{who} raises after having acted, facing only {self.fmt(faced)} more "
                          "from short all-ins: the betting was not reopened", who,
                          "treated as a call")
                if self.follow_record:
                    self._note_ruling(self.level, to)
                    return self._as_recorded(i, to)
                return self._ruled_call(i)
            return self._call(i)
        if fixed:
            if to != lo and self.street == 1 and self._open_pair_big_bet(to):
                lo = to
            if to != lo and not (all_in and to < lo):
                self.find("wrong-limit-amount", f"{who} {word}s to {self.fmt(to)}; the fixed-limit {word} is to "
                          f"{self.fmt(lo)}", who, f"one bet: to {self.fmt(lo)}",
                          facts={"to": self.fmt(lo), "min": self.fmt(lo)})
                if self.follow_record:
                    self._note_ruling(lo, to)
                    return self._as_recorded(i, to)
                to = self._ruled_to(lo)
        else:
            if to < lo and not all_in:
                code = "bet-below-minimum" if opening else "raise-below-minimum"
                if opening:
                    ruled, as_call = lo, False
                    ruling = f"brought up to the minimum bet {self.fmt(lo)}"
                else:
                    ruled, as_call = limits.short_raise_ruling(self.rules.half_rule, self.level, to, lo)
                    ruling = ("treated as a call (half rule)" if as_call
                              else f"brought up to the minimum raise, to {self.fmt(ruled)}")
                self.find(code, f"{who} {word}s to {self.fmt(to)}; the minimum is to {self.fmt(lo)}", who,
                          ruling, facts={"to": self.fmt(ruled), "min": self.fmt(lo)})
                if self.follow_record:
                    self._note_ruling(self.level if as_call else min(ruled, cap_to), to)
                    return self._as_recorded(i, to)
                if as_call:
                    return self._ruled_call(i)
                to = self._ruled_to(min(ruled, cap_to))
                all_in = to == cap_to
            if self.pot_limit and hi != NO_RAISE and to > hi:
                self.find("over-pot-limit", f"{who} {word}s to {self.fmt(to)}; the pot limit is to {self.fmt(hi)}"
                          + (" (an all-in above the pot is cut back: TDA 2026 Rules 3 and 47)" if all_in else ""), who,
                          f"cut back to a pot-sized {word}: to {self.fmt(hi)}",
                          facts={"to": self.fmt(hi), "max": self.fmt(hi)})
                if self.follow_record:
                    self._note_ruling(hi, to)
                    return self._as_recorded(i, to)
                to = self._ruled_to(hi)
                all_in = to == cap_to
        # apply
        raise_by = to - self.level
        prev_level = self.level
        self.put(i, to - self.bet[i])
        if self._stud_bring_in_pending() and fixed and to >= (self.hand.small_bet or 0):
            full = True
        else:
            full = not all_in or limits.allin_counts_as_raise(fixed, raise_by, self.last_full, self.unit,
                                                               self.rules.limit_reopen_half_bet)
            if all_in and fixed and to >= limits.fixed_to(self.fl_level, self.unit):
                full = True
        self.level = to
        kind = K.K_BET if prev_level == 0 else K.K_RAISE
        if self._stud_bring_in_pending():
            kind = K.K_COMPLETE
        if full:
            if not fixed:
                self.last_full = max(self.last_full, raise_by) if prev_level == 0 else raise_by
            short_allin = fixed and all_in and to < limits.fixed_to(self.fl_level, self.unit)
            if short_allin and self.rules.completed_plus_bet:
                # The reopening all-in counts as completed to a full raise (Robert's Rules of Poker v11, Section 3 rule 7; WSOP 2023 Live Action Rule 129; TDA 2026 Rule 49 variant).
                self.fl_level = limits.fixed_to(self.fl_level, self.unit)
            else:
                self.fl_level = to  # allin-plus-bet: a raise over it is the all-in plus one bet
            self.raises += 1
            if kind == K.K_COMPLETE and self.rules.completion_counts_as_raise:
                self.raises += 1  # the bring-in was the opening bet, the completion a raise (WSOP reads otherwise)
            # The round is capped if it was not heads-up when this raise capped it: an all-in
            # capping raise still counts its maker (Robert's Rules of Poker v11, Section 3 rules 4
            # and 5; house rule 9.6, "providing no previous cap on raises exists for that round").
            if self.raises >= self.max_raises and \
                    self._cap_players() + (1 if all_in and self.rules.cap_counts_not_all_in else 0) > 2:
                self.capped_multiway = True
        self._mark_acted(i)
        self.round_aggressor = i
        self.last_aggressor = i
        self.to_act = self.active & ~(1 << i)
        return kind

    def _after_action(self) -> None:
        if self.n_live <= 1:
            self.phase = OVER
            return
        # players who matched and acted are done; all-in players are never waited for
        self.to_act &= self.active
        # A lone player with chips who faces no bet has nobody left to bet against (reading: the round ends when every live player has matched the bet).
        # PokerKit and some logs still record that player's check; it is accepted (no finding).
        # (to_act is then that one player, if anyone.)
        if self.to_act and self.n_active <= 1:
            lone = self.to_act.bit_length() - 1
            if self.bet[lone] >= self.level:
                self.optional_check = lone
                self.to_act = 0
        if not self.to_act:
            self._end_round()


_REC: Final = {FOLD: K.K_FOLD, CHECK_CALL: K.K_CALL, BET_RAISE: K.K_RAISE, BRING_IN: K.K_BRING_IN}
