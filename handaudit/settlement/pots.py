"""Pots from contributions: uncalled returns, main pot, side pots, antes and dead money.

Everything is exact integer arithmetic in the hand's minor units. The rules, in order:

1. **Split each contribution** into its ante part (the effective ante: the listed ante, at most
   the player's starting stack; heads-up in a button game the two entries are swapped, as
   PokerKit and the replay engine post them), its dead-blind part (``Replay.dead`` minus the
   ante: the engine records antes as dead too) and its live bets (the rest).
2. **Return the uncalled part** of the largest live bet total: the amount by which it exceeds the
   second-largest is given back, never put in a pot (reading: table stakes, Robert's Rules of Poker v11, Glossary). A tie for the
   largest returns nothing. Comparing whole-hand totals gives the same result as returning the
   uncalled bet street by street, because before the last betting round every player still in
   has matched the others or is all-in for less.
3. **Antes** follow the PHH field ``ante_trimming_status`` the way PokerKit 0.7.7 (the PHH
   reference implementation) does (``State.collect_bets`` and ``State.pots``):

   * ``false`` (or absent): antes are collected without any trimming and are left out of the
     side-pot levels; they all go into the first pot, for which every player still in is
     eligible -- so a player all-in for the ante or less can win all the antes.
   * ``true``: the ante round is trimmed like a betting round (the largest ante above the
     second-largest is returned -- with uniform antes nothing is) and the antes count towards
     the side-pot levels like bets, so a player all-in for a short ante is eligible only up to
     that level, with as much from each other player.
4. **Levels**: a pot at each distinct contribution level, holding what every player (folded or
   not) put in between the previous level and this one; its eligible players are those not
   folded who reached the level. Consecutive levels with the same eligible players are one pot
   (so a pot is only split off at an all-in that changes who can win). A level nobody still in
   reached (only folded money) joins the pot below it.
5. **Dead money** (dead blinds, and antes when not trimmed) goes into the first pot: it makes
   nobody more eligible.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, overload

# build_pots' pots: (amount, eligible players) or, with detail, (amount, eligible, parts)
Pots = list[tuple[int, tuple[int, ...]]]
PotsDetail = list[tuple[int, tuple[int, ...], list[int]]]


def nonzero(values: Sequence[int]) -> bool:
    """``any(values)``, as a loop over a tuple: compiled, the builtin, or a loop over a
    ``Sequence``, iterates generically."""
    for v in tuple(values):  # the same object for a tuple: indexed natively
        if v:
            return True
    return False


def total(values: Sequence[int]) -> int:
    """``sum(values)``, as a loop (see :func:`nonzero`)."""
    t = 0
    for v in tuple(values):
        t += v
    return t


def effective_antes(antes: Sequence[int], starting_stacks: Sequence[int | None],
                    contributions: Sequence[int], swap_heads_up: bool = True) -> tuple[int, ...]:
    """The ante each player actually posted (PokerKit's ``get_effective_ante``).

    The listed ante, capped by the starting stack (``None`` = unknown, no cap) and by the
    player's contribution. Heads-up in a button game the two entries are swapped: p1 is then
    the big blind (PHH spec, "Antes"; PokerKit and the replay engine post them that way).
    """
    listed = tuple(antes)
    stacks = tuple(starting_stacks)
    paid = tuple(contributions)
    n = len(paid)
    if not nonzero(listed):
        return (0,) * n
    out = [0] * n
    swap = swap_heads_up and n == 2 and len(listed) == 2
    for i in range(n):
        j = (1 - i) if swap else i
        a = listed[j] if j < len(listed) else 0
        if a <= 0:
            continue
        s = stacks[i] if i < len(stacks) else None
        if s is not None and s < a:
            a = s
        c = paid[i]
        a = min(a, c)
        out[i] = max(0, a)
    return tuple(out)


def split_dead(dead: Sequence[int], antes: Sequence[int]) -> tuple[int, ...]:
    """Dead blind money from ``Replay.dead``, which also holds the antes (the engine posts
    antes dead: they never count towards a call). If ``dead`` does not cover the antes, it is
    taken to hold dead blinds only."""
    posted = tuple(dead)
    ante = tuple(antes)
    n = len(ante)
    if not nonzero(posted):
        return (0,) * n
    out = [0] * n
    covers = True
    for i in range(n):
        d = posted[i] if i < len(posted) else 0
        out[i] = d
        if d < ante[i]:
            covers = False
    if covers:
        for i in range(n):
            out[i] -= ante[i]
    return tuple(out)


def _return_uncalled(values: list[int], returned: list[int]) -> None:
    """Give the top value's excess over the second-largest back (in place)."""
    top = second = -1
    top_i = -1
    for i in range(len(values)):
        v = values[i]
        if v > top:
            second, top, top_i = top, v, i
        elif v > second:
            second = v
    if top_i >= 0 and top > second >= 0:
        returned[top_i] += top - second
        values[top_i] = second
    elif top_i >= 0 and second < 0 and top > 0:  # a single player: everything is uncalled
        returned[top_i] += top
        values[top_i] = 0


def trims_antes(ante_trimming_status: bool | None, antes: Sequence[int]) -> bool:
    """Whether the antes are trimmed like a betting round (PHH ``ante_trimming_status``).

    Reading: an ante posted by one player for the table (big-blind or button ante) is never
    trimmed -- PokerKit's trimming would return all of it, which no rulebook does and which the
    WSOP 2019 #42 file's recorded stacks refute; it is dead money in the first pot.
    """
    if not ante_trimming_status:
        return False
    posting = 0
    for a in tuple(antes):
        if a > 0:
            posting += 1
    return posting >= 2


def ante_trim_returns(antes: Sequence[int]) -> list[int]:
    """What ``ante_trimming_status = true`` gives back of the antes alone (the largest ante's
    excess over the second-largest; nothing with uniform antes). For explaining mismatches."""
    values = list(antes)
    returned = [0] * len(values)
    _return_uncalled(values, returned)
    return returned


@overload
def build_pots(contributions: Sequence[int], dead: Sequence[int], folded: Sequence[bool],
               antes: Sequence[int], trim_antes: bool, detail: Literal[False] = False
               ) -> tuple[list[int], Pots]: ...
@overload
def build_pots(contributions: Sequence[int], dead: Sequence[int], folded: Sequence[bool],
               antes: Sequence[int], trim_antes: bool, detail: Literal[True]
               ) -> tuple[list[int], PotsDetail]: ...
def build_pots(contributions: Sequence[int], dead: Sequence[int], folded: Sequence[bool],
               antes: Sequence[int], trim_antes: bool, detail: bool = False
               ) -> tuple[list[int], Pots | PotsDetail]:
    """Returns and pots from per-player totals.

    ``antes`` are the effective antes (:func:`effective_antes`), ``dead`` the dead blind money
    (:func:`split_dead`). Returns ``(returned, pots)`` where ``returned`` is a list per player and
    ``pots`` a list of ``(amount, eligible)`` with ``eligible`` a tuple of 0-based players, main
    pot first. With ``detail=True`` each pot is ``(amount, eligible, parts)``, ``parts`` being
    what each player put into that pot (for the ledger; dead money and untrimmed antes are in the
    first pot's parts).
    """
    paid = tuple(contributions)
    listed = tuple(antes)
    posted = tuple(dead)
    gone = tuple(folded)
    n = len(paid)
    returned = [0] * n
    bets = [max(0, c) for c in paid]
    # ante parts, and money that goes to the first pot and counts for no level (made only
    # when there is some: most hands have neither)
    separate = nonzero(listed) or nonzero(posted)
    ante: list[int] = []
    extra: list[int] = []
    if separate:
        ante = [0] * n
        extra = [0] * n
        for i in range(n):
            c = bets[i]
            a = listed[i] if i < len(listed) else 0
            a = a if 0 < a <= c else (c if a > c else 0)
            d = posted[i] if i < len(posted) else 0
            d = d if 0 < d <= c - a else (c - a if d > c - a else 0)
            ante[i] = a
            extra[i] = d
            bets[i] = c - a - d
    _return_uncalled(bets, returned)
    live = bets  # changed in place below: bets are not needed apart from the levels
    if separate:
        if trim_antes:
            _return_uncalled(ante, returned)
            for i in range(n):
                live[i] += ante[i]
        else:
            for i in range(n):
                extra[i] += ante[i]
    active = tuple([i for i in range(n) if not gone[i]])

    # the pots, main pot first, as parallel lists (parts_of only with detail)
    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    parts_of: list[list[int]] = []
    carry = 0  # a level only folded players reached, with no pot below it yet
    carry_parts = [0] * n if detail else []
    parts: list[int] = []
    prev = 0
    while True:
        # the next level: the smallest amount above the last one (a scan of a few players
        # instead of sorting a copy)
        level = -1
        for v in live:
            if v > prev and (level < 0 or v < level):
                level = v
        if level < 0:
            break
        amount = 0
        for v in live:
            if v > prev:
                amount += (min(level, v)) - prev
        if detail:
            parts = [(min(v, level) - prev if v > prev else 0) for v in live]
        # eligible players only shrink as the level rises, so a count tells whether they
        # are the last pot's (its tuple is made only for a new pot)
        count = 0
        for i in active:
            if live[i] >= level:
                count += 1
        prev = level
        if count == 0:
            if amounts:
                _merge(amounts, parts_of, -1, amount, parts, detail)
            else:
                carry += amount
                if detail:
                    carry_parts = [x + y for x, y in zip(carry_parts, parts, strict=True)]
            continue
        if carry:
            amount += carry
            if detail:
                parts = [x + y for x, y in zip(carry_parts, parts, strict=True)]
            carry = 0
        if amounts and len(eligibles[-1]) == count:
            _merge(amounts, parts_of, -1, amount, parts, detail)
        else:
            amounts.append(amount)
            eligibles.append(tuple([i for i in active if live[i] >= level]))
            if detail:
                parts_of.append(parts)

    extra_total = total(extra) + carry
    if extra_total:
        eparts: list[int] = []
        if detail:
            eparts = [x + y for x, y in zip(extra, carry_parts, strict=True)] if separate else list(carry_parts)
        if amounts and eligibles[0] == active:
            _merge(amounts, parts_of, 0, extra_total, eparts, detail)
        elif active:
            amounts.insert(0, extra_total)
            eligibles.insert(0, active)
            if detail:
                parts_of.insert(0, eparts)
        elif amounts:  # nobody still in (not a real hand): keep the chips in the first pot
            _merge(amounts, parts_of, 0, extra_total, eparts, detail)
        else:
            amounts.append(extra_total)
            eligibles.append(())
            if detail:
                parts_of.append(eparts)
    if detail:
        return returned, list(zip(amounts, eligibles, parts_of, strict=True))
    return returned, [(amounts[k], eligibles[k]) for k in range(len(amounts))]


def _merge(amounts: list[int], parts_of: list[list[int]], index: int, amount: int, parts: list[int],
           detail: bool) -> None:
    amounts[index] += amount
    if detail:
        parts_of[index] = [x + y for x, y in zip(parts_of[index], parts, strict=True)]
