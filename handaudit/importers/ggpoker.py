"""GGPoker hand histories (the site's text: ``Poker Hand #HD…``, ``#RC…``, ``#TM…``, ``#OM…``)
-> the same :class:`~handaudit.core.hand.Hand` the PHH reader makes, as a
:class:`~handaudit.grammar.result.ReadResult` with findings.

The format is documented line by line in ``ggpoker.lark``. The header, table and seat lines are
read by regular expressions; every other line by string tests (the fast path), with the Lark
grammar as the reading of a line those tests do not know (a line neither knows is a
``site-unknown-line`` warning, and the hand is still read). The shared reading into a Hand and
the site's figures is :mod:`.stars_like`.
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

SITE: Final = "GGPoker"

_HEADER: Final = re.compile(
    r"Poker Hand #(?P<id>[A-Z]*\d+):\s+(?P<rest>.*?)\s+-\s+(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})"
    r"[ -]+(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?\s*(?P<zone>[A-Za-z]*)\s*$")
_GAME: Final = re.compile(
    r"^(?:\{[^}]*\}\s+)?(?:(?:Zoom |Rush )?Tournament #(?P<tid>\d+),\s*(?P<tname>.*?)\s+)?"
    r"(?P<game>Hold'em|ShortDeck|Short Deck|Omaha Hi/Lo|Omaha|PLO-6 Hi/Lo|PLO-5 Hi/Lo|PLO Hi/Lo|PLO-6|PLO-5|PLO)"
    r"(?:\s+(?P<limit>No Limit|Pot Limit|Fixed Limit|Limit|\(NL postflop\)))?,?"
    r"(?:\s*-?\s*(?:Match Round [IVXLC\d]+,\s*)?Level\s*(?P<level>\d+|[IVXLC]+))?\s*$")
_TABLE: Final = re.compile(r"Table '(?P<name>.*)' (?P<max>\d+)-max(?: \(Play Money\))?(?: Seat #(?P<button>\d+) "
                           r"is the button)?\s*$")
_SEAT: Final = re.compile(r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^()]*?) in chips(?:, (?P<bounty>[^()]*?) "
                          r"bounty)?\)(?P<out> is sitting out)?\s*$")

# (game, limit) -> PHH variant code, or handaudit's extension code. A game without one is
# `site-game-not-phh`.
VARIANT_OF_GAME: Final[dict[tuple[str, str], str]] = {
    ("Hold'em", "No Limit"): "NT", ("Hold'em", "Limit"): "FT", ("Hold'em", "Fixed Limit"): "FT",
    ("ShortDeck", "No Limit"): "NS", ("Short Deck", "No Limit"): "NS",
    ("Omaha", "Pot Limit"): "PO", ("PLO", "Pot Limit"): "PO",
    ("Omaha Hi/Lo", "Limit"): "FO/8", ("Omaha Hi/Lo", "Fixed Limit"): "FO/8",
    # handaudit's extension codes (README "Variants beyond PHH"): Omaha hi/lo in pot limit, 5- and
    # 6-card Omaha hi and hi/lo
    ("Omaha Hi/Lo", "Pot Limit"): "PO/8", ("PLO Hi/Lo", "Pot Limit"): "PO/8", ("Omaha", "No Limit"): "NO",
    ("PLO-5", "Pot Limit"): "P5O", ("PLO-5 Hi/Lo", "Pot Limit"): "P5O/8",
    ("PLO-6", "Pot Limit"): "P6O", ("PLO-6 Hi/Lo", "Pot Limit"): "P6O/8",
}
_FIXED: Final = ("FT", "FO/8")
_POSTS: Final[tuple[tuple[str, str], ...]] = (
    ("posts small blind ", T.P_SMALL), ("posts big blind ", T.P_BIG), ("posts the ante ", T.P_ANTE),
    ("posts ante ", T.P_ANTE), ("posts missed blind ", T.P_DEAD), ("posts dead blind ", T.P_DEAD),
    ("posts button blind ", T.P_BUTTON), ("posts straddle ", T.P_STRADDLE), ("straddle ", T.P_STRADDLE))
_ALL_IN: Final = " and is all-in"
# Lines about a player that are no action: table events and tournament facts (kept as notes).
_EVENT_ENDS: Final[tuple[str, ...]] = (
    ": sits out", ": is sitting out", ": sitting out", " is sitting out", " sits out", " has returned",
    " is disconnected", " is connected", " has timed out", " has timed out while disconnected",
    " leaves the table", " will be allowed to play after the button", ": is disconnected", ": is connected",
    " - congratulations!")
_EVENT_PARTS: Final[tuple[str, ...]] = (
    " joins the table at seat #", " said, \"", " finished the tournament", " wins the tournament",
    " bounty for eliminating ", " for eliminating ", " for splitting the elimination of ", " was removed from the table",
    " re-buys and receives ", " takes the add-on and receives ", " rebuys for ")

GRAMMAR: Final = SiteGrammar("ggpoker.lark")


def _stakes(st: T.SiteText, text: str) -> bool:
    """``$0.5/$1``, ``100/200``, ``1,000/2,000``, ``400/800(100)``, ``ante 100, 200/400``, ``$100``
    (short deck: the ante, also the button blind) -> the small and big blind. False if unread."""
    t = text.strip()
    words = t.split()
    if len(words) > 1 and words[-1].isalpha() and words[-1].isupper() and len(words[-1]) == 3:
        st.fields["currency"] = words[-1]
        t = " ".join(words[:-1])
    if " - " in t:  # "$1/$2 - Ante $0.5", "$0.5/$1 - $20 Cap": the blinds first
        t = t[:t.find(" - ")]
    if t.startswith("ante "):
        cut = t.find(",")
        t = t[cut + 1:].strip() if cut > 0 else t
    paren = t.find("(")
    if paren > 0:
        t = t[:paren]
    parts = t.split("/")
    if len(parts) == 1:
        a = st.amount(parts[0], 0)
        st.stakes = (a, a)
    elif len(parts) == 2:
        st.stakes = (st.amount(parts[0], 0), st.amount(parts[1], 0))
    else:
        return False
    symbol = parts[0].strip()[:1]
    if symbol in CURRENCY_OF_SYMBOL:
        st.fields["currency_symbol"] = symbol
        if "currency" not in st.fields:
            st.fields["currency"] = CURRENCY_OF_SYMBOL[symbol]
    return st.stakes[0] >= 0 and st.stakes[1] >= 0


def _last_parens(text: str) -> int:
    """Where the parenthesised group that ends ``text`` opens (one level of nesting), or -1."""
    if not text.endswith(")"):
        return -1
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        ch = text[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _header(st: T.SiteText, line: str) -> str:
    """The header's fields -> the PHH variant code, or "" (with the finding saying why)."""
    m = _HEADER.match(line)
    if m is None:
        st.find("site-unreadable-line", f"line {st.chunk.line}: the hand header cannot be read: {line[:120]!r}", 0,
                True)
        return ""
    hand_id = m.group("id")
    st.fields["hand"] = int(hand_id) if hand_id.isdigit() else hand_id
    st.fields["year"] = int(m.group("y"))
    st.fields["month"] = int(m.group("mo"))
    st.fields["day"] = int(m.group("d"))
    h, mi, s = int(m.group("h")), int(m.group("mi")), int(m.group("s") or 0)
    if h < 24 and mi < 60 and s < 60:
        st.fields["time"] = _dt.time(h, mi, s)
    if m.group("zone"):
        st.fields["time_zone_abbreviation"] = m.group("zone")
    rest = m.group("rest")
    open_at = _last_parens(rest)
    g = _GAME.match(rest[:open_at].rstrip()) if open_at > 0 else None
    if g is None:
        st.find("site-game-not-phh", f"the game {rest[:80]!r} is not one the GGPoker importer knows: the hand is not "
                "audited", 0, True)
        return ""
    if g.group("tid"):
        st.fields["event"] = f"Tournament #{g.group('tid')}"
        st.fields["_site_tournament"] = (g.group("tname") or "").strip()
    if g.group("level"):
        level = g.group("level")
        if level.isdigit():
            st.fields["level"] = int(level)
    game = g.group("game")
    limit = g.group("limit") or ("Pot Limit" if game.startswith("PLO") else "")
    variant = VARIANT_OF_GAME.get((game, limit), "")
    if not variant or variant not in VARIANTS:
        st.find("site-game-not-phh", f"{game} {limit or '(no limit named)'} has no PHH variant code: the hand is not "
                "audited", 0, True)
        return ""
    if not _stakes(st, rest[open_at + 1:-1]):
        st.find("site-unreadable-line", f"line {st.chunk.line}: the stakes {rest[open_at:][:60]!r} cannot be read", 0, True)
        return ""
    return variant


