"""The PokerStars importer over every file of the shared samples (../shared/corpus/sites/pokerstars).

Per hand: its status, PHH variant, players, actions and the finding codes of its audit under
TDA 2026 (the table below, checked by hand against each source text: what a clean hand gives,
and for the others which finding says why). Then the site's own totals: every hand whose payout
the site states reconciles exactly (``rake_check`` exact, no ``site-*-mismatch``) but the two
whose summary contradicts their own lines. And a few hands in full detail.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from handaudit.core.hand import BET_RAISE, CHECK_CALL, FOLD
from handaudit.importers import read_any
from handaudit.importers.inputs import expand_inputs, read_inputs
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

SITES = CORPUS / "sites" / "pokerstars"

# (file, hand key, status, variant, players, actions, finding codes)
HANDS = [
    ('hhsmithy/CashGame/BlindActionTests/Ante.txt', '', 'unreadable', None, None, None, ('site-unreadable-line',)),
    ('hhsmithy/CashGame/BlindActionTests/Ignore.txt', '', 'unreadable', None, None, None, ('site-unreadable-line',)),
    ('hhsmithy/CashGame/ExtraHands/DateIssue1.txt', '1', 'valid', 'NT', 4, 8, ()),
    ('hhsmithy/CashGame/ExtraHands/DateIssue2.txt', '1', 'valid', 'NT', 7, 15, ('site-cap-game',)),
    ('hhsmithy/CashGame/ExtraHands/MucksHand.txt', '1', 'valid', 'PO/8', 6, 25, ()),
    ('hhsmithy/CashGame/ExtraHands/PlayerNameWithSlashesAndSquareBrackets.txt', '1', 'valid', 'NT', 4, 20, ('site-cap-game',)),
    ('hhsmithy/CashGame/ExtraHands/PlayerWithColon.txt', '1', 'valid', 'NT', 9, 29, ()),
    ('hhsmithy/CashGame/ExtraHands/ShowsDownSingleCard.txt', '1', 'valid', 'FT', 6, 28, ()),
    ('hhsmithy/CashGame/ExtraHands/SidePot.txt', '1', 'valid', 'NT', 8, 36, ()),
    ('hhsmithy/CashGame/ExtraHands/TableNameWithDash.txt', '1', 'valid', 'PO', 2, 3, ()),
    ('hhsmithy/CashGame/ExtraHands/ZoomHand.txt', '1', 'valid', 'PO', 6, 24, ()),
    ('hhsmithy/CashGame/GameTypeTests/CapNoLimitHoldem.txt', '1', 'valid', 'NT', 3, 5, ('site-cap-game',)),
    ('hhsmithy/CashGame/GameTypeTests/FixedLimitHoldem.txt', '1', 'valid', 'FT', 9, 18, ()),
    ('hhsmithy/CashGame/GameTypeTests/NoLimitHoldem.txt', '1', 'valid', 'NT', 6, 12, ()),
    ('hhsmithy/CashGame/GameTypeTests/NoLimitOmahaHiLo.txt', '1', 'valid', 'NO/8', 6, 32, ()),
    ('hhsmithy/CashGame/GameTypeTests/PotLimitHoldem.txt', '1', 'valid', 'PT', 2, 9, ()),
    ('hhsmithy/CashGame/GameTypeTests/PotLimitOmaha.txt', '1', 'valid', 'PO', 2, 8, ()),
    ('hhsmithy/CashGame/GameTypeTests/PotLimitOmahaHiLo.txt', '1', 'valid', 'PO/8', 2, 15, ()),
    ('hhsmithy/CashGame/GeneralHands/GeneralHand.txt', '1', 'valid', 'NT', 6, 17, ()),
    ('hhsmithy/CashGame/GeneralHands/HeroName.txt', '1', 'valid', 'NT', 6, 23, ()),
    ('hhsmithy/CashGame/GeneralHands/SidePot.txt', '1', 'valid', 'NT', 6, 26, ()),
    ('hhsmithy/CashGame/GeneralHands/ZoomHand.txt', '1', 'valid', 'NT', 6, 12, ()),
    ('hhsmithy/CashGame/HandActionTests/3BetHand.txt', '1', 'valid', 'NT', 6, 13, ()),
    ('hhsmithy/CashGame/HandActionTests/AllInHandWithShowdown.txt', '1', 'valid', 'NT', 5, 19, ()),
    ('hhsmithy/CashGame/HandActionTests/BasicHand.txt', '1', 'valid', 'NT', 6, 24, ()),
    ('hhsmithy/CashGame/HandActionTests/BigBlindOptionRaisesOption.txt', '1', 'valid', 'NT', 2, 12, ()),
    ('hhsmithy/CashGame/HandActionTests/FoldedPreflop.txt', '1', 'valid', 'NT', 2, 5, ()),
    ('hhsmithy/CashGame/HandActionTests/LeavesTableMidHand.txt', '1', 'valid', 'NT', 6, 12, ()),
    ('hhsmithy/CashGame/HandActionTests/NeedsRaiseAdjusting.txt', '1', 'valid', 'FO/8', 7, 38, ()),
    ('hhsmithy/CashGame/HandActionTests/OmahaHiLo.txt', '1', 'valid', 'PO/8', 6, 27, ('negative-blind',)),
    ('hhsmithy/CashGame/HandActionTests/StrangePlayerNames.txt', '1', 'valid', 'PO/8', 5, 10, ()),
    ('hhsmithy/CashGame/HandActionTests/UncalledBet.txt', '1', 'valid', 'PO/8', 5, 10, ()),
    ('hhsmithy/CashGame/Limits/AnteTable.txt', '1', 'invalid', 'NT', 6, 12, ('chips-not-conserved', 'site-rake-mismatch', 'site-total-pot-mismatch', 'winnings-mismatch')),
    ('hhsmithy/CashGame/Limits/EuroTable.txt', '1', 'valid', 'NT', 5, 15, ()),
    ('hhsmithy/CashGame/Limits/GbpTable.txt', '1', 'valid', 'NT', 2, 4, ()),
    ('hhsmithy/CashGame/Limits/Limit1.txt', '1', 'valid', 'NT', 3, 21, ()),
    ('hhsmithy/CashGame/Limits/Limit2.txt', '1', 'valid', 'NT', 8, 24, ()),
    ('hhsmithy/CashGame/Limits/Limit3.txt', '1', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/Limits/Limit4.txt', '1', 'valid', 'NT', 6, 26, ()),
    ('hhsmithy/CashGame/Limits/Limit5.txt', '1', 'valid', 'NT', 4, 16, ()),
    ('hhsmithy/CashGame/Limits/Limit6.txt', '1', 'valid', 'NT', 2, 5, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '1', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '2', 'valid', 'NT', 7, 27, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '3', 'valid', 'NT', 7, 20, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '4', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '5', 'valid', 'NT', 9, 17, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '6', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '7', 'valid', 'NT', 9, 28, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '8', 'valid', 'NT', 8, 16, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '9', 'valid', 'NT', 8, 19, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/10MultipleHands.txt', '10', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '1', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '2', 'valid', 'NT', 7, 27, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '3', 'valid', 'NT', 7, 20, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '4', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '5', 'valid', 'NT', 9, 17, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '6', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '7', 'valid', 'NT', 9, 28, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '8', 'valid', 'NT', 8, 16, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '9', 'valid', 'NT', 8, 19, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '10', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '11', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '12', 'valid', 'NT', 7, 27, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '13', 'valid', 'NT', 7, 20, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '14', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '15', 'valid', 'NT', 9, 17, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '16', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '17', 'valid', 'NT', 9, 28, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '18', 'valid', 'NT', 8, 16, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '19', 'valid', 'NT', 8, 19, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '20', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '21', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '22', 'valid', 'NT', 7, 27, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '23', 'valid', 'NT', 7, 20, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '24', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '25', 'valid', 'NT', 9, 17, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '26', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '27', 'valid', 'NT', 9, 28, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '28', 'valid', 'NT', 8, 16, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '29', 'valid', 'NT', 8, 19, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '30', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '31', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '32', 'valid', 'NT', 7, 27, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '33', 'valid', 'NT', 7, 20, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '34', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '35', 'valid', 'NT', 9, 17, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '36', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '37', 'valid', 'NT', 9, 28, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '38', 'valid', 'NT', 8, 16, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '39', 'valid', 'NT', 8, 19, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '40', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '41', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '42', 'valid', 'NT', 7, 27, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '43', 'valid', 'NT', 7, 20, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '44', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '45', 'valid', 'NT', 9, 17, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '46', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '47', 'valid', 'NT', 9, 28, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '48', 'valid', 'NT', 8, 16, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '49', 'valid', 'NT', 8, 19, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '50', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '51', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '52', 'valid', 'NT', 7, 27, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '53', 'valid', 'NT', 7, 20, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '54', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '55', 'valid', 'NT', 9, 17, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '56', 'valid', 'NT', 9, 18, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '57', 'valid', 'NT', 9, 28, ()),
    ('hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt', '58', 'valid', 'NT', 8, 16, ()),
    ('hhsmithy/CashGame/PlayerTests/NoHoleCards.txt', '1', 'valid', 'NT', 7, 14, ()),
    ('hhsmithy/CashGame/PlayerTests/OmahaHiLoShowdown.txt', '1', 'valid', 'PO/8', 5, 23, ()),
    ('hhsmithy/CashGame/PlayerTests/OmahaShowdown.txt', '1', 'valid', 'PO', 2, 18, ()),
    ('hhsmithy/CashGame/PlayerTests/RunItTwice.txt', '1', 'valid', 'PO', 6, 25, ('site-run-twice',)),
    ('hhsmithy/CashGame/PlayerTests/ShowWithoutShowdown.txt', '1', 'valid', 'PO', 6, 22, ()),
    ('hhsmithy/CashGame/PlayerTests/WithShowdown.txt', '1', 'valid', 'NT', 9, 31, ()),
    ('hhsmithy/CashGame/PlayerTests/WithSittingOut.txt', '1', 'unreadable', None, None, None, ('site-unknown-line', 'site-unknown-player')),
    ('hhsmithy/CashGame/RunItTwiceTests/RunItTwice1.txt', '1', 'valid', 'PO', 6, 25, ('site-run-twice',)),
    ('hhsmithy/CashGame/RunItTwiceTests/RunItTwice2.txt', '1', 'invalid', 'NT', 6, 18, ('incomplete-hand', 'out-of-turn', 'premature-deal', 'site-cap-game', 'site-run-twice')),
    ('hhsmithy/CashGame/Seats/6 Max.txt', '1', 'valid', 'PO/8', 5, 23, ()),
    ('hhsmithy/CashGame/Seats/Full Ring (10 Handed).txt', '1', 'valid', 'FT', 8, 27, ()),
    ('hhsmithy/CashGame/Seats/Full Ring (9 Handed).txt', '1', 'valid', 'NT', 8, 20, ()),
    ('hhsmithy/CashGame/Seats/HeadsUp.txt', '1', 'valid', 'NT', 2, 3, ()),
    ('hhsmithy/CashGame/ShowDownActionTests/AllinFlop.txt', '', 'unreadable', None, None, None, ('site-unreadable-line',)),
    ('hhsmithy/CashGame/ShowDownActionTests/Ignore.txt', '', 'unreadable', None, None, None, ('site-unreadable-line',)),
    ('hhsmithy/CashGame/ShowDownActionTests/RunItTwice.txt', '', 'unreadable', None, None, None, ('site-unreadable-line',)),
    ('hhsmithy/CashGame/ShowDownActionTests/Wins.txt', '', 'unreadable', None, None, None, ('site-unreadable-line',)),
    ('hhsmithy/CashGame/StreetTests/Flop.txt', '1', 'valid', 'NT', 2, 8, ()),
    ('hhsmithy/CashGame/StreetTests/Preflop.txt', '1', 'valid', 'NT', 2, 4, ()),
    ('hhsmithy/CashGame/StreetTests/River.txt', '1', 'invalid', 'NT', 2, 16, ('duplicate-card',)),
    ('hhsmithy/CashGame/StreetTests/Turn.txt', '1', 'valid', 'NT', 2, 10, ()),
    ('hhsmithy/CashGame/Tables/Table1.txt', '1', 'valid', 'NT', 2, 10, ()),
    ('hhsmithy/CashGame/Tables/Table2.txt', '1', 'valid', 'NT', 2, 3, ()),
    ('hhsmithy/CashGame/Tables/Table3.txt', '1', 'valid', 'NT', 2, 16, ()),
    ('hhsmithy/CashGame/Tables/Table4.txt', '1', 'valid', 'NT', 2, 3, ()),
    ('hhsmithy/CashGame/Tables/Table5.txt', '1', 'valid', 'NT', 6, 12, ()),
    ('hhsmithy/CashGame/Tables/Table6.txt', '1', 'valid', 'NT', 6, 19, ('site-cap-game',)),
    ('hhsmithy/CashGame/ValidHandTests/CancelledHand.txt', '1', 'unreadable', None, None, None, ('site-hand-cancelled',)),
    ('hhsmithy/CashGame/ValidHandTests/InValidHand.txt', '1', 'unreadable', None, None, None, ('site-truncated-hand',)),
    ('hhsmithy/CashGame/ValidHandTests/ValidHand.txt', '1', 'valid', 'NT', 6, 26, ()),
    ('italytoast/CashGame/ExtraHands/UncontestedWinnerFlash.txt', '1', 'invalid', 'NT', 3, 6, ('chips-not-conserved', 'site-rake-mismatch', 'site-total-pot-mismatch', 'winnings-mismatch')),
    ('italytoast/CashGame/ExtraHands/UtcTimestampFormat.txt', '1', 'invalid', 'P5O', 4, 17, ('incomplete-hand', 'site-rake-mismatch')),
    ('italytoast/CashGame/GameTypeTests/PotLimitFiveCardOmaha.txt', '1', 'valid', 'P5O', 2, 11, ()),
    ('italytoast/CashGame/GeneralHands/Disconnect.txt', '1', 'valid', 'NT', 5, 17, ()),
    ('italytoast/CashGame/HandActionTests/CashOut.txt', '1', 'valid', 'NT', 5, 16, ('site-cash-out',)),
    ('italytoast/CashGame/Limits/YuanTable.txt', '1', 'valid', 'PO', 3, 10, ()),
    ('italytoast/CashGame/PPPoker/PPPokerHand.txt', '1', 'valid', 'P5O', 6, 33, ()),
    ('italytoast/CashGame/PPPoker/ShowdownHand.txt', '1', 'valid', 'P5O', 4, 18, ('incomplete-hand',)),
    ('italytoast/CashGame/PlayerTests/FiveCardOmaha.txt', '1', 'valid', 'P5O', 2, 16, ()),
    ('italytoast/CashGame/PlayerTests/MucksHandKnownHolecards.txt', '1', 'valid', 'PO', 5, 27, ()),
    ('italytoast/CashGame/ValidHandTests/InValidHand_1.txt', '1', 'unreadable', None, None, None, ('site-truncated-hand',)),
    ('italytoast/CashGame/ValidHandTests/ValidHand_1.txt', '1', 'valid', 'NT', 6, 26, ()),
    ('italytoast/MultiTableTournament/Buyins/Buyin1.txt', '1', 'valid', 'NT', 8, 15, ()),
    ('italytoast/MultiTableTournament/GameTypeTests/NoLimitHoldem.txt', '1', 'valid', 'NT', 7, 20, ()),
    ('italytoast/MultiTableTournament/Limits/Limit1.txt', '1', 'valid', 'NT', 2, 11, ()),
    ('italytoast/MultiTableTournament/Limits/Limit2.txt', '1', 'valid', 'NT', 8, 15, ()),
]

# Why the hands that are not clean are not (the source projects' test files, see the folder's README):
# - Omaha hi/lo pot-limit and no-limit, 5-card Omaha, pot-limit hold'em: handaudit's extension codes
#   (PO/8, NO/8, P5O, PT). Two PPPoker 5-card Omaha hands contradict themselves: the summary has
#   players fold whom the lines take to the showdown without a show (incomplete-hand), and
#   UtcTimestampFormat states a rake of 0.36 where 3.60 - 3.30 is 0.30 (site-rake-mismatch).
# - site-unreadable-line without a hand: fragments of a hand (no header) collected to test one feature.
# - WithSittingOut: the seat list's names were edited ("neverJa(1)ger", "Blahdi:42eblah") and the
#   actions' were not: site-unknown-player at the lines naming them.
# - AnteTable, UncontestedWinnerFlash: the summary's total pot is not what the lines put in (0.90 and
#   0.25 against the stated 0.50 and 0.20): site-total-pot-mismatch, and the payouts do not add up.
# - River: the showdown shows 5d, already on the flop (duplicate-card); ShowsDownSingleCard shows one
#   card of two: part of a hand, read as a muck with the card in a commentary; RunItTwice2 is a capped game where a capped player stops acting.
# - InValidHand(_1): the text stops before the summary (site-truncated-hand); CancelledHand: one
#   player (site-hand-cancelled).
NOT_DETECTED = {"hhsmithy/CashGame/Seats/4 Max.txt"}  # empty but for a byte-order mark: no hand in it
CONTRADICTORY = {"hhsmithy/CashGame/Limits/AnteTable.txt", "italytoast/CashGame/ExtraHands/UncontestedWinnerFlash.txt",
                 "italytoast/CashGame/ExtraHands/UtcTimestampFormat.txt"}


@pytest.fixture(scope="module")
def audited():
    if not SITES.is_dir():
        pytest.skip(f"no PokerStars samples at {SITES}")
    book = load_rulebook("tda-2026")
    out = []
    for path in expand_inputs([str(SITES)]):
        for chunk in read_inputs(path):
            read = read_any(chunk)
            out.append((str(Path(path).relative_to(SITES)), chunk, read, audit_read(read, book, chunk.index)))
    return out


def test_every_file_is_found_by_its_content():
    files = {str(p.relative_to(SITES)) for p in SITES.rglob("*.txt")}
    found = {str(Path(p).relative_to(SITES)) for p in expand_inputs([str(SITES)])}
    assert files - found == NOT_DETECTED
    assert len(found) == 89 and not any(f.endswith(("README.md", "LICENSE-HHSmithy")) for f in found)


def test_every_hand_as_expected(audited):
    got = []
    for rel, chunk, read, report in audited:
        hand = read.hand
        got.append((rel, chunk.hand_key, report.status, hand.variant if hand else None,
                    hand.players if hand else None, len(hand.actions) if hand else None,
                    tuple(sorted({f.code for f in report.findings}))))
    assert got == HANDS


def test_the_site_totals_reconcile(audited):
    """Every hand the site settles reconciles exactly: its stated rake is the pot less what was
    collected, the payouts are exactly the shares after it, the total pot is the settlement's."""
    checked = 0
    for rel, _chunk, read, report in audited:
        hand, settlement = read.hand, report.settlement
        if hand is None or rel in CONTRADICTORY:
            continue
        codes = {f.code for f in report.findings}
        assert not {c for c in codes if c.startswith("site-") and c.endswith("-mismatch")}, rel
        fields = hand.fields
        total = fields["_site_total_pot"]
        assert settlement.pot_total == int(total.replace(".", "")) * 10 ** (hand.scale - _places(total)), rel
        if ("_site_run_twice" in fields and "_site_boards" not in fields) or (
                "_site_cash_out" in fields and "_site_cash_won" not in fields):
            assert settlement.payout_check == "not-recorded" and hand.winnings is None, rel
            continue
        if settlement.determined:  # (a hand run twice, a cash-out: the site's payouts compared too)
            assert (settlement.payout_check, settlement.rake_check) == ("match", "exact"), rel
            rake = fields["_site_rake"]
            assert settlement.rake == int(rake.replace(".", "")) * 10 ** (hand.scale - _places(rake)), rel
            checked += 1
    assert checked == 139  # (with the hands run twice and the cash-out; 12 of games PHH has no code for)


