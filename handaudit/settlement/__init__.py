"""Settle a replayed hand to the chip and check the payouts the file records.

``settle(hand, replay, rulebook) -> Settlement``: returns of uncalled bets, the main pot and
side pots with their eligible players (:mod:`.pots`), who wins each and how split pots and odd
chips are divided (:mod:`.showdown`), chips received and finishing stacks, and the comparison
with the recorded ``winnings`` / ``finishing_stacks`` (:mod:`.payouts`). :mod:`.ledger` prints
it all as a ledger a person can check by hand (``handaudit settle``).

The rulebook is a loaded :class:`~handaudit.rules.rulebook.Rulebook` (tests build one with
``load_rulebook`` or ``dataclasses.replace``, never a stand-in). Its parameters read here:
``odd_chip_stud`` (``all-cards`` | ``hand-cards``), ``odd_chip_button``,
``short_deck_trips_beat_straight``, and the rake model's (:mod:`.rake`): ``rake_percent``,
``rake_cap``, ``rake_cap_scope``, ``no_flop_no_drop``, ``rake_rounding``, ``jackpot_drop``,
``rake_limit_percent``, ``rake_rounding_units``; and ``cite(code)`` and ``sources`` for the rule
text of findings and of odd-chip awards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, TypeVar

from ..core.hand import Hand
from ..core.value import Value
from ..core.variants import VARIANTS, Variant
from ..findings.finding import Finding
from ..rules.rulebook import Rulebook
from .payouts import (
    EXACT,
    EXPLAINED,
    MATCH,
    MISMATCH,
    NOT_RECORDED,
    UNDETERMINED,
    UNEXPLAINED,
    PayoutCheck,
    RULE_PAYOUT,
    check_payouts,
)
from .pots import (
    ante_trim_returns,
    build_pots,
    effective_antes,
    nonzero,
    split_dead,
    trims_antes,
)
from .rake import ended_in_first_round, structure_set
from .site_totals import (
    ANTES_LAYERED,
    BOARDS,
    COLLECTED,
    RAKE,
    TOTAL,
    interleave_runs,
    run_boards,
    site_findings,
    split_runs,
    stated_rakes,
)
from .showdown import HIGH, LOW, WHOLE, Award, Pot, award_pots

__all__ = [
    "EXACT",
    "EXPLAINED",
    "HIGH",
    "LOW",
    "MATCH",
    "MISMATCH",
    "NOT_RECORDED",
    "UNDETERMINED",
    "UNEXPLAINED",
    "WHOLE",
    "Award",
    "Pot",
    "Settlement",
    "settle",
]

if TYPE_CHECKING:
    from ..validator.outcome import Replay

T = TypeVar("T")


_SETTLEMENT_FIELDS: Final = ("determined", "pots", "contributions", "returned", "received", "finishing_stacks",
                             "payout_check", "rake", "findings", "convention", "pot_rakes", "rake_check")


class Settlement(Value):
    """A settled hand. Per-player tuples in PHH order, players 0-based, amounts in minor units.

    ``determined``: winners could be computed for every pot (False: hidden cards at showdown or
    an incomplete history; pots and returns are still exact). ``returned``: uncalled chips given
    back. ``received``: chips from pots (returns excluded), None when not determined.
    ``finishing_stacks``: computed, None when not determined (an entry is None for an ``inf``
    starting stack). ``payout_check``: ``match`` | ``mismatch`` | ``not-recorded`` |
    ``undetermined``. ``rake``: pot total minus the recorded winnings (under the convention the
    file uses, see ``convention``: ``net``, ``gross``, ``zeros`` or None), None when the file
    records no (real) winnings (with finishing stacks only: the rake the stacks show, when the
    rake model explains them). ``pot_rakes``: the rake model's rake of each pot (the rulebook's
    structure, or with none set the rake per pot that explains the recorded payouts), None when
    unknown. ``rake_check``: the model's verdict, ``exact`` (the structure's rake, exactly),
    ``explained`` (a rake per pot within the limit), ``unexplained``, or None (nothing recorded,
    or the winners not determined). See :mod:`.rake`.

    A value (see :class:`~handaudit.core.value.Value`; pickled through its constructor) rather than a
    frozen dataclass, whose constructor runs interpreted even when compiled.
    """

    __slots__ = _SETTLEMENT_FIELDS  # pure Python; compiled, the class is a native (C) layout anyway
    FIELDS: ClassVar[tuple[str, ...]] = _SETTLEMENT_FIELDS

    def __init__(self, determined: bool, pots: tuple[Pot, ...], contributions: tuple[int, ...],
                 returned: tuple[int, ...], received: tuple[int, ...] | None,
                 finishing_stacks: tuple[int | None, ...] | None, payout_check: str, rake: int | None,
                 findings: tuple[Finding, ...], convention: str | None = None,
                 pot_rakes: tuple[int, ...] | None = None, rake_check: str | None = None) -> None:
        self.determined: Final = determined
        self.pots: Final = pots
        self.contributions: Final = contributions
        self.returned: Final = returned
        self.received: Final = received
        self.finishing_stacks: Final = finishing_stacks
        self.payout_check: Final = payout_check
        self.rake: Final = rake
        self.findings: Final = findings
        self.convention: Final = convention
        self.pot_rakes: Final = pot_rakes
        self.rake_check: Final = rake_check

    @property
    def winnings(self) -> tuple[int, ...] | None:
        return self.received

    @property
    def pot_total(self) -> int:
        return sum(p.amount for p in self.pots)


def _fit(values: tuple[T, ...], n: int, fill: T) -> tuple[T, ...]:
    """The engine's per-player tuple, padded or cut to ``n`` (defensive; normally a no-op)."""
    if len(values) == n:
        return values
    values = values[:n]
    return values + (fill,) * (n - len(values))


