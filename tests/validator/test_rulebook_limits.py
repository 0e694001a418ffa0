"""Rulebook files are bounded: only a regular file of at most 1 MiB is read, an ``extends`` chain
has at most MAX_EXTENDS files and a cycle is named. Each refusal is one RulebookError naming the
path and the problem; through the command line it is one line on stderr and exit status 2.

Every test here is bounded in time: a loader that blocked on a FIFO or read /dev/zero would hang,
so the loader tests run in a subprocess with a timeout where a hang is possible.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from handaudit.rules import rulebook as rb
from handaudit.rules.params import RulebookError
from handaudit.rules.rulebook import MAX_EXTENDS, MAX_RULEBOOK_BYTES, load_rulebook

from helpers import cli_env, run_cli

SAMPLE = "samples/bet-below-minimum.phh"
DEVICE = "is a character device, not a regular file: a rulebook must be a TOML file"
FIFO = "is a FIFO (named pipe), not a regular file: a rulebook must be a TOML file"
TOO_BIG = "more than the 1 MiB (1,048,576 bytes) a rulebook file may have"


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return run_cli(*args, timeout=timeout)


def _refused(proc: subprocess.CompletedProcess, message: str) -> None:
    """Exit status 2, nothing on stdout, exactly one line on stderr: ``handaudit: <message>``."""
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert proc.stdout == b""
    assert err == f"handaudit: {message}\n"


def _load_in_subprocess(path: str, timeout: float = 30) -> str:
    """load_rulebook(path) in a child process (a hang fails the test, it cannot stall the suite)."""
    code = ("import sys\nfrom handaudit.rules.rulebook import RulebookError, load_rulebook\n"
            "try:\n    load_rulebook(sys.argv[1])\nexcept RulebookError as e:\n    print(e)\n"
            "else:\n    print('loaded')\n")
    proc = subprocess.run([sys.executable, "-c", code, path], capture_output=True, env=cli_env(), timeout=timeout,
                          check=False)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr.decode()
    return proc.stdout.decode().rstrip("\n")


# ---------------------------------------------------------------------------------------------
# not a regular file


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_device_refused_by_the_loader(device):
    assert _load_in_subprocess(device) == f"rulebook file {device!r} {DEVICE}"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_device_refused_by_the_cli(device):
    _refused(_cli("check", SAMPLE, "--rulebook", device), f"rulebook file {device!r} {DEVICE}")


def test_device_refused_by_explain_and_settle():
    for command in ("explain", "settle"):
        _refused(_cli(command, SAMPLE, "--rulebook", "/dev/zero"), f"rulebook file '/dev/zero' {DEVICE}")


def test_fifo_without_a_writer_is_refused_at_once(tmp_path):
    fifo = tmp_path / "book.toml"
    os.mkfifo(fifo)
    assert _load_in_subprocess(str(fifo)) == f"rulebook file {str(fifo)!r} {FIFO}"
    _refused(_cli("check", SAMPLE, "--rulebook", str(fifo)), f"rulebook file {str(fifo)!r} {FIFO}")


def test_directory_refused(tmp_path):
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(tmp_path))
    assert str(e.value) == f"rulebook file {str(tmp_path)!r} is a directory, not a regular file: a rulebook must be a TOML file"


def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.toml"
    path.write_text("limit_raises = 4\n")
    path.chmod(0)
    if os.access(path, os.R_OK):
        pytest.skip("running as root: every file is readable")
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(path))
    assert str(e.value) == f"rulebook file {str(path)!r}: cannot read rulebook file {str(path)!r}: Permission denied"


# ---------------------------------------------------------------------------------------------
# size


def _padded(size: int) -> bytes:
    """A valid rulebook of exactly ``size`` bytes (a long comment before one parameter)."""
    tail = b"\nlimit_raises = 7\n"
    return b"#" + b"x" * (size - 1 - len(tail)) + tail


def test_a_file_of_exactly_the_limit_loads_one_more_byte_is_refused(tmp_path):
    ok = tmp_path / "ok.toml"
    ok.write_bytes(_padded(MAX_RULEBOOK_BYTES))
    assert load_rulebook(str(ok)).limit_raises == 7
    big = tmp_path / "big.toml"
    big.write_bytes(_padded(MAX_RULEBOOK_BYTES + 1))
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(big))
    assert str(e.value) == f"rulebook file {str(big)!r} has 1,048,577 bytes, {TOO_BIG}"


def test_a_huge_sparse_file_is_refused_without_reading_it(tmp_path):
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as f:
        f.truncate(8 * 1024**3)  # 8 GiB, sparse: reading it would take minutes and gigabytes
    assert _load_in_subprocess(str(huge), timeout=20) == f"rulebook file {str(huge)!r} has 8,589,934,592 bytes, {TOO_BIG}"
    _refused(_cli("check", SAMPLE, "--rulebook", str(huge), timeout=30),
             f"rulebook file {str(huge)!r} has 8,589,934,592 bytes, {TOO_BIG}")


def test_a_file_larger_than_its_size_says_is_cut_at_the_limit(tmp_path, monkeypatch):
    """A file that grows while read (or a /proc file, whose size is 0) is read up to one byte past
    the limit, never more."""
    path = tmp_path / "growing.toml"
    path.write_bytes(_padded(3 * MAX_RULEBOOK_BYTES))
    real_fstat, real_read = os.fstat, os.read
    asked: list[int] = []

    def fstat(fd):
        st = real_fstat(fd)
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid, st.st_gid, 0,
                               st.st_atime, st.st_mtime, st.st_ctime))

    def read(fd, n):
        asked.append(n)
        return real_read(fd, min(n, 300_000))  # short reads, as from a pipe or a network file system

    monkeypatch.setattr(rb.os, "fstat", fstat)
    monkeypatch.setattr(rb.os, "read", read)
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(path))
    assert str(e.value) == f"rulebook file {str(path)!r} has {TOO_BIG}"
    assert sum(min(n, 300_000) for n in asked) == MAX_RULEBOOK_BYTES + 1


# ---------------------------------------------------------------------------------------------
# extends


def test_extends_a_device_a_fifo_or_a_huge_file(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as f:
        f.truncate(2 * 1024**3)
    for target, problem in [("/dev/zero", DEVICE), ("fifo.toml", FIFO), ("huge.toml", f"has 2,147,483,648 bytes, {TOO_BIG}")]:
        book = tmp_path / "mine.toml"
        book.write_text(f'extends = "{target}"\nlimit_raises = 4\n')
        message = f"rulebook file {str(book)!r}: extends {target!r}, which {problem}"
        assert _load_in_subprocess(str(book)) == message
        _refused(_cli("check", SAMPLE, "--rulebook", str(book)), message)


def test_extends_a_missing_file(tmp_path):
    book = tmp_path / "mine.toml"
    book.write_text('extends = "nope.toml"\n')
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(book))
    assert str(e.value) == (f"rulebook file {str(book)!r}: extends 'nope.toml', which is neither a built-in rulebook "
                            "(tda-2026, roberts-v11, wsop-2023-live, house) nor an existing file")


def _chain(directory: Path, n: int) -> Path:
    """r0.toml extends r1.toml ... extends r{n-1}.toml, which extends roberts-v11; r{i} sets limit_raises = i."""
    for i in range(n):
        base = f"r{i + 1}.toml" if i + 1 < n else "roberts-v11"
        (directory / f"r{i}.toml").write_text(f'extends = "{base}"\nlimit_raises = {i}\n')
    return directory / "r0.toml"


def test_a_chain_of_the_limit_loads(tmp_path):
    book = load_rulebook(str(_chain(tmp_path, MAX_EXTENDS)))
    assert book.limit_raises == 0 and book.name == "r0" and book.extends == "r1"
    assert book.heads_up_uncap == "when-heads-up"  # from roberts-v11, at the far end


def test_a_chain_one_longer_than_the_limit_is_refused(tmp_path):
    top = _chain(tmp_path, MAX_EXTENDS + 1)
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(top))
    d = str(tmp_path)
    assert str(e.value) == (
        f"rulebook file {str(top)!r}: its extends chain is longer than {MAX_EXTENDS} files, the limit "
        f"('{d}/r0.toml' -> '{d}/r1.toml' -> '{d}/r2.toml' -> ... ({MAX_EXTENDS + 1 - 5} more) -> "
        f"'{d}/r{MAX_EXTENDS - 1}.toml' -> '{d}/r{MAX_EXTENDS}.toml')")


def test_a_chain_of_5000_files_is_an_error_not_a_recursion_error(tmp_path):
    top = _chain(tmp_path, 5000)
    message = _load_in_subprocess(str(top))
    assert message.startswith(f"rulebook file {str(top)!r}: its extends chain is longer than {MAX_EXTENDS} files")
    proc = _cli("check", SAMPLE, "--rulebook", str(top))
    _refused(proc, message)


def test_a_cycle_is_named(tmp_path):
    (tmp_path / "a.toml").write_text('extends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('extends = "c.toml"\n')
    (tmp_path / "c.toml").write_text('extends = "b.toml"\n')
    d = str(tmp_path)
    message = (f"rulebook file '{d}/a.toml' extends itself through a cycle: "
               f"'{d}/b.toml' -> '{d}/c.toml' -> '{d}/b.toml'")
    with pytest.raises(RulebookError) as e:
        load_rulebook(f"{d}/a.toml")
    assert str(e.value) == message
    _refused(_cli("check", SAMPLE, "--rulebook", f"{d}/a.toml"), message)


def test_a_cycle_through_another_name_of_the_same_file(tmp_path, monkeypatch):
    """The same file under another path (a symlink, a hard link, ``./``) is the same file."""
    monkeypatch.chdir(tmp_path)  # short names: a message cuts a path's repr at 80 characters
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.toml").write_text('extends = "sub/link.toml"\n')
    (tmp_path / "sub" / "link.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").write_text('extends = "../hard.toml"\n')  # relative to the name it was reached by
    os.link(tmp_path / "a.toml", tmp_path / "hard.toml")
    with pytest.raises(RulebookError) as e:
        load_rulebook("a.toml")
    assert str(e.value) == ("rulebook file 'a.toml' extends itself through a cycle: "
                            "'a.toml' -> 'sub/link.toml' -> 'sub/../hard.toml'")


# ---------------------------------------------------------------------------------------------
# hostile contents: still one RulebookError


@pytest.mark.parametrize("text, message", [
    ("limit_raises = " + "[" * 5000 + "]" * 5000 + "\n",
     "is not valid for handaudit: arrays or tables nested too deeply"),
    ("limit_raises = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
     "is not valid for handaudit: arrays or tables nested too deeply"),
    ("limit_raises = " + "1" * 5000 + "\n",
     ("is not valid TOML: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; "
      "use sys.set_int_max_str_digits() to increase the limit")),
], ids=["arrays-5000-deep", "tables-3000-deep", "5000-digit-integer"])
def test_hostile_toml(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(path))
    assert str(e.value) == f"rulebook file {str(path)!r} {message}"


def test_long_values_are_cut_in_messages(tmp_path):
    path = tmp_path / "bad.toml"
    key = "k" * 500_000
    path.write_text(f'{key} = 1\n')
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(path))
    assert str(e.value).startswith(f"rulebook file {str(path)!r}: unknown key '{'k' * 74}...k'; allowed keys are ")
    assert len(str(e.value)) < 1000
    escaped = "\\n"  # the two characters TOML and repr write for a line end
    path.write_text('heads_up_uncap = "' + escaped * 1000 + '"\n')
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(path))
    assert str(e.value).startswith(f"rulebook file {str(path)!r}: bad value '{escaped * 37}...n' for heads_up_uncap")
    assert "\n" not in str(e.value)
