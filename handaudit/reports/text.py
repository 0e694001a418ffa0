"""The human summary of a run (``handaudit check``, ``handaudit summary DIR``) and the progress bar.

A :class:`Summary` is built hand by hand in the workers, merged in the parent (merging is
order-free, so the summary does not depend on ``--jobs``), and rendered by
:func:`render_summary`. ``handaudit summary DIR`` rebuilds the same Summary from the Parquet
report (:func:`summary_from_report`).
"""

from __future__ import annotations

import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from ..findings import ERROR, INFO, SEVERITY_RANK, WARNING

PAYOUT_CHECKS = ("match", "mismatch", "undetermined", "not-recorded")
WORST = 10


@dataclass
class Summary:
    hands: int = 0
    valid: int = 0
    invalid: int = 0
    unreadable: int = 0
    findings: Counter = field(default_factory=Counter)  # code -> findings
    code_hands: Counter = field(default_factory=Counter)  # code -> hands with the code
    severities: dict = field(default_factory=dict)  # code -> severity
    payout: Counter = field(default_factory=Counter)  # payout_check -> hands
    rake_units: dict = field(default_factory=dict)  # scale -> rake in units of 10**-scale (exact ints)
    rake_hands: int = 0
    worst: list = field(default_factory=list)  # [(-errors, -findings, source, hand_index, hand_key)]
    files: int = 0
    elapsed: float | None = None
    jobs: int | None = None
    rulebook: str | None = None

    @property
    def rake(self) -> Decimal:
        """The total rake of the hands with recorded winnings, exact."""
        return sum((Decimal(units).scaleb(-scale) for scale, units in sorted(self.rake_units.items())), Decimal(0))

    # -- building --------------------------------------------------------------------------
    def add(self, status: str, findings, payout_check: str | None, rake_units: int | None, scale: int | None,
            source: str, hand_index: int, hand_key: str) -> None:
        """Count one hand. Called once per hand, interpreted: the common case (no findings, one
        scale) costs a few counter updates, not a set, loops and a Decimal per hand."""
        self.hands += 1
        if status == "valid":
            self.valid += 1
        elif status == "invalid":
            self.invalid += 1
        else:
            self.unreadable += 1
        if findings:
            self._add_findings(findings, source, hand_index, hand_key)
        if payout_check is not None:
            self.payout[payout_check] += 1
        if rake_units is not None and scale is not None:
            self.add_rake(rake_units, scale)

    def add_rake(self, units: int, scale: int, hands: int = 1) -> None:
        """Add ``units`` of rake at ``scale`` (10**-scale each), recorded by ``hands`` hands."""
        self.rake_units[scale] = self.rake_units.get(scale, 0) + units
        self.rake_hands += hands

    def _add_findings(self, findings, source: str, hand_index: int, hand_key: str) -> None:
        errors = 0
        seen = set()
        for f in findings:
            self.findings[f.code] += 1
            self.severities.setdefault(f.code, f.severity)
            if f.severity == ERROR:
                errors += 1
            seen.add(f.code)
        for code in seen:
            self.code_hands[code] += 1
        if errors:
            self._offer((-errors, -len(findings), source, hand_index, hand_key))

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
        self.findings.update(other.findings)
        self.code_hands.update(other.code_hands)
        for code, sev in other.severities.items():
            self.severities.setdefault(code, sev)
        self.payout.update(other.payout)
        for scale, units in other.rake_units.items():
            self.add_rake(units, scale, hands=0)
        self.rake_hands += other.rake_hands
        for item in other.worst:
            self._offer(item)

    def worst_hands(self, n: int = WORST) -> list[tuple[str, int, str, int, int]]:
        """[(source, hand_index, hand_key, errors, findings)] most errors first."""
        return [(s, i, k, -e, -f) for e, f, s, i, k in sorted(self.worst)[:n]]

    # -- reading ---------------------------------------------------------------------------
    def max_severity(self) -> str | None:
        ranks = [SEVERITY_RANK.get(s, 0) for s in self.severities.values()]
        if not ranks:
            return None
        top = max(ranks)
        return {v: k for k, v in SEVERITY_RANK.items()}[top]

    def exit_status(self, fail_on: str) -> int:
        """0: no finding at or above ``fail_on`` (error|warning|never); 1: some."""
        if fail_on == "never":
            return 0
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
            "rake_total": str(self.rake), "rake_hands": self.rake_hands,
            "files": self.files, "elapsed_seconds": self.elapsed, "jobs": self.jobs, "rulebook": self.rulebook,
        }


