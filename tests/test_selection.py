"""Lint-style selection of findings: --select, --ignore, --severity and handaudit.toml.

What is left out is counted (each report's ``ignored``, the summary, the manifest), never lost;
a hand's status follows the findings kept; an unknown code is an error naming where it was.
"""

import json

import pytest
from helpers import REPO, run_cli

from handaudit import audit
from handaudit.config import ConfigError, load_config, selection_for
from handaudit.findings.finding import Finding
from handaudit.findings.selection import Selection, SelectionError
from handaudit.run.local import Runner

SAMPLES = REPO / "samples"


def _one(name, **kw):
    (report,) = list(audit([str(SAMPLES / name)], **kw))
    return report


def test_apply_drops_keeps_and_relevels():
    found = (Finding("show-order", "x"), Finding("out-of-turn", "y", 3), Finding("negative-blind", "z"))
    kept, ignored = Selection(ignore=("show-order",), severity=(("out-of-turn", "warning"),)).apply(found)
    assert [(f.code, f.severity, f.action_index) for f in kept] == [("out-of-turn", "warning", 3),
                                                                     ("negative-blind", "warning", None)]
    assert ignored == ("show-order",)
    kept, ignored = Selection(select=("negative-blind",)).apply(found)
    assert [f.code for f in kept] == ["negative-blind"] and ignored == ("show-order", "out-of-turn")
    assert Selection().apply(found) == (found, ())


def test_ignoring_the_only_error_makes_the_hand_valid():
    plain = _one("bet-below-minimum.phh")
    assert plain.status == "invalid" and [f.code for f in plain.findings] == ["bet-below-minimum"]
    ignored = _one("bet-below-minimum.phh", ignore=["bet-below-minimum"])
    assert (ignored.status, ignored.findings, ignored.ignored) == ("valid", (), ("bet-below-minimum",))
    assert ignored.to_json()["findings"] == []


def test_a_lower_severity_makes_the_hand_valid_and_a_higher_one_invalid():
    down = _one("bet-below-minimum.phh", severity={"bet-below-minimum": "warning"})
    assert down.status == "valid" and [(f.code, f.severity, f.action_index) for f in down.findings] == [
        ("bet-below-minimum", "warning", 15)]
    up = _one("show-order.phh", severity=["show-order=error"])
    assert up.status == "invalid" and up.findings[0].severity == "error"


def test_select_keeps_only_the_codes_named():
    r = _one("limit-cap-heads-up.phh", select=["incomplete-hand"])
    assert [f.code for f in r.findings] == ["incomplete-hand"]
    assert sorted(r.ignored) == ["raise-cap-exceeded", "raise-cap-exceeded"]


