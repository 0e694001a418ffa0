"""Value classes for interpreted modules (rulebooks and their parameters, a run's configuration).

Compiled, :class:`~handaudit.core.value.Value` is a native class, and an interpreted class
cannot extend a native one; :class:`OpenValue` is an ordinary class with the same behaviour,
built from the same functions: set-once attributes, equality, hash, ``repr``, pickling and
:meth:`replace` by the fields. Not a frozen dataclass, whose methods are generated as source
and compiled at import, about 1 ms of every run's start per class (docs/performance.md).
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from .value import field_values, replaced, same_fields, set_once, show_fields

OV = TypeVar("OV", bound="OpenValue")


class OpenValue:
    """Base of the interpreted value classes. A subclass declares ``__slots__`` and ``FIELDS``
    (its constructor's parameters, in order) and sets each attribute once in its ``__init__``."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)  # a method here: compiled, set_once would not bind as one

    def field_values(self) -> tuple:
        """The field values, in constructor order."""
        return field_values(self, self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, self.FIELDS)

    def __hash__(self) -> int:
        return hash(self.field_values())

    def __repr__(self) -> str:
        return show_fields(self, self.FIELDS)

    def __reduce__(self) -> tuple:
        return (type(self), self.field_values())

    def replace(self: OV, **changes: object) -> OV:
        """A copy with some fields changed (as ``dataclasses.replace``), built by the constructor."""
        return replaced(self, self.FIELDS, changes)  # type: ignore[return-value]
