"""The catalogue of finding codes (:data:`CODES`): what handaudit can say about a hand.

A finding code works like a lint rule: a stable code, a severity, one sentence saying what it
means, why it matters, an example PHH fragment, how to fix it, the sample hand in ``samples/``
that raises it, and the rule it enforces in each rulebook (the rulebook files cite it). The
parameters that change a code's verdict are listed beside the parameters
(``rules/params.py``, ``CODES_CHANGED_BY``). docs/codes.md, the README's code table and
``handaudit rulebooks --codes`` are generated from :data:`CODES` (``handaudit/rules/docs.py``).
"""

from __future__ import annotations

from typing import ClassVar, Final

from ..core.status import ERROR, INFO, WARNING
from ..core.value import Value


_CODE_FIELDS = ("code", "severity", "summary", "why", "example", "fix", "sample", "rules")


class CodeInfo(Value):
    """Documentation of one finding code (the lint-rule page). A value (handaudit/core/value.py),
    not a frozen dataclass, whose generated code would be compiled at every run's start."""

    __slots__ = _CODE_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _CODE_FIELDS

    def __init__(self, code: str, severity: str, summary: str, why: str = "", example: str = "", fix: str = "",
                 sample: str = "", rules: dict[str, str] | None = None) -> None:
        self.code: Final = code
        self.severity: Final = severity
        self.summary: Final = summary  # one sentence: what the code says about a hand
        self.why: Final = why  # why it matters: what goes wrong at a table or in the data
        self.example: Final = example  # a PHH fragment that raises it
        self.fix: Final = fix  # what to change in the file (or why nothing needs to change)
        self.sample: Final = sample  # the file in samples/ that raises it, where one can ("" for reading failures)
        self.rules: Final[dict[str, str]] = {} if rules is None else rules


def _c(code: str, severity: str, summary: str, *, why: str, example: str, fix: str,
       sample: str = "") -> CodeInfo:
    return CodeInfo(code, severity, summary, why, example, fix, sample)


_READ_FAILS = ("The hand cannot be read, so it is not replayed or settled: it is counted as "
               "unreadable, with the line and column, and the other hands of the file are read.")
_RECORD = "A history that contradicts itself cannot be settled with confidence"

