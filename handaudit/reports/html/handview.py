"""One hand's page, as values a template renders: the replay street by street (each action with
the pot, the amount to call, the allowed raise-to, the cards dealt, the findings at it) and the
settlement ledger (pots, eligible players, showdown hands, awards, odd chips, returns, recorded
against computed).

Built from the hand's rows of the report tables (the Parquet files, or ``reports.rows.hand_rows``
of a live HandReport for ``explain --html``), so the page shows exactly what the report holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.amounts import grouped_amount
from ...core.cards import cards_from_text
from ...core.variants import VARIANTS
from ..ledger import got_odd_chip, showdown_lines

_SUITS = {"c": ("\u2663", "clubs", "black"), "d": ("\u2666", "diamonds", "red"),
          "h": ("\u2665", "hearts", "red"), "s": ("\u2660", "spades", "black")}


@dataclass
class Card:
    rank: str  # "A", "10", "" for an unknown card
    suit: str  # "c", "d", "h", "s"; "u" when unknown (the page's style draws the symbol)
    symbol: str  # the suit symbol, "" when unknown
    name: str  # "A of spades"


def card_list(text: str | None) -> list[Card]:
    """Cards in the notation (``AsKd??``) as drawable cards; bad text gives no card."""
    out: list[Card] = []
    if not text:
        return out
    for i in range(0, len(text) - 1, 2):
        r, s = text[i], text[i + 1]
        if r == "?" or s not in _SUITS:
            out.append(Card("", "u", "", "unknown card"))
            continue
        symbol, suit, _ = _SUITS[s]
        rank = "10" if r == "T" else r
        out.append(Card(rank, s, symbol, f"{rank} of {suit}"))
    return out


class Money:
    """Amounts of one hand written exactly in its units (``scale`` decimal places), the whole
    part in groups of three as ``settle`` and ``explain`` print them."""

    def __init__(self, scale: int | None):
        self.scale = scale or 0

    def __call__(self, units: int | None) -> str:
        return "" if units is None else grouped_amount(units, self.scale)

    def signed(self, units: int | None) -> str:
        return "" if units is None else ("+" if units > 0 else "") + grouped_amount(units, self.scale)


def _player(actor: str | None, names: dict[str, str]) -> str:
    if not actor:
        return ""
    name = names.get(actor)
    return f"{actor} ({name})" if name else actor


def _finding(f: dict) -> dict:
    """A finding as the page shows it: its actor beside its code, so a message that starts by
    naming the same player ("p2: recorded winnings ...") does not say it twice ("(p2): p2:")."""
    where = f"line {f['line']}, column {f['column']}" if f.get("line") is not None else ""
    actor, message = f.get("actor"), f["message"]
    if actor and message.startswith(f"{actor}: "):
        message = message[len(actor) + 2:]
    return {"severity": f["severity"], "code": f["code"], "message": message, "rule": f.get("rule"),
            "ruling": f.get("ruling"), "actor": actor, "where": where, "index": f.get("action_index")}


def _streets(actions: list[dict], by_action: dict[int, list[dict]], names: dict[str, str], money: Money) -> list[dict]:
    streets: list[dict] = []
    board: list[Card] = []
    for a in sorted(actions, key=lambda a: a["action_index"]):
        name = a.get("street") or ""
        if not streets or streets[-1]["name"] != name:
            streets.append({"name": name or "(no street)", "pot": money(a.get("pot_before")), "dealt": [],
                            "board": [], "actions": []})
        st = streets[-1]
        cards = card_list(a.get("cards"))
        if a["kind"] == "deal-board":
            st["dealt"] += cards
            board += cards
        st["board"] = list(board)
        low, high = a.get("min_to"), a.get("max_to")
        allowed = ""
        if low is not None:
            allowed = f"{money(low)} to {money(high)}" if high is not None else f"{money(low)} or more"
        st["actions"].append({
            "index": a["action_index"], "actor": _player(a.get("actor"), names), "text": a.get("action") or "",
            "kind": a["kind"] + (" (all in)" if a.get("all_in") else ""), "put_in": money(a.get("amount")),
            "to": money(a.get("to")), "pot": money(a.get("pot_before")), "to_call": money(a.get("to_call")),
            "allowed": allowed, "cards": cards, "findings": [_finding(f) for f in by_action.get(a["action_index"], [])],
        })
    return streets


def _won(award: dict) -> int:
    """An award's amount: ``won`` since schema 2, ``amount`` in a report written before."""
    return award["won"] if "won" in award else award["amount"]


def _pots(pots: list[dict], money: Money) -> list[dict]:
    out = []
    for p in sorted(pots, key=lambda p: p["pot_index"]):
        awards = p.get("awards") or []
        rows = []
        for a in awards:
            same = [_won(b) for b in awards if b["share"] == a["share"]]
            rows.append({"player": f"p{a['player']}", "amount": money(_won(a)),
                         "share": "" if a["share"] == "whole" else f"{a['share']} half",
                         "hand": a.get("hand") or "", "odd": got_odd_chip(_won(a), same)})
        k = p["pot_index"]
        out.append({"name": "Main pot" if k == 0 else f"Side pot {k}", "amount": money(p["amount"]),
                    "rake": money(p.get("rake")), "eligible": ", ".join(f"p{e}" for e in p.get("eligible") or []) or "nobody",
                    "awards": rows, "reason": p.get("reason") or ""})
    return out