def settle(hand: Hand, replay: Replay, rulebook: Rulebook) -> Settlement:
    """Settle ``hand`` as replayed. Never raises for a replay the engine produces."""
    contributions = replay.contributions
    n = len(contributions)
    dead = _fit(replay.dead, n, 0)
    folded = _fit(replay.folded, n, False)
    shown = _fit(replay.shown, n, None)
    hole = _fit(replay.hole, n, ())
    variant = VARIANTS.get(hand.variant)
    antes = effective_antes(hand.antes, hand.starting_stacks, contributions,
                            variant is None or variant.button_game)
    trim = trims_antes(hand.ante_trimming_status, hand.antes)
    if hand.fields and ANTES_LAYERED in hand.fields and nonzero(antes):
        # a site's hand: antes are layered into the main and side pots by what each player put in,
        # as any chip (a player all in on a short ante wins that much from each), not all in the
        # first pot (settlement/site_totals.py)
        back, raw = build_pots(contributions, split_dead(dead, antes), folded, (0,) * n, False)
    else:
        back, raw = build_pots(contributions, split_dead(dead, antes), folded, antes, trim)
    runs = run_boards(hand) if hand.fields and BOARDS in hand.fields else []
    if runs and replay.complete and tuple(replay.board) == runs[0][:len(replay.board)]:
        # run twice (or more) on a site: each pot split between the runs, each share awarded on
        # its run's board (settlement/site_totals.py)
        per_run: list[list[Pot]] = []
        determined = True
        for k, shares in enumerate(split_runs(raw, len(runs))):
            run_pots, ok = award_pots(variant, rulebook, replay.complete, replay.showdown, folded, shown, hole,
                                      runs[k], shares)
            per_run.append(run_pots)
            determined = determined and ok
        pots = interleave_runs(per_run)
    else:
        pots, determined = award_pots(variant, rulebook, replay.complete,
                                      replay.showdown, folded, shown, hole, tuple(replay.board), raw)
    received: tuple[int, ...] | None = None
    if determined:
        got = [0] * n
        for pot in pots:
            for a in pot.awards:
                got[a.player] += a.amount
        received = tuple(got)
    returned = tuple(back)
    notes: dict[int, str] | None = None
    if trim:
        trimmed = ante_trim_returns(antes)
        if any(trimmed):
            fmt = hand.format_amount
            notes = {i: f"ante_trimming_status = true returns p{i + 1}'s unmatched ante {fmt(v)}"
                     for i, v in enumerate(trimmed) if v}
    # (read only to rake a hand: when it records a payout, or a structure gives the pots' rake)
    ended_first = False
    if rulebook.no_flop_no_drop and (hand.winnings is not None or hand.finishing_stacks is not None
                                     or structure_set(rulebook)):
        first = variant.streets[0].name if variant is not None and variant.streets else None
        ended_first = ended_in_first_round(replay.records, first)
    # A site log's stated rake (settlement/site_totals.py) makes the payout check exact.
    stated = stated_rakes(hand, pots) if hand.fields and RAKE in hand.fields else None
    c = check_payouts(hand, rulebook, contributions, returned, pots, received, determined, notes, ended_first,
                      stated)
    if c.payout_check == MISMATCH and replay.ruling_index is not None and replay.recorded_contributions is not None:
        c = _payouts_follow_record(hand, replay, rulebook, c, received, antes, trim, variant, notes, ended_first)
    findings = c.findings
    if hand.fields and (TOTAL in hand.fields or COLLECTED in hand.fields):
        findings = findings + tuple(site_findings(hand, pots, returned, received))
    return Settlement(determined, tuple(pots), tuple(contributions), returned, received, c.finishing_stacks,
                      c.payout_check, c.rake, findings, c.convention, c.pot_rakes, c.rake_check)


