"""The ``handaudit`` command: thin click commands over the library.

``handaudit check``, ``explain``, ``settle``, ``rulebooks``, ``summary``; see ``--help`` and the
README. Exit statuses: 0 no finding at or above ``--fail-on``; 1 some; 2 bad usage, an input
that cannot be read at all, or an output that cannot be written (one line: the cause and the
path); 130 interrupted (SIGINT, SIGTERM or SIGHUP). No traceback reaches the user: an unexpected error
is one line ``handaudit: internal error: ...`` (``HANDAUDIT_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import gc
import os
import sys
from io import StringIO

import click

from . import __version__
from .core.status import ERROR, WARNING
from .grammar.chunk import SourceError

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UserError(Exception):
    """A problem the user can fix (bad path, unknown hand key, not a report): one line, exit 2."""


def _rulebook_error_types() -> tuple[type[Exception], ...]:
    from .config import ConfigError
    from .findings.selection import SelectionError
    from .reports.layout import OutputError
    from .rules.params import RulebookError

    return (SourceError, UserError, OutputError, RulebookError, ConfigError, SelectionError)


def _echo(text: str = "", nl: bool = True, err: bool = False) -> None:
    """Print ``text`` with what a terminal would act on escaped (ESC, CR, C1 controls, an
    undecodable byte of a file name: see :func:`~handaudit.reports.text.terminal_text`): every
    line this command writes in text goes through here."""
    from .reports.text import terminal_text

    click.echo(terminal_text(text), nl=nl, err=err)


def _err(message: str) -> None:
    _echo(f"handaudit: {message}", err=True)


def _one_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return " ".join(text.split("\n")[0].split()) if "\n" in text else text


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from .buildinfo import describe

    click.echo(f"handaudit {__version__} ({describe()})")
    ctx.exit()


_rulebook_option = click.option("--rulebook", default="tda-2026", show_default=True, metavar="NAME|FILE",
                                help="A built-in rulebook (tda-2026, roberts-v11, wsop-2023-live, house) or a TOML file.")
_set_option = click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
                           help="Override one rulebook parameter for this run (repeatable).")


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the build (compiled or pure Python), and exit.")
def cli() -> None:
    """Audit poker hand histories (PHH): replay every action under a rulebook, settle every pot,
    verify recorded payouts, write the audit as Parquet."""


# ---------------------------------------------------------------------------------------------
# check


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@_rulebook_option
@_set_option
@click.option("--out", "out_dir", metavar="DIR",
              help="Write the Parquet audit report into DIR (new or empty, or an earlier report with --overwrite).")
@click.option("--overwrite", is_flag=True, help="With --out: replace the handaudit report already in DIR.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl", "json"]), default="text", show_default=True,
              help="Standard output: a human summary with the worst hands, one JSON object per hand (jsonl), "
                   "or the run's summary as one JSON object (json, for scripts and CI).")
@click.option("--quiet", "-q", is_flag=True, help="Text output: only the counts of hands (valid, invalid, unreadable).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Processes that audit: this one and N-1 workers (default: all cores; one for an input under 2 MB); "
                   "with --engine dask, the local cluster's N workers. Results do not depend on N.")
@click.option("--fail-on", type=click.Choice([ERROR, WARNING, "never"]), default=ERROR, show_default=True,
              help="Exit status 1 when a finding of this severity or worse is found.")
@click.option("--write-valid", metavar="DIR", help="Write the hands without an error finding to DIR/valid.phhs.")
@click.option("--write-invalid", metavar="DIR", help="Write the hands with an error finding to DIR/invalid.phhs.")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: worker processes on this machine; dask: the workers of a Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS",
              help="With --engine dask: a running Dask scheduler (tcp://host:8786); default: a local cluster of --jobs workers (2).")
@click.option("--select", multiple=True, metavar="CODE[,CODE]",
              help="Report only these finding codes (replaces handaudit.toml's select; repeatable).")
@click.option("--ignore", multiple=True, metavar="CODE[,CODE]",
              help="Do not report these finding codes; they are counted as ignored (adds to handaudit.toml's; repeatable).")
@click.option("--severity", "levels", multiple=True, metavar="CODE=LEVEL",
              help="Report CODE at LEVEL (error, warning, info) instead of its own severity (repeatable).")
@click.option("--config", "config_file", metavar="FILE",
              help="The project configuration (default: handaudit.toml in the working directory, if any).")
@click.option("--html", "html_file", metavar="FILE.html",
              help="Also write the HTML report (overview, charts, the worst hands' pages) to FILE.html.")
@click.option("--sessions", is_flag=True,
              help="With --out: also check consecutive hands of each table session against each other (stacks "
                   "carried over, the button, missed blinds, missing hands) into the report's sessions, "
                   "session_hands, session_players and session_findings tables (README, \"Across hands\").")
def check(paths, rulebook, overrides, out_dir, overwrite, fmt, quiet, jobs, fail_on, write_valid, write_invalid, engine,
          scheduler, select, ignore, levels, config_file, html_file, sessions):
    """Audit every hand of PATH... (.phh, .phhs, .gz, directories, - for standard input)."""
    from .config import load_config, selection_for
    from .run.local import Runner

    selection = selection_for(load_config(config_file), select, ignore, levels)
    from .run.process import no_idle_blas_threads

    no_idle_blas_threads()  # before anything imports pyarrow (and numpy)
    from .reports.text import Progress, render_counts, render_summary, render_worst, run_json

    if out_dir is not None and not out_dir.strip():
        raise click.BadParameter("the report directory cannot be an empty path", param_hint="--out")
    if overwrite and not out_dir:
        raise click.BadParameter("--overwrite needs --out DIR", param_hint="--overwrite")
    if list(paths).count("-") > 1:
        raise click.BadParameter("standard input '-' can be given only once", param_hint="PATH")
    for flag, d in (("--write-valid", write_valid), ("--write-invalid", write_invalid), ("--out", out_dir)):
        if d and os.path.exists(d) and not os.path.isdir(d):
            raise UserError(f"{flag} {d}: exists and is not a directory")
    if out_dir and "://" not in out_dir:  # (a URL's bucket: the Dask engine's own checks)
        from .reports.layout import check_out_dir

        check_out_dir(out_dir, overwrite)
    if out_dir and not _is_utf8(os.path.abspath(out_dir)):
        raise UserError(f"--out {out_dir}: the path is not UTF-8, which the Parquet writer (pyarrow) cannot open; "
                        "choose a directory whose path is")
    if out_dir and engine == "dask":
        from .run.process import skip_pandas_in_pyarrow

        skip_pandas_in_pyarrow()  # the local engine's Runner does this itself, when its path needs pyarrow
    from .buildinfo import PURE_WARNING, build_name, is_compiled

    if not is_compiled() and os.environ.get("HANDAUDIT_PURE", "") != "1":
        _err(PURE_WARNING)  # once, before the run: the user may want the compiled build first

    html_tmp = None  # check --html without --out: the Parquet report in a temporary directory
    if html_file is not None:
        from .reports.html.output import check_target

        check_target(html_file, "--html")
    progress = Progress(sys.stderr) if _isatty(sys.stderr) else None
    subsets = None
    try:
        if write_valid or write_invalid:
            from .reports.subsets import Subsets  # here: most runs write no clean subsets

            subsets = Subsets(write_valid, write_invalid)
    except OSError as err:
        raise UserError(f"cannot write the clean subsets: {err.filename or ''}: {err.strerror or err}") from None
    if scheduler and engine != "dask":
        raise UserError("--scheduler needs --engine dask")
    if engine == "dask":
        from .run.dask.client import DaskRunner, EngineError

        if fmt == "jsonl" or subsets is not None:
            raise UserError("--format jsonl, --write-valid and --write-invalid need --engine local")
        html_tmp = _html_temporary(html_file, out_dir)
        try:
            result = DaskRunner(paths, rulebook=rulebook, overrides=overrides, jobs=jobs, out_dir=out_dir or html_tmp,
                                scheduler=scheduler, progress=progress, selection=selection,
                                sessions=sessions).run()
        except EngineError as err:
            _remove(html_tmp)
            raise UserError(str(err)) from None
        except BaseException:
            _remove(html_tmp)
            raise
    else:
        from .reports.sinks import CleanSubsets, JSONLStream, ReportSink

        sinks: list[ReportSink] = []  # where the reports go besides --out (reports/sinks.py)
        if fmt == "jsonl":
            sinks.append(JSONLStream(sys.stdout))
        if subsets is not None and subsets.active:
            sinks.append(CleanSubsets(subsets))
        html_tmp = _html_temporary(html_file, out_dir)
        try:
            # numpy only with --html (its reading of the report brings pandas, and numpy with it);
            # otherwise pyarrow would import it for nothing (some 30 ms)
            runner = Runner(paths, rulebook=rulebook, overrides=overrides, jobs=jobs, out_dir=out_dir or html_tmp,
                            sinks=sinks, progress=progress, selection=selection, numpy=html_file is not None,
                            sessions=sessions)
            result = runner.run()
        except BaseException:
            _remove(html_tmp)
            raise
    s = result.summary
    notes = []
    if result.interrupted or result.error:
        if result.error and not result.interrupted:
            notes.append(_one_line(Exception(result.error)))  # the cause (and the path), on a line of its own
        why = "interrupted" if result.interrupted else "stopped"
        notes.append(f"{why}: {s.hands:,} hands audited before stopping.")
        if out_dir:
            rows = result.tables.get("hands", {}).get("rows", 0) if result.tables else None
            says = (f"_manifest.json says {'interrupted' if result.interrupted else 'failed'}"
                    if getattr(result, "manifest_written", True) else "no _manifest.json could be written")
            held = f"{rows:,} hands" if rows is not None else "an unknown number of hands"
            notes.append(f"The report in {out_dir} is incomplete (no _SUCCESS; {says}): its complete part files hold "
                         f"{held}; no partial file was left"
                         + (f" ({result.removed_temporaries} unfinished part removed)" if result.removed_temporaries else "")
                         + ".")
    stop_notes = len(notes)
    notes += result.subsets
    if fmt == "text" and quiet:
        _echo(render_counts(s), nl=False)
        for note in notes:
            _err(note)
    elif fmt == "text":
        rest = notes[stop_notes:]  # why the run stopped goes to standard error, once (below)
        _echo(render_summary(s, out_dir if out_dir and result.complete else None,
                                  "\n".join(rest) if rest else None, build_name()), nl=False)
        if sessions and out_dir and result.complete:
            from .sessions.stage import describe

            _echo(describe(out_dir))
        if s.invalid or s.not_audited:
            _echo()
            _echo(render_worst(s, rulebook), nl=False)
    elif fmt == "json":
        import json

        _echo(json.dumps(run_json(s, result, out_dir, fail_on), ensure_ascii=False))
        for note in notes:
            _err(note)
    else:
        for note in notes:
            _err(note)
        if _isatty(sys.stderr) and result.complete:
            _err(f"{s.hands:,} hands: {s.valid:,} valid, {s.invalid:,} invalid, {s.unreadable:,} unreadable"
                 + (f"; report in {out_dir}" if out_dir else ""))
    if fmt == "text" and not quiet and (result.interrupted or result.error):
        for note in notes[:stop_notes]:
            _err(note)
    for note in result.notes:  # what the run recovered from (a worker that died)
        _err(note)
    for line in s.not_phh:  # one line each; the exit status is 2
        _err(line)
    if html_file is not None:
        _html_after_run(out_dir or html_tmp, html_file, result.complete, html_tmp)
    return result.exit_status(fail_on)


def _html_temporary(html_file, out_dir):
    """check --html without --out: a temporary directory for the Parquet report (removed after)."""
    if html_file is None or out_dir:
        return None
    from .reports.html.output import temporary_report

    return temporary_report()


def _remove(directory) -> None:
    if directory:
        from .reports.html.output import remove_temporary

        remove_temporary(directory)


def _html_after_run(directory: str, html_file: str, complete: bool, temporary) -> None:
    from .reports.html import write_report
    from .reports.html.output import describe

    try:
        if complete:
            _err(describe(write_report(directory, html_file, kept=temporary is None)))
        else:
            _err(f"--html {html_file}: not written, the run did not finish")
    finally:
        _remove(temporary)


def _is_utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:  # an undecodable byte of the name (surrogateescape)
        return False
    return True


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------
# explain, settle


def _reports_for(file: str, hand: str | None, rulebook: str, overrides):
    """The audited hands of FILE: every hand, or those ``hand`` names.

    ``hand`` is a table name of a .phhs file (``[17]``) or the PHH ``hand`` field, the site's
    hand number a floor manager has; when a table name and a hand number both match (different
    hands), both are shown and a note on standard error says so. Table names are matched on the
    raw text first; the ``hand`` field needs each hand read (not replayed), still far less than
    auditing the file. A copy of a site hand the file already gave is what ``check`` makes of it
    (an unreadable ``duplicate-hand`` entry naming the first), so the hand number finds the copy
    ``check`` audited.
    """
    from .grammar.duplicates import SiteHands
    from .importers import read_any, site_hand_of
    from .importers.inputs import expand_inputs, read_inputs
    from .rules.rulebook import load_rulebook
    from .run.hand_loop import audit_read

    files = expand_inputs([file])
    if len(files) != 1:
        raise UserError(f"{file}: give one PHH file (found {len(files)} under this directory)")
    book = load_rulebook(rulebook, list(overrides))
    by_key, by_number = [], []
    keys: list[str] = []
    hands = 0
    site_hands = SiteHands(site_hand_of)
    for chunk in read_inputs(files[0]):
        hands += 1
        chunk = site_hands.check(chunk)
        if hand is None or chunk.hand_key == hand:
            by_key.append(audit_read(read_any(chunk), book, chunk.index))
            continue
        read = read_any(chunk)
        if read.hand is not None and read.hand.hand is not None and _same_number(read.hand.hand, hand):
            by_number.append(audit_read(read, book, chunk.index))
        elif len(keys) < 20 and chunk.hand_key:
            keys.append(chunk.hand_key)
    if by_key and by_number:
        named = ", ".join(f"[{r.hand_key}]" for r in by_number)
        _err(f"--hand {hand}: the table named {hand!r} and the hand numbered {hand} ({named}) both match; "
             "showing both, the table first")
    found = by_key + by_number
    if not found:
        if hands == 1 and not keys:
            raise UserError(f"{file}: no hand numbered {hand!r}; the file holds one hand (a .phh file has no table "
                            "names): leave out --hand")
        hint = f" (table names: {', '.join(keys)}{', ...' if len(keys) == 20 else ''})" if keys else ""
        raise UserError(f"{file}: no hand with the table name or the hand number {hand!r}{hint}")
    return found


def _same_number(value: object, wanted: str) -> bool:
    """Whether the PHH ``hand`` field (an integer, or a site's hand id as text) is ``wanted``."""
    if isinstance(value, bool):
        return False
    text = str(value).strip()
    return text == wanted.strip() or (text.lstrip("#") == wanted.strip().lstrip("#"))


def _unreadable_text(report) -> str:
    where = f"{report.source} [{report.hand_key}]" if report.hand_key else report.source
    lines = [f"{where}: unreadable"]
    for f in report.findings:
        loc = f" line {f.line}, column {f.column}" if f.line is not None else ""
        lines.append(f"  {f.severity} {f.code}{loc}: {f.message}")
    return "\n".join(lines) + "\n"


@cli.command()
@click.argument("file", metavar="FILE")
@click.option("--hand", "hand_key", metavar="KEY|NUMBER",
              help="The hand's table name in a .phhs file, or its PHH hand number (default: every hand).")
@_rulebook_option
@_set_option
@click.option("--html", "html_file", metavar="OUT", help="Write the hand's page (replay and settlement ledger) to OUT "
              "as one printable HTML file instead.")
def explain(file, hand_key, rulebook, overrides, html_file):
    """Action-by-action replay of a hand: street, actor, action, pot, to call, raise range, findings."""
    from .reports.explain import render_explain

    if html_file is not None:
        from .reports.html.output import explain_html

        _echo(explain_html(_reports_for(file, hand_key, rulebook, overrides), file, html_file))
        return EXIT_OK
    for i, report in enumerate(_reports_for(file, hand_key, rulebook, overrides)):
        if i:
            _echo()
        if report.hand is None:
            _echo(_unreadable_text(report), nl=False)
        else:
            text = render_explain(report)
            _echo(text, nl=not text.endswith("\n"))
    return EXIT_OK


@cli.command()
@click.argument("file", metavar="FILE")
@click.option("--hand", "hand_key", metavar="KEY|NUMBER",
              help="The hand's table name in a .phhs file, or its PHH hand number (default: every hand).")
@_rulebook_option
@_set_option
def settle(file, hand_key, rulebook, overrides):
    """The settlement of a hand as a ledger: pots, side pots, eligible players, winners, returns, net."""
    from .reports.ledger import render_ledger

    for i, report in enumerate(_reports_for(file, hand_key, rulebook, overrides)):
        if i:
            _echo()
        if report.hand is None or report.settlement is None:
            _echo(_unreadable_text(report), nl=False)
        else:
            text = render_ledger(report.hand, report.replay, report.settlement)
            _echo(text, nl=not text.endswith("\n"))
    return EXIT_OK


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="INPUT...")
@click.option("-o", "--output", "output", required=True, metavar="OUT.phhs",
              help="The .phhs file to write (refused if it exists, unless --overwrite).")
