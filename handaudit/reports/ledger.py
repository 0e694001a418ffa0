"""``handaudit settle``: the settlement of one hand as a ledger a person can check by hand.

Sections: what each player put in; the uncalled chips returned first; each pot with how it is
made up, who is eligible, the hands compared and who wins what and why; the chips each player
received and their net change; and the totals that show no chip was created or lost. Then the
recorded payouts and how they compare. Every amount is printed exactly with the hand's units.
"""

from __future__ import annotations

from ..core.amounts import grouped_amount

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.cards import cards_text
from ..core.hand import Hand
from ..core.variants import VARIANTS, Variant
from ..settlement import evaluators as E
from ..settlement.pots import build_pots, effective_antes, split_dead, trims_antes
from ..settlement.showdown import UNKNOWN_HAND, Award, Pot, strength

if TYPE_CHECKING:
    from ..settlement import Settlement
    from ..validator.outcome import Replay


def _p(i: int) -> str:
    return f"p{i + 1}"


def _formatter(hand: Hand) -> Callable[[int], str]:
    """An amount of ``hand`` as a person reads it: exact, in groups of three (23,025,000)."""
    scale = hand.scale

    def fmt(v: int) -> str:
        return grouped_amount(v, scale)

    return fmt


def _signed(fmt: Callable[[int], str], v: int) -> str:
    return ("+" if v > 0 else "") + fmt(v)


def _table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [r[c].rjust(widths[c]) for c in range(1, len(r))]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def _pot_name(k: int) -> str:
    return "Main pot" if k == 0 else f"Side pot {k}"


def render_ledger(hand: Hand, replay: Replay, settlement: Settlement) -> str:
    """The ledger text (ends with a newline)."""
    fmt = _formatter(hand)
    n = len(settlement.contributions)
    contrib = settlement.contributions
    returned = settlement.returned
    variant = VARIANTS.get(hand.variant)
    units = "chips" if hand.scale == 0 else f"units of {fmt(1)}"
    title = f"Settlement of {hand.source}" + (f" [{hand.hand_key}]" if hand.hand_key else "")
    if hand.hand is not None and str(hand.hand) != hand.hand_key:  # once: "[12]" already says hand 12
        title += f" (hand {hand.hand})"
    lines = [title, f"Variant {hand.variant}; amounts exact ({units}); players p1..p{n} in PHH order.", ""]

    # 1. put in
    antes = effective_antes(hand.antes, hand.starting_stacks, contrib,
                            variant is None or variant.button_game)
    dead = split_dead(replay.dead, antes)
    lines.append("1. Chips put in (antes, blinds, bring-in, bets), before anything is returned")
    rows = [["player", "start", "put in", "of which ante", "of which dead"]]
    for i in range(n):
        start = hand.starting_stacks[i] if i < len(hand.starting_stacks) else None
        status = " (folded)" if replay.folded[i] else (" (all-in)" if replay.all_in[i] else "")
        rows.append([_p(i) + status, "inf" if start is None else fmt(start), fmt(contrib[i]),
                     fmt(antes[i]) if antes[i] else "", fmt(dead[i]) if dead[i] else ""])
    rows.append(["total", "", fmt(sum(contrib)), fmt(sum(antes)) if any(antes) else "",
                 fmt(sum(dead)) if any(dead) else ""])
    lines += _table(rows)
    if any(antes):
        lines.append("  antes: " + ("trimmed like a betting round and counted in the side-pot levels"
                                    if trims_antes(hand.ante_trimming_status, hand.antes) else
                                    "not trimmed; all in the first pot, which every player still in can win")
                     + f" (ante_trimming_status = {str(bool(hand.ante_trimming_status)).lower()})")
    lines.append("")

    # 2. returned
    lines.append("2. Returned first: the uncalled part of the largest contribution (never a pot)")
    if any(returned):
        for i in range(n):
            if returned[i]:
                kept = contrib[i] - returned[i]
                lines.append(f"  {_p(i)} gets back {fmt(returned[i])} of {fmt(contrib[i])} put in: "
                             f"nobody else matched more than {fmt(kept)}")
    else:
        lines.append("  nothing: every chip put in was matched or is dead money")
    lines.append(f"  total returned {fmt(sum(returned))}")
    lines.append("")

    # 3. pots
    _, detail = build_pots(contrib, dead, replay.folded, antes, trims_antes(hand.ante_trimming_status, hand.antes),
                           detail=True)
    lines.append("3. Pots (each settled on its own, among its eligible players only)")
    shown_lines = _showdown_hands(hand, replay, variant)
    if shown_lines:
        lines.append("  Showdown:")
        lines += ["    " + s for s in shown_lines]
    for k, pot in enumerate(settlement.pots):
        parts = detail[k][2] if k < len(detail) and detail[k][0] == pot.amount else None
        made = ""
        if parts is not None:
            made = " = " + " + ".join(f"{_p(i)} {fmt(v)}" for i, v in enumerate(parts) if v)
        lines.append(f"  {_pot_name(k)}: {fmt(pot.amount)}{made}")
        lines.append("    eligible: " + (", ".join(_p(i) for i in pot.eligible) or "nobody")
                     + ("" if len(pot.contenders) == len(pot.eligible) or not pot.contenders
                        else "; contesting: " + ", ".join(_p(i) for i in pot.contenders)))
        if pot.hands:
            for p, kind, s in pot.hands:
                text = E.describe(kind, s) if s is not None else "no qualifying low"
                lines.append(f"    {_p(p)} {_kind_label(kind)}: {text}")
        for a in pot.awards:
            share = "" if a.share == "whole" else f" ({a.share} half)"
            why = f": {a.hand}" if a.hand else ""
            odd = " (+1 odd chip)" if a.player in pot.odd_chips and _got_odd(pot, a) else ""
            lines.append(f"    -> {_p(a.player)} wins {fmt(a.amount)}{share}{why}{odd}")
        lines.append(f"    ({pot.reason})")
    lines.append(f"  total in pots {fmt(settlement.pot_total)}")
    lines.append("")

    # 4. received and net
    lines.append("4. Chips received and net change")
    received = settlement.received
    rows = [["player", "put in", "returned", "won", "received", "net", "finishing stack"]]
    fs = settlement.finishing_stacks
    for i in range(n):
        won = None if received is None else received[i]
        got = None if won is None else won + returned[i]
        net = None if got is None else got - contrib[i]
        fsi = None if fs is None else fs[i]
        rows.append([_p(i), fmt(contrib[i]), fmt(returned[i]), "?" if won is None else fmt(won),
                     "?" if got is None else fmt(got), "?" if net is None else _signed(fmt, net),
                     "?" if fsi is None else fmt(fsi)])
    tot_won = None if received is None else sum(received)
    rows.append(["total", fmt(sum(contrib)), fmt(sum(returned)), "?" if tot_won is None else fmt(tot_won),
                 "?" if tot_won is None else fmt(tot_won + sum(returned)),
                 "?" if tot_won is None else _signed(fmt, tot_won + sum(returned) - sum(contrib)), ""])
    lines += _table(rows)
    lines.append("")

    # 5. totals
    lines.append("5. Totals")
    pot_total = settlement.pot_total
    lines.append(f"  put in {fmt(sum(contrib))} = in pots {fmt(pot_total)} + returned {fmt(sum(returned))}"
                 + ("" if pot_total + sum(returned) == sum(contrib) else "  <-- DOES NOT ADD UP"))
    if received is not None:
        ok = sum(received) == pot_total
        lines.append(f"  won from pots {fmt(sum(received))} = in pots {fmt(pot_total)}"
                     + ("" if ok else "  <-- DOES NOT ADD UP"))
        nets = sum(received) + sum(returned) - sum(contrib)
        lines.append(f"  net changes add up to {fmt(nets)}: no chip created or lost"
                     if nets == 0 else f"  net changes add up to {fmt(nets)}  <-- DOES NOT ADD UP")
    else:
        lines.append("  winners not determined: " + "; ".join(p.reason for p in settlement.pots
                                                             if not p.determined))
    lines.append("")

    # 6. recorded
    lines.append("6. Recorded in the file")
    if hand.winnings is not None:
        lines.append("  winnings:         " + ", ".join(f"{_p(i)} {fmt(v)}" for i, v in enumerate(hand.winnings)))
    if hand.finishing_stacks is not None:
        lines.append("  finishing stacks: " + ", ".join(f"{_p(i)} {fmt(v)}"
                                                      for i, v in enumerate(hand.finishing_stacks)))
    if hand.winnings is None and hand.finishing_stacks is None:
        lines.append("  no winnings or finishing stacks")
    check = settlement.payout_check
    extra = ""
    if settlement.rake is not None:
        extra = f"; rake {fmt(settlement.rake)}"
    if settlement.convention in ("gross", "net") and hand.winnings is not None:
        extra += f" (winnings read as {settlement.convention})"
    lines.append(f"  payout check: {check}{extra}")
    for f in settlement.findings:
        lines.append(f"  [{f.severity}] {f.code}: {f.message}")
    return "\n".join(lines) + "\n"


