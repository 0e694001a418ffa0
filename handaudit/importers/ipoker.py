"""iPoker network XML session exports -> the same :class:`~handaudit.core.hand.Hand` the PHH
reader makes, as a :class:`~handaudit.grammar.result.ReadResult` with findings.

A file is one ``<session>``: its ``<general>`` (game type and stakes, table, currency,
tournament) and many ``<game gamecode=...>``, each with its players (seat, name, chips, dealer,
``win``, ``bet``) and ``<round no=...>`` of ``<cards>`` and ``<action no= player= type= sum=>``.
The file is cut into games by :func:`.ipoker_xml.split_session` (safe XML: no DTD, no entities,
bounded depth and size); this module reads one game.

Action type codes (``sum`` is what the player puts in, except a raise, whose ``sum`` is what
the player's bet on the round comes to): 0 fold, 1 small blind, 2 big blind, 3 call, 4 check,
5 bet, 7 all-in (a call, bet or raise by what it adds), 8 sitting out (no action), 15 ante,
23 raise. An unknown code is a ``site-unknown-line`` error naming the action.

The site's figures: ``win`` is what the player took back (the pot they won, and an uncalled
bet returned), ``bet`` all they put in. They are kept as ``_site_win`` and ``_site_bet`` and
reconciled as the shared figures (:mod:`handaudit.settlement.site_totals`): ``_site_collected``
is ``win`` less the uncalled bet returned (the chips beyond what any other player put in, which
no pot holds), ``_site_total_pot`` the sum of ``bet`` less that return; a player whose ``bet``
is not what their actions put in is a ``site-total-pot-mismatch`` warning here.
"""

from __future__ import annotations

import datetime as _dt
from typing import Final
from xml.parsers import expat

from ..core.amounts import amount_text
from ..core.cards import card_from_text
from ..core.currencies import hand_minor_units
from ..core.hand import BET_RAISE, CHECK_CALL, DEAL_BOARD, DEAL_HOLE, FOLD, SHOW_MUCK, Action, Hand
from ..findings.finding import Finding
from ..grammar.chunk import Chunk
from ..grammar.result import ReadResult
from .common import CURRENCY_OF_SYMBOL, amount_units, phh_order
from .limits import INVALID, amount_problem, digits_problem, scaled_problem, seat_problem, seats_problems
from .ipoker_xml import Node, Refused, parse_game, split_session

__all__ = ["read_hand", "split_session"]

# (game, limit) of <gametype> -> PHH variant; another game is site-game-not-phh.
VARIANT_OF_GAME: Final[dict[tuple[str, str], str]] = {
    ("Holdem", "NL"): "NT", ("Holdem", "L"): "FT", ("Holdem", "FL"): "FT", ("Omaha", "PL"): "PO",
    ("Omaha Hi-Lo", "L"): "FO/8", ("OmahaHiLo", "L"): "FO/8",
}
_HOLE: Final[dict[str, int]] = {"NT": 2, "FT": 2, "PO": 4, "FO/8": 4}
_FIXED: Final = ("FT", "FO/8")
_BOARD: Final[dict[str, int]] = {"Flop": 3, "Turn": 1, "River": 1}

FOLD_T: Final = "0"
SMALL_T: Final = "1"
BIG_T: Final = "2"
CALL_T: Final = "3"
CHECK_T: Final = "4"
BET_T: Final = "5"
ALL_IN_T: Final = "7"
SIT_OUT_T: Final = "8"
ANTE_T: Final = "15"
RAISE_T: Final = "23"
KNOWN_TYPES: Final = frozenset([FOLD_T, SMALL_T, BIG_T, CALL_T, CHECK_T, BET_T, ALL_IN_T, SIT_OUT_T, ANTE_T,
                                RAISE_T])
SITE: Final = "iPoker"


def _card(text: str) -> str:
    """iPoker's suit-first card (``SA``, ``H10``, ``CK``) -> PHH's (``As``, ``Th``, ``Kc``); "" if not one."""
    if len(text) < 2:
        return ""
    suit = text[0].lower()
    rank = text[1:].upper()
    if rank == "10":
        rank = "T"
    if suit not in "cdhs" or len(rank) != 1 or rank not in "23456789TJQKA":
        return ""
    return rank + suit


