"""PartyPoker hand histories (partypoker and its network's rooms, every era of the client's text)
-> the same :class:`~handaudit.core.hand.Hand` the PHH reader makes.

The header lines are read here by regular expressions (once a hand); the seats and every other
line by the bracketed-sites reader (:mod:`.text_sites`). The format's lines, era by era, are in
``partypoker.lark``. PartyPoker's "wins" amount includes the uncalled bet it gave back (written
as a side pot when a short all-in is called: "wins $1.87 USD from the side pot 1"), so the
return the replay computes is taken off it before it is compared.
"""

from __future__ import annotations

import re
from typing import Final

from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from .text_sites import CURRENCY_OF_SYMBOL, MONTHS, RETURNS_ALWAYS, SiteHand, problem_result

_LEADS: Final = re.compile(r"(?:Game #\d+ starts\.?|#Game No\s*:\s*\d+)\s*$")
_HEADER: Final = re.compile(r"\*{5}\s*Hand History [Ff]or Game (?P<id>\d+)\s*\*{5}(?:\s*\((?P<room>[^)]*)\))?\s*$")
_GAME: Final = re.compile(
    r"(?P<pre>.*?)(?:\b(?P<limit>NL|PL|FL|No Limit|Pot Limit|Fixed Limit|Limit)\s+)?(?:Tourney\s+)?"
    r"(?P<game>Texas Hold'?em|Hold'?em|Omaha Hi-Lo|Omaha Hi/Lo|Omaha Hi|Omaha|7 Card Stud Hi-Lo|7 Card Stud"
    r"|Double Hold'?em|Short Deck)\b(?P<post>.*?)\s+-\s+(?P<date>[^-]*)$")
_DATE: Final = re.compile(r"(?:[A-Za-z]+,\s+)?(?P<month>[A-Za-z]+)\s+(?P<d>\d{1,2}),\s+(?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2})"
                          r"\s*(?P<zone>[A-Z]{2,5})?\s+(?P<y>\d{4})\s*$")
_DATE_ISO: Final = re.compile(r"(?P<y>\d{4})[/-](?P<mo>\d{1,2})[/-](?P<d>\d{1,2})\s+(?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2})"
                              r"\s*(?P<zone>[A-Z]{2,5})?\s*$")
_STAKES: Final = re.compile(r"(?P<sb>[$€£]?\s?[\d.,]+)\s*/\s*(?P<bb>[$€£]?\s?[\d.,]+)\s*(?P<iso>[A-Z]{3})?\s*$")
_BUYIN: Final = re.compile(r"(?P<buyin>[$€£]?\s?[\d.,]+)\s*(?P<iso>[A-Z]{3})?\s*$")
_BLINDS: Final = re.compile(r"(?:Blinds|Stakes)(?:-Antes)?\((?P<sb>[\d.,\s]+?)\s*/\s*(?P<bb>[\d.,\s]+?)"
                            r"(?:\s*-\s*(?P<ante>[\d.,\s]+))?\)")
_TRNY: Final = re.compile(r"Trny:\s*(?P<tid>\d+)\s+Level:\s*(?P<level>\d+)")
_TABLE: Final = re.compile(r"Table\s+(?P<name>.+?)\s*(?:\((?P<tid>\d+)\)\s*Table\s*#(?P<tno>\d+)\s*)?(?:\(No DP\)\s*)?"
                           r"\(\s?(?P<money>Real|Play) Money\s?\)\s*(?:--\s*Seat (?P<button>\d+) is the button)?\s*$")
_BUTTON: Final = re.compile(r"Seat (?P<seat>\d+) is the button\s*$")
_PLAYERS: Final = re.compile(r"Total number of players\s*:\s*(?P<n>\d+)(?:\s*/\s*(?P<max>\d+))?\s*$")

# (game, limit) -> PHH variant code; "" is fixed limit (the oldest headers name no limit).
VARIANT_OF_GAME: Final[dict[tuple[str, str], str]] = {
    ("Hold'em", "NL"): "NT", ("Hold'em", "FL"): "FT", ("Hold'em", ""): "FT",
    ("Omaha", "PL"): "PO", ("Omaha Hi-Lo", "FL"): "FO/8", ("Omaha Hi-Lo", ""): "FO/8",
    ("Short Deck", "NL"): "NS",
}
_LIMITS: Final[dict[str, str]] = {"NL": "NL", "No Limit": "NL", "PL": "PL", "Pot Limit": "PL", "FL": "FL",
                                  "Fixed Limit": "FL", "Limit": "FL", "": ""}
