"""Winamax hand histories (the site's text: ``Winamax Poker - CashGame|Tournament … HandId: #…``)
-> the same :class:`~handaudit.core.hand.Hand` the PHH reader makes, as a
:class:`~handaudit.grammar.result.ReadResult` with findings.

The format is documented line by line in ``winamax.lark``. Its figures differ from PokerStars'
in two ways the reconciliation is told of (:mod:`handaudit.settlement.site_totals`): the stated
total pot is after the rake, and an uncalled bet is written nowhere: it stays in the total and
in the bettor's "collected" amount. The shared reading into a Hand is :mod:`.stars_like`.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Final

from ..core.hand import BET_RAISE, CHECK_CALL, FOLD, SHOW_MUCK
from ..core.variants import VARIANTS
from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from . import lines as L
from . import stars_like as T
from .common import CURRENCY_OF_SYMBOL
from .site_grammar import SiteGrammar

SITE: Final = "Winamax"

_HEADER: Final = re.compile(
    r"Winamax Poker - (?P<kind>.*?) - HandId: #(?P<id>\d+(?:-\d+)*) - (?P<game>.+?) "
    r"(?P<limit>no limit|pot limit|fixed limit|limit) \((?P<stakes>[^()]*)\) - "
    r"(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2}) (?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2})\s*(?P<zone>[A-Za-z]*)\s*$")
_TOURNAMENT: Final = re.compile(r'Tournament "(?P<name>.*)" buyIn: (?P<buyin>.*?)(?: level: (?P<level>\d+))?\s*$')
_TABLE: Final = re.compile(r"Table: '(?P<name>.*)' (?P<max>\d+)-max(?: \((?P<money>real money|play money)\))?"
                           r"(?: Seat #(?P<button>\d+) is the button)?\s*$")
_SEAT: Final = re.compile(r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^()]*?)(?:, (?P<bounty>[^()]*?) bounty)?\)"
                          r"\s*$")

# (game, limit) -> PHH variant code.
VARIANT_OF_GAME: Final[dict[tuple[str, str], str]] = {
    ("Holdem", "no limit"): "NT", ("Holdem", "fixed limit"): "FT", ("Holdem", "limit"): "FT",
    ("Omaha", "pot limit"): "PO", ("Omaha Hi/Lo", "fixed limit"): "FO/8", ("Omaha8", "fixed limit"): "FO/8",
    # handaudit's extension codes (README "Variants beyond PHH")
    ("Omaha", "no limit"): "NO", ("Omaha Hi/Lo", "pot limit"): "PO/8", ("Omaha8", "pot limit"): "PO/8",
    ("5 Card Omaha", "pot limit"): "P5O", ("5 Card Omaha Hi/Lo", "pot limit"): "P5O/8",
}
# Games PHH has a code for whose text this importer does not read yet (up cards, bring-ins, draws).
NOT_READ_YET: Final[dict[str, str]] = {
    "7-Card Stud": "F7S", "7stud": "F7S", "7-Card Stud Hi/Lo": "F7S/8", "7stud8": "F7S/8", "Razz": "FR",
    "2-7 Triple Draw": "F2L3D", "Lowball27": "F2L3D",
}
_FIXED: Final = ("FT", "FO/8")
_ALL_IN: Final = " and is all-in"
_OUT_OF_POSITION: Final = " out of position"
_POSTS: Final[tuple[tuple[str, str], ...]] = (
    ("posts small blind ", T.P_SMALL), ("posts big blind ", T.P_BIG), ("posts ante ", T.P_ANTE),
    ("posts the ante ", T.P_ANTE), ("posts dead blind ", T.P_DEAD), ("posts straddle ", T.P_STRADDLE),
    ("posts small & big blinds ", T.P_OUT), ("posts small & big blind ", T.P_OUT))
_EVENT_ENDS: Final[tuple[str, ...]] = (
    " sits out", " is sitting out", " has returned", " is disconnected", " is connected", " has timed out",
    " leaves the table", " deny SB", " denies SB", " will be allowed to play after the button")
_EVENT_PARTS: Final[tuple[str, ...]] = (
    " joins the table at seat #", " said, \"", " finished the tournament", " wins the tournament",
    " bounty for eliminating ", " for eliminating ", " was removed from the table", " re-buys ", " rebuys ",
    " takes the add-on")

GRAMMAR: Final = SiteGrammar("winamax.lark")


def _header(st: T.SiteText, line: str) -> tuple[str, str]:
    """The header's fields -> (PHH variant code, limit), or ("", "") with the finding saying why."""
    m = _HEADER.match(line)
    if m is None and line.startswith("Winamax Poker - Tournament summary"):
        st.find("site-format-not-read", f"line {st.chunk.line}: a Winamax tournament summary (no hand): the tournaments "
                "output reads PokerStars' summaries only; not read", 0, True)
        return "", ""
    if m is None:
        st.find("site-unreadable-line", f"line {st.chunk.line}: the hand header cannot be read: {line[:120]!r}", 0,
                True)
        return "", ""
    st.fields["hand"] = m.group("id")
    st.fields["year"] = int(m.group("y"))
    st.fields["month"] = int(m.group("mo"))
    st.fields["day"] = int(m.group("d"))
    h, mi, s = int(m.group("h")), int(m.group("mi")), int(m.group("s"))
    if h < 24 and mi < 60 and s < 60:
        st.fields["time"] = _dt.time(h, mi, s)
    if m.group("zone"):
        st.fields["time_zone_abbreviation"] = m.group("zone")
    kind = m.group("kind")
    t = _TOURNAMENT.match(kind)
    if t is not None:
        st.fields["event"] = t.group("name")
        st.fields["_site_buyin"] = t.group("buyin").strip()
        if t.group("level"):
            st.fields["level"] = int(t.group("level"))
    elif kind != "CashGame":
        st.fields["_site_game_kind"] = kind  # Go Fast "Buzau", HOLD-UP "...", ESCAPE "..."
    game, limit = m.group("game"), m.group("limit")
    variant = VARIANT_OF_GAME.get((game, limit), "")
    if not variant and game in NOT_READ_YET:
        st.find("site-game-not-read", f"{game} {limit} (PHH variant {NOT_READ_YET[game]}) is not read by the Winamax "
                "importer yet: the hand is not audited", 0, True)
        return "", ""
    if not variant or variant not in VARIANTS:
        st.find("site-game-not-phh", f"{game} {limit} has no PHH variant code: the hand is not audited", 0, True)
        return "", ""
    stakes = m.group("stakes")
    parts = stakes.split("/")
    if len(parts) < 2 or len(parts) > 3:
        st.find("site-unreadable-line", f"line {st.chunk.line}: the stakes {stakes!r} cannot be read", 0, True)
        return "", ""
    # "0.50€/1€": small and big blind; "25/150/300": ante, small and big blind; fixed limit: the
    # small and big bet last.
    st.stakes = (st.amount(parts[-2], 0), st.amount(parts[-1], 0))
    for symbol in CURRENCY_OF_SYMBOL:
        if symbol in stakes:
            st.fields["currency_symbol"] = symbol
            st.fields["currency"] = CURRENCY_OF_SYMBOL[symbol]
            break
    if st.stakes[0] < 0 or st.stakes[1] < 0:
        return "", ""
    return variant, limit


