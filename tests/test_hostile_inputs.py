"""Issue 14, hostile inputs: unreadable files and directories are counted and reported, file
names that are not UTF-8 or hold control characters are carried escaped into every output, and
JSONL keeps one hand per line whatever the strings hold.

Tests run as root, where ``chmod 000`` blocks nothing: permission failures are made either by
patching ``os.open`` / ``os.scandir`` for given paths (the library) or, end to end, by running
the command in a child that has lost CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (``setpriv``), so
that the mode bits apply to it (skipped, saying why, where that cannot be done).
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from handaudit import audit
from handaudit.grammar import sources, splitter
from handaudit.grammar.chunk import Chunk, SourceError
from handaudit.grammar.reader import read_hands
from handaudit.grammar.sources import expand_paths, printable, read_chunks, report_path
from handaudit.reports.jsonl import report_line
from handaudit.reports.subsets import Subsets
from handaudit.reports.summary import Summary
from handaudit.reports.text import (
    _report_bytes,
    render_worst,
    shell_word,
    terminal_text,
)
from handaudit.run.local import Runner

from helpers import OUT_OF_TURN_HAND, REPO, VALID_HAND, cli_env, run_cli

VALID = VALID_HAND
INVALID = OUT_OF_TURN_HAND  # p1 acts out of turn

# What a terminal acts on, and what splits a line for str.splitlines(), as UTF-8 bytes.
TERMINAL_BYTES = [bytes([b]) for b in range(0x20) if b not in (9, 10)] + [b"\x7f"] + \
    [chr(c).encode() for c in range(0x80, 0xA0)] + ["\u2028".encode(), "\u2029".encode()]


def cli(*args: str, cwd: Path = REPO, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return run_cli(*args, cwd=cwd, prefix=prefix, timeout=300)


def statuses(root) -> list[tuple[str, str, list[str]]]:
    return [(r.source, r.status, [f.code for f in r.findings]) for r in audit([str(root)])]


def assert_terminal_safe(data: bytes) -> None:
    data.decode("utf-8")  # valid UTF-8
    for bad in TERMINAL_BYTES:
        assert bad not in data, (bad, data[:400])


# ---------------------------------------------------------------------------------------------
# 1. unreadable files and directories inside an input directory


@pytest.fixture()
def tree(tmp_path):
    """hands/: 3 good .phh files, sub/ with a 2-hand .phhs, locked/ with one file."""
    root = tmp_path / "hands"
    (root / "sub").mkdir(parents=True)
    (root / "locked").mkdir()
    for name in ("a.phh", "b.phh", "c.phh"):
        (root / name).write_text(VALID)
    (root / "sub" / "two.phhs").write_text("[1]\n" + VALID + "\n[2]\n" + VALID)
    (root / "locked" / "x.phh").write_text(VALID)
    return root


def _refuse(monkeypatch, name: str, refused: set[str]):
    """Make os.<name> raise PermissionError (EACCES, as the kernel does) for the given paths."""
    real = getattr(os, name)

    def fake(path, *args, **kwargs):
        if os.fspath(path) in refused:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, name, fake)


def test_an_unreadable_file_is_one_entry_and_the_run_goes_on(tree, monkeypatch):
    _refuse(monkeypatch, "open", {str(tree / "b.phh")})
    got = statuses(tree)
    assert [(Path(s).relative_to(tree).as_posix(), st_) for s, st_, _ in got] == [
        ("a.phh", "valid"), ("b.phh", "unreadable"), ("c.phh", "valid"), ("locked/x.phh", "valid"),
        ("sub/two.phhs", "valid"), ("sub/two.phhs", "valid")]
    (report,) = [r for r in audit([str(tree)]) if r.status == "unreadable"]
    (f,) = report.findings
    assert (f.code, f.severity) == ("unreadable-input", "error")
    assert f.message == f"cannot open {tree / 'b.phh'}: Permission denied (EACCES)"


def test_an_unlistable_subdirectory_is_one_entry_and_the_run_goes_on(tree, monkeypatch):
    _refuse(monkeypatch, "scandir", {str(tree / "locked")})
    assert expand_paths([str(tree)]) == [str(tree / n) for n in ("a.phh", "b.phh", "c.phh")] + \
        [str(tree / "locked") + "/", str(tree / "sub" / "two.phhs")]
    got = statuses(tree)
    assert len(got) == 6
    assert got[3] == (str(tree / "locked"), "unreadable", ["unreadable-input"])
    assert [s for _, s, _ in got].count("valid") == 5
    (report,) = [r for r in audit([str(tree)]) if r.status == "unreadable"]
    assert report.findings[0].message == (f"cannot list the directory {tree / 'locked'}: Permission denied (EACCES); "
                                          "its files are not read")


def test_a_directory_listable_again_when_read_is_read(tree, monkeypatch):
    """Listed as unlistable, listable by the time it is read: its hands are read, once."""
    _refuse(monkeypatch, "scandir", {str(tree / "locked")})
    files = expand_paths([str(tree)])
    monkeypatch.undo()
    chunks = [c for f in files for c in read_chunks(f)]
    assert [(Path(c.source).relative_to(tree).as_posix(), c.problem) for c in chunks] == [
        ("a.phh", None), ("b.phh", None), ("c.phh", None), ("locked/x.phh", None),
        ("sub/two.phhs", None), ("sub/two.phhs", None)]


def test_an_explicit_unlistable_directory_is_refused_up_front(tree, monkeypatch):
    _refuse(monkeypatch, "scandir", {str(tree)})
    with pytest.raises(SourceError, match=r"cannot list the directory: Permission denied \(EACCES\)$"):
        expand_paths([str(tree)])


def test_dangling_links_fifos_and_vanished_files(tree):
    os.symlink(tree / "gone.phh", tree / "dangling.phh")
    os.symlink(tree / "loop.phh", tree / "loop.phh")
    os.mkfifo(tree / "pipe.phhs")  # never opened: it would block
    os.symlink(tree / "sub", tree / "linked-dir.phh")  # a symlinked directory: not entered, as before
    files = expand_paths([str(tree)])
    (tree / "c.phh").unlink()  # vanishes between listing and reading
    shutil.rmtree(tree / "sub")
    (tree / "sub").write_text("now a file")  # sub/two.phhs is gone: sub is a file
    (tree / "b.phh").unlink()
    (tree / "b.phh").mkdir()  # a file replaced by a directory
    got = [(Path(c.source).relative_to(tree).as_posix(), c.problem) for f in files for c in read_chunks(f)]
    t = str(tree)
    assert got == [
        ("a.phh", None),
        ("b.phh", ("unreadable-input", f"{t}/b.phh is a directory, not a file; not read")),
        ("c.phh", ("unreadable-input", f"cannot open {t}/c.phh: No such file or directory (ENOENT)")),
        ("dangling.phh", ("unreadable-input",
                          f"{t}/dangling.phh: a symbolic link to a missing file: No such file or directory (ENOENT)")),
        ("locked/x.phh", None),
        ("loop.phh", ("unreadable-input", (f"{t}/loop.phh: a symbolic link that cannot be followed: "
                                           "Too many levels of symbolic links (ELOOP)"))),
        ("pipe.phhs", ("unreadable-input", f"{t}/pipe.phhs is a FIFO (named pipe), not a regular file; not read")),
        ("sub/two.phhs", ("unreadable-input", f"cannot open {t}/sub/two.phhs: Not a directory (ENOTDIR)")),
    ]


def test_an_io_error_in_the_middle_of_a_file(tree, monkeypatch):
    """EIO after the first piece: the file is one unreadable-input entry, the rest goes on."""
    monkeypatch.setattr(sources, "READ_LINE", 16)  # a.phh is read in pieces of 16 bytes
    real_open, real_read = os.open, os.read
    tracked: set[int] = set()
    state = {"reads": 0}

    def tracking_open(path, *args, **kwargs):
        fd = real_open(path, *args, **kwargs)
        if os.fspath(path) == str(tree / "a.phh"):
            tracked.add(fd)
        return fd

    def failing_read(fd, size):  # the first piece of a.phh is read, the second fails
        if fd in tracked:
            state["reads"] += 1
            if state["reads"] == 2:
                tracked.discard(fd)
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real_read(fd, size)

    monkeypatch.setattr(os, "open", tracking_open)
    monkeypatch.setattr(os, "read", failing_read)
    got = statuses(tree)
    monkeypatch.undo()
    assert state["reads"] == 2
    assert got[0] == (str(tree / "a.phh"), "unreadable", ["unreadable-input"])
    assert [s for _, s, _ in got] == ["unreadable"] + ["valid"] * 5
    (chunk,) = list(read_chunks(str(tree / "b.phh")))
    assert chunk.problem is None


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs /proc/self/mem (Linux) for a real EIO")
def test_a_real_io_error(tmp_path):
    """/proc/self/mem read at offset 0 fails with EIO in whatever process reads it."""
    (tmp_path / "ok.phh").write_text(VALID)
    os.symlink("/proc/self/mem", tmp_path / "eio.phh")
    os.symlink("/proc/self/mem", tmp_path / "eio.phhs")
    got = [(Path(c.source).name, c.problem) for f in expand_paths([str(tmp_path)]) for c in read_chunks(f)]
    assert got == [("eio.phh", ("unreadable-input", f"cannot read {tmp_path}/eio.phh: Input/output error (EIO)")),
                   ("eio.phhs", ("unreadable-input", f"cannot read {tmp_path}/eio.phhs: Input/output error (EIO)")),
                   ("ok.phh", None)]


def _unprivileged() -> tuple[str, ...] | None:
    """A command prefix under which mode bits apply to this user, or None."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = (setpriv, "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all")
    probe = subprocess.run([*prefix, "true"], check=False, capture_output=True)
    return prefix if probe.returncode == 0 else None