def _player_line(st: T.SiteText, pos: int, rest: str, i: int, shows: list[tuple[str, int, int, str]]) -> bool:
    """The line ``NAME`` + ``rest`` about the seated player at ``pos``; False if not one of these."""
    if rest.startswith(": "):
        r = rest[2:].rstrip()
        if r == "folds" or r.startswith("folds ("):  # "folds (disconnect)"
            st.act(FOLD, pos)
        elif r == "checks":
            st.act(CHECK_CALL, pos)
        elif r.startswith("calls "):
            st.act(CHECK_CALL, pos)
        elif r.startswith("bets ") or r.startswith("Bet & Muck $") or (r.startswith("Bet & Muck ") and r != "Bet & Muck folds"):
            a = r[11:] if r.startswith("Bet & Muck ") else r[5:]
            st.act(BET_RAISE, pos, st.amount(a[:-len(_ALL_IN)] if a.endswith(_ALL_IN) else a, i))
        elif r.startswith("raises "):
            a = r[7:-len(_ALL_IN)] if r.endswith(_ALL_IN) else r[7:]
            cut = a.find(" to ")
            if cut < 0:
                return False
            st.act(BET_RAISE, pos, st.amount(a[cut + 4:], i))
        elif r == "Bet & Muck folds" or r == "mucks hand" or r == "doesn't show hand" or r.startswith("mucks ["):
            # (a Bet & Muck bettor called gives up at the showdown without showing: a muck)
            shows.append((SHOW_MUCK, pos, -1, ""))
            st.active[pos] = True
        elif r.startswith("shows ["):
            end = r.find("]")
            if end < 0:
                return False
            shows.append((SHOW_MUCK, pos, -1, r[7:end]))
            st.active[pos] = True
        elif r.startswith("Chooses to EV Cashout"):
            st.active[pos] = True
        elif r.startswith("Pays Cashout Risk (") or r.startswith("Receives Cashout ("):
            a = r[r.find("(") + 1:r.rfind(")")]
            if st.amount(a, i, False) < 0:
                return False
            what = "pays the cashout risk" if r.startswith("Pays") else "receives an EV cashout of"
            st.ev_cashouts.append(f"{st.names[pos]} {what} {a}")
        elif "Cashout" in r or "Insurance" in r or "insurance" in r:
            # the site's all-in insurance in another wording: paid beside the pot, said as it is
            st.ev_cashouts.append(f"{st.names[pos]}: {r}")
        else:
            for prefix, kind in _POSTS:
                if r.startswith(prefix):
                    a = r[len(prefix):]
                    st.post(pos, kind, st.amount(a[:-len(_ALL_IN)] if a.endswith(_ALL_IN) else a, i))
                    return True
            return False  # (sitting out, chat, ...: table events, see _other)
        return True
    r = rest.rstrip()
    if r.startswith(" collected "):
        cut = r.find(" from ", 11)
        if cut < 0:
            return False
        pot = r[cut + 6:]
        if pot == "pot" or pot == "main pot" or pot.startswith("side pot"):
            st.collect(pos, st.amount(r[11:cut], i))
            st.active[pos] = True
            return True
        return False
    if r.startswith(" cashed out the hand for "):
        st.cash_outs.append(f"{st.names[pos]}{r}")
        return True
    return False