def _cut(a: str, ending: str) -> str:
    return a[:-len(ending)] if a.endswith(ending) else a


def _player_line(st: T.SiteText, pos: int, rest: str, i: int) -> bool:
    """The line ``NAME`` + ``rest`` about the seated player at ``pos``; False if not one of these."""
    if not rest.startswith(" "):
        return False
    r = rest[1:].rstrip()
    if r == "folds":
        st.act(FOLD, pos)
    elif r == "checks":
        st.act(CHECK_CALL, pos)
    elif r.startswith("calls "):
        st.act(CHECK_CALL, pos)
    elif r.startswith("bets "):
        bet = st.amount(_cut(r[5:], _ALL_IN), i)
        if st.top >= 0 and bet >= 0:
            # older logs write a raise as a bet of the increment ("bets 292.50" over the big
            # blind of 120, then "calls 292.50"): a raise to the street's bet plus it
            bet = st.add(st.top, bet)
        st.top = bet
        st.act(BET_RAISE, pos, bet)
    elif r.startswith("raises "):
        a = _cut(r[7:], _ALL_IN)
        cut = a.find(" to ")
        if cut < 0:
            return False
        st.top = st.amount(a[cut + 4:], i)
        st.act(BET_RAISE, pos, st.top)
    elif r.startswith("shows ["):
        end = r.find("]")
        if end < 0:
            return False
        st.act(SHOW_MUCK, pos, -1, r[7:end])
    elif r == "mucks" or r == "mucks hand" or r == "doesn't show hand":
        st.act(SHOW_MUCK, pos)
    elif r.startswith("collected "):
        cut = r.find(" from ", 10)
        if cut < 0:
            return False
        pot = r[cut + 6:]
        if pot != "pot" and pot != "main pot" and not pot.startswith("side pot"):
            return False
        st.collect(pos, st.amount(r[10:cut], i))
        st.active[pos] = True
    else:
        for prefix, kind in _POSTS:
            if r.startswith(prefix):
                a = _cut(r[len(prefix):], _ALL_IN)
                if a.endswith(_OUT_OF_POSITION):  # a blind posted from outside the blinds (a new player)
                    a = _cut(a[:-len(_OUT_OF_POSITION)], _ALL_IN)
                    kind = T.P_OUT
                amount = st.amount(a, i)
                if kind == T.P_BIG or kind == T.P_STRADDLE or kind == T.P_OUT:
                    st.top = st.larger(st.top, amount)
                st.post(pos, kind, amount)
                return True
        return False
    return True


