"""A site's Lark grammar (``<site>.lark`` beside this file) as the reading of the lines its
importer's string tests do not know: built at the first such line, each line's reading
remembered (bounded).

The importer reads every usual line itself; the grammar is the format's documentation and says
whether an unusual line is one the site writes that is no action (a table event, a tournament
fact, a summary line): :meth:`SiteGrammar.accepts`. A line it reads as an action the string
tests missed is not accepted: it stays a finding rather than an action passed over.
"""

from __future__ import annotations

import os
from typing import Final

_MEMO_MAX: Final = 4096
# The grammar's rules for lines that are no action (see each .lark file's "event" and "summary" rules).
_NOT_ACTIONS: Final = frozenset(["event", "summary_line", "header", "table", "seat"])


def grammar_path(name: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


class SiteGrammar:
    """One site's grammar: parsing one line at a time, names replaced by PLAYER tokens."""

    def __init__(self, file_name: str) -> None:
        self.file_name = file_name
        self._parser: list = []
        self._memo: dict[str, str] = {}

    def parser(self):  # -> lark.Lark (untyped: lark is not part of the compiled build's types)
        if not self._parser:
            from lark import Lark

            with open(grammar_path(self.file_name), encoding="utf-8") as f:
                text = f.read()
            self._parser.append(Lark(text, parser="earley", lexer="dynamic", ambiguity="resolve"))
        return self._parser[0]

    def rule(self, line: str, names: list[str]) -> str:
        """The grammar rule that reads ``line`` (the seated name at its start, or after "Dealt to ",
        ") returned to " or a seat line's "Seat N: ", replaced by PLAYER), or "" when the grammar
        does not accept it."""
        text = line
        at = 0
        if line.startswith("Dealt to "):
            at = 9
        elif line.startswith("Uncalled bet ("):
            cut = line.find(") returned to ")
            at = cut + 14 if cut > 0 else 0
        elif line.startswith("Seat "):
            cut = line.find(": ")
            at = cut + 2 if cut > 0 else 0
        for k in range(len(names)):
            name = names[k]
            end = at + len(name)
            if line.startswith(name, at) and (end == len(line) or line[end] == ":" or line[end] == " "):
                text = f"{line[:at]}\x01{k}\x02{line[end:]}"
                break
        got = self._memo.get(text)
        if got is None:
            if len(self._memo) >= _MEMO_MAX:
                self._memo.clear()
            got = self._memo[text] = self._parse(text)
        return got

    def _parse(self, text: str) -> str:
        from lark import LarkError, Tree

        try:
            tree = self.parser().parse(text)
        except LarkError:
            return ""
        node = tree.children[0] if tree.children else None
        return str(node.data) if isinstance(node, Tree) else ""

    def accepts(self, line: str, names: list[str]) -> bool:
        """Whether ``line`` is one the site writes that is no action."""
        return self.rule(line, names) in _NOT_ACTIONS
