"""The PartyPoker importer over every file of the shared samples (../shared/corpus/sites/partypoker).

Per hand: its status, PHH variant, players, actions and the finding codes of its audit under
TDA 2026 (the table below: what a clean hand gives, and for the others which finding says why,
each checked against the source text). Then the site's own figures: every hand read reconciles
with what the site says each player collected; and every line of every sample is one the
grammar (partypoker.lark) accepts exactly when the importer reads it.
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

SITES = CORPUS / "sites" / "partypoker"

# (file, hand key, status, variant, players, actions, finding codes)
HANDS = [
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '1', 'valid', 'NT', 7, 39, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '2', 'valid', 'NT', 8, 17, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '3', 'valid', 'NT', 8, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '4', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '5', 'valid', 'NT', 8, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '6', 'valid', 'NT', 6, 13, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '7', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '8', 'valid', 'NT', 8, 35, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '9', 'valid', 'NT', 8, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '10', 'valid', 'NT', 8, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '11', 'valid', 'NT', 7, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '12', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '13', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '14', 'valid', 'NT', 8, 23, ('unnecessary-fold',)),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '15', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '16', 'valid', 'NT', 7, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '17', 'valid', 'NT', 7, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '18', 'valid', 'NT', 8, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '19', 'valid', 'NT', 8, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '20', 'valid', 'NT', 9, 35, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '21', 'valid', 'NT', 9, 36, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '22', 'valid', 'NT', 9, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '23', 'valid', 'NT', 9, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '24', 'valid', 'NT', 9, 38, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '25', 'valid', 'NT', 9, 40, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '26', 'valid', 'NT', 8, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '27', 'valid', 'NT', 8, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '28', 'valid', 'NT', 8, 17, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '29', 'valid', 'NT', 8, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '30', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '31', 'valid', 'NT', 7, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '32', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '33', 'valid', 'NT', 6, 12, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '34', 'valid', 'NT', 6, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '35', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '36', 'valid', 'NT', 5, 21, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '37', 'valid', 'NT', 6, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '38', 'valid', 'NT', 8, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '39', 'valid', 'NT', 8, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '40', 'valid', 'NT', 7, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '41', 'valid', 'NT', 8, 33, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '42', 'valid', 'NT', 9, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '43', 'valid', 'NT', 8, 21, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '44', 'valid', 'NT', 8, 33, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '45', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '46', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '47', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '48', 'valid', 'NT', 7, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '49', 'valid', 'NT', 6, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '50', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '51', 'valid', 'NT', 7, 37, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '52', 'valid', 'NT', 7, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '53', 'valid', 'NT', 8, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '54', 'valid', 'NT', 7, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '55', 'valid', 'NT', 6, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '56', 'valid', 'NT', 6, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '57', 'valid', 'NT', 7, 16, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '58', 'valid', 'NT', 6, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '59', 'valid', 'NT', 6, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '60', 'valid', 'NT', 6, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '61', 'valid', 'NT', 6, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '62', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '63', 'valid', 'NT', 6, 13, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '64', 'valid', 'NT', 6, 13, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '65', 'valid', 'NT', 7, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '66', 'valid', 'NT', 7, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '67', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '68', 'valid', 'NT', 7, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '69', 'valid', 'NT', 7, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '70', 'valid', 'NT', 6, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '71', 'valid', 'NT', 7, 16, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '72', 'valid', 'NT', 7, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '73', 'valid', 'NT', 7, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '74', 'valid', 'NT', 7, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '75', 'valid', 'NT', 7, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '76', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '77', 'valid', 'NT', 9, 35, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '78', 'valid', 'NT', 9, 35, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '79', 'valid', 'NT', 9, 45, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '80', 'valid', 'NT', 8, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '81', 'valid', 'NT', 9, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '82', 'valid', 'NT', 9, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '83', 'valid', 'NT', 9, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '84', 'valid', 'NT', 9, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '85', 'valid', 'NT', 9, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '86', 'valid', 'NT', 9, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '87', 'valid', 'NT', 8, 17, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '88', 'valid', 'NT', 8, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '89', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '90', 'valid', 'NT', 8, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '91', 'valid', 'NT', 8, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '92', 'valid', 'NT', 8, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '93', 'valid', 'NT', 8, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '94', 'valid', 'NT', 9, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '95', 'valid', 'NT', 9, 40, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '96', 'valid', 'NT', 9, 36, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '97', 'valid', 'NT', 9, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '98', 'valid', 'NT', 9, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '99', 'valid', 'NT', 9, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '100', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '101', 'valid', 'NT', 8, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '102', 'valid', 'NT', 8, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '103', 'valid', 'NT', 8, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '104', 'valid', 'NT', 7, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '105', 'valid', 'NT', 7, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '106', 'valid', 'NT', 8, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '107', 'valid', 'NT', 8, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '108', 'valid', 'NT', 8, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '109', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '110', 'valid', 'NT', 8, 38, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '111', 'valid', 'NT', 7, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '112', 'valid', 'NT', 7, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '113', 'valid', 'NT', 7, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '114', 'valid', 'NT', 8, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '115', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '116', 'valid', 'NT', 8, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '117', 'valid', 'NT', 8, 18, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '118', 'valid', 'NT', 8, 39, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '119', 'valid', 'NT', 8, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '120', 'valid', 'NT', 8, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '121', 'valid', 'NT', 8, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '122', 'valid', 'NT', 8, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '123', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '124', 'valid', 'NT', 6, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '125', 'valid', 'NT', 6, 18, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '126', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '127', 'valid', 'NT', 6, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '128', 'valid', 'NT', 6, 18, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '129', 'valid', 'NT', 6, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '130', 'valid', 'NT', 6, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '131', 'valid', 'NT', 6, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '132', 'valid', 'NT', 7, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '133', 'valid', 'NT', 7, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '134', 'valid', 'NT', 7, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '135', 'valid', 'NT', 6, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '136', 'valid', 'NT', 6, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '137', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '138', 'valid', 'NT', 7, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '139', 'valid', 'NT', 7, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '140', 'valid', 'NT', 7, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '141', 'valid', 'NT', 7, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '142', 'valid', 'NT', 7, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '143', 'valid', 'NT', 7, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '144', 'valid', 'NT', 6, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '145', 'valid', 'NT', 6, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '146', 'valid', 'NT', 7, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '147', 'valid', 'NT', 6, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '148', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '149', 'valid', 'NT', 6, 18, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '150', 'valid', 'NT', 8, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '151', 'valid', 'NT', 9, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '152', 'valid', 'NT', 8, 35, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '153', 'valid', 'NT', 8, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '154', 'valid', 'NT', 8, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '155', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '156', 'valid', 'NT', 8, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '157', 'valid', 'NT', 8, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '158', 'valid', 'NT', 7, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '159', 'valid', 'NT', 7, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '160', 'valid', 'NT', 7, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '161', 'valid', 'NT', 7, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '162', 'valid', 'NT', 6, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '163', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '164', 'valid', 'NT', 6, 16, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '165', 'valid', 'NT', 6, 21, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '166', 'valid', 'NT', 6, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '167', 'valid', 'NT', 6, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '168', 'valid', 'NT', 6, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '169', 'valid', 'NT', 7, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '170', 'valid', 'NT', 7, 21, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '171', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '172', 'valid', 'NT', 8, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '173', 'valid', 'NT', 8, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '174', 'valid', 'NT', 8, 17, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '175', 'valid', 'NT', 8, 34, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '176', 'valid', 'NT', 8, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '177', 'valid', 'NT', 8, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '178', 'valid', 'NT', 9, 30, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '179', 'valid', 'NT', 9, 37, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '180', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '181', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '182', 'valid', 'NT', 6, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '183', 'valid', 'NT', 7, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '184', 'valid', 'NT', 7, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '185', 'valid', 'NT', 8, 20, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '186', 'valid', 'NT', 8, 21, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '187', 'valid', 'NT', 7, 33, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '188', 'valid', 'NT', 7, 14, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '189', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '190', 'valid', 'NT', 6, 13, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '191', 'valid', 'NT', 7, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '192', 'valid', 'NT', 7, 15, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '193', 'valid', 'NT', 7, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '194', 'valid', 'NT', 7, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '195', 'valid', 'NT', 9, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '196', 'valid', 'NT', 7, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '197', 'valid', 'NT', 6, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '198', 'valid', 'NT', 7, 26, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '199', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '200', 'valid', 'NT', 6, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '201', 'valid', 'NT', 6, 23, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '202', 'valid', 'NT', 5, 11, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '203', 'valid', 'NT', 5, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '204', 'valid', 'NT', 6, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '205', 'valid', 'NT', 7, 25, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '206', 'valid', 'NT', 7, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '207', 'valid', 'NT', 7, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '208', 'valid', 'NT', 7, 24, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '209', 'valid', 'NT', 8, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '210', 'valid', 'NT', 8, 33, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '211', 'valid', 'NT', 7, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '212', 'valid', 'NT', 6, 13, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '213', 'valid', 'NT', 6, 27, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '214', 'valid', 'NT', 6, 22, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '215', 'valid', 'NT', 8, 38, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '216', 'valid', 'NT', 8, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '217', 'valid', 'NT', 8, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '218', 'valid', 'NT', 8, 17, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '219', 'valid', 'NT', 8, 28, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '220', 'valid', 'NT', 8, 32, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '221', 'valid', 'NT', 8, 35, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '222', 'valid', 'NT', 8, 33, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '223', 'valid', 'NT', 7, 19, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max.txt', '224', 'valid', 'NT', 6, 29, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max/hands.txt', '1', 'valid', 'NT', 7, 39, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max/hands.txt', '2', 'valid', 'NT', 8, 17, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max/hands.txt', '3', 'valid', 'NT', 6, 13, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max/hands.txt', '4', 'valid', 'NT', 8, 31, ()),
    ('hhp/cash.hhsmithy.usd.NLHE.9max/hands.txt', '5', 'valid', 'NT', 7, 26, ()),
    ('hhp/cash.hhsmithy.usd.hu/hands.txt', '1', 'valid', 'NT', 2, 6, ()),
    ('hhp/cash.hhsmithy.usd.hu/hands.txt', '2', 'valid', 'NT', 2, 9, ()),
    ('hhp/cash.hhsmithy.usd.hu/hands.txt', '3', 'valid', 'NT', 2, 15, ()),
    ('hhp/cash.hhsmithy.usd.hu/hands.txt', '4', 'valid', 'NT', 2, 16, ()),
    ('hhp/cash.hhsmithy.usd.hu/hands.txt', '5', 'valid', 'NT', 2, 11, ()),
    ('hhp/tourney.mtt.msk.9-max.2016/hands.txt', '1', 'valid', 'NT', 9, 24, ()),
    # the log omits both blind posts (the win of 10,750 holds 3,750 of blinds never posted)
    ('hhp/tourney.mtt.usd.10-max.2013/hands.txt', '1', 'invalid', 'NT', 8, 17, ('chips-not-conserved', 'out-of-turn', 'site-collected-mismatch', 'turn-lost-after-substantial-action', 'unnecessary-fold', 'winnings-mismatch')),
    ('hhp/tourney.stt.usd.2016/hands.txt', '1', 'valid', 'NT', 4, 9, ()),
    ('hhp/tourney.stt.usd.2016/hands.txt', '2', 'valid', 'NT', 4, 19, ()),
    ('hhp/tourney.stt.usd.2016/hands.txt', '3', 'valid', 'NT', 4, 19, ()),
    ('hhp/tourney.stt.usd.2016/hands.txt', '4', 'valid', 'NT', 4, 13, ()),
    ('hhp/tourney.stt.usd.2016/hands.txt', '5', 'valid', 'NT', 2, 10, ()),
    ('italytoast/PartyPoker/CashGame/GameTypeTests/FixedLimitHoldem.txt', '1', 'valid', 'FT', 6, 17, ()),
    ('italytoast/PartyPoker/CashGame/GameTypeTests/NoLimitHoldem.txt', '1', 'valid', 'NT', 5, 20, ()),
    ('italytoast/PartyPoker/CashGame/GameTypeTests/PotLimitOmaha.txt', '1', 'valid', 'PO', 5, 11, ()),
    # pot-limit Omaha hi/lo: no PHH code
    ('italytoast/PartyPoker/CashGame/GameTypeTests/PotLimitOmahaHiLo.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    ('italytoast/PartyPoker/CashGame/GeneralHands/GeneralHand.txt', '1', 'valid', 'NT', 8, 33, ()),
    ('italytoast/PartyPoker/CashGame/GeneralHands/HeroName.txt', '1', 'valid', 'NT', 2, 4, ()),
    ('italytoast/PartyPoker/CashGame/HandActionTests/3BetHand.txt', '1', 'valid', 'NT', 2, 10, ()),
    ('italytoast/PartyPoker/CashGame/HandActionTests/AllInHandWithShowdown.txt', '1', 'valid', 'NT', 6, 31, ()),
    ('italytoast/PartyPoker/CashGame/HandActionTests/BasicHand.txt', '1', 'valid', 'NT', 3, 17, ()),
    ('italytoast/PartyPoker/CashGame/HandActionTests/FoldedPreflop.txt', '1', 'valid', 'NT', 2, 4, ()),
    # pot-limit Omaha hi/lo: no PHH code
    ('italytoast/PartyPoker/CashGame/HandActionTests/OmahaHiLo.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    ('italytoast/PartyPoker/CashGame/HandActionTests/PlayerLeavingTable.txt', '1', 'valid', 'PO', 5, 22, ()),
    ('italytoast/PartyPoker/CashGame/HandActionTests/Posting.txt', '1', 'valid', 'NT', 5, 21, ()),
    ('italytoast/PartyPoker/CashGame/HandActionTests/SittingOut.txt', '1', 'valid', 'PO', 4, 16, ()),
    ('italytoast/PartyPoker/CashGame/HandActionTests/TimeBank.txt', '1', 'valid', 'PO', 2, 9, ()),
    ('italytoast/PartyPoker/CashGame/Limits/Limit1.txt', '1', 'valid', 'FT', 3, 18, ()),
    ('italytoast/PartyPoker/CashGame/Limits/Limit2.txt', '1', 'valid', 'FT', 6, 13, ()),
    ('italytoast/PartyPoker/CashGame/Limits/Limit3.txt', '1', 'valid', 'FT', 3, 6, ()),
    ('italytoast/PartyPoker/CashGame/Limits/Limit4.txt', '1', 'valid', 'FT', 6, 16, ()),
    ('italytoast/PartyPoker/CashGame/Limits/Limit5.txt', '1', 'valid', 'PO', 2, 11, ()),
    # a fragment: the hand stops before its win line
    ('italytoast/PartyPoker/CashGame/Limits/Limit6.txt', '1', 'unreadable', None, None, None, ('site-truncated-hand',)),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '1', 'valid', 'NT', 7, 25, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '2', 'valid', 'NT', 5, 21, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '3', 'valid', 'NT', 5, 11, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '4', 'valid', 'NT', 5, 23, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '5', 'valid', 'NT', 5, 22, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '6', 'valid', 'NT', 6, 23, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '7', 'valid', 'NT', 6, 17, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '8', 'valid', 'NT', 7, 29, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '9', 'valid', 'NT', 7, 29, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/10MultipleHands.txt', '10', 'valid', 'NT', 7, 30, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/5MultipleHands.txt', '1', 'valid', 'PO', 5, 16, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/5MultipleHands.txt', '2', 'valid', 'PO', 5, 10, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/5MultipleHands.txt', '3', 'valid', 'PO', 5, 21, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/5MultipleHands.txt', '4', 'valid', 'PO', 6, 27, ()),
    ('italytoast/PartyPoker/CashGame/MultipleHandsTests/5MultipleHands.txt', '5', 'valid', 'PO', 6, 27, ()),
    ('italytoast/PartyPoker/CashGame/PlayerTests/NoHoleCards.txt', '1', 'valid', 'NT', 2, 5, ()),
    # pot-limit Omaha hi/lo: no PHH code
    ('italytoast/PartyPoker/CashGame/PlayerTests/OmahaHiLoShowdown.txt', '1', 'unreadable', None, None, None, ('site-game-not-phh',)),
    ('italytoast/PartyPoker/CashGame/PlayerTests/OmahaShowdown.txt', '1', 'valid', 'PO', 2, 15, ()),
    # an action by a name not in the seat list (the source's test of exactly that)
    ('italytoast/PartyPoker/CashGame/PlayerTests/WithAnonomous.txt', '1', 'unreadable', None, None, None, ('site-truncated-hand', 'site-unknown-player')),
    ('italytoast/PartyPoker/CashGame/PlayerTests/WithShowdown.txt', '1', 'valid', 'NT', 2, 15, ()),
    ('italytoast/PartyPoker/CashGame/PlayerTests/WithSittingOut.txt', '1', 'valid', 'PO', 5, 22, ()),
    ('italytoast/PartyPoker/CashGame/Seats/6 Max.txt', '1', 'valid', 'PO', 3, 14, ()),
    ('italytoast/PartyPoker/CashGame/Seats/Full Ring (9 Handed).txt', '1', 'valid', 'NT', 9, 30, ()),
    ('italytoast/PartyPoker/CashGame/StreetTests/Flop.txt', '1', 'valid', 'NT', 5, 16, ()),
    ('italytoast/PartyPoker/CashGame/StreetTests/Preflop.txt', '1', 'valid', 'NT', 6, 12, ()),
    ('italytoast/PartyPoker/CashGame/StreetTests/River.txt', '1', 'valid', 'NT', 5, 21, ()),
    ('italytoast/PartyPoker/CashGame/StreetTests/Turn.txt', '1', 'valid', 'NT', 5, 17, ()),
    ('italytoast/PartyPoker/CashGame/Tables/Table1.txt', '1', 'valid', 'NT', 6, 21, ()),
    ('italytoast/PartyPoker/CashGame/Tables/Table2.txt', '1', 'valid', 'NT', 5, 15, ()),
    ('italytoast/PartyPoker/CashGame/Tables/Table3.txt', '1', 'valid', 'NT', 3, 10, ()),
    ('italytoast/PartyPoker/CashGame/Tables/Table4.txt', '1', 'valid', 'NT', 4, 22, ()),
    # the source's deliberately broken hand: it stops before any pot is awarded
    ('italytoast/PartyPoker/CashGame/ValidHandTests/InValidHand_1.txt', '1', 'unreadable', None, None, None, ('site-truncated-hand',)),
    ('italytoast/PartyPoker/CashGame/ValidHandTests/ValidHand_1.txt', '1', 'valid', 'NT', 5, 12, ()),
    ('italytoast/PartyPoker/MultiTableTournament/GameTypeTests/NoLimitHoldem.txt', '1', 'valid', 'NT', 6, 12, ()),
    ('italytoast/PartyPoker/MultiTableTournament/GeneralHands/GeneralHand.txt', '1', 'valid', 'NT', 6, 12, ()),
]


@pytest.fixture(scope="module")
def audited():
    if not SITES.is_dir():
        pytest.skip(f"no PartyPoker samples at {SITES}")
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