def _event_line(line: str) -> bool:
    r = line.rstrip()
    for ending in _EVENT_ENDS:
        if r.endswith(ending):
            return True
    for part in _EVENT_PARTS:
        if part in r:
            return True
    return r.startswith("#encoding ") or (r.startswith("***** End of hand ") and r.endswith(" *****"))


def _other(st: T.SiteText, line: str, i: int, pos: int) -> bool:
    """A line that is no action, kept as a table event (the shared vocabulary of :mod:`.lines`,
    else this site's own: :func:`_event_line` and the grammar's ``event`` lines); False if none."""
    if line.startswith("#encoding "):
        return True  # (the splitter's note of a file read as Windows-1252)
    if st.table_event(line, i, pos):
        return True
    if _event_line(line) or GRAMMAR.accepts(line, st.ordered):
        text = line[len(st.names[pos]):].lstrip(": ") if pos >= 0 else line
        st.event(i, L.T_TABLE, st.names[pos] if pos >= 0 else "", "", text)
        return True
    return False


def _street(st: T.SiteText, line: str) -> int:
    """A ``*** ... ***`` line: 1 the deal or blinds, 2 a board, 3 the showdown, 4 the summary, 0 unknown."""
    end = line.find(" ***", 4)
    if end < 0:
        return 0
    name = line[4:end].strip()
    rest = line[end + 4:]
    run = ""
    for prefix in ("FIRST ", "SECOND ", "THIRD "):
        if name.startswith(prefix):
            run = prefix.strip()
            name = name[len(prefix):]
    if name == "ANTE/BLINDS":
        return 1
    if name == "PRE-FLOP":
        st.act(T.DEAL, -1)
        return 1
    if name == "FLOP" or name == "TURN" or name == "RIVER":
        b = rest.rfind("[")
        e = rest.rfind("]")
        if b < 0 or e < b:
            return 0
        cards = rest[b + 1:e]
        st.top = -1  # a new betting round
        st.board(run, rest)
        if run == "" or run == "FIRST":
            st.act(T.BOARD, -1, -1, cards)
        else:
            st.runs.append(f"{run.lower()} {name.lower()} [{cards}]")
        return 2
    if name == "SHOW DOWN" or name == "SHOWDOWN":
        return 3
    if name == "SUMMARY":
        return 4
    return 0


def _totals(st: T.SiteText, line: str, i: int) -> bool:
    """``Total pot 19.82€ | Rake 0.98€`` or ``Total pot 2€ | No rake``: the total after the rake."""
    parts = line.split(" | ")
    if not parts[0].startswith("Total pot "):
        return False
    total = parts[0][10:].strip()
    if total.endswith("k") or total.endswith("M"):  # older logs: "Total pot 3.37k", rounded
        st.total_rounded = total
    else:
        st.total = st.amount(total, i, False)
    for part in parts[1:]:
        p = part.strip()
        if p == "No rake":
            st.rake = st.amount("0", i, False)
        elif p.startswith("Rake "):
            st.rake = st.amount(p[5:], i, False)
        else:
            name, _, value = p.rpartition(" ")
            a = st.amount(value, i, False) if name else -1
            if a < 0:
                return False
            st.fees.append((name, a))
    return (st.total >= 0 or st.total_rounded != "") and st.rake >= 0