CODES: dict[str, CodeInfo] = {
    c.code: c
    for c in [
        # --- reading (the grammar room) ---
        _c("syntax-error", ERROR, "The file, a hand table or an action cannot be parsed.",
           why=_READ_FAILS,
           example="actions = ['p1 cbr']  # cbr needs an amount",
           fix="Write the action as the PHH notation gives it."),
        _c("missing-field", ERROR, "A field required for the variant is absent.",
           why="Without the field (the stakes, the stacks, the actions) the hand's limits and pots are not "
               "defined. " + _READ_FAILS,
           example="variant = 'FT'  # no small_bet / big_bet",
           fix="Add the field; the PHH spec lists the required fields per variant."),
        _c("invalid-field", ERROR, "A field has the wrong type, length or value.",
           why="A per-player field of the wrong length, or a stack that is not an amount, would put chips "
               "on the wrong player or none. " + _READ_FAILS,
           example="starting_stacks = [200, 'x']",
           fix="Give the field the type and per-player length the PHH spec requires."),
        _c("unknown-field", WARNING, "A field the PHH spec does not define.",
           why="A misspelt field (`finishing_stack`) is silently not the field meant; user fields are "
               "marked with a leading `_`, so anything else is likely a mistake. The hand is still audited.",
           example="rake = 0.5",
           fix="Rename it `_rake` to mark it as a user field, or correct the spelling."),
        _c("unknown-variant", ERROR, "A variant code outside the PHH list and handaudit's extension codes.",
           why="The variant decides the deck, the streets and the betting structure: without it no "
               "action can be judged. " + _READ_FAILS,
           example="variant = 'NLHE'",
           fix="Use one of PHH's FT, NT, NS, PO, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D, FB, or one of handaudit's "
               "extension codes (README, 'Variants beyond PHH': PT, PO/8, NO/8, P5O, P5O/8, P6O, PC, F5CD, ...)."),
        _c("invalid-card", ERROR, "Bad card notation, or a card not in this variant's deck.",
           why="A card that cannot exist (a 4 in short-deck, `Xc`) makes every showdown with it "
               "meaningless. " + _READ_FAILS,
           example="'d db 4sXc5h' ; or 'd db 2s...' in short-deck (NS)",
           fix="Ranks 23456789TJQKA, suits cdhs, ?? for unknown."),
        _c("unknown-player", ERROR, "An action names a player `pN` beyond the player count.",
           why="Chips put in by a player who is not at the table cannot be settled. " + _READ_FAILS,
           example="'p9 f' at a 6-player table",
           fix="Number players p1..pN in PHH order."),
        _c("duplicate-hand", ERROR,
           "A hand given twice: a .phhs table name used twice, or the same site hand (venue, table, hand "
           "number) in two places; the second is not read.",
           why="The report's key names a hand by its file and table name, so two hands under one name would "
               "make one unreachable; and one site hand read twice (a log exported twice, overlapping "
               "files) would count its pots, rake and findings twice. The second copy is reported, naming "
               "the first, not audited. A site log's hand is named by its header's hand number and its table "
               "line, as its PHH conversion names it, so a log beside its own conversion is a copy too. "
               "Hands with no venue or no hand number are never compared (hand numbers alone repeat "
               "across files). Checked in input order with --jobs and --engine dask alike.",
           example="[3] ... [3]; or a.phhs and b.phhs both holding venue = 'PokerStars', hand = 2297417432; "
                   "or two PokerStars logs both holding 'PokerStars Hand #2297417432: ...'",
           fix="Give every hand its own table name; audit each site log once."),
        _c("no-hands", ERROR, "A .phhs file with no hand table in it.",
           why="A file that holds no hand is counted once, as unreadable, so that it is not silently "
               "missing from a run's totals.",
           example="an empty hands.phhs",
           fix="Write each hand as a table `[1]`, `[2]`, ..."),
        _c("unreadable-input", ERROR,
           "An input the system would not let handaudit read (a file or directory that cannot be opened, "
           "listed or read, or a PHH-named entry that is not a regular file).",
           why="Permission denied, a file removed during the run, an I/O error, a dangling symlink, a FIFO or "
               "a device: each is one unreadable entry of the report, named by its path, with the system's "
               "reason, so that no input is lost without a word; the run goes on with the other inputs. "
               "(A path given on the command line that cannot be read stops the run before it starts, "
               "exit status 2.)",
           example="hands/locked/ (mode 000): \"cannot list the directory hands/locked: Permission denied "
                   "(EACCES); its files are not read\"; hands/7.phh -> missing.phh: \"a symbolic link to a "
                   "missing file\"",
           fix="Make the file or directory readable by the user running handaudit (or remove the stale entry) "
               "and audit it again; the message names the path and the reason."),
        _c("not-phh-file", ERROR,
           "An input file that is not PHH at all: it holds a NUL byte, is not UTF-8 text, or has neither a "
           "TOML table header nor a `key = value` line in its first 64 KiB.",
           why="Such a file is almost always the wrong file given to handaudit (a binary, an archive, a "
               "site's text log), so besides being one unreadable entry it makes handaudit check write one "
               "line on standard error and exit with status 2, whatever --fail-on says; the run goes on "
               "with the other inputs. A PHH file with a syntax error is a syntax-error hand, not this.",
           example="random bytes saved as hands.phhs: \"not a PHH file: a NUL byte at offset 17\"",
           fix="Give handaudit only PHH files (check the file's name and what wrote it)."),
        _c("negative-blind", WARNING,
           "A negative blinds_or_straddles entry: a blind posted from outside the blind seats.",
           why="Site-log converters write a missed or new player's blind this way; PHH gives negative "
               "entries no meaning, so handaudit says how it read them: as that player's live post.",
           example="blinds_or_straddles = [1, 2, -2, 0]",
           fix="Nothing to fix: handaudit treats it as a post by that player.",
           sample="negative-blind.phh"),
        # --- replay (the validator room) ---
        _c("duplicate-card", ERROR, "The same card dealt twice.",
           why="A deck holds each card once: a duplicate is a defective deck (a misdeal before substantial "
               "action) or a mistake in the log, and any showdown with the card is in doubt.",
           example="'d dh p1 AsKd', 'd dh p2 AsQc'",
           fix="Correct the card that was written twice; a real duplicate in a deck is a misdeal.",
           sample="duplicate-card.phh"),
        _c("wrong-card-count", ERROR, "A deal, draw or show of the wrong number of cards.",
           why="A player with too many or too few cards holds a foul hand (a misdeal before substantial "
               "action); in a log it usually means a lost or merged action.",
           example="'d dh p1 AsKdQc' in hold'em (two hole cards)",
           fix="Deal the variant's number of cards; a draw replaces exactly the cards discarded.",
           sample="wrong-card-count.phh"),
        _c("out-of-turn", ERROR, "A player acts when it is not their turn.",
           why="Acting out of turn gives the players it passes over information they should not have; "
               "the rulebooks say when such an action stands and when it is taken back.",
           example="blinds [1, 2, 0, 0]: 'p4 f' before p3 has acted",
           fix="Record actions in table order; a skipped player keeps the turn (TDA Rule 55).",
           sample="out-of-turn.phh"),
        _c("bet-after-check-out-of-turn", ERROR,
           "A player who checked out of turn bets or raises when the action comes back to them.",
           why="The early check showed the others a weak hand, so rulebooks that restrict it let that "
               "player only call or fold (Robert's Rules v11, Section 3 rule 11: on the next turn; "
               "TDA 2026 Rule 55: heads-up, for the rest of the round). Ruled a call.",
           example="flop, p1 to act: 'p2 cc' (out of turn), 'p1 cbr 10', 'p2 cbr 30'",
           fix="Record the call (or the fold) the player was held to; or audit under the rulebook the game "
               "was played under (--rulebook).",
           sample="check-out-of-turn-then-raise.phh"),
        _c("out-of-turn-bet-returned", INFO,
           "A bet or raise made out of turn is given back because a player it passed over then bet or raised.",
           why="Under TDA 2026 Rule 55 and WSOP 2023 Live Action Rules 132 and 133 an out-of-turn bet is not "
               "binding once the action to it changes: its chips go back to its maker, who has all options, "
               "and the next bet is judged as if it had never been made (an opening bet, not a raise over "
               "it). The out-of-turn action itself is the out-of-turn finding.",
           example="flop, p1 to act: 'p3 cbr 10' (out of turn), 'p1 cbr 6' (p3's 10 goes back, p1's 6 is the "
                   "opening bet)",
           fix="Nothing to fix if the log records what happened; the replay gives the chips back.",
           sample="out-of-turn-bet-returned.phh"),
        _c("raise-after-call-out-of-turn", ERROR,
           "A player who called out of turn raises when the action comes back to them changed.",
           why="Robert's Rules v11, Section 3 rule 11 holds a player who called out of turn to that call: "
               "when a raise comes round, they may not change the wager to a raise (call or fold only). "
               "The TDA (Rule 55), the WSOP (rule 132) and the house give all options. Ruled a call.",
           example="blinds [1, 2, 0, 0]: 'p4 cc' (out of turn), 'p3 cbr 6', 'p4 cbr 20'",
           fix="Record the call (or the fold) the player was held to; or audit under the rulebook the game "
               "was played under (--rulebook).",
           sample="call-out-of-turn-then-raise.phh"),
        _c("turn-lost-after-substantial-action", INFO,
           "A player passed over by an out-of-turn action loses the turn once substantial action has followed.",
           why="A skipped player must speak up to keep the turn. Once substantial action has followed the "
               "skip (TDA 2026 Rules 38 and 55: three actions, or two with chips in; Robert's Rules v11, "
               "Section 3 rule 12: three players; WSOP 2023 Live Action Rule 133: two players), the "
               "out-of-turn action stands: an out-of-turn bet is no longer returned, and the turn goes on "
               "round the table instead of back to the skipped player. The skip itself is the out-of-turn "
               "finding.",
           example="flop, p1 to act: 'p2 cbr 10' (out of turn), 'p3 f': p2's bet stands (TDA, WSOP)",
           fix="Nothing to fix if the log records what happened; the rulebook's substantial_action_count "
               "and substantial_action_chips say when the turn is lost.",
           sample="substantial-action-bet-stands.phh"),
        _c("premature-deal", ERROR, "A card dealt before the betting round is over, or a deal out of order.",
           why="Cards dealt before the round is finished do not play: the round is finished first and the "
               "cards are dealt again; a log that shows it has lost an action or has them out of order.",
           example="'p3 cbr 6', 'p1 f', 'd db 2c3c4d' (p2 has not acted)",
           fix="Finish the betting round before dealing.",
           sample="premature-deal.phh"),
        _c("action-after-end", ERROR, "An action after the hand is over, or by a player no longer in it.",
           why="A folded hand is dead and nothing is acted on once the hand is over; such an action has no "
               "effect, and in a log it means a wrong player or a lost action.",
           example="'p1 f', ..., 'p1 cc'",
           fix="Remove the action, or fix who took it.",
           sample="action-after-end.phh"),
        _c("incomplete-hand", INFO, "The history stops before the hand is over.",
           why="A partial history cannot say who won: its actions are judged, but its settlement is "
               "undetermined and its payouts are not compared.",
           example="actions end with 'd db 9s' while two players are still to act",
           fix="Nothing, if the log is partial; the settlement is then undetermined.",
           sample="short-all-ins-add-up.phh"),
        _c("bet-below-minimum", ERROR, "A bet under the minimum bet, not all-in.",
           why="The minimum bet keeps the betting structure the game was sold as; a smaller bet that is "
               "not all-in is not a legal bet.",
           example="min_bet = 5; river 'p1 cbr 4'",
           fix="Bet at least the big blind (no-limit, pot-limit) on every street, or go all in.",
           sample="bet-below-minimum.phh"),
        _c("raise-below-minimum", ERROR, "A raise under the minimum raise, not all-in.",
           why="A raise must be at least the last full bet or raise, so that a small raise cannot reopen "
               "the betting; the rulebooks differ on what a short raise becomes (a call, or a full raise).",
           example="'p1 cbr 100', 'p2 cbr 140'",
           fix="Raise by at least the last full bet or raise; the rulebook's ruling says what the short "
               "raise becomes.",
           sample="short-raise-call.phh"),
        _c("betting-not-reopened", ERROR, "A raise by a player facing only a short all-in after having acted.",
           why="An all-in for less than a full raise does not reopen the betting to players who have "
               "already acted: they may only call or fold.",
           example="'p1 cbr 100', 'p2 cc', 'p3 cbr 130' (all in), 'p1 cbr 300'",
           fix="The player may only call or fold.",
           sample="short-all-in-not-reopened.phh"),
        _c("raise-cap-exceeded", ERROR, "A fixed-limit raise beyond the rulebook's cap.",
           why="Fixed-limit games cap the raises per round (the number, and when heads-up play uncaps it, "
               "differ per rulebook); a raise past the cap is ruled a call.",
           example="'p1 cbr 10', 'p2 cbr 20', 'p3 cbr 30', 'p4 cbr 40', 'p1 cbr 50'",
           fix="Call; or audit under the rulebook the game was played under (--rulebook).",
           sample="limit-raise-cap.phh"),
        _c("over-pot-limit", ERROR, "A pot-limit bet or raise above the pot.",
           why="In pot-limit the most a player may raise is the pot after calling; a larger bet is cut "
               "back to the pot.",
           example="pot 100, 'p1 cbr 50', 'p2 cbr 251' (250 is the most)",
           fix="Raise at most the pot after calling.",
           sample="pot-limit-maximum.phh"),
        _c("wrong-limit-amount", ERROR, "A fixed-limit bet or raise not of the fixed size (not all-in).",
           why="In fixed-limit every bet and raise is one unit of the street's size; any other amount is "
               "not a legal bet and is ruled the fixed size.",
           example="small_bet = 10: flop 'p1 cbr 15'",
           fix="Bet or raise exactly one unit (small bet early, big bet late).",
           sample="wrong-limit-amount.phh"),
        _c("exceeds-stack", ERROR, "A bet or raise larger than the player's stack.",
           why="Table stakes: a player can bet only the chips in front of them, so the bet is ruled all in; "
               "a log that records more has the wrong stack or the wrong amount.",
           example="starting_stacks = [100, ...]: 'p1 cbr 150'",
           fix="Table stakes: the most a player can bet is all in.",
           sample="exceeds-stack.phh"),
        _c("wrong-bring-in", ERROR, "The bring-in posted by the wrong player or for the wrong amount.",
           why="In stud the up cards name who brings in; the wrong player bringing in changes who acts "
               "first on every later action of the round.",
           example="p1 shows 2c, p2 shows 9d: 'p2 pb'",
           fix="The lowest up card brings in (razz: the highest), ties by suit c < d < h < s.",
           sample="wrong-bring-in.phh"),
        _c("invalid-discard", ERROR, "Discarding cards the player does not hold, or too many.",
           why="A player may discard only cards they hold, and no more than the game allows; anything else "
               "leaves the hand with cards it was never dealt.",
           example="'d dh p1 7c2c6h8sAh', ..., 'p1 sd Kd'",
           fix="Discard only cards in the hand.",
           sample="invalid-discard.phh"),
        _c("raise-not-callable", WARNING,
           "A raise when every opponent is all in or folded, so nobody can call it.",
           why="No chip moves because of it (the excess above the largest all-in comes back as an uncalled "
               "bet, and the settlement returns it), but a live table would not take the raise, so a log "
               "that records one was written by software that did not check the action.",
           example="p3 all in for 50, p1 folds, 'p2 cbr 100' (50 returned to p2)",
           fix="Record a call of the all-in; the settlement is the same.",
           sample="raise-not-callable.phh"),
        _c("show-mismatch", ERROR, "A player shows cards other than the known cards they were dealt.",
           why=_RECORD + ": the showdown would be judged on cards the player never held.",
           example="'d dh p1 AsKd', ..., 'p1 sm AsQd'",
           fix="Show the cards dealt, or fix the deal.",
           sample="show-mismatch.phh"),
        _c("unnecessary-fold", WARNING, "A fold when checking was free.",
           why="The TDA calls it non-standard (the fold stands, but it can help a partner by showing "
               "weakness); other rulebooks say nothing, so there it is only information.",
           example="flop, nobody has bet: 'p1 f'",
           fix="Nothing to fix: the fold stands.",
           sample="unnecessary-fold.phh"),
        _c("show-order", WARNING, "Showdown order differs from the rulebook's.",
           why="The last aggressor shows first (with no bet on the last round, the first player left of "
               "the button), so that a player who was called cannot wait to see the other hand.",
           example="river 'p2 cbr 20', 'p1 cc', 'p1 sm ...' before p2 shows",
           fix="The last aggressor shows first.",
           sample="show-order.phh"),
        # --- settlement ---
        _c("finishing-stacks-mismatch", ERROR,
           "A recorded finishing stack is not what the hand leaves the player.",
           why="What the hand leaves is the starting stack, less what the player put in, plus what came "
               "back uncalled and their share of the pots after the rake the rake model allows "
               "(docs/rules.md, Rake); a different recorded stack means chips went to the wrong player.",
           example="finishing_stacks = [210, 90] where the pots give [200, 100]",
           fix="Correct the recorded stacks, or set the site's rake structure (rake_percent, rake_cap, ...).",
           sample="finishing-stacks-mismatch.phh"),
        _c("winnings-mismatch", ERROR,
           "A player's recorded winnings are not their share of the pots after the rake.",
           why="No rake per pot the rulebook allows (the structure it sets, or with none at most "
               "rake_limit_percent of each pot, none in a hand that ended in its first betting round) gives "
               "them, with the other winners' payouts: a pot was paid to the wrong player or in the wrong "
               "amount. The message gives the amount expected and the difference.",
           example="winnings = [75, 50, 0] where p1 and p2 split a pot of 150: p1's payout shows no rake, so "
                   "p2 is 25 short",
           fix="Correct the recorded winnings, or set the site's rake structure (rake_percent, rake_cap, ...).",
           sample="rake-split-pot-short.phh"),
        _c("payouts-follow-record", WARNING,
           "The recorded payouts follow an action as recorded, not the ruling the rulebook makes of it.",
           why="A ruling changed an action (a raise ruled a call, an amount cut back) and the history went on "
               "as recorded, so the table paid the pots of the recorded action. The settlement keeps the "
               "ruling: the payouts differ from it by what the ruling changes, and this one finding says by "
               "how much (instead of a mismatch per player); the ruling itself is the action's error.",
           example="TDA, fixed limit: a fourth raise to 50 ruled a call of 40, the opponent calls 50 and the "
                   "side pot of 80 is paid as recorded: under the ruling it is 60",
           fix="Nothing in the file, if it records what happened; audit under the rulebook the game was played "
               "under (--rulebook) if the table allowed the action.",
           sample="limit-cap-all-in-not-counted.phh"),
        _c("winnings-gross", INFO,
           "The recorded winnings include the player's own uncalled bet (gross), not only the chips won from pots.",
           why="PHH's winnings are chips won from pots; some converters add the winner's returned bet. Read "
               "that way they match the settlement, so this is information about the file's convention.",
           example="pot 1.00 won by p2, p2's uncalled 0.50 returned; winnings = [0, 1.50]",
           fix="Nothing to fix for reading; converters should record pot winnings only (net of the return).",
           sample="winnings-gross.phh"),
        _c("winnings-not-recorded", WARNING,
           "Every recorded winnings entry is 0 although a pot was won: the payout is not recorded.",
           why="Some site-log converters write \"not recorded\" as all zeros; comparing them would call every "
               "such hand a mismatch, so they are not compared (payout_check not-recorded, unless finishing "
               "stacks are recorded and checked).",
           example="pot 3.00 won by p2; winnings = [0, 0, 0]",
           fix="Nothing to fix for the audit; a converter that knows the payouts should write them (or omit "
               "`winnings`).",
           sample="winnings-not-recorded.phh"),
        _c("internal-error", ERROR,
           "handaudit itself failed on this hand (a bug in handaudit, not in the hand).",
           why="One hand that makes handaudit fail must not stop the audit of the others or vanish from the "
               "report: it becomes this finding, and the run goes on.",
           example="any hand that makes the audit raise",
           fix="Report it with the hand's text; `HANDAUDIT_DEBUG=1` shows the traceback."),
        _c("chips-not-conserved", ERROR,
           "Recorded results create chips, or lose more than the rake may be.",
           why="Chips at a table are only moved, never made: recorded results that add up to more than the "
               "players brought, or to less by more than the rake (the structure's, or with none the limit "
               "summed over the pots), cannot be right whoever won.",
           example="sum(finishing_stacks) > sum(starting_stacks)",
           fix="Correct the recorded results.",
           sample="rake-no-flop-no-drop.phh"),
        # --- site logs (the importers room) ---
        _c("site-unknown-line", WARNING,
           "A line of a site's hand history that is neither an action, nor a table event, nor a figure the importer knows.",
           why="A line nobody reads may say something the audit should know; it is named with its line number so "
               "it can be looked at. It names no seated player as the one who acted, so it cannot have moved chips: "
               "the hand is still audited (and a converted .phhs keeps the warning, as `_site_unread`).",
           example="PokerStars: 'The dealer wiggles the deck' between the actions",
           fix="Check the file for damage; if the site writes such lines, the importer needs them (report it).",
           sample="pokerstars-unknown-line.txt"),
        _c("site-unreadable-line", ERROR,
           "A line that names a seated player as acting (\"NAME: ...\"), the header, or an amount cannot be read.",
           why="\"NAME: ...\" is how a site writes what a player did; one the importer cannot read may have put "
               "chips in or taken them out, so the hand is not replayed from a guess: it is unreadable, named "
               "with the line. The rest of the file is read.",
           example="PokerStars: 'Tunks2: wiggles $5' between the actions",
           fix="Check the file for damage; if the site writes such lines, the importer needs them (report it).",
           sample="pokerstars-unreadable-line.txt"),
        _c("site-format-not-read", ERROR,
           "A hand of another site's format, which handaudit has no importer for.",
           why="A file of another site's logs is said to be one, once per hand header it holds (each an unreadable "
               "entry naming the site and the hand number), so that no hand is passed over in silence or folded "
               "into one entry with the others.",
           example="a Full Tilt Poker log: 'Full Tilt Poker Game #33286946295: Table Iowa (heads up) - ...'",
           fix="Convert the hands to PHH with a tool that reads that site's format, and audit the PHH files.",
           sample="foreign-site.txt"),
        _c("site-tournament-summary", INFO,
           "A PokerStars tournament summary (no hand): read into the tournaments output, not audited as a hand.",
           why="A summary file states a tournament's buy-in, entrants and each finish and prize; it holds no hand, "
               "so `check` never counts it as one (it writes it to the tournaments output). Read one hand at a "
               "time (explain, convert, the library's audit), it is named with this reason.",
           example="'PokerStars Tournament #2030617466, No Limit Hold'em' and its 'Buy-In:' and finish lines",
           fix="Nothing to fix: `handaudit check` reads it into the tournaments output."),
        _c("site-unknown-player", ERROR,
           "A site's action, post, deal or collection names someone who is not in the hand's seat list.",
           why="Names are read against the seat list, never guessed; chips put in or won by someone not seated "
               "cannot be placed, so the hand is unreadable with the lines that name them.",
           example="Seat 4: Blahdi:42eblah ($22.99 in chips) ... 'Blahdieblah: posts big blind $0.16'",
           fix="Restore the names as the site wrote them.",
           sample="pokerstars-unknown-player.txt"),
        _c("site-truncated-hand", ERROR,
           "A site's hand stops before its summary, or has fewer than two players dealt in.",
           why="A hand cut short cannot be settled against what the site stated; it is unreadable at the line "
               "where it stops, and the next hand of the file is read.",
           example="a PokerStars hand whose text ends after the river's actions",
           fix="Export the hand again from the site.",
           sample="pokerstars-truncated-hand.txt"),
        _c("site-game-not-phh", ERROR,
           "The site's game has no variant code, in PHH or among handaudit's extension codes, so the hand "
           "cannot be replayed.",
           why="A game is replayed under its variant's rules (deck, streets, betting, showdown). handaudit reads "
               "PHH's 11 codes and its own extension codes (README, 'Variants beyond PHH': Omaha hi/lo, 5- and "
               "6-card Omaha, Courchevel, 5-card draw, pot-limit hold'em, the draw games in every structure); a "
               "game outside them, or a structure the site names that no code has (stud is fixed limit), is "
               "counted unreadable with this reason.",
           example="PokerStars 'Triple Draw A-5 Lowball Limit', '5 Card Stud Limit', '7 Card Stud Pot Limit'",
           fix="Nothing to fix in the file; handaudit would need a variant for the game.",
           sample="pokerstars-game-not-phh.txt"),
        _c("site-cap-game", WARNING,
           "A capped no-limit game: PHH has no betting cap.",
           why="A player who reaches the cap stops betting while the replay thinks they could go on, so the "
               "replay's findings after the cap may come from the cap, not from the players.",
           example="PokerStars 'Hold'em No Limit ($0.25/$0.50 - $20 Cap - USD)'",
           fix="Nothing to fix in the file; read the replay's findings after the cap with this in mind.",
           sample="pokerstars-cap-game.txt"),
        _c("site-run-twice", WARNING,
           "The site ran the board twice (or more): each pot is split between the runs and each share settled "
           "on its own run's board.",
           why="PHH holds one board, so the first run is replayed; the site's boards are kept in `_site_boards` "
               "and each pot is split as the site splits it (equal shares, an odd unit to the earlier runs), each "
               "share awarded on its run's board, and the payouts compared with what the site paid. Without both "
               "boards only the totals are compared.",
           example="PokerStars '*** FIRST RIVER *** ... *** SECOND RIVER ***', 'Hand was run twice'",
           fix="Nothing to fix in the file.",
           sample="pokerstars-run-twice.txt"),
        _c("site-cash-out", WARNING,
           "A player cashed out the hand: the site paid them a sum instead of the pot, which it then awarded.",
           why="With a cash-out (all-in insurance the site sells) the player is paid the cash-out, and the pot "
               "they win goes to the site; the summary says which pot that was ('won ($X) ... pot not awarded "
               "as player cashed out'), and that is compared with the settlement like any payout.",
           example="PokerStars 'm788 cashed out the hand for $26.10 | Cash Out Fee $0.26'",
           fix="Nothing to fix in the file.",
           sample="pokerstars-cash-out.txt"),
        _c("site-hand-cancelled", WARNING,
           "The site cancelled the hand.",
           why="A cancelled hand awards nothing; it is settled as far as it went, and with fewer than two "
               "players dealt in it is unreadable with this reason.",
           example="PokerStars 'Hand cancelled'",
           fix="Nothing to fix in the file.",
           sample="pokerstars-hand-cancelled.txt"),
        _c("site-encoding", INFO,
           "The site's file is not UTF-8: it was read as Windows-1252.",
           why="Older logs were written in a single-byte code page; a name with letters outside it may read "
               "wrong, which matters when names are matched across hands.",
           example="a 2008 PokerStars file with the byte 0xe9 in a name",
           fix="Nothing to fix; export the logs again as UTF-8 if names matter.",
           sample="pokerstars-encoding.txt"),
        _c("site-total-pot-mismatch", ERROR,
           "The total pot the site's summary states is not the settlement's pot total.",
           why="The pot is the chips put in less the uncalled returns; a site that states another total has "
               "either lost a line of the history or written a wrong summary, and its payouts cannot be trusted.",
           example="PokerStars 'Total pot $1.27 | Rake $0.06' where the actions put in $1.30",
           fix="The history's actions or the site's summary are wrong: check the hand.",
           sample="pokerstars-total-pot-mismatch.txt"),
        _c("site-side-pots-mismatch", ERROR,
           "The main and side pots the site's summary states do not match the settlement's pots.",
           why="Another number of pots, a stated pot larger than the settlement's, or pots and rake that do not "
               "add up to the total mean the site split the all-ins differently from the rules.",
           example="PokerStars 'Main pot $30.37. Side pot $7.91.' where the settlement has one pot",
           fix="Check the all-ins and the stacks.",
           sample="pokerstars-side-pots-mismatch.txt"),
        _c("site-rake-mismatch", ERROR,
           "The rake the site states is not the pot less what the players collected.",
           why="The stated rake makes the payout check exact; a rake that does not add up with the collections "
               "means chips were taken or given that the history does not show.",
           example="PokerStars 'Total pot $41 | Rake $2.05' with $38.00 collected",
           fix="The site's figures disagree with each other: check the hand.",
           sample="pokerstars-rake-mismatch.txt"),
        _c("site-collected-mismatch", ERROR,
           "A player's 'collected' lines do not fit the settlement's award to that player.",
           why="Collecting without winning a pot, winning and collecting nothing, or collecting more than was "
               "won: the site paid someone the cards shown do not make the winner.",
           example="PokerStars 'LovID collected $1.21 from pot' where the settlement gives the pot to another player",
           fix="Check the showdown: the shown cards and the winner.",
           sample="pokerstars-collected-mismatch.txt"),
        _c("site-uncalled-mismatch", ERROR,
           "An 'Uncalled bet ... returned to' line is not the return the settlement computes.",
           why="An uncalled bet returned wrong moves chips between the pot and the bettor; the pot and every "
               "payout after it are then off by the difference.",
           example="PokerStars 'Uncalled bet ($0.95) returned to LovID' where the call left $0.90 uncalled",
           fix="Check the bets and calls of the last street.",
           sample="pokerstars-uncalled-mismatch.txt"),
        # --- across hands (the sessions room: handaudit/sessions, the `session_findings` table) ---
        _c("stack-not-carried", ERROR,
           "A player starts a hand with a stack other than the one they finished the previous hand with.",
           why="Chips are created or lost between hands (or a top-up, rebuy or add-on went unrecorded): the "
               "table's money does not add up across hands, whatever each hand says.",
           example="[1] finishing_stacks = [210, 190]  then  [2] players = the same, starting_stacks = [200, 190]",
           fix="Find the hand or the event between the two hands (a top-up, a chip transfer) that explains the "
               "difference; record it, or correct the stack.",
           sample="sessions/stack-not-carried.phhs"),
        _c("stack-added-unrecorded", WARNING,
           "A cash-game player starts a hand with more than they finished the previous one with, and no top-up is recorded.",
           why="Chips came to the table between hands: a top-up or rebuy the log does not record (PHH has no field "
               "for one), or chips created; the session's money does not add up without it.",
           example="[1] finishing_stacks = [270, 330]  then  [2] starting_stacks = [300, 330]",
           fix="Record the top-up (a site log's line), or correct the stack.",
           sample="sessions/stack-added-unrecorded.phhs"),
        _c("hand-missing", WARNING,
           "Stacks that reconcile only with a hand between the two (chips moved between players, or the button moved two seats).",
           why="A dataset with a hand missing loses the money of that hand: every total over the session is off "
               "by it, and the next hand seems to start from the wrong stacks.",
           example="[1] seats = [1, 2, 3] ...  [2] (missing)  [3] the big blind two seats on and stacks changed",
           fix="Find the missing hand in the source logs and add it.",
           sample="sessions/hand-missing.phhs"),
        _c("hand-number-gap", WARNING,
           "Hand numbers skip where the site numbers each table's hands one by one.",
           why="A gap in a table's own numbering is a hand missing from the log or the dataset.",
           example="hand = 'R5-1704660-533'  then  hand = 'R5-1704660-535'",
           fix="Find the missing hands in the source logs and add them.",
           sample="sessions/hand-number-gap.phhs"),
        _c("seat-changed", WARNING,
           "A player sits in another seat in the next hand without leaving and joining.",
           why="A seat change moves the blinds a player owes; unrecorded, it hides a player dodging the blinds or "
               "a history that confuses two players.",
           example="[1] seats = [1, 2, 3] players = ['a', 'b', 'c']  then  [2] seats = [1, 2, 4], 'c' in seat 4",
           fix="Record the player leaving and joining (or the seat change), or correct the seats.",
           sample="sessions/seat-changed.phhs"),
        _c("top-up-over-limit", WARNING,
           "A recorded top-up, rebuy or add-on takes a stack above the table's maximum buy-in.",
           why="A table's buy-in limits bound what a player may bring in; above it, the game is not the one "
               "advertised.",
           example="a top-up of 150 to a stack of 100 at a table whose maximum buy-in is 200",
           fix="Check the top-up's amount and the table's limits (PHH records neither: a site log's table events "
               "and stated limits raise it)."),
        _c("button-out-of-order", ERROR,
           "The button did not move to the next seat with a player (moving-button rule).",
           why="A button that skips or goes back makes players pay the blinds out of turn: someone pays twice, "
               "someone not at all.",
           example="[1] seats = [1, 2, 3] (button seat 3)  then  [2] seats = [2, 3, 1] (button seat 1 expected, seat 2 seen)",
           fix="Check the hands' seats and the order of the players; a hand may be missing or misordered.",
           sample="sessions/button-out-of-order.phhs"),
        _c("big-blind-out-of-order", ERROR,
           "The big blind did not move to the next seat with a player (dead-button rule).",
           why="Under the dead-button rule every player pays the big blind once per round; a big blind that "
               "skips or goes back charges a player twice or lets one off.",
           example="[1] big blind seat 2  then  [2] big blind seat 4 while seat 3 holds a player",
           fix="Check the hands' seats and blinds; a hand may be missing or misordered.",
           sample="sessions/big-blind-out-of-order.phhs"),
        _c("missed-blind-not-posted", ERROR,
           "A player back after missing the big blind is dealt in without posting what the rule requires.",
           why="Sitting out the blinds and coming back without posting is dodging the blinds: the player plays "
               "hands without paying for them.",
           example="'c' sits out while the big blind passes seat 3, then is dealt in at the button with no post",
           fix="Record the player's post (a negative blinds_or_straddles entry for a dead post), or deal them in "
               "at the big blind.",
           sample="sessions/missed-blind-not-posted.phhs"),
        _c("new-player-not-posted", WARNING,
           "A player joining the session is dealt in without posting the big blind or waiting for it.",
           why="A new player who neither posts nor waits for the big blind plays a round without paying it.",
           example="'d' joins at seat 4 and is dealt in on the button, blinds_or_straddles entry 0",
           fix="Record the new player's post, or check that they were dealt in only at the big blind.",
           sample="sessions/new-player-not-posted.phhs"),
        _c("blinds-went-down", ERROR,
           "A tournament table's blind level or big blind falls from one hand to the next.",
           why="A tournament's structure only rises; a level that goes back is a misordered history or a table "
               "playing the wrong level.",
           example="[1] level = 5  then  [2] level = 4, same event and table",
           fix="Check the hands' order and their level fields.",
           sample="sessions/blinds-went-down.phhs"),
    ]
}
