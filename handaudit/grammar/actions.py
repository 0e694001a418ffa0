"""Parse one PHH action string with the Lark grammar in ``phh.lark``.

A parse is a pure function of the string, and site logs repeat the same strings ('p3 f',
'd dh p1 ????') millions of times, so results are memoised. Amounts come back unscaled
(``'p1 cbr 3.00'`` -> amount 300 with 2 decimals); the reader scales them to the hand's unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from typing import ClassVar, Final, NamedTuple

from lark import Lark, Token, Transformer, UnexpectedInput

from ..cards import cards_from_text
from ..model import (
    BET_RAISE,
    BRING_IN,
    CHECK_CALL,
    DEAL_BOARD,
    DEAL_HOLE,
    DISCARD,
    FOLD,
    NOOP,
    SHOW_MUCK,
    Action,
)
from ..values import Value, init_args


@dataclass(frozen=True, slots=True)
class ActionError:
    """Why an action string was refused: a finding code, a message, and the 1-based column."""

    code: str
    message: str
    column: int

    def __reduce__(self) -> tuple:
        return (ActionError, init_args(self))  # see handaudit/values.py


class ParsedAction(Value):
    """A parsed action whose ``amount`` (if any) has ``decimals`` decimal places, unscaled.

    A value (see :class:`~handaudit.values.Value`); a plain class for the same reason as
    :class:`~handaudit.model.Action`.
    """

    __slots__ = ("action", "decimals")
    FIELDS: ClassVar[tuple[str, ...]] = ("action", "decimals")

    def __init__(self, action: Action, decimals: int = 0) -> None:
        self.action: Final = action
        self.decimals: Final = decimals


class _BadCards(Exception):
    """A card or player the grammar's pattern admits but the notation refuses.

    ``token`` is the Lark token (type and column) in a full parse; the template path of
    :func:`parse_action` passes plain text and takes the full parse to report the error.
    """

    def __init__(self, token: str, message: str):
        super().__init__(message)
        self.token = token
        self.message = message


def _player(token: str) -> int:
    number = int(token[1:])
    if number < 1:
        raise _BadCards(token, f"player {token!s} does not exist: players are numbered from p1")
    return number - 1


def _cards(token: str) -> tuple[int, ...]:
    text = str(token)
    try:
        return cards_from_text(text)
    except ValueError:
        # Find the first bad two-character card for the message.
        for i in range(0, len(text), 2):
            chunk = text[i : i + 2]
            try:
                cards_from_text(chunk)
            except ValueError:
                break
        raise _BadCards(token, f"bad card notation {chunk!r} in {text!r}") from None


# What each command of the grammar means: one function per command rule of phh.lark, from the
# rule's items (tokens, or their text on the template path) to the parsed action. The
# transformer below calls them for a full parse; parse_action's templates call the same
# functions for a reused parse, so there is one definition of each.
def _deal_board(items: list) -> ParsedAction:
    return ParsedAction(Action(DEAL_BOARD, None, _cards(items[2])))


def _deal_hole(items: list) -> ParsedAction:
    return ParsedAction(Action(DEAL_HOLE, _player(items[2]), _cards(items[3])))


def _bring_in(items: list) -> ParsedAction:
    return ParsedAction(Action(BRING_IN, _player(items[0])))


def _bet_raise(items: list) -> ParsedAction:
    whole, _, frac = str(items[2]).partition(".")
    return ParsedAction(Action(BET_RAISE, _player(items[0]), amount=int(whole + frac)), len(frac))


def _check_call(items: list) -> ParsedAction:
    return ParsedAction(Action(CHECK_CALL, _player(items[0])))


def _fold(items: list) -> ParsedAction:
    return ParsedAction(Action(FOLD, _player(items[0])))


def _discard(items: list) -> ParsedAction:
    cards = _cards(items[2]) if len(items) > 2 else None
    return ParsedAction(Action(DISCARD, _player(items[0]), cards))


def _show_muck(items: list) -> ParsedAction:
    if len(items) > 2 and items[2] == "-":
        return ParsedAction(Action(SHOW_MUCK, _player(items[0]), None, show_dash=True))
    cards = _cards(items[2]) if len(items) > 2 else None
    return ParsedAction(Action(SHOW_MUCK, _player(items[0]), cards))


class _ToAction(Transformer):
    """Turns the parse tree into an :class:`Action` (plus the amount's decimals).

    Each command callback notes its command function and its tokens in ``last`` so that
    :func:`parse_action` can reuse the parse of the leading words (see there).
    """

    last: tuple | None = None

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

    def _command(self, command, items):
        self.last = (command, items)
        return command(items)

    def deal_board(self, items):
        return self._command(_deal_board, items)

    def deal_hole(self, items):
        return self._command(_deal_hole, items)

    def bring_in(self, items):
        return self._command(_bring_in, items)

    def bet_raise(self, items):
        return self._command(_bet_raise, items)

    def check_call(self, items):
        return self._command(_check_call, items)

    def fold(self, items):
        return self._command(_fold, items)

    def discard(self, items):
        return self._command(_discard, items)

    def show_muck(self, items):
        return self._command(_show_muck, items)


_GRAMMAR = files(__package__).joinpath("phh.lark").read_text(encoding="utf-8")
# The transformer runs inside the LALR parser (no tree is built): one pass per string.
_TRANSFORMER = _ToAction()
_PARSER = Lark(_GRAMMAR, parser="lalr", lexer="contextual", maybe_placeholders=False, transformer=_TRANSFORMER)

# The parse of an action's shape, reused for other players and last words. Action strings
# differ mostly in their player and their last word (cards, an amount): 'd dh p1 AsKd',
# 'd dh p4 7h7c', 'p3 cbr 30', 'p7 f'. Once the grammar has parsed 'd dh p1 AsKd' it has said
# that after 'd dh' comes a PLAYER terminal and then one CARDS terminal; any string of the same
# words whose player words match the PLAYER terminal's own pattern, and whose last word matches
# the CARDS pattern, parses the same way (the contextual lexer allows the same terminals at
# each position, and no other terminal matches such a word), through the same command function.
# So a new deal, amount or player costs a dictionary look-up and pattern checks instead of a
# Lark parse (17-200 us), and the grammar stays the only definition of the notation. A
# template's key is the string's words with every player word as None (None is no word, so
# no text can pose as the placeholder), and whether the last word varies; strings with
# commentary always take the full parse, and anything the command function refuses (p0, a bad
# card) takes it too, so that errors keep their column.
_TEMPLATES: dict[tuple[bool, tuple[str | None, ...]], tuple] = {}
_REUSABLE = {name: re.compile(_PARSER.get_terminal(name).pattern.to_regexp()) for name in ("CARDS", "AMOUNT")}
_PLAYER_WORD = re.compile(_PARSER.get_terminal("PLAYER").pattern.to_regexp())
_MAX_TEMPLATES = 1 << 14


def _shape(words: list[str]) -> tuple[str | None, ...]:
    """The words with each player word (one the PLAYER terminal matches) as None. (Only a word
    that starts with "p" can match: the test spares most words a regex call, ~1,400 instructions.)"""
    return tuple([None if w.startswith("p") and _PLAYER_WORD.fullmatch(w) else w for w in words])


def _remember_template(words: list[str]) -> None:
    last = _TRANSFORMER.last
    if last is None or len(_TEMPLATES) >= _MAX_TEMPLATES:
        return
    callback, items = last
    if len(items) != len(words) or any(str(item) != word for item, word in zip(items, words)):
        return
    players = tuple([i for i, item in enumerate(items) if isinstance(item, Token) and item.type == "PLAYER"])
    shape = _shape(words)
    if tuple([i for i, w in enumerate(shape) if w is None]) != players:
        return  # the player-like words must be exactly the PLAYER tokens
    tail = items[-1]
    if isinstance(tail, Token) and tail.type in _REUSABLE:
        _TEMPLATES[(True, shape[:-1])] = (callback, tuple(items[:-1]), players, _REUSABLE[tail.type])
    else:
        _TEMPLATES[(False, shape)] = (callback, tuple(items), players, None)


def _from_template(words: list[str]) -> ParsedAction | None:
    shape = _shape(words)
    template = _TEMPLATES.get((True, shape[:-1]))
    if template is not None and template[3].fullmatch(words[-1]):
        items = [*template[1], words[-1]]
    else:
        template = _TEMPLATES.get((False, shape))
        if template is None:
            return None
        items = list(template[1])
    for i in template[2]:  # the callbacks read words as text: they need not be made Tokens
        items[i] = words[i]
    try:
        parsed: ParsedAction = template[0](items)
    except _BadCards:  # p0, a bad card: the full parse reports it, with its column
        return None
    return parsed


def _describe_unexpected(text: str, err: UnexpectedInput) -> tuple[str, int]:
    column = getattr(err, "column", None) or 1
    token = getattr(err, "token", None)
    rest = text[column - 1 :].split()
    if token is not None and token.type == "$END":
        word, column = "end of action", len(text.rstrip()) + 1
    else:
        word = repr(rest[0]) if rest else "end of action"
    expected = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    hint = f" (expected one of: {', '.join(expected)})" if expected else ""
    return f"cannot parse action {text!r} at column {column}: unexpected {word}{hint}", column


def _parse_action(text: str) -> ParsedAction | ActionError:
    """Parse one action string, unmemoised; never raises."""
    words = text.split() if "#" not in text else None
    try:
        if words:
            reused = _from_template(words)
            if reused is not None:
                return reused
        _TRANSFORMER.last = None
        parsed: ParsedAction = _PARSER.parse(text)  # type: ignore[assignment]  # the transformer's value
        if words:
            _remember_template(words)
        return parsed
    except UnexpectedInput as err:
        message, column = _describe_unexpected(text, err)
        return ActionError("syntax-error", message, column)
    except Exception as err:  # a card or player refused by the transformer
        inner = getattr(err, "orig_exc", err)
        if isinstance(inner, _BadCards):
            token = inner.token  # a Token here: only the full parse lets _BadCards out
            if not isinstance(token, Token):
                return ActionError("invalid-card", inner.message, 1)
            code = "unknown-player" if token.type == "PLAYER" else "invalid-card"
            return ActionError(code, inner.message, token.column or 1)
        return ActionError("syntax-error", f"cannot parse action {text!r}: {inner}", 1)


class CacheInfo(NamedTuple):
    """The memo's counters, as ``functools.lru_cache`` reports them."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


_MEMO_SIZE: Final = 1 << 16


class _Memo:
    """:func:`parse_action`: the parse, memoised in a dict (emptied when it reaches its size).

    Not ``functools.lru_cache``: a hit there costs some 700 instructions through the Python
    call protocol and the recency list; here, compiled, it is a native call and a dict look-up,
    and the reader makes one per action. Same interface for callers: ``cache_clear``,
    ``cache_info``, ``__wrapped__`` (the unmemoised parse).
    """

    def __init__(self) -> None:
        self.results: dict[str, ParsedAction | ActionError] = {}
        self.hits = 0
        self.misses = 0
        self.__wrapped__ = _parse_action

    def __call__(self, text: str) -> ParsedAction | ActionError:
        """Parse one action string; never raises. Results are memoised (the parse is pure)."""
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
