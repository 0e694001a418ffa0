"""Rulebooks: the built-ins are complete and cited, user files and --set override them, and every
mistake in a rulebook gives one RulebookError naming the problem."""

import json
import pickle

import pytest

from handaudit.findings.codes import CODES
from handaudit.rules.params import CITED_CODES, PARAMETERS, RulebookError
from handaudit.rules.rulebook import (
    BUILTIN,
    Rulebook,
    load_rulebook,
    render_codes,
    render_table,
    rulebook_to_json,
)

CONTRACT = {
    "tda-2026": dict(limit_raises=3, limit_raises_short=4, heads_up_uncap="never", short_raise_ruling="half-rule"),
    "roberts-v11": dict(limit_raises=3, limit_raises_short=4, heads_up_uncap="when-heads-up",
                        short_raise_ruling="bring-to-minimum"),
    "wsop-2023-live": dict(limit_raises=4, limit_raises_short=4, heads_up_uncap="round-starts-heads-up",
                           short_raise_ruling="bring-to-minimum"),
    "house": dict(limit_raises=3, limit_raises_short=4, heads_up_uncap="when-heads-up",
                  short_raise_ruling="bring-to-minimum"),
}

OTHER = {
    "tda-2026": dict(straddle_counts_as_raise=True, unnecessary_fold="warning", odd_chip_stud="hand-cards"),
    "roberts-v11": dict(straddle_counts_as_raise=True, unnecessary_fold="info", odd_chip_stud="all-cards",
                        cap_counts="players-not-all-in"),
    "wsop-2023-live": dict(straddle_counts_as_raise=False, completion_counts_as_raise=False,
                           odd_chip_stud="hand-cards"),
    "house": dict(cap_counts="players-not-all-in", limit_allin_reopen="half-bet"),
}


@pytest.mark.parametrize("name", BUILTIN)
def test_builtin_complete_and_cited(name):
    book = load_rulebook(name)
    assert book.name == name and book.title and book.extends is None and book.overrides == ()
    for key, spec in PARAMETERS.items():
        value = getattr(book, key)
        if spec.kind == "int":
            assert type(value) is int
        elif spec.kind == "bool":
            assert type(value) is bool
        elif spec.kind == "decimal":  # canonical text: what check() gives back for it
            assert type(value) is str and spec.check(value, "test") == value
        else:
            assert value in spec.choices
        assert book.sources[key].strip(), f"{name}: no rule for {key}"
        assert book.notes[key].strip(), f"{name}: no note for {key}"
    for code in CITED_CODES:
        assert code in CODES
        assert book.cite(code), f"{name}: no citation for {code}"
        assert book.ruling(code), f"{name}: no ruling for {code}"
    assert book.cite("no-such-code") is None and book.ruling("no-such-code") is None


@pytest.mark.parametrize("name", BUILTIN)
def test_contract_values(name):
    book = load_rulebook(name)
    for key, value in {**CONTRACT[name], **OTHER[name]}.items():
        assert getattr(book, key) == value, (name, key)


def test_rulings_named_in_the_brief():
    assert "half" in load_rulebook("tda-2026").ruling("raise-below-minimum")
    for name in ("roberts-v11", "wsop-2023-live"):
        assert "brought up to the minimum raise" in load_rulebook(name).ruling("raise-below-minimum")
    for name in BUILTIN:
        book = load_rulebook(name)
        assert "pot-sized" in book.ruling("over-pot-limit")
        assert "one bet of the fixed size" in book.ruling("wrong-limit-amount")
    assert "Rule 55" in load_rulebook("tda-2026").cite("out-of-turn")
    assert "9.1" in load_rulebook("house").cite("out-of-turn")


def test_builtin_is_cached_and_default_is_tda():
    assert load_rulebook("house") is load_rulebook("house")
    assert load_rulebook().name == "tda-2026"


def test_rulebook_pickles_and_hashes():
    book = load_rulebook("wsop-2023-live", ["limit_raises=5"])
    again = pickle.loads(pickle.dumps(book))
    assert again == book and hash(again) == hash(book)
    assert isinstance(book, Rulebook)


@pytest.mark.parametrize("name", BUILTIN)
def test_builtin_read_by_toml_rs_as_tomllib_reads_it(name):
    """The built-ins are read by toml-rs (loaded anyway, for hands), user files by tomllib: the
    two readers must see the same document in each built-in file."""
    import tomllib
    from pathlib import Path

    from handaudit.rules import rulebook

    path = Path(rulebook.__file__).with_name("books") / f"{name}.toml"
    assert rulebook._read_toml(path) == tomllib.loads(path.read_text(encoding="utf-8"))