def _places(text: str) -> int:
    return len(text.partition(".")[2])


def test_the_betting_actions_are_the_sites_lines(audited):
    """As many folds, checks and calls, bets and raises as the site wrote such lines (counted here
    on the raw text, apart from the importer)."""
    for rel, _chunk, read, _report in audited:
        hand = read.hand
        if hand is None:
            continue
        lines = [line.rstrip() for line in read.text.split("\n")]
        folds = sum(1 for line in lines if line.endswith(": folds") or ": folds [" in line)
        calls = sum(1 for line in lines if line.endswith(": checks") or ": calls " in line)
        raises = sum(1 for line in lines if ": bets " in line or ": raises " in line)
        kinds = [a.kind for a in hand.actions]
        assert (kinds.count(FOLD), kinds.count(CHECK_CALL), kinds.count(BET_RAISE)) == (folds, calls, raises), rel


def _one(audited, rel, key="1"):
    for r, chunk, read, report in audited:
        if r == rel and chunk.hand_key == key:
            return read, report
    raise AssertionError(rel)


def test_a_six_handed_cash_hand_in_full(audited):
    read, report = _one(audited, "hhsmithy/CashGame/GeneralHands/GeneralHand.txt")
    hand = read.hand
    # button seat 4: PHH order from seat 5 (the small blind) round to the button
    assert hand.fields["players"] == ["Nightfox82", "Asaki1", "Player_L", "H6U5r", "LovID", "Tunks2"]
    assert hand.fields["seats"] == [5, 6, 1, 2, 3, 4]
    assert (hand.variant, hand.scale, hand.min_bet) == ("NT", 2, 10)
    assert hand.blinds_or_straddles == (5, 10, 0, 0, 0, 0) and hand.antes == (2,) * 6
    assert hand.starting_stacks == (2617, 929, 4763, 2500, 2662, 2000)
    assert list(hand.action_texts) == [
        "d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "d dh p5 ????", "d dh p6 ????",
        "p3 cc", "p4 f", "p5 cbr 0.50", "p6 f", "p1 f", "p2 f", "p3 cc", "d db QhJc3h", "p3 cc", "p5 cbr 0.95",
        "p3 f"]
    assert hand.winnings == (0, 0, 0, 0, 121, 0)
    f = hand.fields
    assert (f["venue"], f["table"], f["hand"], f["seat_count"], f["currency"]) == (
        "PokerStars", "Skat III 100-250 bb, Ante", 109681313810, 6, "USD")
    assert (f["year"], f["month"], f["day"], f["time"], f["time_zone_abbreviation"]) == (
        2014, 1, 6, datetime.time(7, 21, 5), "ET")
    assert (f["_site_total_pot"], f["_site_rake"]) == ("1.27", "0.06")
    s = report.settlement
    assert (s.pot_total, s.rake, s.returned, s.payout_check, s.rake_check) == (
        127, 6, (0, 0, 0, 0, 95, 0), "match", "exact")
    assert report.status == "valid" and report.findings == ()


