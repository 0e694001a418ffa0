"""The site's own figures against the settlement: what a site log states (its total pot, main and
side pots, rake, who collected what, the uncalled bets it returned), kept by an importer as user
fields ``_site_...`` of the hand, reconciled once the pots are settled.

The figures are exact decimal strings in the hand's currency (``"1.27"``), per player in PHH
order: a converted ``.phhs`` file keeps them as they are, so re-reading it reconciles the same.
The stated rake also makes the payout check exact (:func:`stated_rakes`).

=========================  =================================================================
``_site_total_pot``        "Total pot": chips put in less uncalled returns
``_site_rake``             "Rake"
``_site_pots``             "Main pot", "Side pot(-N)": each pot after its rake, in order
``_site_collected``        per player: the sum of their "collected ... from pot" lines
``_site_returned``         per player: "Uncalled bet (X) returned to" ("" where the site wrote none)
``_site_run_twice``        the second run's cards (or true): one board replayed; awards per run not compared
``_site_cash_out``         who cashed out the hand: the site awarded no pot at showdown
``_site_cap``              a capped no-limit game's cap per player (PHH has no cap)
``_site_cancelled``        true: the site cancelled the hand
``_site_fees``             what the site takes from the pot beside the rake, each ``"Name amount"``
                           (GGPoker's ``Jackpot``, ``Bingo``, ``Fortune``, ``Tax``): the players
                           collect the pot less the rake and these
``_site_added``            what the site puts in the pot itself (GGPoker's "Cash Drop to Pot",
                           Winamax's "Hold-up to Pot"): in the stated total and the collections
``_site_total_net``        true: the stated total pot is after the rake and fees (Winamax)
``_site_uncalled_in_pot``  true: the stated total and collections include the uncalled bets the
                           site returns without a line (Winamax): the settlement's returns are
                           added to its side before comparing
``_site_total_rounded``    the total pot as the site rounded it (Winamax's older "Total pot 3.37k"):
                           compared to the half of its last digit
``_site_ev_cashout``       all-in EV cashouts the site paid or charged beside the pot (GGPoker):
                           the pot is still awarded and compared
``_site_encoding``         "cp1252": the file was not UTF-8 (a ``site-encoding`` note)
``_site_unread``           the lines read as nothing ({line, text}): a ``site-unknown-line`` warning each
``_site_boards``           each run's whole board, for a hand run twice or more: each settled on its own
``_site_cash_won``         per player: the pot the summary says a cashed-out player won ("" for others)
``_site_antes_layered``    true: the antes are layered into main and side pots by what each player put in
``_site_events``           the table events ({line, kind, player, amount, text}: importers/lines.py)
=========================  =================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..core.amounts import amount_text
from ..core.hand import Hand
from ..findings.finding import ENCODING_MESSAGE, Finding
from .showdown import Pot

TOTAL: Final = "_site_total_pot"
RAKE: Final = "_site_rake"
POTS: Final = "_site_pots"
COLLECTED: Final = "_site_collected"
RETURNED: Final = "_site_returned"
RUN_TWICE: Final = "_site_run_twice"
CASH_OUT: Final = "_site_cash_out"
CAP: Final = "_site_cap"
CANCELLED: Final = "_site_cancelled"
FEES: Final = "_site_fees"
ADDED: Final = "_site_added"
TOTAL_NET: Final = "_site_total_net"
UNCALLED_IN_POT: Final = "_site_uncalled_in_pot"
EV_CASHOUT: Final = "_site_ev_cashout"
ROUNDED: Final = "_site_total_rounded"


def rounded(value: object, scale: int) -> tuple[int, int] | None:
    """A rounded figure ``"3.37k"`` (thousands, ``M`` millions) -> (its value, half its last
    digit's unit) in units of ``scale``; None when it is not one."""
    if not isinstance(value, str) or len(value) < 2 or value[-1] not in "kM":
        return None
    power = 3 if value[-1] == "k" else 6
    whole, _, frac = value[:-1].partition(".")
    if not whole.isdigit() or (frac and not frac.isdigit()) or len(frac) > power:
        return None
    unit = 10 ** (power - len(frac) + scale)
    return int(whole + frac) * unit, unit // 2


def _fees(fields: dict, scale: int) -> int | None:
    """The sum of the stated fees beside the rake (0 without any), None if one is unreadable."""
    value = fields.get(FEES)
    if value is None:
        return 0
    if not isinstance(value, list):
        return None
    total = 0
    for item in value:
        if not isinstance(item, str):
            return None
        u = units(item.rpartition(" ")[2], scale)
        if u is None:
            return None
        total += u
    return total


def _taken(fields: dict, scale: int) -> int | None:
    """What the site states it took from the players' chips: rake and fees less what it added."""
    rake = units(fields.get(RAKE), scale)
    fees = _fees(fields, scale)
    if rake is None or fees is None:
        return None
    added = units(fields.get(ADDED), scale) if ADDED in fields else 0
    return None if added is None else rake + fees - added


UNREAD: Final = "_site_unread"
ENCODING: Final = "_site_encoding"
BOARDS: Final = "_site_boards"
ANTES_LAYERED: Final = "_site_antes_layered"  # true: the site layers antes into side pots like any chip
CASH_WON: Final = "_site_cash_won"


def run_boards(hand: Hand) -> list[tuple[int, ...]]:
    """The boards of a hand the site ran twice (or three times), each run's whole board as card
    codes, first run first; [] for a hand run once or whose boards are not all cards."""
    fields = hand.fields
    raw = fields.get(BOARDS) if fields else None
    if not isinstance(raw, list) or len(raw) < 2:
        return []
    from ..core.cards import card_from_text

    out: list[tuple[int, ...]] = []
    for board in raw:
        if not isinstance(board, str):
            return []
        try:
            out.append(tuple([card_from_text(c) for c in board.split()]))
        except ValueError:
            return []
    return out


def split_runs(raw: list[tuple[int, tuple[int, ...]]], runs: int) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Each pot ``(amount, eligible)`` cut into one share per run, as the site splits a pot run
    several times: equal shares, an odd unit to the earlier runs. Per run, its shares of every pot."""
    out: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(runs)]
    for amount, eligible in raw:
        q, r = divmod(amount, runs)
        for k in range(runs):
            out[k].append((q + 1 if k < r else q, eligible))
    return out


def interleave_runs(per_run: list[list[Pot]]) -> list[Pot]:
    """The pots of every run, pot by pot (pot 1 of run 1, of run 2, ..., pot 2 of run 1, ...),
    each pot's reason saying its run."""
    out: list[Pot] = []
    runs = len(per_run)
    for j in range(len(per_run[0])):
        for k in range(runs):
            p = per_run[k][j]
            out.append(Pot(p.amount, p.eligible, p.awards, p.contenders, p.hands, f"run {k + 1}: {p.reason}",
                           p.determined, p.odd_chips, p.order))
    return out


def _runs(hand: Hand) -> int:
    raw = hand.fields.get(BOARDS) if hand.fields else None
    return len(raw) if isinstance(raw, list) and len(raw) >= 2 else 1


def _merged(pots: Sequence[Pot], runs: int) -> list[int]:
    """The pots' amounts, the shares of a pot run several times added back (the site states the
    pot whole)."""
    if runs <= 1:
        return [p.amount for p in pots]
    return [sum([pots[j + k].amount for k in range(runs)]) for j in range(0, len(pots) - runs + 1, runs)]


def units(value: object, scale: int) -> int | None:
    """A stated figure (an exact decimal string) in units of ``scale``; None when it is not one or
    has more decimal places than the hand (it cannot then equal any amount of the hand)."""
    if not isinstance(value, str) or not value:
        return None
    whole, _, frac = value.partition(".")
    frac = frac.rstrip("0")
    if not whole.isdigit() or (frac and not frac.isdigit()) or len(frac) > scale:
        return None
    return int(whole + frac) * 10 ** (scale - len(frac))


def _list(value: object, scale: int, n: int) -> list[int] | None:
    if not isinstance(value, list) or len(value) != n:
        return None
    out: list[int] = []
    for v in value:
        u = units(v, scale)
        if u is None:
            return None
        out.append(u)
    return out


def stated_rakes(hand: Hand, pots: Sequence[Pot]) -> tuple[int, ...] | None:
    """The rake of each pot as the site states it, or None: one pot and a stated rake; or
    every pot stated after its rake (``_site_pots``, as many as the settlement's), each within
    its pot and together the stated rake. With it the payout check is exact."""
    fields = hand.fields
    if not fields or RAKE not in fields:
        return None
    if ADDED in fields:
        return None
    rake = _taken(fields, hand.scale)
    if rake is None or not pots:
        return None
    runs = _runs(hand)
    if runs > 1 and len(pots) % runs == 0:
        # a pot run several times: each stated pot (after its rake) is split between the runs
        # as the pot was (split_runs); each run's share has its part of the rake
        whole = _merged(pots, runs)
        live_w = [j for j in range(len(whole)) if whole[j] > 0]
        after = [0] * len(whole)
        if POTS not in fields:
            if len(live_w) != 1:
                return None
            after[live_w[0]] = whole[live_w[0]] - rake
        else:
            stated_w = _list(fields.get(POTS), hand.scale, len(live_w))
            if stated_w is None:
                return None
            for j in range(len(live_w)):
                after[live_w[j]] = stated_w[j]
        out: list[int] = []
        for j in range(len(whole)):
            q, r = divmod(after[j], runs)
            for k in range(runs):
                out.append(pots[j * runs + k].amount - (q + 1 if k < r else q))
        if sum(out) != rake or min(out) < 0:
            return None
        return tuple(out)
    live = [k for k in range(len(pots)) if pots[k].amount > 0]
    rakes = [0] * len(pots)
    if POTS not in fields:
        if len(live) != 1:
            return None
        rakes[live[0]] = rake
        return tuple(rakes)
    stated = _list(fields.get(POTS), hand.scale, len(live))
    if stated is None:
        return None
    for j in range(len(live)):
        rakes[live[j]] = pots[live[j]].amount - stated[j]
    if sum(rakes) != rake or min(rakes) < 0:
        return None
    return tuple(rakes)


def _said(fields: dict) -> list[Finding]:
    """What PHH cannot express, said from the fields (so a converted file says it too)."""
    out: list[Finding] = []
    if CAP in fields:
        out.append(Finding("site-cap-game", f"a no-limit game capped at {fields.get(CAP)} a player: PHH has no "
                           "betting cap; a player who reaches the cap is replayed as if they could bet on"))
    if RUN_TWICE in fields:
        second = fields.get(RUN_TWICE)
        boards = fields.get(BOARDS)
        if isinstance(boards, list) and len(boards) >= 2:
            out.append(Finding("site-run-twice", f"the hand was run {len(boards)} times (boards "
                               f"{' / '.join(str(b) for b in boards)}): PHH holds one board, so the first run is "
                               "replayed; each pot is split between the runs as the site splits it and each share "
                               "settled on its own run's board, and the payouts compared"))
        else:
            out.append(Finding("site-run-twice", "the hand was run twice: PHH holds one board, so the first run is "
                               "replayed and settled" + (f" (the second run: {second})" if isinstance(second, str)
                                                         else "") + "; the awards per run are not compared, the "
                               "totals are"))
    ev = fields.get(EV_CASHOUT)
    if isinstance(ev, list):
        for line in ev:
            out.append(Finding("site-ev-cashout", f"{line}: the site paid or charged this beside the pot; the pot "
                               "is awarded and compared as usual"))
    cash = fields.get(CASH_OUT)
    if isinstance(cash, list):
        paid = CASH_WON in fields
        for line in cash:
            out.append(Finding("site-cash-out", f"{line}: the site paid the player that instead of the pot, which "
                               + ("it awarded as the settlement does (the payouts are compared with the pot the "
                                  "summary says the player won)" if paid else
                                  "the summary does not state: the payouts are not compared")))
    if ENCODING in fields:
        out.append(Finding("site-encoding", ENCODING_MESSAGE))
    unread = fields.get(UNREAD)
    if isinstance(unread, list):
        for entry in unread:
            if isinstance(entry, dict):
                line = entry.get("line")
                at = line if isinstance(line, int) and not isinstance(line, bool) else None
                out.append(Finding("site-unknown-line", f"line {at}: {entry.get('text')}" if at else str(entry.get("text")),
                                   line=at, column=1 if at else None))
    if CANCELLED in fields:
        out.append(Finding("site-hand-cancelled", "the site cancelled the hand (\"Hand cancelled\"): it is settled "
                           "as far as it went; the site states no payout"))
    return out


def _total_check(fields: dict, pot_total: int, added: int | None, returned_total: int, rake: int | None,
                 fees: int | None, scale: int) -> list[Finding]:
    """The stated total pot against the settlement's, in the site's terms: with what the site
    added, and (Winamax) with the uncalled returns and after the rake and fees."""
    total = units(fields.get(TOTAL), scale)
    gross = pot_total + (added or 0) + returned_total
    expected: int | None = gross
    if TOTAL_NET in fields:
        expected = None if rake is None or fees is None else gross - rake - fees
    if expected is not None and total == expected:
        return []
    approx = rounded(fields.get(ROUNDED), scale) if TOTAL not in fields else None
    if expected is not None and approx is not None and abs(expected - approx[0]) <= approx[1]:
        return []
    stated = fields.get(ROUNDED) if TOTAL not in fields else (fields.get(TOTAL) if total is None
                                                              else amount_text(total, scale))  # at the hand's scale
    said = f"the site states a total pot of {stated}"
    if expected is None:
        return [Finding("site-total-pot-mismatch", f"{said}, and a rake or fee that cannot be read")]
    how = [f"the settlement's pots total {amount_text(pot_total, scale)}"]
    if added:
        how.append(f"with the {amount_text(added, scale)} the site added")
    if UNCALLED_IN_POT in fields:
        how.append(f"with the uncalled {amount_text(returned_total, scale)} the site counts in")
    if TOTAL_NET in fields:
        how.append("after the rake and fees")
    if len(how) == 1:  # the pots alone: their total is the figure compared
        return [Finding("site-total-pot-mismatch", f"{said}; {how[0]}")]
    return [Finding("site-total-pot-mismatch", f"{said}; {', '.join(how)}: {amount_text(expected, scale)}")]


def _rake_check(fields: dict, pot_total: int, added: int, got: int, rake: int, fees: int,
                scale: int) -> list[Finding]:
    """The stated rake and fees against the pot (with what the site added) less what was collected."""
    if rake + fees == pot_total + added - got:
        return []

    def text(amount: int) -> str:
        return amount_text(amount, scale)
    extra = f" and fees of {text(fees)}" if FEES in fields else ""
    plus = f" + {text(added)} added" if added else ""
    return [Finding("site-rake-mismatch", f"the site states a rake of {text(rake)}{extra}; the pot{plus} less what "
                    f"the players collected is {text(pot_total)}{plus} - {text(got)} = {text(pot_total + added - got)}")]


def site_findings(hand: Hand, pots: Sequence[Pot], returned: Sequence[int],
                  received: Sequence[int] | None) -> list[Finding]:
    """One finding per figure the site states that the settlement does not give (see the module
    docstring); none for a hand that states nothing."""
    fields = hand.fields
    if not fields or (TOTAL not in fields and COLLECTED not in fields and ROUNDED not in fields):
        return _said(fields) if fields and (UNREAD in fields or ENCODING in fields) else []
    scale = hand.scale
    n = hand.players
    out = _said(fields)
    pot_total = 0
    for pot in pots:
        pot_total += pot.amount

    def text(amount: int) -> str:
        return amount_text(amount, scale)

    back_in = UNCALLED_IN_POT in fields  # the site's figures count the uncalled returns in
    added = units(fields.get(ADDED), scale) if ADDED in fields else 0
    fees = _fees(fields, scale)
    rake = units(fields.get(RAKE), scale) if RAKE in fields else None
    total = units(fields.get(TOTAL), scale) if TOTAL in fields else None
    if TOTAL in fields or ROUNDED in fields:
        out.extend(_total_check(fields, pot_total, added, sum(returned) if back_in else 0, rake, fees, scale))
    collected = _list(fields.get(COLLECTED), scale, n)
    if collected is not None and back_in:
        collected = [collected[i] - (returned[i] if i < len(returned) else 0) for i in range(n)]
    cash_out = CASH_OUT in fields
    if rake is not None and fees is not None and collected is not None and not cash_out:
        out.extend(_rake_check(fields, pot_total, added or 0, sum(collected), rake, fees, scale))
    if POTS in fields:
        live = [a for a in _merged(pots, _runs(hand)) if a > 0]
        stated = _list(fields.get(POTS), scale, len(live))
        if stated is None:
            out.append(Finding("site-side-pots-mismatch", f"the site states {len(fields.get(POTS) or [])} pots "
                               f"({', '.join(str(v) for v in fields.get(POTS) or [])}); the settlement has "
                               f"{len(live)} ({', '.join(text(a) for a in live)})"))
        else:
            over = [k for k in range(len(live)) if stated[k] > live[k]]
            for k in over:
                out.append(Finding("site-side-pots-mismatch", f"the site's {'main' if k == 0 else f'side pot {k}'} "
                                   f"is {text(stated[k])}, more than the settlement's {text(live[k])}"))
            if not over and rake is not None and total is not None and sum(stated) + rake != total:
                out.append(Finding("site-side-pots-mismatch", f"the site's pots ({', '.join(text(a) for a in stated)}) "
                                   f"and rake {text(rake)} do not add up to its total pot {text(total)}"))
    back = fields.get(RETURNED)
    if isinstance(back, list) and len(back) == n:
        for i in range(min(n, len(returned))):
            if back[i] == "":  # no "Uncalled bet" line for this player (older logs write none)
                continue
            b = units(back[i], scale)
            if b != returned[i]:
                out.append(Finding("site-uncalled-mismatch", f"the site returns {back[i]} uncalled to p{i + 1}; "
                                   f"the settlement returns {text(returned[i])}", actor=f"p{i + 1}"))
    if collected is not None and received is not None and not cash_out and (RUN_TWICE not in fields
                                                                             or BOARDS in fields):
        for i in range(min(n, len(received))):
            c, r = collected[i], received[i]
            if (c > 0) != (r > 0) or (c > r and not added):  # (a share of what the site added is no pot's)
                said = (f"the site has p{i + 1} collect nothing" if c == 0 else
                        f"the site has p{i + 1} collect {text(c)}" + (" without winning a pot" if r == 0 else ""))
                out.append(Finding("site-collected-mismatch", f"{said}; the settlement awards p{i + 1} {text(r)} "
                                   "before rake", actor=f"p{i + 1}"))
    return out
