"""The replay's card rules: deals, draws and the showdown (a link of the replay engine's chain).

Cards dealt twice or in the wrong number, deals before the betting is over, discards of cards
not held, shows that contradict the deal, and the showdown order. Relies on the replay state
(``ReplayState`` in state.py) for whose turn it is. One class chain, ReplayState -> Dealing ->
Betting -> _Engine, rather than mixins, so that the compiled build lays the state out once (see
state.py).
"""

from __future__ import annotations

from ..core.cards import UNKNOWN, card_text, cards_text
from ..core.hand import DEAL_BOARD, Action
from ..core.status import WARNING
from . import outcome as K
from .phases import BET, DEAL, DRAW, OVER, SHOWDOWN
from .state import ReplayState


class Dealing(ReplayState):
    """Judges the dealer's actions, the draws and the showdown."""

    def _check_cards(self, cards: tuple[int, ...], who: str) -> None:
        for c in cards:
            if c == UNKNOWN:
                continue
            if self.seen >> c & 1:
                self.find("duplicate-card", f"{card_text(c)} is dealt again ({who}); it was already dealt in this hand",
                          "d", None)
            self.seen |= 1 << c

    def _deal(self, action: Action) -> str:
        cards = action.cards or ()
        if self.phase == BET and self.to_act and not self.to_act & ~self.skipped:
            self._close_skipped()
        if action.kind == DEAL_BOARD:
            self._deal_board(cards)
            return K.K_DEAL_BOARD
        i = action.player
        assert i is not None  # the reader gives every `d dh` its player
        self._deal_hole(i, cards)
        return K.K_DEAL_HOLE

    def _premature(self, what: str) -> None:
        msg = f"{what} dealt before the betting round is over"
        who = self.next_to_act()
        if who is not None:
            msg += f" ({self.p(who)} still to act)"
        self.find("premature-deal", msg, "d", None)

    def _deal_board(self, cards: tuple[int, ...]) -> None:
        if self.phase == OVER:
            self.find("action-after-end", "board cards dealt after the hand is over", "d")
            return
        if not any(st.board for st in self.v.streets):
            self.find("wrong-card-count", f"{self.v.code} deals no board cards", "d")
            return
        self._check_cards(cards, "board")
        if self.phase in (BET, DRAW) or (self.phase == DEAL and self.pending_hole != 0):
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

    def _deal_hole(self, i: int, cards: tuple[int, ...]) -> None:
        who = self.p(i)
        if self.phase == OVER or self.folded >> i & 1:
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
        if self.phase == DEAL and self.pending_hole >> i & 1:
            due = self.hole_due[i]
            self.pending_hole &= ~(1 << i)
            if len(cards) != due:
                self.find("wrong-card-count", f"{who} is dealt {len(cards)} card(s) on the {self._street_name()}; "
                          f"{due} due", "d")
            self._receive(i, cards, up=None)
            self._maybe_start_betting()
            return
        if self.phase in (BET, DEAL) and self.street + 1 < len(self.v.streets) and \
                self.v.streets[self.street + 1].hole_down + self.v.streets[self.street + 1].hole_up:
            self._premature(f"cards to {who}")
            self.hole_ahead[i] = self.hole_ahead[i] + len(cards)
            self._receive(i, cards, up=None, street=self.street + 1)
            return
        self.find("wrong-card-count", f"{who} is dealt {len(cards)} card(s) when none is due", "d")
        self._receive(i, cards, up=False)

    def _receive(self, i: int, cards: tuple[int, ...], up: bool | None, street: int | None = None) -> None:
        """Give cards to a player; ``up=None`` takes face-up/down from the street (stud)."""
        streets = self.v.streets
        st = streets[min(street if street is not None else max(self.street, 0), len(streets) - 1)]
        hole = self.hole[i]
        face_up = self.up[i]
        by_street = up is None and st.hole_up != 0
        down = st.hole_down
        flag = up is True
        k = 0
        for c in cards:
            if (k >= down) if by_street else flag:
                face_up |= 1 << len(hole)
            hole.append(c)
            k += 1
        self.up[i] = face_up

    # ------------------------------------------------------------------ draws and showdown
    def _discard(self, i: int, drawn: tuple[int, ...] | None) -> str:
        who = self.p(i)
        cards = drawn or ()
        if self.phase == OVER or self.folded >> i & 1:
            self.find("action-after-end", f"{who} draws but is no longer in the hand", who, "ignored")
            return K.K_DISCARD if cards else K.K_STAND_PAT
        if self.phase != DRAW:
            self.find("out-of-turn", f"{who} draws when no draw is due", who, "ignored")
            return K.K_DISCARD if cards else K.K_STAND_PAT
        if self.to_discard and self.to_discard[0] != i:
            if i in self.to_discard:
                self.find("out-of-turn", f"{who} draws out of turn; it is {self.p(self.to_discard[0])}'s turn", who,
                          None)
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
        self.up[i] = 0
        if cards:
            self.to_draw[i] = len(cards)
        self._maybe_start_betting()
        return K.K_DISCARD if cards else K.K_STAND_PAT

    def _show(self, i: int, action: Action) -> None:
        who = self.p(i)
        if self.folded >> i & 1:
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

    def _maybe_over(self) -> None:
        """The showdown is over once everyone still in has shown or mucked."""
        if self.phase != SHOWDOWN:
            return
        for i in range(self.n):
            if not self.folded >> i & 1 and self.shown[i] is None:
                return
        self.phase = OVER

    def _refine(self, i: int, cards: tuple[int, ...]) -> None:
        """A show reveals (or repeats) the player's cards: unknown cards become known."""
        hole = self.hole[i]
        who = self.p(i)
        if len(cards) != len(hole) and hole:
            self.find("wrong-card-count", f"{who} shows {len(cards)} card(s) but holds {len(hole)}", who)
        if not hole:
            self.hole[i] = list(cards)
            self.up[i] = 0
            self._check_cards(cards, who)
            return
        known: list[int] = []
        unknowns = 0
        for c in hole:
            if c == UNKNOWN:
                unknowns += 1
            else:
                known.append(c)
        new: list[int] = []
        for c in cards:
            if c == UNKNOWN:
                continue
            # Take c out of the known cards if there (one copy); an index search, as compiled
            # `in` and `remove` compare boxed items generically (over half this method's cost).
            at = -1
            for j in range(len(known)):
                if known[j] == c:
                    at = j
                    break
            if at >= 0:
                known.pop(at)
                continue
            new.append(c)
        if len(new) > unknowns:
            self.find("show-mismatch", f"{who} shows {cards_text(cards)} but was dealt {cards_text(hole)}", who)
        taken = 0  # the new cards fill the unknown places in order
        for k in range(len(hole)):
            if hole[k] == UNKNOWN:
                if taken == len(new):
                    break
                nxt = new[taken]
                taken += 1
                if self.seen >> nxt & 1:
                    self.find("duplicate-card", f"{who} shows {card_text(nxt)}, a card already dealt elsewhere", who)
                self.seen |= 1 << nxt
                hole[k] = nxt

    def first_to_show(self) -> tuple[int, int | None]:
        """Who shows first: the last aggressor of the final round, else the first player in the
        final round's order (TDA Rule 16). Returns (player, last aggressor or None)."""
        last = self.round_aggressor
        if last is not None and self.folded >> last & 1:
            last = None
        if last is not None and self.rules.show_last_aggressor:
            return last, last
        first, first_distance = -1, 0  # the live player nearest after order_start
        for j in range(self.n):
            if self.folded >> j & 1:
                continue
            distance = (j - self.order_start) % self.n
            if first < 0 or distance < first_distance:
                first, first_distance = j, distance
        return first, None

    def _check_show_order(self, i: int) -> None:
        """Warn when the first hand shown is not the one the rulebook asks for first: the last
        aggressor of the final round, else the first player left of the button (TDA Rule 16)."""
        if len(self.show_order) != 1 or self.rules.show_order_off:
            return
        live = self.live()
        if any(self.all_in(j) for j in live) or len(live) < 2:
            return  # all-in showdowns are tabled together (TDA Rule 16)
        expected, last = self.first_to_show()
        if i != expected:
            self.find("show-order", f"{self.p(i)} shows first; {self.p(expected)} should show first "
                      f"({'last aggressor' if last is not None else 'first to act'})", self.p(i),
                      "the hand stands; order only", severity=WARNING)

