"""The 888poker importer over every file of the shared samples (../shared/corpus/sites/888).

Per hand: its status, PHH variant, players, actions and the finding codes of its audit under
TDA 2026 (the table below: what a clean hand gives, and for the others which finding says why,
each checked against the source text). Then the site's own figures: every hand read reconciles
with what the site says each player collected; and every line of every sample is one the
grammar (poker888.lark) accepts exactly when the importer reads it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from handaudit.importers import read_any
from handaudit.importers.inputs import expand_inputs, read_inputs
from handaudit.importers.text_sites import grammar_rule
from handaudit.rules.rulebook import load_rulebook
from handaudit.run.hand_loop import audit_read

from helpers import CORPUS

SITES = CORPUS / "sites" / "888"

# (file, hand key, status, variant, players, actions, finding codes)
HANDS = [
    ('hhp/cash.hhsmithy.misc-fixes/hands.txt', '1', 'valid', 'NT', 5, 15, ()),
    ('hhp/cash.hhsmithy.usd.flh.hu/hands.txt', '1', 'valid', 'FT', 2, 17, ()),
    ('hhp/cash.hhsmithy.usd.flh.hu/hands.txt', '2', 'valid', 'FT', 2, 16, ()),
    ('hhp/cash.hhsmithy.usd.flh.hu/hands.txt', '3', 'valid', 'FT', 2, 15, ()),
    ('hhp/cash.hhsmithy.usd.nlh.6max/hands.txt', '1', 'valid', 'NT', 4, 11, ()),
    ('hhp/cash.hhsmithy.usd.nlh.6max/hands.txt', '2', 'valid', 'NT', 4, 16, ()),
    ('hhp/cash.hhsmithy.usd.nlh.6max/hands.txt', '3', 'valid', 'NT', 3, 6, ()),
    ('hhp/tourney.usd.nlh.2016/hands.txt', '1', 'valid', 'NT', 5, 16, ()),
    ('italytoast/Pacific/CashGame/ExtraHands/SpecialCards.txt', '1', 'valid', 'PO', 6, 25, ()),
    ('italytoast/Pacific/CashGame/GameTypeTests/FixedLimitHoldem.txt', '1', 'valid', 'FT', 3, 11, ()),
    ('italytoast/Pacific/CashGame/GameTypeTests/NoLimitHoldem.txt', '1', 'valid', 'NT', 7, 22, ()),
    # no-limit Omaha: no PHH code (the extension codes of issue #39 will name it)
    ('italytoast/Pacific/CashGame/GameTypeTests/NoLimitOmaha.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    # pot-limit hold'em (a PartyPoker hand in 888's folder): no PHH code
    ('italytoast/Pacific/CashGame/GameTypeTests/PotLimitHoldem.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    ('italytoast/Pacific/CashGame/GameTypeTests/PotLimitOmaha.txt', '1', 'valid', 'PO', 2, 8, ()),
    # pot-limit Omaha hi/lo: no PHH code
    ('italytoast/Pacific/CashGame/GameTypeTests/PotLimitOmahaHiLo.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    ('italytoast/Pacific/CashGame/GeneralHands/GeneralHand.txt', '1', 'valid', 'NT', 2, 8, ()),
    ('italytoast/Pacific/CashGame/GeneralHands/HeroName.txt', '1', 'valid', 'NT', 5, 10, ()),
    ('italytoast/Pacific/CashGame/HandActionTests/3BetHand.txt', '1', 'valid', 'NT', 6, 25, ()),
    ('italytoast/Pacific/CashGame/HandActionTests/AllInHandWithShowdown.txt', '1', 'valid', 'NT', 5, 24, ()),
    ('italytoast/Pacific/CashGame/HandActionTests/DealingCardsMissing.txt', '1', 'valid', 'NT', 3, 6, ('unnecessary-fold',)),
    ('italytoast/Pacific/CashGame/HandActionTests/DealingCardsMissing2.txt', '1', 'valid', 'PO', 4, 18, ()),
    ('italytoast/Pacific/CashGame/HandActionTests/FoldedPreflop.txt', '1', 'valid', 'NT', 4, 8, ()),
    # pot-limit Omaha hi/lo: no PHH code
    ('italytoast/Pacific/CashGame/HandActionTests/OmahaHiLo.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    ('italytoast/Pacific/CashGame/HandActionTests/PostingDead.txt', '1', 'valid', 'NT', 6, 23, ()),
    ('italytoast/Pacific/CashGame/Limits/Limit1.txt', '1', 'valid', 'NT', 3, 8, ()),
    ('italytoast/Pacific/CashGame/Limits/Limit2.txt', '1', 'valid', 'NT', 4, 13, ()),
    ('italytoast/Pacific/CashGame/Limits/Limit3.txt', '1', 'valid', 'NT', 3, 11, ()),
    ('italytoast/Pacific/CashGame/Limits/Limit4.txt', '1', 'valid', 'NT', 3, 6, ()),
    ('italytoast/Pacific/CashGame/Limits/Limit5.txt', '1', 'valid', 'PO', 4, 8, ()),
    ('italytoast/Pacific/CashGame/PlayerTests/NoHoleCards.txt', '1', 'valid', 'FT', 3, 5, ()),
    # pot-limit Omaha hi/lo: no PHH code
    ('italytoast/Pacific/CashGame/PlayerTests/OmahaHiLoShowdown.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    ('italytoast/Pacific/CashGame/PlayerTests/OmahaShowdown.txt', '1', 'valid', 'PO', 6, 23, ()),
    ('italytoast/Pacific/CashGame/PlayerTests/WithShowdown.txt', '1', 'valid', 'NT', 2, 15, ()),
    ('italytoast/Pacific/CashGame/PlayerTests/WithSittingOut.txt', '1', 'valid', 'NT', 2, 5, ()),
    ('italytoast/Pacific/CashGame/Seats/6 Max.txt', '1', 'valid', 'NT', 4, 13, ()),
    ('italytoast/Pacific/CashGame/Seats/Full Ring (9 Handed).txt', '1', 'valid', 'NT', 8, 28, ()),
    ('italytoast/Pacific/CashGame/Seats/HeadsUp.txt', '1', 'valid', 'FT', 2, 11, ()),
    ('italytoast/Pacific/CashGame/StreetTests/Flop.txt', '1', 'valid', 'NT', 5, 15, ()),
    ('italytoast/Pacific/CashGame/StreetTests/Preflop.txt', '1', 'valid', 'NT', 5, 11, ()),
    ('italytoast/Pacific/CashGame/StreetTests/River.txt', '1', 'valid', 'NT', 3, 17, ()),
    ('italytoast/Pacific/CashGame/StreetTests/Turn.txt', '1', 'valid', 'NT', 3, 14, ()),
    ('italytoast/Pacific/CashGame/Tables/Table1.txt', '1', 'valid', 'NT', 8, 15, ()),
    ('italytoast/Pacific/CashGame/Tables/Table3.txt', '1', 'valid', 'NT', 7, 19, ()),
    ('italytoast/Pacific/CashGame/Tables/Table4.txt', '1', 'valid', 'NT', 9, 32, ()),
    ('italytoast/Pacific/CashGame/Tables/Table5.txt', '1', 'valid', 'NT', 2, 10, ()),
    # the source's deliberately broken hand: it stops before any pot is awarded
    ('italytoast/Pacific/CashGame/ValidHandTests/InValidHand_1.txt', '1', 'unreadable', None, None, None, ('site-truncated-hand',)),
    ('italytoast/Pacific/CashGame/ValidHandTests/ValidHand_1.txt', '1', 'valid', 'NT', 8, 21, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '1', 'valid', 'NT', 8, 26, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '2', 'valid', 'NT', 9, 25, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '3', 'valid', 'NT', 9, 41, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '4', 'valid', 'NT', 7, 34, ('unnecessary-fold',)),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '5', 'valid', 'NT', 7, 26, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '6', 'valid', 'NT', 9, 24, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '7', 'valid', 'NT', 9, 32, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '8', 'valid', 'NT', 8, 27, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '9', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '10', 'valid', 'NT', 8, 15, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '11', 'valid', 'NT', 9, 28, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669312) No Limit Holdem.txt', '12', 'valid', 'NT', 8, 24, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '1', 'valid', 'NT', 6, 26, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '2', 'valid', 'NT', 7, 16, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '3', 'valid', 'NT', 7, 21, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '4', 'valid', 'NT', 8, 28, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '5', 'valid', 'NT', 9, 25, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '6', 'valid', 'NT', 6, 18, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '7', 'valid', 'NT', 6, 18, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '8', 'valid', 'NT', 6, 22, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '9', 'valid', 'NT', 8, 35, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '10', 'valid', 'NT', 5, 16, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '11', 'valid', 'NT', 6, 24, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '12', 'valid', 'NT', 7, 24, ()),
    # the source blanked every name of this hand: its lines cannot be told apart
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '13', 'unreadable', None, None, None, ('site-unknown-player',)),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '14', 'valid', 'NT', 8, 28, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '15', 'valid', 'NT', 8, 18, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '16', 'valid', 'NT', 8, 30, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '17', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '18', 'valid', 'NT', 8, 20, ('unnecessary-fold',)),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '19', 'valid', 'NT', 8, 20, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '20', 'valid', 'NT', 8, 25, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '21', 'valid', 'NT', 9, 29, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '22', 'valid', 'NT', 9, 19, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '23', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '24', 'valid', 'NT', 8, 23, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '25', 'valid', 'NT', 7, 23, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '26', 'valid', 'NT', 9, 25, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '27', 'valid', 'NT', 7, 20, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '28', 'valid', 'NT', 6, 20, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '29', 'valid', 'NT', 8, 27, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '30', 'valid', 'NT', 8, 21, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '31', 'valid', 'NT', 8, 27, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '32', 'valid', 'NT', 8, 26, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '33', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '34', 'valid', 'NT', 8, 35, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '35', 'valid', 'NT', 8, 39, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '36', 'valid', 'NT', 9, 31, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '37', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '38', 'valid', 'NT', 9, 19, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '39', 'valid', 'NT', 9, 34, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78669773) No Limit Holdem.txt', '40', 'valid', 'NT', 9, 33, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '1', 'valid', 'NT', 7, 32, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '2', 'valid', 'NT', 7, 28, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '3', 'valid', 'NT', 7, 31, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '4', 'valid', 'NT', 8, 27, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '5', 'valid', 'NT', 8, 20, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '6', 'valid', 'NT', 8, 27, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '7', 'valid', 'NT', 8, 26, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '8', 'valid', 'NT', 7, 20, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '9', 'valid', 'NT', 7, 14, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '10', 'valid', 'NT', 8, 29, ()),
    ('pokerregion/888poker20160327 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670191) No Limit Holdem.txt', '11', 'valid', 'NT', 8, 23, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '1', 'valid', 'NT', 9, 35, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '2', 'valid', 'NT', 8, 23, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '3', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '4', 'valid', 'NT', 9, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '5', 'valid', 'NT', 9, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '6', 'valid', 'NT', 8, 30, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '7', 'valid', 'NT', 9, 36, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '8', 'valid', 'NT', 8, 31, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '9', 'valid', 'NT', 8, 36, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '10', 'valid', 'NT', 9, 30, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '11', 'valid', 'NT', 8, 33, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '12', 'valid', 'NT', 7, 24, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '13', 'valid', 'NT', 9, 35, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '14', 'valid', 'NT', 9, 25, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '15', 'valid', 'NT', 8, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '16', 'valid', 'NT', 9, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '17', 'valid', 'NT', 9, 25, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '18', 'valid', 'NT', 9, 24, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '19', 'valid', 'NT', 9, 27, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '20', 'valid', 'NT', 9, 29, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '21', 'valid', 'NT', 9, 33, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '22', 'valid', 'NT', 8, 23, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '23', 'valid', 'NT', 9, 34, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '24', 'valid', 'NT', 8, 27, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '25', 'valid', 'NT', 9, 40, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '26', 'valid', 'NT', 9, 25, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '27', 'valid', 'NT', 9, 34, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '28', 'valid', 'NT', 8, 24, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '29', 'valid', 'NT', 9, 29, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '30', 'valid', 'NT', 9, 23, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '31', 'valid', 'NT', 8, 20, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '32', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '33', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '34', 'valid', 'NT', 7, 29, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '35', 'valid', 'NT', 8, 21, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '36', 'valid', 'NT', 8, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '37', 'valid', 'NT', 8, 24, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '38', 'valid', 'NT', 7, 20, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '39', 'valid', 'NT', 9, 22, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '40', 'valid', 'NT', 9, 19, ()),
    ('pokerregion/888poker20160328 Tournament $0.01 Step 1 WSOP, 888Live & Major Tournaments (78670600) No Limit Holdem.txt', '41', 'valid', 'NT', 9, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '1', 'valid', 'NT', 8, 36, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '2', 'valid', 'NT', 6, 17, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '3', 'valid', 'NT', 7, 21, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '4', 'valid', 'NT', 8, 21, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '5', 'valid', 'NT', 8, 17, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '6', 'valid', 'NT', 8, 32, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '7', 'valid', 'NT', 9, 29, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '8', 'valid', 'NT', 9, 35, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '9', 'valid', 'NT', 8, 22, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '10', 'valid', 'NT', 7, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '11', 'valid', 'NT', 8, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '12', 'valid', 'NT', 9, 25, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '13', 'valid', 'NT', 9, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '14', 'valid', 'NT', 8, 26, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '15', 'valid', 'NT', 9, 28, ()),
    ('pokerregion/888poker20160328 Tournament $0.09 + $0.01 Step 2 WSOP, 888Live & Major Tournaments (78678966) No Limit Holdem.txt', '16', 'valid', 'NT', 9, 27, ()),
]


@pytest.fixture(scope="module")
def audited():
    if not SITES.is_dir():
        pytest.skip(f"no 888poker samples at {SITES}")
    book = load_rulebook("tda-2026")
    out = []
    for path in expand_inputs([str(SITES)]):
        for chunk in read_inputs(path):
            read = read_any(chunk)
            out.append((str(Path(path).relative_to(SITES)), chunk, read, audit_read(read, book, chunk.index)))
    return out


def test_every_hand_as_expected(audited):
    got = []
    for rel, chunk, read, report in audited:
        hand = read.hand
        got.append((rel, chunk.hand_key, report.status, hand.variant if hand else None,
                    hand.players if hand else None, len(hand.actions) if hand else None,
                    tuple(sorted({f.code for f in report.findings}))))
    assert got == HANDS


def test_every_unreadable_hand_says_why(audited):
    for rel, _chunk, read, report in audited:
        if read.hand is None:
            assert any(f.severity == "error" and f.code.startswith("site-") for f in report.findings), rel


def test_what_the_site_says_each_player_collected_is_what_the_settlement_awards(audited):
    """Every hand read whose pots the settlement determines: each player's collection (less the
    uncalled bet the site gave back within it) is exactly their award after the rake, and no
    ``site-*-mismatch`` but where the log itself is broken (the table above)."""
    checked = 0
    for rel, _chunk, read, report in audited:
        hand, settlement = read.hand, report.settlement
        if hand is None or report.status != "valid" or not settlement.determined:
            continue
        assert not {f.code for f in report.findings if f.code.startswith("site-") and f.code.endswith("-mismatch")}, rel
        assert sum(hand.winnings) <= settlement.pot_total, rel
        checked += 1
    assert checked == sum(1 for h in HANDS if h[2] == "valid")


def _site_of(text: str) -> str:
    for line in text.split("\n")[:4]:
        if line.startswith("***** Hand History") or line.startswith("Game #"):
            return "partypoker"
    return "poker888"


def test_the_grammar_accepts_the_lines_the_importer_reads(audited):
    """Each distinct line (digits aside) of every hand read: the grammar accepts it, and a
    line the importer calls unknown the grammar does not accept either."""
    seen: set = set()
    for rel, _chunk, read, _report in audited:
        text = read.text
        if not text:
            continue
        module = _site_of(text)
        names = [m.group(1) for m in re.finditer(r"^Seat \d+: (.+?) \( ?", text, re.M)]
        unknown = {f.line for f in read.findings if f.code == "site-unknown-line"}
        for k, line in enumerate(text.split("\n")):
            if not line.strip() or line.startswith("#encoding ") or any(not n for n in names):
                continue
            shape = re.sub(r"[0-9]", "7", line)
            for name in names:
                shape = shape.replace(re.sub(r"[0-9]", "7", name), "NAME")
            if (module, shape) in seen:
                continue
            seen.add((module, shape))
            rule = grammar_rule(module, line, names)
            if read.hand is not None:
                assert (rule != "") == (_chunk.line + k not in unknown), (rel, line)
    assert len(seen) > 300
