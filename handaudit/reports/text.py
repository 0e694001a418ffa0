"""The human summary of a run (``handaudit check``, ``handaudit summary DIR``) and the progress bar.

A :class:`~handaudit.reports.summary.Summary` is built hand by hand in each auditing process,
merged in the parent (merging is order-free, so the summary does not depend on ``--jobs``), and
rendered by :func:`render_summary`. ``handaudit summary DIR`` rebuilds the same Summary from the
Parquet report (:func:`summary_from_report`).
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable
from decimal import Decimal

from ..core.status import ERROR, INFO, INVALID, SEVERITY_RANK, VALID, WARNING
from ..grammar.sources import printable, report_path
from .escape import TERMINAL, escape
from .summary import PAYOUT_CHECKS, WORST, Summary

# ---------------------------------------------------------------------------------------------
# text that is safe on a terminal


def terminal_text(text: str) -> str:
    """``text`` with what a terminal would act on written as escapes (``\\x1b``, ``\\u009b``;
    an undecodable byte ``\\xff``), as :func:`~handaudit.grammar.sources.printable` writes them;
    newlines and tabs kept. Everything the command line prints goes through it: it is
    :func:`~handaudit.reports.escape.escape` for the terminal, the one escaping of every output."""
    return escape(text, TERMINAL)


def shell_word(text: str) -> str:
    """``text`` (a :func:`~handaudit.grammar.sources.report_path` form, or a table name) as one
    shell word naming the same bytes: ``shlex.quote`` when it is plain text, else a ``$'...'``
    word (bash, zsh, ksh, POSIX.1-2024 sh) holding the escapes, so that the command line printed
    opens the very file."""
    if text.isprintable() and "\\" not in text:
        return shlex.quote(text)
    out = []
    for byte in _report_bytes(text):
        ch = chr(byte)
        if ch in "'\\":
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\x{byte:02x}")
    return "$'" + "".join(out) + "'"


def _report_bytes(text: str) -> bytes:
    """The bytes a report form stands for (:func:`~handaudit.grammar.sources.report_path`:
    ``\\\\`` a backslash, ``\\xNN`` the byte NN, ``\\uNNNN`` that character); other text as UTF-8."""
    out = bytearray()
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt == "\\":
                out += b"\\"
                i += 2
                continue
            if nxt == "x" and _is_hex(text[i + 2:i + 4], 2):
                out.append(int(text[i + 2:i + 4], 16))
                i += 4
                continue
            if nxt == "u" and _is_hex(text[i + 2:i + 6], 4):
                out += chr(int(text[i + 2:i + 6], 16)).encode("utf-8", "surrogatepass")
                i += 6
                continue
        out += ch.encode("utf-8", "surrogateescape")
        i += 1
    return bytes(out)


def _is_hex(s: str, n: int) -> bool:
    return len(s) == n and all(c in "0123456789abcdefABCDEF" for c in s)


# ---------------------------------------------------------------------------------------------
# rendering


def _n(x: int) -> str:
    return f"{x:,}"


def _rate(hands: int, elapsed: float | None) -> str:
    if not elapsed:
        return "-"
    return f"{hands / elapsed:,.0f}"


def _counts(s: Summary) -> list[str]:
    head = f"{_n(s.hands)} hands read"
    if s.files:
        head += f" from {_n(s.files)} file{'s' if s.files != 1 else ''}"
    if s.rulebook:
        head += f", audited under {s.rulebook}"
    width = max(len(_n(x)) for x in (s.valid, s.invalid, s.unreadable, s.hands))
    return [head,
            f"  valid       {_n(s.valid):>{width}}   (no error finding)",
            f"  invalid     {_n(s.invalid):>{width}}   (at least one error finding)",
            f"  unreadable  {_n(s.unreadable):>{width}}   (could not be read; see their findings)"] + (
        [f"  internal error {_n(s.internal)} (read, not audited: handaudit failed on them; see internal-error)"]
        if s.internal else [])


def render_counts(s: Summary) -> str:
    """Only the counts of hands (``check --quiet``)."""
    return "\n".join(_counts(s)) + "\n"


def run_json(s: Summary, result, out_dir: str | None, fail_on: str) -> dict:
    """The run as one JSON object (``check --format json``): the summary's counts, whether the run
    finished, where its report is, its exit status and its worst hands."""
    out = s.to_json()
    out["complete"] = bool(result.complete)
    out["interrupted"] = bool(result.interrupted)
    out["error"] = result.error
    out["report"] = report_path(str(out_dir)) if out_dir else None
    out["exit_status"] = result.exit_status(fail_on)
    out["worst"] = [{"source": src, "hand_index": index, "hand_key": key, "hand": number or None, "errors": errors,
                     "findings": findings, "first_error": {"code": code, "message": message} if code else None}
                    for src, index, key, errors, findings, number, code, message in s.worst_details()]
    return out


def render_summary(s: Summary, out_dir: str | None = None, note: str | None = None, build: str | None = None) -> str:
    lines = _counts(s)
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
    if s.ignored:
        left = ", ".join(f"{code} {_n(n)}" for code, n in sorted(s.ignored.items()))
        lines.append(f"Not reported (--select, --ignore or handaudit.toml): {left}")
    lines.append("")
    checks = "  ".join(f"{k} {_n(s.payout.get(k, 0))}" for k in PAYOUT_CHECKS)
    lines.append(f"Payout checks: {checks}")
    groups = s.rake_by_currency()
    if groups:
        lines.append("Rake (hands with recorded winnings that pay out as settled): " + _per_currency(groups))
    else:
        lines.append("Rake: none computed (no hand records winnings that pay out as settled)")
    short = s.shortfall_by_currency()
    if short:
        lines.append("Unexplained shortfall, not rake (pot total minus recorded winnings of the payout mismatches; "
                     "negative: paid beyond the pots): " + _per_currency(short))
    if s.elapsed is not None:
        jobs = f", {s.jobs} job{'s' if s.jobs != 1 else ''}" if s.jobs else ""
        built = f", {build}" if build else ""
        lines.append(f"Throughput: {_n(s.hands)} hands in {s.elapsed:,.1f} s = {_rate(s.hands, s.elapsed)} hands/s"
                     f"{jobs}{built}")
    if out_dir:
        lines.append(f"Report: {report_path(str(out_dir))} (tables hands, actions, findings, pots, players; "
                     f"`handaudit summary {shell_word(report_path(str(out_dir)))}` to see this again)")
    if note:
        lines.append(note)
    return "\n".join(lines) + "\n"


def _per_currency(groups: list[tuple[str, Decimal, int]]) -> str:
    return "; ".join(f"{escape(cur)} {_grouped(total)} over {_n(n)} hand{'s' if n != 1 else ''}"
                     for cur, total, n in groups)


def _grouped(d: Decimal) -> str:
    """An exact amount with its whole part in groups of three: 23,025,000.50."""
    text = format(d, "f")
    sign = "-" if text.startswith("-") else ""
    whole, dot, fraction = text.lstrip("-").partition(".")
    return f"{sign}{int(whole):,}{dot}{fraction}"


def render_worst(s: Summary, rulebook: str | None = None, n: int = WORST,
                 path_of: Callable[[str], str] | None = None) -> str:
    """The worst hands (most errors first): where, how many errors, the first error, and the
    command that explains the hand. ``path_of`` turns a report's source into the path the command
    should name (``handaudit summary`` run from another directory than the check)."""
    worst = s.worst_details(n)
    if not worst:
        if s.not_audited:  # the selection left out every error of the hands it could not audit
            return (f"No reported finding is an error, but {_n(s.not_audited)} hands were not audited "
                    f"({_n(s.unreadable)} unreadable, {_n(s.internal)} internal errors): whatever the selection, "
                    "they fail the run.\n")
        return "No hand has an error finding.\n"
    lines = [f"Worst hands (most errors), {len(worst)} of {_n(s.invalid + s.unreadable)} with errors:"]
    for source, index, key, errors, findings, number, code, message in worst:
        where = printable(f"{source} [{key}]" if key else source)
        if index and not key:
            where += f" (hand #{index})"
        if number:
            where += printable(f" (hand {number})")
        lines.append(f"  {where}: {errors} error{'s' if errors != 1 else ''}, {findings} finding{'s' if findings != 1 else ''}")
        if code:
            lines.append("    " + printable(f"first: {code}: {_short(message)}"))
        words = ["handaudit", "explain", shell_word(path_of(source) if path_of else source)]
        if key:
            words += ["--hand", shell_word(key.replace("\\", "\\\\"))]  # a name's backslash: not an escape
        if rulebook and rulebook != "tda-2026":
            words += ["--rulebook", shell_word(rulebook)]
        lines.append("    " + " ".join(words))
    return "\n".join(lines) + "\n"


def _short(message: str, width: int = 100) -> str:
    message = " ".join(message.split())
    return message if len(message) <= width else message[: width - 3] + "..."


def source_resolver(working_directory: str | None, here: str) -> Callable[[str], str]:
    """A report's source (as the check named it, relative to ``working_directory``) as a path that
    names the same file from ``here``: relative when that stays short, else absolute; ``-``
    (standard input) as it is."""
    import os.path

    def resolve(source: str) -> str:
        if source == "-" or os.path.isabs(source) or not working_directory:
            return source
        full = os.path.normpath(os.path.join(working_directory, source))
        relative = os.path.relpath(full, here)
        return relative if not relative.startswith("..") else full

    return resolve


def summary_from_report(out_dir) -> tuple[Summary, dict | None]:
    """Rebuild the run's Summary from a Parquet report (and its manifest, if any)."""
    import pyarrow.compute as pc

    from .parquet import read_manifest, read_table

    manifest = read_manifest(out_dir)
    s = Summary()
    hands = read_table(out_dir, "hands", ["source", "hand_key", "hand_index", "status", "findings", "errors",
                                          "payout_check", "rake", "scale", "rulebook", "currency"])
    checks = hands.column("payout_check").to_pylist()
    s.hands = hands.num_rows
    for status, n in _value_counts(hands.column("status")).items():
        if status == VALID:
            s.valid = n
        elif status == INVALID:
            s.invalid = n
        else:
            s.unreadable += n
    for check, n in _value_counts(hands.column("payout_check")).items():
        if check is not None:
            s.payout[check] = n
    rake = hands.column("rake").to_pylist()
    scale = hands.column("scale").to_pylist()
    money = hands.column("currency").to_pylist()
    for r, sc, cur, check in zip(rake, scale, money, checks, strict=True):
        if r is not None and sc is not None:
            if check == "mismatch":
                s.add_shortfall(r, sc, 1, cur or "")
            else:
                s.add_rake(r, sc, 1, cur or "")
    findings = read_table(out_dir, "findings", ["source", "hand_index", "code", "severity"])
    for code, n in _value_counts(findings.column("code")).items():
        s.findings[code] = n
    sev = findings.group_by(["code", "severity"]).aggregate([])
    for code, severity in zip(sev.column("code").to_pylist(), sev.column("severity").to_pylist(), strict=True):
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
            s.worst = worst_from_tables(top, findings_of_hands(out_dir, top))
        books = sorted(b for b in set(hands.column("rulebook").to_pylist()) if b)
        s.rulebook = ", ".join(books) or None
    if manifest:
        ignored = (manifest.get("summary") or {}).get("ignored") or {}
        s.ignored.update({str(code): int(n) for code, n in ignored.items()})
        s.files = manifest.get("files") or 0
        s.elapsed = manifest.get("elapsed_seconds")
        s.jobs = manifest.get("jobs")
        s.rulebook = manifest.get("rulebook") or s.rulebook
    return s, manifest


