"""Recorded payouts against the settlement: ``finishing_stacks``, ``winnings``, rake.

Computed values: *winnings* are the chips each player receives from pots (returns excluded);
*finishing stacks* are ``starting - contributions + returned + winnings`` (unknown for an
``inf`` starting stack).

How recorded ``winnings`` are read (real logs differ, see ../shared/corpus/real/README.md):

* **net of rake** (most sites, and PokerKit): ``recorded = won - rake share``. A match when every
  player who won nothing has 0 recorded, no player has more than they won, and the shortfall
  (the rake, ``pot total - sum(recorded)``) is at most ``rake_limit_percent`` % of the pot plus
  ``rake_rounding_units`` units. A rake of 0 is the exact case.
* **gross** (some ABS / PTY hands): the recorded amount also includes the player's own uncalled
  bet, ``recorded = won + returned - rake share``. Recognised when the net reading fails and
  this one holds with some return > 0: a match, with the info finding ``winnings-gross``.
* **all zeros** although chips were won: how some site-log converters write "not recorded".
  Not a payout that happened, so not compared: ``not-recorded`` (unless finishing stacks are
  recorded) with the warning ``winnings-not-recorded``, and no rake.
* **absent**: ``not-recorded`` (unless finishing stacks are recorded).

Anything else is a ``winnings-mismatch`` per player, with the exact difference; totals that
create chips (negative rake) or destroy more than the rake limit allows are also
``chips-not-conserved``. Recorded finishing stacks are checked the same way: the difference per
player must be 0, or a winner's rake within the limit (and, when winnings are recorded too,
the same rake the winnings show).

When the winners cannot be computed (unknown cards, incomplete history), only what is provable
is checked: nobody is recorded as winning more than the pots they are eligible for (plus, at
most, their own return), and the recorded total does not exceed the pots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from ..core.amounts import amount_text
from ..core.hand import Hand
from ..core.value import Value
from ..findings.finding import Finding
from ..rules.params import NONE, POT
from ..rules.rulebook import Rulebook
from .rake import explain, expected_payouts, structure_rakes, structure_set, tolerances, unexplained
from .showdown import Pot, share_of

MATCH: Final = "match"
MISMATCH: Final = "mismatch"
NOT_RECORDED: Final = "not-recorded"
UNDETERMINED: Final = "undetermined"
# rake_check: the rake model's verdict
EXACT: Final = "exact"  # a structure is set and the recorded payouts are exactly its raked shares
EXPLAINED: Final = "explained"  # no structure: a rake per pot within the limit explains every payout
UNEXPLAINED: Final = "unexplained"  # no rake the model allows explains the recorded payouts

_CHECK_FIELDS: Final = ("finishing_stacks", "payout_check", "rake", "findings", "convention", "pot_rakes",
                        "rake_check")


class PayoutCheck(Value):
    """What :func:`check_payouts` finds. ``finishing_stacks``: computed (before rake), None when
    not determined. ``rake``: recorded pot total minus payouts (see Settlement). ``pot_rakes``:
    the model's rake of each pot (the structure's, or the reading that explains the payouts),
    None when unknown. ``rake_check``: ``exact`` | ``explained`` | ``unexplained`` | None."""

    __slots__ = _CHECK_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _CHECK_FIELDS

    def __init__(self, finishing_stacks: tuple[int | None, ...] | None, payout_check: str, rake: int | None,
                 findings: tuple[Finding, ...], convention: str | None, pot_rakes: tuple[int, ...] | None,
                 rake_check: str | None) -> None:
        self.finishing_stacks: Final = finishing_stacks
        self.payout_check: Final = payout_check
        self.rake: Final = rake
        self.findings: Final = findings
        self.convention: Final = convention
        self.pot_rakes: Final = pot_rakes
        self.rake_check: Final = rake_check

RULE_PAYOUT: Final = "reading: pots, side pots and returns"
RULE_RAKE: Final = "settlement: rake limit ({pct}% of the pot + {units} unit(s))"


def _cite(rulebook: Rulebook, code: str, default: str) -> str:
    """The rule text of a settlement finding: the run's rulebook's citation for ``code`` (each
    built-in cites its own table stakes rule; a book that cites none, its title), then ours."""
    text = rulebook.cite(code) or f"{rulebook.title}, table stakes"
    return f"{text} ({default})" if default == RULE_PAYOUT else f"{text}; {default}"


def _limits(rulebook: Rulebook) -> tuple[int, int]:
    """``(rake_limit_percent, rake_rounding_units)``."""
    return rulebook.rake_limit_percent, rulebook.rake_rounding_units


def _within(rake: int, pot_total: int, pct: int, units: int) -> bool:
    """0 <= rake <= pct% of the pot + units (exact: compared in hundredths)."""
    return 0 <= rake and rake * 100 <= pot_total * pct + units * 100


def _conservation(findings: list[Finding], rulebook: Rulebook, scale: int, missing: int, allowed: int,
                  limit: str, what: str) -> None:
    """chips-not-conserved: recorded results create chips (``missing < 0``), or lose more than
    the ``allowed`` rake (``limit`` names the rule)."""
    if missing < 0:
        findings.append(Finding("chips-not-conserved", f"{what}: {amount_text(-missing, scale)} created",
                                rule=_cite(rulebook, "chips-not-conserved", RULE_PAYOUT)))
    else:
        findings.append(Finding(
            "chips-not-conserved",
            f"{what}: {amount_text(missing, scale)} missing, more than the rake can be "
            f"(at most {amount_text(allowed, scale)}; {limit})",
            rule=_cite(rulebook, "chips-not-conserved", f"settlement: {limit}")))


def _diff_text(scale: int, diff: int) -> str:
    return f"{amount_text(diff, scale)} more" if diff > 0 else f"{amount_text(-diff, scale)} less"


def _describe(rulebook: Rulebook, scale: int) -> str:
    """The rake rule a finding names: the structure, or the limit with no structure."""
    if not structure_set(rulebook):
        return (f"no rake structure set: at most {rulebook.rake_limit_percent}% of each pot + "
                f"{rulebook.rake_rounding_units} unit(s)")
    scope = "of each pot" if rulebook.rake_cap_scope == POT else "of the pots"
    text = f"rake structure: {rulebook.rake_percent}% {scope}, rounded {rulebook.rake_rounding}"
    if rulebook.rake_cap != NONE:
        text += f", capped at {rulebook.rake_cap}" + (" per pot" if rulebook.rake_cap_scope == POT else "")
    if rulebook.jackpot_drop != "0":
        text += f", jackpot drop {rulebook.jackpot_drop}"
    return text


class _Model:
    """The rake model of one settled hand: the structure's rake per pot, or the most each pot
    may pay with none set; and the reading of one set of recorded payouts (:meth:`read`)."""

    def __init__(self, pots: list[Pot], rulebook: Rulebook, no_drop: bool, n: int,
                 fixed: tuple[int, ...] | None, stated: bool = False) -> None:
        """``fixed``: the structure's rake per pot (:func:`.rake.structure_rakes`), or the rake the
        hand states (``stated``); None with neither."""
        self.pots = pots
        self.stated = stated
        self.n = n
        self.no_drop = no_drop
        self.structured = fixed is not None
        self.fixed = list(fixed) if fixed is not None else None
        self.maxes = self.fixed if self.fixed is not None else tolerances(pots, rulebook, no_drop)

    def read(self, targets: list[int | None]) -> tuple[list[int] | None, list[int], list[int]]:
        """``(rakes, unexplained players, expected payouts)`` for recorded payouts ``targets``.

        With no structure, a hand whose pots the search cannot read within its budget (pots
        shared so that no winner's payout decides one; see :func:`.rake.explain`) is judged by
        totals only: accepted when each winner is short of their share by no more than the
        largest rakes of their pots allow, nobody is recorded with more, and the total is
        within the limit. Its rake per pot is then unknown (``rakes`` None)."""
        if self.fixed is not None:
            rakes = self.fixed
            exhausted = False
        else:
            rakes, _, exhausted = explain(self.pots, targets, self.maxes)
        expected = expected_payouts(self.pots, rakes, self.n)
        bad = unexplained(expected, targets)
        if bad and exhausted and self._by_totals(targets):
            return None, [], [t if t is not None else expected[i] for i, t in enumerate(targets)]
        return rakes, bad, expected

    def _by_totals(self, targets: list[int | None]) -> bool:
        gross = expected_payouts(self.pots, [0] * len(self.pots), self.n)
        missing = 0
        for i in range(self.n):
            t = targets[i]
            if t is None:
                continue
            if t > gross[i] or gross[i] - t > self.most_short(i):
                return False
            missing += gross[i] - t
        return missing <= self.allowed()

    def most_short(self, player: int) -> int:
        """The most a winner's share can fall by the largest rakes allowed on their pots."""
        got = 0
        for k in range(len(self.pots)):
            pot = self.pots[k]
            got += share_of(pot, player, pot.amount) - share_of(pot, player, pot.amount - self.maxes[k])
        return got

    def message(self, player: int, what: str, recorded: int, expected: int, gross: int, rulebook: Rulebook,
                scale: int, moved: bool = False, base: int = 0, note: str = "") -> str:
        """A payout mismatch of ``player``: the recorded ``what`` (``base`` + their payout), what the
        model expects (the reading's share after rake; the settlement itself when no rake can be
        the reason), the difference, and why (or ``note``). ``moved``: another player is recorded
        with more than the settlement gives them, so a shortfall is not rake."""
        why = note
        shown = expected
        if recorded < gross and gross > 0 and not note:
            if moved:
                shown, why = gross, "; not rake: another player is recorded with more than the settlement gives"
            elif self.stated:
                why = f"; the site states a rake of {amount_text(sum(self.maxes), scale)}"
            elif self.structured:
                why = f"; {_describe(rulebook, scale)}"
            elif self.no_drop:
                shown = gross
                why = ("; the hand ended in its first betting round, so it pays no rake "
                       f"(no_flop_no_drop; {rulebook.sources.get('no_flop_no_drop', 'rulebook')})")
            elif gross - recorded > (most := self.most_short(player)):
                shown = gross
                why = (f"; beyond the rake limit ({rulebook.rake_limit_percent}% of each pot + "
                       f"{rulebook.rake_rounding_units} unit(s): at most "
                       f"{amount_text(most, scale)} of p{player + 1}'s share)")
            else:
                why = (f"; not a share of any rake: no rake of the pots p{player + 1} won also gives the "
                       "other winners' recorded payouts")
        return (f"p{player + 1}: recorded {what} {amount_text(base + recorded, scale)}, "
                f"{_amounts_text(scale, base + shown, base + gross)} "
                f"({_diff_text(scale, recorded - shown)}){why}")

    def limit(self, rulebook: Rulebook, scale: int) -> str:
        """The rake rule a chips-not-conserved finding names."""
        if self.no_drop:
            return "the hand ended in its first betting round, so it pays no rake (no_flop_no_drop)"
        if self.stated:
            return f"the rake the site states ({amount_text(sum(self.maxes), scale)})"
        return _describe(rulebook, scale)

    def allowed(self) -> int:
        """The most rake the hand may pay in total (chips-not-conserved beyond it)."""
        return sum(self.maxes)


def _with_moved(bad: list[int], over: list[int], recorded: list[int | None], gross: Sequence[int]) -> list[int]:
    """The players to report. When someone is recorded with more than the settlement gives
    (``over``), the chips others are short went to them, not to the house: every player
    recorded short of the settlement is reported too, whatever rake might have explained it."""
    if not over:
        return bad
    short: list[int] = []
    for i in range(len(gross)):
        r = recorded[i]
        if r is not None and r < gross[i]:
            short.append(i)
    return sorted(set(bad) | set(short))


def _amounts_text(scale: int, expected: int, gross: int) -> str:
    """``settlement X`` or ``expected Y after rake (settlement X before rake)``."""
    if expected == gross:
        return f"settlement {amount_text(gross, scale)}"
    return f"expected {amount_text(expected, scale)} after rake (settlement {amount_text(gross, scale)} before rake)"


def check_payouts(hand: Hand, rulebook: Rulebook, contributions: tuple[int, ...], returned: tuple[int, ...],
                  pots: list[Pot], received: tuple[int, ...] | None, determined: bool,
                  notes: dict[int, str] | None = None, ended_first: bool = False,
                  stated: tuple[int, ...] | None = None) -> PayoutCheck:
    """Compare with the file (see the module docstring and :mod:`.rake`).

    ``pots``: list of :class:`~.showdown.Pot`; ``received``: per-player winnings or None when
    not determined. ``notes``: player -> text appended to that player's mismatch messages (why
    the settlement differs from a common reading, e.g. an ante returned by ante trimming).
    ``ended_first``: the hand ended in its first betting round (:func:`.rake.ended_in_first_round`).
    ``stated``: the rake of each pot as the hand states it (a site log, :func:`.site_totals.stated_rakes`):
    then the rake is known, and the payouts must be exactly the shares after it.
    """
    n = len(contributions)
    starts = hand.starting_stacks
    rec_w = hand.winnings
    rec_fs = hand.finishing_stacks
    if rec_w is not None and len(rec_w) != n:
        rec_w = None
    if rec_fs is not None and len(rec_fs) != n:
        rec_fs = None
    pot_total = 0
    for pot in pots:
        pot_total += pot.amount

    fs: tuple[int | None, ...] | None = None
    if determined and received is not None:
        stacks: list[int | None] = [None] * n  # None: an inf starting stack
        for i in range(n):
            s = starts[i] if i < len(starts) else None
            if s is not None:
                stacks[i] = s - contributions[i] + returned[i] + received[i]
        fs = tuple(stacks)

    scale = hand.scale
    findings: list[Finding] = []
    convention: str | None = None
    no_drop = rulebook.no_flop_no_drop and ended_first and stated is None
    structured = structure_set(rulebook) or stated is not None
    fixed: tuple[int, ...] | None = stated
    if fixed is None and structured:
        fixed = tuple(structure_rakes(pots, rulebook, scale, no_drop))
    if rec_w is not None and pot_total > 0 and not any(rec_w):
        convention = "zeros"
        if determined and received is not None:
            who = ", ".join(f"p{i + 1} {amount_text(received[i], scale)}" for i in range(n) if received[i])
            won = f" (the settlement pays {who})"
        else:
            won = ""
        findings.append(Finding(
            "winnings-not-recorded",
            f"the file records no payout: every winnings entry is 0 although the pots total "
            f"{amount_text(pot_total, scale)}{won}; read as not recorded",
            rule=_cite(rulebook, "winnings-not-recorded", RULE_PAYOUT)))
        rec_w = None

    if rec_w is None and rec_fs is None:
        return PayoutCheck(fs, NOT_RECORDED, None, tuple(findings), convention, fixed, None)

    pct, units = _limits(rulebook)
    rake: int | None = None
    reading: list[int] | None = None  # the rake per pot that explains the recorded payouts
    net_w: list[int] | None = None  # each player's payout from the pots, as the recorded winnings show it
    model = (_Model(pots, rulebook, no_drop, n, fixed, stated is not None)
             if determined and received is not None else None)

    if rec_w is not None:
        total_rec = 0
        for w in rec_w:
            total_rec += w
        if model is not None and received is not None:
            if structured or list(rec_w) != list(received):
                rakes, bad, expected = model.read(list(rec_w))
            else:  # paid in full: no rake (the common case needs no search)
                rakes, bad, expected = [0] * len(pots), [], list(received)
            if not bad:
                convention = "net"
                rake = pot_total - total_rec
                reading, net_w = rakes, expected
            elif any(returned):
                gross_t: list[int | None] = [rec_w[i] - returned[i] for i in range(n)]
                grakes, gbad, gexpected = model.read(gross_t)
                if not gbad:
                    convention = "gross"
                    rake = pot_total + sum(returned) - total_rec
                    reading, net_w = grakes, gexpected
                    ret = ", ".join(f"p{i + 1} {amount_text(returned[i], scale)}" for i in range(n) if returned[i])
                    findings.append(Finding(
                        "winnings-gross",
                        f"recorded winnings are gross: they include the uncalled bet returned "
                        f"({ret}); read that way they match the settlement"
                        + (f" with rake {amount_text(rake, scale)}" if rake else ""),
                        rule=_cite(rulebook, "winnings-gross", RULE_PAYOUT)))
            if convention is None:
                rake = pot_total - total_rec
                over = [i for i in bad if rec_w[i] > received[i]]
                bad = _with_moved(bad, over, list(rec_w), received)
                for i in bad:
                    findings.append(Finding(
                        "winnings-mismatch",
                        model.message(i, "winnings", rec_w[i], expected[i], received[i], rulebook, scale,
                                      bool(over) and i not in over),
                        actor=f"p{i + 1}",
                        rule=_cite(rulebook, "winnings-mismatch", RULE_PAYOUT)))
                missing = pot_total - total_rec
                if missing < 0 or missing > model.allowed():
                    _conservation(findings, rulebook, scale, missing, model.allowed(), model.limit(rulebook, scale),
                                  f"recorded winnings total {amount_text(total_rec, scale)} "
                                  f"but the pots total {amount_text(pot_total, scale)}")
        else:
            rake = pot_total - total_rec
            _check_possible(findings, hand, rulebook, rec_w, returned, pots, pot_total, "winnings", scale)
            if rake < 0 and -rake <= sum(returned) and all(r <= w for r, w in zip(returned, rec_w, strict=True)):
                # more than the pots: only gross winnings (own returns included) can explain it
                convention = "gross"
                rake += sum(returned)
                ret = ", ".join(f"p{i + 1} {amount_text(returned[i], scale)}" for i in range(n) if returned[i])
                findings.append(Finding(
                    "winnings-gross",
                    f"recorded winnings total {amount_text(total_rec, scale)}, "
                    f"more than the pots ({amount_text(pot_total, scale)}): "
                    f"they can only be gross, including the uncalled bet returned ({ret})",
                    rule=_cite(rulebook, "winnings-gross", RULE_PAYOUT)))
            if rake < 0:
                findings.append(Finding(
                    "chips-not-conserved",
                    f"recorded winnings total {amount_text(total_rec, scale)} "
                    f"but the pots total {amount_text(pot_total, scale)}"
                    + (f" (returns {amount_text(sum(returned), scale)})" if any(returned) else "")
                    + f": {amount_text(-rake, scale)} created",
                    rule=_cite(rulebook, "chips-not-conserved", RULE_PAYOUT)))
            elif not _within(rake, pot_total, pct, units):
                findings.append(Finding(
                    "chips-not-conserved",
                    f"recorded winnings total {amount_text(total_rec, scale)} "
                    f"but the pots total {amount_text(pot_total, scale)}: "
                    f"{amount_text(rake, scale)} missing, beyond the rake limit ({pct}% of the pot + {units} unit(s))",
                    rule=_cite(rulebook, "chips-not-conserved", RULE_RAKE.format(pct=pct, units=units))))

    if rec_fs is not None:
        if model is not None and received is not None:
            s_ok, s_reading = _check_stacks(findings, hand, rulebook, rec_fs, contributions, received, returned,
                                            model, net_w, scale)
            if rec_w is None and s_ok:
                reading = s_reading
                rake = _stacks_rake(hand, rec_fs, pot_total, contributions, returned)
        else:
            _check_stack_range(findings, hand, rulebook, rec_fs, contributions, returned, pots, pot_total,
                               pct, units, scale)

    if notes and findings:
        findings = [Finding(f.code, f"{f.message}; {notes[int(f.actor[1:]) - 1]}", f.action_index, f.actor,
                            f.rule, f.ruling, f.line, f.column, f.severity)
                    if f.actor and int(f.actor[1:]) - 1 in notes else f for f in findings]

    mismatched = any(f.code in ("winnings-mismatch", "finishing-stacks-mismatch", "chips-not-conserved")
                     for f in findings)
    rake_check: str | None = None
    if mismatched:
        check = MISMATCH
        rake_check = UNEXPLAINED if model is not None else None
    elif not determined:
        check = UNDETERMINED
    else:
        check = MATCH
        rake_check = EXACT if structured else EXPLAINED
    pot_rakes = fixed if fixed is not None else (tuple(reading) if reading is not None and not mismatched else None)
    return PayoutCheck(fs, check, rake, tuple(findings), convention, pot_rakes, rake_check)


def _check_possible(findings: list[Finding], hand: Hand, rulebook: Rulebook, rec: tuple[int, ...],
                    returned: tuple[int, ...], pots: list[Pot], pot_total: int, what: str,
                    scale: int) -> None:
    """Undetermined winners: nobody may get more than the pots they can win (+ own return)."""
    n = len(rec)
    cap = list(returned)
    for pot in pots:
        for p in pot.eligible:
            cap[p] += pot.amount
    for i in range(n):
        if rec[i] > cap[i] or rec[i] < 0:
            if cap[i] == 0:
                why = "is eligible for no pot"
            else:
                why = f"can receive at most {amount_text(cap[i], scale)} (the pots they are eligible for"
                why += " and their own return)" if returned[i] else ")"
            findings.append(Finding(
                "winnings-mismatch",
                f"p{i + 1}: recorded {what} {amount_text(rec[i], scale)}, but p{i + 1} {why}",
                actor=f"p{i + 1}",
                rule=_cite(rulebook, "winnings-mismatch", RULE_PAYOUT)))


def _check_stacks(findings: list[Finding], hand: Hand, rulebook: Rulebook, rec_fs: tuple[int, ...],
                  contributions: tuple[int, ...], received: tuple[int, ...], returned: tuple[int, ...],
                  model: _Model, net_w: list[int] | None, scale: int) -> tuple[bool, list[int] | None]:
    """Recorded finishing stacks of a settled hand. Each player's stack must be what the hand
    leaves them: ``start - contributions + returned`` plus their payout after the rake. When the
    recorded winnings were read (``net_w``: the payouts they show), the stacks must show the same
    payouts; otherwise the stacks get a rake reading of their own. Returns whether the stacks
    are explained and that reading's rake per pot (None when unknown)."""
    n = len(rec_fs)
    starts = hand.starting_stacks
    base: list[int | None] = [None] * n  # the stack before any pot is paid; None: an inf stack
    targets: list[int | None] = [None] * n
    for i in range(n):
        s = starts[i] if i < len(starts) else None
        if s is not None:
            b = s - contributions[i] + returned[i]
            base[i] = b
            targets[i] = rec_fs[i] - b
    reading: list[int] | None = None
    if net_w is not None:
        expected = net_w
        bad = unexplained(expected, targets)
    else:
        rakes, bad, expected = model.read(targets)
        if not bad:
            reading = rakes
    over = [i for i in bad if (targets[i] or 0) > received[i]]
    bad = _with_moved(bad, over, targets, received)
    for i in bad:
        b0 = base[i]
        t = targets[i]
        assert b0 is not None and t is not None  # (None exactly for an inf starting stack)
        moved = bool(over) and i not in over
        note = ""
        if net_w is not None and not moved and t < received[i]:
            shown = received[i] - expected[i]
            note = (f"; its recorded winnings show a rake of {amount_text(shown, scale)}" if shown
                    else "; its recorded winnings show no rake")
        findings.append(Finding(
            "finishing-stacks-mismatch",
            model.message(i, "finishing stack", t, expected[i], received[i], rulebook, scale, moved, b0, note),
            actor=f"p{i + 1}", rule=_cite(rulebook, "finishing-stacks-mismatch", RULE_PAYOUT)))
    _stack_totals(findings, hand, rulebook, rec_fs, model.allowed(), model, scale)
    return not bad, reading


def _stacks_rake(hand: Hand, rec_fs: tuple[int, ...], pot_total: int, contributions: tuple[int, ...],
                 returned: tuple[int, ...]) -> int | None:
    """The rake recorded finishing stacks show: the pots less what the stacks were paid from them
    (None with an ``inf`` starting stack)."""
    paid = 0
    starts = hand.starting_stacks
    for i in range(len(rec_fs)):
        s = starts[i] if i < len(starts) else None
        if s is None:
            return None
        paid += rec_fs[i] - (s - contributions[i] + returned[i])
    return pot_total - paid


def _check_stack_range(findings: list[Finding], hand: Hand, rulebook: Rulebook, rec_fs: tuple[int, ...],
                       contributions: tuple[int, ...], returned: tuple[int, ...], pots: list[Pot],
                       pot_total: int, pct: int, units: int, scale: int) -> None:
    """Undetermined winners: each recorded stack within what the hand allows."""
    n = len(rec_fs)
    starts = hand.starting_stacks
    for i in range(n):
        s = starts[i] if i < len(starts) else None
        if s is None:
            continue
        low = s - contributions[i] + returned[i]  # the stack before any pot is paid
        cap = 0
        for pot in pots:
            if i in pot.eligible:
                cap += pot.amount
        high = low + cap
        if not low <= rec_fs[i] <= high:
            findings.append(Finding(
                "finishing-stacks-mismatch",
                f"p{i + 1}: recorded finishing stack {amount_text(rec_fs[i], scale)} "
                f"is outside what the hand allows "
                f"({amount_text(low, scale)} to {amount_text(high, scale)})",
                actor=f"p{i + 1}", rule=_cite(rulebook, "finishing-stacks-mismatch", RULE_PAYOUT)))
    allowed = (pot_total * pct + units * 100) // 100
    _stack_totals(findings, hand, rulebook, rec_fs, allowed, None, scale)


def _stack_totals(findings: list[Finding], hand: Hand, rulebook: Rulebook, rec_fs: tuple[int, ...],
                  allowed: int, model: _Model | None, scale: int) -> None:
    """chips-not-conserved when the recorded stacks total more than the starting stacks, or
    less by more than the rake allows (``model``: the settled hand's rake model; None, winners
    not determined: the limit over the pots' total)."""
    stacks = hand.starting_stacks
    if len(stacks) != len(rec_fs):
        return
    start_total = 0
    for s in stacks:
        if s is None:  # an inf stack: no total to compare
            return
        start_total += s
    fs_total = 0
    for v in rec_fs:
        fs_total += v
    missing = start_total - fs_total
    if missing < 0 or missing > allowed:
        limit = (model.limit(rulebook, scale) if model is not None else
                 f"rake limit ({rulebook.rake_limit_percent}% of the pot + {rulebook.rake_rounding_units} unit(s))")
        _conservation(findings, rulebook, scale, missing, allowed, limit,
                      f"recorded finishing stacks total {amount_text(fs_total, scale)}, "
                      f"starting stacks {amount_text(start_total, scale)}")