def test_an_unreadable_hand_stays_unreadable_when_its_error_is_ignored(tmp_path):
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nactions = [\n")
    (r,) = list(audit([str(bad)], ignore=["syntax-error"]))
    assert r.status == "unreadable" and r.findings == () and r.ignored == ("syntax-error",)


@pytest.mark.parametrize("kw,message", [
    ({"ignore": ["no-such-code"]}, "ignore: unknown finding code 'no-such-code'"),
    ({"select": ["show-order,bogus"]}, "select: unknown finding code 'bogus'"),
    ({"severity": ["show-order=fatal"]}, "the level must be error, warning or info"),
    ({"severity": ["show-order"]}, "is not CODE=LEVEL"),
])
def test_unknown_codes_and_levels_are_refused(kw, message):
    with pytest.raises(SelectionError, match=message):
        list(audit([str(SAMPLES / "show-order.phh")], **kw))


def test_workers_apply_the_selection_and_the_summary_counts_it():
    paths = [str(SAMPLES)]
    sel = Selection(ignore=("incomplete-hand", "out-of-turn"), severity=(("raise-cap-exceeded", "info"),))
    one = Runner(paths, jobs=1, selection=sel).run().summary
    two = Runner(paths, jobs=2, batch_size=3, selection=sel).run().summary
    plain = Runner(paths, jobs=1).run().summary
    for s in (one, two):
        assert "out-of-turn" not in s.findings and "incomplete-hand" not in s.findings
        assert dict(s.ignored) == {"out-of-turn": plain.findings["out-of-turn"],
                                   "incomplete-hand": plain.findings["incomplete-hand"]}
        assert s.severities["raise-cap-exceeded"] == "info"
    assert (one.valid, one.invalid) == (two.valid, two.invalid)
    assert one.valid > plain.valid  # hands whose only errors were out-of-turn or raise caps


def test_config_file_and_command_line(tmp_path):
    cfg = tmp_path / "handaudit.toml"
    cfg.write_text('[findings]\nignore = ["show-order"]\nselect = ["show-order", "out-of-turn"]\n'
                   'severity = { out-of-turn = "warning" }\n')
    config = load_config(directory=str(tmp_path))
    assert (config.ignore, config.select, config.severity) == (("show-order",), ("out-of-turn", "show-order"),
                                                              (("out-of-turn", "warning"),))
    sel = selection_for(config, select=(), ignore=["unnecessary-fold"], severity=["out-of-turn=error"])
    assert sel.ignore == ("show-order", "unnecessary-fold") and sel.select == ("out-of-turn", "show-order")
    assert sel.severity == (("out-of-turn", "error"),)  # the command line's level wins
    assert selection_for(config, select=["winnings-gross"]).select == ("winnings-gross",)  # --select replaces
    assert load_config(directory=str(tmp_path / "nowhere")) == load_config(directory=str(REPO / "samples"))


@pytest.mark.parametrize("text,message", [
    ("[findings]\nignroe = ['show-order']\n", "unknown key findings.ignroe"),
    ("[lint]\nignore = []\n", r"unknown section \[lint\]"),
    ("[findings]\nignore = 'show-order'\n", "findings.ignore must be a list"),
    ("[findings]\nignore = ['shoow-order']\n", "unknown finding code 'shoow-order'"),
    ("[findings\n", "not valid TOML"),
])
def test_bad_config_files_are_refused_with_the_file_named(tmp_path, text, message):
    cfg = tmp_path / "handaudit.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError, match=message) as err:
        load_config(str(cfg))
    assert str(cfg) in str(err.value)


def test_cli_ignore_reaches_the_report_and_the_manifest(tmp_path):
    out = tmp_path / "report"
    r = run_cli("check", str(SAMPLES / "show-order.phh"), str(SAMPLES / "bet-below-minimum.phh"), "--out", str(out),
                "--ignore", "show-order", "--severity", "bet-below-minimum=warning", text=True)
    assert r.returncode == 0, r.stderr  # nothing left at error
    assert "Not reported (--select, --ignore or handaudit.toml): show-order 1" in r.stdout
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["findings_selected"] == {"select": [], "ignore": ["show-order"],
                                             "severity": {"bet-below-minimum": "warning"}}
    assert manifest["summary"]["ignored"] == {"show-order": 1}
    assert manifest["summary"]["valid"] == 2
    again = run_cli("summary", str(out), text=True)
    assert "Not reported (--select, --ignore or handaudit.toml): show-order 1" in again.stdout


def test_cli_reads_handaudit_toml_from_the_working_directory(tmp_path):
    (tmp_path / "handaudit.toml").write_text('[findings]\nignore = ["bet-below-minimum"]\n')
    sample = str(SAMPLES / "bet-below-minimum.phh")
    r = run_cli("check", sample, "--format", "jsonl", cwd=tmp_path, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["findings"] == []
    other = tmp_path / "other.toml"
    other.write_text('[findings]\nignore = ["no-such"]\n')
    bad = run_cli("check", sample, "--config", str(other), cwd=tmp_path, text=True)
    assert bad.returncode == 2 and "other.toml: findings.ignore: unknown finding code 'no-such'" in bad.stderr
    assert "Traceback" not in bad.stderr
    missing = run_cli("check", sample, "--config", str(tmp_path / "missing.toml"), cwd=tmp_path, text=True)
    assert missing.returncode == 2 and "cannot read the configuration file" in missing.stderr


# ---- the configuration file is read with a rulebook file's checks (issue #38, item 9) -------

@pytest.mark.parametrize("kind,message", [
    ("dev-zero", "character device"), ("fifo", "FIFO"), ("dir", "directory"), ("deep", "nested too deeply"),
    ("big", "more than the"), ("dangling", "missing file"), ("binary", "not UTF-8"),
])
def test_config_files_are_read_with_the_rulebook_checks(tmp_path, kind, message):
    import os

    path = tmp_path / "handaudit.toml"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dir":
        path.mkdir()
    elif kind == "deep":
        path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    elif kind == "big":
        path.write_text("# " + "x" * (2 * 1024 * 1024) + "\n")
    elif kind == "dangling":
        path.symlink_to(tmp_path / "missing.toml")
    else:
        path.write_bytes(b"\xff\xfe[findings]\n")
    for given in (str(path), None):  # --config FILE, and handaudit.toml found in the directory
        with pytest.raises(ConfigError, match=message):
            load_config(given, str(tmp_path))
    proc = run_cli("check", str(SAMPLES), "--config", str(path), timeout=60)
    assert proc.returncode == 2 and message.encode() in proc.stderr and b"Traceback" not in proc.stderr
    found = run_cli("check", str(SAMPLES), cwd=tmp_path, timeout=60)
    assert found.returncode == 2 and b"handaudit.toml" in found.stderr