def test_heads_up_the_big_blind_is_p1(audited):
    read, report = _one(audited, "hhsmithy/CashGame/Seats/HeadsUp.txt")
    hand = read.hand
    # PHH: heads-up the forced bets are reverse-assigned: p1 the big blind, p2 the button
    assert hand.fields["players"] == ["Kel138", "A.Kmicic"]
    assert hand.blinds_or_straddles == (50, 100)  # written [small, big]; p1 posts the big one
    assert list(hand.action_texts) == ["d dh p1 ????", "d dh p2 ????", "p2 f"]
    assert report.settlement.returned == (50, 0) and hand.winnings == (100, 0)
    assert report.status == "valid"


def test_side_pots_in_euros_reconcile_pot_by_pot(audited):
    read, report = _one(audited, "hhsmithy/CashGame/ExtraHands/SidePot.txt")
    hand = read.hand
    assert hand.fields["currency"] == "EUR" and hand.fields["currency_symbol"] == "€"
    assert hand.fields["_site_pots"] == ["5.37", "7.5", "6.08"]  # exact decimals, trailing zeros dropped
    s = report.settlement
    assert [p.amount for p in s.pots] == [562, 786, 636]
    assert s.pot_rakes == (25, 36, 28)  # each pot less what the site says was left of it: 0.89 in all
    assert (s.payout_check, s.rake_check, s.rake) == ("match", "exact", 89)
    names = hand.fields["players"]
    assert {names[i]: w for i, w in enumerate(hand.winnings) if w} == {"templargio": 1358, "CrSilva.11": 537}