def _seats(st: T.SiteText, lines: list[str]) -> int:
    """The table and seat lines -> the index of the first line after them."""
    rows = [k for k in range(len(lines)) if lines[k].strip()]
    table = _TABLE.match(lines[rows[1]])
    r = 1
    if table is None:
        st.unknown(lines[rows[1]], rows[1], "the table line cannot be read")
        if lines[rows[1]].startswith("Table"):
            r = 2
    else:
        st.fields["table"] = table.group("name")
        st.fields["seat_count"] = int(table.group("max"))
        st.button = int(table.group("button") or -1)
        if table.group("money") == "play money":
            st.fields["currency"] = "play money"
        r = 2
    while r < len(rows):
        i = rows[r]
        m = _SEAT.match(lines[i]) if lines[i].startswith("Seat ") else None
        if m is None:
            break
        stack = m.group("stack").strip()
        # "Seat 1: Player1 ()": seated with no stack shown, not dealt in
        st.seat(int(m.group("seat")), m.group("name"), st.amount(stack, i) if stack else -1, not stack)
        r += 1
    st.seats_done()
    return rows[r] if r < len(rows) else len(lines)


def _summary_line(st: T.SiteText, line: str, i: int) -> None:
    if line.startswith("Total pot "):
        if not _totals(st, line, i):
            st.unknown(line, i, "the totals cannot be read")
    elif line.startswith("Seat ") or line.startswith("Board: [") or line.startswith("Board ["):
        pass
    elif not _other(st, line, i, st.who(line)):
        st.unknown(line, i)


def _body_line(st: T.SiteText, line: str, i: int) -> None:
    """A line of the hand's body before its summary (not a street marker)."""
    if line.startswith("Dealt to "):
        pos = st.who(line, 9)
        if pos < 0:
            st.find("site-unknown-player", f"line {st.chunk.line + i}: cards dealt to someone not seated: "
                    f"{line[:120]!r}", i, True)
            return
        rest = line[9 + len(st.names[pos]):]
        b = rest.rfind("[")
        e = rest.rfind("]")
        st.dealt(pos, rest[b + 1:e] if 0 <= b < e else "", i)
        return
    if line.startswith("Hold-up to Pot: total ") or line.startswith("Escape to Pot: total "):
        a = st.amount(line[line.find("total ") + 6:], i, False)
        if a >= 0:
            st.added = st.add(st.added, a)
        return
    pos = st.who(line)
    if pos >= 0 and _player_line(st, pos, line[len(st.names[pos]):], i):
        return
    if _other(st, line, i, pos):
        return
    if pos >= 0:
        st.find("site-unreadable-line", f"line {st.chunk.line + i}: a line about {st.names[pos]} that is not one "
                f"of a Winamax hand: {line[:120]!r}", i, True)
    else:
        st.unknown(line, i)


def _read(st: T.SiteText) -> ReadResult:
    lines = st.text.split("\n")
    variant, _limit = _header(st, lines[0])
    if not variant:
        for line in lines[1:3]:  # the hand still named by its table (ReadResult.known)
            table = _TABLE.match(line)
            if table is not None:
                st.fields["table"] = table.group("name")
                break
        return st.result(None)
    if len(lines) < 2 or not (lines[1].strip() or any([line.strip() for line in lines[2:]])):
        st.find("site-truncated-hand", f"line {st.chunk.line}: the hand stops after its header", 0, True)
        return st.result(None)
    start = _seats(st, lines)
    summary = False
    for i in range(start, len(lines)):
        line = lines[i].rstrip()
        if not line:
            continue
        st.last = i
        if line.startswith("*** "):
            kind = _street(st, line)
            if kind == 0:
                st.unknown(line, i, "an unknown street marker")
            summary = summary or kind == 4
        elif summary:
            _summary_line(st, line, i)
        else:
            _body_line(st, line, i)
    st.summary = summary
    hole = VARIANTS[variant].streets[0].hole_down
    return st.build(variant, hole, variant in _FIXED, uncalled_in_pot=True, total_net=True, shows_unordered=True)


def read_hand(chunk: Chunk, venue: str) -> ReadResult:
    """One Winamax hand (a chunk cut by :func:`~handaudit.importers.common.split_log`) -> ReadResult."""
    if chunk.problem:
        return T.problem_result(chunk)
    return _read(T.SiteText(chunk, chunk.data.decode("utf-8", "replace"), venue, SITE))
