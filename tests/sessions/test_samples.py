"""The cross-hand pass on the samples of samples/sessions: exactly the findings each shows, per
rulebook, at the later hand and naming the earlier one; the sessions and players tables."""

from __future__ import annotations

import pytest

from handaudit.run.local import Runner
from handaudit.sessions import read_session_table
from helpers import REPO

SAMPLES = REPO / "samples" / "sessions"

# sample -> rulebook -> {(code, hand, earlier hand, player)}
EXPECTED = {
    "stack-not-carried": {b: {("stack-not-carried", "103", "102", "ann")} for b in ("tda-2026", "house")},
    "stack-added-unrecorded": {"tda-2026": {("stack-added-unrecorded", "103", "102", "bob")}},
    "hand-missing": {b: {("hand-missing", "1021", "1007", None)} for b in ("tda-2026", "roberts-v11", "house")},
    "hand-number-gap": {"tda-2026": {("hand-number-gap", "R5-7-104", "R5-7-102", None)}},
    "seat-changed": {"house": {("seat-changed", "103", "102", "cat")},
                     # the dead-button rule also sees the big blind skip cat's new seat
                     "tda-2026": {("seat-changed", "103", "102", "cat"), ("big-blind-out-of-order", "103", "102", None)}},
    "button-out-of-order": {"house": {("button-out-of-order", "103", "102", None)},
                            "tda-2026": {("big-blind-out-of-order", "103", "102", None)}},
    "big-blind-out-of-order": {"roberts-v11": {("big-blind-out-of-order", "103", "102", None)},
                               "house": {("button-out-of-order", "103", "102", None)}},
    # missed_blinds: none (TDA) owes nothing; big (house) and big-and-small (Robert's) owe a post
    "missed-blind-not-posted": {"house": {("missed-blind-not-posted", "105", "101", "dan")},
                                "roberts-v11": {("missed-blind-not-posted", "105", "101", "dan"),
                                                ("big-blind-out-of-order", "105", "104", None)},
                                "tda-2026": {("big-blind-out-of-order", "105", "104", None)}},
    # new_player_posts: none (TDA) deals a new player in; big-blind (Robert's, house) does not
    "new-player-not-posted": {"house": {("new-player-not-posted", "104", "103", "dan")},
                              "tda-2026": {("big-blind-out-of-order", "104", "103", None)}},
    "blinds-went-down": {"tda-2026": {("blinds-went-down", "103", "102", None)}},
}


def _pass(path, book, tmp_path):
    out = tmp_path / f"r-{book}"
    result = Runner([str(path)], rulebook=book, out_dir=str(out), jobs=1, sessions=True).run()
    assert result.complete
    return out


@pytest.mark.parametrize("sample,book", [(s, b) for s, books in EXPECTED.items() for b in books])
def test_sample_findings(sample, book, tmp_path):
    out = _pass(SAMPLES / f"{sample}.phhs", book, tmp_path)
    rows = read_session_table(out, "session_findings").to_pylist()
    got = {(r["code"], r["hand"], r["earlier_hand"], r["player"]) for r in rows}
    assert got == EXPECTED[sample][book]
    for r in rows:
        assert r["rule"], r  # every book cites a rule for every cross-hand code
        assert r["source"].endswith(f"{sample}.phhs") and r["earlier_source"] == r["source"]


def test_sessions_and_players_tables(tmp_path):
    out = _pass(SAMPLES / "stack-not-carried.phhs", "tda-2026", tmp_path)
    (s,) = read_session_table(out, "sessions").to_pylist()
    assert (s["venue"], s["table"], s["hands"], s["players"], s["first_hand"], s["last_hand"], s["findings"],
            s["errors"], s["began"]) == ("Club", "stack-not-carried", 3, 3, "101", "103", 1, 1, "first")
    players = {p["player"]: p for p in read_session_table(out, "session_players").to_pylist()}
    # hand 101: ann SB (-1), bob BB (+1); 102: bob SB, cat BB; 103: cat SB, ann BB
    assert {n: (p["hands"], p["net"], p["first_stack"], p["last_stack"]) for n, p in players.items()} == {
        "ann": (3, 0, 200, 190), "bob": (3, 0, 200, 200), "cat": (3, 0, 200, 200)}
    assert {p["rake"] for p in players.values()} == {0}


