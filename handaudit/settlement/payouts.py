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
* **all zeros** although chips were won: not a payout that happened; a mismatch saying so
  (and no rake is reported for it).
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

from collections.abc import Callable, Sequence
from typing import Final

from ..findings import Finding
from ..model import Hand
from .pots import total
from .showdown import Pot

MATCH: Final = "match"
MISMATCH: Final = "mismatch"
NOT_RECORDED: Final = "not-recorded"
UNDETERMINED: Final = "undetermined"

RULE_PAYOUT: Final = "settlement: pots, side pots and returns (seed 002)"
RULE_RAKE: Final = "settlement: rake limit ({pct}% of the pot + {units} unit(s))"

Fmt = Callable[[int | None], "str | None"]  # Hand.format_amount


def _cite(rulebook: object, code: str, default: str) -> str:
    cite = getattr(rulebook, "cite", None)
    if cite is not None:
        try:
            text = cite(code)
        except Exception:  # noqa: BLE001 - a citation must never break settling
            text = None
        if text:
            return f"{text}; {default}"
    return default


def _limits(rulebook: object) -> tuple[int, int]:
    pct = getattr(rulebook, "rake_limit_percent", 10)
    units = getattr(rulebook, "rake_rounding_units", 1)
    return (10 if pct is None else int(pct)), (1 if units is None else int(units))


def _within(rake: int, pot_total: int, pct: int, units: int) -> bool:
    """0 <= rake <= pct% of the pot + units (exact: compared in hundredths)."""
    return 0 <= rake and rake * 100 <= pot_total * pct + units * 100


def _names(players: Sequence[int]) -> str:
    return ", ".join(f"p{p + 1}" for p in players)


def _conservation(findings: list[Finding], rulebook: object, fmt: Fmt, missing: int, pot_total: int,
                  pct: int, units: int, what: str) -> None:
    """chips-not-conserved when recorded results create chips, or lose more than rake explains.

    Callers test :func:`_within` first, so that ``what`` is only written for a finding."""
    if missing < 0:
        findings.append(Finding("chips-not-conserved", f"{what}: {fmt(-missing)} created",
                                rule=_cite(rulebook, "chips-not-conserved", RULE_PAYOUT)))
    elif not _within(missing, pot_total, pct, units):
        findings.append(Finding(
            "chips-not-conserved",
            f"{what}: {fmt(missing)} missing, beyond the rake limit {pct}% of {fmt(pot_total)} + {units} unit(s)",
            rule=_cite(rulebook, "chips-not-conserved", RULE_RAKE.format(pct=pct, units=units))))


def _diff_text(fmt: Fmt, diff: int) -> str:
    return f"{fmt(diff)} more" if diff > 0 else f"{fmt(-diff)} less"


def _rake_reading(expected: Sequence[int], recorded: Sequence[int], winners: list[bool], pot_total: int,
                  pct: int, units: int) -> tuple[bool, list[int], bool]:
    """Is ``recorded`` = ``expected`` minus a believable rake taken from winners only?

    Returns ``(ok, bad_players, rake_ok)``: players whose difference no rake explains, and
    whether the total shortfall of the winners is within the rake limit.
    """
    n = len(expected)
    shortfall = 0
    for i in range(n):
        d = expected[i] - recorded[i]
        if d > 0 and winners[i]:
            shortfall += d
    rake_ok = shortfall * 100 <= pot_total * pct + units * 100
    over = any(expected[i] < recorded[i] for i in range(n))
    # a shortfall is rake only if nobody got more than they won (else it went to them)
    bad = [i for i in range(n) if expected[i] != recorded[i]
           and (over or not winners[i] or not rake_ok or expected[i] < recorded[i])]
    return not bad, bad, rake_ok


