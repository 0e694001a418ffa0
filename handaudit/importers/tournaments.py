"""PokerStars tournament summary files (``PokerStars Tournament #...``: no hands) read as what
they are: the tournament's id, game, buy-in, entrants, prize pool, dates and each player's finish
and prize. Never counted as a hand; a run writes them to its ``tournaments`` output (JSONL
records with ``"record": "tournament"``, and ``tournaments.parquet`` in the report directory).

The site writes (one file per tournament, the lines as below; amounts exact decimals):

    PokerStars Tournament #2030617466, No Limit Hold'em
    Buy-In: $3.19/$0.31 USD                      (prize-pool part / fee [/ bounty]; "Freeroll")
    9 players
    Total Prize Pool: $28.71 USD
    Tournament started 2017/07/15 18:00:00 CET [2017/07/15 12:00:00 ET]
    Tournament finished 2017/07/15 18:45:10 CET [2017/07/15 12:45:10 ET]
      1: Player1 (Germany), $12.92 (45%)
      2: Player2 (Russia), $8.61 (30%)
      3: Hero (Brazil), $7.18 (25%)
      4: Player4 (France),
      5: Player5 (Chile), still playing
    You finished in 3rd place and received $7.18.

A line not read is kept as a warning of the record (``site-unknown-line``).
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from ..core.amounts import amount_text
from .common import amount_units

HEAD: Final = "PokerStars Tournament #"
PARQUET_FILE: Final = "tournaments.parquet"  # in a report directory (check --out)
CHUNK_KIND: Final = "site-tournament-summary"  # the problem code of a chunk that holds a summary (common.split_log)

_FIRST: Final = re.compile(r"PokerStars Tournament #(?P<id>\d+),?\s*(?P<game>.*?)\s*$")
_BUY_IN: Final = re.compile(r"Buy-In:\s*(?P<text>.*?)\s*$")
_PLAYERS: Final = re.compile(r"(?P<n>\d[\d,]*) players?\s*$")
_POOL: Final = re.compile(r"Total Prize Pool:\s*(?P<text>.*?)\s*$")
_STARTED: Final = re.compile(r"Tournament (?P<what>started|finished)\s*(?:-\s*)?(?P<when>.*?)\s*$")
_FINISH: Final = re.compile(r"\s*(?P<place>\d+): (?P<rest>.*?)\s*$")
_YOU: Final = re.compile(r"You finished in (?P<place>\d+)(?:st|nd|rd|th) place")
_AMOUNT: Final = re.compile(r"[$€£¥₹]?\d[\d,]*(?:\.\d+)?")


class Finish(NamedTuple):
    place: int
    player: str
    country: str | None
    prize: str | None  # exact decimal, or None (no prize, still playing)
    note: str  # what else the line says ("still playing", "qualified for ...", the percentage)


class Tournament(NamedTuple):
    source: str
    line: int
    tournament: int
    game: str
    buy_in: str  # as written ("$3.19/$0.31 USD", "Freeroll")
    buy_in_total: str | None  # the parts added, exact; None when not amounts
    currency: str | None
    entrants: int | None
    prize_pool: str | None
    started: str | None
    finished: str | None
    hero_place: int | None
    finishes: tuple[Finish, ...]
    unread: tuple[tuple[int, str], ...]  # (line, text): lines not read


_INT32: Final = 2**31 - 1
_INT64: Final = 2**63 - 1


def _bounded(text: str, limit: int) -> int | None:
    """``text`` (digits) as an int, None when more than ``limit`` (the column's type holds it)."""
    value = int(text) if len(text) <= 20 else limit + 1
    return value if value <= limit else None


def is_summary(line: str) -> bool:
    return line.lstrip("\ufeff").startswith(HEAD)


def _exact(text: str) -> str | None:
    value, places = amount_units(text)
    return None if value < 0 else amount_text(value, places)


def _currency(text: str) -> str | None:
    words = text.split()
    if words and len(words[-1]) == 3 and words[-1].isalpha() and words[-1].isupper():
        return words[-1]
    return None


def _sum(parts: list[str]) -> str | None:
    """The buy-in's parts added, exactly, at the most decimals written."""
    total = 0
    scale = 0
    values: list[tuple[int, int]] = []
    for p in parts:
        value, places = amount_units(p)
        if value < 0:
            return None
        values.append((value, places))
        written = len(p.split(".", 1)[1]) if "." in p else 0  # the site's own decimals ("$5.00")
        scale = max(scale, places, written)
    for value, places in values:
        total += value * 10 ** (scale - places)
    return amount_text(total, scale)


def _finish(place: int, rest: str) -> Finish:
    """``NAME (COUNTRY), $12.92 (45%)``: the country is the last parenthesis before the comma
    that follows it (a name may hold parentheses)."""
    cut = rest.rfind("),")
    if cut < 0 and rest.endswith(")"):
        cut = len(rest) - 1
    player, country, tail = rest, None, ""
    if cut > 0:
        open_at = rest.rfind(" (", 0, cut)
        if open_at > 0:
            player, country, tail = rest[:open_at], rest[open_at + 2:cut], rest[cut + 2:].strip()
    m = _AMOUNT.search(tail)
    prize = _exact(m.group(0)) if m is not None and "%" not in tail[m.end():m.end() + 1] else None
    return Finish(place, player.strip(), country, prize, tail)


def read_summary(source: str, text: str, line: int = 1) -> Tournament:
    """One summary's text (its first line ``PokerStars Tournament #...``) -> Tournament."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = _FIRST.match(lines[0].lstrip("\ufeff"))
    tid = (_bounded(first.group("id"), _INT64) or 0) if first else 0
    game = first.group("game") if first else ""
    buy_in = ""
    buy_total: str | None = None
    currency: str | None = None
    entrants: int | None = None
    pool: str | None = None
    started: str | None = None
    finished: str | None = None
    hero: int | None = None
    finishes: list[Finish] = []
    unread: list[tuple[int, str]] = []
    for k in range(1, len(lines)):
        raw = lines[k]
        s = raw.strip()
        if not s:
            continue
        if s.startswith("Buy-In:"):
            m = _BUY_IN.match(s)
            buy_in = m.group("text") if m else s
            currency = _currency(buy_in)
            parts = buy_in.split()[0].split("/") if buy_in.split() else []
            buy_total = _sum(parts) if parts and buy_in != "Freeroll" else ("0" if buy_in == "Freeroll" else None)
            continue
        m2 = _PLAYERS.match(s)
        if m2:
            entrants = _bounded(m2.group("n").replace(",", ""), _INT64)
            continue
        if s.startswith("Total Prize Pool:"):
            m3 = _POOL.match(s)
            words = m3.group("text").split() if m3 else []
            pool = _exact(words[0]) if words else None
            currency = currency or _currency(m3.group("text") if m3 else "")
            continue
        m4 = _STARTED.match(s)
        if m4:
            if m4.group("what") == "started":
                started = m4.group("when")
            else:
                finished = m4.group("when")
            continue
        m5 = _FINISH.match(raw)
        if m5 and s[0].isdigit():
            place = _bounded(m5.group("place"), _INT32)
            if place is not None:
                finishes.append(_finish(place, m5.group("rest")))
                continue
        m6 = _YOU.match(s)
        if m6:
            hero = _bounded(m6.group("place"), _INT32)
            continue
        if s.startswith(("Target Tournament", "Tournament is still in progress", "You received", "Statistics")):
            continue
        unread.append((line + k, s[:160]))
    return Tournament(source, line, tid, game, buy_in, buy_total, currency, entrants, pool, started, finished,
                      hero, tuple(finishes), tuple(unread))


def record(t: Tournament) -> dict[str, Any]:
    """The JSONL record of a tournament (amounts exact decimal strings)."""
    return {
        "record": "tournament", "source": t.source, "line": t.line, "tournament": t.tournament, "game": t.game,
        "buy_in": t.buy_in, "buy_in_total": t.buy_in_total, "currency": t.currency, "entrants": t.entrants,
        "prize_pool": t.prize_pool, "started": t.started, "finished": t.finished, "hero_place": t.hero_place,
        "finishes": [{"place": f.place, "player": f.player, "country": f.country, "prize": f.prize, "note": f.note}
                     for f in t.finishes],
        "findings": [{"code": "site-unknown-line", "severity": "warning", "line": n, "message": f"line {n}: {text}"}
                     for n, text in t.unread],
    }


def write_parquet(path: str, tournaments: list[Tournament]) -> int:
    """``tournaments.parquet``: one row per tournament, its finishes a list column; amounts as
    exact decimal strings (never floats). Returns the rows written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    finish = pa.struct([("place", pa.int32()), ("player", pa.string()), ("country", pa.string()),
                        ("prize", pa.string()), ("note", pa.string())])
    schema = pa.schema([
        ("source", pa.string()), ("line", pa.int64()), ("tournament", pa.int64()), ("game", pa.string()),
        ("buy_in", pa.string()), ("buy_in_total", pa.string()), ("currency", pa.string()),
        ("entrants", pa.int64()), ("prize_pool", pa.string()), ("started", pa.string()), ("finished", pa.string()),
        ("hero_place", pa.int32()), ("finishes", pa.list_(finish)), ("unread_lines", pa.int32()),
    ])
    rows = [{
        "source": t.source, "line": t.line, "tournament": t.tournament, "game": t.game, "buy_in": t.buy_in,
        "buy_in_total": t.buy_in_total, "currency": t.currency, "entrants": t.entrants, "prize_pool": t.prize_pool,
        "started": t.started, "finished": t.finished, "hero_place": t.hero_place,
        "finishes": [f._asdict() for f in t.finishes], "unread_lines": len(t.unread),
    } for t in tournaments]
    table = pa.Table.from_pylist(rows, schema=schema)
    pq.write_table(table, path)
    return len(rows)