def test_end_to_end_with_real_permissions(tree, tmp_path):
    prefix = _unprivileged()
    if prefix is None:
        pytest.skip("running as root without setpriv (or setpriv cannot drop CAP_DAC_OVERRIDE here): "
                    "chmod 000 would not block reading")
    (tree / "b.phh").chmod(0)
    (tree / "locked").chmod(0)
    out = tmp_path / "report"
    try:
        proc = cli("check", str(tree), "--format", "jsonl", "--out", str(out), "--jobs", "1", prefix=prefix)
        text = cli("check", str(tree), "--jobs", "1", prefix=prefix)
        explicit_file = cli("check", str(tree / "b.phh"), prefix=prefix)
        explicit_dir = cli("check", str(tree / "locked"), prefix=prefix)
    finally:
        (tree / "b.phh").chmod(0o644)
        (tree / "locked").chmod(0o755)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == b""
    lines = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert [(Path(o["source"]).relative_to(tree).as_posix(), o["status"]) for o in lines] == [
        ("a.phh", "valid"), ("b.phh", "unreadable"), ("c.phh", "valid"), ("locked", "unreadable"),
        ("sub/two.phhs", "valid"), ("sub/two.phhs", "valid")]
    assert [f["message"] for o in lines for f in o["findings"]] == [
        f"cannot open {tree}/b.phh: Permission denied (EACCES)",
        f"cannot list the directory {tree}/locked: Permission denied (EACCES); its files are not read"]
    hands = pq.read_table(out / "hands").to_pylist()
    assert sorted((Path(h["source"]).name, h["status"]) for h in hands) == sorted(
        [("a.phh", "valid"), ("b.phh", "unreadable"), ("c.phh", "valid"), ("locked", "unreadable"),
         ("two.phhs", "valid"), ("two.phhs", "valid")])
    findings = pq.read_table(out / "findings").to_pylist()
    assert sorted((Path(f["source"]).name, f["code"]) for f in findings) == [
        ("b.phh", "unreadable-input"), ("locked", "unreadable-input")]
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["hands"] == 6
    assert text.returncode == 1
    out_text = text.stdout.decode()
    assert out_text.startswith("6 hands read from 5 files")
    assert "  unreadable  2 " in out_text
    assert any(line.split()[:3] == ["unreadable-input", "error", "2"] for line in out_text.splitlines())
    # named on the command line: refused before anything is read (exit status 2, one line)
    assert explicit_file.returncode == 2 and explicit_file.stdout == b""
    assert explicit_file.stderr.decode() == f"handaudit: {tree}/b.phh: permission denied\n"
    assert explicit_dir.returncode == 2 and explicit_dir.stdout == b""
    assert explicit_dir.stderr.decode() == \
        f"handaudit: {tree}/locked: cannot list the directory: Permission denied (EACCES)\n"


