"""``handaudit explain``: the replay as a table a person can follow, one row per action."""

from __future__ import annotations

from ..core.amounts import grouped_amount

from ..core.cards import cards_text
from ..importers.lines import table_events


def render_explain(report) -> str:
    """Street, actor, action text, what it was, chips put in, pot before, to call, min/max
    raise-to and the findings at that action; then the findings without an action index."""
    read = report.read
    hand = read.hand
    head = f"{read.source}" + (f" [{read.hand_key}]" if read.hand_key else "")
    if read.hand is not None and read.hand.hand is not None:
        head += f" (hand {read.hand.hand})"  # the PHH hand number: what a site or a floor manager calls it
    elif read.hand is None and read.known and read.known.get("hand") is not None:
        head += f" (hand {read.known['hand']}" + (f", table {read.known['table']}" if read.known.get("table") else "") + ")"
    if hand is None:
        lines = [f"{head}: unreadable"]
        lines += [f"  {f.severity:7} {f.code}: {f.message}" + _where(f) for f in report.findings]
        return "\n".join(lines) + "\n"
    rep = report.replay
    scale = hand.scale

    def fmt(amount: int | None) -> str | None:
        return None if amount is None else grouped_amount(amount, scale)  # 23,025,000: for a person
    by_index: dict[int, list] = {}
    for f in report.findings:
        if f.action_index is not None:
            by_index.setdefault(f.action_index, []).append(f)
    header = ("#", "street", "actor", "action", "kind", "put in", "pot", "to call", "min to", "max to")
    rows = []
    # (strict=False: a hand built in code has no action texts, and then shows no rows)
    for rec, text in zip(rep.records, hand.action_texts, strict=False):
        rows.append((
            str(rec.index), rec.street or "", rec.actor or "", text.strip(), rec.kind + (" (all in)" if rec.all_in else ""),
            fmt(rec.amount) or "", fmt(rec.pot_before) or "", fmt(rec.to_call) or "", fmt(rec.min_to) or "",
            fmt(rec.max_to) or "",
        ))
    widths = [max(len(r[k]) for r in rows + [header]) for k in range(len(header))]
    widths[3] = min(widths[3], 28)

    def line(cells):
        return "  ".join(c[: widths[k]].ljust(widths[k]) for k, c in enumerate(cells)).rstrip()

    out = [f"{head}: {hand.variant}, {hand.players} players, rulebook {report.rulebook}, {report.status}",
           line(header), line(tuple("-" * w for w in widths))]
    for row, rec in zip(rows, rep.records, strict=False):  # (rows: the records that have a text)
        out.append(line(row))
        for f in by_index.get(rec.index, ()):
            out.append(f"      ^ {f.severity} {f.code}: {f.message}")
            if f.rule:
                out.append(f"        rule: {f.rule}")
            if f.ruling:
                out.append(f"        ruling: {f.ruling}")
    rest = [f for f in report.findings if f.action_index is None]
    if rest:
        out.append("")
        out += [f"{f.severity} {f.code}: {f.message}" + _where(f) for f in rest]
    events = table_events(hand.fields)
    if events:  # what happened at the table beside the actions (a site log's table events)
        out.append("")
        out.append("table events:")
        out += [f"  line {e.line}: {e.kind}" + (f" {e.player}" if e.player else "") + (f" ({e.amount})" if e.amount else "")
                + f": {e.text}" for e in events]
    out.append("")
    out.append("board: " + (cards_text(rep.board) or "-"))
    for i, cards in enumerate(rep.hole):
        state = "folded" if rep.folded[i] else ("all in" if rep.all_in[i] else "in")
        out.append(f"p{i + 1}: {cards_text(cards) or '-'}  ({state}, put in {fmt(rep.contributions[i])})")
    return "\n".join(out) + "\n"


def _where(f) -> str:
    return f" (line {f.line}, column {f.column})" if f.line is not None else ""