def test_a_tournament_hand_in_chips(audited):
    read, report = _one(audited, "italytoast/MultiTableTournament/Limits/Limit1.txt")
    hand = read.hand
    assert (hand.scale, hand.antes, hand.blinds_or_straddles, hand.min_bet) == (0, (10, 10), (40, 80), 80)
    assert hand.fields["players"] == ["Player2", "Player1"]  # heads-up: p1 the big blind
    assert (hand.fields["event"], hand.fields["level"]) == ("Tournament #11866000000", 4)
    assert "currency" not in hand.fields  # chips: the buy-in's dollars are not the hand's money
    assert report.settlement.returned == (0, 642) and hand.winnings == (0, 8358)
    assert report.status == "valid"


def test_names_are_read_against_the_seat_list(audited):
    read, _ = _one(audited, "hhsmithy/CashGame/ExtraHands/PlayerWithColon.txt")
    assert "wo_olly :D" in read.hand.fields["players"]
    read, _ = _one(audited, "hhsmithy/CashGame/ExtraHands/PlayerNameWithSlashesAndSquareBrackets.txt")
    assert "/\\ntiHer[]" in read.hand.fields["players"]
    read, report = _one(audited, "hhsmithy/CashGame/PlayerTests/WithSittingOut.txt")
    assert read.hand is None
    assert [(f.code, f.line) for f in report.findings if f.code == "site-unknown-player"] == [
        ("site-unknown-player", 8), ("site-unknown-player", 13), ("site-unknown-player", 15)]


