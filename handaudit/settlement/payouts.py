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
from typing import Final

from ..core.amounts import amount_text
from ..core.hand import Hand
from ..findings.finding import Finding
from ..rules.rulebook import Rulebook
from .showdown import Pot

MATCH: Final = "match"
MISMATCH: Final = "mismatch"
NOT_RECORDED: Final = "not-recorded"
UNDETERMINED: Final = "undetermined"

RULE_PAYOUT: Final = "Robert's Rules of Poker v11, Glossary, Table stakes (reading: pots, side pots and returns)"
RULE_RAKE: Final = "settlement: rake limit ({pct}% of the pot + {units} unit(s))"


def _cite(rulebook: Rulebook, code: str, default: str) -> str:
    """The rule text of a settlement finding: the rulebook's citation for ``code`` (if any), then ours."""
    text = rulebook.cite(code)
    return f"{text}; {default}" if text else default


def _limits(rulebook: Rulebook) -> tuple[int, int]:
    """``(rake_limit_percent, rake_rounding_units)``."""
    return rulebook.rake_limit_percent, rulebook.rake_rounding_units


def _within(rake: int, pot_total: int, pct: int, units: int) -> bool:
    """0 <= rake <= pct% of the pot + units (exact: compared in hundredths)."""
    return 0 <= rake and rake * 100 <= pot_total * pct + units * 100


def _names(players: Sequence[int]) -> str:
    return ", ".join(f"p{p + 1}" for p in players)


def _conservation(findings: list[Finding], rulebook: Rulebook, scale: int, missing: int, pot_total: int,
                  pct: int, units: int, what: str) -> None:
    """chips-not-conserved when recorded results create chips, or lose more than rake explains.

    Callers test :func:`_within` first, so that ``what`` is only written for a finding."""
    if missing < 0:
        findings.append(Finding("chips-not-conserved", f"{what}: {amount_text(-missing, scale)} created",
                                rule=_cite(rulebook, "chips-not-conserved", RULE_PAYOUT)))
    elif not _within(missing, pot_total, pct, units):
        findings.append(Finding(
            "chips-not-conserved",
            f"{what}: {amount_text(missing, scale)} missing, beyond the rake limit {pct}% of "
            f"{amount_text(pot_total, scale)} + {units} unit(s)",
            rule=_cite(rulebook, "chips-not-conserved", RULE_RAKE.format(pct=pct, units=units))))


def _diff_text(scale: int, diff: int) -> str:
    return f"{amount_text(diff, scale)} more" if diff > 0 else f"{amount_text(-diff, scale)} less"


def _rake_reading(expected: tuple[int, ...], recorded: tuple[int, ...], pot_total: int,
                  pct: int, units: int) -> tuple[bool, list[int], bool]:
    """Is ``recorded`` = ``expected`` minus a believable rake taken from winners only (the
    players expected to get something)?

    Returns ``(ok, bad_players, rake_ok)``: players whose difference no rake explains, and
    whether the total shortfall of the winners is within the rake limit.
    """
    n = len(expected)
    shortfall = 0
    over = False
    for i in range(n):
        e = expected[i]
        d = e - recorded[i]
        if d > 0 and e > 0:
            shortfall += d
        elif d < 0:
            over = True
    rake_ok = shortfall * 100 <= pot_total * pct + units * 100
    # a shortfall is rake only if nobody got more than they won (else it went to them)
    bad: list[int] = []
    for i in range(n):
        e = expected[i]
        r = recorded[i]
        if e != r and (over or e <= 0 or not rake_ok or e < r):
            bad.append(i)
    return not bad, bad, rake_ok


