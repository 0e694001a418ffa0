"""The rows one hand adds to each report table, appended as columns, without pyarrow.

:func:`add_hand` puts each value of a :class:`~handaudit.reports.hand_report.HandReport` under its
column, by name (the columns of :data:`handaudit.reports.columns.COLUMNS`), in the table buffers
of :mod:`handaudit.reports.buffer`; the Parquet writer turns those into Arrow batches. Kept apart
from the writer so that this per-hand work is compiled with the rest of the per-hand path
(setup.py) and a JSONL run never imports pyarrow. :func:`hand_rows` gives the same values as row
tuples (for tests and the curious).
"""

from __future__ import annotations

from typing import Final

from ..core.cards import cards_text
from ..core.hand import Hand
from ..core.status import ERROR, INFO, WARNING
from ..settlement.showdown import Award
from .buffer import KEY_COLUMNS, Column, ReportBuffer, Table
from .columns import AWARD_FIELDS, COLUMNS
from . import hand_facts as facts
from .hand_facts import currency
from .hand_report import HandReport
from .layout import TABLE_NAMES

# A raise limit beyond int64 is the engine's stand-in for an `inf` stack: written as null.
_I64_MAX: Final = 2**63 - 1
# Compiled, an int up to this is held unboxed, and comparing it with _I64_MAX (which is not)
# takes the slow path: test against this first (some 250 instructions a test saved).
_SHORT_MAX: Final = 2**62 - 1
def _per_player(fields: dict, key: str, n: int, kind: type) -> list:
    value = fields.get(key) if fields else None
    if isinstance(value, list) and len(value) == n and all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
        return value
    return [None] * n


def add_hand(buf: ReportBuffer, report: HandReport) -> bool:
    """Append the rows of every table for one hand to ``buf``; True when the writer should take
    them (some table has ``batch_rows`` rows). All or nothing: if building a row fails, the
    hand's rows are taken back and the error raised.

    Values come from the same objects ``HandReport.to_json()`` prints (the reader's Hand, the
    replay, the Settlement), in minor units; tests check the two outputs agree hand by hand.
    """
    try:
        return _add_hand(buf, report)
    except BaseException:
        buf.rollback()
        raise


