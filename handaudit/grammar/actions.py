"""Parse one PHH action string by the grammar in ``phh.lark``.

A parse is a pure function of the string, and site logs repeat the same strings ('p3 f',
'd dh p1 ????') millions of times, so results are memoised. Amounts come back unscaled
(``'p1 cbr 3.00'`` -> amount 300 with 2 decimals); the reader scales them to the hand's unit.

Most strings are parsed by templates of what the grammar parsed before (below), starting from
the usual shapes in ``action_shapes.py``; the Lark parse itself is in ``action_parser.py``, which
is imported only when a string needs it (a new shape, commentary, an error to report).
"""

from __future__ import annotations

import os
import re
import re._constants as _sre
import re._parser as _sre_parser
from abc import ABCMeta, abstractmethod
from types import ModuleType
from typing import Any, Callable, ClassVar, Final, NamedTuple

from ..core.cards import cards_from_text
from ..core.digest import blake2b
from ..core.hand import (
    BET_RAISE,
    BRING_IN,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DISCARD,
    FOLD,
    SHOW_MUCK,
    Action,
)
from ..core.value import Value


_ACTION_ERROR_FIELDS = ("code", "message", "column")


class ActionError(Value):
    """Why an action string was refused: a finding code, a message, and the 1-based column."""

    __slots__ = _ACTION_ERROR_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _ACTION_ERROR_FIELDS

    def __init__(self, code: str, message: str, column: int) -> None:
        self.code: Final = code
        self.message: Final = message
        self.column: Final = column


class ParsedAction(Value):
    """A parsed action whose ``amount`` (if any) has ``decimals`` decimal places, unscaled.

    A value (see :class:`~handaudit.core.value.Value`); a plain class for the same reason as
    :class:`~handaudit.core.hand.Action`.
    """

    __slots__ = ("action", "decimals")
    FIELDS: ClassVar[tuple[str, ...]] = ("action", "decimals")

    def __init__(self, action: Action, decimals: int = 0) -> None:
        self.action: Final = action
        self.decimals: Final = decimals


class BadCards(Exception):
    """A card or player the grammar's pattern admits but the notation refuses.

    ``token`` is the Lark token (type and column) in a full parse; the template path of
    :func:`parse_action` passes plain text and takes the full parse to report the error.
    """

    def __init__(self, token: str, message: str):
        super().__init__(message)
        self.token = token
        self.message = message


def _player(token: str) -> int:
    """The 0-based player of a PLAYER word (``p`` and ASCII digits: the terminal's pattern)."""
    number = 0
    for i in range(1, len(token)):  # not int(token[1:]): a generic call (docs/performance.md)
        number = number * 10 + ord(token[i]) - 48
    if number < 1:
        raise BadCards(token, f"player {token!s} does not exist: players are numbered from p1")
    return number - 1


def _cards(token: str) -> tuple[int, ...]:
    try:
        return cards_from_text(token)
    except ValueError:
        text = str(token)  # the text of a Token, for the message
        # Find the first bad two-character card for the message.
        for i in range(0, len(text), 2):
            chunk = text[i : i + 2]
            try:
                cards_from_text(chunk)
            except ValueError:
                break
        raise BadCards(token, f"bad card notation {chunk!r} in {text!r}") from None


def _amount(token: str) -> tuple[int, int]:
    """An AMOUNT word (ASCII digits, maybe one '.': the terminal's pattern) as its digits read
    as one integer, and the number of decimals: '3.00' -> (300, 2). (Not int() of the digits
    partitioned and joined: that builds strings and makes a generic call.)"""
    number = 0
    decimals = -1  # none yet: no '.' seen
    for i in range(len(token)):
        c = ord(token[i])
        if c == 46:  # '.'
            decimals = 0
        else:
            number = number * 10 + c - 48
            if decimals >= 0:
                decimals += 1
    return number, max(decimals, 0)


# What each command of the grammar means: one class per command rule of phh.lark, whose ``make``
# turns the rule's items (tokens, or their text on the template path) into the parsed action.
# The transformer below calls them for a full parse; parse_action's templates call the same
# objects for a reused parse, so there is one definition of each. (Native classes: a template
# calls ``make`` natively, not through a generic call of a function object.)
class Command(metaclass=ABCMeta):
    """A command rule of phh.lark: each subclass below is one rule's meaning."""

    @abstractmethod
    def make(self, items: list[str]) -> ParsedAction:
        """The parsed action of the rule's ``items`` (tokens, or their text)."""