def _event_line(line: str) -> bool:
    """A table event or tournament fact about anyone (seated or not): kept, never an action."""
    r = line.rstrip()
    for ending in _EVENT_ENDS:
        if r.endswith(ending):
            return True
    for part in _EVENT_PARTS:
        if part in r:
            return True
    return r.startswith("#encoding ")


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


def _street(st: T.SiteText, line: str, i: int, shows: list[tuple[str, int, int, str]]) -> int:
    """A ``*** ... ***`` line: 1 the deal, 2 a board, 3 a showdown, 4 the summary, 0 unknown."""
    end = line.find(" ***", 4)
    if end < 0:
        return 0
    name = line[4:end].strip()
    cards_text = line[end + 4:]
    run = ""
    for prefix in ("FIRST ", "SECOND ", "THIRD "):
        if name.startswith(prefix):
            run = prefix.strip()
            name = name[len(prefix):]
    if name == "HOLE CARDS":
        st.act(T.DEAL, -1)
        return 1
    if name == "FLOP" or name == "TURN" or name == "RIVER":
        b = cards_text.rfind("[")
        e = cards_text.rfind("]")
        if b < 0 or e < b:
            return 0
        cards = cards_text[b + 1:e]
        st.board(run, cards_text)
        if run == "" or run == "FIRST":
            st.act(T.BOARD, -1, -1, cards)
        else:
            st.runs.append(f"{run.lower()} {name.lower()} [{cards}]")
        return 2
    if name == "SHOWDOWN" or name == "SHOW DOWN":
        return 3
    if name == "SUMMARY":
        return 4
    return 0


