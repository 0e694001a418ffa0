"""The .phhs splitter's memory of table names (duplicate-hand) answers exactly like a set."""

from hypothesis import given
from hypothesis import strategies as st

from handaudit.grammar.sources import SeenKeys

_ODD = ["01", "007", "0", "00", "1a", "x", "", "١", "99999999999", str(1 << 27), str((1 << 27) - 1), "+1", " 1"]


@given(st.lists(st.one_of(st.integers(0, 3000).map(str), st.sampled_from(_ODD)), max_size=200))
def test_seen_keys_says_duplicate_exactly_like_a_set(keys):
    seen, plain = SeenKeys(), set()
    for key in keys:
        assert seen.add(key) == (key in plain), key
        plain.add(key)


def test_a_million_numbered_hands_cost_a_bitmap_not_a_set():
    seen = SeenKeys()
    for n in range(1, 1_000_001):
        assert not seen.add(str(n))
    assert seen.add("500000") and seen.add("1000000")
    assert not seen.other and len(seen.bits) <= 2 * (1_000_001 // 8 + 1)
