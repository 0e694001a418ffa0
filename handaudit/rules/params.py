"""The rulebook parameters: each one's type, allowed values and meaning (:data:`PARAMETERS`),
the words of their enumerated values, and the finding codes every rulebook cites.

A new parameter is one entry here, one attribute of :class:`~handaudit.rules.rulebook.Rulebook`,
a value in each ``books/*.toml``, and its consumer in the replay or the settlement, which read a
typed ``Rulebook`` as ``book.<name>`` / ``rulebook.<name>`` (tests/test_rulebook_consumers.py
fails for a parameter that nothing outside ``rules/`` reads).
"""

from __future__ import annotations

from typing import ClassVar, Final

from ..core.open_value import OpenValue
from ..core.status import INFO, WARNING  # noqa: F401  (values of unnecessary_fold and show_order)

# heads_up_uncap
NEVER = "never"
WHEN_HEADS_UP = "when-heads-up"
ROUND_STARTS_HEADS_UP = "round-starts-heads-up"
# cap_counts
PLAYERS_IN_HAND = "players-in-hand"
PLAYERS_NOT_ALL_IN = "players-not-all-in"
# short_raise_ruling
HALF_RULE = "half-rule"
BRING_TO_MINIMUM = "bring-to-minimum"
# limit_allin_reopen
HALF_BET = "half-bet"
FULL_BET = "full-bet"
# limit_raise_over_half_allin
ALLIN_PLUS_BET = "allin-plus-bet"
COMPLETED_PLUS_BET = "completed-plus-bet"
# straddle_min_raise
DOUBLE_STRADDLE = "double-straddle"
STRADDLE_PLUS_RAISE = "straddle-plus-raise"
# unnecessary_fold (a severity, or off)
OFF = "off"
# show_order
LAST_AGGRESSOR = "last-aggressor"
FIRST_TO_ACT = "first-to-act"
# odd_chip_stud
ALL_CARDS = "all-cards"
HAND_CARDS = "hand-cards"
# odd_chip_button
FIRST_LEFT_OF_BUTTON = "first-left-of-button"
HIGH_CARD_BY_SUIT = "high-card-by-suit"
# rake_percent, rake_cap: no rake structure / no cap
NONE = "none"
# rake_cap_scope
HAND = "hand"
POT = "pot"
# rake_rounding
DOWN = "down"
UP = "up"
NEAREST = "nearest"
# check_out_of_turn
MAY_BET = "may-bet"
CALL_OR_FOLD = "call-or-fold"
CALL_OR_FOLD_HEADS_UP = "call-or-fold-heads-up"
# changed_action_out_of_turn
BINDING = "binding"
RETURNED = "returned"
# call_out_of_turn
MAY_RAISE = "may-raise"
# (CALL_OR_FOLD as for check_out_of_turn)

# button_rule (the cross-hand pass, handaudit/sessions)
DEAD_BUTTON = "dead-button"
MOVING_BUTTON = "moving-button"
# missed_blinds (NONE: nothing is owed)
BIG_ONLY = "big"
BIG_AND_SMALL = "big-and-small"
# new_player_posts (NONE: a new player is dealt in without posting)
BIG_BLIND = "big-blind"

# The finding codes every built-in rulebook cites a rule for and rules on (replay and betting codes).
CITED_CODES = (
    "out-of-turn", "premature-deal", "action-after-end", "bet-below-minimum", "raise-below-minimum",
    "betting-not-reopened", "raise-cap-exceeded", "over-pot-limit", "wrong-limit-amount",
    "exceeds-stack", "wrong-bring-in", "invalid-discard", "unnecessary-fold", "show-order",
    "duplicate-card", "wrong-card-count", "incomplete-hand", "bet-after-check-out-of-turn",
    "out-of-turn-bet-returned", "raise-after-call-out-of-turn", "turn-lost-after-substantial-action",
)


_PAYOUT = ("winnings-mismatch", "finishing-stacks-mismatch", "chips-not-conserved")
_CAP = ("raise-cap-exceeded",)