def test_the_local_runner_counts_every_entry_at_any_jobs(tree, monkeypatch):
    os.symlink(tree / "gone.phh", tree / "dangling.phh")
    os.mkfifo(tree / "pipe.phh")
    for jobs in (1, 2):
        result = Runner([str(tree)], jobs=jobs, batch_size=2).run()
        s = result.summary
        assert (s.hands, s.valid, s.unreadable, s.findings.get("unreadable-input")) == (8, 6, 2, 2)
        assert result.exit_status() == 1 and result.complete


# ---------------------------------------------------------------------------------------------
# 2. the report form of a path


def test_report_path_examples():
    for path, form in [
        ("hands/1.phh", "hands/1.phh"),
        ("données/é 1.phh", "données/é 1.phh"),
        (os.fsdecode(b"bad\xff.phh"), "bad\\xff.phh"),
        ("a\nb\r\t.phh", "a\\x0ab\\x0d\\x09.phh"),
        ("\x1b]0;x\x07\x1b[31m.phh", "\\x1b]0;x\\x07\\x1b[31m.phh"),
        ("c1\x9b\x85.phh", "c1\\u009b\\u0085.phh"),
        ("ls\u2028ps\u2029.phh", "ls\\u2028ps\\u2029.phh"),
        ("back\\slash.phh", "back\\\\slash.phh"),
        (os.fsdecode(b"lit\\xff-and-\xff"), "lit\\\\xff-and-\\xff"),  # the name's own text is not an escape
    ]:
        assert report_path(path) == form, path
    plain = "hands/" + "x" * 40 + ".phh"
    assert report_path(plain) is plain  # no copy