_GAMES: Final[dict[str, str]] = {"Texas Hold'em": "Hold'em", "Texas Holdem": "Hold'em", "Hold'em": "Hold'em",
                                 "Holdem": "Hold'em", "Omaha Hi": "Omaha", "Omaha": "Omaha", "Omaha Hi-Lo": "Omaha Hi-Lo",
                                 "Omaha Hi/Lo": "Omaha Hi-Lo", "7 Card Stud": "7 Card Stud",
                                 "7 Card Stud Hi-Lo": "7 Card Stud Hi-Lo", "Double Hold'em": "Double Hold'em",
                                 "Double Holdem": "Double Hold'em", "Short Deck": "Short Deck"}
_FORMATS: Final = ("fastforward", "FASTFORWARD", "Fastforward", "SPOTPOKER", "Spotpoker", "Jackpot")
_HOLE: Final[dict[str, int]] = {"NT": 2, "FT": 2, "PO": 4, "FO/8": 4, "NS": 2}


def read_hand(chunk: Chunk, venue: str) -> ReadResult:
    """One PartyPoker hand (a chunk cut by :func:`~handaudit.importers.common.split_log`) -> ReadResult."""
    if chunk.problem:
        return problem_result(chunk)
    text = chunk.data.decode("utf-8", "replace")
    lines = text.split("\n")
    rows = [k for k in range(len(lines)) if lines[k].strip() and not lines[k].startswith("#encoding ")]
    h = SiteHand(chunk, text, venue, "PartyPoker")
    h.returns_in_wins = RETURNS_ALWAYS
    h.second_small_live = True  # a new player's small blind counts towards the call (the site's calls say so)
    r = 0
    while r < len(rows) and _LEADS.match(lines[rows[r]].strip()) is not None:
        digits = "".join([c for c in lines[rows[r]] if c.isdigit()])
        if digits and h.number(digits, "hand id", rows[r]) >= 0:
            h.fields["hand"] = int(digits)
        r += 1
    if r >= len(rows):
        h.find("site-truncated-hand", f"line {chunk.line}: only the lines that lead in a hand "
               "(\"Game #N starts.\", \"#Game No : N\"): the hand itself is not in the file", 0, True)
        return h.unreadable()
    header = _HEADER.match(lines[rows[r]].strip())
    if header is None:
        h.find("site-unreadable-line", f"line {chunk.line + rows[r]}: the hand header cannot be read: "
               f"{lines[rows[r]].strip()[:120]!r}", rows[r], True)
        return h.unreadable()
    number = h.number(header.group("id"), "hand id", rows[r])
    if number < 0:
        return h.unreadable()
    h.fields["hand"] = number
    if header.group("room"):
        h.fields["_site_room"] = header.group("room")
    r += 1
    if r >= len(rows):
        h.find("site-truncated-hand", f"line {chunk.line}: the hand stops after its header", 0, True)
        return h.unreadable()
    game_row = rows[r]
    game = _GAME.match(lines[game_row].strip())
    if game is None:
        h.find("site-unreadable-line", f"line {chunk.line + game_row}: the game line cannot be read: "
               f"{lines[game_row].strip()[:120]!r}", game_row, True)
        return h.unreadable()
    _date(h, game.group("date"), game_row)
    pre, post = game.group("pre").strip(), game.group("post").strip()
    for word in _FORMATS:  # fast-fold tables name their format between the stakes and the game
        if pre.endswith(" " + word) or pre == word:
            pre = pre[:len(pre) - len(word)].strip()
            h.fields["_site_format"] = word
    tournament = ("Buy-in" in post or "Trny" in post or "Tournament" in post or "Tourney" in lines[game_row]
                  or "Buyin" in post)
    limit = _LIMITS[game.group("limit") or ""]
    if not limit:
        paren = re.search(r"\((NL|PL|FL)\)", post)
        if paren is not None:
            limit = paren.group(1)
    name = _GAMES[game.group("game")]
    variant = VARIANT_OF_GAME.get((name, limit))
    if variant is None:
        h.find("site-game-not-phh" if name != "7 Card Stud" and name != "7 Card Stud Hi-Lo" else "site-game-not-read",
               f"{limit or 'FL'} {name} {'is not read by the PartyPoker importer' if 'Stud' in name else 'has no PHH variant code'}"
               ": the hand is not audited", game_row, True)
        return h.unreadable()
    h.variant = variant
    h.fixed = variant in ("FT", "FO/8")
    h.hole = _HOLE[variant]
    h.chips = tournament
    if tournament:
        m = _TRNY.search(post)
        if m is not None:
            if h.number(m.group("tid"), "tournament id", game_row) < 0:
                return h.unreadable()
            h.fields["event"] = f"Tournament #{m.group('tid')}"
            level = h.number(m.group("level"), "level", game_row)
            if level >= 0:
                h.fields["level"] = level
        b = _BUYIN.search(post[:post.find("Buy-in")].strip()) if "Buy-in" in post else None
        if b is not None:
            h.fields["_site_buyin"] = b.group(0).strip()
    else:
        _cash_stakes(h, pre, game_row)
    r += 1
    # the table line, the button, the number of players
    while r < len(rows):
        line = lines[rows[r]].strip()
        if line.startswith("Table "):
            t = _TABLE.match(line)
            if t is None:
                h.find("site-unknown-line", f"line {chunk.line + rows[r]}: the table line cannot be read: "
                       f"{line[:120]!r}", rows[r])
            else:
                h.fields["table"] = _table_name(t)
                if t.group("tid") and "event" not in h.fields:
                    h.fields["event"] = f"Tournament #{t.group('tid')}"
                    h.chips = True
                if t.group("money") == "Play":
                    h.fields["_site_money"] = "Play Money"
                if t.group("button"):
                    h.set_button(t.group("button"), rows[r])
            r += 1
            continue
        b = _BUTTON.match(line)
        if b is not None:
            h.set_button(b.group("seat"), rows[r])
            r += 1
            continue
        p = _PLAYERS.match(line)
        if p is not None:
            if p.group("max"):
                h.seat_count(p.group("max"), rows[r])
            r += 1
            continue
        break
    # a tournament's blinds: in the game line or a line of their own after the seats
    if h.small < 0:
        for k in range(game_row, len(lines)):
            m = _BLINDS.search(lines[k])
            if m is not None:
                if h.fixed:
                    h.small = h.amount(m.group("bb"), k)
                    value, places = h.raw[h.small] if h.small >= 0 else (0, 0)
                    h.raw.append((value * 2, places))
                    h.big = len(h.raw) - 1
                else:
                    h.small = h.amount(m.group("sb"), k)
                    h.big = h.amount(m.group("bb"), k)
                break
            if lines[k].startswith("** "):
                break
    if h.fatal:
        return h.unreadable()
    return h.read_body(lines, rows[r] if r < len(rows) else len(lines))