# parameter -> the finding codes whose verdicts it changes (docs/codes.md lists them per code,
# like a lint rule's options; tests/test_rulebook_parameters.py shows each one change an outcome)
CODES_CHANGED_BY: dict[str, tuple[str, ...]] = {
    "limit_raises": _CAP, "limit_raises_short": _CAP, "heads_up_uncap": _CAP, "cap_counts": _CAP,
    "straddle_counts_as_raise": _CAP, "completion_counts_as_raise": _CAP,
    "stud_open_pair_big_bet": ("wrong-limit-amount",),
    "short_raise_ruling": ("raise-below-minimum",),
    "limit_allin_reopen": ("betting-not-reopened", "wrong-limit-amount"),
    "limit_raise_over_half_allin": ("wrong-limit-amount",),
    "straddle_min_raise": ("raise-below-minimum",),
    "unnecessary_fold": ("unnecessary-fold",), "show_order": ("show-order",),
    "odd_chip_stud": _PAYOUT, "odd_chip_button": _PAYOUT, "short_deck_trips_beat_straight": _PAYOUT,
    "check_out_of_turn": ("bet-after-check-out-of-turn",),
    "changed_action_out_of_turn": ("out-of-turn-bet-returned",),
    "call_out_of_turn": ("raise-after-call-out-of-turn",),
    "substantial_action_count": ("turn-lost-after-substantial-action", "out-of-turn-bet-returned"),
    "substantial_action_chips": ("turn-lost-after-substantial-action", "out-of-turn-bet-returned"),
    "rake_limit_percent": (*_PAYOUT, "hand-missing"), "rake_rounding_units": (*_PAYOUT, "hand-missing"), "rake_percent": _PAYOUT,
    "rake_cap": _PAYOUT, "rake_cap_scope": _PAYOUT, "no_flop_no_drop": _PAYOUT, "rake_rounding": _PAYOUT,
    "jackpot_drop": _PAYOUT,
    "button_rule": ("button-out-of-order", "big-blind-out-of-order", "hand-missing", "missed-blind-not-posted"),
    "missed_blinds": ("missed-blind-not-posted",),
    "new_player_posts": ("new-player-not-posted",),
}


class RulebookError(ValueError):
    """A rulebook that cannot be loaded: unknown name, unreadable file, unknown key or bad value."""


_PARAM_FIELDS = ("name", "kind", "summary", "description", "choices", "minimum", "maximum", "none")


class Param(OpenValue):
    """One rulebook parameter: its type and allowed values, for checking files and ``--set``.
    A value (handaudit/core/open_value.py), not a frozen dataclass, whose generated code would
    be compiled at every run's start."""

    __slots__ = _PARAM_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _PARAM_FIELDS

    def __init__(self, name: str, kind: str, summary: str, description: str, choices: tuple[str, ...] = (),
                 minimum: int | None = None, maximum: int | None = None, none: bool = False) -> None:
        self.name: Final = name
        # "int" | "bool" | "enum" | "decimal" (a non-negative decimal as text; "none" if allowed)
        self.kind: Final = kind
        self.summary: Final = summary  # one short line, for the side-by-side table
        self.description: Final = description
        self.choices: Final = choices
        self.minimum: Final = minimum
        self.maximum: Final = maximum
        self.none: Final = none  # a "decimal" parameter that may be "none"

    def allowed(self) -> str:
        """The allowed values, as an error message names them."""
        if self.kind == "decimal":
            text = "a non-negative decimal number (an integer, or a string such as \"0.50\")"
            if self.maximum is not None:
                text = f"a decimal number from 0 to {self.maximum} (an integer, or a string such as \"4.5\")"
            return f"{text}, or \"none\"" if self.none else text
        if self.kind == "enum":
            return ", ".join(self.choices)
        if self.kind == "bool":
            return "true, false"
        if self.maximum is None:
            return f"an integer of at least {self.minimum}"
        return f"an integer from {self.minimum} to {self.maximum}"

    def check(self, value, where: str):
        """Validate a value read from TOML (already typed). A "decimal" comes back as its
        canonical text ("0.5", "3", "none"), exact whatever the TOML type."""
        if self.kind == "decimal":
            text = decimal_text(value, self.none, self.maximum)
            if text is None:
                raise RulebookError(f"{where}: bad value {show_value(value)} for {self.name}; allowed: {self.allowed()}")
            return text
        ok = {
            "int": isinstance(value, int) and not isinstance(value, bool)
            and (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum),
            "bool": isinstance(value, bool),
            "enum": isinstance(value, str) and value in self.choices,
        }[self.kind]
        if not ok:
            raise RulebookError(f"{where}: bad value {show_value(value)} for {self.name}; allowed: {self.allowed()}")
        return value

    def parse(self, text: str, where: str):
        """Parse a ``--set`` value (a string) into the parameter's type."""
        t = text.strip()
        value: object
        if self.kind == "int":
            try:
                value = int(t)
            except ValueError:
                value = t
        elif self.kind == "bool":
            value = _BOOLS.get(t.lower(), t)
        elif self.kind == "decimal":
            value = t
        else:
            norm = t.lower().replace("_", "-")
            value = norm if norm in self.choices else t
        return self.check(value, where)


