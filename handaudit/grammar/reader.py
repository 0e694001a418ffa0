"""Read hands: TOML envelope, field checks per variant, action parsing, exact amounts.

:func:`read_hands`: paths to ReadResults (:mod:`.result`), one per hand; problems become located findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final, cast

import toml_rs

from ..core.amounts import amount_text
from ..core.cards import UNKNOWN, card_text
from ..core.currencies import hand_minor_units
from ..core.hand import Action, Hand
from ..core.variants import EXTENSION_VARIANTS, PHH_VARIANTS, VARIANTS, Variant
from ..findings.finding import Finding
from . import fields as F
from .actions import ActionError, ParsedAction, parse_action
from .chunk import Chunk
from .result import ReadResult
from .sources import expand_paths, read_chunks
from .tomlscan import nesting_finding

# The builder keeps the PHH fields whose type is right in a list, at each field's slot (its
# position in F.FIELDS): read natively by slot, not hashed by name (some 25 dict lookups a hand).
_SLOT: Final[dict[str, int]] = {name: slot for slot, name in enumerate(F.FIELDS)}
_KIND: Final[tuple[int, ...]] = tuple(F.FIELDS.values())
_NAMES: Final[tuple[str, ...]] = tuple(F.FIELDS)
_PER_PLAYER_SLOTS: Final[tuple[int, ...]] = tuple([_SLOT[name] for name in F.PER_PLAYER])
_AMOUNT_SLOTS: Final[tuple[int, ...]] = tuple([_SLOT[name] for name in F.AMOUNT_FIELDS])
_ACTIONS_FIELD: Final = _SLOT["actions"]
_STACKS_FIELD: Final = _SLOT["starting_stacks"]
_BLINDS_FIELD: Final = _SLOT["blinds_or_straddles"]
_BRING_IN_FIELD: Final = _SLOT["bring_in"]
_ANTE_TRIMMING_FIELD: Final = _SLOT["ante_trimming_status"]
_HAND_FIELD: Final = _SLOT["hand"]
_SEATS_FIELD: Final = _SLOT["seats"]
_SEAT_COUNT_FIELD: Final = _SLOT["seat_count"]
# The fields that may hold integers other than amounts (INT, STR_OR_INT, INTS): each integer a
# TOML 64-bit one, seats and seat_count 1..MAX_SEAT (README "Limits").
_INT_LOW: Final = -F.MAX_INT
_INT_HIGH: Final = F.MAX_INT
_SHORT: Final = 2**61  # well inside both the 64-bit range and a compiled short int
_INT_SLOTS: Final[tuple[int, ...]] = tuple([slot for slot, kind in enumerate(_KIND)
                                            if kind == F.INT or kind == F.STR_OR_INT or kind == F.INTS
                                            or _NAMES[slot] in ("time_limit", "time_banks")])
# Amounts that may be zero but not negative (a tuple constant: iterated natively, where a
# tuple display is iterated through a generic iterator).
_NON_NEGATIVE: Final[tuple[int, ...]] = (F.SLOT_ANTES, F.SLOT_FINISHING_STACKS, F.SLOT_WINNINGS)
_TOML_POS = re.compile(r"line (\d+),? column (\d+)")
# Each variant's deck plus the hidden card '??': one set test clears a deal's cards.
_DECK_OR_HIDDEN: dict[str, frozenset[int]] = {code: v.deck | {UNKNOWN} for code, v in VARIANTS.items()}


def read_hands(paths: Iterable[str]) -> Iterator[ReadResult]:
    """Every hand of every path (directories recursively, sorted), streamed.

    Raises :class:`~handaudit.grammar.chunk.SourceError` up front for a path that cannot be
    read at all; hand-level problems are findings.
    """
    for path in expand_paths(list(paths)):
        for chunk in read_chunks(path):
            yield read_chunk(chunk)


def read_text(text: str, source: str = "<text>", hand_key: str = "") -> ReadResult:
    """Read one hand given as text (tests, the API)."""
    # surrogatepass: a str holding a lone surrogate becomes bytes that fail decoding, and so a
    # syntax-error finding, instead of an exception.
    return read_chunk(Chunk(source, hand_key, 0, text.encode("utf-8", "surrogatepass"), 1))


def read_chunk(chunk: Chunk) -> ReadResult:
    """One hand's text -> ReadResult. Never raises."""
    if chunk.problem:
        code, message = chunk.problem
        return _unreadable(chunk, "", [Finding(code, message, line=chunk.line, column=1)])
    try:
        text = chunk.data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = chunk.data[: err.start]
        line = chunk.line + before.count(b"\n")
        column = err.start - (before.rfind(b"\n") + 1) + 1
        return _unreadable(chunk, "", [Finding(
            "syntax-error", f"not UTF-8 text: byte 0x{chunk.data[err.start]:02x} cannot be decoded",
            line=line, column=column)])
    if "\x00" in text:
        pos = text.index("\x00")
        line = chunk.line + text.count("\n", 0, pos)
        return _unreadable(chunk, text, [Finding("syntax-error", "binary data: NUL character in the text",
                                                 line=line, column=pos - text.rfind("\n", 0, pos))])
    too_deep = nesting_finding(text, chunk.line)  # toml-rs would crash on it (SIGSEGV)
    if too_deep is not None:
        return _unreadable(chunk, text, [too_deep])
    try:
        # TOML 1.0, the language PHH files are written in: toml-rs reads TOML 1.1 by default,
        # which would accept e.g. `time = 12:30`. Floats as their text (F.TomlFloat), read
        # exactly by their digits: no binary double ever decides an amount.
        doc = toml_rs.loads(text, toml_version="1.0.0", parse_float=F.toml_float)
    except Exception as err:  # toml_rs raises TOMLDecodeError (and others on odd input)
        msg = str(err)
        m = _TOML_POS.search(msg)
        line, column = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        msg = [part for part in msg.splitlines() if part.strip()][-1].strip() if m else msg
        return _unreadable(chunk, text, [Finding("syntax-error", f"TOML: {msg}",
                                                 line=chunk.line + line - 1, column=column)])
    return _HandBuilder(chunk, text, doc).build()


