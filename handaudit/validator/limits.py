"""Betting-structure arithmetic: the legal bet/raise-to range and the rulings for bad amounts.

Kept apart from the engine's turn logic so each rule lives in one place with its citation.
Amounts are "to" amounts: a player's total bet in the current round. ``fixed``: the game is
fixed-limit; ``half_bet``: the rulebook's `limit_allin_reopen` is ``half-bet`` (else
``full-bet``); both are read once per hand (see state.py, Rules).
"""

from __future__ import annotations


def min_raise_to(level: int, last_full: int) -> int:
    """No-limit/pot-limit: a raise adds at least the last full bet or raise of this round
    (TDA 2026 Rules 45 and 50; Robert's Rules of Poker v11, Section 14 (No-Limit) rules 1 and 3, TDA Rule 45/50; a short all-in does not change the size, TDA 2026 Rules 45 and 49; WSOP 2023 Live Action Rule 172)."""
    return level + last_full


def pot_limit_max_to(level: int, in_middle: int, own_bet: int) -> int:
    """Pot-limit: the largest raise is the pot after calling (TDA 2026 Rules 3 and 47; Robert's Rules of Poker v11, Section 14 (Pot-Limit) rule 1; example: pot 100,
    bet 50 -> call 50, pot 200, raise to 250; Robert's Rules v11 Section 14, Pot-Limit Rules)."""
    to_call = level - own_bet
    return level + in_middle + to_call


def fixed_to(fl_level: int, unit: int) -> int:
    """Fixed limit: every bet or raise is one unit over the last counted bet level (3.11)."""
    return fl_level + unit


def allin_counts_as_raise(fixed: bool, raise_by: int, last_full: int, unit: int, half_bet: bool = True) -> bool:
    """Whether an all-in raise is a full raise that reopens the betting.

    No-limit/pot-limit: only a full raise counts (TDA 2026 Rule 49; Robert's Rules of Poker v11, Section 14 (No-Limit) rule 3; WSOP 2023 Live Action Rule 171, TDA Rule 49). Fixed limit: half a
    bet or more counts as a full raise (Robert's Rules of Poker v11, Section 3 rule 7; WSOP 2023 Live Action Rule 129; TDA 2026 Rule 49, Robert's Section 3 rule 7, house 9.5), or a full
    bet under a rulebook whose `limit_allin_reopen` is ``full-bet``.
    """
    if fixed:
        return (2 * raise_by if half_bet else raise_by) >= unit
    return raise_by >= last_full


def may_reraise(fixed: bool, faced_since_acted: int, last_full: int, unit: int, half_bet: bool = True) -> bool:
    """A player who already acted may raise only if what they now face since they last acted
    is a full raise (TDA 2026 Rule 49; Robert's Rules of Poker v11, Section 14 (No-Limit) rule 4: several short all-ins can add up to one); fixed limit: half a
    bet (Robert's Rules of Poker v11, Section 3 rule 7; WSOP 2023 Live Action Rule 129; TDA 2026 Rule 49)."""
    if fixed:
        return (2 * faced_since_acted if half_bet else faced_since_acted) >= unit
    return faced_since_acted >= last_full


def short_raise_ruling(half_rule: bool, level: int, to: int, min_to: int) -> tuple[int, bool]:
    """What a raise below the minimum becomes (TDA 2026 Rule 45; Robert's Rules of Poker v11, Section 14 (No-Limit) rule 11; WSOP 2023 Live Action Rule 179).

    ``half_rule`` (TDA Rule 45): adding at least half of a minimum raise makes a full minimum
    raise; less is a call. Otherwise ``bring-to-minimum`` (Robert's Section 14 rule 11, WSOP
    rule 179): brought up to the minimum raise. Returns the ruled "to" amount and whether it is
    a call.
    """
    if half_rule and 2 * (to - level) < (min_to - level):
        return level, True
    return min_to, False