def test_rulebook_parameters_change_the_verdict(tmp_path):
    """button_rule, missed_blinds and new_player_posts, each set by --set, change the findings."""
    path = SAMPLES / "missed-blind-not-posted.phhs"

    def codes(*overrides):
        out = tmp_path / ("o" + "-".join(o.replace("=", "_") for o in overrides))
        Runner([str(path)], rulebook="roberts-v11", overrides=overrides, out_dir=str(out), jobs=1,
               sessions=True).run()
        return {r["code"] for r in read_session_table(out, "session_findings").to_pylist()}

    assert codes() == {"missed-blind-not-posted", "big-blind-out-of-order"}
    assert codes("button_rule=moving-button") == {"missed-blind-not-posted"}
    assert codes("button_rule=moving-button", "missed_blinds=none") == set()
    new = SAMPLES / "new-player-not-posted.phhs"
    out = tmp_path / "new"
    Runner([str(new)], rulebook="house", overrides=("new_player_posts=none",), out_dir=str(out), jobs=1,
           sessions=True).run()
    assert read_session_table(out, "session_findings").num_rows == 0


def test_without_the_flag_no_session_tables(tmp_path):
    out = tmp_path / "plain"
    Runner([str(SAMPLES / "stack-not-carried.phhs")], out_dir=str(out), jobs=1).run()
    assert not (out / "sessions").exists()
    assert read_session_table(out, "sessions").num_rows == 0


def test_partitioned_and_parallel_passes_write_the_same_tables(tmp_path):
    """The on-disk partition (many buckets), a pool of two processes and the in-memory pass give
    the same rows; a record pickles by its fields (what the partition spills)."""
    import pickle

    from handaudit.rules.rulebook import load_rulebook
    from handaudit.sessions import audit_sessions
    from handaudit.sessions.record import RECORD_FIELDS, HandRecord

    out = tmp_path / "all"
    Runner([str(SAMPLES), str(REPO.parent / "shared" / "corpus" / "real")], out_dir=str(out), jobs=1).run()
    book = load_rulebook("roberts-v11", [])

    def tables():
        return {t: sorted(map(repr, read_session_table(out, t).to_pylist()))
                for t in ("sessions", "session_hands", "session_players", "session_findings")}

    one = audit_sessions(out, book)
    assert one.buckets == 1
    expected = tables()
    spilled = audit_sessions(out, book, bucket_hands=40)
    assert spilled.buckets > 4 and tables() == expected
    pooled = audit_sessions(out, book, bucket_hands=40, jobs=2)
    assert tables() == expected and pooled.codes == one.codes and pooled.hands == one.hands
    import handaudit.sessions.extract as extract

    try:  # parts read a few hands at a time: the players and pots follow their hands
        extract.BATCH_HANDS = 7
        audit_sessions(out, book)
        assert tables() == expected
    finally:
        extract.BATCH_HANDS = 5_000
    assert read_session_table(out, "session_hands").num_rows == one.hands == pooled.hands
    r = HandRecord("s", 3, hand="R5-7", table="t", names=["a", "b"], starts=[1, None])
    back = pickle.loads(pickle.dumps(r))
    assert [getattr(back, f) for f in RECORD_FIELDS] == [getattr(r, f) for f in RECORD_FIELDS]


def test_table_events_column_read_when_a_part_has_it(tmp_path):
    """A site importer's table events (issue #39a) reach the pass as an optional ``table_events``
    column of the hands parts: a recorded top-up explains the stack that grew."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from handaudit.reports.layout import part_files
    from handaudit.rules.rulebook import load_rulebook
    from handaudit.sessions import audit_sessions

    out = _pass(SAMPLES / "stack-added-unrecorded.phhs", "tda-2026", tmp_path)
    book = load_rulebook("tda-2026", [])
    assert audit_sessions(out, book).codes == {"stack-added-unrecorded": 1}
    (part,) = [f for f in part_files(out, "hands") if "empty" not in f.name]
    t = pq.read_table(part)
    kind = pa.list_(pa.struct([("kind", pa.string()), ("player", pa.string()), ("amount", pa.int64())]))
    events = [[{"kind": "top-up", "player": "bob", "amount": 50}] if h == "103" else [] for h in
              t["hand"].to_pylist()]
    pq.write_table(t.append_column("table_events", pa.array(events, kind))
                   .append_column("max_buy_in", pa.array([200] * t.num_rows, pa.int64())), part)
    result = audit_sessions(out, book)
    assert result.codes == {"top-up-over-limit": 1}  # explained, but above the table's 200
    msg = read_session_table(out, "session_findings").column("message").to_pylist()
    assert msg == ["bob tops up to 250, above the table's maximum buy-in 200"]
