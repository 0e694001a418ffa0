"""The counts of a run: hands by status, findings by code, payout checks, rake, worst hands.

A :class:`Summary` counts each hand as its process audits it (:meth:`Summary.add`), and the
parent merges the processes' summaries (:meth:`Summary.merge`); :mod:`handaudit.reports.text`
renders it. Compiled (setup.py): ``add`` runs once per hand, from the compiled batch loop, and
as interpreted Python it cost nearly twice as much (docs/performance.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from ..core.status import ERROR, INVALID, SEVERITY_RANK, UNREADABLE, VALID
from ..core.value import field_values, same_fields, show_fields
from ..findings.finding import Finding

PAYOUT_CHECKS: Final = ("match", "mismatch", "undetermined", "not-recorded")
WORST: Final = 10
INTERNAL_ERROR: Final = "internal-error"  # handaudit failed on a hand: the hand is not audited


class Summary:
    """A run's counts (see the module's docstring). A plain class, not a dataclass: a dataclass's
    generated methods are compiled from source at every run's start (docs/performance.md).
    Equality and ``repr`` go by :data:`FIELDS`, the constructor's parameters in order."""

    def __init__(self, hands: int = 0, valid: int = 0, invalid: int = 0, unreadable: int = 0,
                 findings: Counter | None = None, code_hands: Counter | None = None,
                 severities: dict | None = None, payout: Counter | None = None,
                 rake_units: dict | None = None, rake_hands: int = 0, worst: list | None = None,
                 files: int = 0, not_phh: list | None = None, elapsed: float | None = None,
                 jobs: int | None = None, rulebook: str | None = None, ignored: Counter | None = None,
                 rake_counts: Counter | None = None, shortfall_units: dict | None = None,
                 shortfall_counts: Counter | None = None, internal: int = 0) -> None:
        self.hands = hands
        self.valid = valid
        self.invalid = invalid
        self.unreadable = unreadable
        self.findings: Counter = Counter() if findings is None else findings  # code -> findings
        self.code_hands: Counter = Counter() if code_hands is None else code_hands  # code -> hands with the code
        self.severities: dict = {} if severities is None else severities  # code -> severity
        self.payout: Counter = Counter() if payout is None else payout  # payout_check -> hands
        # (currency, scale) -> rake in units of 10**-scale (exact ints); currency "" for chips or unknown
        self.rake_units: dict = {} if rake_units is None else rake_units
        self.rake_hands = rake_hands
        # [(-errors, -findings, source, hand_index, hand_key, hand_number, first error code, its message)]
        self.worst: list = [] if worst is None else worst
        self.files = files
        self.not_phh: list = [] if not_phh is None else not_phh  # ["path: not a PHH file: why"], one per such file
        self.elapsed = elapsed
        self.jobs = jobs
        self.rulebook = rulebook
        # code -> findings the run's selection left out
        self.ignored: Counter = Counter() if ignored is None else ignored
        # (currency, scale) -> hands with recorded winnings
        self.rake_counts: Counter = Counter() if rake_counts is None else rake_counts
        # (currency, scale) -> the pot total minus the recorded winnings of the hands whose payouts
        # do not match (payout_check "mismatch"), and those hands: not rake, since what the
        # settlement says they should have paid is not what they paid (negative: paid beyond the pots)
        self.shortfall_units: dict = {} if shortfall_units is None else shortfall_units
        self.shortfall_counts: Counter = Counter() if shortfall_counts is None else shortfall_counts
        # hands read but not audited: handaudit failed on them (an internal-error finding,
        # reported or left out by the selection)
        self.internal = internal

    def field_values(self) -> tuple:
        """The fields' values, in :data:`FIELDS` (the constructor's) order."""
        return field_values(self, FIELDS)

    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable: not a dict key

    def __repr__(self) -> str:
        return show_fields(self, FIELDS)

    def __reduce__(self) -> tuple:
        """Pickled as its fields (a Summary crosses from worker to parent); mypyc's native
        classes do not pickle by themselves."""
        return (Summary, self.field_values())

    def __str__(self) -> str:
        """A few lines a person reads (``print(summary)``); :func:`handaudit.reports.text.render_summary`
        gives the whole text summary, ``repr`` every field."""
        codes = len(self.findings)
        lines = [f"{self.hands:,} hands: {self.valid:,} valid, {self.invalid:,} invalid, {self.unreadable:,} unreadable",
                 f"findings: {sum(self.findings.values()):,} in {codes} code{'s' if codes != 1 else ''}"
                 + "".join(f"; {code} {n:,}" for code, n in self.findings.most_common(3)),
                 "payout checks: " + ", ".join(f"{k} {self.payout.get(k, 0):,}" for k in PAYOUT_CHECKS)]
        if self.ignored:
            lines.append("not reported: " + ", ".join(f"{c} {n:,}" for c, n in sorted(self.ignored.items())))
        return "\n".join(lines)

    @property
    def rake(self) -> Decimal | None:
        """The total rake of the hands with recorded winnings, exact, when they are all in one
        currency (or all in chips of one scale); None when a total would add different money."""
        groups = self.rake_by_currency()
        if len(groups) > 1:
            return None
        return groups[0][1] if groups else Decimal(0)

    def rake_by_currency(self) -> list[tuple[str, Decimal, int]]:
        """[(currency, total rake, hands)], exact: one entry per currency (its amounts at any
        scale add exactly), and for hands without a currency one per scale (``chips`` at scale 0,
        ``no currency, 2 decimals``), since chips and an unnamed money do not add up. Only rake:
        the hands whose payouts do not match are in :meth:`shortfall_by_currency`."""
        return _by_currency(self.rake_units, self.rake_counts)

    def shortfall_by_currency(self) -> list[tuple[str, Decimal, int]]:
        """[(currency, unexplained shortfall, hands)] of the hands whose payouts do not match: the
        pot total minus the recorded winnings, which no rake explains (negative when more was paid
        than the pots held); grouped as :meth:`rake_by_currency`."""
        return _by_currency(self.shortfall_units, self.shortfall_counts)

    # -- building --------------------------------------------------------------------------
    def add(self, status: str, findings: Sequence[Finding], payout_check: str | None, rake_units: int | None,
            scale: int | None, source: str, hand_index: int, hand_key: str, ignored: Sequence[str] = (),
            hand_number: object = None, currency: str | None = None) -> None:
        """Count one hand. Called once per hand: the common case (no findings, one scale) costs a
        few counter updates, not a set, loops and a Decimal per hand."""
        self.hands += 1
        if status == VALID:
            self.valid += 1
        elif status == INVALID:
            self.invalid += 1
        else:
            self.unreadable += 1
        if findings:
            self._add_findings(findings, source, hand_index, hand_key, hand_number)
        if status != UNREADABLE and (findings or ignored) and _failed(findings, ignored):
            self.internal += 1
        if payout_check is not None:
            self.payout[payout_check] += 1
        if rake_units is not None and scale is not None:
            if payout_check == "mismatch":
                self.add_shortfall(rake_units, scale, 1, currency or "")
            else:
                self.add_rake(rake_units, scale, 1, currency or "")
        if ignored:
            self.ignored.update(ignored)

    def add_rake(self, units: int, scale: int, hands: int = 1, currency: str = "") -> None:
        """Add ``units`` of rake at ``scale`` (10**-scale each) in ``currency``, recorded by ``hands`` hands."""
        key = (currency, scale)
        self.rake_units[key] = self.rake_units.get(key, 0) + units
        self.rake_hands += hands
        if hands:
            self.rake_counts[key] += hands

    def add_shortfall(self, units: int, scale: int, hands: int = 1, currency: str = "") -> None:
        """Add ``units`` of a payout mismatch's pot total minus recorded winnings, of ``hands`` hands."""
        key = (currency, scale)
        self.shortfall_units[key] = self.shortfall_units.get(key, 0) + units
        if hands:
            self.shortfall_counts[key] += hands

    def _add_findings(self, findings: Sequence[Finding], source: str, hand_index: int, hand_key: str,
                      hand_number: object) -> None:
        errors = 0
        first: Finding | None = None
        seen: set[str] = set()
        for f in findings:
            if f.code == "not-phh-file":
                self.not_phh.append(f"{source}: {f.message}")
            self.findings[f.code] += 1
            self.severities.setdefault(f.code, f.severity)
            if f.severity == ERROR:
                errors += 1
                if first is None:
                    first = f
            seen.add(f.code)
        for code in seen:
            self.code_hands[code] += 1
        if first is not None:
            number = "" if hand_number is None else str(hand_number)  # the PHH hand field, stringified only here
            self._offer((-errors, -len(findings), source, hand_index, hand_key, number, first.code,
                         first.message))

    def _offer(self, item) -> None:
        self.worst.append(item)
        if len(self.worst) > 4 * WORST:
            self.worst.sort()
            del self.worst[WORST:]

    def merge(self, other: "Summary") -> None:
        self.hands += other.hands
        self.valid += other.valid
        self.invalid += other.invalid
        self.unreadable += other.unreadable
        self.internal += other.internal
        self.not_phh += other.not_phh
        self.findings.update(other.findings)
        self.code_hands.update(other.code_hands)
        for code, sev in other.severities.items():
            self.severities.setdefault(code, sev)
        self.payout.update(other.payout)
        self.ignored.update(other.ignored)
        for (cur, scale), units in other.rake_units.items():
            self.add_rake(units, scale, 0, cur)
        self.rake_hands += other.rake_hands
        self.rake_counts.update(other.rake_counts)
        for (cur, scale), units in other.shortfall_units.items():
            self.add_shortfall(units, scale, 0, cur)
        self.shortfall_counts.update(other.shortfall_counts)
        for item in other.worst:
            self._offer(item)

    def worst_hands(self, n: int = WORST) -> list[tuple[str, int, str, int, int]]:
        """[(source, hand_index, hand_key, errors, findings)] most errors first."""
        return [(item[2], item[3], item[4], -item[0], -item[1]) for item in sorted(self.worst)[:n]]

    def worst_details(self, n: int = WORST) -> list[tuple]:
        """[(source, hand_index, hand_key, errors, findings, hand_number, first error code, its
        message)] most errors first ("" where a summary rebuilt from a report does not know)."""
        out = []
        for item in sorted(self.worst)[:n]:
            extra = tuple(item[5:8]) + ("",) * (3 - len(item[5:8]))
            out.append((item[2], item[3], item[4], -item[0], -item[1]) + extra)
        return out

    # -- reading ---------------------------------------------------------------------------
    def max_severity(self) -> str | None:
        ranks = [SEVERITY_RANK.get(s, 0) for s in self.severities.values()]
        if not ranks:
            return None
        top = max(ranks)
        return {v: k for k, v in SEVERITY_RANK.items()}[top]

    @property
    def not_audited(self) -> int:
        """The hands the run could not audit: unreadable, or an internal error of handaudit."""
        return self.unreadable + self.internal

    def exit_status(self, fail_on: str) -> int:
        """0: no finding at or above ``fail_on`` (error|warning|never); 1: some; 2: an input
        that is not a PHH file (the contract's "input that cannot be read at all").

        A hand that was not audited (:attr:`not_audited`) fails the run (1) under ``error`` and
        ``warning`` whatever the selection of findings: a job gating on a few codes
        (``--select``, ``--ignore`` of the reader's codes or of ``internal-error``) must not
        pass on input it could not read."""
        if self.not_phh:
            return 2
        if fail_on == "never":
            return 0
        if self.unreadable or self.internal:
            return 1
        worst = self.max_severity()
        if worst is None:
            return 0
        return 1 if SEVERITY_RANK[worst] >= SEVERITY_RANK[fail_on] else 0

    def to_json(self) -> dict:
        return {
            "hands": self.hands, "valid": self.valid, "invalid": self.invalid, "unreadable": self.unreadable,
            "findings": {c: {"severity": self.severities.get(c), "findings": n, "hands": self.code_hands[c]}
                         for c, n in sorted(self.findings.items())},
            "payout_check": {k: self.payout.get(k, 0) for k in PAYOUT_CHECKS},
            "rake_total": None if self.rake is None else str(self.rake), "rake_hands": self.rake_hands,
            "rake": [{"currency": cur, "total": str(total), "hands": n} for cur, total, n in self.rake_by_currency()],
            "unexplained_shortfall": [{"currency": cur, "total": str(total), "hands": n}
                                      for cur, total, n in self.shortfall_by_currency()],
            "files": self.files, "elapsed_seconds": self.elapsed, "jobs": self.jobs, "rulebook": self.rulebook,
            "ignored": dict(sorted(self.ignored.items())),
            "not_audited": self.not_audited, "internal_errors": self.internal,
        }


