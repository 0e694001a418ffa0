"""The catalogue of finding codes (:data:`CODES`): what handaudit can say about a hand.

A finding code works like a lint rule: a stable code, a severity, one sentence saying what it
means, an example PHH fragment, how to fix it, and the rule it enforces in each rulebook.
docs/codes.md (:mod:`handaudit.rules.docs`) and ``handaudit rulebooks --codes`` are generated
from :data:`CODES`; the README's code table is kept by hand (docs/contributing.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.status import ERROR, INFO, WARNING
from ..core.value import init_args


@dataclass(frozen=True, slots=True)
class CodeInfo:
    """Documentation of one finding code (the lint-rule page)."""

    code: str
    severity: str
    summary: str
    example: str = ""
    fix: str = ""
    rules: dict[str, str] = field(default_factory=dict)

    def __reduce__(self) -> tuple:
        return (CodeInfo, init_args(self))  # see handaudit/core/value.py


def _c(code, severity, summary, example="", fix="", **rules) -> CodeInfo:
    return CodeInfo(code, severity, summary, example, fix, rules)


_ALL = "all rulebooks"
CODES: dict[str, CodeInfo] = {
    c.code: c
    for c in [
        # --- reading (the grammar room) ---
        _c("syntax-error", ERROR, "The file, a hand table or an action cannot be parsed.",
           "actions = ['p1 cbr']  # cbr needs an amount", "Write the action as the PHH notation gives it."),
        _c("missing-field", ERROR, "A field required for the variant is absent.",
           "variant = 'FT'  # no small_bet / big_bet", "Add the field; the PHH spec lists the required fields per variant."),
        _c("invalid-field", ERROR, "A field has the wrong type, length or value.",
           "starting_stacks = [200, 'x']", "Give the field the type and per-player length the PHH spec requires."),
        _c("unknown-field", WARNING, "A field the PHH spec does not define (user fields start with `_`).",
           "rake = 0.5", "Rename it `_rake` to mark it as a user field."),
        _c("unknown-variant", ERROR, "A variant code outside the PHH list.",
           "variant = 'NLHE'", "Use one of FT, NT, NS, PO, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D, FB."),
        _c("invalid-card", ERROR, "Bad card notation, or a card not in this variant's deck.",
           "'d db 4sXc5h' ; or 'd db 2s...' in short-deck (NS)", "Ranks 23456789TJQKA, suits cdhs, ?? for unknown."),
        _c("unknown-player", ERROR, "`pN` beyond the player count.",
           "'p9 f' at a 6-player table", "Number players p1..pN in PHH order."),
        _c("duplicate-hand", ERROR, "A .phhs table name used twice; the second hand is not read.",
           "[3] ... [3]", "Give every hand its own table name."),
        _c("no-hands", ERROR, "A .phhs file with no hand table in it.", "an empty hands.phhs",
           "Write each hand as a table `[1]`, `[2]`, ..."),
        _c("unreadable-input", ERROR,
           "An input the system would not let handaudit read: a file or a subdirectory of an input directory "
           "that cannot be opened, listed or read (permission denied, removed during the run, an I/O error), "
           "or an entry with a PHH name that is not a regular file (a dangling symlink, a FIFO, a device). "
           "Each is one unreadable entry of the report, named by its path, with the system's reason; the run "
           "goes on with the other inputs. (A path given on the command line that cannot be read stops the "
           "run before it starts, exit status 2.)",
           "hands/locked/ (mode 000): \"cannot list the directory hands/locked: Permission denied (EACCES); "
           "its files are not read\"; hands/7.phh -> missing.phh: \"a symbolic link to a missing file\"",
           "Make the file or directory readable by the user running handaudit (or remove the stale entry) "
           "and audit it again; the message names the path and the reason."),
        _c("not-phh-file", ERROR,
           "An input file that is not PHH at all: it holds a NUL byte, is not UTF-8 text, or has neither a "
           "TOML table header nor a `key = value` line in its first 64 KiB. The file is one unreadable entry, "
           "the run goes on with the other inputs, and handaudit check writes one line on standard error and "
           "exits with status 2 (whatever --fail-on says). A PHH file with a syntax error is a syntax-error "
           "hand, not this.",
           "random bytes saved as hands.phhs: \"not a PHH file: a NUL byte at offset 17\"",
           "Give handaudit only PHH files (check the file's name and what wrote it)."),
        _c("negative-blind", WARNING,
           "A negative blinds_or_straddles entry: a blind posted from another seat (missed or new-player blind).",
           "blinds_or_straddles = [5, 10, -5, 0, 0]",
           "Nothing to fix: site-log converters write posted blinds this way; handaudit treats it as a post."),
        # --- replay (the validator room) ---
        _c("duplicate-card", ERROR, "The same card dealt twice.", "'d dh p1 AsKd', 'd dh p2 AsQc'",
           "Correct the card that was written twice; a real duplicate in a deck is a misdeal."),
        _c("wrong-card-count", ERROR, "A deal, draw or show of the wrong number of cards.",
           "'d dh p1 AsKdQc' in hold'em (two hole cards)", "Deal the variant's number of cards; a draw replaces "
           "exactly the cards discarded."),
        _c("out-of-turn", ERROR, "A player acts when it is not their turn.",
           "blinds [1, 2, 0, 0]: 'p4 f' before p3 has acted", "Record actions in table order; a skipped player "
           "keeps the turn (TDA Rule 55)."),
        _c("bet-after-check-out-of-turn", ERROR,
           "A player who checked out of turn bets or raises when the action comes back to them. Why: "
           "the early check showed the others a weak hand, so rulebooks that restrict it let that player "
           "only call or fold (Robert's Rules v11, Section 3 rule 11: on the next turn; TDA 2026 Rule 55: "
           "heads-up, for the rest of the round); rulebook parameter check_out_of_turn. Ruled a call.",
           "flop, p1 to act: 'p2 cc' (out of turn), 'p1 cbr 10', 'p2 cbr 30' "
           "(samples/check-out-of-turn-then-raise.phh)",
           "Record the call (or the fold) the player was held to; or audit under the rulebook the game "
           "was played under (--rulebook)."),
        _c("out-of-turn-bet-returned", INFO,
           "A bet or raise made out of turn is given back because a player it passed over then bet or "
           "raised (the action to it changed). Why: under TDA 2026 Rule 55 and WSOP 2023 Live Action "
           "Rules 132 and 133 such a bet is not binding, so its chips go back to its maker, who has all "
           "options, and the next bet is judged as if it had never been made (an opening bet, not a "
           "raise over it); rulebook parameter changed_action_out_of_turn. The out-of-turn action itself "
           "is the out-of-turn finding.",
           "flop, p1 to act: 'p3 cbr 10' (out of turn), 'p1 cbr 6' (samples/out-of-turn-bet-returned.phh: "
           "p3's 10 goes back, p1's 6 is the opening bet)",
           "Nothing to fix if the log records what happened; the replay gives the chips back."),
        _c("premature-deal", ERROR, "A card dealt before the betting round is over, or a deal out of order.",
           "'p1 cbr 10', 'd db AsKdQc' (p2 has not acted)", "Finish the betting round before dealing."),
        _c("action-after-end", ERROR, "An action after the hand is over, or by a player no longer in it.",
           "'p2 f', ..., 'p2 cc'", "Remove the action, or fix who took it."),
        _c("incomplete-hand", INFO, "The history stops before the hand is over.",
           "actions end with 'd db 9s' while two players are still to act", "Nothing, if the log is partial; "
           "the settlement is then undetermined."),
        _c("bet-below-minimum", ERROR, "A bet under the minimum bet, not all-in.",
           "min_bet = 5; river 'p1 cbr 4' (samples/bet-below-minimum.phh)", "Bet at least the big blind "
           "(no-limit, pot-limit) on every street, or go all in."),
        _c("raise-below-minimum", ERROR, "A raise under the minimum raise, not all-in.",
           "'p1 cbr 100', 'p2 cbr 140' (samples/short-raise-call.phh)", "Raise by at least the last full bet "
           "or raise; the rulebook's ruling says what the short raise becomes."),
        _c("betting-not-reopened", ERROR, "A raise by a player facing only a short all-in after having acted.",
           "'p1 cbr 100', 'p2 cc', 'p3 cbr 130' (all in), 'p1 cbr 300' (samples/short-all-in-not-reopened.phh)",
           "The player may only call or fold."),
        _c("raise-cap-exceeded", ERROR, "A fixed-limit raise beyond the rulebook's cap.",
           "'p1 cbr 10', 'p2 cbr 20', 'p3 cbr 30', 'p4 cbr 40', 'p1 cbr 50' (samples/limit-raise-cap.phh)",
           "Call; or audit under the rulebook the game was played under (--rulebook)."),
        _c("over-pot-limit", ERROR, "A pot-limit bet or raise above the pot.",
           "pot 100, 'p1 cbr 50', 'p2 cbr 251' (samples/pot-limit-maximum.phh: 250 is the most)",
           "Raise at most the pot after calling."),
        _c("wrong-limit-amount", ERROR, "A fixed-limit bet or raise not of the fixed size (not all-in).",
           "small_bet = 10: flop 'p1 cbr 15'", "Bet or raise exactly one unit (small bet early, big bet late)."),
        _c("exceeds-stack", ERROR, "A bet or raise larger than the player's stack.",
           "starting_stacks = [100, ...]: 'p1 cbr 150'", "Table stakes: the most a player can bet is all in."),
        _c("wrong-bring-in", ERROR, "The bring-in posted by the wrong player or for the wrong amount.",
           "p1 shows 2c, p2 shows 9d: 'p2 pb'", "The lowest up card brings in (razz: the highest), ties by "
           "suit c < d < h < s."),
        _c("invalid-discard", ERROR, "Discarding cards the player does not hold, or too many.",
           "'d dh p1 7c2c6h8sAh', ..., 'p1 sd Kd'", "Discard only cards in the hand."),
        _c("raise-not-callable", WARNING,
           "A raise when every opponent is all in or folded, so nobody can call it. A warning, not an "
           "error: no chip moves because of it (the excess above the largest all-in comes back as an "
           "uncalled bet, and the settlement returns it), but a live table would not take the raise, so "
           "a log that records one was written by software that did not check the action.",
           "p3 all in for 50, p1 folds, 'p2 cbr 100' (samples/raise-not-callable.phh: 50 returned to p2)",
           "Record a call of the all-in; the settlement is the same."),
        _c("show-mismatch", ERROR, "A player shows cards other than the known cards they were dealt.",
           "'d dh p1 AsKd', ..., 'p1 sm AsQd'", "Show the cards dealt, or fix the deal."),
        _c("unnecessary-fold", WARNING, "A fold when checking was free (TDA: non-standard, the fold stands).",
           "flop, nobody has bet: 'p1 f' (samples/unnecessary-fold.phh)", "Nothing to fix: the fold stands."),
        _c("show-order", WARNING, "Showdown order differs from the rulebook's.",
           "river 'p2 cbr 20', 'p1 cc', 'p1 sm ...' before p2 shows", "The last aggressor shows first."),
        # --- settlement ---
        _c("finishing-stacks-mismatch", ERROR,
           "A recorded finishing stack is not what the hand leaves the player: starting stack, less what they "
           "put in, plus what came back uncalled and their share of the pots after the rake the rake model "
           "allows (docs/rules.md, Rake).",
           "finishing_stacks = [210, 90] where the pots give [200, 100]",
           "Correct the recorded stacks, or set the site's rake structure (rake_percent, rake_cap, ...)."),
        _c("winnings-mismatch", ERROR,
           "A player's recorded winnings are not their share of the pots after the rake: no rake per pot the "
           "rulebook allows (the structure it sets, or with none at most rake_limit_percent of each pot, "
           "none in a hand that ended in its first betting round) gives them, with the other winners' "
           "payouts; the message gives the amount expected and the difference.",
           "winnings = [75, 50, 0] where p1 and p2 split a pot of 150: p1's payout shows no rake, so p2 is "
           "25 short",
           "Correct the recorded winnings, or set the site's rake structure (rake_percent, rake_cap, ...)."),
        _c("winnings-gross", INFO,
           "The recorded winnings include the player's own uncalled bet (gross), not only the chips won "
           "from pots; they match the settlement under that convention.",
           "pot 1.00 won by p2, p2's uncalled 0.50 returned; winnings = [0, 1.50]",
           "Nothing to fix for reading; converters should record pot winnings only (net of the return)."),
        _c("winnings-not-recorded", WARNING,
           "Every recorded winnings entry is 0 although a pot was won: the file does not record the payout "
           "(how some site-log converters write \"not recorded\"), so it is not compared (payout_check "
           "not-recorded, unless finishing stacks are recorded and checked).",
           "pot 3.00 won by p2; winnings = [0, 0, 0]",
           "Nothing to fix for the audit; a converter that knows the payouts should write them (or omit "
           "`winnings`)."),
        _c("internal-error", ERROR,
           "handaudit itself failed on this hand (a bug in handaudit, not in the hand); the other hands are audited.",
           "any hand that makes the audit raise", "Report it with the hand's text; `HANDAUDIT_DEBUG=1` shows "
           "the traceback."),
        _c("chips-not-conserved", ERROR,
           "Recorded results create chips, or lose more than the rake may be (the structure's rake, or with "
           "none the limit summed over the pots).",
           "sum(finishing_stacks) > sum(starting_stacks)", "Correct the recorded results."),
    ]
}