def _unreadable(chunk: Chunk, text: str, findings: list[Finding]) -> ReadResult:
    return ReadResult(chunk.source, chunk.hand_key, None, tuple(findings), text, chunk.line)


class _HandBuilder:
    """Checks one TOML document against the PHH field rules and builds the Hand."""

    def __init__(self, chunk: Chunk, text: str, doc: dict):
        self.chunk, self.text, self.doc = chunk, text, doc
        self.values: list[object] = [None] * len(_KIND)  # by slot: a field whose type is right
        self.findings: list[Finding] = []
        self.fatal = False
        # Per amount field (F.AMOUNT_FIELDS order): the total and the largest of its sizes.
        self.sums: list[int] = [0] * len(_AMOUNT_SLOTS)
        self.maxima: list[int] = [0] * len(_AMOUNT_SLOTS)

    # -- findings with a location ------------------------------------------------------------
    def _line_of(self, key: str) -> int | None:
        m = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", self.text, re.M)
        return self.chunk.line + self.text.count("\n", 0, m.start()) if m else None

    def field_finding(self, code: str, key: str, message: str, fatal: bool = False) -> None:
        # A field not written in the text (missing) is located at the hand's first line.
        line = self._line_of(key) or self.chunk.line
        self.findings.append(Finding(code, message, line=line, column=1))
        self.fatal |= fatal

    # -- the build ---------------------------------------------------------------------------
    def build(self) -> ReadResult:
        doc = self.doc
        values = self.values
        invalid: list[str] = []
        for key, value in doc.items():
            slot = _SLOT.get(key, -1)
            if slot < 0:
                if not key.startswith("_"):
                    self.field_finding("unknown-field", key, f"field {key!r} is not defined by the PHH spec "
                                       "(user fields start with '_')")
            elif F.type_ok(_KIND[slot], value):
                values[slot] = value
            else:
                invalid.append(key)
        variant = self._variant()
        if variant is None:
            return self._result(None)
        for key in variant.required:
            if key not in doc:
                self.field_finding("missing-field", key, f"field {key!r} is required for {variant.code}", True)
        for key in invalid:
            self.field_finding("invalid-field", key,
                               f"field {key!r} must be {F.KIND_NAMES[_KIND[_SLOT[key]]]}, not {_toml_type(doc[key])}",
                               key in variant.required or key == "actions")
        if self.fatal:
            return self._result(None)
        self._check_integers()
        texts = values[_ACTIONS_FIELD]
        if texts is not None and len(cast(list, texts)) > F.MAX_ACTIONS:
            self.field_finding("invalid-field", "actions", f"the hand has {len(cast(list, texts))} actions; "
                               f"handaudit reads at most {F.MAX_ACTIONS:,} a hand", True)
            return self._result(None)
        n = self._player_count(variant)
        if n is None:
            return self._result(None)
        # Every amount converted once, to integers at the field's own decimal places, in
        # F.AMOUNT_FIELDS order.
        amounts: list[tuple[list[int | None], int] | None] = [None] * len(_AMOUNT_SLOTS)
        for i in range(len(_AMOUNT_SLOTS)):
            value = values[_AMOUNT_SLOTS[i]]
            if value is not None:
                amounts[i] = F.exact_all(value if isinstance(value, list) else [value])
        self._check_amount_limits(variant, amounts)
        if self.fatal:
            return self._result(None)
        self._check_values(variant, amounts)
        actions = self._actions(cast(list[str], texts) if texts is not None else [], variant, n)
        if self.fatal:
            return self._result(None)
        scale = self._scale(actions, amounts)
        self._check_totals(variant, n, actions, amounts, scale)
        if self.fatal:
            return self._result(None)
        return self._result(self._hand(variant, n, actions, amounts, scale))

    def _variant(self) -> Variant | None:
        value = self.doc.get("variant")
        if value is None:
            self.field_finding("missing-field", "variant", "field 'variant' is missing: the variant decides the rest")
            return None
        if not isinstance(value, str):
            self.field_finding("invalid-field", "variant", f"field 'variant' must be a string, not {_toml_type(value)}")
            return None
        if value not in VARIANTS:
            self.field_finding("unknown-variant", "variant",
                               f"unknown variant {value!r}; PHH defines {', '.join(PHH_VARIANTS)}, and handaudit "
                               f"reads its own codes {', '.join(EXTENSION_VARIANTS)}")
            return None
        return VARIANTS[value]

    def _player_count(self, variant: Variant) -> int | None:
        values = self.values
        stacks = values[_STACKS_FIELD]
        if stacks is None:
            return None
        n = len(cast(list, stacks))
        if n < 2:
            self.field_finding("invalid-field", "starting_stacks", f"a hand needs at least 2 players, not {n}", True)
            return None
        if n > F.MAX_PLAYERS:
            self.field_finding("invalid-field", "starting_stacks", f"the hand has {n} players; handaudit reads "
                               f"at most {F.MAX_PLAYERS:,} a hand", True)
            return None
        for i in range(len(_PER_PLAYER_SLOTS)):
            slot = _PER_PLAYER_SLOTS[i]
            value = values[slot]
            if value is not None and len(cast(list, value)) != n:
                key = F.PER_PLAYER[i]
                required = key in variant.required
                self.field_finding("invalid-field", key, f"field {key!r} has {len(cast(list, value))} entries "
                                   f"for {n} players (starting_stacks has {n})", required)
                if not required:
                    values[slot] = None
        return None if self.fatal else n

    def _check_integers(self) -> None:
        """The integer fields that are not amounts (day, level, seats, hand, ...): each a TOML
        64-bit integer, seats and seat_count 1..MAX_SEAT. None of them is required: a value out
        of range is an invalid-field error and the field is dropped (from ``fields`` too, which
        the report's players table reads seats from)."""
        values = self.values
        for slot in _INT_SLOTS:
            value = values[slot]
            if value is None:
                continue
            seats = slot == _SEATS_FIELD or slot == _SEAT_COUNT_FIELD
            low, high = (1, F.MAX_SEAT) if seats else (_INT_LOW, _INT_HIGH)
            if not isinstance(value, list):
                if type(value) is not int:
                    continue  # a string (hand, table)
                v0 = cast(int, value)
                # Most integers are small: compared with short constants first (compiled, a
                # comparison with 2**63 - 1, a long, is a generic call).
                if (-_SHORT < v0 < _SHORT and not seats) or (seats and 1 <= v0 <= F.MAX_SEAT):
                    continue
            items = value if isinstance(value, list) else [value]
            for i in range(len(items)):
                v = items[i]
                if type(v) is int and not low <= cast(int, v) <= high:
                    key = _NAMES[slot]
                    where = f" entry {i + 1} (p{i + 1})" if isinstance(value, list) else ""
                    self.field_finding("invalid-field", key, f"field {key!r}{where} is {_shown(v)}: "
                                       f"it must be an integer from {low:,} to {high:,}")
                    values[slot] = None
                    self.doc.pop(key, None)
                    break

    def _check_amount_limits(self, variant: Variant, amounts: list[tuple[list[int | None], int] | None]) -> None:
        """Each amount within the limits on its own (README "Limits"): at most MAX_PLACES
        decimal places, at most MAX_UNITS units at its field's places. inf and nan are left to
        :meth:`_check_values`. Also keeps each field's total and largest size (``self.sums``,
        ``self.maxima``, at the field's places) for :meth:`_check_totals`."""
        values = self.values
        sums = self.sums
        maxima = self.maxima
        for slot in range(len(amounts)):
            amount = amounts[slot]
            if amount is None:
                continue
            units, places = amount
            total = 0
            largest = 0
            for i in range(len(units)):
                u = units[i]
                if u is not None and -F.MAX_UNITS <= u <= F.MAX_UNITS:
                    m = -u if u < 0 else u
                    total += m
                    if m > largest:
                        largest = m
                    continue
                if u is None:
                    raw = values[_AMOUNT_SLOTS[slot]]
                    v = cast(list, raw)[i] if isinstance(raw, list) else raw
                    if isinstance(v, F.TomlFloat) and v.places < 0:
                        self._bad(variant, amounts, slot, f"{_entry(slot, i, raw)} is {v!r}: " + (
                            f"more than {F.MAX_PLACES} decimal places" if v.places == F.TOO_PRECISE
                            else f"too large (more than {F.MAX_UNITS_TEXT} units of its last decimal place)"))
                        break
                elif u > F.MAX_UNITS or u < -F.MAX_UNITS:
                    raw = values[_AMOUNT_SLOTS[slot]]
                    v = cast(list, raw)[i] if isinstance(raw, list) else raw
                    self._bad(variant, amounts, slot, f"{_entry(slot, i, raw)} is {_shown(v)}: more than "
                              f"{F.MAX_UNITS_TEXT} units at {places} decimal places")
                    break
            sums[slot] = total
            maxima[slot] = largest

    def _bad(self, variant: Variant, amounts: list[tuple[list[int | None], int] | None], slot: int, message: str,
             required: bool = True) -> None:
        """An invalid value of ``F.AMOUNT_FIELDS[slot]``: fatal for a required field, else the
        field is dropped."""
        key = F.AMOUNT_FIELDS[slot]
        fatal = required and key in variant.required
        self.field_finding("invalid-field", key, message, fatal)
        if not fatal:
            self.values[_AMOUNT_SLOTS[slot]] = None
            amounts[slot] = None

    def _check_values(self, variant: Variant, amounts: list[tuple[list[int | None], int] | None]) -> None:
        values = self.values
        for slot in range(F.SCALAR_SLOTS):
            scalar = amounts[slot]
            if scalar is not None:
                amount = scalar[0][0]
                if amount is None or amount <= 0:
                    key = F.AMOUNT_FIELDS[slot]
                    self._bad(variant, amounts, slot, f"field {key!r} must be a positive amount, not {values[_AMOUNT_SLOTS[slot]]!r}")
        for slot in _NON_NEGATIVE:
            array = amounts[slot]
            if array is not None:
                for i, amount in enumerate(array[0]):
                    if amount is None or amount < 0:
                        key = F.AMOUNT_FIELDS[slot]
                        self._bad(variant, amounts, slot,
                                  f"field {key!r} entry {i + 1} (p{i + 1}) must be a non-negative amount, "
                                  f"not {cast(list, values[_AMOUNT_SLOTS[slot]])[i]!r}")
                        break
        stacks = amounts[F.SLOT_STARTING_STACKS]
        if stacks is not None:
            for i, amount in enumerate(stacks[0]):
                if amount is None or amount <= 0:
                    v = cast(list, values[_STACKS_FIELD])[i]
                    if amount is None and isinstance(v, F.TomlFloat) and v.infinite:
                        continue
                    self._bad(variant, amounts, F.SLOT_STARTING_STACKS,
                              f"starting stack of p{i + 1} must be positive (or inf), not {v!r}")
                    break
        blinds = amounts[F.SLOT_BLINDS]
        if blinds is not None:
            for i, amount in enumerate(blinds[0]):
                if amount is None:
                    self._bad(variant, amounts, F.SLOT_BLINDS,
                              f"blind of p{i + 1} must be a finite amount, not {cast(list, values[_BLINDS_FIELD])[i]!r}")
                    break
                if amount < 0:
                    v = cast(list, values[_BLINDS_FIELD])[i]
                    self.field_finding("negative-blind", "blinds_or_straddles",
                                       f"p{i + 1} posts {_written(v, True)} from outside the blind seats "
                                       f"(written as {v!r}: a missed or new-player blind)")
        blinds_field = values[_BLINDS_FIELD]
        if values[_BRING_IN_FIELD] is not None and blinds_field is not None and any(cast(list, blinds_field)):
            self._bad(variant, amounts, F.SLOT_BLINDS, "bring_in and blinds_or_straddles must "
                      "never be used together (PHH spec: bring-in)", required=False)

    def _actions(self, texts: list[str], variant: Variant, n: int) -> list[ParsedAction]:
        parsed: list[ParsedAction] = []
        deck_or_hidden = _DECK_OR_HIDDEN[variant.code]
        for index, text in enumerate(texts):
            if len(text) > F.MAX_ACTION_CHARS:
                self._action_error(index, text, ActionError(
                    "invalid-field", f"{len(text):,} characters; handaudit reads actions of at most "
                    f"{F.MAX_ACTION_CHARS:,}", 1))
                continue
            result = parse_action.parse(text)
            if isinstance(result, ActionError):
                self._action_error(index, text, result)
                continue
            action = result.action
            amount = action.amount
            if amount is not None and (amount > F.MAX_UNITS or result.decimals > F.MAX_PLACES):
                self._action_error(index, text, ActionError(
                    "invalid-field", f"the amount is beyond the limits: at most {F.MAX_UNITS_TEXT} units and "
                    f"{F.MAX_PLACES} decimal places", 1))
                continue
            if action.player is not None and action.player >= n:
                self._action_error(index, text, ActionError(
                    "unknown-player", f"p{action.player + 1} does not exist: the hand has {n} players",
                    text.find(f"p{action.player + 1}") + 1))
                continue
            cards = action.cards
            if cards is not None:
                for card in cards:
                    if card not in deck_or_hidden:
                        bad = [card_text(c) for c in cards if c not in deck_or_hidden]
                        self.findings.append(Finding(
                            "invalid-card", f"{', '.join(bad)} not in the {variant.code} deck", index, action.actor))
                        break
            parsed.append(result)
        return parsed

    def _action_error(self, index: int, text: str, error: ActionError) -> None:
        line = column = None
        # Look for the quoted string after `actions =`, so that an earlier action or field
        # holding the same text (event = 'p1 cbr'; 'd dh p1 AsKd' before 'd dh p1') is not taken.
        m = re.search(r"^[ \t]*actions[ \t]*=", self.text, re.M)
        start = m.start() if m else 0
        pos = -1
        for quoted in (f"'{text}'", f'"{text}"'):
            pos = self.text.find(quoted, start)
            if pos >= 0:
                pos += 1
                break
        if pos < 0 and text:
            pos = self.text.find(text, start)
        if pos >= 0:
            line = self.chunk.line + self.text.count("\n", 0, pos)
            column = pos - (self.text.rfind("\n", 0, pos) + 1) + error.column
        self.findings.append(Finding(error.code, f"action {index}: {error.message}", index, None,
                                     line=line, column=column))
        self.fatal = True

    def _scale(self, actions: list[ParsedAction], amounts: list[tuple[list[int | None], int] | None]) -> int:
        """The hand's scale: the most decimal places its amounts need (an action's '3.00' needs
        none; a field's number is read without its trailing zeros), and at least its currency's
        minor units (ISO 4217: 2 for USD), so that every hand of one currency has one scale unless
        it needs finer (core/currencies.py); at most MAX_PLACES."""
        scale = 0
        for amount in amounts:
            if amount is not None and amount[1] > scale:
                scale = amount[1]
        doc = self.doc
        currency, symbol = doc.get("currency"), doc.get("currency_symbol")
        if currency is not None or symbol is not None:
            units = hand_minor_units(currency, symbol)
            if units > scale:
                scale = units
        for p in actions:
            a = p.action.amount
            d = p.decimals
            if a is not None and d > scale:
                while d > scale and a % 10 == 0:  # written trailing zeros are not needed places
                    a //= 10
                    d -= 1
                scale = d
        return scale

    def _check_totals(self, variant: Variant, n: int, actions: list[ParsedAction],
                      amounts: list[tuple[list[int | None], int] | None], scale: int) -> None:
        """Every amount at the hand's scale, and the most money the hand can move, within
        MAX_UNITS (README "Limits"), so that every stored and derived amount fits int64.

        The money: finite starting stacks, antes, blinds (their size), the bring-in and the
        recorded winnings (the rake is the pots minus them). A player never puts in more than
        his stack (exceeds-stack is ruled all in); with an unknown (inf) stack, each action
        raises a bet-to by at most the largest amount written (fixed-limit raises by one bet,
        short raises by the last raise, pot-limit overbets are cut back), so the hand's bets
        stay within ``A * (A + 1) * M`` for A actions and M the largest amount: added then.
        """
        largest = 0
        total = 0
        unknown = False
        sums = self.sums
        maxima = self.maxima
        for slot in range(len(amounts)):
            amount = amounts[slot]
            if amount is None:
                continue  # absent, or dropped by the checks
            factor = F.power_of_ten(scale - amount[1])
            field_max = maxima[slot] * factor
            if field_max > F.MAX_UNITS:
                self._bad(variant, amounts, slot, f"field {F.AMOUNT_FIELDS[slot]!r} holds an amount of more than "
                          f"{F.MAX_UNITS_TEXT} units at the hand's {scale} decimal places")
                continue
            if slot == F.SLOT_STARTING_STACKS:
                unknown = None in amount[0]  # an inf stack: the only None left
            elif field_max > largest:
                largest = field_max
            if (slot != F.SLOT_SMALL_BET and slot != F.SLOT_BIG_BET and slot != F.SLOT_MIN_BET
                    and slot != F.SLOT_FINISHING_STACKS):
                total += sums[slot] * factor
        if unknown:
            # A written raise-to is stored (and bounds the bets) only where no stack caps it.
            texts = cast(list[str], self.values[_ACTIONS_FIELD])
            for index in range(len(actions)):  # every action parsed (a bad one is fatal): index = position
                p = actions[index]
                a = p.action.amount
                if a is not None:
                    a = _action_units(a, p.decimals, scale)
                    if a > F.MAX_UNITS:
                        self._action_error(index, texts[index], ActionError(
                            "invalid-field", f"the amount is more than {F.MAX_UNITS_TEXT} units at the hand's "
                            f"{scale} decimal places", 1))
                        return
                    if a > largest:
                        largest = a
        if unknown:
            steps = len(actions) + 1
            total += steps * steps * largest
        if total > F.MAX_UNITS:
            self.field_finding("invalid-field", "starting_stacks", "the hand's stacks, antes, blinds and winnings"
                               + (" and the bets an unknown (inf) stack allows" if unknown else "")
                               + f" come to more than {F.MAX_UNITS_TEXT} units at its {scale} decimal places: beyond "
                               "handaudit's limit", True)

    def _hand(self, variant: Variant, n: int, actions: list[ParsedAction],
              amounts: list[tuple[list[int | None], int] | None], scale: int) -> Hand:
        values = self.values
        texts = values[_ACTIONS_FIELD]
        zeros = (0,) * n
        scaled: list[Action] = []
        for p in actions:
            a = p.action
            if a.amount is not None and p.decimals != scale:
                a = Action(a.kind, a.player, a.cards, _action_units(a.amount, p.decimals, scale), a.commentary,
                           a.show_dash)
            scaled.append(a)
        stacks = amounts[F.SLOT_STARTING_STACKS]
        return Hand(
            source=self.chunk.source,
            hand_key=self.chunk.hand_key,
            variant=variant.code,
            players=n,
            scale=scale,
            antes=_per_player(amounts[F.SLOT_ANTES], scale) or zeros,
            blinds_or_straddles=_per_player(amounts[F.SLOT_BLINDS], scale) or zeros,
            bring_in=_one(amounts[F.SLOT_BRING_IN], scale),
            small_bet=_one(amounts[F.SLOT_SMALL_BET], scale),
            big_bet=_one(amounts[F.SLOT_BIG_BET], scale),
            min_bet=_one(amounts[F.SLOT_MIN_BET], scale),
            # None for inf (an unknown stack)
            starting_stacks=() if stacks is None else F.rescaled(stacks[0], stacks[1], scale),
            actions=tuple(scaled),
            # Not `values[...] or ()`: an empty list is falsy, and compiled, cast() checks that
            # the () it would then get is a list (actions = [] was an internal error).
            action_texts=() if texts is None else tuple(cast(list[str], texts)),
            ante_trimming_status=cast("bool | None", values[_ANTE_TRIMMING_FIELD]),
            finishing_stacks=_per_player(amounts[F.SLOT_FINISHING_STACKS], scale),
            winnings=_per_player(amounts[F.SLOT_WINNINGS], scale),
            hand=values[_HAND_FIELD],
            fields=self.doc,
            text=self.text,
            line=self.chunk.line,
        )

    def _result(self, hand: Hand | None) -> ReadResult:
        c = self.chunk
        return ReadResult(c.source, c.hand_key, hand, tuple(self.findings), self.text, c.line)


