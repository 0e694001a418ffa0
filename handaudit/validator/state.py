"""The replay's state: every attribute of one hand's replay, declared once with its type.

The replay engine is one class chain, each link in its own module with one job:
:class:`ReplayState` (here: the state, its initial values and the queries every rule needs) ->
``Dealing`` (dealing.py: deals, draws, showdown) -> ``Betting`` (betting.py: player betting
actions) -> ``_Engine`` (engine.py: forced bets, streets, turn order, the run). A chain rather
than mixins because the compiled build (mypyc, see setup.py) lays the state out once, as one
native class whose attributes are typed slots; a class may have only one such base, and every
rule then reads and writes the attributes directly instead of through a dictionary.

A step that a later link defines but an earlier one calls (the dealer closing the passed-over
players' turns, starting the betting, ending a round) is declared at the end of this class.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Final

from ..core.amounts import format_amount
from ..core.hand import Hand
from ..core.variants import FIXED, POT, VARIANTS, Variant
from ..findings.finding import Finding
from ..rules.params import (
    CALL_OR_FOLD,
    CALL_OR_FOLD_HEADS_UP,
    COMPLETED_PLUS_BET,
    DOUBLE_STRADDLE,
    HALF_BET,
    HALF_RULE,
    LAST_AGGRESSOR,
    OFF,
    PLAYERS_NOT_ALL_IN,
    RETURNED,
    ROUND_STARTS_HEADS_UP,
    WHEN_HEADS_UP,
)
from ..rules.rulebook import Rulebook
from .outcome import ActionRecord
from .phases import BET, DEAL, UNKNOWN_STACK


class Rules:
    """The rulebook parameters the replay reads, as native typed attributes (enums as bools).

    A Rulebook is a frozen dataclass that stays interpreted: reading one of its attributes is a
    generic attribute lookup, and the replay read several per action.
    Built once per rulebook (:func:`rules_of`) and read natively after that.
    """

    def __init__(self, book: Rulebook) -> None:
        self.book: Final = book
        self.limit_raises: Final[int] = book.limit_raises
        self.limit_raises_short: Final[int] = book.limit_raises_short
        self.uncap_when_heads_up: Final = book.heads_up_uncap == WHEN_HEADS_UP
        self.uncap_round_starts_heads_up: Final = book.heads_up_uncap == ROUND_STARTS_HEADS_UP
        self.cap_counts_not_all_in: Final = book.cap_counts == PLAYERS_NOT_ALL_IN
        self.half_rule: Final = book.short_raise_ruling == HALF_RULE
        self.straddle_counts_as_raise: Final[bool] = book.straddle_counts_as_raise
        self.completion_counts_as_raise: Final[bool] = book.completion_counts_as_raise
        self.stud_open_pair_big_bet: Final[bool] = book.stud_open_pair_big_bet
        self.limit_reopen_half_bet: Final = book.limit_allin_reopen == HALF_BET
        self.completed_plus_bet: Final = book.limit_raise_over_half_allin == COMPLETED_PLUS_BET
        self.double_straddle: Final = book.straddle_min_raise == DOUBLE_STRADDLE
        self.unnecessary_fold: Final[str] = book.unnecessary_fold  # a severity, or OFF
        self.show_last_aggressor: Final = book.show_order == LAST_AGGRESSOR
        self.show_order_off: Final = book.show_order == OFF
        self.check_oot_next_turn: Final = book.check_out_of_turn == CALL_OR_FOLD
        self.check_oot_heads_up: Final = book.check_out_of_turn == CALL_OR_FOLD_HEADS_UP
        self.oot_bet_returned: Final = book.changed_action_out_of_turn == RETURNED
        self.call_oot_no_raise: Final = book.call_out_of_turn == CALL_OR_FOLD
        self.substantial_count: Final[int] = book.substantial_action_count
        self.substantial_chips: Final[int] = book.substantial_action_chips


# The Rules of the rulebook last replayed under (a run audits all its hands under one). One
# entry rather than a dict by id(book): id() allocates an int.
_LAST_RULES: Final[list[Rules]] = []


def rules_of(book: Rulebook) -> Rules:
    """The :class:`Rules` of ``book``."""
    if _LAST_RULES:  # one entry once set, replaced whole: safe to read under threads
        rules = _LAST_RULES[0]
        if rules.book is book:
            return rules
    rules = Rules(book)
    _LAST_RULES[:] = [rules]
    return rules


class ReplayState:
    """Mutable replay state of one hand. One instance per hand; not shared."""

    # the hand, its rules
    hand: Hand
    book: Rulebook
    rules: Rules  # the book's parameters, read natively
    v: Variant
    fixed: bool  # fixed-limit betting
    pot_limit: bool  # pot-limit betting
    max_raises: int  # fixed limit: counted bets and raises that cap a round (the bet + limit_raises)
    n: int  # players
    # what the replay reports
    findings: list[Finding]
    records: list[ActionRecord]
    index: int  # the action being judged (-1: none)
    # After a ruling that changes a recorded action (a raise ruled a call, an amount cut back or
    # brought up), which state judges the later actions (docs/rules.md, "After a ruling"): the
    # replay as ruled (follow_record False: its chips are the settlement's) or the record's own
    # state (True: the recorded action is applied as recorded, so the actions after it that follow
    # from it are not second faults). ``diverged``: the first action whose ruling changed it (-1).
    follow_record: bool
    diverged: int
    # Record mode: what the rulings take out of the recorded history's chips (see _note_ruling).
    ruled_out: list[int]  # per player: chips the recorded actions put in that the rulings do not
    ruled_spans: list[int]  # this round's rulings, as pairs: ruled level, recorded level
    ruled_exact: bool  # every ruling lowered the level (a raise ruled a call, an amount cut back)
    # chips, per player
    unknown: int  # starting stack unknown (`inf`): never all in (a bitmask)
    stack: list[int]
    contrib: list[int]  # every chip put in this hand
    dead: list[int]  # the dead part of contrib (antes, missed blinds)
    bet: list[int]  # this round's live bet
    pot: int  # every chip in the middle
    # cards
    hole: list[list[int]]
    up: list[int]  # per player: bit k set when their k-th hole card was dealt face up (stud)
    board: list[int]
    seen: int  # known cards dealt (live, discarded or mucked): bit c for card c
    shown: list[bool | None]
    show_order: list[int]
    # Who is in. Kept up to date as chips move and players fold, so no step rescans the table.
    # Sets of players are bitmasks (bit i: player i): compiled, testing and changing one is a few
    # machine instructions, where a set or a list of bools boxes, hashes and allocates.
    folded: int  # players who folded
    active: int  # players who can still act (not folded, not all in)
    n_active: int  # how many they are
    n_live: int  # players not folded
    # phases and streets
    street: int
    street_name: str | None
    phase: int  # DEAL, DRAW, BET, SHOWDOWN or OVER (phases.py)
    closed: bool  # no more betting possible this hand (all-in run-out)
    pending_board: int
    pending_hole: int  # players still to be dealt this street's hole cards (a bitmask)
    hole_due: list[int]  # per player: how many hole cards this street deals them
    board_ahead: int  # board cards dealt before their street (premature-deal)
    hole_ahead: list[int]  # per player: hole cards dealt before their street (premature-deal)
    to_discard: list[int]
    to_draw: dict[int, int]
    # forced bets (engine.py, _post_forced_bets)
    big_blind: int
    blind_seat_last: int | None
    largest_blind: int
    straddles: int
    bring_in_player: int | None
    # the betting round (engine.py, _start_betting)
    unit: int  # fixed limit: this round's bet size
    raises: int  # bets and raises counted towards a fixed-limit cap
    capped_multiway: bool
    acted: int  # players who acted voluntarily this round (a bitmask)
    acted_level: list[int]  # per player: the level when they last acted (valid for those in acted)
    level: int  # the bet to call
    fl_level: int  # fixed limit: the last counted bet level
    last_full: int  # the last full bet or raise (no-limit, pot-limit)
    round_aggressor: int | None
    last_aggressor: int | None
    round_starts_heads_up: bool
    dealt_street: str  # the street a completed deal was for, "" if none (its later streets may run on)
    # turn order
    order_start: int
    to_act: int  # players still to act this round (a bitmask)
    cursor: int  # the last player to act
    skipped: int  # players passed over by an out-of-turn action (a bitmask)
    return_to: int | None  # after an out-of-turn action, the turn goes back here
    optional_check: int | None  # a lone player's pointless check, accepted
    # out-of-turn rulings (betting.py; rulebook check_out_of_turn and changed_action_out_of_turn)
    checked_oot: int  # players who checked out of turn and may now only call or fold (a bitmask)
    called_oot: int  # players who called out of turn and may not raise on their next turn (a bitmask)
    # substantial action since players were passed over (rulebook substantial_action_count, _chips)
    sub_actions: int  # actions by other players since the skip
    sub_chips: bool  # one of them put chips in
    turn_lost: int  # passed-over players who have lost the turn to substantial action (a bitmask)
    call_cap: int  # a passed-over player's call is of the bet before the out-of-turn one (-1: none)
    oot_bettor: int  # whose out-of-turn bet or raise binds only if the action to it does not change (-1: none)
    oot_over: int  # the players it passed over who have not acted yet (a bitmask)
    oot_put: int  # the chips it put in
    # the round as it was before that bet, restored if it is returned
    oot_level: int
    oot_last_full: int
    oot_fl_level: int
    oot_raises: int
    oot_capped: bool
    oot_round_aggressor: int | None
    oot_last_aggressor: int | None
    oot_acted: bool
    oot_acted_level: int
    oot_to_act: int

    def __init__(self, hand: Hand, book: Rulebook, follow_record: bool = False) -> None:
        self.hand, self.book = hand, book
        self.follow_record = follow_record
        self.diverged = -1
        self.ruled_out = []  # made on the first ruling (record mode only)
        self.ruled_spans = []
        self.ruled_exact = True
        rules = self.rules = rules_of(book)
        v = self.v = VARIANTS[hand.variant]
        self.fixed = v.structure == FIXED
        self.pot_limit = v.structure == POT
        self.max_raises = 1 + (rules.limit_raises if v.betting_rounds >= 3 else rules.limit_raises_short)
        n = self.n = hand.players
        self.findings = []
        self.records = []
        self.index = -1
        unknown = 0
        stack: list[int] = []
        for s in hand.starting_stacks:
            if s is None:
                unknown |= 1 << len(stack)
                stack.append(UNKNOWN_STACK)
            else:
                stack.append(s)
        self.unknown = unknown
        self.stack = stack
        # Per-player counters start as copies of one list of zeros: compiled, each `[0] * n`
        # builds and frees a temporary `[0]` too, which a copy does not.
        zeros = [0] * n
        self.contrib = zeros
        self.dead = zeros[:]
        self.bet = zeros[:]
        self.pot = 0
        self.hole = [[] for _ in range(n)]
        self.up = zeros[:]
        self.board = []
        self.seen = 0
        self.shown = [None] * n
        self.show_order = []
        self.folded = 0
        self.active = (1 << n) - 1
        self.n_active = n
        self.n_live = n
        self.street = -1
        self.street_name = None
        self.phase = DEAL
        self.closed = False
        self.pending_board = 0
        self.pending_hole = 0
        self.hole_due = zeros[:]
        self.board_ahead = 0
        self.hole_ahead = zeros[:]
        self.to_discard = []
        self.to_draw = {}
        self.big_blind = 0
        self.blind_seat_last = None
        self.largest_blind = 0
        self.straddles = 0
        self.bring_in_player = None
        # Set when each betting round starts; nothing reads them before the first one.
        self.unit = 0
        self.raises = 0
        self.capped_multiway = False
        self.acted = 0
        self.acted_level = zeros[:]
        self.level = 0
        self.fl_level = 0
        self.last_full = 0
        self.round_aggressor = None
        self.last_aggressor = None
        self.round_starts_heads_up = False
        self.dealt_street = ""
        self.order_start = 0
        self.to_act = 0
        self.cursor = 0
        self.skipped = 0
        self.return_to = None
        self.optional_check = None
        self.checked_oot = 0
        self.called_oot = 0
        self.sub_actions = 0
        self.sub_chips = False
        self.turn_lost = 0
        self.call_cap = -1
        self.oot_bettor = -1
        self.oot_over = 0
        self.oot_put = 0
        self.oot_level = 0
        self.oot_last_full = 0
        self.oot_fl_level = 0
        self.oot_raises = 0
        self.oot_capped = False
        self.oot_round_aggressor = None
        self.oot_last_aggressor = None
        self.oot_acted = False
        self.oot_acted_level = 0
        self.oot_to_act = 0

    # ------------------------------------------------------------------ queries and chips
    def all_in(self, i: int) -> bool:
        return self.stack[i] == 0 and not self.unknown >> i & 1

    def live(self) -> list[int]:
        return [i for i in range(self.n) if not self.folded >> i & 1]

    def can_act(self, i: int) -> bool:
        return bool(self.active >> i & 1)

    def _deactivate(self, i: int) -> None:
        """Player ``i`` can no longer act (folded or all in)."""
        if self.active >> i & 1:
            self.active ^= 1 << i
            self.n_active -= 1

    def _mark_folded(self, i: int) -> None:
        self.folded |= 1 << i
        self._deactivate(i)
        self.n_live -= 1

    def _mark_acted(self, i: int) -> None:
        """Player ``i`` acted voluntarily at the current level."""
        self.acted |= 1 << i
        self.acted_level[i] = self.level

    def find(self, code: str, message: str, actor: str | None = None, ruling: str | None = None,
             severity: str | None = None, facts: dict[str, str | None] | None = None) -> None:
        """Record a finding. Its ruling is the rulebook's text for ``code`` (issue 15: a user's
        ``[rulings]`` always shows); ``ruling`` is what the replay did, ``{applied}`` in that text,
        and ``facts`` fill its other placeholders."""
        values = {"player": actor or ""}
        if facts:
            values.update({k: v or "" for k, v in facts.items()})
        self.findings.append(Finding(code, message, self.index if self.index >= 0 else None, actor,
                                     self.book.cite(code), self.book.ruled(code, ruling, values),
                                     severity=severity or ""))

    def put(self, i: int, amount: int, dead: bool = False) -> int:
        """Move up to ``amount`` chips from a stack into the middle; returns what was put."""
        # Each list item is read once into a native int and written back: compiled, `lst[i] += x`
        # is a generic in-place add on boxed ints.
        left = self.stack[i]
        if amount > left:
            amount = left
        left -= amount
        self.stack[i] = left
        if left == 0 and not self.unknown >> i & 1:
            self._deactivate(i)  # all in
        self.contrib[i] = self.contrib[i] + amount
        self.pot += amount
        if dead:
            self.dead[i] = self.dead[i] + amount
        else:
            self.bet[i] = self.bet[i] + amount
        return amount

    def highest_bet(self) -> int:
        """The largest live bet of the round (0: none)."""
        top = 0
        for b in self.bet:
            if b > top:
                top = b
        return top

    def fmt(self, amount: int | None) -> str | None:
        """An amount as the hand writes it."""
        return format_amount(amount, self.hand.scale)

    def in_middle(self) -> int:
        return self.pot

    def p(self, i: int) -> str:
        return _NAMES[i] if i < len(_NAMES) else f"p{i + 1}"

    def _street_name(self) -> str | None:
        return self.street_name

    def _count_can_act(self) -> int:
        return self.n_active

    def _cap_players(self) -> int:
        if self.rules.cap_counts_not_all_in:
            return self.n_active
        return self.n_live

    def next_to_act(self) -> int | None:
        seat = self._next_seat()
        return seat if seat >= 0 else None

    def _next_seat(self) -> int:
        """The player whose turn it is (-1: nobody): next_to_act without boxing an optional int."""
        if self.phase != BET or not self.to_act:
            return -1
        # The first player still to act after the cursor, going round the table.
        after = self.cursor + 1
        later = self.to_act >> after
        if later:
            return (later & -later).bit_length() - 1 + after
        return (self.to_act & -self.to_act).bit_length() - 1

    # ------------------------------------------------------------------ steps defined later in the chain
    # Dealing and betting call these; the classes after them in the chain define them. Declared
    # abstract here so that mypy and mypyc see one method, and a chain that forgot one is an error.
    @abstractmethod
    def _close_skipped(self) -> None:
        """The dealer moves on while only passed-over players are to act (betting.py)."""

    @abstractmethod
    def _maybe_start_betting(self) -> None:
        """Start the betting once the street's deal or draw is complete (engine.py)."""

    @abstractmethod
    def _end_round(self) -> None:
        """Close the betting round and open the next street (engine.py)."""


_NAMES: Final = tuple(f"p{i + 1}" for i in range(64))