def _got_odd(pot: Pot, award: Award) -> bool:
    return got_odd_chip(award.amount, [a.amount for a in pot.awards if a.share == award.share])


def got_odd_chip(amount: int, same_share: list[int]) -> bool:
    """Whether an award of ``amount`` got an odd chip: the odd chips of a split share go to the
    awards above the share's smallest amount (``same_share``: the share's award amounts)."""
    return len(same_share) > 1 and amount > min(same_share)


_LABELS = {"high": "high", "short_deck": "high", "low_eight": "low", "low_a5": "low",
           "low_27": "low", "badugi": "badugi"}


def _kind_label(kind: str) -> str:
    return _LABELS.get(kind, kind)


def _showdown_hands(hand: Hand, replay: Replay, variant: Variant | None) -> list[str]:
    if not replay.showdown:
        return []
    return showdown_lines(variant, replay.folded, replay.shown, replay.hole, tuple(replay.board))


def showdown_lines(variant: Variant | None, folded: Sequence[bool], shown: Sequence[bool | None],
                   hole: Sequence[tuple[int, ...]], board: tuple[int, ...]) -> list[str]:
    """Each player still in at showdown: cards and what they make (or mucked / unknown).
    ``shown[i]`` is False for a player who mucked; the HTML hand page uses it too."""
    if variant is None:
        return []
    out = []
    for i in range(len(folded)):
        if folded[i]:
            continue
        if shown[i] is False:
            out.append(f"{_p(i)} mucked")
            continue
        cards = hole[i] if i < len(hole) else ()
        texts = []
        for kind in variant.hands:
            s = strength(kind, variant.use, tuple(cards), board, False)
            if s == UNKNOWN_HAND:
                texts = ["hand unknown"]
                break
            texts.append(f"{_kind_label(kind)}: " + (E.describe(kind, s) if s is not None else "no qualifying low"))
        out.append(f"{_p(i)} {cards_text(cards) or '(no cards)'}: " + "; ".join(texts))
    return out