# ---------------------------------------------------------------------------------------------
# rendering


def _n(x: int) -> str:
    return f"{x:,}"


def _rate(hands: int, elapsed: float | None) -> str:
    if not elapsed:
        return "-"
    return f"{hands / elapsed:,.0f}"


def render_summary(s: Summary, out_dir: str | None = None, note: str | None = None) -> str:
    lines = []
    head = f"{_n(s.hands)} hands read"
    if s.files:
        head += f" from {_n(s.files)} file{'s' if s.files != 1 else ''}"
    if s.rulebook:
        head += f", audited under {s.rulebook}"
    lines.append(head)
    width = max(len(_n(x)) for x in (s.valid, s.invalid, s.unreadable, s.hands))
    lines.append(f"  valid       {_n(s.valid):>{width}}   (no error finding)")
    lines.append(f"  invalid     {_n(s.invalid):>{width}}   (at least one error finding)")
    lines.append(f"  unreadable  {_n(s.unreadable):>{width}}   (could not be read; see their findings)")
    lines.append("")
    if s.findings:
        lines.append("Findings by code:")
        cw = max(len(c) for c in s.findings)
        lines.append(f"  {'code':<{cw}}  {'severity':<8}  {'findings':>9}  {'hands':>9}")
        order = sorted(s.findings, key=lambda c: (-SEVERITY_RANK.get(s.severities.get(c, INFO), 0), -s.findings[c], c))
        for code in order:
            lines.append(f"  {code:<{cw}}  {s.severities.get(code, '?'):<8}  {_n(s.findings[code]):>9}  "
                         f"{_n(s.code_hands[code]):>9}")
    else:
        lines.append("Findings by code: none")
    lines.append("")
    checks = "  ".join(f"{k} {_n(s.payout.get(k, 0))}" for k in PAYOUT_CHECKS)
    lines.append(f"Payout checks: {checks}")
    if s.rake_hands:
        lines.append(f"Rake: {_decimal(s.rake)} in total over {_n(s.rake_hands)} hands with recorded winnings "
                     "(each hand in its own chips or currency)")
    else:
        lines.append("Rake: none computed (no hand records its winnings)")
    if s.elapsed is not None:
        jobs = f", {s.jobs} job{'s' if s.jobs != 1 else ''}" if s.jobs else ""
        lines.append(f"Throughput: {_n(s.hands)} hands in {s.elapsed:,.1f} s = {_rate(s.hands, s.elapsed)} hands/s{jobs}")
    if out_dir:
        lines.append(f"Report: {out_dir} (tables hands, actions, findings, pots, players; "
                     f"`handaudit summary {shlex.quote(str(out_dir))}` to see this again)")
    if note:
        lines.append(note)
    return "\n".join(lines) + "\n"


def _decimal(d: Decimal) -> str:
    return format(d, "f")


def render_worst(s: Summary, rulebook: str | None = None, n: int = WORST) -> str:
    worst = s.worst_hands(n)
    if not worst:
        return "No hand has an error finding.\n"
    lines = [f"Worst hands (most errors), {len(worst)} of {_n(s.invalid + s.unreadable)} with errors:"]
    for source, index, key, errors, findings in worst:
        where = f"{source} [{key}]" if key else source
        if index and not key:
            where += f" (hand #{index})"
        lines.append(f"  {where}: {errors} error{'s' if errors != 1 else ''}, {findings} finding{'s' if findings != 1 else ''}")
        cmd = ["handaudit", "explain", source]
        if key:
            cmd += ["--hand", key]
        if rulebook and rulebook != "tda-2026":
            cmd += ["--rulebook", rulebook]
        lines.append("    " + " ".join(shlex.quote(c) for c in cmd))
    return "\n".join(lines) + "\n"


