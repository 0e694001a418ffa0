"""JSON Lines: exact decimal numbers, the contract's fields, input order."""

from __future__ import annotations

import decimal
import json
import re
from decimal import Decimal
from io import StringIO

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handaudit import audit
from handaudit.core.amounts import amount_text
from handaudit.reports.contract import JSONNumber, amount_json
from handaudit.reports.jsonl import dumps, loads, report_line
from handaudit.run.local import Runner

from helpers import VALID_HAND

HAND = VALID_HAND

CONTRACT_FIELDS = ["source", "hand_key", "hand", "variant", "rulebook", "status", "complete", "findings",
                   "settlement", "recorded", "payout_check", "rake"]


def test_decimals_are_written_exactly():
    assert dumps(Decimal("26.85")) == "26.85"
    assert dumps(Decimal("0.10")) == "0.10"
    assert dumps(Decimal("0.1")) == "0.1"
    assert dumps(Decimal(5).scaleb(-8)) == "0.00000005"  # never 5E-8
    assert dumps(Decimal(2685).scaleb(-2)) == "26.85"
    assert dumps(Decimal(12300).scaleb(-2)) == "123.00"
    assert dumps({"a": [Decimal("200.30"), 7, None, True, False]}) == '{"a":[200.30,7,null,true,false]}'


def test_strings_and_structure_match_the_json_module():
    value = {"s": "é \"q\" \\ \n\t\x01", "n": [1, -2, {"k": None}], "e": {}, "l": []}
    assert json.loads(dumps(value)) == value
    assert dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_non_finite_is_refused():
    with pytest.raises(ValueError):
        dumps(Decimal("NaN"))
    with pytest.raises(ValueError):
        dumps(float("inf"))


@given(st.decimals(allow_nan=False, allow_infinity=False))
def test_any_finite_decimal_round_trips_exactly(d):
    text = dumps(d)
    assert "E" not in text and "e" not in text
    back = loads(text)
    assert Decimal(back) == d


def _jsonl(tmp_path, text: str, name: str = "h.phh", jobs: int = 1) -> list[str]:
    path = tmp_path / name
    path.write_text(text)
    out = StringIO()
    Runner([str(path)], jobs=jobs, jsonl_stream=out).run()
    return out.getvalue().splitlines()


_TEXT = st.text(st.characters(blacklist_characters="\x00"), max_size=12)  # no NUL: the reader refuses it
_LEAF = st.none() | st.booleans() | st.integers() | _TEXT | st.decimals(allow_nan=False, allow_infinity=False, places=4)
_VALUE = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                      max_leaves=20)


@given(_VALUE)
def test_any_report_value_round_trips_with_its_decimals_exact(value):
    """Strings that look like the Decimal marker (backslash, u0000, quotes) stay strings."""
    back = loads(dumps(value))
    assert back == value
    assert json.loads(dumps(value), parse_float=Decimal) == value


_PLAIN = st.recursive(st.none() | st.booleans() | st.integers() | _TEXT,
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
                      max_leaves=20)


@given(_PLAIN)
def test_values_without_decimals_are_written_as_the_json_module_writes_them(value):
    """As json.dumps(ensure_ascii=False) writes them, but for the characters line-splitting
    readers or terminals act on (C1 controls, U+2028, U+2029, lone surrogates), which are
    escaped as json.dumps(ensure_ascii=True) escapes them."""
    expected = re.sub("[\x80-\x9f\u2028\u2029\ud800-\udfff]", lambda m: json.dumps(m.group())[1:-1],
                      json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    assert dumps(value) == expected


@given(st.integers(), st.integers(min_value=1, max_value=20))
def test_json_numbers_are_the_decimals_text(amount, scale):
    """The writer's amounts (JSONNumber, made from the int's digits) read as the Decimal amounts."""
    number = amount_json(amount, scale, text=True)
    decimal = amount_json(amount, scale)
    assert isinstance(number, JSONNumber) and number.text == amount_text(amount, scale)
    assert number.text == format(decimal, "f") == dumps(decimal)
    assert dumps([number, {"a": number}, number]) == dumps([decimal, {"a": decimal}, decimal])
    assert loads(dumps(number)) == decimal


def test_report_line_is_dumps_of_to_json(tmp_path):
    (tmp_path / "a.phh").write_text(HAND)
    (tmp_path / "b.phh").write_text("variant = 'NT'\nactions = [\n")  # unreadable
    reports = list(audit([str(tmp_path)]))
    assert [r.status for r in reports] == ["valid", "unreadable"]
    for report in reports:
        assert report_line(report) == dumps(report.to_json())


def test_marker_look_alike_strings_are_left_alone():
    value = {"s": "\\u0000", "t": '"\\u000012"', "d": Decimal("1.50")}
    assert dumps(value) == '{"s":"\\\\u0000","t":"\\"\\\\u000012\\"","d":1.50}'
    assert loads(dumps(value)) == value


def test_hand_object_has_the_contract_fields_and_exact_amounts(tmp_path):
    (line,) = _jsonl(tmp_path, HAND)
    obj = loads(line)
    assert list(obj)[: len(CONTRACT_FIELDS)] == CONTRACT_FIELDS
    assert obj["status"] == "valid" and obj["payout_check"] == "match"
    s = obj["settlement"]
    assert s["finishing_stacks"] == [Decimal("9.95"), Decimal("26.75"), Decimal("5.15")]
    assert s["pots"][0]["amount"] == Decimal("0.25")
    # the text itself: exact decimals, no float artefacts
    assert "26.75" in line and "0.25" in line and "0.2499" not in line and "e-" not in line.lower()
    assert obj["recorded"]["finishing_stacks"][1] == Decimal("26.75")


def test_lines_follow_input_order_whatever_jobs(tmp_path):
    body = "".join(f"[{k}]\n{HAND}\n" for k in range(1, 121))
    path = tmp_path / "many.phhs"
    path.write_text(body)
    outs = []
    for jobs in (1, 2):
        out = StringIO()
        Runner([str(path)], jobs=jobs, jsonl_stream=out, batch_size=7).run()
        outs.append(out.getvalue())
    assert outs[0] == outs[1]
    keys = [json.loads(line)["hand_key"] for line in outs[0].splitlines()]
    assert keys == [str(k) for k in range(1, 121)]


def test_unreadable_hand_has_a_line_with_null_settlement(tmp_path):
    (line,) = _jsonl(tmp_path, "variant = 'NT'\nactions = [\n")
    obj = loads(line)
    assert obj["status"] == "unreadable"
    assert obj["settlement"] is None and obj["findings"][0]["code"] == "syntax-error"


@given(st.one_of(st.none(), st.integers()), st.integers(min_value=0, max_value=20))
def test_format_amount_is_the_exact_decimal_text(amount, scale):
    from handaudit.core.amounts import format_amount

    expected = None if amount is None else format(Decimal(amount).scaleb(-scale, decimal.Context(prec=decimal.MAX_PREC)), "f")
    assert format_amount(amount, scale) == expected