class _Game:
    """One game's tree read into what a Hand needs."""

    def __init__(self, chunk: Chunk, venue: str) -> None:
        self.chunk = chunk
        self.venue = venue
        self.findings: list[Finding] = []
        self.fatal = False
        self.places = 0
        self.raw: list[tuple[int, int]] = []
        self.label = "iPoker game"

    def find(self, code: str, message: str, fatal: bool = False) -> None:
        self.findings.append(Finding(code, f"{self.label}: {message}", line=self.chunk.line, column=1))
        self.fatal = self.fatal or fatal

    def amount(self, text: str, what: str) -> int:
        t = text.strip()
        if t[:1] in CURRENCY_OF_SYMBOL:
            t = t[1:]
        value, places = amount_units(t)
        if value == -1:
            self.find("site-unknown-line", f"{what}: {text!r} is not an amount", True)
            return -1
        problem = amount_problem(text, value, places)
        if problem is not None:
            self.find(INVALID, f"{what}: {problem}", True)
            return -1
        self.places = max(self.places, places)
        self.raw.append((value, places))
        return len(self.raw) - 1

    def units(self, index: int) -> int:
        if index < 0:
            return 0
        value, places = self.raw[index]
        return value * 10 ** (self.places - places)

    def result(self, hand: Hand | None, text: str) -> ReadResult:
        return ReadResult(self.chunk.source, self.chunk.hand_key, hand, tuple(self.findings), text, self.chunk.line)

    def read(self, root: Node, text: str) -> ReadResult:
        session = root.find("session_general")
        facts = {c.tag: c.text.strip() for c in session.children} if session is not None else {}
        code = root.attrs.get("gamecode", "")
        table = facts.get("tablename", "")
        self.label = f"iPoker game {code or '(no gamecode)'}" + (f" at table {table!r}" if table else "")
        fields: dict = {"venue": self.venue}
        if code.isdigit() and digits_problem(code, "game code") is not None:
            self.find(INVALID, str(digits_problem(code, "game code")), True)
            return self.result(None, text)
        fields["hand"] = int(code) if code.isdigit() else code
        if table:
            fields["table"] = table
        hero = facts.get("nickname", "")
        if hero and hero != "N/A":  # the account that exported the session ("Hero" of other tools)
            fields["_site_hero"] = hero
        variant, stake_idx = self._game_type(facts, fields)
        if not variant:
            return self.result(None, text)
        general = root.find("general")
        if general is not None:
            start = general.find("startdate")
            if start is not None:
                self._date(start.text.strip(), fields)
        players = general.find("players") if general is not None else None
        if players is None or not players.children:
            self.find("site-truncated-hand", "no <players> in the game", True)
            return self.result(None, text)
        seats, names, stacks, wins, bets, button = self._players(players)
        if self.fatal:
            return self.result(None, text)
        acts, boards, pockets = self._rounds(root)
        if self.fatal:
            return self.result(None, text)
        # who is dealt in: a player with a pocket or an action other than sitting out
        idx = {names[i]: i for i in range(len(names))}
        active: set[int] = set()
        for no, _rr, c in acts:
            who = c.attrs.get("player", "")
            if who not in idx:
                self.find("site-unknown-player", f"action {no} names {who!r}, who is not seated", True)
                continue
            if c.attrs.get("type") != SIT_OUT_T:
                active.add(idx[who])
        for who in pockets:
            if who in idx:
                active.add(idx[who])
        if self.fatal:
            return self.result(None, text)
        dealt = [i for i in range(len(names)) if i in active]
        if len(dealt) < 2:
            self.find("site-truncated-hand", f"{len(dealt)} player(s) dealt in", True)
            return self.result(None, text)
        sb_seat = -1
        for _no, _r, c in acts:
            if c.attrs.get("type") == SMALL_T:
                sb_seat = seats[idx[c.attrs.get("player", "")]]
                break
        dealt_seats = [seats[i] for i in dealt]
        if button < 0 or button not in seats:
            button = dealt_seats[-1]
        order = phh_order(dealt_seats, button, sb_seat)
        positions = [dealt[o] for o in order]
        n = len(positions)
        p_of = {positions[p]: p for p in range(n)}
        return self._actions(acts, boards, pockets, variant, fields, seats, names, stacks, wins, bets,
                             positions, p_of, idx, stake_idx, text)

    def _game_type(self, facts: dict[str, str], fields: dict) -> tuple[str, tuple[int, int]]:
        """The session's game type, stakes, currency and tournament -> (PHH variant or "", the stakes' amounts)."""
        gametype = facts.get("gametype", "")
        words = gametype.split()
        limit_at = next((i for i in range(len(words)) if words[i] in ("NL", "PL", "L", "FL")), -1)
        game = " ".join(words[:limit_at]) if limit_at > 0 else ""
        limit = words[limit_at] if limit_at > 0 else ""
        variant = VARIANT_OF_GAME.get((game, limit), "")
        if not variant:
            self.find("site-game-not-phh", f"the game {gametype!r} has no PHH variant code the iPoker importer "
                      "reads (Holdem NL, Holdem L, Omaha PL): the hand is not audited", True)
            return "", (-1, -1)
        currency = facts.get("tablecurrency") or facts.get("currency") or facts.get("tournamentcurrency") or ""
        stakes = words[limit_at + 1] if limit_at + 1 < len(words) else ""
        symbol = stakes[:1] if stakes[:1] in CURRENCY_OF_SYMBOL else None
        tournament = bool(facts.get("tournamentname") or facts.get("tournamentcode") or facts.get("place"))
        if tournament:
            fields["event"] = facts.get("tournamentname", "") or f"Tournament #{facts.get('tournamentcode', '')}"
            fields["_site_tournament"] = facts.get("tournamentcode", "")
            if facts.get("buyin"):
                fields["_site_buyin"] = facts["buyin"]
        elif currency:
            fields["currency"] = currency
        elif symbol is not None:
            fields["currency"] = CURRENCY_OF_SYMBOL[symbol]
        if symbol is not None and not tournament:
            fields["currency_symbol"] = symbol
        if "currency" in fields:
            self.places = max(self.places, hand_minor_units(fields["currency"], fields.get("currency_symbol")))
        stake_idx = (-1, -1)
        if "/" in stakes:
            s_small, _, s_big = stakes.partition("/")
            stake_idx = (self.amount(s_small, "the stakes"), self.amount(s_big, "the stakes"))
        return variant, stake_idx

    def _players(self, players: Node) -> tuple[list[int], list[str], list[int], list[int], list[int], int]:
        """The <player> elements -> seats, names, and the indices of their chips, win and bet; the button."""
        seats: list[int] = []
        names: list[str] = []
        stacks: list[int] = []
        wins: list[int] = []
        bets: list[int] = []
        button = -1
        for pl in players.all("player"):
            at = pl.attrs
            seat = at.get("seat", "")
            name = at.get("name", "")
            if not seat.isdigit() or not name:
                self.find("site-unknown-player", f"a <player> with seat {seat!r} and name {name!r} cannot be read",
                          True)
                continue
            problem = seat_problem(seat)
            if problem is not None:
                self.find(INVALID, problem, True)
                continue
            seats.append(int(seat))
            names.append(name)
            stacks.append(self.amount(at.get("chips", ""), f"{name}'s chips"))
            wins.append(self.amount(at.get("win", "0"), f"{name}'s win"))
            bets.append(self.amount(at.get("bet", "0"), f"{name}'s bet"))
            if at.get("dealer") == "1":
                button = int(seat)
        for problem in seats_problems(seats, names):
            self.find(INVALID, problem, True)
        return seats, names, stacks, wins, bets, button

    def _date(self, text: str, fields: dict) -> None:
        try:
            when = _dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
        except ValueError:
            return
        fields["year"], fields["month"], fields["day"] = when.year, when.month, when.day
        fields["time"] = when.time()

    def _actions(self, acts: list[tuple[int, int, Node]], boards: dict[int, str], pockets: dict[str, str],
                 variant: str, fields: dict, seats: list[int], names: list[str], stacks: list[int],
                 wins: list[int], bets: list[int], positions: list[int], p_of: dict[int, int],
                 idx: dict[str, int], stake_idx: tuple[int, int], text: str) -> ReadResult:
        n = len(positions)
        hole = _HOLE[variant]
        antes = [0] * n
        blinds = [0] * n
        put = [0] * n  # all each player put in, in units
        street = [0] * n  # this round's bets
        actions: list[Action] = []
        texts: list[str] = []
        deal_done = False
        round_no = -1
        pending = self._pending(acts, p_of, idx)
        if self.fatal:
            return self.result(None, text)
        top, big_post = self._forced(pending, n, antes, blinds, put, street)
        for _no, r, kind, a, p in pending:
            if kind in (ANTE_T, SMALL_T, BIG_T):
                continue
            if not deal_done:
                self._deal(actions, texts, positions, names, pockets, hole)
                deal_done = True
            if r != round_no and r >= 2:
                for rr in sorted(boards):
                    if round_no < rr <= r:
                        if not self._board(actions, texts, boards[rr], rr):
                            return self.result(None, text)
                if r != round_no:
                    street = [0] * n
                    top = 0
            round_no = max(round_no, r)
            top = self._bet(kind, p, self.units(a), street, put, top, actions, texts)
        if not deal_done:
            self._deal(actions, texts, positions, names, pockets, hole)
        for rr in sorted(boards):
            if rr > round_no:
                if not self._board(actions, texts, boards[rr], rr):
                    return self.result(None, text)
        if self.fatal:
            return self.result(None, text)
        self._showdown(actions, texts, positions, names, pockets, hole)
        collected = self._figures(put, bets, wins, positions, names, fields)
        scale = self.places
        fields["variant"] = variant
        fields["seats"] = [seats[pos] for pos in positions]
        fields["players"] = [names[pos] for pos in positions]
        fields["actions"] = texts
        start_stacks = [self.units(stacks[pos]) for pos in positions]
        problem = scaled_problem(max([self.units(k) for k in range(len(self.raw))] + [0]), sum(start_stacks))
        if problem is not None:
            self.find(INVALID, problem, True)
            return self.result(None, text)
        small = self.units(stake_idx[0]) if stake_idx[0] >= 0 else 0
        big = self.units(stake_idx[1]) if stake_idx[1] >= 0 else max(big_post, 0)
        fixed = variant in _FIXED
        min_bet = big if big > 0 else max(big_post, 1)
        hand = Hand(self.chunk.source, self.chunk.hand_key, variant, n, scale, tuple(antes), tuple(blinds), None,
                    small if fixed else None, big if fixed else None, None if fixed else min_bet,
                    tuple(start_stacks), tuple(actions), tuple(texts),
                    False, None, tuple(collected), fields["hand"], fields, text, self.chunk.line)
        return self.result(hand, text)

    def _rounds(self, root: Node) -> tuple[list[tuple[int, int, Node]], dict[int, str], dict[str, str]]:
        """Every action, in its number's order (the export writes them per round, not always in order),
        each round's board and each player's pocket."""
        acts: list[tuple[int, int, Node]] = []  # (action no, round no, node)
        boards: dict[int, str] = {}
        pockets: dict[str, str] = {}
        for rnd in root.all("round"):
            r_no = rnd.attrs.get("no", "")
            if not r_no.isdigit():
                self.find("site-unknown-line", f"a <round> numbered {r_no!r}", True)
                continue
            r = int(r_no)
            for c in rnd.children:
                if c.tag == "action":
                    number = c.attrs.get("no", "")
                    if not number.isdigit():
                        self.find("site-unknown-line", f"an action numbered {number!r} in round {r}", True)
                        continue
                    acts.append((int(number), r, c))
                elif c.tag == "cards":
                    kind = c.attrs.get("type", "")
                    if kind == "Pocket":
                        pockets[c.attrs.get("player", "")] = c.text.strip()
                    elif kind in _BOARD:
                        boards[r] = c.text.strip()
        acts.sort(key=lambda t: t[0])
        return acts, boards, pockets

    def _pending(self, acts: list[tuple[int, int, Node]], p_of: dict[int, int],
                 idx: dict[str, int]) -> list[tuple[int, int, str, int, int]]:
        """The actions to replay: (action no, round, type code, amount index, player); a sitting out is none."""
        pending: list[tuple[int, int, str, int, int]] = []  # (action no, round, type, amount index, player)
        for no, r, c in acts:
            p = p_of.get(idx.get(c.attrs.get("player", ""), -1), -1)
            kind = c.attrs.get("type", "")
            if kind not in KNOWN_TYPES:
                self.find("site-unknown-line", f"action {no} has type code {kind!r}, which the importer does not know",
                          True)
                continue
            if kind == SIT_OUT_T:
                continue
            if p < 0:
                self.find("site-unknown-player", f"action {no} is by {c.attrs.get('player', '')!r}, not dealt in",
                          True)
                continue
            a = self.amount(c.attrs.get("sum", "0"), f"action {no}'s sum")
            pending.append((no, r, kind, a, p))
        return pending

    def _forced(self, pending: list[tuple[int, int, str, int, int]], n: int, antes: list[int], blinds: list[int],
                put: list[int], street: list[int]) -> tuple[int, int]:
        """The antes and blinds (round 0) into ``antes``, ``blinds`` (PHH order; heads-up reversed),
        ``put`` and ``street`` -> the round's highest bet and the big blind posted (-1: none)."""
        heads_up = n == 2
        top = 0
        big_post = -1
        blind_seen: set[str] = set()
        for _no, _r, kind, a, p in pending:
            if kind not in (ANTE_T, SMALL_T, BIG_T):
                continue
            u = self.units(a)
            slot = 1 - p if heads_up else p
            if kind == ANTE_T:
                antes[slot] += u
                put[p] += u
                continue
            if kind in blind_seen or (kind == SMALL_T and slot != 0) or (kind == BIG_T and slot != 1) or \
                    (heads_up and slot not in (0, 1)):
                blinds[slot] -= u  # a blind posted from another seat (a new or returning player): PHH's negative entry
            else:
                blinds[slot] += u
                blind_seen.add(kind)
            if kind == BIG_T:
                big_post = u
            put[p] += u
            street[p] += u
            top = max(top, street[p])
        return top, big_post

    def _showdown(self, actions: list[Action], texts: list[str], positions: list[int], names: list[str],
                  pockets: dict[str, str], hole: int) -> None:
        # The showdown: the export writes no show actions, only the pockets it knows; each player
        # still in (not folded, two or more) shows the known pocket in PHH order, else mucks.
        folded = {act.player for act in actions if act.kind == FOLD}
        still_in = [q for q in range(len(positions)) if q not in folded]
        if len(still_in) >= 2:
            for q in still_in:
                cards = [_card(t) for t in pockets.get(names[positions[q]], "").split()]
                if len(cards) == hole and all(cards):
                    actions.append(Action(SHOW_MUCK, q, tuple([card_from_text(c) for c in cards])))
                    texts.append(f"p{q + 1} sm {''.join(cards)}")
                else:
                    actions.append(Action(SHOW_MUCK, q))
                    texts.append(f"p{q + 1} sm")

    def _figures(self, put: list[int], bets: list[int], wins: list[int], positions: list[int], names: list[str],
                 fields: dict) -> list[int]:
        """The site's win and bet figures, checked and kept (module docstring) -> what each collected."""
        n = len(positions)
        ordered = sorted(range(n), key=lambda q: -put[q])
        returned = [0] * n
        if n >= 2 and put[ordered[0]] > put[ordered[1]]:
            returned[ordered[0]] = put[ordered[0]] - put[ordered[1]]
        bet_u = [self.units(bets[positions[q]]) for q in range(n)]
        win_u = [self.units(wins[positions[q]]) for q in range(n)]
        for q in range(n):
            if bet_u[q] != put[q]:
                self.findings.append(Finding(
                    "site-total-pot-mismatch", f"{self.label}: the site states {names[positions[q]]} bet "
                    f"{amount_text(bet_u[q], self.places)}; the actions put in {amount_text(put[q], self.places)}",
                    line=self.chunk.line, column=1))
        collected = [win_u[q] - returned[q] if win_u[q] >= returned[q] else win_u[q] for q in range(n)]
        scale = self.places
        fields["_site_win"] = [amount_text(w, scale) for w in win_u]
        fields["_site_bet"] = [amount_text(b, scale) for b in bet_u]
        fields["_site_collected"] = [amount_text(v, scale) for v in collected]
        fields["_site_total_pot"] = amount_text(sum(bet_u) - sum(returned), scale)
        return collected

    def _bet(self, kind: str, p: int, u: int, street: list[int], put: list[int], top: int, actions: list[Action],
             texts: list[str]) -> int:
        """One betting action of type code ``kind`` by ``p`` with the sum ``u`` -> the round's highest bet."""
        if kind == FOLD_T:
            actions.append(Action(FOLD, p))
            texts.append(f"p{p + 1} f")
        elif kind in (CHECK_T, CALL_T):
            actions.append(Action(CHECK_CALL, p))
            texts.append(f"p{p + 1} cc")
            add = min(top - street[p], u) if kind == CALL_T else 0
            street[p] += add
            put[p] += add
        elif kind == RAISE_T and u > street[p]:  # the sum is what the bet comes to
            put[p] += u - street[p]
            street[p] = u
            top = max(top, u)
            actions.append(Action(BET_RAISE, p, None, u))
            texts.append(f"p{p + 1} cbr {amount_text(u, self.places)}")
        else:  # a bet, or an all-in: by what it adds
            to = street[p] + u
            put[p] += u
            street[p] = to
            if kind == ALL_IN_T and to <= top:
                actions.append(Action(CHECK_CALL, p))
                texts.append(f"p{p + 1} cc")
            else:
                top = max(top, to)
                actions.append(Action(BET_RAISE, p, None, to))
                texts.append(f"p{p + 1} cbr {amount_text(to, self.places)}")
        return top

    def _deal(self, actions: list[Action], texts: list[str], positions: list[int], names: list[str],
              pockets: dict[str, str], hole: int) -> None:
        for q in range(len(positions)):
            cards = [_card(t) for t in pockets.get(names[positions[q]], "").split()]
            shown = "".join(cards) if len(cards) == hole and all(cards) else "??" * hole
            actions.append(Action(DEAL_HOLE, q, tuple([card_from_text(shown[i:i + 2])
                                                       for i in range(0, len(shown), 2)])))
            texts.append(f"d dh p{q + 1} {shown}")

    def _board(self, actions: list[Action], texts: list[str], board: str, r: int) -> bool:
        cards = [_card(t) for t in board.split()]
        if not cards or not all(cards):
            self.find("invalid-card", f"round {r}'s board {board!r} is not cards", True)
            return False
        shown = "".join(cards)
        actions.append(Action(DEAL_BOARD, None, tuple([card_from_text(c) for c in cards])))
        texts.append(f"d db {shown}")
        return True


def read_hand(chunk: Chunk, venue: str) -> ReadResult:
    """One iPoker game (a chunk cut by :func:`split_session`) -> ReadResult."""
    if chunk.problem:
        code, message = chunk.problem
        return ReadResult(chunk.source, chunk.hand_key, None,
                          (Finding(code, message, line=chunk.line, column=1),), "", chunk.line)
    text = chunk.data.decode("utf-8", "replace")
    game = _Game(chunk, venue)
    try:
        root = parse_game(chunk.data)
    except (expat.ExpatError, Refused) as err:
        game.find("syntax-error", f"the game's XML cannot be read: {err}", True)
        return game.result(None, text)
    return game.read(root, text)