def _add_hand(buf: ReportBuffer, report: HandReport) -> bool:
    read = report.read
    source, key, index = read.source, read.hand_key, report.index
    hand = read.hand
    scale = hand.scale if hand is not None else None
    findings = report.findings
    errors = warnings = infos = 0
    first_error = None
    f_rows = buf.findings
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
        f_rows.finding_index.add(i)
        f_rows.code.add(f.code)
        f_rows.severity.add(sev)
        f_rows.action_index.append(f.action_index)
        f_rows.actor.add(f.actor)
        f_rows.rule.add(f.rule)
        f_rows.message.append(f.message)
        f_rows.ruling.add(f.ruling)
        f_rows.line.append(f.line)
        f_rows.column.append(f.column)

    settlement = report.settlement if hand is not None else None
    determined = n_pots = pot_total = rake = None
    rake_check: str | None = None
    if settlement is not None:
        determined = bool(settlement.determined)
        pots = settlement.pots
        n_pots = len(pots)
        pot_total = 0
        pot_rakes = settlement.pot_rakes
        p_rows = buf.pots
        for p_index, pot in enumerate(pots):
            pot_total += pot.amount
            p_rows.pot_index.add(p_index)
            p_rows.amount.add(pot.amount)
            eligible, winners = p_rows.eligible, p_rows.winners
            for e in pot.eligible:
                eligible.add(e + 1)
            eligible.end()
            for w in sorted({a.player + 1 for a in pot.awards}):
                winners.add(w)
            winners.end()
            awards = p_rows.awards  # (each award's fields in AWARD_FIELDS order)
            for award in pot.awards:
                awards.add(award.player + 1, award.amount, award.share, _award_hand(award))
            awards.end()
            p_rows.determined.append(determined)
            p_rows.reason.add(getattr(pot, "reason", None) or None)
            p_rows.rake.append(None if pot_rakes is None else pot_rakes[p_index])
        rake = settlement.rake
        rake_check = settlement.rake_check

    variant: str | None
    if hand is not None:
        variant = hand.variant
        phh_hand = None if hand.hand is None else str(hand.hand)
    else:
        variant = report.to_json().get("variant")  # the variant written in the unreadable text, if any
        known = read.known  # what an unreadable site hand's header said: its number, table, venue
        phh_hand = None if not known or known.get("hand") is None else str(known.get("hand"))
    h = buf.hands
    h.source.add(source)
    h.hand_key.add(key)
    h.hand_index.add(index)
    h.line.append(read.line)
    h.hand.append(phh_hand)
    h.variant.add(variant)
    h.rulebook.add(report.rulebook)
    h.status.add(report.status)
    h.complete.append(report.complete)
    h.players.append(hand.players if hand is not None else None)
    h.actions.append(len(hand.actions) if hand is not None else None)
    h.scale.append(scale)
    h.findings.add(len(findings))
    h.errors.add(errors)
    h.warnings.add(warnings)
    h.infos.add(infos)
    h.first_error.add(first_error)
    h.determined.append(determined)
    h.pots.append(n_pots)
    h.pot_total.append(pot_total)
    h.payout_check.add(report.payout_check)
    h.rake.append(rake)
    h.rake_check.add(rake_check)
    h.currency.add(_currency(hand))
    h.currency_symbol.add(facts.currency_symbol(hand))
    if hand is None and read.known:
        h.venue.add(read.known.get("venue"))
        h.table.add(read.known.get("table"))
        h.event.add(read.known.get("event"))
    else:
        h.venue.add(facts.venue(hand))
        h.table.add(facts.table(hand))
        h.event.add(facts.event(hand))
    h.seat_count.append(facts.seat_count(hand))
    h.level.append(facts.level(hand))
    day, clock = facts.date(hand), facts.local_time(hand)
    h.date.append(None if day is None else facts.days_since_epoch(day.year, day.month, day.day))
    h.time.append(None if clock is None else facts.time_us(clock))
    h.time_zone.add(facts.time_zone(hand))
    h.timestamp.append(facts.timestamp_us_at(hand, day, clock))  # (microseconds, wrapped as the timestamp type)
    if hand is not None:
        h.blinds_or_straddles.append(hand.blinds_or_straddles)
        h.antes.append(hand.antes)
        h.bring_in.append(hand.bring_in)
        h.small_bet.append(hand.small_bet)
        h.big_bet.append(hand.big_bet)
        h.min_bet.append(hand.min_bet)
    else:
        h.blinds_or_straddles.append(None)
        h.antes.append(None)
        for column in (h.bring_in, h.small_bet, h.big_bet, h.min_bet):
            column.append(None)

    if hand is not None:
        replay = report.replay
        texts = hand.action_texts
        acts = hand.actions
        if replay is not None:
            a = buf.actions
            n_acts, n_texts = len(acts), len(texts)
            for r in replay.records:
                i = r.index
                cards = acts[i].cards if 0 <= i < n_acts else None
                min_to, max_to = r.min_to, r.max_to
                if max_to is not None and max_to > _SHORT_MAX and max_to > _I64_MAX:
                    max_to = None
                if min_to is not None and min_to > _SHORT_MAX and min_to > _I64_MAX:
                    min_to = None
                a.action_index.add(i)
                a.street.add(r.street)
                a.actor.add(r.actor)
                a.kind.add(r.kind)
                a.amount.append(r.amount)
                a.to.append(r.to)
                a.pot_before.add(r.pot_before)
                a.to_call.append(r.to_call)
                a.min_to.append(min_to)
                a.max_to.append(max_to)
                a.all_in.append(r.all_in is True)
                a.cards.append(cards_text(cards) if cards else None)
                a.action.append(texts[i] if 0 <= i < n_texts else "")
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
        # (tuples or None, never a Sequence: compiled, indexing a Sequence is a generic call)
        rec_fin, rec_win = hand.finishing_stacks or None, hand.winnings or None
        starting, antes, blinds = hand.starting_stacks, hand.antes, hand.blinds_or_straddles
        convention = settlement.convention if settlement is not None else None
        gross = convention == "gross"  # the file's winnings include the returns
        # winnings all 0 though a pot was won ("zeros"): no recorded result to net
        won = rec_win if convention != "zeros" else None
        pl = buf.players
        for p in range(n):
            paid, back, got = put_in[p], returned[p], received[p]
            contributed = paid - back if paid is not None and back is not None else None
            net = got - contributed if got is not None and contributed is not None else None
            start = starting[p]
            net_recorded: int | None = None
            if rec_fin is not None and start is not None:
                net_recorded = rec_fin[p] - start
            elif won is not None:
                spent = paid if gross else contributed
                if spent is not None:
                    net_recorded = won[p] - spent
            hole: tuple[int, ...] | None
            folded: bool | None
            all_in: bool | None
            if replay is not None:
                hole = replay.hole[p] if p < len(replay.hole) else None
                folded, all_in = replay.folded[p] is True, replay.all_in[p] is True
            else:
                hole = folded = all_in = None
            pl.player.add(p + 1)
            pl.name.add(names[p])
            pl.seat.append(seats[p])
            pl.starting_stack.append(starting[p])
            pl.ante.append(antes[p])
            pl.blind.append(blinds[p])
            pl.put_in.append(put_in[p])
            pl.returned.append(returned[p])
            pl.contributed.append(contributed)
            pl.received.append(received[p])
            pl.finishing_computed.append(finishing[p])
            pl.finishing_recorded.append(rec_fin[p] if rec_fin is not None else None)
            pl.winnings_recorded.append(rec_win[p] if rec_win is not None else None)
            pl.net.append(net)
            pl.net_recorded.append(net_recorded)
            pl.folded.append(folded)
            pl.all_in.append(all_in)
            pl.hole_cards.append(cards_text(hole) if hole else None)
    return buf.end_hand(source, key, index, scale)


