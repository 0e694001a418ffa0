"""The rows one hand adds to each report table, built without pyarrow.

:func:`hand_rows` turns a :class:`~handaudit.reports.hand_report.HandReport` into plain tuples per table (the
columns of :data:`handaudit.reports.columns.COLUMNS`, in order, each row built by name); the Parquet writer turns them into Arrow
batches. Kept apart from the writer so that this per-hand work is compiled with the rest of the
per-hand path (setup.py) and a JSONL run never imports pyarrow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core.cards import cards_text
from ..core.hand import Hand
from ..core.status import ERROR, INFO, WARNING
from ..settlement.showdown import Award
from .hand_facts import currency
from .hand_report import HandReport

# A raise limit beyond int64 is the engine's stand-in for an `inf` stack: written as null.
_I64_MAX: Final = 2**63 - 1
_CARDS: dict[tuple[int, ...], str] = {}


def _cards(cards: tuple[int, ...]) -> str:
    text = _CARDS.get(cards)
    if text is None:
        if len(_CARDS) > 50_000:
            _CARDS.clear()
        text = _CARDS[cards] = cards_text(cards)
    return text


def _per_player(fields: dict, key: str, n: int, kind: type) -> list:
    value = fields.get(key) if fields else None
    if isinstance(value, list) and len(value) == n and all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
        return value
    return [None] * n


def hand_rows(report: HandReport) -> dict[str, list[tuple]]:
    """The rows of every table for one :class:`~handaudit.reports.hand_report.HandReport`.

    Values come from the same objects ``HandReport.to_json()`` prints (the reader's Hand, the
    replay, the Settlement), in minor units; tests check the two outputs agree hand by hand.
    """
    read = report.read
    source, key, index = read.source, read.hand_key, report.index
    hand = read.hand
    scale = hand.scale if hand is not None else None
    findings = report.findings
    errors = warnings = infos = 0
    first_error = None
    finding_rows = []
    for i, f in enumerate(findings):
        sev = f.severity
        if sev == ERROR:
            errors += 1
            if first_error is None:
                first_error = f.code
        elif sev == WARNING:
            warnings += 1
        elif sev == INFO:
            infos += 1
        finding_rows.append(finding_row(
            source=source, hand_key=key, hand_index=index, finding_index=i, code=f.code, severity=sev,
            action_index=f.action_index, actor=f.actor, rule=f.rule, message=f.message, ruling=f.ruling,
            line=f.line, column=f.column))

    settlement = report.settlement if hand is not None else None
    pot_rows = []
    determined = n_pots = pot_total = rake = None
    rake_check: str | None = None
    if settlement is not None:
        determined = bool(settlement.determined)
        pots = settlement.pots
        n_pots = len(pots)
        pot_total = 0
        pot_rakes = settlement.pot_rakes
        for p_index, pot in enumerate(pots):
            pot_total += pot.amount
            awards = [{"player": a.player + 1, "won": a.amount, "share": a.share, "hand": _award_hand(a)}
                      for a in pot.awards]
            winners = sorted({a.player + 1 for a in pot.awards})
            pot_rows.append(pot_row(
                source=source, hand_key=key, hand_index=index, pot_index=p_index, amount=pot.amount,
                eligible=[e + 1 for e in pot.eligible], winners=winners, awards=awards, determined=determined,
                reason=getattr(pot, "reason", None) or None,
                rake=None if pot_rakes is None else pot_rakes[p_index], scale=scale))
        rake = settlement.rake
        rake_check = settlement.rake_check

    variant: str | None
    if hand is not None:
        variant = hand.variant
        phh_hand = None if hand.hand is None else str(hand.hand)
    else:
        variant = report.to_json().get("variant")  # the variant written in the unreadable text, if any
        phh_hand = None
    the_hand = hands_row(
        source=source, hand_key=key, hand_index=index, line=read.line, hand=phh_hand, variant=variant,
        rulebook=report.rulebook, status=report.status, complete=report.complete,
        players=hand.players if hand is not None else None,
        actions=len(hand.actions) if hand is not None else None, scale=scale, findings=len(findings),
        errors=errors, warnings=warnings, infos=infos, first_error=first_error, determined=determined,
        pots=n_pots, pot_total=pot_total, payout_check=report.payout_check, rake=rake, rake_check=rake_check,
        currency=_currency(hand),
    )

    action_rows: list[tuple] = []
    player_rows: list[tuple] = []
    if hand is not None:
        replay = report.replay
        texts = hand.action_texts
        acts = hand.actions
        if replay is not None:
            n_acts, n_texts = len(acts), len(texts)
            append = action_rows.append
            for r in replay.records:
                i = r.index
                cards = acts[i].cards if 0 <= i < n_acts else None
                min_to, max_to = r.min_to, r.max_to
                if max_to is not None and max_to > _I64_MAX:
                    max_to = None
                if min_to is not None and min_to > _I64_MAX:
                    min_to = None
                append(action_row(
                    source=source, hand_key=key, hand_index=index, action_index=i, street=r.street,
                    actor=r.actor, kind=r.kind, amount=r.amount, to=r.to, pot_before=r.pot_before,
                    to_call=r.to_call, min_to=min_to, max_to=max_to, all_in=r.all_in is True,
                    cards=_cards(cards) if cards else None, action=texts[i] if 0 <= i < n_texts else "",
                    scale=scale,
                ))
        n = hand.players
        names = _per_player(hand.fields, "players", n, str)
        seats = _per_player(hand.fields, "seats", n, int)
        none: list[int | None] = [None] * n
        put_in: list[int | None] = list(replay.contributions) if replay is not None else none
        returned: list[int | None] = none
        received: list[int | None] = none
        finishing: list[int | None] = none
        if settlement is not None:
            returned = list(settlement.returned)
            if settlement.winnings is not None:
                received = list(settlement.winnings)
            if settlement.finishing_stacks is not None:
                finishing = list(settlement.finishing_stacks)
        rec_fin: Sequence[int | None] = hand.finishing_stacks or none
        rec_win: Sequence[int | None] = hand.winnings or none
        starting, antes, blinds = hand.starting_stacks, hand.antes, hand.blinds_or_straddles
        for p in range(n):
            paid, back, got = put_in[p], returned[p], received[p]
            contributed = paid - back if paid is not None and back is not None else None
            net = got - contributed if got is not None and contributed is not None else None
            hole: tuple[int, ...] | None
            folded: bool | None
            all_in: bool | None
            if replay is not None:
                hole = replay.hole[p] if p < len(replay.hole) else None
                folded, all_in = replay.folded[p] is True, replay.all_in[p] is True
            else:
                hole = folded = all_in = None
            player_rows.append(player_row(
                source=source, hand_key=key, hand_index=index, player=p + 1, name=names[p], seat=seats[p],
                starting_stack=starting[p], ante=antes[p], blind=blinds[p], put_in=put_in[p],
                returned=returned[p], contributed=contributed, received=received[p],
                finishing_computed=finishing[p], finishing_recorded=rec_fin[p], winnings_recorded=rec_win[p],
                net=net, folded=folded, all_in=all_in, hole_cards=_cards(hole) if hole else None, scale=scale,
            ))
    return {"hands": [the_hand], "actions": action_rows, "findings": finding_rows, "pots": pot_rows,
            "players": player_rows}


# One function per table builds its row tuple: its parameters are the table's columns
# (reports.columns.COLUMNS, in order; a test holds them to it), keyword-only, so that every value
# above is put under its column's name rather than at a counted position.
def hands_row(*, source, hand_key, hand_index, line, hand, variant, rulebook, status, complete, players,
              actions, scale, findings, errors, warnings, infos, first_error, determined, pots, pot_total,
              payout_check, rake, rake_check, currency) -> tuple:
    return (source, hand_key, hand_index, line, hand, variant, rulebook, status, complete, players,
            actions, scale, findings, errors, warnings, infos, first_error, determined, pots, pot_total,
            payout_check, rake, rake_check, currency)


def action_row(*, source, hand_key, hand_index, action_index, street, actor, kind, amount, to, pot_before,
               to_call, min_to, max_to, all_in, cards, action, scale) -> tuple:
    return (source, hand_key, hand_index, action_index, street, actor, kind, amount, to, pot_before,
            to_call, min_to, max_to, all_in, cards, action, scale)


def finding_row(*, source, hand_key, hand_index, finding_index, code, severity, action_index, actor, rule,
                message, ruling, line, column) -> tuple:
    return (source, hand_key, hand_index, finding_index, code, severity, action_index, actor, rule,
            message, ruling, line, column)


def pot_row(*, source, hand_key, hand_index, pot_index, amount, eligible, winners, awards, determined,
            reason, rake, scale) -> tuple:
    return (source, hand_key, hand_index, pot_index, amount, eligible, winners, awards, determined,
            reason, rake, scale)


def player_row(*, source, hand_key, hand_index, player, name, seat, starting_stack, ante, blind, put_in,
               returned, contributed, received, finishing_computed, finishing_recorded, winnings_recorded,
               net, folded, all_in, hole_cards, scale) -> tuple:
    return (source, hand_key, hand_index, player, name, seat, starting_stack, ante, blind, put_in,
            returned, contributed, received, finishing_computed, finishing_recorded, winnings_recorded,
            net, folded, all_in, hole_cards, scale)


def _award_hand(award: Award) -> str | None:
    try:
        return award.hand
    except Exception:  # a description is a nicety; never fail a hand over it
        return None


def _currency(hand: Hand | None) -> str | None:
    return currency(hand)  # the currency code, else its symbol (reports/hand_facts.py)