class _DealBoard(Command):
    def make(self, items: list[str]) -> ParsedAction:
        return ParsedAction(Action(DEAL_BOARD, None, _cards(items[2])))


class _DealHole(Command):
    def make(self, items: list[str]) -> ParsedAction:
        return ParsedAction(Action(DEAL_HOLE, _player(items[2]), _cards(items[3])))


class _BringIn(Command):
    def make(self, items: list[str]) -> ParsedAction:
        return ParsedAction(Action(BRING_IN, _player(items[0])))


class _BetRaise(Command):
    def make(self, items: list[str]) -> ParsedAction:
        amount, decimals = _amount(items[2])
        return ParsedAction(Action(BET_RAISE, _player(items[0]), amount=amount), decimals)


class _CheckCall(Command):
    def make(self, items: list[str]) -> ParsedAction:
        return ParsedAction(Action(CHECK_CALL, _player(items[0])))


class _Fold(Command):
    def make(self, items: list[str]) -> ParsedAction:
        return ParsedAction(Action(FOLD, _player(items[0])))


class _Discard(Command):
    def make(self, items: list[str]) -> ParsedAction:
        cards = _cards(items[2]) if len(items) > 2 else None
        return ParsedAction(Action(DISCARD, _player(items[0]), cards))


class _ShowMuck(Command):
    def make(self, items: list[str]) -> ParsedAction:
        if len(items) > 2 and items[2] == "-":
            return ParsedAction(Action(SHOW_MUCK, _player(items[0]), None, show_dash=True))
        cards = _cards(items[2]) if len(items) > 2 else None
        return ParsedAction(Action(SHOW_MUCK, _player(items[0]), cards))


_DEAL_BOARD: Final = _DealBoard()
_DEAL_HOLE: Final = _DealHole()
_BRING_IN: Final = _BringIn()
_BET_RAISE: Final = _BetRaise()
_CHECK_CALL: Final = _CheckCall()
_FOLD: Final = _Fold()
_DISCARD: Final = _Discard()
_SHOW_MUCK: Final = _ShowMuck()


# The commands by their rule names in phh.lark (the parser's callbacks; action_shapes.py's words).
COMMANDS: Final[dict[str, Command]] = {
    "deal_board": _DEAL_BOARD,
    "deal_hole": _DEAL_HOLE,
    "bring_in": _BRING_IN,
    "bet_raise": _BET_RAISE,
    "check_call": _CHECK_CALL,
    "fold": _FOLD,
    "discard": _DISCARD,
    "show_muck": _SHOW_MUCK,
}