def _totals(st: T.SiteText, line: str, i: int) -> bool:
    """``Total pot $55.04 | Rake $2.7 | Jackpot $1 | Bingo $0 [| Fortune $0 | Tax $0]``."""
    parts = line.split(" | ")
    head = parts[0]
    if not head.startswith("Total pot "):
        return False
    st.total = st.amount(head[10:], i, False)
    for part in parts[1:]:
        name, _, value = part.strip().rpartition(" ")
        if not name:
            return False
        a = st.amount(value, i, False)
        if name == "Rake":
            st.rake = a
        elif a >= 0:
            st.fees.append((name, a))
    if st.rake < 0 and "event" in st.fields:
        # (older tournament logs write the total alone: a tournament pot is never raked, its
        # fee is in the buy-in)
        st.rake = st.amount("0", i, False)
    return st.total >= 0


def _seats(st: T.SiteText, lines: list[str]) -> int:
    """The table and seat lines -> the index of the first line after them."""
    rows = [k for k in range(len(lines)) if lines[k].strip()]
    table = _TABLE.match(lines[rows[1]])
    r = 1
    if table is None:
        st.unknown(lines[rows[1]], rows[1], "the table line cannot be read")
        if lines[rows[1]].startswith("Table "):
            r = 2
    else:
        st.fields["table"] = table.group("name")
        st.fields["seat_count"] = int(table.group("max"))
        st.button = int(table.group("button") or 0)
        r = 2
    while r < len(rows):
        i = rows[r]
        m = _SEAT.match(lines[i]) if lines[i].startswith("Seat ") else None
        if m is None:
            break
        st.seat(int(m.group("seat")), m.group("name"), st.amount(m.group("stack"), i), m.group("out") is not None)
        r += 1
    st.seats_done()
    return rows[r] if r < len(rows) else len(lines)


def _summary_line(st: T.SiteText, line: str, i: int) -> None:
    if line.startswith("Total pot "):
        if not _totals(st, line, i):
            st.unknown(line, i, "the totals cannot be read")
    elif line.startswith("Seat ") or line.startswith("Hand was run ") or "Board [" in line \
            or line == "FIRST" or line == "SECOND" or line == "THIRD":
        pass
    elif not _other(st, line, i, st.who(line)):
        st.unknown(line, i)


def _body_line(st: T.SiteText, line: str, i: int, shows: list[tuple[str, int, int, str]]) -> None:
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
    if line.startswith("Uncalled bet ("):
        cut = line.find(") returned to ")
        pos = st.who(line, cut + 14) if cut > 0 else -1
        if pos < 0:
            st.find("site-unknown-player", f"line {st.chunk.line + i}: an uncalled bet returned to someone not "
                    f"seated: {line[:120]!r}", i, True)
            return
        st.give_back(pos, st.amount(line[14:cut], i, False))
        return
    if line.startswith("Cash Drop to Pot : total "):
        a = st.amount(line[25:], i, False)
        if a >= 0:
            st.added = st.add(st.added, a)
        return
    pos = st.who(line)
    if pos >= 0 and _player_line(st, pos, line[len(st.names[pos]):], i, shows):
        return
    if _other(st, line, i, pos):
        return
    if pos >= 0:
        st.find("site-unreadable-line", f"line {st.chunk.line + i}: a line about {st.names[pos]} that is not one "
                f"of a GGPoker hand: {line[:120]!r}", i, True)
    else:
        st.unknown(line, i)


def _read(st: T.SiteText) -> ReadResult:
    lines = st.text.split("\n")
    variant = _header(st, lines[0])
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
    shows: list[tuple[str, int, int, str]] = []  # shown before the board is out (all-in): said at the showdown
    for i in range(start, len(lines)):
        line = lines[i].rstrip()
        if not line:
            continue
        st.last = i
        if line.startswith("*** "):
            kind = _street(st, line, i, shows)
            if kind == 0:
                st.unknown(line, i, "an unknown street marker")
            elif kind >= 3:
                st.events.extend(shows)
                shows.clear()
                summary = summary or kind == 4
        elif summary:
            _summary_line(st, line, i)
        else:
            _body_line(st, line, i, shows)
    st.summary = summary
    st.events.extend(shows)
    hole = VARIANTS[variant].streets[0].hole_down
    return st.build(variant, hole, variant in _FIXED)


def read_hand(chunk: Chunk, venue: str) -> ReadResult:
    """One GGPoker hand (a chunk cut by :func:`~handaudit.importers.common.split_log`) -> ReadResult."""
    if chunk.problem:
        return T.problem_result(chunk)
    return _read(T.SiteText(chunk, chunk.data.decode("utf-8", "replace"), venue, SITE))