def test_what_phh_cannot_hold_is_said(audited):
    read, report = _one(audited, "hhsmithy/CashGame/PlayerTests/RunItTwice.txt")
    assert [f.code for f in report.findings] == ["site-run-twice"]
    assert read.hand.fields["_site_run_twice"] == "Kc"
    assert read.hand.action_texts[-3:] == ("d db 4s", "p2 sm JdTsQdQs", "p3 sm 7s9s7hJh")  # the first run
    read, report = _one(audited, "italytoast/CashGame/HandActionTests/CashOut.txt")
    assert [f.code for f in report.findings] == ["site-cash-out"]
    assert "m788 cashed out the hand for $26.10 (fee $0.26)" in report.findings[0].message
    read, report = _one(audited, "hhsmithy/CashGame/ValidHandTests/CancelledHand.txt")
    assert read.hand is None and [f.code for f in report.findings] == ["site-hand-cancelled"]
    read, report = _one(audited, "hhsmithy/CashGame/ValidHandTests/InValidHand.txt")
    assert read.hand is None and [(f.code, f.line) for f in report.findings] == [("site-truncated-hand", 40)]
    read, report = _one(audited, "hhsmithy/CashGame/GameTypeTests/PotLimitHoldem.txt")  # an extension code
    assert read.hand.variant == "PT" and report.findings == () and report.settlement.payout_check == "match"


def test_line_ends_and_files_without_blank_lines(audited):
    keys = [c.hand_key for r, c, _read, _rep in audited if r == "hhsmithy/CashGame/MultipleHandsTests/NoNewLinesMultipleHands.txt"]
    assert keys == [str(i) for i in range(1, 59)]
    read, report = _one(audited, "hhsmithy/CashGame/Limits/GbpTable.txt")  # old Mac line ends (CR only)
    assert read.hand.fields["currency"] == "GBP" and report.status == "valid"