def _payouts_follow_record(hand: Hand, replay: Replay, rulebook: Rulebook, ruled: PayoutCheck,
                           received: tuple[int, ...] | None, antes: tuple[int, ...], trim: bool,
                           variant: Variant | None, notes: dict[int, str] | None,
                           ended_first: bool) -> PayoutCheck:
    """The recorded payouts do not match the ruled settlement, and the history after a ruling
    follows the action as recorded (``replay.ruling_index``): if they match the settlement of
    the history as recorded, they follow the record and the ruling is what changes them. The
    verdict stays the ruled one (a mismatch: the ruling keeps its effect), and instead of one
    mismatch per player, one ``payouts-follow-record`` finding says which ruling and by how much
    (docs/rules.md, "After a ruling"). Otherwise the ruled check stands as it is."""
    contributions = replay.recorded_contributions
    assert contributions is not None
    n = len(contributions)
    folded = _fit(replay.recorded_folded or replay.folded, n, False)
    back, raw = build_pots(contributions, split_dead(_fit(replay.dead, n, 0), antes), folded, antes, trim)
    pots, determined = award_pots(variant, rulebook, replay.complete, replay.showdown, folded,
                                  _fit(replay.shown, n, None), _fit(replay.hole, n, ()), tuple(replay.board), raw)
    if not determined or received is None:
        return ruled
    got = [0] * n
    for pot in pots:
        for a in pot.awards:
            got[a.player] += a.amount
    stated = stated_rakes(hand, pots) if hand.fields and RAKE in hand.fields else None
    record = check_payouts(hand, rulebook, contributions, tuple(back), pots, tuple(got), True, notes, ended_first,
                           stated)
    if record.payout_check != MATCH:
        return ruled
    fmt = hand.format_amount
    diffs = [f"p{i + 1} wins {fmt(received[i])} (the history as recorded: {fmt(got[i])})"
             for i in range(n) if received[i] != got[i]]
    k = replay.ruling_index
    message = (f"the recorded payouts follow the action at index {k} as recorded, not its ruling; under the ruling "
               + (", ".join(diffs) if diffs else "the winnings are the same, the returns differ"))
    cited = rulebook.cite("payouts-follow-record")
    rule = f"{cited}; {RULE_PAYOUT}" if cited else RULE_PAYOUT
    return ruled.replace(findings=(Finding("payouts-follow-record", message, None, None, rule),))
