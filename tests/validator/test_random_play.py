"""Property tests: random legal play, chosen from the engine's own legal-move ranges, always
replays as valid and complete; removing one action from such a hand always yields a finding."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handaudit.core.cards import cards_text
from handaudit.core.hand import Hand
from handaudit.core.variants import FIXED, OPEN_BRING_IN, VARIANTS
from handaudit.grammar.actions import parse_action
from handaudit.rules.rulebook import load_rulebook
from handaudit.validator import replay
from handaudit.validator.engine import BET, DEAL, DRAW, OVER, SHOWDOWN, _Engine
from handaudit.validator.phases import NO_RAISE

BOOK = load_rulebook("roberts-v11")


def _hand(variant: str, stacks: list[int], actions=()) -> Hand:
    v = VARIANTS[variant]
    n = len(stacks)
    fixed = v.structure == FIXED
    parsed = tuple(parse_action(a).action for a in actions)
    return Hand(
        source="<random>", hand_key="", variant=variant, players=n, scale=0,
        antes=(1,) * n if not v.button_game else (0,) * n,
        blinds_or_straddles=(0,) * n if not v.button_game else (1, 2) + (0,) * (n - 2),
        bring_in=1 if not v.button_game else None,
        small_bet=2 if fixed else None, big_bet=4 if fixed else None, min_bet=None if fixed else 2,
        starting_stacks=tuple(stacks), actions=parsed, action_texts=tuple(actions),
    )


def _next_move(e: _Engine, rng: random.Random, deck: list[int]) -> str | None:
    """One legal action for the engine's current state, as PHH text."""
    if e.phase == OVER:
        return None
    if e.phase == DEAL:
        if e.pending_hole:
            i = (e.pending_hole & -e.pending_hole).bit_length() - 1  # the lowest player still due
            return f"d dh p{i + 1} " + cards_text([deck.pop() for _ in range(e.hole_due[i])])
        return "d db " + cards_text([deck.pop() for _ in range(e.pending_board)])
    if e.phase == DRAW:
        if e.to_discard:
            i = e.to_discard[0]
            k = rng.randint(0, min(len(e.hole[i]), 3))
            return f"p{i + 1} sd " + cards_text(rng.sample(e.hole[i], k)) if k else f"p{i + 1} sd"
        i = min(e.to_draw)
        return f"d dh p{i + 1} " + cards_text([deck.pop() for _ in range(e.to_draw[i])])
    if e.phase == SHOWDOWN:
        i = e.first_to_show()[0] if not e.show_order else next(j for j in e.live() if e.shown[j] is None)
        return f"p{i + 1} sm " + cards_text(e.hole[i])
    assert e.phase == BET
    i = e.next_to_act()
    if e.v.streets[e.street].opener == OPEN_BRING_IN and e._is_bring_in_time() and i == e.bring_in_player \
            and rng.random() < 0.7:
        return f"p{i + 1} pb"
    to_call = max(0, e.level - e.bet[i])
    lo, hi = e._raise_range(i)
    options = [f"p{i + 1} cc"]
    if to_call:
        options.append(f"p{i + 1} f")
    if lo != NO_RAISE and e.active & ~(1 << i):  # a raise needs an opponent with chips (raise-not-callable)
        options += [f"p{i + 1} cbr {lo}", f"p{i + 1} cbr {hi}", f"p{i + 1} cbr {rng.randint(lo, hi)}"]
    return rng.choice(options)


def _play(variant: str, stacks: list[int], seed: int) -> list[str]:
    rng = random.Random(seed)
    deck = [c for c in VARIANTS[variant].deck]
    rng.shuffle(deck)
    e = _Engine(_hand(variant, stacks), BOOK)
    e.start()
    actions: list[str] = []
    for _ in range(400):
        text = _next_move(e, rng, deck)
        if text is None:
            break
        actions.append(text)
        e.step(len(actions) - 1, parse_action(text).action)
    return actions


# triple draws deal up to 4 x 5 cards a player: at most four players keep them within one deck
_TRIPLE_DRAW = frozenset(code for code, v in VARIANTS.items() if sum(s.draw for s in v.streets) == 3)
variants = st.sampled_from(sorted(v for v in VARIANTS if v not in _TRIPLE_DRAW) + sorted(_TRIPLE_DRAW))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants, st.lists(st.integers(3, 120), min_size=2, max_size=6), st.integers(0, 10**6))
def test_random_legal_play_replays_valid(variant, stacks, seed):
    if variant in _TRIPLE_DRAW:
        stacks = stacks[:4]  # keep draws within one deck
    actions = _play(variant, stacks, seed)
    rep = replay(_hand(variant, stacks, actions), BOOK)
    assert [f for f in rep.findings if f.severity in ("error", "warning")] == []
    assert rep.complete
    # chips are conserved by the replay: stacks + contributions = starting stacks
    assert sum(rep.contributions) <= sum(stacks)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants, st.lists(st.integers(3, 120), min_size=2, max_size=6), st.integers(0, 10**6), st.data())
def test_removing_an_action_yields_a_finding(variant, stacks, seed, data):
    if variant in _TRIPLE_DRAW:
        stacks = stacks[:4]
    actions = _play(variant, stacks, seed)
    k = data.draw(st.integers(0, len(actions) - 1))
    shorter = actions[:k] + actions[k + 1:]
    rep = replay(_hand(variant, stacks, shorter), BOOK)
    assert rep.findings, f"removing {actions[k]!r} (index {k}) went unnoticed"
