"""Small PHH sessions for the cross-hand tests: three to six players who fold to the big blind."""

from __future__ import annotations


def rotate(seats: list[int], button: int) -> list[int]:
    """The seats in PHH order for a button at ``button``: from the first seat after it."""
    return sorted(seats, key=lambda s: (s <= button, s))


def fold_hand(key: str, number: int | str, order: list[int], names: dict[int, str], starts: dict[int, int], *,
              table: str = "T1", venue: str = "Club", extra: dict[int, int] | None = None, event: str | None = None,
              level: int | None = None, minute: int = 0, sb: int = 1, bb: int = 2) -> tuple[str, dict[int, int]]:
    """One hand: everyone folds to the big blind. ``order``: seats in PHH order; ``extra``: a
    post by a seat outside the blinds (written negative, dead). The text and the finishing stacks."""
    extra = extra or {}
    n = len(order)
    blinds = [sb, bb] + [0] * (n - 2)
    for i, seat in enumerate(order):
        if seat in extra:
            blinds[i] = -extra[seat]
    finish = {s: starts[s] for s in order}
    finish[order[0]] -= sb
    finish[order[1]] += sb
    for seat, amount in extra.items():
        finish[seat] -= amount
        finish[order[1]] += amount
    acts = [f"d dh p{i + 1} ????" for i in range(n)]
    acts += [f"p{i + 1} f" for i in range(2, n)] + ["p1 f"]
    lines = [f"[{key}]", "variant = 'NT'", f"antes = {[0] * n}", f"blinds_or_straddles = {blinds}",
             f"min_bet = {bb}", f"starting_stacks = {[starts[s] for s in order]}", f"actions = {acts}",
             f"venue = '{venue}'", f"table = '{table}'", f"hand = {number if isinstance(number, int) else repr(number)}",
             f"seats = {order}", f"players = {[names[s] for s in order]}",
             f"finishing_stacks = {[finish[s] for s in order]}", "year = 2026", "month = 1", "day = 5",
             f"time = {(minute // 60) % 24:02d}:{minute % 60:02d}:00"]
    if event:
        lines.append(f"event = '{event}'")
    if level is not None:
        lines.append(f"level = {level}")
    return "\n".join(lines) + "\n", finish


def session(plan: list[dict], seats: list[int], names: dict[int, str], stacks: dict[int, int], **kw) -> str:
    """Hands one after another (the button moving one seat with a player each hand unless a step
    says ``button``); each step may set ``starts`` (seat -> stack), ``seats``, ``extra``,
    ``number``, ``button``, ``level``, ``move`` (a player's seat change: (from, to))."""
    text = []
    button = max(seats)
    stacks = dict(stacks)
    names = dict(names)
    count = 100
    for k, step in enumerate(plan):
        if "move" in step:  # a player moves seats, with their stack
            a, b = step["move"]
            names[b], stacks[b] = names.pop(a), stacks.pop(a)
            seats = sorted(b if s == a else s for s in seats)
        here = step.get("seats", seats)
        if k:
            button = step.get("button", rotate(here, button)[0])
        count += 1
        number = step.get("number", count)
        starts = {s: stacks.get(s, 200) for s in here}
        starts.update(step.get("starts", {}))
        hand, finish = fold_hand(str(k + 1), number, rotate(here, button), names, starts, extra=step.get("extra"),
                                 level=step.get("level"), minute=k, **kw)
        stacks.update(finish)
        text.append(hand)
    return "\n".join(text)
