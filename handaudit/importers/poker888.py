"""888poker hand histories (Pacific Poker, Cassava and the national brands 888.es, .it, .pt, .ro,
...) -> the same :class:`~handaudit.core.hand.Hand` the PHH reader makes.

The header lines are read here by regular expressions (once a hand); the seats and every other
line by the bracketed-sites reader (:mod:`.text_sites`). The format's lines, era by era, are in
``poker888.lark``. A hand led in by ``#Game No : N`` whose own header is PartyPoker's (that line
leads in both sites' hands) is read by :mod:`.partypoker`.
"""

from __future__ import annotations

import re
from typing import Final

from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from .text_sites import CURRENCY_OF_SYMBOL, RETURNS_INFERRED, SiteHand, problem_result

_LEAD: Final = re.compile(r"#Game No\s*:\s*(?P<id>\d+)\s*$")
_HEADER: Final = re.compile(
    r"\*{4,5}\s*(?P<brand>888poker|Cassava|Pacific|888|LuckyAcePoker\.com)(?P<tld>\.[a-z]{2})?(?:-[a-z]{2})?\s+"
    r"(?P<kind>Snap Poker |BLAST )?"
    r"Hand History for Game (?P<id>\d+)\s*\*{4,5}")
_GAME: Final = re.compile(
    r"(?P<stakes>.+?)\s+Blinds\s+(?P<limit>No Limit|Pot Limit|Fix Limit|Fixed Limit|Limit)\s+"
    r"(?P<game>Holdem|Hold'em|Omaha Hi/Lo|OmahaHL|Omaha)(?P<jackpot>\s+Jackpot table)?\s*-\s*\*\*\*\s*"
    r"(?P<d>\d{1,2}) (?P<mo>\d{1,2}) (?P<y>\d{4})\s+(?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2})\s*$")
_TABLE: Final = re.compile(r"Table (?P<name>.+?)(?:\s+(?P<max>\d+) Max)?(?:\s+\((?P<money>Real Money|Play Money|"
                           r"Practice Play)\))?\s*$")
_TOURNAMENT: Final = re.compile(r"Tournament #(?P<tid>\d+)\s+(?P<buyin>.*?)\s*-\s*Table #(?P<table>\d+)"
                                r"(?:\s+(?P<max>\d+) Max)?(?:\s+\((?P<money>Real Money|Play Money|Practice Play)\))?\s*$")
_BUTTON: Final = re.compile(r"Seat (?P<seat>\d+) is the button\s*$")
_PLAYERS: Final = re.compile(r"Total number of players\s*:\s*(?P<n>\d+)(?:/(?P<max>\d+))?\s*$")

# (game, limit) -> PHH variant code. Pot-limit hold'em, no-limit Omaha and pot-limit Omaha hi/lo
# have none (the extension codes of issue #39 name them once they land).
VARIANT_OF_GAME: Final[dict[tuple[str, str], str]] = {
    ("Holdem", "No Limit"): "NT", ("Hold'em", "No Limit"): "NT",
    ("Holdem", "Fix Limit"): "FT", ("Holdem", "Fixed Limit"): "FT", ("Holdem", "Limit"): "FT",
    ("Hold'em", "Fix Limit"): "FT", ("Omaha", "Pot Limit"): "PO",
    ("OmahaHL", "Fix Limit"): "FO/8", ("Omaha Hi/Lo", "Fix Limit"): "FO/8", ("OmahaHL", "Limit"): "FO/8",
}
_HOLE: Final[dict[str, int]] = {"NT": 2, "FT": 2, "PO": 4, "FO/8": 4}


