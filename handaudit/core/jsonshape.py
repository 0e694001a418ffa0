"""JSON objects whose member names are known in advance, for the JSONL writer.

Every object of a hand's JSON (the hand, its findings, its settlement, pots, awards) has a fixed
list of members. A :class:`JSONShape` holds that list once, with the text the writer writes for
each name; ``shape.make(values, text)`` gives the library's dict, or for the writer a
:class:`JSONObject` that it writes without building, iterating and freeing a dict.
"""

from __future__ import annotations

from json.encoder import encode_basestring  # the C escaper, as the JSONL writer uses
from typing import Any, Final


class JSONShape:
    """The member names of an object in a hand's JSON, in order (see :class:`JSONObject`).

    With them, their text as the JSONL writer writes them: the first name where the object
    stands (alone, first in a list, later in a list: ``{"a":``, ``[{"a":``, ``,{"a":``), the
    others after a comma (``,"b":``).
    """

    def __init__(self, keys: tuple[str, ...]) -> None:
        self.keys: Final = keys
        names = [encode_basestring(key) + ":" for key in keys]
        self.first: Final[tuple[str, ...]] = ("{" + names[0], "[{" + names[0], ",{" + names[0])
        self.rest: Final[tuple[str, ...]] = tuple(["," + name for name in names[1:]])

    def make(self, values: tuple[object, ...], text: bool) -> Any:
        """The object with these members' ``values``: a dict, or with ``text`` a JSONObject."""
        if text:
            return JSONObject(self, values)
        return dict(zip(self.keys, values, strict=True))


class JSONObject:
    """An object of a hand's JSON for the JSONL writer: a shape's members and their values.

    What ``to_json(text=True)`` gives in place of a dict: the writer copies the names' text
    from the shape, where a dict costs building, iterating, a name lookup per member and
    freeing, per member.
    """

    def __init__(self, shape: JSONShape, values: tuple[object, ...]) -> None:
        self.shape: Final = shape
        self.values: Final = values

    def to_dict(self) -> dict[str, object]:
        """The members as a dict (values as they are: JSONNumbers, JSONObjects)."""
        return dict(zip(self.shape.keys, self.values, strict=True))

    def __repr__(self) -> str:
        return f"JSONObject({self.to_dict()!r})"