def _table_name(t: re.Match) -> str:
    return t.group("name").strip() + (f" table {t.group('tno')}" if t.group("tno") else "")


def table_of(line: str) -> str | None:
    """The table a hand's table line names, as the hand's ``table`` field has it (the
    duplicate-hand key of a log, :func:`~handaudit.importers.common.site_log_hand`)."""
    if not line.startswith("Table "):
        return None
    t = _TABLE.match(line.strip())
    return _table_name(t) if t is not None else None


def _date(h: SiteHand, text: str, row: int) -> None:
    d = _DATE.match(text.strip())
    if d is not None and d.group("month") in MONTHS:
        h.set_date(int(d.group("y")), MONTHS[d.group("month")], int(d.group("d")), int(d.group("h")),
                   int(d.group("mi")), int(d.group("s")), row)
        if d.group("zone"):
            h.fields["time_zone_abbreviation"] = d.group("zone")
        return
    iso = _DATE_ISO.match(text.strip())
    if iso is not None:
        h.set_date(int(iso.group("y")), int(iso.group("mo")), int(iso.group("d")), int(iso.group("h")),
                   int(iso.group("mi")), int(iso.group("s")), row)
        if iso.group("zone"):
            h.fields["time_zone_abbreviation"] = iso.group("zone")


def _cash_stakes(h: SiteHand, pre: str, row: int) -> None:
    """A cash game's stakes: "$0.05/$0.10 USD" (no-limit and pot-limit: the blinds; fixed limit:
    the small and big bet), or the oldest form "$100 USD", the table's buy-in (the blinds are
    then the posted ones)."""
    for sym in CURRENCY_OF_SYMBOL:
        if sym in pre:
            h.fields["currency_symbol"] = sym
            h.fields["currency"] = CURRENCY_OF_SYMBOL[sym]
            break
    s = _STAKES.match(pre)
    if s is not None:
        if s.group("iso"):
            h.fields["currency"] = s.group("iso")
        a = h.amount(s.group("sb"), row)
        b = h.amount(s.group("bb"), row)
        h.small, h.big = a, b
        return
    b2 = _BUYIN.match(pre)
    if b2 is not None:
        if b2.group("iso"):
            h.fields["currency"] = b2.group("iso")
        h.fields["_site_buyin"] = b2.group("buyin").strip()
        return
    if pre:
        h.find("site-unknown-line", f"line {h.chunk.line + row}: stakes {pre!r} cannot be read", row)