def test_rulebook_is_a_value_built_from_keywords():
    """Equality and ``replace`` by every field; the constructor takes every parameter by name and
    refuses a missing or unknown one; attributes are set once."""
    book = load_rulebook("roberts-v11")
    fields = book.fields()
    assert list(fields) == ["name", "title", *PARAMETERS, "sources", "notes", "citations", "rulings",
                            "extends", "overrides"]
    assert Rulebook(**fields) == book
    changed = book.replace(limit_raises=9, overrides=("limit_raises=9",))
    assert (changed.limit_raises, changed.overrides, book.limit_raises) == (9, ("limit_raises=9",), 3)
    assert changed != book and changed.replace(limit_raises=3, overrides=()) == book
    with pytest.raises(TypeError, match="no field 'limit_raise'"):
        book.replace(limit_raise=4)
    missing = {k: v for k, v in fields.items() if k != "rake_cap"}
    with pytest.raises(TypeError, match="missing parameters rake_cap$"):
        Rulebook(**missing)
    with pytest.raises(TypeError, match="unknown parameters colour"):
        Rulebook(**fields, colour="red")
    with pytest.raises(AttributeError, match="immutable"):
        book.limit_raises = 5  # type: ignore[misc]


def test_user_file_extends_roberts(tmp_path):
    path = tmp_path / "casino.toml"
    path.write_text(
        'extends = "roberts-v11"\n'
        "limit_raises = 5\n"
        "[parameters.heads_up_uncap]\n"
        'value = "never"\n'
        'rule = "Casino rule 12"\n'
        "[citations]\n"
        'raise-cap-exceeded = "Casino rule 12"\n'
        "[rulings]\n"
        'out-of-turn = "Dead hand."\n'
    )
    book = load_rulebook(str(path))
    base = load_rulebook("roberts-v11")
    assert book.name == "casino" and book.extends == "roberts-v11"
    assert book.limit_raises == 5 and book.heads_up_uncap == "never"
    assert book.limit_raises_short == base.limit_raises_short
    assert book.short_raise_ruling == "bring-to-minimum"
    assert "casino.toml" in book.sources["limit_raises"] and "roberts-v11 has 3" in book.notes["limit_raises"]
    assert book.sources["heads_up_uncap"] == "Casino rule 12"
    assert book.sources["short_raise_ruling"] == base.sources["short_raise_ruling"]
    assert book.cite("raise-cap-exceeded") == "Casino rule 12"
    assert book.cite("out-of-turn") == base.cite("out-of-turn")
    assert book.ruling("out-of-turn") == "Dead hand."


