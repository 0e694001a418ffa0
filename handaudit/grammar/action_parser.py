"""The full parse of one action string: Lark's LALR parser of ``phh.lark``, built on import.

Imported on first need (``actions.full_parser``): a string of a shape no template knows, one
with commentary, or one to refuse with its column. A run whose action strings all have the
usual shapes of ``action_shapes.py`` never imports Lark nor builds the LALR tables, some 30 ms
of a run's start (docs/performance.md).

``python -c "from handaudit.grammar import action_parser; action_parser.main()"`` writes
``action_shapes.py`` from the grammar:
the templates that full parses of ``SEEDS`` teach (tests/grammar/test_action_shapes.py fails
when the file is not what the grammar gives).
"""

from __future__ import annotations

import os
import sys

from lark import Lark, Token, Transformer, UnexpectedInput

from ..core.hand import NOOP, Action
from . import actions
from .action_messages import describe_unexpected
from .actions import ActionError, ParsedAction


class _ToAction(Transformer):
    """Turns the parse tree into an :class:`Action` (plus the amount's decimals).

    Each command callback notes its command and its tokens in ``last`` so that
    :func:`actions.parse_action` can reuse the parse of the leading words (see there).
    """

    last: tuple[actions.Command, list] | None = None

    def start(self, items):
        parsed = ParsedAction(Action(NOOP))
        commentary = None
        for item in items:
            if isinstance(item, ParsedAction):
                parsed = item
            elif isinstance(item, Token) and item.type == "COMMENTARY":
                commentary = item[1:].strip()
        if commentary is not None:
            a = parsed.action
            parsed = ParsedAction(
                Action(a.kind, a.player, a.cards, a.amount, commentary, a.show_dash), parsed.decimals
            )
        return parsed

    def _command(self, rule: str, items: list) -> ParsedAction:
        command = actions.COMMANDS[rule]
        self.last = (command, items)
        return command.make(items)

    def deal_board(self, items):
        return self._command("deal_board", items)

    def deal_hole(self, items):
        return self._command("deal_hole", items)

    def bring_in(self, items):
        return self._command("bring_in", items)

    def bet_raise(self, items):
        return self._command("bet_raise", items)

    def check_call(self, items):
        return self._command("check_call", items)

    def fold(self, items):
        return self._command("fold", items)

    def discard(self, items):
        return self._command("discard", items)

    def show_muck(self, items):
        return self._command("show_muck", items)


# The transformer runs inside the LALR parser (no tree is built): one pass per string.
_TRANSFORMER = _ToAction()
_PARSER = Lark(actions.grammar_text(), parser="lalr", lexer="contextual", maybe_placeholders=False,
               transformer=_TRANSFORMER)


def parse(text: str) -> ParsedAction | ActionError:
    """The full parse of ``text``; never raises. After a parse, :func:`last_command` has what
    the grammar's command rule had."""
    _TRANSFORMER.last = None
    try:
        return _PARSER.parse(text)  # type: ignore[return-value]  # the transformer's value
    except UnexpectedInput as err:
        message, column = describe_unexpected(text, err)
        return ActionError("syntax-error", message, column)
    except Exception as err:  # a card or player refused by the transformer
        inner = getattr(err, "orig_exc", err)
        if isinstance(inner, actions.BadCards):
            token = inner.token  # a Token here: only the full parse lets BadCards out
            if not isinstance(token, Token):
                return ActionError("invalid-card", inner.message, 1)
            code = "unknown-player" if token.type == "PLAYER" else "invalid-card"
            return ActionError(code, inner.message, token.column or 1)
        return ActionError("syntax-error", f"cannot parse action {text!r}: {inner}", 1)


def last_command() -> tuple[actions.Command, list] | None:
    """The command and the tokens of the last parse's command rule (None: it had none)."""
    return _TRANSFORMER.last


def terminal_regexp(name: str) -> str:
    """A terminal of the grammar as one regular expression."""
    return str(_PARSER.get_terminal(name).pattern.to_regexp())


# One string of each usual shape of the notation; their parses are action_shapes.py's templates.
SEEDS = ("d db AsKd7c", "d dh p1 AsKd", "p1 pb", "p1 cbr 10", "p1 cc", "p1 f", "p1 sd", "p1 sd 7h", "p1 sm",
         "p1 sm AsKd")
TERMINALS = ("AMOUNT", "CARDS", "PLAYER", "WS")  # the terminals the templates test words with


def shapes_source() -> str:
    """The text of action_shapes.py: what full parses of SEEDS teach, from this grammar."""
    taught = actions.Templates(True)
    for text in SEEDS:
        parsed = parse(text)
        if not isinstance(parsed, ParsedAction):
            raise ValueError(f"the seed {text!r} does not parse: {parsed.message}")
        taught.learn(text.split(), last_command())
    rules = {id(command): rule for rule, command in actions.COMMANDS.items()}
    rows = []
    for key, shape in taught.shapes.items():
        templates: list[tuple[str | None, actions.Template]] = []
        if shape.varying is not None:
            templates.append((None, shape.varying))
        templates += sorted(shape.fixed.items())
        for last, t in templates:
            tail = None if t.tail is None else t.tail.name
            rows.append(f"    ({key!r}, {last!r}, {rules[id(t.command)]!r}, {tuple(t.head)!r}, {tuple(t.players)!r}, "
                        f"{tail!r}),\n")
    terminals = "".join(f"    {name!r}: {terminal_regexp(name)!r},\n" for name in TERMINALS)
    return (
        '"""The usual shapes of the action notation, as full parses of phh.lark teach them.\n\n'
        "Written by ``action_parser.main()`` (do not edit): parse_action's templates start from\n"
        "these, so a run of usual strings needs no Lark parse. Ignored when GRAMMAR_DIGEST is not\n"
        "the digest of phh.lark's text (actions.shapes_data).\n"
        '"""\n\n'
        f"GRAMMAR_DIGEST = {actions.grammar_digest(actions.grammar_text())!r}\n\n"
        "# Each terminal the templates test a word with, as a regular expression.\n"
        f"TERMINALS = {{\n{terminals}}}\n\n"
        "# (head shape with None for a player word, fixed last word or None for a varying one, command\n"
        "# rule, head words as parsed, positions of the player words, the varying last word's terminal)\n"
        f"SHAPES = [\n{''.join(rows)}]\n"
    )


def main() -> None:
    """Write action_shapes.py next to this module."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "action_shapes.py")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(shapes_source())
    print(f"wrote {path}", file=sys.stderr)
