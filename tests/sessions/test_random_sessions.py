"""Hypothesis: random table sessions with planted carry-over faults, top-ups (recorded or not),
button skips and missed blinds give exactly the planted findings and no other."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from handaudit.rules.rulebook import load_rulebook
from handaudit.sessions.checks import Checker, Session
from handaudit.sessions.record import TOP_UP, HandRecord, TableEvent

BOOKS = {b: load_rulebook(b, []) for b in ("roberts-v11", "house")}
SB, BB = 1, 2


def _order(seats, button):
    return sorted(seats, key=lambda s: (s <= button, s))


@st.composite
def sessions(draw):
    """A table of 3 to 6 seats; every hand folds to the big blind. Each transition gets at most
    one plant: a lost stack, a top-up recorded or not, or the button moved two seats; one
    player may sit out while the blinds pass and come back posting or not."""
    n = draw(st.integers(3, 6))
    seats = list(range(1, n + 1))
    names = {s: f"P{s}" for s in seats}
    stacks = {s: 200 for s in seats}
    hands_n = draw(st.integers(3, 10))
    away = None  # (seat, first hand away, hand back, posts)
    if n >= 4 and hands_n >= n + 2 and draw(st.booleans()):
        seat = draw(st.sampled_from(seats))
        away = (seat, 1, 1 + n, draw(st.booleans()))
    planted = set()
    records = []
    button = max(seats)
    for k in range(hands_n):
        here = [s for s in seats if not (away and away[1] <= k < away[2] and s == away[0])]
        plant = draw(st.sampled_from(["none", "lose", "topup", "unrecorded", "skip"])) if k else "none"
        back = away is not None and k == away[2]
        if back:
            plant = "none"  # the return is the plant of this hand
        if k:
            step = _order(here, button)
            button = step[1] if plant == "skip" and len(here) > 3 else step[0]
            if plant == "skip" and len(here) <= 3:
                plant = "none"
        order = _order(here, button)
        starts = {s: stacks[s] for s in order}
        events = []
        who = draw(st.sampled_from(order))
        if plant == "lose":
            starts[who] -= 7
            planted.add(("stack-not-carried", k, names[who]))
        elif plant == "topup":
            starts[who] += 50
            events.append(TableEvent(TOP_UP, names[who], 50))
        elif plant == "unrecorded":
            starts[who] += 50
            planted.add(("stack-added-unrecorded", k, names[who]))
        elif plant == "skip":
            planted.add(("BUTTON", k, None))
        blinds = [SB, BB] + [0] * (len(order) - 2)
        if back:
            i = order.index(away[0])
            if i >= 2 and away[3]:
                blinds[i] = -(BB + SB)
            if i != 1 and not (i >= 2 and away[3]):
                planted.add(("missed-blind-not-posted", k, names[away[0]]))
        finish = dict(starts)
        finish[order[0]] -= SB
        finish[order[1]] += SB
        for i, b in enumerate(blinds[2:], 2):
            finish[order[i]] += b  # (a dead post, negative, goes to the big blind)
            finish[order[1]] -= b
        stacks.update(finish)
        records.append(HandRecord("s.phhs", k, hand=str(1000 + 3 * k), venue="V", table="T", when=k * 60_000_000,
                                  seats=order, names=[names[s] for s in order], starts=[starts[s] for s in order],
                                  finishes=[finish[s] for s in order], blinds=blinds, events=events))
    return records, planted, away


@settings(max_examples=150, deadline=None)
@given(sessions())
def test_planted_findings_exactly(case):
    records, planted, away = case
    for name, book in BOOKS.items():
        if book.button_rule == "dead-button" and away is not None:
            continue  # the generator deals a moving button: past an empty seat the big blind moves two
        s = Session("x", "first", records)
        Checker(book).check(s)
        button_code = "button-out-of-order" if book.button_rule == "moving-button" else "big-blind-out-of-order"
        expected = set()
        for code, k, who in planted:
            if code == "BUTTON":
                if book.button_rule == "moving-button":
                    expected.add((button_code, k, None))
                continue
            expected.add((code, k, who))
        got = {(f.code, f.hand.hand_index, f.player) for f in s.findings}
        if book.button_rule == "dead-button":
            # the moving button the generator deals moves the big blind two seats at a skip
            # (a big-blind finding there), and past a player who sits out or comes back
            got = {g for g in got if g[0] != "big-blind-out-of-order"}
            expected = {e for e in expected if e[0] != "big-blind-out-of-order"}
        assert got == expected, (name, [(r.hand_index, r.seats, r.starts) for r in records], away)


SEAT = {("A", "x"): 1, ("A", "y"): 2, ("A", "z"): 3, ("B", "u"): 1, ("B", "v"): 2, ("B", "x"): 3}


def _hand(k, table, names, starts, finishes, when, event="Main", level=1):
    return HandRecord("t.phhs", k, hand=str(500 + k), venue="V", table=table, event=event, when=when, level=level,
                      seats=[SEAT[table, n] for n in names], names=names, starts=starts, finishes=finishes,
                      blinds=[1, 2] + [0] * (len(names) - 2))


def test_a_tournament_player_moved_to_another_table_keeps_the_stack():
    from handaudit.sessions.keying import split_sessions

    a = [_hand(0, "A", ["x", "y", "z"], [100, 100, 100], [99, 101, 100], 0),
         _hand(1, "A", ["y", "z", "x"], [101, 100, 99], [100, 102, 99], 60_000_000)]
    b = [_hand(2, "B", ["u", "v", "x"], [300, 300, 90], [299, 301, 90], 120_000_000),  # x moved: 99 -> 90
         _hand(3, "B", ["v", "x", "u"], [301, 90, 299], [300, 91, 299], 180_000_000)]
    checker = Checker(BOOKS["roberts-v11"])
    sessions = [Session(f"s{t}", began, hands) for t, hands in enumerate((a, b))
                for began, hands in split_sessions(hands)]
    for s in sessions:
        checker.check(s)
    checker.moves(sessions)
    found = [(f.code, f.hand.hand, f.earlier.hand, f.player) for s in sessions for f in s.findings]
    assert found == [("stack-not-carried", "502", "501", "x")]
    assert "moves from table A" in sessions[1].findings[0].message
    b[0].starts[2] = 99  # carried over: nothing
    for s in sessions:
        s.findings.clear()
    checker.moves(sessions)
    assert [f for s in sessions for f in s.findings] == []


def test_recorded_top_up_over_the_table_maximum():
    r0 = HandRecord("s", 0, hand="1", table="T", names=["a", "b", "c"], seats=[1, 2, 3], starts=[100, 100, 100],
                    finishes=[99, 101, 100], blinds=[1, 2, 0])
    r1 = HandRecord("s", 1, hand="2", table="T", names=["b", "c", "a"], seats=[2, 3, 1], starts=[101, 100, 249],
                    finishes=[100, 102, 249], blinds=[1, 2, 0], events=[TableEvent(TOP_UP, "a", 150)],
                    max_buy_in=200)
    s = Session("x", "first", [r0, r1])
    Checker(BOOKS["house"]).check(s)
    assert [(f.code, f.player) for f in s.findings] == [("top-up-over-limit", "a")]
    r1.max_buy_in = 250
    s = Session("x", "first", [r0, r1])
    Checker(BOOKS["house"]).check(s)
    assert s.findings == []