def grammar_text() -> str:
    """The notation's grammar, ``phh.lark`` next to this module (read by path: importing
    importlib.resources would cost some 4 ms of every run's start)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "phh.lark"), encoding="utf-8") as f:
        return f.read()


def grammar_digest(text: str) -> str:
    """The digest of a grammar text that action_shapes.py was written from."""
    return blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


_FULL: list[ModuleType] = []  # action_parser, once imported


def full_parser() -> Any:
    """The module of the full Lark parse (action_parser), imported on first use: importing Lark
    and building the grammar's LALR tables cost some 30 ms, more than a small run's hands."""
    if not _FULL:
        from . import action_parser

        _FULL.append(action_parser)
    return _FULL[0]


def shapes_data(grammar: str) -> Any:
    """action_shapes.py, or None if it is missing or was written from another grammar than
    ``grammar`` (phh.lark's text; then every shape is learned by full parses, as if it had none)."""
    try:
        from . import action_shapes
    except ImportError:  # not written yet: action_parser.main() writes it
        return None
    return action_shapes if action_shapes.GRAMMAR_DIGEST == grammar_digest(grammar) else None


_SHAPES_DATA: Final = shapes_data(grammar_text())


def _terminal_regexp(name: str) -> str:
    """A terminal's pattern as a regular expression: from action_shapes.py, or from the grammar."""
    data = _SHAPES_DATA
    if data is not None:
        return str(data.TERMINALS[name])
    return str(full_parser().terminal_regexp(name))

# The parse of an action's shape, reused for other players and last words. Action strings
# differ mostly in their player and their last word (cards, an amount): 'd dh p1 AsKd',
# 'd dh p4 7h7c', 'p3 cbr 30', 'p7 f'. Once the grammar has parsed 'd dh p1 AsKd' it has said
# that after 'd dh' comes a PLAYER terminal and then one CARDS terminal; any string of the same
# words whose player words match the PLAYER terminal's own pattern, and whose last word matches
# the CARDS pattern, parses the same way (the contextual lexer allows the same terminals at
# each position, and no other terminal matches such a word), through the same command. So a
# new deal, amount or player costs a dictionary look-up and a pattern check instead of a Lark
# parse (docs/performance.md), and the grammar stays the only definition of the notation.
#
# Templates are learned per *shape* of the leading words (the head: all words but the last),
# with every player word as None (None is no word, so no text can pose as the placeholder):
# ('d', 'dh', None) has a template whose last word varies over CARDS; (None,) has one per
# fixed last word ('f', 'cc', ...). A string is looked up by its head's *text* ('d dh p3 ',
# separator included), whose templates are bound to its player words on first use: a new
# string then costs a scan for its last word and one string-keyed look-up, with no split,
# shape, tuple key or player pattern (about half the cost: docs/performance.md). The head's
# whitespace must be the grammar's own (WS), which str.split's is not always (it also splits
# at \x1c or \u2003): checked when the head is first seen. Strings with
# commentary always take the full parse (templates are learned from strings without '#', a
# head word with '#' is in no learned shape, and no reusable terminal matches a last word with
# '#'), and anything the command refuses (p0, a bad card) takes it too, so that errors keep
# their column.
_Match = Callable[[str], object]  # a compiled pattern's fullmatch


class _Terminal:
    """A grammar terminal's test of one word: does the terminal match all of it?

    A terminal that is one class of characters repeated (CARDS ``[^\\s#]+``, WS) matches a word
    iff it matches each of its characters alone; its verdict on each ASCII character is taken
    once, from its own pattern, so testing a word is a table look-up per character instead of
    a regular expression call (whose cost is mostly the match object). Any other
    terminal (AMOUNT) takes the pattern itself, once per word (``seen``: amounts recur, 40-50%
    of those in new strings); so does a word with a non-ASCII character.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        regexp = _terminal_regexp(name)
        self.fullmatch: _Match = re.compile(regexp).fullmatch
        self.ascii: list[bool] | None = None
        self.seen: dict[str, bool] = {}  # the pattern's verdicts, for a terminal without a table
        parsed = _sre_parser.parse(regexp)  # as lark.utils reads a pattern's width
        if len(parsed) == 1 and parsed[0][0] is _sre.MAX_REPEAT:
            low, high, item = parsed[0][1]
            if low == 1 and high == _sre.MAXREPEAT and len(item) == 1 and item[0][0] in _ONE_CHARACTER:
                self.ascii = [self.fullmatch(chr(c)) is not None for c in range(128)]

    def has(self, c: int) -> bool:
        """Whether the terminal matches the character of ordinal ``c`` alone."""
        table = self.ascii
        if table is not None and c < 128:
            return table[c]
        return self.fullmatch(chr(c)) is not None

    def matches(self, word: str) -> bool:
        """Whether the terminal matches all of ``word``."""
        table = self.ascii
        if table is None:
            seen = self.seen
            verdict = seen.get(word)
            if verdict is None:
                if len(seen) >= _MAX_TEMPLATES:
                    seen.clear()
                verdict = seen[word] = self.fullmatch(word) is not None
            return verdict
        if not word:
            return self.fullmatch(word) is not None
        for i in range(len(word)):
            c = ord(word[i])
            if c >= 128:
                return self.fullmatch(word) is not None
            if not table[c]:
                return False
        return True


_ONE_CHARACTER: Final = (_sre.IN, _sre.LITERAL, _sre.NOT_LITERAL, _sre.ANY, _sre.CATEGORY)
_REUSABLE: Final = {name: _Terminal(name) for name in ("CARDS", "AMOUNT")}
_WS: Final = _Terminal("WS")
_WS_ASCII: Final = [_WS.has(c) for c in range(128)]  # common.WS is one class repeated: exact
_PLAYER_WORD: Final = re.compile(_terminal_regexp("PLAYER"))
_MAX_TEMPLATES: Final = 1 << 14


class Template:
    """One command's parse, learned: the items before the last word (as text), the positions
    of the player words among them, and the pattern the last word must match (None: the last
    word is the one the template was learned for)."""

    def __init__(self, command: Command, head: list[str], players: list[int], tail: _Terminal | None) -> None:
        self.command = command
        self.head = head
        self.players = players
        self.tail = tail

    def bind(self, words: list[str]) -> _Bound:
        """This template for the head ``words``: their player words in place of the learned ones."""
        items = self.head.copy()
        for i in self.players:
            items[i] = words[i]
        items.append("")  # the last word's slot
        return _Bound(self.command, items, self.tail)


class _Bound:
    """A template bound to one head text: the command's items, the last one a slot."""

    def __init__(self, command: Command, items: list[str], tail: _Terminal | None) -> None:
        self.command = command
        self.items = items
        self.tail = tail

    def make(self, last: str) -> ParsedAction | None:
        """The parse of the head followed by ``last`` (a word ``tail`` matches, or the fixed last
        word); None if the command refuses it (p0, a bad card: the full parse reports it)."""
        items = self.items
        items[len(items) - 1] = last  # the command reads and drops its items: no copy needed
        try:
            return self.command.make(items)
        except BadCards:
            return None


class _Shape:
    """The templates learned for one head shape: the one whose last word varies over a
    terminal, and those for a fixed last word."""

    def __init__(self) -> None:
        self.varying: Template | None = None
        self.fixed: dict[str, Template] = {}


class _Head:
    """The templates of one head text: its shape's (None: none, or whitespace the grammar does
    not allow), bound to its words on first use."""

    def __init__(self, shape: _Shape | None, words: list[str]) -> None:
        self.shape = shape
        self.words = words
        self.varying: _Bound | None = None
        self.varying_of: Template | None = None  # the shape's template that varying was bound from
        self.fixed: dict[str, _Bound] = {}

    def template(self, last: str) -> _Bound | None:
        """The bound template that parses this head followed by ``last``, if any."""
        shape = self.shape
        if shape is None:
            return None
        learned = shape.varying
        if learned is not None:
            varying = self.varying
            if varying is None or learned is not self.varying_of:
                varying = self.varying = learned.bind(self.words)
                self.varying_of = learned
            tail = varying.tail
            if tail is not None and tail.matches(last):
                return varying
        bound = self.fixed.get(last)
        if bound is None:
            fixed = shape.fixed.get(last)
            if fixed is None:
                return None
            bound = self.fixed[last] = fixed.bind(self.words)
        return bound


class Templates:
    """What full parses taught, per head shape; and per head text seen, its shape's templates."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled  # off: every new string takes the full Lark parse (use_templates)
        self.shapes: dict[tuple[str | None, ...], _Shape] = {}
        self.heads: dict[str, _Head] = {}

    def clear(self) -> None:
        self.shapes.clear()
        self.heads.clear()
        for terminal in _REUSABLE.values():
            terminal.seen.clear()

    def parse(self, text: str) -> ParsedAction | None:
        """The parse of ``text`` by a template; None if none applies (always, with commentary)."""
        # The last word, between the grammar's whitespace (WS); the key is all before it.
        # (WS's table read here, not through _WS.has: a method call per string saved.)
        ws = _WS_ASCII
        end = len(text)
        while end > 0:
            c = ord(text[end - 1])
            if not (ws[c] if c < 128 else _WS.has(c)):
                break
            end -= 1
        start = end
        while start > 0:
            c = ord(text[start - 1])
            if ws[c] if c < 128 else _WS.has(c):
                break
            start -= 1
        if start == end:
            return None
        last = text[start:end]
        key = text[:start]
        head = self.heads.get(key)
        if head is None:
            head = self._head(key)
        bound = head.template(last)
        return None if bound is None else bound.make(last)

    def _head(self, key: str) -> _Head:
        words = key.split()
        head = _Head(self.shapes.get(_shape(words)) if _grammar_spaced(key) else None, words)
        if len(self.heads) >= _MAX_TEMPLATES:
            self.heads.clear()
        self.heads[key] = head
        return head

    def seed(self) -> None:
        """Start from the shapes in action_shapes.py (none if it is stale: see shapes_data)."""
        data = _SHAPES_DATA
        if data is None or not self.enabled:
            return
        for key, last, rule, head, players, tail in data.SHAPES:
            shape = self.shapes.get(key)
            if shape is None:
                shape = self.shapes[key] = _Shape()
            template = Template(COMMANDS[rule], list(head), list(players), None if tail is None else _REUSABLE[tail])
            if last is None:
                shape.varying = template
            else:
                shape.fixed[last] = template

    def learn(self, words: list[str], last: tuple[Command, list] | None) -> None:
        """Keep a full parse of ``words`` (its command and items, as the parser's callback had
        them; tokens, whose ``type`` is their terminal) as a template, if it can be reused."""
        if last is None or len(self.shapes) >= _MAX_TEMPLATES:
            return
        command, items = last
        # a plain zip (mypyc compiles only that into a loop), the lengths being compared first
        if len(items) != len(words) or any(str(item) != word for item, word in zip(items, words)):  # noqa: B905
            return
        players = [i for i, item in enumerate(items) if getattr(item, "type", None) == "PLAYER"]
        shape = _shape(words)
        if [i for i, w in enumerate(shape) if w is None] != players:
            return  # the player-like words must be exactly the PLAYER tokens
        n = len(words) - 1
        head = [str(item) for item in items[:n]]
        learned = self.shapes.get(shape[:n])
        if learned is None:
            learned = self.shapes[shape[:n]] = _Shape()
            # The heads seen without a shape may be of this one; the others keep theirs.
            self.heads = {key: head for key, head in self.heads.items() if head.shape is not None}
        tail = getattr(items[n], "type", None)
        if tail is not None and tail in _REUSABLE:
            learned.varying = Template(command, head, players, _REUSABLE[tail])
        else:  # a fixed last word (a PLAYER word last would be fixed too: the key is its text)
            learned.fixed[words[n]] = Template(command, head, [i for i in players if i < n], None)


def _shape(words: list[str]) -> tuple[str | None, ...]:
    """The words with each player word (one the PLAYER terminal matches) as None."""
    return tuple([None if _PLAYER_WORD.fullmatch(w) else w for w in words])


def _grammar_spaced(text: str) -> bool:
    """Whether all of ``text``'s whitespace (as str.split sees it) is the grammar's (WS)."""
    for i in range(len(text)):
        if text[i].isspace() and not _WS.has(ord(text[i])):
            return False
    return True


# HANDAUDIT_TEMPLATES=off in the environment (inherited by worker processes) turns the templates
# off for a run: to rule the fast path out when a parse looks wrong, and to measure what it saves.
_TEMPLATES: Final = Templates(os.environ.get("HANDAUDIT_TEMPLATES", "on").lower() not in ("off", "0", "no"))
_TEMPLATES.seed()


def use_templates(enabled: bool) -> None:
    """Turn the template fast path on or off in this process (and forget what it learned, back
    to the shapes of action_shapes.py).

    Off, every action string not in the memo takes the full Lark parse; the results are the
    same either way (tests/grammar/test_action_templates.py), only slower.
    """
    _TEMPLATES.clear()
    _TEMPLATES.enabled = enabled
    _TEMPLATES.seed()
    parse_action.cache_clear()


def _parse_action(text: str) -> ParsedAction | ActionError:
    """Parse one action string, unmemoised; never raises."""
    templates = _TEMPLATES
    if templates.enabled:
        try:
            reused = templates.parse(text)
        except Exception:  # never expected; then the full parse, the authority, has the word
            reused = None
        if reused is not None:
            return reused
    full = full_parser()
    parsed = full.parse(text)
    if templates.enabled and isinstance(parsed, ParsedAction) and "#" not in text:  # no commentary
        templates.learn(text.split(), full.last_command())
    return parsed  # type: ignore[no-any-return]


class CacheInfo(NamedTuple):
    """The memo's counters, as ``functools.lru_cache`` reports them."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


_MEMO_SIZE: Final = 1 << 16


class _Memo:
    """:func:`parse_action`: the parse, memoised in a dict (emptied when it reaches its size).

    Not ``functools.lru_cache``: a hit there goes through the Python call protocol and the
    recency list; here, compiled, :meth:`parse` is a native call and a dict look-up (the reader
    makes one per action; calling the instance goes through its type's call slot). Same
    interface for callers: ``cache_clear``, ``cache_info``, ``__wrapped__`` (the unmemoised parse).
    """

    def __init__(self) -> None:
        self.results: dict[str, ParsedAction | ActionError] = {}
        self.hits = 0
        self.misses = 0
        self.__wrapped__ = _parse_action

    def __call__(self, text: str) -> ParsedAction | ActionError:
        """Parse one action string; never raises. Results are memoised (the parse is pure)."""
        return self.parse(text)

    def parse(self, text: str) -> ParsedAction | ActionError:
        """:meth:`__call__` by name: compiled, a call of the instance is a generic call through
        its type's slot (some 150 instructions an action), a method call a native one."""
        results = self.results
        result = results.get(text)
        if result is not None:
            self.hits += 1
            return result
        self.misses += 1
        if len(results) >= _MEMO_SIZE:
            results.clear()
        result = results[text] = _parse_action(text)
        return result

    def cache_clear(self) -> None:
        self.results.clear()
        self.hits = self.misses = 0

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, _MEMO_SIZE, len(self.results))


parse_action: Final = _Memo()