def check_payouts(hand: Hand, rulebook: Rulebook, contributions: tuple[int, ...], returned: tuple[int, ...],
                  pots: list[Pot], received: tuple[int, ...] | None, determined: bool,
                  notes: dict[int, str] | None = None
                  ) -> tuple[tuple[int | None, ...] | None, str, int | None, tuple[Finding, ...], str | None]:
    """Compare with the file. Returns ``(finishing_stacks, payout_check, rake, findings, convention)``.

    ``pots``: list of :class:`~.showdown.Pot`; ``received``: per-player winnings or None when
    not determined. ``finishing_stacks`` is None when not determined (entries None for ``inf``).
    ``notes``: player -> text appended to that player's mismatch messages (why the settlement
    differs from a common reading, e.g. an ante returned by ante trimming).
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
        return fs, NOT_RECORDED, None, tuple(findings), convention

    pct, units = _limits(rulebook)
    rake: int | None = None
    w_rake: list[int] | None = None  # per-player rake the recorded winnings show (to cross-check the stacks)

    if rec_w is not None:
        total_rec = 0
        for w in rec_w:
            total_rec += w
        if determined and received is not None:
            ok, bad, rake_ok = _rake_reading(received, rec_w, pot_total, pct, units)
            if ok:
                convention = "net"
                rake = pot_total - total_rec
                w_rake = [received[i] - rec_w[i] for i in range(n)]
            elif any(returned):
                gross = tuple([received[i] + returned[i] for i in range(n)])
                gok, _, _ = _rake_reading(gross, rec_w, pot_total, pct, units)
                if gok:
                    convention = "gross"
                    rake = pot_total + sum(returned) - total_rec
                    w_rake = [gross[i] - rec_w[i] for i in range(n)]
                    ret = ", ".join(f"p{i + 1} {amount_text(returned[i], scale)}" for i in range(n) if returned[i])
                    findings.append(Finding(
                        "winnings-gross",
                        f"recorded winnings are gross: they include the uncalled bet returned "
                        f"({ret}); read that way they match the settlement"
                        + (f" with rake {amount_text(rake, scale)}" if rake else ""),
                        rule=_cite(rulebook, "winnings-gross", RULE_PAYOUT)))
            if convention is None:
                rake = pot_total - total_rec
                limit_note = f"rake limit {pct}% of {amount_text(pot_total, scale)} + {units} unit(s)"
                for i in bad:
                    d = rec_w[i] - received[i]
                    extra = ""
                    if d < 0 and received[i] > 0 and not rake_ok:
                        extra = f"; beyond the {limit_note}"
                    findings.append(Finding(
                        "winnings-mismatch",
                        f"p{i + 1}: recorded winnings {amount_text(rec_w[i], scale)}, "
                        f"settlement {amount_text(received[i], scale)} "
                        f"({_diff_text(scale, d)}){extra}",
                        actor=f"p{i + 1}",
                        rule=_cite(rulebook, "winnings-mismatch", RULE_PAYOUT)))
                if not _within(rake, pot_total, pct, units):
                    _conservation(findings, rulebook, scale, rake, pot_total, pct, units,
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
        _check_stacks(findings, hand, rulebook, rec_fs, fs, contributions, received, returned, pots, pot_total,
                      w_rake, pct, units, scale)

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
                  expected: tuple[int | None, ...] | None, contributions: tuple[int, ...],
                  received: tuple[int, ...] | None, returned: tuple[int, ...], pots: list[Pot], pot_total: int,
                  w_rake: list[int] | None, pct: int, units: int, scale: int) -> None:
    """``expected``: the computed finishing stacks, None when the winners are not determined."""
    n = len(rec_fs)
    if expected is not None and received is not None:
        shortfall = 0  # of winners: expected stack above the recorded one
        moved = False  # someone is recorded with more than the settlement gives
        for i in range(n):
            e = expected[i]
            if e is not None:  # (None: an inf starting stack)
                d = e - rec_fs[i]
                if d > 0 and received[i] > 0:
                    shortfall += d
                elif d < 0:
                    moved = True
        # A winner's shortfall is rake only when nobody is recorded with more than the settlement
        # gives: chips that moved to another player are not rake.
        rake_ok = not moved and shortfall * 100 <= pot_total * pct + units * 100
        for i in range(n):
            known = expected[i]
            if known is None:
                continue
            d = known - rec_fs[i]
            if d == 0:
                continue
            won = received[i] > 0
            if d > 0 and won and rake_ok and (w_rake is None or w_rake[i] == d):
                continue  # the rake, taken from this winner's stack
            note = ""
            if w_rake is not None and d > 0 and won and w_rake[i] != d:
                note = f"; its recorded winnings show a rake of {amount_text(w_rake[i], scale)}"
            elif d > 0 and won and moved:
                note = "; not rake: another player is recorded with more than the settlement gives"
            elif d > 0 and won and not rake_ok:
                note = f"; beyond the rake limit ({pct}% of {amount_text(pot_total, scale)} + {units} unit(s))"
            findings.append(Finding(
                "finishing-stacks-mismatch",
                f"p{i + 1}: recorded finishing stack {amount_text(rec_fs[i], scale)}, "
                f"settlement {amount_text(known, scale)} "
                f"({_diff_text(scale, -d)}){note}",
                actor=f"p{i + 1}", rule=_cite(rulebook, "finishing-stacks-mismatch", RULE_PAYOUT)))
    else:
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
    stacks = hand.starting_stacks
    if len(stacks) != n:
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
    if not _within(missing, pot_total, pct, units):
        _conservation(findings, rulebook, scale, missing, pot_total, pct, units,
                      f"recorded finishing stacks total {amount_text(fs_total, scale)}, "
                      f"starting stacks {amount_text(start_total, scale)}")
