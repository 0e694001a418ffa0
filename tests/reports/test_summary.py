"""The run's Summary: counts per hand, order-free merging, and pickling (it crosses from a
worker to the parent, and it is a compiled native class in a regular install)."""

from __future__ import annotations

import pickle
from decimal import Decimal

from handaudit.findings.finding import Finding
from handaudit.reports.summary import Summary


def _hands():
    bad = Finding("internal-error", "handaudit failed")
    return [
        ("valid", (), "match", 150, 2, "a.phhs", 1, "1"),
        ("invalid", (bad, bad), "mismatch", 7, 0, "a.phhs", 2, "2"),
        ("unreadable", (bad,), None, None, None, "b.phh", 1, ""),
        ("valid", (), "not-recorded", None, None, "c.phh", 1, ""),
        ("valid", (), "match", 3, 0, "c.phh", 2, ""),
    ]


def _summary(hands) -> Summary:
    s = Summary(files=3, jobs=2, rulebook="tda-2026")
    for hand in hands:
        s.add(*hand)
    return s


def test_add_counts_each_hand():
    s = _summary(_hands())
    assert (s.hands, s.valid, s.invalid, s.unreadable) == (5, 3, 1, 1)
    assert s.findings == {"internal-error": 3} and s.code_hands == {"internal-error": 2}
    assert s.payout == {"match": 2, "mismatch": 1, "not-recorded": 1}
    # a payout mismatch's pot minus recorded winnings is not rake: it is counted apart
    assert s.rake_units == {("", 2): 150, ("", 0): 3} and s.rake_hands == 2
    assert s.shortfall_units == {("", 0): 7} and s.shortfall_by_currency() == [("chips", Decimal(7), 1)]
    # chips and an unnamed money at 2 decimals are never added into one figure
    assert s.rake is None
    assert s.rake_by_currency() == [("chips", Decimal(3), 1), ("no currency, 2 decimals", Decimal("1.50"), 1)]
    assert s.to_json()["unexplained_shortfall"] == [{"currency": "chips", "total": "7", "hands": 1}]
    assert s.worst_hands() == [("a.phhs", 2, "2", 2, 2), ("b.phh", 1, "", 1, 1)]


def test_merged_halves_equal_the_whole_and_survive_pickling():
    hands = _hands()
    whole = _summary(hands)
    merged = _summary(hands[:2])
    merged.merge(pickle.loads(pickle.dumps(_summary(hands[2:]))))
    assert merged.to_json() == whole.to_json()
    assert merged.worst_hands() == whole.worst_hands()
    copy = pickle.loads(pickle.dumps(whole))
    assert copy == whole and copy.to_json() == whole.to_json()


def test_pickling_carries_every_field_in_order():
    """``__reduce__`` (mypyc needs it) carries ``summary.FIELDS``: a field added to the constructor
    and not to FIELDS would be lost between a worker and the parent, and left out of ``==``."""
    import inspect
    from collections import Counter

    from handaudit.reports.summary import FIELDS

    params = tuple(inspect.signature(Summary).parameters)
    assert FIELDS == params

    values = (1, 2, 3, 4, Counter(a=1), Counter(b=2), {"c": "error"}, Counter(match=5), {2: 7}, 6,
              [(-1, -1, "s", 1, "k")], 8, ["f: not a PHH file"], 9.5, 10, "r", Counter(show_order=3),
              Counter({("USD", 2): 4}), {("USD", 2): -100}, Counter({("USD", 2): 1}), 11)
    assert len(values) == len(params)
    s = Summary(*values)
    cls, args = s.__reduce__()
    assert cls is Summary
    assert args == values and tuple(getattr(s, name) for name in params) == values
    assert Summary(*args) == s
    for i, name in enumerate(params):  # every field takes part in ==
        other = list(values)
        other[i] = None
        assert Summary(*other) != s, name
    assert repr(s).startswith("Summary(hands=1, valid=2, ") and "rake_counts=Counter({('USD', 2): 4})" in repr(s)


def test_text_module_still_exports_the_summary_and_every_name_it_lists():
    """reports.text re-exports what moved to reports.summary; `from ... import *` must work."""
    from handaudit.reports import summary, text

    assert [n for n in text.__all__ if not hasattr(text, n)] == []
    assert text.Summary is summary.Summary and text.WORST == summary.WORST


def test_rake_is_totalled_per_currency():
    s = Summary()
    for units, scale, cur in [(150, 2, "USD"), (1005, 3, "USD"), (300, 2, "EUR"), (40, 0, None)]:
        s.add("valid", (), "match", units, scale, "a.phh", 0, "", (), None, cur)
    s.add("valid", (), "match", None, 2, "a.phh", 1, "", (), None, "USD")  # no recorded winnings: no rake
    assert s.rake_by_currency() == [("EUR", Decimal("3.00"), 1), ("USD", Decimal("2.505"), 2),
                                    ("chips", Decimal(40), 1)]
    assert s.rake is None and s.to_json()["rake_total"] is None
    assert s.to_json()["rake"][1] == {"currency": "USD", "total": "2.505", "hands": 2}
    one = Summary()
    one.add("valid", (), "match", 25, 2, "a.phh", 0, "", (), None, "USD")
    assert one.rake == Decimal("0.25") and one.to_json()["rake_total"] == "0.25"