MAX_DECIMAL_PLACES = 18  # as for amounts in a hand (README "Limits on input")


def decimal_text(value: object, none: bool, maximum: int | None) -> str | None:
    """The canonical text of a non-negative decimal parameter value, or None when it is not one.

    Accepts an int, a TOML float (its shortest repr, which is what the file says: 4.5) or a
    string of digits with at most one point; "none" when ``none``. No exponent, no sign."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        text = str(value)
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = value.strip().lower()
        if none and text == NONE:
            return NONE
    else:
        return None
    whole, dot, frac = text.partition(".")
    if not whole.isdigit() or not whole.isascii() or (dot and not (frac.isdigit() and frac.isascii())):
        return None
    if len(frac) > MAX_DECIMAL_PLACES or len(whole) > 19:
        return None
    frac = frac.rstrip("0")
    whole = whole.lstrip("0") or "0"
    if maximum is not None and (int(whole) > maximum or (int(whole) == maximum and frac)):
        return None
    return f"{whole}.{frac}" if frac else whole


_BOOLS = {"true": True, "false": False, "yes": True, "no": False, "on": True, "off": False, "1": True, "0": False}


def _p(name, kind, summary, description, choices=(), minimum=None, maximum=None, none=False) -> Param:
    return Param(name, kind, summary, description, tuple(choices), minimum, maximum, none)


PARAMETERS: dict[str, Param] = {
    p.name: p
    for p in [
        _p("limit_raises", "int", "fixed-limit raises after the bet (3+ rounds)",
           "Raises allowed after the opening bet in a fixed-limit betting round, in games with three or "
           "more betting rounds (hold'em, stud).", minimum=0),
        _p("limit_raises_short", "int", "fixed-limit raises after the bet (<3 rounds)",
           "The same for games with fewer than three betting rounds (single draw). No PHH 1.0 variant is "
           "such a fixed-limit game (triple draw and badugi have four rounds); handaudit's extension codes "
           "F5CD (5-card draw) and F2L1D (2-7 single draw) are.",
           minimum=0),
        _p("heads_up_uncap", "enum", "when heads-up lifts the raise cap",
           "never: the cap always applies; when-heads-up: the cap is lifted once the round is heads-up "
           "before being capped (a capped round stays capped); round-starts-heads-up: lifted only for a "
           "round that starts heads-up.", (NEVER, WHEN_HEADS_UP, ROUND_STARTS_HEADS_UP)),
        _p("cap_counts", "enum", "who counts towards heads-up / 3+ players",
           "Which players count when deciding whether a round is heads-up: every player still in the "
           "hand, or only those not all-in.", (PLAYERS_IN_HAND, PLAYERS_NOT_ALL_IN)),
        _p("short_raise_ruling", "enum", "what a raise below the minimum becomes",
           "half-rule: adding at least half a minimum raise makes a full minimum raise, less is a call; "
           "bring-to-minimum: the raise is brought up to the minimum raise.", (HALF_RULE, BRING_TO_MINIMUM)),
        _p("straddle_counts_as_raise", "bool", "a straddle uses up a limit raise",
           "Whether a straddle counts as one of the raises the fixed-limit cap allows."),
        _p("completion_counts_as_raise", "bool", "a stud completion uses up a limit raise",
           "Whether completing the stud bring-in to a full bet counts as a raise for the cap "
           "(false: the completion is the round's opening bet)."),
        _p("stud_open_pair_big_bet", "bool", "fixed-limit stud: the big bet on fourth street with an open pair",
           "Whether, in fixed-limit seven card stud (high), an open pair showing on fourth street lets any "
           "player bet or raise by the big bet instead of the small; once a big bet is made the round's "
           "raises are big bets (false: fourth street bets the small bet only)."),
        _p("limit_allin_reopen", "enum", "fixed-limit all-in that reopens betting",
           "half-bet: an all-in raising by at least half a bet reopens the betting; full-bet: only a "
           "full bet does.", (HALF_BET, FULL_BET)),
        _p("limit_raise_over_half_allin", "enum", "full raise over a half-bet all-in",
           "allin-plus-bet: a full raise over a reopening short all-in is the all-in plus one bet; "
           "completed-plus-bet: the all-in counts as completed to a full raise and the next raise is one "
           "bet above that.", (ALLIN_PLUS_BET, COMPLETED_PLUS_BET)),
        _p("straddle_min_raise", "enum", "minimum raise over a straddle",
           "double-straddle: the straddle is the last full bet, so the minimum raise-to is twice the "
           "straddle; straddle-plus-raise: the straddle plus its own raise over the big blind.",
           (DOUBLE_STRADDLE, STRADDLE_PLUS_RAISE)),
        _p("unnecessary_fold", "enum", "a fold when checking was free",
           "Severity of an unnecessary-fold finding: warning, info, or off (not reported).",
           (WARNING, INFO, OFF)),
        _p("show_order", "enum", "who must show first at showdown",
           "last-aggressor: the last player to bet or raise on the final round shows first, else the "
           "first player left of the button; first-to-act: always the first to act; off: not checked.",
           (LAST_AGGRESSOR, FIRST_TO_ACT, OFF)),
        _p("odd_chip_stud", "enum", "stud odd chip: high card by suit among",
           "all-cards: the highest card by suit among all the player's cards; hand-cards: among the five "
           "cards of the hand only.", (ALL_CARDS, HAND_CARDS)),
        _p("odd_chip_button", "enum", "button-game odd chips go to",
           "first-left-of-button: to the tied winners in seat order from the button's left; "
           "high-card-by-suit: as in stud.", (FIRST_LEFT_OF_BUTTON, HIGH_CARD_BY_SUIT)),
        _p("short_deck_trips_beat_straight", "bool", "short-deck: three of a kind beats a straight",
           "Short-deck hand ranking: false (PokerKit/Triton: a straight beats three of a kind) or true "
           "(a venue variant)."),
        _p("check_out_of_turn", "enum", "after a check out of turn, the player may",
           "What a player who checked out of turn may do when the action comes back changed (a bet or "
           "raise since): may-bet: all options; call-or-fold: on the next turn only call or fold, a bet "
           "or raise is a bet-after-check-out-of-turn ruled a call; call-or-fold-heads-up: the same for "
           "the rest of the round, but only when the check was made heads-up (two players counted as "
           "cap_counts says), all options multiway.", (MAY_BET, CALL_OR_FOLD, CALL_OR_FOLD_HEADS_UP)),
        _p("changed_action_out_of_turn", "enum", "an out-of-turn bet the action changes",
           "binding: a bet or raise out of turn stands even when a passed-over player then bets or raises "
           "(that bet is a raise over it); returned: the out-of-turn bet is binding only if the action to "
           "it does not change: the passed-over players act as if it had not been made (a call is of the "
           "bet before it), and if one of them bets or raises the chips go back to the out-of-turn player, "
           "who has all options, and that bet is judged as if the returned one had never been made.",
           (BINDING, RETURNED)),
        _p("call_out_of_turn", "enum", "after a call out of turn, the player may",
           "What a player who called out of turn may do when the action comes back changed (a raise "
           "since): may-raise: all options; call-or-fold: on the next turn only call or fold, a raise is "
           "a raise-after-call-out-of-turn ruled a call.", (MAY_RAISE, CALL_OR_FOLD)),
        _p("substantial_action_count", "int", "substantial action: actions of any kind",
           "How many actions, of any kind, by other players after a player is passed over by an "
           "out-of-turn action make substantial action: from then on the passed-over player has lost "
           "the turn (it no longer comes back to them first) and the out-of-turn action stands (a "
           "pending out-of-turn bet binds: it is no longer returned). The out-of-turn action itself "
           "counts.", minimum=1),
        _p("substantial_action_chips", "int", "substantial action: actions, one putting chips in",
           "The same with a smaller count when at least one of those actions puts chips in (a bet, raise "
           "or call); 0: no such count (only substantial_action_count applies).", minimum=0),
        _p("rake_limit_percent", "int", "with no rake structure: most rake a pot pays, %",
           "With no rake structure set (rake_percent = none): a pot's rake may be at most this "
           "percentage of the pot (plus rake_rounding_units); recorded payouts that need more are a "
           "winnings-mismatch.", minimum=0, maximum=100),
        _p("rake_rounding_units", "int", "with no rake structure: rake slack, minor units",
           "Minor units each pot's rake may have on top of rake_limit_percent, for rounding.", minimum=0),
        _p("rake_percent", "decimal", "rake structure: % taken from the pot, or none",
           "The rake structure's percentage of the pot (of each pot, or of the hand's pots together, "
           "per rake_cap_scope), e.g. 5 or \"4.5\". none (the default): no structure is known, and "
           "recorded payouts are accepted when some rake per pot within rake_limit_percent explains "
           "them. Set, the recorded rake must be exactly what the structure gives.",
           maximum=100, none=True),
        _p("rake_cap", "decimal", "rake structure: most rake taken, or none",
           "The most rake the structure takes (per hand or per pot, per rake_cap_scope), as an amount "
           "in the hand's currency (\"3\", \"0.50\"); none: no cap. Only used when rake_percent is set.",
           none=True),
        _p("rake_cap_scope", "enum", "rake structure: percentage and cap per hand or per pot",
           "hand: the percentage and the cap apply to the hand's pots together, and the rake is taken "
           "from each pot in proportion to its size (the odd units from the main pot first); pot: each "
           "pot is raked on its own, with its own cap.", (HAND, POT)),
        _p("no_flop_no_drop", "bool", "no rake from a hand that ends in its first betting round",
           "A hand that ends in its first betting round pays no rake: no board card, no draw and no "
           "later street was dealt (hold'em and Omaha: before the flop; stud: on third street; draw "
           "games: before the first draw). Applies with or without a structure."),
        _p("rake_rounding", "enum", "rake structure: how a fractional rake is rounded",
           "down, up, or nearest (half a unit rounds up): how the structure's rake is rounded to the "
           "hand's smallest unit.", (DOWN, UP, NEAREST)),
        _p("jackpot_drop", "decimal", "rake structure: fixed jackpot drop per raked hand",
           "A fixed amount (\"0.50\") taken with the rake from every hand the structure rakes (any but "
           "one no_flop_no_drop exempts, even when its percentage rounds to 0), from the main "
           "pot (\"Rake ($3) | Jackpot Rake ($0.50)\"); 0: none. Only used when rake_percent is set."),
        _p("button_rule", "enum", "across hands: how the button moves",
           "dead-button: the big blind moves to the next seat with a player every hand, and the button and "
           "small blind are placed behind it (the button may be dead or stay put); moving-button: the button "
           "moves to the next seat with a player. The cross-hand pass checks the big blind (dead-button) or "
           "the button (moving-button) between consecutive hands of a session.", (DEAD_BUTTON, MOVING_BUTTON)),
        _p("missed_blinds", "enum", "across hands: what a player back after missing the big blind posts",
           "none: nothing (a tournament deals absent players in and takes their blinds); big: the big "
           "blind; big-and-small: the big blind live and the small blind dead. A returning player may "
           "instead wait for the big blind to reach their seat.", (NONE, BIG_ONLY, BIG_AND_SMALL)),
        _p("new_player_posts", "enum", "across hands: what a new player posts to be dealt in",
           "big-blind: a player joining a session posts the big blind or waits for it; none: a new "
           "player is dealt in at once without posting (a tournament seat).", (BIG_BLIND, NONE)),
    ]
}


def show_value(value: object, limit: int = 80) -> str:
    """A value as a message quotes it: its repr (control characters escaped), cut to ``limit``."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"