def check_payouts(hand: Hand, rulebook: object, contributions: tuple[int, ...], returned: tuple[int, ...],
                  pots: Sequence[Pot], received: tuple[int, ...] | None, determined: bool,
                  notes: dict[int, str] | None = None
                  ) -> tuple[tuple[int | None, ...] | None, str, int | None, tuple[Finding, ...], str | None]:
    """Compare with the file. Returns ``(finishing_stacks, payout_check, rake, findings, convention)``.

    ``pots``: list of :class:`~.showdown.Pot`; ``received``: per-player winnings or None when
    not determined. ``finishing_stacks`` is None when not determined (entries None for ``inf``).
    ``notes``: player -> text appended to that player's mismatch messages (why the settlement
    differs from a common reading, e.g. an ante returned by ante trimming).
    """
    n = len(contributions)
    fmt = hand.format_amount
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

    base: list[int | None] = [None] * n  # stack after the hand before any pot is paid
    for i in range(n):
        s = starts[i] if i < len(starts) else None
        if s is not None:
            base[i] = s - contributions[i] + returned[i]
    fs = None
    if determined and received is not None:
        stacks: list[int | None] = []
        for i in range(n):
            b = base[i]
            stacks.append(None if b is None else b + received[i])
        fs = tuple(stacks)

    if rec_w is None and rec_fs is None:
        return fs, NOT_RECORDED, None, (), None

    pct, units = _limits(rulebook)
    findings: list[Finding] = []
    rake: int | None = None
    convention: str | None = None
    w_rake: list[int] | None = None  # per-player rake the recorded winnings show (to cross-check the stacks)

    if rec_w is not None:
        total_rec = total(rec_w)
        if total_rec == 0 and pot_total > 0:
            convention = "zeros"
            if determined and received is not None:
                who = ", ".join(f"p{i + 1} {fmt(received[i])}" for i in range(n) if received[i])
                won = f" (the settlement pays {who})"
            else:
                won = ""
            findings.append(Finding(
                "winnings-mismatch",
                f"the file records no payout: every winnings entry is 0 although the pots total "
                f"{fmt(pot_total)}{won}",
                rule=_cite(rulebook, "winnings-mismatch", RULE_PAYOUT)))
        elif determined and received is not None:
            winners = [w > 0 for w in received]
            ok, bad, rake_ok = _rake_reading(received, rec_w, winners, pot_total, pct, units)
            if ok:
                convention = "net"
                rake = pot_total - total_rec
                w_rake = [received[i] - rec_w[i] for i in range(n)]
            elif any(returned):
                gross = [received[i] + returned[i] for i in range(n)]
                gwin = [g > 0 for g in gross]
                gok, _, _ = _rake_reading(gross, rec_w, gwin, pot_total, pct, units)
                if gok:
                    convention = "gross"
                    rake = pot_total + sum(returned) - total_rec
                    w_rake = [gross[i] - rec_w[i] for i in range(n)]
                    ret = ", ".join(f"p{i + 1} {fmt(returned[i])}" for i in range(n) if returned[i])
                    findings.append(Finding(
                        "winnings-gross",
                        f"recorded winnings are gross: they include the uncalled bet returned "
                        f"({ret}); read that way they match the settlement"
                        + (f" with rake {fmt(rake)}" if rake else ""),
                        rule=_cite(rulebook, "winnings-gross", RULE_PAYOUT)))
            if convention is None:
                rake = pot_total - total_rec
                limit_note = f"rake limit {pct}% of {fmt(pot_total)} + {units} unit(s)"
                for i in bad:
                    d = rec_w[i] - received[i]
                    extra = ""
                    if d < 0 and winners[i] and not rake_ok:
                        extra = f"; beyond the {limit_note}"
                    findings.append(Finding(
                        "winnings-mismatch",
                        f"p{i + 1}: recorded winnings {fmt(rec_w[i])}, settlement {fmt(received[i])} "
                        f"({_diff_text(fmt, d)}){extra}",
                        actor=f"p{i + 1}",
                        rule=_cite(rulebook, "winnings-mismatch", RULE_PAYOUT)))
                if not _within(rake, pot_total, pct, units):
                    _conservation(findings, rulebook, fmt, rake, pot_total, pct, units,
                                  f"recorded winnings total {fmt(total_rec)} but the pots total {fmt(pot_total)}")
        else:
            rake = pot_total - total_rec
            _check_possible(findings, hand, rulebook, rec_w, returned, pots, pot_total, "winnings", fmt)
            if rake < 0 and -rake <= sum(returned) and all(r <= w for r, w in zip(returned, rec_w)):
                # more than the pots: only gross winnings (own returns included) can explain it
                convention = "gross"
                rake += sum(returned)
                ret = ", ".join(f"p{i + 1} {fmt(returned[i])}" for i in range(n) if returned[i])
                findings.append(Finding(
                    "winnings-gross",
                    f"recorded winnings total {fmt(total_rec)}, more than the pots ({fmt(pot_total)}): "
                    f"they can only be gross, including the uncalled bet returned ({ret})",
                    rule=_cite(rulebook, "winnings-gross", RULE_PAYOUT)))
            if rake < 0:
                findings.append(Finding(
                    "chips-not-conserved",
                    f"recorded winnings total {fmt(total_rec)} but the pots total {fmt(pot_total)}"
                    + (f" (returns {fmt(sum(returned))})" if any(returned) else "")
                    + f": {fmt(-rake)} created",
                    rule=_cite(rulebook, "chips-not-conserved", RULE_PAYOUT)))
            elif not _within(rake, pot_total, pct, units):
                findings.append(Finding(
                    "chips-not-conserved",
                    f"recorded winnings total {fmt(total_rec)} but the pots total {fmt(pot_total)}: "
                    f"{fmt(rake)} missing, beyond the rake limit ({pct}% of the pot + {units} unit(s))",
                    rule=_cite(rulebook, "chips-not-conserved", RULE_RAKE.format(pct=pct, units=units))))

    if rec_fs is not None:
        _check_stacks(findings, hand, rulebook, rec_fs, base, received, returned, pots, pot_total,
                      determined, w_rake, pct, units, fmt)

    if notes and findings:
        findings = [Finding(f.code, f"{f.message}; {notes[int(f.actor[1:]) - 1]}", f.action_index, f.actor,
                            f.rule, f.ruling, f.line, f.column, f.severity)
                    if f.actor and int(f.actor[1:]) - 1 in notes else f for f in findings]

    mismatched = any(f.code in ("winnings-mismatch", "finishing-stacks-mismatch", "chips-not-conserved")
                     for f in findings)
    if mismatched:
        check = MISMATCH
    elif not determined:
        check = UNDETERMINED
    else:
        check = MATCH
    return fs, check, rake, tuple(findings), convention