def test_user_file_without_extends_extends_tda(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "my-room"\n[parameters]\nlimit_raises = 4\n')
    book = load_rulebook(str(path))
    assert book.name == "my-room" and book.extends == "tda-2026"
    assert book.limit_raises == 4 and book.short_raise_ruling == "half-rule"


def test_user_file_extends_user_file(tmp_path):
    (tmp_path / "a.toml").write_text('extends = "wsop-2023-live"\nlimit_raises = 6\n')
    (tmp_path / "b.toml").write_text('extends = "a.toml"\nunnecessary_fold = "off"\n')
    book = load_rulebook(str(tmp_path / "b.toml"))
    assert book.limit_raises == 6 and book.unnecessary_fold == "off"
    assert book.heads_up_uncap == "round-starts-heads-up"
    (tmp_path / "c.toml").write_text('extends = "c.toml"\n')
    with pytest.raises(RulebookError, match="extends itself"):
        load_rulebook(str(tmp_path / "c.toml"))


def test_set_overrides():
    book = load_rulebook("tda-2026", ["limit_raises=5"])
    assert book.limit_raises == 5 and book.name == "tda-2026"
    assert book.sources["limit_raises"] == "--set limit_raises=5"
    assert book.overrides == ("limit_raises=5",)
    assert load_rulebook("tda-2026").limit_raises == 3  # the cached built-in is untouched
    book = load_rulebook("roberts-v11", ["heads_up_uncap=never", "straddle_counts_as_raise=false"])
    assert book.heads_up_uncap == "never" and book.straddle_counts_as_raise is False
    book = load_rulebook("house", ["short-raise-ruling=HALF_RULE", "rake_limit_percent=0"])
    assert book.short_raise_ruling == "half-rule" and book.rake_limit_percent == 0


@pytest.mark.parametrize(
    "overrides, words",
    [
        (["limit_raise=5"], ["limit_raise", "unknown parameter", "limit_raises"]),
        (["limit_raises=five"], ["'five'", "limit_raises", "integer"]),
        (["limit_raises=-1"], ["-1", "limit_raises"]),
        (["heads_up_uncap=sometimes"], ["'sometimes'", "heads_up_uncap", "never", "when-heads-up",
                                        "round-starts-heads-up"]),
        (["straddle_counts_as_raise=maybe"], ["'maybe'", "true, false"]),
        (["rake_limit_percent=101"], ["101", "rake_limit_percent", "100"]),
        (["limit_raises"], ["KEY=VALUE"]),
    ],
)
def test_bad_set(overrides, words):
    with pytest.raises(RulebookError) as e:
        load_rulebook("tda-2026", overrides)
    for w in words:
        assert w in str(e.value)


def test_unknown_name_and_missing_file(tmp_path):
    with pytest.raises(RulebookError, match="tda-2026, roberts-v11, wsop-2023-live, house") as e:
        load_rulebook("tda")
    assert "'tda'" in str(e.value)
    missing = str(tmp_path / "nope.toml")
    with pytest.raises(RulebookError, match="nope.toml"):
        load_rulebook(missing)
    with pytest.raises(RulebookError, match="is a directory, not a regular file"):
        load_rulebook(str(tmp_path))


@pytest.mark.parametrize(
    "text, words",
    [
        ("limit_raise = 5\n", ["bad.toml", "unknown key 'limit_raise'", "did you mean 'limit_raises'"]),
        ("[parameters]\nlimit_raise = 5\n", ["bad.toml", "unknown parameter 'limit_raise'"]),
        ('limit_raises = "5"\n', ["bad.toml", "limit_raises", "'5'", "integer"]),
        ("limit_raises = true\n", ["bad.toml", "limit_raises", "True"]),
        ('heads_up_uncap = "always"\n', ["bad.toml", "'always'", "heads_up_uncap", "when-heads-up"]),
        ('straddle_counts_as_raise = "no"\n', ["bad.toml", "straddle_counts_as_raise", "true, false"]),
        ("[parameters.limit_raises]\nvalu = 5\n", ["bad.toml", "limit_raises", "'valu'", "value, rule, note"]),
        ('[citations]\nraise-too-small = "x"\n', ["bad.toml", "raise-too-small", "unknown finding code"]),
        ("[rulings]\nout-of-turn = 3\n", ["bad.toml", "out-of-turn", "string"]),
        ('extends = "tda-2020"\n', ["tda-2020", "neither a built-in"]),
        ("limit_raises = \n", ["bad.toml", "not valid TOML"]),
    ],
)
def test_bad_file(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulebookError) as e:
        load_rulebook(str(path))
    for w in words:
        assert w in str(e.value), str(e.value)


def test_error_is_value_error():
    assert issubclass(RulebookError, ValueError)


def test_render_table():
    text = render_table(None)
    for name in BUILTIN:
        assert name in text
    for key in PARAMETERS:
        assert key in text
    assert "Robert's Rules of Poker v11, Section 3, Betting and Raising rule 4" in text
    assert "House Betting Rules 9.6" in text
    assert max(map(len, text.splitlines())) <= 120
    one = render_table(["house"])
    assert "house" in one and "tda-2026" not in one and "9.3" in one


def test_render_codes_and_json():
    text = render_codes()
    for code in CITED_CODES:
        assert code in text
    data = rulebook_to_json(load_rulebook("roberts-v11", ["limit_raises=4"]))
    json.dumps(data)
    assert data["name"] == "roberts-v11" and data["overrides"] == ["limit_raises=4"]
    assert set(data["parameters"]) == set(PARAMETERS)
    assert data["parameters"]["limit_raises"] == {
        "value": 4, "rule": "--set limit_raises=4", "note": "set on the command line; roberts-v11 has 3"}
    assert data["parameters"]["heads_up_uncap"]["rule"].startswith("Robert's Rules of Poker v11, Section 3")
    assert set(CITED_CODES) <= set(data["citations"]) and set(CITED_CODES) <= set(data["rulings"])


@pytest.mark.parametrize(("text", "expected"), [
    ("5", "5"), ("4.50", "4.5"), ("007", "7"), ("0.000", "0"), (" 3 ", "3"), ("NONE", "none"), ("100", "100"),
])
def test_decimal_parameter_values(text, expected):
    book = load_rulebook("tda-2026", [f"rake_percent={text}"])
    assert book.rake_percent == expected


@pytest.mark.parametrize("text", ["-1", "1e2", "100.5", "101", "", "1.2.3", "five", "0x10", "٣", "1." + "0" * 19 + "1"])
def test_decimal_parameter_refuses(text):
    with pytest.raises(RulebookError, match="rake_percent"):
        load_rulebook("tda-2026", [f"rake_percent={text}"])


def test_decimal_parameter_from_a_file(tmp_path):
    f = tmp_path / "site.toml"
    f.write_text('rake_percent = 4.5\nrake_cap = "3"\njackpot_drop = 0.5\n[parameters.rake_cap_scope]\nvalue = "pot"\n')
    book = load_rulebook(str(f))
    assert (book.rake_percent, book.rake_cap, book.jackpot_drop, book.rake_cap_scope) == ("4.5", "3", "0.5", "pot")
    f.write_text("jackpot_drop = true\n")
    with pytest.raises(RulebookError, match="jackpot_drop"):
        load_rulebook(str(f))