# The fields in the order Summary(...) takes them: what __reduce__ carries, ``==`` and ``repr``
# compare and show (a test holds it to the constructor's parameters).
FIELDS: Final[tuple[str, ...]] = ("hands", "valid", "invalid", "unreadable", "findings", "code_hands", "severities",
                                  "payout", "rake_units", "rake_hands", "worst", "files", "not_phh", "elapsed",
                                  "jobs", "rulebook", "ignored", "rake_counts", "shortfall_units", "shortfall_counts",
                                  "internal")


def _by_currency(units_of: dict, counts: Counter) -> list[tuple[str, Decimal, int]]:
    totals: dict[str, Decimal] = {}
    hands: dict[str, int] = {}
    for (cur, scale), units in sorted(units_of.items()):
        label = cur or ("chips" if scale == 0 else f"no currency, {scale} decimals")
        totals[label] = totals.get(label, Decimal(0)) + Decimal(units).scaleb(-scale)
        hands[label] = hands.get(label, 0) + counts.get((cur, scale), 0)
    return [(label, totals[label], hands[label]) for label in sorted(totals)]


def _failed(findings: Sequence[Finding], ignored: Sequence[str]) -> bool:
    """The hand has an internal-error finding, reported or left out by the selection."""
    for f in findings:
        if f.code == INTERNAL_ERROR:
            return True
    for code in ignored:
        if code == INTERNAL_ERROR:
            return True
    return False
