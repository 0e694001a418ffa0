"""Who opens a stud betting round after third street: the best hand showing (razz: the lowest).

Only up cards count, and with at most four of them straights and flushes do not: the order is
by category first (four of a kind, three of a kind, two pair, one pair, high cards), then by
the ranks (Robert's Rules v11, Seven-Card Stud rule 2; Razz).
"""

from __future__ import annotations

from ..core.cards import UNKNOWN, rank


def showing_order_key(ups: list[int], low: bool) -> tuple[int, ...]:
    """A key where greater means "acts first". Unknown up cards rank lowest."""
    counts = [0] * 13  # per rank; razz: ace-low ranks (ace 0, deuce 1, ... king 12)
    known = False
    for c in ups:
        if c != UNKNOWN:
            r = rank(c)
            k = (0 if r == 12 else r + 1) if low else r
            counts[k] = counts[k] + 1  # not `+= 1`: compiled, that is a generic add on a boxed item
            known = True
    if not known:
        return (-1,)
    # (count, rank) groups, largest first: pairs, trips and quads before single cards. Read off
    # the counts from the largest count and rank down: the order sorting the pairs would give,
    # without building and comparing a tuple per group (a third of a stud replay's cost).
    top = 0
    for cnt in counts:
        if cnt > top:
            top = cnt
    pairs = 0
    for cnt in counts:
        if cnt == 2:
            pairs = pairs + 1
    # the category: quads 4, trips 3, two pair 2, one pair 1, high cards 0 (with at most four up
    # cards there is no full house); razz: the lower category is the better (lower) hand.
    category = 4 if top >= 4 else 3 if top == 3 else 2 if pairs >= 2 else 1 if pairs == 1 else 0
    key: list[int] = [-category if low else category]
    for cnt in range(top, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == cnt:
                # razz: the lowest hand acts first: unpaired beats paired, then the highest card lowest
                key.append(-cnt if low else cnt)
                key.append(-r if low else r)
    return tuple(key)