@given(st.binary(min_size=1, max_size=40))
def test_report_path_is_printable_utf8_and_gives_back_the_bytes(name):
    form = report_path(os.fsdecode(name))
    assert not any(_is_control(c) for c in form)
    form.encode("utf-8")  # never a lone surrogate
    assert not any(ch in form for ch in "\n\r\x1b\x85\u2028\u2029\x7f")
    assert _report_bytes(form) == name  # reversible, so two names never share a form
    assert printable(form) == form  # text output leaves it alone


def _is_control(c: str) -> bool:
    import unicodedata

    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")


@pytest.fixture()
def odd_names(tmp_path):
    """hands/: a good hand under an undecodable name, one under a name full of terminal escapes,
    a failing hand under a name with a newline, an ordinary one."""
    root = tmp_path / "hands"
    root.mkdir()
    raw = os.fsencode(root)
    names = {b"bad\xff.phh": VALID, b"esc\x1b]0;pwned\x07\x1b[2J\x9b.phh": VALID,  # 0x9b: 8-bit CSI
             b"c1\xc2\x9b\xc2\x85.phh": VALID,  # U+009B, U+0085 in UTF-8
             b"nl\nand\rcr.phh": INVALID, "ok-é.phh".encode(): VALID}
    for name, text in names.items():
        with open(raw + b"/" + name, "wb") as f:
            f.write(text.encode())
    return root