@click.option("--overwrite", is_flag=True, help="Replace OUT.phhs if it exists.")
def convert(paths, output, overwrite):
    """Write the hands of INPUT... (site logs, PHH) as PHH, exactly, into one .phhs file.

    Each hand is read as `check` reads it; a hand that cannot be read is named on standard error
    with its reason and not written (exit status 1). The site's own figures are kept as user
    fields `_site_...`, so `check OUT.phhs` gives the same audit as `check INPUT...`.
    """
    from .grammar.writer import phhs
    from .importers import read_any
    from .importers.inputs import expand_inputs, read_inputs

    if not output.endswith(".phhs"):
        raise UserError(f"-o {output}: the output must be a .phhs file")
    from .reports.safe_file import SafeFile, check_target, signals_raise

    check_target(output, "-o", overwrite)  # before any reading: a directory, a device, a link refused
    files = expand_inputs(list(paths))
    skipped = 0
    written = 0

    def readable():
        nonlocal skipped, written
        for path in files:
            for chunk in read_inputs(path):
                read = read_any(chunk)
                if read.hand is None:
                    skipped += 1
                    where = f"{read.source} [{read.hand_key}]" if read.hand_key else read.source
                    why = "; ".join(f"{f.code}: {f.message}" for f in read.findings) or "unreadable"
                    _err(f"{where}: not converted: {why}")
                    continue
                written += 1
                yield read.hand

    # Streamed, hand by hand, into a temporary file renamed over OUT only when whole; removed
    # on an error, Ctrl-C, SIGTERM or SIGHUP (exit status 130), as check's report is.
    with signals_raise(), SafeFile(output, "-o", overwrite) as out:
        for piece in phhs(readable()):
            out.write(piece.encode("utf-8"))
    _echo(f"{written} hands written to {output}" + (f"; {skipped} not converted (see above)" if skipped else ""),
          err=True)
    return EXIT_FINDINGS if skipped else EXIT_OK


