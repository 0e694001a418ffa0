"""The rake: what a rake structure takes from each pot, and which rake per pot explains the
payouts a file records.

The rake comes out of each pot before the pot is split: a winner's payout is their share of the
raked pot, split as the pot is (:func:`.showdown.share_of`: hi/lo halves, ties, the odd-chip
order). Two modes, by the rulebook's ``rake_percent``:

* **A structure** (a percentage): the hand's rake is ``rake_percent`` % of its pots, rounded to
  the hand's smallest unit by ``rake_rounding`` and capped at ``rake_cap``. With
  ``rake_cap_scope = "hand"`` the percentage and the cap apply to the pots together and the rake
  is taken from each pot in proportion to its size (the units left over by the proportion one
  each from the main pot on); with ``"pot"`` each pot is raked and capped on its own.
  ``jackpot_drop`` is added, from the main pot (then the next) of every hand the structure rakes
  (any but one ``no_flop_no_drop`` exempts, even when the percentage rounds to 0).
  Recorded payouts must be exactly the raked shares.
* **No structure** (``"none"``, the default: a PHH file rarely says its site's): recorded payouts
  are accepted when some rake per pot explains them (:func:`explain`): each pot's rake from 0 to
  ``rake_limit_percent`` % of it plus ``rake_rounding_units`` units, and every winner's payout
  exactly their share of the pots they won after those rakes; a co-winner of a raked pot is
  short too.

Under both, ``no_flop_no_drop`` means a hand that ended in its first betting round pays no rake
(:func:`ended_in_first_round`). docs/rules.md ("Rake") gives the examples.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Final

from ..rules.params import DOWN, NEAREST, NONE, POT, UP
from ..rules.rulebook import Rulebook
from ..core.records import K_DEAL_BOARD, K_DEAL_HOLE, K_DISCARD, K_STAND_PAT
from .showdown import Pot, share_of, split_like

if TYPE_CHECKING:
    from ..validator.outcome import ActionRecord

SEARCH_BUDGET: Final = 20_000  # partial readings :func:`explain` tries before it settles for the best so far
_WIDE: Final = 1_000  # the best inexact reading: rakes tried each way around the likeliest, for a pot with no pivot


def ended_in_first_round(records: Sequence[ActionRecord], first_street: str | None) -> bool:
    """The hand ended in its first betting round: no board card, no draw and no hole card of a
    later street was dealt (hold'em and Omaha: before the flop; stud: on third street; draw
    games: before the first draw). A hand run out after an all-in saw its later streets."""
    for r in records:
        kind = r.kind
        if kind == K_DEAL_BOARD or kind == K_DISCARD or kind == K_STAND_PAT:
            return False
        if kind == K_DEAL_HOLE and r.street != first_street:
            return False
    return True


def structure_set(rulebook: Rulebook) -> bool:
    """The rulebook gives a rake structure (``rake_percent`` is not ``none``)."""
    return rulebook.rake_percent != NONE


def _ratio(text: str, scale: int = 0) -> tuple[int, int]:
    """A decimal parameter times ``10 ** scale`` (an amount in the hand's minor units), exact, as
    a numerator and a positive denominator (integers: no ``fractions`` import at start-up)."""
    num, den = Decimal(text).as_integer_ratio()
    return num * 10 ** scale, den


def _round(num: int, den: int, how: str) -> int:
    """``num / den`` (``den`` > 0) rounded to a whole unit: up, down, or to the nearest (a half up)."""
    if how == UP:
        return -((-num) // den)
    if how == NEAREST:
        return (2 * num + den) // (2 * den)
    assert how == DOWN
    return num // den


def structure_rakes(pots: list[Pot], rulebook: Rulebook, scale: int, no_drop: bool) -> list[int]:
    """The rake of each pot under the rulebook's structure (``structure_set`` must hold).

    ``no_drop``: the hand ended in its first betting round and ``no_flop_no_drop`` is on."""
    n = len(pots)
    rakes = [0] * n
    if no_drop or n == 0:
        return rakes
    pct_num, pct_den = _ratio(rulebook.rake_percent)
    pct_den *= 100  # a percentage
    how = rulebook.rake_rounding
    # The cap in whole units (a cap with a fraction of a unit: the whole units under it); a rake
    # is an integer, so "rake > cap" and "rake > its whole units" agree.
    cap = None if rulebook.rake_cap == NONE else _round(*_ratio(rulebook.rake_cap, scale), DOWN)
    amounts = [p.amount for p in pots]
    if rulebook.rake_cap_scope == POT:
        for k in range(n):
            rakes[k] = min(_round(pct_num * amounts[k], pct_den, how), amounts[k])
            if cap is not None and rakes[k] > cap:
                rakes[k] = cap
    else:
        total = sum(amounts)
        if total > 0:
            whole = _round(pct_num * total, pct_den, how)
            if cap is not None and whole > cap:
                whole = cap
            whole = min(whole, total)
            for k in range(n):
                rakes[k] = whole * amounts[k] // total
            left = whole - sum(rakes)
            for k in range(n):
                if left <= 0:
                    break
                if rakes[k] < amounts[k]:
                    rakes[k] += 1
                    left -= 1
    drop = _round(*_ratio(rulebook.jackpot_drop, scale), DOWN)
    for k in range(n):
        if drop <= 0:
            break
        take = min(drop, amounts[k] - rakes[k])
        rakes[k] += take
        drop -= take
    return rakes


def tolerances(pots: list[Pot], rulebook: Rulebook, no_drop: bool) -> list[int]:
    """With no structure: the most rake each pot may pay (``rake_limit_percent`` % of it plus
    ``rake_rounding_units``; 0 for a hand that ended in its first betting round)."""
    if no_drop:
        return [0] * len(pots)
    pct, units = rulebook.rake_limit_percent, rulebook.rake_rounding_units
    return [min(p.amount, (p.amount * pct + units * 100) // 100) for p in pots]


def expected_payouts(pots: list[Pot], rakes: list[int], n: int) -> list[int]:
    """Each player's chips from the pots after their rakes, split as the pots are."""
    got = [0] * n
    for k in range(len(pots)):
        pot = pots[k]
        for p, amount in split_like(pot, pot.amount - rakes[k]).items():
            got[p] += amount
    return got


def unexplained(expected: list[int], targets: list[int | None]) -> list[int]:
    """The players whose recorded payout (``targets``; None: not known) is not ``expected``."""
    out: list[int] = []
    for i in range(len(targets)):
        target = targets[i]  # (narrowed to int: compiled, comparing an `int | None` is a generic call)
        if target is not None and target != expected[i]:
            out.append(i)
    return out


def explain(pots: list[Pot], targets: list[int | None], maxes: list[int],
            budget: int = SEARCH_BUDGET) -> tuple[list[int], list[int], bool]:
    """A rake per pot (each from 0 to ``maxes[k]``) under which every player's share of the pots
    is their recorded payout (``targets``, None: unknown). Returns ``(rakes, unexplained,
    exhausted)``: an exact reading has no unexplained players; otherwise the reading that leaves
    the fewest, then takes the least rake. ``exhausted``: the search stopped at ``budget`` before
    it could tell whether an exact reading exists.

    Pots are read one at a time, each where a *pivot* decides it: a winner of it whose other pots
    are already read, so that their payout leaves only this pot's rake to find (the few rakes that
    give their share, since a share falls by about 1/m per unit of rake among m winners). When no
    unread pot has a pivot (each winner wins another unread pot), the one whose reading makes the
    most pivots is tried over a range around the rake its winners' payouts suggest. The search for
    an exact reading drops every partial reading that leaves some winner's payout out of reach of
    their unread pots, and, with every payout known, any whose rakes cannot add up to what the
    payouts leave of the pots; only when no exact reading exists is the best inexact one sought.
    """
    n_pots = len(pots)
    n = len(targets)
    if _sole_winners(pots):
        return _explain_sole(pots, targets, maxes)
    pots_of: list[list[int]] = [[] for _ in range(n)]
    winners_of: list[list[int]] = []
    for k in range(n_pots):
        ws: list[int] = []
        for _, winners in pots[k].order:
            for p in winners:
                if p not in ws:
                    ws.append(p)
        winners_of.append(ws)
        for p in ws:
            pots_of[p].append(k)
    # every payout known: the rakes add up to what the payouts leave of the pots
    total: int | None = None
    if all(t is not None for t in targets):
        total = sum(p.amount for p in pots) - sum(t or 0 for t in targets)
    shape = _Shape(pots, targets, maxes, winners_of, pots_of, total)
    possible = all(targets[p] in (None, 0) for p in range(n) if not pots_of[p])
    exhausted = False
    if possible:
        exact, exhausted = _search(shape, budget, True)
        if exact is not None and not exact[2]:
            return exact[1], exact[2], False
    best, more = _search(shape, budget, False)
    assert best is not None  # (without pruning, the first descent always reaches a whole reading)
    return best[1], best[2], exhausted


def _sole_winners(pots: list[Pot]) -> bool:
    """Every pot goes whole to one player (no split, no hi/lo halves): the common hand."""
    for pot in pots:
        order = pot.order
        if len(order) != 1 or len(order[0][1]) != 1:
            return False
    return True


def _explain_sole(pots: list[Pot], targets: list[int | None], maxes: list[int]
                  ) -> tuple[list[int], list[int], bool]:
    """:func:`explain` when each pot has one winner: a player's shortfall is the rake of the pots
    they won, in any split within the limits; it is shared in proportion to the pots' sizes (the
    units left one each from the main pot on, a pot at its limit passing the rest on). A player
    short by more than their pots' limits allow, or paid more, is unexplained (their pots' rakes
    then as near as the limits allow)."""
    n = len(targets)
    won: list[list[int]] = [[] for _ in range(n)]
    for k in range(len(pots)):
        won[pots[k].order[0][1][0]].append(k)
    rakes = [0] * len(pots)
    bad: list[int] = []
    for p in range(n):
        t = targets[p]
        if t is None:
            continue
        mine = won[p]
        if not mine:
            if t != 0:
                bad.append(p)
            continue
        size = 0
        room = 0
        for k in mine:
            size += pots[k].amount
            room += maxes[k]
        short = size - t
        if short < 0 or short > room:
            bad.append(p)
            short = min(max(short, 0), room)
        left = short
        for k in mine:
            r = min(short * pots[k].amount // size if size else 0, maxes[k])
            rakes[k] = r
            left -= r
        while left > 0:  # the units the proportion leaves, from the main pot on, within the limits
            for k in mine:
                if left > 0 and rakes[k] < maxes[k]:
                    rakes[k] += 1
                    left -= 1
    return rakes, bad, False


class _Shape:
    """What the search reads: the pots, the recorded payouts, the limits, who wins which pot."""

    def __init__(self, pots: list[Pot], targets: list[int | None], maxes: list[int],
                 winners_of: list[list[int]], pots_of: list[list[int]], total: int | None) -> None:
        self.pots = pots
        self.targets = targets
        self.maxes = maxes
        self.winners_of = winners_of
        self.pots_of = pots_of
        self.total = total

    def reachable(self, k: int, rakes: list[int]) -> bool:
        """Each winner of pot ``k`` can still get their payout from their pots: between their
        share with the unread pots raked to the limit and with them not raked at all."""
        pots = self.pots
        for p in self.winners_of[k]:
            t = self.targets[p]
            if t is None:
                continue
            lo = hi = 0
            for j in self.pots_of[p]:
                amount = pots[j].amount
                if rakes[j] >= 0:
                    v = share_of(pots[j], p, amount - rakes[j])
                    lo += v
                    hi += v
                else:
                    lo += share_of(pots[j], p, amount - self.maxes[j])
                    hi += share_of(pots[j], p, amount)
            if not lo <= t <= hi:
                return False
        return True


def _search(shape: _Shape, budget: int, prune: bool
            ) -> tuple[tuple[tuple[int, int], list[int], list[int]] | None, bool]:
    """Depth first over the pots (see :func:`explain`); ``prune``: only exact readings are
    wanted. Returns the best whole reading found (score, rakes, unexplained) and whether the
    budget ran out."""
    pots, targets, maxes = shape.pots, shape.targets, shape.maxes
    winners_of, pots_of, total = shape.winners_of, shape.pots_of, shape.total
    n = len(targets)
    rakes = [-1] * len(pots)
    best: tuple[tuple[int, int], list[int], list[int]] | None = None
    tried = 0
    # an explicit stack of (pot, candidates, next candidate): no recursion, whatever the pots
    stack: list[tuple[int, list[int], int]] = []
    descend = True
    while True:
        if descend:
            k = _next_pot(rakes, winners_of, pots_of, targets, maxes)
            if k < 0:  # a whole reading: score it
                got = expected_payouts(pots, rakes, n)
                bad = unexplained(got, targets)
                score = (len(bad), sum(rakes))
                if best is None or score < best[0]:
                    best = (score, list(rakes), bad)
                if not bad:
                    return best, False
            else:
                lo, hi = _bounds(k, rakes, maxes, total)
                cands = _candidates(k, pots, rakes, winners_of, pots_of, targets, maxes, lo, hi, prune)
                stack.append((k, cands, 0))
            descend = False
        if not stack:
            return best, False
        k, cands, at = stack[-1]
        tried += 1
        if tried > budget:
            return best, True
        if at >= len(cands):
            rakes[k] = -1
            stack.pop()
            continue
        rakes[k] = cands[at]
        stack[-1] = (k, cands, at + 1)
        descend = not prune or shape.reachable(k, rakes)


def _bounds(k: int, rakes: list[int], maxes: list[int], total: int | None) -> tuple[int, int]:
    """The rakes of pot ``k`` that leave the rest of ``total`` (None: unknown) to the unread pots
    within their limits: ``(lo, hi)``, empty when ``lo > hi``."""
    if total is None:
        return 0, maxes[k]
    left = total
    room = 0
    for j in range(len(rakes)):
        if rakes[j] >= 0:
            left -= rakes[j]
        elif j != k:
            room += maxes[j]
    return max(0, left - room), min(maxes[k], left)


def _next_pot(rakes: list[int], winners_of: list[list[int]], pots_of: list[list[int]],
              targets: list[int | None], maxes: list[int]) -> int:
    """The next pot to read: one with a pivot winner if any. Else the unread pot whose reading
    makes the most pivots (winners with one other unread pot), then the one with the fewest rakes
    to try. -1 when every pot is read."""
    unread = [0] * len(pots_of)
    for p in range(len(pots_of)):
        for j in pots_of[p]:
            if rakes[j] < 0:
                unread[p] += 1
    chosen = -1
    chosen_key = (0, 0)
    for k in range(len(rakes)):
        if rakes[k] >= 0:
            continue
        made = 0
        for p in winners_of[k]:
            if targets[p] is None:
                continue
            if unread[p] == 1:
                return k
            if unread[p] == 2:
                made += 1
        key = (-made, maxes[k])
        if chosen < 0 or key < chosen_key:
            chosen, chosen_key = k, key
    return chosen


def _candidates(k: int, pots: list[Pot], rakes: list[int], winners_of: list[list[int]],
                pots_of: list[list[int]], targets: list[int | None], maxes: list[int],
                lo: int, hi: int, strict: bool) -> list[int]:
    """The rakes of pot ``k`` worth trying, best first: those every pivot's payout allows; if the
    pivots disagree, each one's (and, for a pivot no rake within the limit explains, the nearest
    allowed rake), so that the best inexact reading is still found. ``lo``/``hi``: the range the
    rake total leaves (:func:`_bounds`); ``strict``: only those (exact readings are sought), else
    all if none is in it."""
    pot = pots[k]
    top = maxes[k]
    ranges: list[list[int]] = []
    for p in winners_of[k]:
        t = targets[p]
        if t is None or not all(j == k or rakes[j] >= 0 for j in pots_of[p]):
            continue
        for j in pots_of[p]:
            if j != k:
                t -= share_of(pots[j], p, pots[j].amount - rakes[j])
        ranges.append(_rakes_giving(pot, p, t, top))
    if ranges:
        common = set(ranges[0])
        for r in ranges[1:]:
            common &= set(r)
        cands = sorted(common) if common else sorted(set().union(*ranges))
        kept = [r for r in cands if lo <= r <= hi]
        return kept if kept or strict else cands
    # No pivot: every winner of this pot wins another unread pot too. Try first the rake this
    # pot's part of the rake still to find suggests (in proportion to its size, as a percentage
    # takes it), then the rakes around it, nearest first: every one the total leaves when exact
    # readings are sought, else (the best inexact reading) at most _WIDE each way.
    if lo > hi:
        if strict:
            return []
        lo, hi = 0, top
    guess = min(max(_guess(k, pots, rakes, winners_of, pots_of, targets), lo), hi)
    if not strict:
        lo, hi = max(lo, guess - _WIDE), min(hi, guess + _WIDE)
    out = [guess]
    for d in range(1, max(guess - lo, hi - guess) + 1):
        if guess - d >= lo:
            out.append(guess - d)
        if guess + d <= hi:
            out.append(guess + d)
    return out


def _guess(k: int, pots: list[Pot], rakes: list[int], winners_of: list[list[int]],
           pots_of: list[list[int]], targets: list[int | None]) -> int:
    """The likeliest rake of an unread pot with no pivot: the rake still to find, from the pot's
    winners' payouts, shared among their unread pots in proportion to size."""
    best: int | None = None
    for p in winners_of[k]:
        t = targets[p]
        if t is None:
            continue
        gross_unread = 0
        size_unread = 0
        for j in pots_of[p]:
            if rakes[j] >= 0:
                t -= share_of(pots[j], p, pots[j].amount - rakes[j])
            else:
                gross_unread += share_of(pots[j], p, pots[j].amount)
                size_unread += pots[j].amount
        short = gross_unread - t  # how much p's unread pots must fall short, in all
        share = share_of(pots[k], p, pots[k].amount)
        if share <= 0 or size_unread <= 0:
            continue
        # p's part of pot k's rake r is about r * share / A; the pots' rakes are in proportion
        # to size, so p's fall from its unread pots is about rate * gross_unread: rate = short / gross_unread
        guess = short * pots[k].amount // gross_unread if gross_unread else 0
        best = guess if best is None else min(best, guess)
    return best or 0


def _rakes_giving(pot: Pot, player: int, target: int, top: int) -> list[int]:
    """The rakes ``r`` in ``[0, top]`` after which ``player``'s share of ``pot`` is ``target``;
    when there are none, the one nearest to it (0 or ``top``, or where the share steps over).
    The share never rises as the rake does, so two bisections find the range."""
    amount = pot.amount
    if len(pot.order) == 1 and len(pot.order[0][1]) == 1:  # one winner takes it all: r = A - t
        r = amount - target
        return [min(max(r, 0), top)]
    # smallest r with share <= target
    lo, hi = 0, top + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if share_of(pot, player, amount - mid) <= target:
            hi = mid
        else:
            lo = mid + 1
    first = lo
    # largest r with share >= target
    lo, hi = -1, top
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if share_of(pot, player, amount - mid) >= target:
            lo = mid
        else:
            hi = mid - 1
    last = lo
    if first <= last:
        return list(range(first, last + 1))
    return [min(max(first, 0), top)]