def _showdown(hand: dict, players: list[dict], actions: list[dict]) -> list[str]:
    """The showdown hands described (the ledger's own function), when two or more were still in."""
    variant = VARIANTS.get(hand.get("variant") or "")
    folded = [bool(p.get("folded")) for p in players]
    if variant is None or len(players) - sum(folded) < 2 or not hand.get("complete", True):
        return []
    mucked = {a.get("actor") for a in actions if a["kind"] == "muck"}
    board: list[int] = []
    try:
        for a in sorted(actions, key=lambda a: a["action_index"]):
            if a["kind"] == "deal-board" and a.get("cards"):
                board += cards_from_text(a["cards"])
        hole = [cards_from_text(p.get("hole_cards") or "") for p in players]
    except ValueError:  # cards the reader let through are always notation; never fail a page on them
        return []
    shown = [False if f"p{p['player']}" in mucked else None for p in players]
    try:
        return showdown_lines(variant, folded, shown, hole, tuple(board))
    except Exception:  # a description is a nicety (as in the report's awards)
        return []


def _ledger(players: list[dict], money: Money) -> tuple[list[dict], dict]:
    rows = []
    totals = {"put_in": 0, "returned": 0, "received": 0, "known": True}
    for p in sorted(players, key=lambda p: p["player"]):
        computed, recorded = p.get("finishing_computed"), p.get("finishing_recorded")
        won, won_rec = p.get("received"), p.get("winnings_recorded")
        stack_differs = computed is not None and recorded is not None and computed != recorded
        won_differs = won is not None and won_rec is not None and won != won_rec
        name = p.get("name")
        state = "folded" if p.get("folded") else ("all in" if p.get("all_in") else "in")
        rows.append({
            "player": f"p{p['player']}" + (f" ({name})" if name else ""), "seat": "" if p.get("seat") is None else str(p["seat"]),
            "state": state, "cards": card_list(p.get("hole_cards")),
            "start": "inf" if p.get("starting_stack") is None else money(p["starting_stack"]),
            "put_in": money(p.get("put_in")), "returned": money(p.get("returned")), "received": money(won) or "?",
            "net": money.signed(p.get("net")) or "?", "computed": money(computed) or "?", "recorded": money(recorded),
            "winnings": money(won_rec), "stack_differs": stack_differs, "won_differs": won_differs,
        })
        for k in ("put_in", "returned"):
            totals[k] += p.get(k) or 0
        if won is None:
            totals["known"] = False
        else:
            totals["received"] += won
    return rows, totals


def hand_view(anchor: str, hand: dict, actions: list[dict], findings: list[dict], pots: list[dict],
              players: list[dict]) -> dict:
    """The page of one hand from its rows (dicts of the report tables' columns)."""
    money = Money(hand.get("scale"))
    names = {f"p{p['player']}": p["name"] for p in players if p.get("name")}
    by_action: dict[int, list[dict]] = {}
    general = []
    for f in sorted(findings, key=lambda f: f["finding_index"]):
        if f.get("action_index") is None:
            general.append(_finding(f))
        else:
            by_action.setdefault(f["action_index"], []).append(f)
    streets = _streets(actions, by_action, names, money)
    shown = {a["action_index"] for a in actions}
    # a finding at an action the replay did not record (past the end) is listed with the others
    general += [_finding(f) for i, fs in sorted(by_action.items()) if i not in shown for f in fs]
    ledger, totals = _ledger(players, money)
    pot_total = hand.get("pot_total")
    title = hand["source"] + (f" [{hand['hand_key']}]" if hand.get("hand_key") else "")
    facts = [("variant", hand.get("variant") or "?"), ("rulebook", hand.get("rulebook") or ""),
             ("status", hand.get("status") or ""), ("players", str(hand.get("players") or len(players))),
             ("payout check", hand.get("payout_check") or "-"),
             # a payout mismatch's pot minus recorded winnings is no rake: named for what it is
             ("unexplained shortfall (not rake)" if hand.get("payout_check") == "mismatch" else "rake",
              money(hand.get("rake")) + (f" ({hand['rake_check']})" if hand.get("rake_check") else "")),
             ("amounts", "chips" if not money.scale else f"exact, in units of {money(1)}")]
    for column in ("hand", "venue", "table", "event", "currency", "currency_symbol"):
        if hand.get(column) is not None:
            facts.append((column.replace("_", " ") if column != "hand" else "hand number", str(hand[column])))
    put_in = totals["put_in"]
    checks = []
    if pot_total is not None:
        ok = pot_total + totals["returned"] == put_in
        checks.append((f"put in {money(put_in)} = in pots {money(pot_total)} + returned {money(totals['returned'])}", ok))
        if totals["known"] and pots:
            checks.append((f"won from pots {money(totals['received'])} = in pots {money(pot_total)}",
                           totals["received"] == pot_total))
    return {
        "anchor": anchor, "title": title, "status": hand.get("status") or "", "facts": facts,
        "general": general, "streets": streets, "pots": _pots(pots, money), "ledger": ledger,
        "showdown": _showdown(hand, sorted(players, key=lambda p: p["player"]), actions),
        "pot_total": money(pot_total), "checks": checks, "readable": bool(actions or players),
    }
