"""The command line: exit statuses, --fail-on, errors in one line, clean subsets, the other commands."""

from __future__ import annotations

import csv
import json
import os
import pty
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from handaudit import cli as cli_module
from handaudit.grammar.reader import read_hands
from handaudit.grammar.sources import read_chunks
from handaudit.reports.text import Progress

from helpers import CORPUS, OUT_OF_TURN_HAND, REPO, VALID_HAND, run_cli

VALID = VALID_HAND
INVALID = OUT_OF_TURN_HAND  # p1 acts out of turn
# p1 folds when checking was free: a warning only
WARNING_ONLY = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc', 'd db AcKd7h',
           'p1 f', 'p2 cc', 'p3 cc', 'd db 2s', 'p2 cc', 'p3 cc', 'd db 9d', 'p2 cc', 'p3 cc',
           'p2 sm ????', 'p3 sm ????']
"""


def run(*args: str, stdin: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return run_cli(*args, stdin=stdin, env=env)


@pytest.fixture()
def files(tmp_path):
    paths = {}
    for name, text in (("valid", VALID), ("invalid", INVALID), ("warning", WARNING_ONLY)):
        p = tmp_path / f"{name}.phh"
        p.write_text(text)
        paths[name] = str(p)
    return paths


def _no_traceback(proc) -> None:
    assert b"Traceback" not in proc.stderr and b"Traceback" not in proc.stdout


# --- exit statuses and --fail-on ---------------------------------------------------------------


def test_valid_hand_exits_0_and_prints_a_summary(files):
    proc = run("check", files["valid"])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "1 hands read from 1 file" in out and "valid       1" in out
    assert "Payout checks: match 1" in out and "Throughput:" in out
    assert proc.stderr == b""  # not a terminal: no progress bar


def test_error_finding_exits_1(files):
    proc = run("check", files["valid"], files["invalid"])
    assert proc.returncode == 1
    assert "out-of-turn" in proc.stdout.decode()


@pytest.mark.parametrize("fail_on, valid_rc, warning_rc, invalid_rc", [
    ("error", 0, 0, 1), ("warning", 0, 1, 1), ("never", 0, 0, 0)])
def test_fail_on(files, fail_on, valid_rc, warning_rc, invalid_rc):
    for name, rc in (("valid", valid_rc), ("warning", warning_rc), ("invalid", invalid_rc)):
        proc = run("check", files[name], "--fail-on", fail_on)
        assert proc.returncode == rc, (name, fail_on, proc.stdout, proc.stderr)


@pytest.mark.parametrize("args, message", [
    (["check", "no/such/file.phh"], "no such file or directory"),
    (["check", "README.md"], "not a PHH file"),
    (["check", "{valid}", "--rulebook", "no-such-book"], ""),
    (["check", "{valid}", "--set", "no_such_key=1"], ""),
    (["check", "{valid}", "--set", "limit_raises"], ""),
    (["check", "{valid}", "--format", "xml"], "xml"),
    (["check", "{valid}", "--jobs", "0"], "jobs"),
    (["check"], "PATH"),
    (["frobnicate"], "No such command"),
    (["explain", "{valid}", "--hand", "7"], "no hand numbered '7'; the file holds one hand"),
    (["summary", "{tmp}"], "not a handaudit report"),
    (["rulebooks", "no-such-book"], ""),
])
def test_bad_usage_and_unreadable_input_exit_2_with_one_line(files, tmp_path, args, message):
    args = [a.format(valid=files["valid"], tmp=str(tmp_path)) for a in args]
    proc = run(*args)
    assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
    _no_traceback(proc)
    err = proc.stderr.decode()
    assert message in err
    assert proc.stdout == b""
    if args[0] != "frobnicate" and "--format" not in args and "--jobs" not in args and args != ["check"]:
        assert err.count("\n") == 1 and err.startswith("handaudit: "), err


def test_unreadable_hands_do_not_stop_the_others(tmp_path, files):
    bad = tmp_path / "bad.phhs"
    bad.write_text("[1]\n" + VALID + "\n[2]\nvariant = 'NT'\nactions = [\n\n[3]\n" + VALID)
    proc = run("check", str(bad), "--format", "jsonl")
    assert proc.returncode == 1
    statuses = [json.loads(line)["status"] for line in proc.stdout.decode().splitlines()]
    assert statuses == ["valid", "unreadable", "valid"]


def test_standard_input(files):
    proc = run("check", "-", "--format", "jsonl", stdin=Path(files["valid"]).read_bytes())
    assert proc.returncode == 0, proc.stderr
    (obj,) = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert obj["source"] == "-" and obj["status"] == "valid"


def test_jsonl_stdout_holds_only_json(files):
    proc = run("check", files["valid"], files["invalid"], files["warning"], "--format", "jsonl")
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 3 and all(json.loads(line) for line in lines)
    assert proc.stderr == b""


# --- no traceback, ever ---------------------------------------------------------------------------


def _main(argv, monkeypatch, capsys, debug: bool = False):
    if debug:
        monkeypatch.setenv("HANDAUDIT_DEBUG", "1")
    else:
        monkeypatch.delenv("HANDAUDIT_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exit_info:
        cli_module.main(argv)
    return exit_info.value.code, capsys.readouterr()


def test_internal_error_is_one_line_and_debug_shows_it(files, monkeypatch, capsys):
    import handaudit.run.local

    def boom(self):
        raise RuntimeError("simulated bug\nsecond line")

    monkeypatch.setattr(handaudit.run.local.Runner, "run", boom)
    code, captured = _main(["check", files["valid"]], monkeypatch, capsys)
    assert code == 2
    assert captured.err.startswith("handaudit: internal error: RuntimeError: simulated bug")
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    with pytest.raises(RuntimeError):
        _main(["check", files["valid"]], monkeypatch, capsys, debug=True)


def test_a_bug_on_one_hand_becomes_its_finding(files, monkeypatch, capsys):
    import handaudit.run.hand_loop

    real = handaudit.run.hand_loop.audit_read

    def flaky(read, book, *args):
        if read.source.endswith("invalid.phh"):
            raise ZeroDivisionError("simulated")
        return real(read, book, *args)

    monkeypatch.setattr(handaudit.run.hand_loop, "audit_read", flaky)
    code, captured = _main(["check", files["valid"], files["invalid"], "--format", "jsonl", "--jobs", "1"],
                           monkeypatch, capsys)
    assert code == 1
    objs = [json.loads(line) for line in captured.out.splitlines()]
    assert [o["status"] for o in objs] == ["valid", "invalid"]
    assert objs[1]["findings"][-1]["code"] == "internal-error"
    assert "ZeroDivisionError" in objs[1]["findings"][-1]["message"]


# --- progress ---------------------------------------------------------------------------------------


def test_progress_bar_only_on_a_terminal(files):
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "handaudit.cli", "check", files["valid"], files["warning"]],
                          stdout=subprocess.PIPE, stderr=slave, env=env, cwd=REPO, timeout=300)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    err = b"".join(chunks).decode()
    assert proc.returncode == 0
    assert "hands/s" in err and "\r" in err
    assert "hands/s" not in proc.stdout.decode().split("Throughput")[0]


def test_progress_line_shows_rate_and_time_left():
    stream = StringIO()
    p = Progress(stream, total_bytes=1000, interval=0)
    p.update(50, 250, force=True)
    text = stream.getvalue()
    assert "50 hands" in text and "hands/s" in text and "left" in text and "25.0%" in text
    p.close()
    q = Progress(StringIO(), total_bytes=None, interval=0)
    q.update(10, 0, force=True)
    assert "elapsed" in q.stream.getvalue()


# --- clean subsets ----------------------------------------------------------------------------------


def test_write_valid_and_invalid_round_trip(tmp_path):
    mixed = tmp_path / "mixed.phhs"
    # two tables named [1] (a duplicate: unreadable), a broken one, and good ones, no final newline
    mixed.write_text("[1]\n" + VALID + "\n[2]\n" + INVALID + "\n[1]\n" + VALID + "\n[3]\nvariant = 'NT'\n"
                     "actions = [\n\n[4]\n" + WARNING_ONLY.rstrip("\n"))
    inputs = [str(mixed), str(CORPUS / "real" / "wsop")] if CORPUS.is_dir() else [str(mixed)]
    out_valid, out_invalid = tmp_path / "clean", tmp_path / "dirty"
    proc = run("check", *inputs, "--format", "jsonl", "--write-valid", str(out_valid),
               "--write-invalid", str(out_invalid), "--jobs", "2")
    assert proc.returncode == 1, proc.stderr
    objs = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    originals = [c for p in inputs for c in _chunks(p)]
    assert len(originals) == len(objs)

    for directory, name, wanted in ((out_valid, "valid", {"valid"}), (out_invalid, "invalid", {"invalid", "unreadable"})):
        written = directory / f"{name}.phhs"
        with open(directory / f"{name}.keys.csv", newline="") as f:
            mapping = list(csv.DictReader(f))
        expected = [(o, c) for o, c in zip(objs, originals, strict=True) if o["status"] in wanted]
        assert [m["key"] for m in mapping] == [str(i) for i in range(1, len(expected) + 1)]
        assert [(m["source"], m["hand_key"], m["status"]) for m in mapping] == [
            (o["source"], o["hand_key"], o["status"]) for o, _ in expected]
        # the hands' text is unchanged (a final newline added where the text had none)
        again = list(read_chunks(str(written)))
        assert [c.hand_key for c in again] == [m["key"] for m in mapping]
        for chunk, (_, original) in zip(again, expected, strict=True):
            assert chunk.data == (original.data if original.data.endswith(b"\n") else original.data + b"\n")
        # re-auditing the written file gives the same statuses
        reproc = run("check", str(written), "--format", "jsonl")
        # (a duplicate table name is unreadable only as a duplicate: under its new name it reads)
        assert [json.loads(line)["status"] for line in reproc.stdout.decode().splitlines()] == [
            "valid" if _duplicate(c) else o["status"] for o, c in expected]
    assert "valid hands written to" in proc.stderr.decode()


def _chunks(path: str):
    from handaudit.grammar.sources import expand_paths

    return [c for f in expand_paths([path]) for c in read_chunks(f)]


def _duplicate(chunk) -> bool:
    return chunk.problem is not None and chunk.problem[0] == "duplicate-hand"


# --- the other commands --------------------------------------------------------------------------


def test_explain_and_settle(files, tmp_path):
    proc = run("explain", files["invalid"])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "out-of-turn" in out and "p1 cbr 0.30" in out
    proc = run("settle", files["valid"])
    assert proc.returncode == 0, proc.stderr
    assert "26.85" in proc.stdout.decode()
    many = tmp_path / "many.phhs"
    many.write_text("[a]\n" + VALID + "\n[b]\n" + INVALID)
    proc = run("explain", str(many), "--hand", "b")
    assert proc.returncode == 0 and "out-of-turn" in proc.stdout.decode() and "[b]" in proc.stdout.decode()
    proc = run("settle", str(many), "--hand", "a", "--rulebook", "roberts-v11")
    assert proc.returncode == 0 and "[a]" in proc.stdout.decode()


def test_explain_of_an_unreadable_hand(tmp_path):
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nactions = [\n")
    proc = run("explain", str(bad))
    assert proc.returncode == 0
    assert "unreadable" in proc.stdout.decode() and "syntax-error" in proc.stdout.decode()


def test_rulebooks(files):
    proc = run("rulebooks")
    assert proc.returncode == 0 and b"tda-2026" in proc.stdout and b"limit_raises" in proc.stdout
    proc = run("rulebooks", "house", "--codes")
    assert proc.returncode == 0 and b"out-of-turn" in proc.stdout


def test_summary_of_a_report(files, tmp_path):
    out = tmp_path / "report"
    check = run("check", files["valid"], files["invalid"], files["warning"], "--out", str(out))
    assert check.returncode == 1
    proc = run("summary", str(out))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    # the same summary as check printed (hands, statuses, codes, payouts, rake, throughput)
    check_text = check.stdout.decode()
    head = check_text.split("Report:")[0]
    assert text.startswith(head.split("Throughput:")[0])
    assert "Worst hands" in text
    assert f"handaudit explain {files['invalid']}" in text


def test_version_and_help():
    from handaudit import __version__
    from handaudit.buildinfo import describe

    # 'pure Python' on the editable install; 'compiled (N modules)' when run on a built copy
    assert run("--version").stdout.decode() == f"handaudit {__version__} ({describe()})\n"
    proc = run("check", "--help")
    assert proc.returncode == 0
    for option in ("--rulebook", "--set", "--out", "--format", "--jobs", "--fail-on", "--write-valid", "--write-invalid"):
        assert option in proc.stdout.decode()


def test_reader_agrees_with_written_subset_hand_count(tmp_path):
    """--write-valid of the corpus re-reads to as many hands as were valid."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus not found")
    out = tmp_path / "clean"
    proc = run("check", str(CORPUS / "real" / "pluribus"), "--write-valid", str(out), "--fail-on", "never")
    assert proc.returncode == 0
    valid = int(proc.stdout.decode().split("valid")[1].split()[0].replace(",", ""))
    assert sum(1 for _ in read_hands([str(out / "valid.phhs")])) == valid