def hand_rows(report: HandReport) -> dict[str, list[tuple]]:
    """The rows of every table for one hand, as tuples in ``COLUMNS`` order, by table name:
    what :func:`add_hand` buffers, read back (the key columns of a keyed table repeated)."""
    buf = ReportBuffer()
    add_hand(buf, report)
    return {name: table_tuples(table, COLUMNS[name]) for name, table in zip(TABLE_NAMES, buf.tables)}  # noqa: B905 (five each)


def column_values(table: Table, name: str) -> list:
    """One buffered column's values, one per row (strings decoded, keys repeated)."""
    if table.keyed and name in KEY_COLUMNS:
        keys = table.keys
        per_hand = column_values_of(getattr(keys, name))
        out: list = []
        start = 0
        for value, end in zip(per_hand, keys.ends.values()):  # noqa: B905 (one end per hand)
            out.extend([value] * (end - start))
            start = end
        return out
    values = column_values_of(getattr(table, name))
    if name == "timestamp":  # buffered as microseconds since the epoch: read back as the datetime
        return [None if v is None else facts.from_timestamp_us(v) for v in values]
    if name == "awards":  # buffered as tuples: read back as Parquet gives them, dicts
        return [None if v is None else [dict(zip(AWARD_FIELDS, a)) for a in v] for v in values]  # noqa: B905
    if name == "date":  # buffered as days since 1970-01-01
        return [None if v is None else facts.from_days(v) for v in values]
    if name == "time":  # buffered as microseconds since midnight
        return [None if v is None else facts.from_time_us(v) for v in values]
    return values


def column_values_of(column: object) -> list:
    if isinstance(column, Column):
        return column.values()
    assert isinstance(column, list)
    return list(column)


def table_tuples(table: Table, names: tuple[str, ...]) -> list[tuple]:
    columns = [column_values(table, n) for n in names]
    return list(zip(*columns))  # noqa: B905 (columns of one table: equal lengths)


def _award_hand(award: Award) -> str | None:
    try:
        return award.hand
    except Exception:  # a description is a nicety; never fail a hand over it
        return None


def _currency(hand: Hand | None) -> str | None:
    return currency(hand)  # the ISO 4217 code (reports/hand_facts.py)