def _action_units(amount: int, decimals: int, scale: int) -> int:
    """An action's amount written at ``decimals`` places, in units of the hand's scale: multiplied
    up, or its written trailing zeros dropped ('3.00' in a hand of scale 0 is 3; exact, since the
    scale holds every place an amount needs)."""
    if decimals <= scale:
        return amount * F.power_of_ten(scale - decimals)
    return amount // F.power_of_ten(decimals - scale)


def _one(value: tuple[list[int | None], int] | None, scale: int) -> int | None:
    """A checked scalar amount at the hand's scale; None if the field is absent."""
    return None if value is None else F.checked(value[0][0]) * F.power_of_ten(scale - value[1])


def _per_player(value: tuple[list[int | None], int] | None, scale: int) -> tuple[int, ...] | None:
    """Checked per-player amounts at the hand's scale; None if the field is absent."""
    if value is None:
        return None
    # No None (inf, nan) is left in these fields: _check_values dropped or refused them.
    return cast(tuple[int, ...], F.rescaled(value[0], value[1], scale))


def _toml_type(value) -> str:
    import datetime as dt

    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, F.TomlFloat):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return "a date/time"
    return type(value).__name__


def _entry(slot: int, i: int, raw: object) -> str:
    """``field 'antes' entry 2 (p2)``, or ``field 'min_bet'`` for a scalar."""
    key = F.AMOUNT_FIELDS[slot]
    return f"field {key!r} entry {i + 1} (p{i + 1})" if isinstance(raw, list) else f"field {key!r}"


def _shown(value: object) -> str:
    """A value for a message: an integer beyond 19 digits is described, not printed (Python
    refuses to print one of more than 4,300 digits, and a message should not hold 4,000)."""
    if type(value) is int:
        v = cast(int, value)
        if -F.MAX_INT <= v <= F.MAX_INT:
            return str(v)
        return "an integer of more than 18 digits"
    return repr(value)


def _written(value: object, negated: bool = False) -> str:
    """A finite number of a field as the decimal written (``-0.50`` -> ``-0.5``), or negated."""
    if isinstance(value, F.TomlFloat):
        units = F.checked(value.units)
        text = amount_text(-units if negated else units, value.places)
        # As the decimal of the float's shortest repr said it: '1.0', not '1'.
        return text if "." in text else text + ".0"
    v = cast(int, value)
    return str(-v if negated else v)