# --- --hand: a table name or the PHH hand number ------------------------------------------------


def _numbered(tmp_path):
    path = tmp_path / "night.phhs"
    path.write_text(f"[1]\nhand = 7\n{VALID_HAND}\n[7]\nhand = 3017235188\n{VALID_HAND}\n[x]\n{VALID_HAND}",
                    encoding="utf-8")
    return path


def test_hand_by_its_phh_number(tmp_path):
    path = _numbered(tmp_path)
    r = run_cli("settle", str(path), "--hand", "3017235188", text=True)
    assert r.returncode == 0, r.stderr
    assert f"Settlement of {path} [7] (hand 3017235188)" in r.stdout and "[1]" not in r.stdout
    r = run_cli("explain", str(path), "--hand", "x", text=True)
    assert r.returncode == 0 and f"{path} [x]:" in r.stdout


def test_hand_matching_a_table_name_and_a_number_shows_both_and_says_so(tmp_path):
    path = _numbered(tmp_path)
    r = run_cli("explain", str(path), "--hand", "7", text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.index(f"{path} [7] (hand 3017235188)") < r.stdout.index(f"{path} [1] (hand 7)")
    assert "--hand 7: the table named '7' and the hand numbered 7 ([1]) both match" in r.stderr


def test_hand_not_found_lists_the_table_names(tmp_path):
    r = run_cli("explain", str(_numbered(tmp_path)), "--hand", "99", text=True)
    assert r.returncode == 2
    assert "no hand with the table name or the hand number '99' (table names: 1, 7, x)" in r.stderr


# --- what check prints: the worst hands, --quiet, --format json ------------------------------------


def test_check_names_the_worst_hands_with_their_first_error_and_command(tmp_path):
    (tmp_path / "bad.phh").write_text((REPO / "samples" / "bet-below-minimum.phh").read_text(), encoding="utf-8")
    (tmp_path / "ok.phh").write_text(VALID, encoding="utf-8")
    r = run_cli("check", "bad.phh", "ok.phh", cwd=tmp_path, text=True)
    assert r.returncode == 1
    worst = r.stdout[r.stdout.index("Worst hands"):].splitlines()
    assert worst[0] == "Worst hands (most errors), 1 of 1 with errors:"
    assert worst[1] == "  bad.phh: 1 error, 1 finding"
    assert worst[2].startswith("    first: bet-below-minimum: p1 bets to 4")
    assert worst[3] == "    handaudit explain bad.phh"


def test_quiet_prints_only_the_counts(files):
    r = run_cli("check", files["valid"], files["invalid"], "--quiet", text=True)
    assert r.returncode == 1
    assert r.stdout.splitlines()[1:] == ["  valid       1   (no error finding)",
                                         "  invalid     1   (at least one error finding)",
                                         "  unreadable  0   (could not be read; see their findings)"]


def test_format_json_is_one_object_for_scripts(files):
    r = run_cli("check", files["valid"], files["invalid"], "--format", "json", text=True)
    assert r.returncode == 1
    (line,) = r.stdout.splitlines()
    run = json.loads(line)
    assert (run["hands"], run["valid"], run["invalid"], run["exit_status"], run["complete"]) == (2, 1, 1, 1, True)
    assert run["worst"][0]["source"] == files["invalid"] and run["worst"][0]["first_error"]["code"]
    assert run["ignored"] == {} and run["report"] is None


def test_summary_commands_work_from_another_directory(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "bad.phh").write_text((REPO / "samples" / "bet-below-minimum.phh").read_text(), encoding="utf-8")
    assert run_cli("check", "bad.phh", "--out", "rep", cwd=work, text=True).returncode == 1
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = run_cli("summary", str(work / "rep"), cwd=elsewhere, text=True)
    assert r.returncode == 0, r.stderr
    command = [line.strip() for line in r.stdout.splitlines() if line.strip().startswith("handaudit explain")]
    assert command == [f"handaudit explain {work / 'bad.phh'}"]  # outside the working directory: absolute
    assert "first: bet-below-minimum" in r.stdout
    again = run_cli(*command[0].split()[1:], cwd=elsewhere, text=True)
    assert again.returncode == 0 and "bet-below-minimum" in again.stdout


def test_progress_knows_the_size_of_gz_files_and_redirected_standard_input(tmp_path):
    import gzip

    from handaudit.run.batches import input_bytes

    text = ("[1]\n" + VALID) * 50
    plain = tmp_path / "a.phhs"
    plain.write_text(text)
    packed = tmp_path / "b.phhs.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert input_bytes([str(plain), str(packed)]) == 2 * len(text.encode())
    with open(plain, "rb") as f:
        code = "from handaudit.run.batches import input_bytes; print(input_bytes(['-']))"
        redirected = subprocess.run([sys.executable, "-c", code], stdin=f, capture_output=True, text=True, cwd=REPO)
    assert redirected.stdout.strip() == str(len(text.encode()))
    piped = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, cwd=REPO)
    assert piped.stdout.strip() == "None"  # a pipe: the bar shows hands and rate, no percentage


def test_the_input_size_comes_from_the_stat_that_drops_repeats(tmp_path, monkeypatch):
    """One ``stat`` a file: drop_repeats records the sizes of the files it keeps (not of a
    repeat, nor of a file it could not examine), and input_bytes uses them instead of its own;
    a .gz file still counts its uncompressed size."""
    import gzip
    import os

    from handaudit.grammar.sources import drop_repeats
    from handaudit.run import batches

    text = ("[1]\n" + VALID) * 3
    a = tmp_path / "a.phhs"
    a.write_text(text)
    link = tmp_path / "link.phhs"
    os.link(a, link)
    packed = tmp_path / "b.phhs.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    missing = str(tmp_path / "gone.phh")
    sizes: dict[str, int] = {}
    kept, notes = drop_repeats([str(a), str(link), str(packed), missing], sizes)
    assert kept == [str(a), str(packed), missing] and len(notes) == 1
    assert sizes == {str(a): len(text.encode()), str(packed): packed.stat().st_size}
    monkeypatch.setattr(batches, "_file_bytes", lambda path: pytest.fail(f"a second stat of {path}"))
    assert batches.input_bytes([str(a), str(packed)], sizes) == 2 * len(text.encode())
