"""The ledger of ``handaudit settle`` (the side-pots-and-return example's worked example), and properties of settling
random hands: nothing created or lost, finishing stacks add up, never an exception."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.core.cards import FULL_DECK, SHORT_DECK, UNKNOWN
from handaudit.core.cards import cards_from_text as C
from handaudit.core.hand import Hand
from handaudit.reports.ledger import render_ledger
from handaudit.settlement import settle
from handaudit.reports.contract import settlement_members
from handaudit.validator.outcome import K_DEAL_BOARD, ActionRecord, Replay

from helpers import settlement_rulebook

RB = settlement_rulebook()


def side_pots_and_return(winnings=(150, 140, 0), finishing=(150, 140, 180)):
    """The side-pots-and-return example: A 50, B 120, C 200 all in (C covers); board Kc Jd 9s 5h 2c;
    A KhKd (trip kings), B JcJh (trip jacks), C 9c9d (trip nines)."""
    hand = Hand(source="side-pots-and-return", hand_key="", variant="NT", players=3, scale=0, antes=(0, 0, 0),
                blinds_or_straddles=(0, 0, 0), bring_in=None, small_bet=None, big_bet=None, min_bet=2,
                starting_stacks=(50, 120, 300), actions=(), action_texts=(), winnings=winnings,
                finishing_stacks=finishing)
    replay = Replay(findings=(), records=(), complete=True, contributions=(50, 120, 200), dead=(0, 0, 0),
                    folded=(False,) * 3, all_in=(True, True, False),
                    hole=(C("KhKd"), C("JcJh"), C("9c9d")), up=((False, False),) * 3,
                    board=C("KcJd9s5h2c"), shown=(True, True, True), showdown=True,
                    order_at_showdown=(0, 1, 2))
    return hand, replay


def test_side_pots_and_return_settlement_values():
    hand, replay = side_pots_and_return()
    s = settle(hand, replay, RB)
    assert s.determined
    assert s.returned == (0, 0, 80)
    assert [(p.amount, p.eligible) for p in s.pots] == [(150, (0, 1, 2)), (140, (1, 2))]
    assert [(a.player, a.amount, a.share) for a in s.pots[0].awards] == [(0, 150, "whole")]
    assert [(a.player, a.amount, a.share) for a in s.pots[1].awards] == [(1, 140, "whole")]
    assert s.received == s.winnings == (150, 140, 0)
    received_total = [w + r for w, r in zip(s.received, s.returned, strict=True)]
    assert received_total == [150, 140, 80] and sum(received_total) == 370
    assert [got - put for got, put in zip(received_total, s.contributions, strict=True)] == [100, 20, -120]
    assert s.finishing_stacks == (150, 140, 180)
    assert s.payout_check == "match" and s.rake == 0 and not s.findings
    assert settlement_members(s, hand) == {
        "settlement": {
            "determined": True,
            "pots": [
                {"amount": 150, "eligible": [1, 2, 3], "awards": [{"player": 1, "amount": 150, "share": "whole"}],
                 "rake": 0},
                {"amount": 140, "eligible": [2, 3], "awards": [{"player": 2, "amount": 140, "share": "whole"}],
                 "rake": 0},
            ],
            "returned": [0, 0, 80],
            "winnings": [150, 140, 0],
            "finishing_stacks": [150, 140, 180],
        },
        "payout_check": "match",
        "rake": 0,
        "rake_check": "explained",
    }


def test_side_pots_and_return_ledger_text():
    hand, replay = side_pots_and_return()
    text = render_ledger(hand, replay, settle(hand, replay, RB))
    # contributions, the return, both pots with who is eligible and why, received and net
    assert "p3 gets back 80 of 200 put in" in text
    assert "Main pot: 150 = p1 50 + p2 50 + p3 50" in text
    assert "Side pot 1: 140 = p2 70 + p3 70" in text
    assert "eligible: p1, p2, p3" in text and "eligible: p2, p3" in text
    assert "-> p1 wins 150: three of a kind, kings" in text
    assert "-> p2 wins 140: three of a kind, jacks" in text
    assert "p3 high: three of a kind, nines" in text or "three of a kind, nines" in text
    rows = {line.split()[0]: line.split() for line in text.splitlines()
            if line.startswith("  p") and len(line.split()) == 7}
    assert rows["p1"][1:6] == ["50", "0", "150", "150", "+100"]
    assert rows["p2"][1:6] == ["120", "0", "140", "140", "+20"]
    assert rows["p3"][1:6] == ["200", "80", "0", "80", "-120"]
    assert "put in 370 = in pots 290 + returned 80" in text
    assert "net changes add up to 0: no chip created or lost" in text
    assert "payout check: match" in text


def test_ledger_names_the_mismatch_and_undetermined_reason():
    hand, replay = side_pots_and_return(winnings=(150, 150, 0), finishing=None)
    text = render_ledger(hand, replay, settle(hand, replay, RB))
    assert "payout check: mismatch" in text and "p2: recorded winnings 150, settlement 140 (10 more)" in text
    hand, replay = side_pots_and_return()
    replay = replay.replace(hole=(C("KhKd"), C("????"), C("9c9d")))
    text = render_ledger(hand, replay, settle(hand, replay, RB))
    assert "hand unknown for p2" in text and "?" in text


def test_ledger_in_cents():
    hand = Hand(source="t", hand_key="7", variant="NT", players=2, scale=2, antes=(0, 0),
                blinds_or_straddles=(0, 0), bring_in=None, small_bet=None, big_bet=None, min_bet=1,
                starting_stacks=(1000, 1000), actions=(), action_texts=(), winnings=(0, 185))
    flop = (ActionRecord(0, "flop", "d", K_DEAL_BOARD),)  # p1 folds on the flop: the hand pays rake
    replay = Replay(findings=(), records=flop, complete=True, contributions=(100, 300), dead=(0, 0),
                    folded=(True, False), all_in=(False, False), hole=((), ()), up=((), ()), board=(),
                    shown=(None, None), showdown=False)
    text = render_ledger(hand, replay, settle(hand, replay, RB))
    assert "p2 gets back 2.00 of 3.00 put in" in text and "Main pot: 2.00" in text
    assert "payout check: match; rake 0.15" in text


# --- properties --------------------------------------------------------------------------------

VARIANT_CARDS = {  # variant: (hole cards, board cards, deck)
    "NT": (2, 5, FULL_DECK), "FT": (2, 5, FULL_DECK), "NS": (2, 5, SHORT_DECK), "PO": (4, 5, FULL_DECK),
    "FO/8": (4, 5, FULL_DECK), "F7S": (7, 0, FULL_DECK), "F7S/8": (7, 0, FULL_DECK),
    "FR": (7, 0, FULL_DECK), "N2L1D": (5, 0, FULL_DECK), "F2L3D": (5, 0, FULL_DECK), "FB": (4, 0, FULL_DECK),
}


@st.composite
def random_hands(draw, always_complete=False):
    variant = draw(st.sampled_from(sorted(VARIANT_CARDS)))
    n_hole, n_board, deck = VARIANT_CARDS[variant]
    n = draw(st.integers(2, 7 if n_hole == 7 else 9))
    contributions = draw(st.lists(st.integers(0, 400), min_size=n, max_size=n))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[draw(st.integers(0, n - 1))] = False
    ante = draw(st.sampled_from([0, 0, 1, 5]))
    antes = [ante] * n if draw(st.booleans()) else [0] * (n - 1) + [ante]
    dead = [min(c, a) + (draw(st.integers(0, 3)) if draw(st.booleans()) else 0)
            for c, a in zip(contributions, antes, strict=True)]
    dead = [min(d, c) for d, c in zip(dead, contributions, strict=True)]
    stacks = [c + draw(st.integers(0, 100)) for c in contributions]
    if draw(st.integers(0, 9)) == 0:
        stacks[0] = None
    rng = random.Random(draw(st.integers(0, 2**32)))
    cards = rng.sample(sorted(deck), n * n_hole + n_board)
    hole = [tuple(cards[i * n_hole:(i + 1) * n_hole]) for i in range(n)]
    if draw(st.integers(0, 4)) == 0:
        k = draw(st.integers(0, n - 1))
        hole[k] = (UNKNOWN,) * n_hole
    board = tuple(cards[n * n_hole:])
    live = [i for i in range(n) if not folded[i]]
    showdown = len(live) >= 2
    shown = [None] * n
    if showdown:
        for i in live:
            shown[i] = draw(st.sampled_from([True, True, True, False, None]))
    complete = always_complete or draw(st.integers(0, 9)) > 0
    winnings = draw(st.one_of(st.none(), st.lists(st.integers(0, 800), min_size=n, max_size=n)))
    hand = Hand(source="prop", hand_key="", variant=variant, players=n, scale=draw(st.sampled_from([0, 2])),
                antes=tuple(antes), blinds_or_straddles=(0,) * n, bring_in=None, small_bet=None, big_bet=None,
                min_bet=1, starting_stacks=tuple(stacks), actions=(), action_texts=(),
                ante_trimming_status=draw(st.booleans()), winnings=None if winnings is None else tuple(winnings))
    replay = Replay(findings=(), records=(), complete=complete, contributions=tuple(contributions),
                    dead=tuple(dead), folded=tuple(folded), all_in=(False,) * n, hole=tuple(hole),
                    up=tuple((False,) * n_hole for _ in range(n)), board=board, shown=tuple(shown),
                    showdown=showdown)
    return hand, replay


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_hands())
def test_nothing_created_or_lost(case):
    hand, replay = case
    s = settle(hand, replay, RB)
    total = sum(replay.contributions)
    assert sum(p.amount for p in s.pots) + sum(s.returned) == total
    assert all(r >= 0 for r in s.returned) and all(p.amount > 0 for p in s.pots)
    for pot in s.pots:
        assert all(a.player in pot.eligible for a in pot.awards)
        assert all(not replay.folded[i] for i in pot.eligible)
        if pot.awards:
            assert sum(a.amount for a in pot.awards) == pot.amount
            # no player gets more than one odd chip: shares of one half differ by at most 1
            for share in ("whole", "high", "low"):
                amounts = [a.amount for a in pot.awards if a.share == share]
                if amounts:
                    assert max(amounts) - min(amounts) <= 1
    if s.determined:
        assert sum(s.received) + sum(s.returned) == total
        if all(x is not None for x in hand.starting_stacks):
            assert sum(s.finishing_stacks) == sum(hand.starting_stacks)
    else:
        assert s.received is None and s.finishing_stacks is None
    assert s.payout_check in ("match", "mismatch", "not-recorded", "undetermined")
    json.dumps(settlement_members(s, hand), default=str)
    text = render_ledger(hand, replay, s)
    assert ("no chip created or lost" in text) == s.determined


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_hands(always_complete=True))
def test_recorded_as_settled_is_a_match(case):
    """Writing the settlement's own winnings and stacks into the file always matches."""
    hand, replay = case
    s = settle(hand, replay, RB)
    if not s.determined:
        return
    fields = {f: getattr(hand, f) for f in Hand.__slots__}
    fields["winnings"] = s.received
    fields["finishing_stacks"] = None if None in s.finishing_stacks else s.finishing_stacks
    recorded = Hand(**fields)
    again = settle(recorded, replay, RB)
    assert again.payout_check == "match", again.findings
    assert again.rake == 0 and not again.findings


def test_amounts_read_in_groups_of_three():
    from handaudit.core.amounts import grouped_amount

    assert [grouped_amount(a, s) for a, s in [(23025000, 0), (2302500000, 2), (-123456, 2), (999, 0), (5, 3)]] == [
        "23,025,000", "23,025,000.00", "-1,234.56", "999", "0.005"]


def test_settle_and_explain_print_thousands_separators(tmp_path, cli):
    hand = tmp_path / "big.phh"
    hand.write_text("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [100000, 200000, 0]\nmin_bet = 200000\n"
                    "starting_stacks = [13050000, 9525000, 6675000]\n"
                    "actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 2500000', 'p1 f', 'p2 f']\n")
    settled = cli("settle", str(hand), text=True)
    assert "13,050,000" in settled.stdout and "2,300,000" in settled.stdout  # p3's uncalled return
    explained = cli("explain", str(hand), text=True)
    assert "2,500,000" in explained.stdout
