"""Who opens a stud betting round after third street: the best hand showing (razz: the lowest).

Only up cards count, and with at most four of them straights and flushes do not: the order is
by pairs, trips and quads, then by high cards (Robert's Rules v11, Seven-Card Stud rule 2; Razz).
"""

from __future__ import annotations

from collections import Counter

from ..cards import UNKNOWN, rank


def showing_order_key(ups: list[int], low: bool) -> tuple[int, ...]:
    """A key where greater means "acts first". Unknown up cards rank lowest."""
    known = [c for c in ups if c != UNKNOWN]
    if not known:
        return (-1,)
    if low:
        # Razz: ace low; the lowest hand acts first: unpaired beats paired, then the highest
        # card lowest.
        ranks = [0 if rank(c) == 12 else rank(c) + 1 for c in known]
        counts = Counter(ranks)
        groups = sorted(((cnt, r) for r, cnt in counts.items()), reverse=True)
        return tuple(-x for g in groups for x in g)
    counts = Counter(rank(c) for c in known)
    groups = sorted(((cnt, r) for r, cnt in counts.items()), reverse=True)
    return tuple(x for g in groups for x in g)