def test_undecodable_and_control_names_in_every_output(odd_names, tmp_path):
    out, valid, invalid = tmp_path / "report", tmp_path / "valid", tmp_path / "invalid"
    jsonl = cli("check", str(odd_names), "--format", "jsonl", "--out", str(out), "--write-valid", str(valid),
                "--write-invalid", str(invalid), "--jobs", "1")
    assert jsonl.returncode == 1, jsonl.stderr
    assert_terminal_safe(jsonl.stdout + jsonl.stderr)
    assert jsonl.stderr.decode().splitlines() == [
        f"handaudit: 4 valid hands written to {valid}/valid.phhs (origins: {valid}/valid.keys.csv)",
        f"handaudit: 1 invalid hands written to {invalid}/invalid.phhs (origins: {invalid}/invalid.keys.csv)"]
    objs = [json.loads(line) for line in jsonl.stdout.decode("utf-8").splitlines()]
    forms = [f"{odd_names}/{n}" for n in ["bad\\xff.phh", "c1\\u009b\\u0085.phh", "esc\\x1b]0;pwned\\x07\\x1b[2J\\x9b.phh",
                                          "nl\\x0aand\\x0dcr.phh", "ok-é.phh"]]
    assert sorted(o["source"] for o in objs) == forms
    assert sorted(o["status"] for o in objs) == ["invalid", "valid", "valid", "valid", "valid"]
    hands = pq.read_table(out / "hands", columns=["source", "status"]).to_pylist()
    assert sorted(h["source"] for h in hands) == forms
    assert {f["source"] for f in pq.read_table(out / "findings", columns=["source"]).to_pylist()} == \
        {forms[3]}  # the invalid hand's findings
    manifest = json.loads((out / "_manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "complete" and manifest["hands"] == 5 and manifest["inputs"] == [str(odd_names)]
    # the clean subsets: printable headers, the same hands when read again
    for d, name, n in ((valid, "valid", 4), (invalid, "invalid", 1)):
        data = (d / f"{name}.phhs").read_bytes()
        assert_terminal_safe(data)
        again = list(audit([str(d / f"{name}.phhs")]))
        assert [(r.hand_key, r.status) for r in again] == [(str(i), name) for i in range(1, n + 1)]
        with open(d / f"{name}.keys.csv", encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        assert sorted(r["source"] for r in rows) == [forms[i] for i in ((0, 1, 2, 4) if n == 4 else (3,))]
    # text output, and the summary of the report with its explain command lines
    text = cli("check", str(odd_names), "--jobs", "1", "--write-valid", str(tmp_path / "v2"))
    assert text.returncode == 1 and text.stdout.startswith(b"5 hands read from 5 files")
    assert_terminal_safe(text.stdout + text.stderr)
    summary = cli("summary", str(out))
    assert summary.returncode == 0, summary.stderr
    assert_terminal_safe(summary.stdout + summary.stderr)
    (command,) = [line.strip() for line in summary.stdout.decode().splitlines() if "handaudit explain" in line]
    assert command == f"handaudit explain $'{odd_names}/nl\\x0aand\\x0dcr.phh'"
    # the printed command opens the very file
    bash = shutil.which("bash")
    if bash:
        env = cli_env()
        proc = subprocess.run([bash, "-c", command.replace("handaudit", f"{sys.executable} -m handaudit.cli", 1)],
                              check=False, capture_output=True, env=env, cwd=REPO, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert_terminal_safe(proc.stdout + proc.stderr)
        assert proc.stdout.decode().startswith(f"{odd_names}/nl\\x0aand\\x0dcr.phh")
        assert b"out-of-turn" in proc.stdout


def test_explicit_odd_names_on_the_command_line(odd_names):
    bad = os.fsencode(odd_names) + b"/bad\xff.phh"
    esc = os.fsencode(odd_names) + b"/esc\x1b]0;pwned\x07\x1b[2J\x9b.phh"
    proc = run_cli("check", bad, esc, "--format", "jsonl", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert_terminal_safe(proc.stdout)
    assert [json.loads(x)["source"] for x in proc.stdout.decode().splitlines()] == [
        f"{odd_names}/bad\\xff.phh", f"{odd_names}/esc\\x1b]0;pwned\\x07\\x1b[2J\\x9b.phh"]
    for cmd in (["explain", bad], ["settle", esc], ["check", os.fsencode(odd_names) + b"/missing\x1b[2J\xff.phh"]):
        proc = run_cli(*cmd, timeout=120)
        assert_terminal_safe(proc.stdout + proc.stderr)
    assert proc.returncode == 2
    assert proc.stderr.decode() == f"handaudit: {odd_names}/missing\\x1b[2J\\xff.phh: no such file or directory\n"


# ---------------------------------------------------------------------------------------------
# 3. control characters in table names


def test_subset_headers_never_hold_a_control_character(tmp_path):
    keys = ["plain", "new\nline", "cr\rhere", "esc\x1b[2J", "bel\x07", "del\x7f", "c1\x9b\x85", "ls\u2028", 'q"uote']
    subsets = Subsets(str(tmp_path))
    for i, key in enumerate(keys):
        subsets.add(Chunk(report_path(f"src\n{i}.phhs"), key, i, VALID.encode(), 1), "valid")
    subsets.close()
    data = (tmp_path / "valid.phhs").read_bytes()
    assert_terminal_safe(data.replace(b"\n", b""))
    headers = [line for line in data.decode().split("\n") if line.startswith("[")]
    assert len(headers) == len(keys)
    assert headers[1] == '[2]  # source: src\\x0a1.phhs  hand_key: "new\\x0aline"  hand_index: 1  status: valid'
    again = list(read_hands([str(tmp_path / "valid.phhs")]))
    assert [(r.hand_key, r.findings) for r in again] == [(str(i), ()) for i in range(1, len(keys) + 1)]
    assert [c.data for c in read_chunks(str(tmp_path / "valid.phhs"))] == [VALID.encode()] * len(keys)
    with open(tmp_path / "valid.keys.csv", encoding="utf-8", newline="") as f:
        assert [row["hand_key"] for row in csv.DictReader(f)] == keys  # the map keeps the names exactly


def test_worst_hands_print_keys_escaped_and_as_shell_words():
    s = Summary()
    s.invalid = 3
    s.worst = [(-3, -3, "a.phhs", 0, "k\x1b[2J\n"), (-1, -1, "b\\xff.phhs", 1, "plain key"),
               (-1, -1, "c.phhs", 2, "back\\slash")]
    text = render_worst(s)
    assert_terminal_safe(text.replace("\n", "").encode())
    assert text.splitlines() == [
        "Worst hands (most errors), 3 of 3 with errors:",
        "  a.phhs [k\\x1b[2J\\x0a]: 3 errors, 3 findings",
        "    handaudit explain a.phhs --hand $'k\\x1b[2J\\x0a'",
        "  b\\xff.phhs [plain key]: 1 error, 1 finding",
        "    handaudit explain $'b\\xff.phhs' --hand 'plain key'",
        "  c.phhs [back\\slash]: 1 error, 1 finding",
        "    handaudit explain c.phhs --hand $'back\\\\slash'",  # the shell gives back\slash
    ]
    assert shell_word("it's\\\\x") == "$'it\\'s\\\\x'"  # a report form's backslash is the byte


def test_terminal_text():
    assert terminal_text("a\tb\nc") == "a\tb\nc"
    assert terminal_text("\x1b]0;t\x07\x1b[31m\r\x9b\u2028" + os.fsdecode(b"\xff")) == \
        "\\x1b]0;t\\x07\\x1b[31m\\x0d\\u009b\\u2028\\xff"


def test_table_names_with_controls_in_text_and_jsonl(tmp_path):
    """Whatever table names the splitter gives (raw controls inside a quoted header), neither
    text nor JSONL output carries them raw, and every hand is written once."""
    p = tmp_path / "k.phhs"
    p.write_bytes(b'["esc\x1b[2J\x9b"]\n' + INVALID.encode() + b'["cr\rx"]\n' + INVALID.encode())
    n = len(list(read_chunks(str(p))))
    for args in ((), ("--format", "jsonl")):
        proc = cli("check", str(p), *args)
        assert proc.returncode == 1
        assert_terminal_safe(proc.stdout + proc.stderr)
        if args:
            assert len(proc.stdout.decode().splitlines()) == n
    proc = cli("explain", str(p))
    assert_terminal_safe(proc.stdout + proc.stderr)


# ---------------------------------------------------------------------------------------------
# 4. JSONL: one hand per line for str.splitlines()


SEPARATORS = "\u2028\u2029\u0085\x1c\x1d\x1e\x0b\x0c"


def test_jsonl_keeps_one_hand_per_line_for_splitlines(tmp_path):
    # raw in TOML strings: U+2028, U+2029 and U+0085 (TOML forbids only C0 controls and DEL)
    keys = ["a\u2028b", "c\u2029d", "e\u0085f", "plain"]
    text = "".join(f'["{k}"]\n' + VALID.replace("variant = 'NT'", f"variant = 'NT'\n_note = 'x{k}y'") for k in keys)
    p = tmp_path / "sep.phhs"
    p.write_text(text, encoding="utf-8")
    proc = cli("check", str(p), "--format", "jsonl")
    out = proc.stdout.decode("utf-8")
    assert out.count("\n") == 4 and len(out.splitlines()) == 4
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["hand_key"] for o in objs] == keys
    for ch in SEPARATORS:
        assert ch not in out
    # and the writer itself, on any string
    reports = list(audit([str(p)]))
    assert [json.loads(report_line(r))["hand_key"] for r in reports] == keys


@given(st.text(alphabet=st.sampled_from(list(SEPARATORS) + ["a", "é", "\\", '"', "\n", "\x1b", "\u00a0"]),
               max_size=20))
def test_dumps_writes_one_line_that_reads_back(s):
    from handaudit.reports.jsonl import dumps

    line = dumps({"source": s, "list": [s, {"k" + s: s}]})
    assert len(line.splitlines()) == 1
    assert json.loads(line) == {"source": s, "list": [s, {"k" + s: s}]}


def test_unreadable_input_is_a_documented_error_code():
    from handaudit.findings.codes import CODES

    info = CODES["unreadable-input"]
    assert info.severity == "error" and info.summary and info.example and info.fix
    assert "| [`unreadable-input`](docs/codes.md#unreadable-input-error) | error |" in \
        (REPO / "README.md").read_text(encoding="utf-8")


def test_a_report_directory_with_an_odd_name(tmp_path):
    (tmp_path / "a.phh").write_text(VALID)
    out = os.fsencode(tmp_path) + b"/rep\x1b[2J\x9b\xc2\x85"
    proc = run_cli("check", str(tmp_path / "a.phh"), "--out", out, timeout=120)
    assert proc.returncode == 2 and proc.stdout == b""  # pyarrow cannot open a path that is not UTF-8
    assert proc.stderr.decode() == (f"handaudit: --out {tmp_path}/rep\\x1b[2J\\x9b\\u0085: the path is not UTF-8, which "
                                    "the Parquet writer (pyarrow) cannot open; choose a directory whose path is\n")
    out = os.fsencode(tmp_path) + b"/rep\x1b[2J \xc2\x85"
    proc = run_cli("check", str(tmp_path / "a.phh"), "--out", out, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert_terminal_safe(proc.stdout + proc.stderr)
    (line,) = [x for x in proc.stdout.decode().splitlines() if x.startswith("Report: ")]
    assert line.startswith(f"Report: {tmp_path}/rep\\x1b[2J \\u0085 (tables")
    command = line.split("`")[1]
    assert command == f"handaudit summary $'{tmp_path}/rep\\x1b[2J \\xc2\\x85'"
    bash = shutil.which("bash")
    if bash:
        again = subprocess.run([bash, "-c", command.replace("handaudit", f"{sys.executable} -m handaudit.cli", 1)],
                               check=False, capture_output=True, env=cli_env(), cwd=REPO, timeout=120)
        assert again.returncode == 0, again.stderr
        assert again.stdout.startswith(b"1 hands read from 1 file")


def test_an_io_error_in_the_middle_of_a_hand_list(tmp_path):
    """A .phhs whose reads fail with EIO after the first piece: the hands cut before the error
    are read, the rest of the file is one unreadable-input entry at the line where it stopped."""
    hand = (REPO / "samples" / "odd-chip-split.phh").read_text()
    text = "".join(f"[{i}]\n{hand}" for i in (1, 2, 3)).encode()
    first = text.index(b"[3]")  # the first piece ends where hand 3 starts

    class FailingReader(io.BufferedIOBase):
        def __init__(self) -> None:
            self.calls = 0

        def read1(self, size: int = -1) -> bytes:
            self.calls += 1
            if self.calls == 1:
                return text[:first]
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    chunks = list(splitter.split_tables("x.phhs", FailingReader()))
    assert [(c.hand_key, c.problem and c.problem[0]) for c in chunks] == [
        ("1", None), ("2", None), ("", "unreadable-input")]
    lines = text[:first].count(b"\n")
    assert chunks[2].line == lines + 1
    assert chunks[2].problem == ("unreadable-input",
                                 f"cannot read x.phhs: Input/output error (EIO), after line {lines}; "
                                 "the rest of the file is not read")