def findings_of_hands(out_dir, hands) -> dict:
    """{(source, hand_index): (code, message)}: the first error finding of each of ``hands``."""
    import pyarrow.compute as pc

    from .parquet import read_table

    wanted = set(zip(hands.column("source").to_pylist(), hands.column("hand_index").to_pylist(), strict=True))
    table = read_table(out_dir, "findings", ["source", "hand_index", "finding_index", "code", "severity", "message"])
    table = table.filter(pc.equal(table.column("severity"), ERROR))
    table = table.filter(pc.is_in(table.column("source"), value_set=pa_array(sorted({s for s, _ in wanted}))))
    first: dict = {}
    for row in table.sort_by([("finding_index", "ascending")]).to_pylist():
        key = (row["source"], row["hand_index"])
        if key in wanted and key not in first:
            first[key] = (row["code"], row["message"])
    return first


def pa_array(values: list):
    import pyarrow as pa

    return pa.array(values, type=pa.string())


def worst_from_tables(hands, first: dict) -> list:
    """Summary.worst items for rows of the ``hands`` table, with their first error (``first``)."""
    out = []
    for row in hands.to_pylist():
        code, message = first.get((row["source"], row["hand_index"]), ("", ""))
        out.append((-row["errors"], -row["findings"], row["source"], row["hand_index"], row["hand_key"], "", code,
                    message))
    return out


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


__all__ = ["Summary", "PAYOUT_CHECKS", "WORST", "render_summary", "render_worst", "summary_from_report", "Progress",
           "ERROR", "WARNING", "INFO"]