# ---------------------------------------------------------------------------------------------
# rulebooks, summary


@cli.command()
@click.argument("names", nargs=-1, metavar="[NAME...]")
@click.option("--codes", is_flag=True, help="List the finding codes instead: code, severity, meaning, rules.")
def rulebooks(names, codes):
    """The built-in rulebooks and their parameters side by side (or the finding codes)."""
    if codes:
        from .rules.rulebook import render_codes

        text = render_codes(list(names) or None)
        _echo(text, nl=not text.endswith("\n"))
        return EXIT_OK
    from .rules.rulebook import render_table

    text = render_table(list(names))
    _echo(text, nl=not text.endswith("\n"))
    return EXIT_OK


@cli.command()
@click.argument("directory", metavar="DIR")
@click.option("--worst", default=10, show_default=True, type=click.IntRange(min=0), metavar="N",
              help="How many of the worst hands to list.")
def summary(directory, worst):
    """The summary of an existing report (check --out DIR), and its worst hands."""
    from .reports.layout import is_report
    from .grammar.sources import report_path
    from .reports.text import WORST, render_summary, render_worst, source_resolver, summary_from_report

    if not os.path.isdir(directory):
        raise UserError(f"{directory}: no such directory")
    if not is_report(directory):
        raise UserError(f"{directory}: not a handaudit report (no _manifest.json, no hands/ table)")
    from .reports.verify import verify_report

    verify_report(directory)  # a part or a table lost, a foreign file, a damaged manifest: one line, exit 2
    s, manifest = summary_from_report(directory)
    note = None
    if manifest is None:
        note = "No _manifest.json: the run that wrote this report did not finish; the report is incomplete."
    elif manifest.get("status") != "complete":
        note = (f"This report is incomplete: the run that wrote it was {manifest.get('status')}; "
                f"{manifest.get('hands', 0):,} hands are in it.")
    _echo(render_summary(s, None, note), nl=False)
    if worst:
        _echo()
        if worst > WORST:
            from .reports.parquet import read_table

            s.worst = _worst_from(directory, read_table(directory, "hands", ["source", "hand_key", "hand_index",
                                                                             "findings", "errors"]), worst)
        here = (manifest or {}).get("working_directory")
        resolve = source_resolver(here, report_path(os.getcwd())) if here else None
        _echo(render_worst(s, manifest.get("rulebook") if manifest else None, worst, resolve), nl=False)
    return EXIT_OK


