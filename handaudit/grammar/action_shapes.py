"""The usual shapes of the action notation, as full parses of phh.lark teach them.

Written by ``action_parser.main()`` (do not edit): parse_action's templates start from
these, so a run of usual strings needs no Lark parse. Ignored when GRAMMAR_DIGEST is not
the digest of phh.lark's text (actions.shapes_data).
"""

GRAMMAR_DIGEST = 'd9990209ad0dd47565926b27fdecaf40'

# Each terminal the templates test a word with, as a regular expression.
TERMINALS = {
    'AMOUNT': '[0-9]+(\\.[0-9]+)?(?![^\\s#])',
    'CARDS': '[^\\s#]+',
    'PLAYER': 'p[0-9]+(?![^\\s#])',
    'WS': '(?:[ \t\x0c\r\n])+',
}

# (head shape with None for a player word, fixed last word or None for a varying one, command
# rule, head words as parsed, positions of the player words, the varying last word's terminal)
SHAPES = [
    (('d', 'db'), None, 'deal_board', ('d', 'db'), (), 'CARDS'),
    (('d', 'dh', None), None, 'deal_hole', ('d', 'dh', 'p1'), (2,), 'CARDS'),
    ((None,), 'cc', 'check_call', ('p1',), (0,), None),
    ((None,), 'f', 'fold', ('p1',), (0,), None),
    ((None,), 'pb', 'bring_in', ('p1',), (0,), None),
    ((None,), 'sd', 'discard', ('p1',), (0,), None),
    ((None,), 'sm', 'show_muck', ('p1',), (0,), None),
    ((None, 'cbr'), None, 'bet_raise', ('p1', 'cbr'), (0,), 'AMOUNT'),
    ((None, 'sd'), None, 'discard', ('p1', 'sd'), (0,), 'CARDS'),
    ((None, 'sm'), None, 'show_muck', ('p1', 'sm'), (0,), 'CARDS'),
]
