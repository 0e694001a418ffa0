"""Who opens a stud betting round after third street: the best hand showing (razz: the lowest).

Only up cards count, and with at most four of them straights and flushes do not: the order is
by pairs, trips and quads, then by high cards (Robert's Rules v11, Seven-Card Stud rule 2; Razz).
"""

from __future__ import annotations

from ..cards import UNKNOWN, rank


def showing_order_key(ups: list[int], low: bool) -> tuple[int, ...]:
    """A key where greater means "acts first". Unknown up cards rank lowest."""
    counts = [0] * 13  # per rank; razz: ace-low ranks (ace 0, deuce 1, ... king 12)
    known = False
    for c in ups:
        if c != UNKNOWN:
            r = rank(c)
            counts[(0 if r == 12 else r + 1) if low else r] += 1
            known = True
    if not known:
        return (-1,)
    # (count, rank) groups, largest first: pairs, trips and quads before single cards
    groups = sorted([(cnt, r) for r, cnt in enumerate(counts) if cnt], reverse=True)
    if low:
        # Razz: the lowest hand acts first: unpaired beats paired, then the highest card lowest.
        return tuple([-x for g in groups for x in g])
    return tuple([x for g in groups for x in g])