def _check_possible(findings: list[Finding], hand: Hand, rulebook: object, rec: tuple[int, ...],
                    returned: tuple[int, ...], pots: Sequence[Pot], pot_total: int, what: str,
                    fmt: Fmt) -> None:
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
                why = f"can receive at most {fmt(cap[i])} (the pots they are eligible for"
                why += " and their own return)" if returned[i] else ")"
            findings.append(Finding(
                "winnings-mismatch",
                f"p{i + 1}: recorded {what} {fmt(rec[i])}, but p{i + 1} {why}",
                actor=f"p{i + 1}",
                rule=_cite(rulebook, "winnings-mismatch", RULE_PAYOUT)))


def _check_stacks(findings: list[Finding], hand: Hand, rulebook: object, rec_fs: tuple[int, ...],
                  base: list[int | None], received: tuple[int, ...] | None, returned: tuple[int, ...],
                  pots: Sequence[Pot], pot_total: int, determined: bool, w_rake: list[int] | None,
                  pct: int, units: int, fmt: Fmt) -> None:
    n = len(rec_fs)
    if determined and received is not None:
        expected = [None if b is None else b + w for b, w in zip(base, received)]
        diffs: dict[int, int] = {}  # known expected stack - recorded, by player
        for i, e in enumerate(expected):
            if e is not None:
                diffs[i] = e - rec_fs[i]
        winners = [received[i] > 0 for i in range(n)]
        shortfall = sum(d for i, d in diffs.items() if d > 0 and winners[i])
        # A winner's shortfall is rake only when nobody is recorded with more than the settlement
        # gives: chips that moved to another player are not rake.
        moved = any(d < 0 for d in diffs.values())
        rake_ok = not moved and shortfall * 100 <= pot_total * pct + units * 100
        for i, d in diffs.items():
            if d == 0:
                continue
            if d > 0 and winners[i] and rake_ok and (w_rake is None or w_rake[i] == d):
                continue  # the rake, taken from this winner's stack
            note = ""
            if w_rake is not None and d > 0 and winners[i] and w_rake[i] != d:
                note = f"; its recorded winnings show a rake of {fmt(w_rake[i])}"
            elif d > 0 and winners[i] and moved:
                note = "; not rake: another player is recorded with more than the settlement gives"
            elif d > 0 and winners[i] and not rake_ok:
                note = f"; beyond the rake limit ({pct}% of {fmt(pot_total)} + {units} unit(s))"
            findings.append(Finding(
                "finishing-stacks-mismatch",
                f"p{i + 1}: recorded finishing stack {fmt(rec_fs[i])}, settlement {fmt(expected[i])} "
                f"({_diff_text(fmt, -d)}){note}",
                actor=f"p{i + 1}", rule=_cite(rulebook, "finishing-stacks-mismatch", RULE_PAYOUT)))
    else:
        for i in range(n):
            low = base[i]
            if low is None:
                continue
            cap = 0
            for pot in pots:
                if i in pot.eligible:
                    cap += pot.amount
            high = low + cap
            if not low <= rec_fs[i] <= high:
                findings.append(Finding(
                    "finishing-stacks-mismatch",
                    f"p{i + 1}: recorded finishing stack {fmt(rec_fs[i])} is outside what the hand allows "
                    f"({fmt(low)} to {fmt(high)})",
                    actor=f"p{i + 1}", rule=_cite(rulebook, "finishing-stacks-mismatch", RULE_PAYOUT)))
    starts = [s for s in hand.starting_stacks if s is not None]
    if len(hand.starting_stacks) == n and len(starts) == n:
        missing = total(starts) - total(rec_fs)
        if not _within(missing, pot_total, pct, units):
            _conservation(findings, rulebook, fmt, missing, pot_total, pct, units,
                          f"recorded finishing stacks total {fmt(sum(rec_fs))}, starting stacks {fmt(sum(starts))}")
