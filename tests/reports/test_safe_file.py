"""Every file the tool writes goes through one safe writer (issue #38, item 8): a random
temporary name created exclusive and no-follow, a target that is not a regular file refused,
rename into place, nothing left behind on any exit path (an error, SIGTERM)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import REPO, VALID_HAND, cli_env

from handaudit.reports.layout import OutputError
from handaudit.reports.safe_file import SafeFile, check_target, write_file


def _left(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp") or ".tmp-" in n)


def test_a_file_is_written_whole_and_renamed(tmp_path):
    target = tmp_path / "a.html"
    target.write_text("old")
    write_file(str(target), b"new", "--html")
    assert target.read_bytes() == b"new" and _left(tmp_path) == []


@pytest.mark.parametrize("kind", ["dir", "fifo", "symlink", "device"])
def test_a_target_that_is_not_a_regular_file_is_refused(tmp_path, kind):
    target = tmp_path / "t.html"
    if kind == "dir":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "victim").write_text("keep")
        target.symlink_to(tmp_path / "victim")
    else:
        target = "/dev/null"
    with pytest.raises(OutputError, match="not a regular file"):
        write_file(str(target), b"x", "--html")
    assert _left(tmp_path) == []
    if kind == "symlink":
        assert (tmp_path / "victim").read_text() == "keep" and target.is_symlink()
    if kind == "device":
        import stat

        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_the_temporary_name_is_random_and_never_followed(tmp_path):
    a = SafeFile(str(tmp_path / "x.phhs"))
    b = SafeFile(str(tmp_path / "x.phhs"))
    assert a.tmp != b.tmp and os.path.basename(a.tmp).startswith(".x.phhs.")
    a.abort()
    b.abort()
    assert _left(tmp_path) == []


def test_an_error_inside_the_block_removes_the_temporary_file(tmp_path):
    with pytest.raises(RuntimeError), SafeFile(str(tmp_path / "x.phhs")) as f:
        f.write(b"half")
        raise RuntimeError
    assert os.listdir(tmp_path) == []


def test_check_target_without_overwrite(tmp_path):
    (tmp_path / "a").write_text("x")
    with pytest.raises(OutputError, match="exists"):
        check_target(str(tmp_path / "a"), "-o", overwrite=False)
    with pytest.raises(OutputError, match="no such directory"):
        check_target(str(tmp_path / "no" / "a"), "-o")


@pytest.mark.parametrize("target", ["dir", "/dev/null", "symlink"])
def test_convert_refuses_a_target_that_is_not_a_file_and_leaves_nothing(tmp_path, target, cli):
    (tmp_path / "in.phh").write_text(VALID_HAND)
    out = tmp_path / "out.phhs"
    if target == "dir":
        out.mkdir()
    elif target == "symlink":
        (tmp_path / "victim").write_text("keep")
        out.symlink_to(tmp_path / "victim")
    else:
        out = target  # type: ignore[assignment]
    proc = cli("convert", str(tmp_path / "in.phh"), "-o", str(out), "--overwrite")
    assert proc.returncode == 2, proc.stderr
    assert b"not a regular file" in proc.stderr or b"must be a .phhs" in proc.stderr
    assert _left(tmp_path) == []
    if target == "symlink":
        assert (tmp_path / "victim").read_text() == "keep"


def test_html_to_dev_null_is_refused_before_the_run(tmp_path, cli):
    (tmp_path / "in.phh").write_text(VALID_HAND)
    proc = cli("check", str(tmp_path / "in.phh"), "--html", "/dev/null")
    assert proc.returncode == 2 and b"a device" in proc.stderr


@pytest.mark.slow
def test_convert_on_sigterm_removes_its_temporary_file_and_exits_130(tmp_path):
    """convert reading from a pipe that never ends: SIGTERM while the file is being written."""
    out = tmp_path / "out.phhs"
    proc = subprocess.Popen([sys.executable, "-m", "handaudit.cli", "convert", "-", "-o", str(out)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=cli_env(None), cwd=REPO)
    assert proc.stdin is not None
    proc.stdin.write(("".join(f"[{i}]\n{VALID_HAND}\n" for i in range(1, 200))).encode())
    proc.stdin.flush()
    deadline = time.time() + 60
    while time.time() < deadline and not _left(tmp_path):
        time.sleep(0.05)
    assert _left(tmp_path), "convert did not start writing"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"interrupted" in err
    assert os.listdir(tmp_path) == []
