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


def write_samples(where) -> None:
    """samples/sessions/*.phhs, one table each (``python -c "import build; build.write_samples(...)"``)."""
    from pathlib import Path

    names = {1: "ann", 2: "bob", 3: "cat", 4: "dan"}
    stacks = {1: 200, 2: 200, 3: 200, 4: 200}
    head = "# A session for the cross-hand pass (handaudit check --out DIR --sessions).\n\n"
    three, four = [1, 2, 3], [1, 2, 3, 4]
    cases = {
        "stack-not-carried": ("'ann' (seat 1) starts hand 103 with 10 chips fewer than she finished hand 102 with.",
                              [{}, {}, {"starts": {1: 189}}], three, {}),
        "stack-added-unrecorded": ("'bob' starts hand 103 with 50 more than he finished hand 102 with; no top-up is "
                                   "recorded.", [{}, {}, {"starts": {2: 250}}], three, {}),
        "hand-number-gap": ("An Ongame table numbers its hands one by one: hand R5-7-103 is missing.",
                            [{"number": "R5-7-101"}, {"number": "R5-7-102"}, {"number": "R5-7-104"}], three,
                            {"venue": "Ongame Network"}),
        "seat-changed": ("'cat' moves from seat 3 to seat 4 between hands 102 and 103 without leaving and joining.",
                         [{}, {}, {"move": (3, 4)}], three, {}),
        "button-out-of-order": ("Under the moving-button rule (house book) the button goes back from seat 1 to seat 4 "
                                "in hand 103 (seat 2 is next).", [{}, {}, {"button": 4}], four, {}),
        "big-blind-out-of-order": ("Under the dead-button rule the big blind stays at seat 3 in hand 103 (seat 4 is "
                                   "next) although the stacks carry over.", [{}, {}, {"button": 1}], four, {}),
        "new-player-not-posted": ("'dan' joins at seat 4 at hand 104 and is dealt in on the small blind without "
                                  "posting the big blind or waiting for it.",
                                  [{"seats": three}, {"seats": three}, {"seats": three}, {"seats": four}], three, {}),
        "blinds-went-down": ("A tournament table's level falls from 5 to 4 between hands 102 and 103.",
                             [{"level": 5}, {"level": 5}, {"level": 4}], three, {"event": "Main Event"}),
        "missed-blind-not-posted": ("'dan' (seat 4) sits out hands 102 to 104 while the big blind passes his seat, "
                                    "and is dealt in on the button at hand 105 without posting (Robert's Rules: both "
                                    "blinds, or wait for the big blind).",
                                    [{}, {"seats": three}, {"seats": three}, {"seats": three}, {}], four, {}),
    }
    for code, (comment, plan, seats, kw) in cases.items():
        text = session(plan, seats, names, stacks, table=code, **kw)
        Path(where, f"{code}.phhs").write_text(f"# {comment}\n{head}{text}")
    full = session([{"number": 1000 + 7 * k} for k in range(5)], four, names, stacks, table="hand-missing")
    parts = full.split("\n\n")
    text = "\n".join([parts[0], parts[1], parts[3], parts[4]]).replace("[4]\n", "[3]\n").replace("[5]\n", "[4]\n")
    Path(where, "hand-missing.phhs").write_text("# Hand 1014 was removed (the site numbers hands across tables): "
                                                "the big blind moved two seats and the stacks do not carry over.\n"
                                                + head + text)