def summary_from_report(out_dir) -> tuple[Summary, dict | None]:
    """Rebuild the run's Summary from a Parquet report (and its manifest, if any)."""
    import pyarrow.compute as pc

    from .parquet import read_manifest, read_table

    manifest = read_manifest(out_dir)
    s = Summary()
    hands = read_table(out_dir, "hands", ["source", "hand_key", "hand_index", "status", "findings", "errors",
                                          "payout_check", "rake", "scale", "rulebook"])
    s.hands = hands.num_rows
    for status, n in _value_counts(hands.column("status")).items():
        if status == "valid":
            s.valid = n
        elif status == "invalid":
            s.invalid = n
        else:
            s.unreadable += n
    for check, n in _value_counts(hands.column("payout_check")).items():
        if check is not None:
            s.payout[check] = n
    rake = hands.column("rake").to_pylist()
    scale = hands.column("scale").to_pylist()
    for r, sc in zip(rake, scale):
        if r is not None and sc is not None:
            s.add_rake(r, sc)
    findings = read_table(out_dir, "findings", ["source", "hand_index", "code", "severity"])
    for code, n in _value_counts(findings.column("code")).items():
        s.findings[code] = n
    sev = findings.group_by(["code", "severity"]).aggregate([])
    for code, severity in zip(sev.column("code").to_pylist(), sev.column("severity").to_pylist()):
        prev = s.severities.get(code)
        if prev is None or SEVERITY_RANK.get(severity, 0) > SEVERITY_RANK.get(prev, 0):
            s.severities[code] = severity
    per_hand = findings.group_by(["code", "source", "hand_index"]).aggregate([])
    for code, n in _value_counts(per_hand.column("code")).items():
        s.code_hands[code] = n
    if hands.num_rows:
        with_errors = hands.filter(pc.greater(hands.column("errors"), 0))
        if with_errors.num_rows:
            top = with_errors.sort_by([("errors", "descending"), ("findings", "descending"),
                                       ("source", "ascending"), ("hand_index", "ascending")]).slice(0, WORST)
            for row in top.to_pylist():
                s.worst.append((-row["errors"], -row["findings"], row["source"], row["hand_index"], row["hand_key"]))
        books = sorted(b for b in set(hands.column("rulebook").to_pylist()) if b)
        s.rulebook = ", ".join(books) or None
    if manifest:
        s.files = manifest.get("files") or 0
        s.elapsed = manifest.get("elapsed_seconds")
        s.jobs = manifest.get("jobs")
        s.rulebook = manifest.get("rulebook") or s.rulebook
    return s, manifest


def _value_counts(column) -> dict:
    out = {}
    for item in column.value_counts().to_pylist():
        out[item["values"]] = item["counts"]
    return out


# ---------------------------------------------------------------------------------------------
# progress


class Progress:
    """A one-line progress display on a terminal: hands done, hands/s, time left when known.

    ``total_bytes`` is the size of the input when every input is a plain file (the fraction
    done is then the share of input bytes audited); None shows hands and rate only.
    """

    def __init__(self, stream=None, total_bytes: int | None = None, interval: float = 0.2):
        self.stream = stream or sys.stderr
        self.total = total_bytes or None
        self.interval = interval
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, hands: int, bytes_done: int, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < self.interval:
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        rate = hands / elapsed
        parts = [f"{hands:,} hands", f"{rate:,.0f} hands/s"]
        if self.total and bytes_done:
            frac = min(bytes_done / self.total, 0.999)
            left = elapsed * (1 - frac) / frac
            filled = int(frac * 20)
            parts.insert(0, f"[{'#' * filled}{'.' * (20 - filled)}] {frac * 100:4.1f}%")
            parts.append(f"~{_clock(left)} left")
        else:
            parts.append(f"{_clock(elapsed)} elapsed")
        line = "  ".join(parts)
        self.stream.write("\r" + line + "\x1b[K")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


__all__ = ["Summary", "render_summary", "render_worst", "summary_from_report", "Progress",
           "ERROR", "WARNING", "INFO"]
