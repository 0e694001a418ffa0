"""A Hand written back as PHH text (``handaudit convert``): every field the reader reads, exactly.

Amounts are written at the hand's scale (``amount_text``), so reading the text back gives the
same integers and the same scale; strings are TOML basic strings with every control character
escaped; user fields (``_site_...``) are kept. :func:`phhs` joins hands as a ``.phhs`` file.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import Final

from ..core.amounts import amount_text
from ..core.hand import Hand

# The optional PHH fields written after the required ones, in the spec's order (required.rst,
# optional.rst), when the hand's fields hold them.
_OPTIONAL: Final = ("author", "event", "url", "venue", "address", "city", "region", "postal_code", "country",
                    "time", "time_zone", "time_zone_abbreviation", "day", "month", "year", "hand", "level",
                    "seats", "seat_count", "table", "players", "currency", "currency_symbol", "time_limit",
                    "time_banks")


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and control characters escaped."""
    out = ['"']
    for ch in text:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, _dt.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):  # an inline table (a site's table event, an unread line)
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    return toml_string(str(value))


def _key(name: str) -> str:
    """A TOML key: bare when it can be, else quoted."""
    if name and all([c.isascii() and (c.isalnum() or c in "_-") for c in name]):
        return name
    return toml_string(name)


def hand_text(hand: Hand) -> str:
    """The PHH text of ``hand`` (one hand: a ``.phh`` file's content, or a ``.phhs`` table's body)."""
    scale = hand.scale

    def amounts(values: Iterable[int | None]) -> str:
        return "[" + ", ".join("inf" if v is None else amount_text(v, scale) for v in values) + "]"

    lines = [f"variant = {toml_string(hand.variant)}"]
    if hand.ante_trimming_status is not None:
        lines.append(f"ante_trimming_status = {_value(hand.ante_trimming_status)}")
    lines.append(f"antes = {amounts(hand.antes)}")
    if hand.bring_in is not None:
        lines.append(f"bring_in = {amount_text(hand.bring_in, scale)}")
    else:
        lines.append(f"blinds_or_straddles = {amounts(hand.blinds_or_straddles)}")
    for name, amount in (("small_bet", hand.small_bet), ("big_bet", hand.big_bet), ("min_bet", hand.min_bet)):
        if amount is not None:
            lines.append(f"{name} = {amount_text(amount, scale)}")
    lines.append(f"starting_stacks = {amounts(hand.starting_stacks)}")
    lines.append("actions = [" + ", ".join(toml_string(t) for t in hand.action_texts) + "]")
    fields = hand.fields
    for name in _OPTIONAL:
        if name in fields:
            lines.append(f"{name} = {_value(fields[name])}")
    if hand.finishing_stacks is not None:
        lines.append(f"finishing_stacks = {amounts(hand.finishing_stacks)}")
    if hand.winnings is not None:
        lines.append(f"winnings = {amounts(hand.winnings)}")
    for name in sorted(fields):
        if name.startswith("_"):
            lines.append(f"{toml_string(name)} = {_value(fields[name])}")
    return "\n".join(lines) + "\n"


def phhs(hands: Iterable[Hand]) -> Iterable[str]:
    """A ``.phhs`` file of ``hands``, piece by piece: tables ``[1]``, ``[2]``, ..."""
    for i, hand in enumerate(hands, 1):
        yield f"{'' if i == 1 else chr(10)}[{i}]\n{hand_text(hand)}"