def _worst_from(directory: str, hands, n: int) -> list:
    import pyarrow.compute as pc

    from .reports.text import findings_of_hands, worst_from_tables

    t = hands.filter(pc.greater(hands.column("errors"), 0)).sort_by(
        [("errors", "descending"), ("findings", "descending"), ("source", "ascending"), ("hand_index", "ascending")]
    ).slice(0, n)
    return worst_from_tables(t, findings_of_hands(directory, t))


@cli.command()
@click.argument("directory", metavar="DIR")
@click.option("-o", "--output", "out", metavar="FILE.html", help="Where to write it (default: DIR.html beside DIR).")
@click.option("--hands", default=200, show_default=True, type=click.IntRange(min=0), metavar="N",
              help="Pages for the N worst flagged hands.")
def report(directory, out, hands):
    """One self-contained HTML file of an existing report (check --out DIR): overview, charts, hand pages."""
    from .reports.html import write_report
    from .reports.html.output import check_target, default_path, describe
    from .reports.layout import is_report

    if not os.path.isdir(directory):
        raise UserError(f"{directory}: no such directory")
    if not is_report(directory):
        raise UserError(f"{directory}: not a handaudit report (no _manifest.json, no hands/ table)")
    out = default_path(directory) if out is None else out
    check_target(out, "-o")
    from .reports.verify import verify_report

    verify_report(directory)  # a part or a table lost, a foreign file, a damaged manifest: one line, exit 2
    _err(describe(write_report(directory, out, hands)))  # as check --html says it: standard error
    return EXIT_OK