def read_hand(chunk: Chunk, venue: str) -> ReadResult:
    """One 888poker hand (a chunk cut by :func:`~handaudit.importers.common.split_log`) -> ReadResult."""
    if chunk.problem:
        return problem_result(chunk)
    text = chunk.data.decode("utf-8", "replace")
    lines = text.split("\n")
    rows = [k for k in range(len(lines)) if lines[k].strip() and not lines[k].startswith("#encoding ")]
    h = SiteHand(chunk, text, venue, "888poker")
    # 888's "collected" holds the uncalled bet in some hands (walks, a raise over an all-in
    # blind) and not in others (a bet the others fold to): the sum of the collections tells which
    h.returns_in_wins = RETURNS_INFERRED
    r = 0
    while r < len(rows):
        lead = _LEAD.match(lines[rows[r]].strip())
        if lead is None:
            break
        number = h.number(lead.group("id"), "hand id", rows[r])
        if number >= 0:
            h.fields["hand"] = number
        r += 1
    if r >= len(rows):
        h.find("site-truncated-hand", f"line {chunk.line}: the hand stops after its \"#Game No\" line: not read", 0, True)
        return h.unreadable()
    first = lines[rows[r]].strip()
    if first.startswith("***** Hand History") or first.startswith("Game #"):
        from . import partypoker  # the same lead-in line, PartyPoker's hand

        return partypoker.read_hand(chunk, "PartyPoker")
    header = _HEADER.match(first)
    if header is None:
        h.find("site-unreadable-line", f"line {chunk.line + rows[r]}: the hand header cannot be read: {first[:120]!r}",
               rows[r], True)
        return h.unreadable()
    number = h.number(header.group("id"), "hand id", rows[r])
    if number < 0:
        return h.unreadable()
    h.fields["hand"] = number
    tld = header.group("tld")
    if tld:
        h.fields["venue"] = "888" + tld
    if header.group("kind"):
        h.fields["_site_format"] = header.group("kind").strip()  # Snap Poker (fast-fold), BLAST
    r += 1
    if r >= len(rows):
        h.find("site-truncated-hand", f"line {chunk.line}: the hand stops after its header", 0, True)
        return h.unreadable()
    game = _GAME.match(lines[rows[r]].strip())
    if game is None:
        h.find("site-unreadable-line", f"line {chunk.line + rows[r]}: the game line cannot be read: "
               f"{lines[rows[r]].strip()[:120]!r}", rows[r], True)
        return h.unreadable()
    h.set_date(int(game.group("y")), int(game.group("mo")), int(game.group("d")), int(game.group("h")),
               int(game.group("mi")), int(game.group("s")), rows[r])
    if game.group("jackpot"):
        h.fields["_site_jackpot_table"] = True
    name, limit = game.group("game"), game.group("limit")
    variant = VARIANT_OF_GAME.get((name, limit))
    if variant is None:
        h.find("site-game-not-phh", f"{limit} {name} has no PHH variant code: the hand is not audited", rows[r], True)
        return h.unreadable()
    h.variant = variant
    h.fixed = variant in ("FT", "FO/8")
    h.hole = _HOLE[variant]
    stakes = game.group("stakes")
    stake_row = rows[r]
    r += 1
    # the table line, or a tournament's
    if r < len(rows):
        line = lines[rows[r]].strip()
        t = _TOURNAMENT.match(line)
        if t is not None:
            h.chips = True
            if h.number(t.group("tid"), "tournament id", rows[r]) < 0:
                return h.unreadable()
            h.fields["event"] = f"Tournament #{t.group('tid')}"
            h.fields["_site_buyin"] = t.group("buyin")
            h.fields["table"] = _tournament_table(t)
            if t.group("max"):
                h.seat_count(t.group("max"), rows[r])
            r += 1
        elif line.startswith("Table "):
            tm = _TABLE.match(line)
            if tm is not None:
                h.fields["table"] = tm.group("name")
                if tm.group("max"):
                    h.seat_count(tm.group("max"), rows[r])
                if tm.group("money") and tm.group("money") != "Real Money":
                    h.fields["_site_money"] = tm.group("money")
            r += 1
        else:
            h.find("site-unknown-line", f"line {chunk.line + rows[r]}: the table line cannot be read: {line[:120]!r}",
                   rows[r])
    _stakes(h, stakes, stake_row)
    while r < len(rows):
        line = lines[rows[r]].strip()
        b = _BUTTON.match(line)
        if b is not None:
            h.set_button(b.group("seat"), rows[r])
            r += 1
            continue
        if _PLAYERS.match(line) is not None:
            r += 1
            continue
        break
    if h.fatal:
        return h.unreadable()
    return h.read_body(lines, rows[r] if r < len(rows) else len(lines))


def _tournament_table(t: re.Match) -> str:
    return f"{t.group('tid')} table {t.group('table')}"  # (no "#": the duplicate-hand key of a PHH file reads
    # a value only to its first "#")


def table_of(line: str) -> str | None:
    """The table a hand's table (or tournament) line names, as the hand's ``table`` field has it
    (the duplicate-hand key of a log, :func:`~handaudit.importers.common.site_log_hand`)."""
    t = _TOURNAMENT.match(line.strip())
    if t is not None:
        return _tournament_table(t)
    if line.startswith("Table "):
        tm = _TABLE.match(line.strip())
        if tm is not None:
            return tm.group("name")
    return None


def _stakes(h: SiteHand, stakes: str, row: int) -> None:
    """"$3/$6", "5 €/10 €", "$0.50/$1": the blinds. Fixed limit: the small bet is the big blind,
    the big bet twice it (888 names a fixed-limit game by its blinds)."""
    parts = stakes.split("/")
    if len(parts) != 2:
        h.find("site-unreadable-line", f"line {h.chunk.line + row}: stakes {stakes!r} cannot be read", row, True)
        return
    for sym in CURRENCY_OF_SYMBOL:
        if sym in stakes and not h.chips:
            h.fields["currency_symbol"] = sym
            h.fields["currency"] = CURRENCY_OF_SYMBOL[sym]
            break
    small = h.amount(parts[0], row)
    big = h.amount(parts[1], row)
    if small < 0 or big < 0:
        return
    if h.fixed:
        value, places = h.raw[big]
        # the big bet is twice the small, but for the stake the site sells as $0.12/$0.25 (a
        # $0.125 small bet written rounded: blinds "$0.06/$0.12")
        h.raw.append((25, 2) if (value, places) == (12, 2) else (value * 2, places))
        h.small = big
        h.big = len(h.raw) - 1
    else:
        h.small = small
        h.big = big