# ---------------------------------------------------------------------------------------------
# entry point


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the command, map every outcome to an exit status."""
    if argv is None:  # the process's own command line: it ends here (sys.exit below)
        # What the imports made lives until the process ends: set aside from the collector, it is
        # not walked again by each full collection of the run, nor at the exit (some 10 ms of a
        # small run: docs/performance.md, "Start-up"). Never done for a caller's argv (tests).
        gc.freeze()
    debug = os.environ.get("HANDAUDIT_DEBUG", "") not in ("", "0")
    user_errors = _rulebook_error_types()
    from .reports.safe_file import signals_raise

    try:
        # SIGTERM and SIGHUP end every command as Ctrl-C does (exit status 130, temporary files
        # removed, a report's manifest written by the run's own handler while it runs), never
        # the death of the process by the signal, before, during or after a run.
        with signals_raise():
            code = cli.main(args=argv, prog_name="handaudit", standalone_mode=False)
    except click.exceptions.Abort:
        _err("interrupted")
        code = EXIT_INTERRUPTED
    except click.ClickException as err:  # a UsageError too: usage, hint and message, escaped
        shown = StringIO()
        err.show(file=shown)
        _echo(shown.getvalue(), nl=False, err=True)
        code = EXIT_USAGE
    except KeyboardInterrupt:
        _err("interrupted")
        code = EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader of standard output went away (`| head`): stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        code = EXIT_FINDINGS
    except user_errors as err:
        if debug:
            raise
        _err(_one_line(err))
        code = EXIT_USAGE
    except OSError as err:  # the environment (too many open files, a full disk): the cause, not a bug
        if debug:
            raise
        where = f"{os.fsdecode(err.filename)}: " if err.filename else ""
        text = err.strerror or _one_line(err)
        _err(f"{where}{text[:1].lower() + text[1:]}")
        code = EXIT_USAGE
    except Exception as err:  # never a traceback for the user
        if debug:
            raise
        _err(f"internal error: {type(err).__name__}: {_one_line(err)} (HANDAUDIT_DEBUG=1 shows the traceback)")
        code = EXIT_USAGE
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
