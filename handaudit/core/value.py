"""Immutable values in both builds: set-once attributes, and pickling through the constructor.

Parsed actions are memoised and shared by every hand that holds the same text, and hands,
findings and reports cross process boundaries (``--jobs``, Dask), so these values must never
change once made, compiled or not.

- :class:`Value` classes (everything made per hand or per action: Chunk, Hand, ReadResult,
  Action, ParsedAction, ActionRecord, Replay, Pot, Award, Settlement, Finding, HandReport)
  declare their attributes ``Final`` (compiled: not writable) and, in pure Python only, route
  ``__setattr__`` through :func:`set_once` (refused once set). Compiled, Value has no
  ``__setattr__`` (mypyc would call it for every attribute a constructor sets in a module built
  after this one), so building one stays native; a frozen dataclass's or named tuple's
  constructor stays interpreted (docs/performance.md).
- The frozen dataclasses left (not made per hand: rulebooks, variants, code pages; and action
  errors, made only for a bad action) cannot be unpickled field by field when compiled (their
  ``__setattr__`` refuses), so each gets ``def __reduce__(self): return (Cls, init_args(self))``:
  rebuilt through its constructor, like any caller would build it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import ClassVar, TypeVar

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # per class: its fields, in constructor order


def set_once(obj: object, name: str, value: object) -> None:
    """``__setattr__`` of a value class: the constructor sets each attribute once, nobody after."""
    if hasattr(obj, name):
        raise AttributeError(f"{type(obj).__name__} is immutable: cannot set {name!r}")
    object.__setattr__(obj, name, value)


def init_args(obj: object) -> tuple:
    """The constructor arguments that rebuild ``obj`` (a dataclass whose fields are all in __init__)."""
    cls = type(obj)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple([f.name for f in fields(obj)])  # type: ignore[arg-type]
    return tuple([getattr(obj, name) for name in names])


V = TypeVar("V", bound="Value")


class Value:
    """Base of the plain value classes: set-once attributes; equality, hash, repr and pickling
    by their fields. A subclass declares ``__slots__`` and ``FIELDS`` (its constructor's
    parameters, in order) and sets each attribute (``Final``) in its ``__init__``."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def field_values(self) -> tuple:
        """The field values, in constructor order."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Value) and self.field_values() == other.field_values()

    def __hash__(self) -> int:
        return hash(self.field_values())

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in zip(self.FIELDS, self.field_values(), strict=True))
        return f"{type(self).__name__}({values})"

    def __reduce__(self) -> tuple:
        return (type(self), self.field_values())

    def replace(self: V, **changes: object) -> V:
        """A copy with some fields changed (as ``dataclasses.replace``), built by the constructor."""
        unknown = [name for name in changes if name not in self.FIELDS]
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {unknown[0]!r}")
        values = [changes[name] if name in changes else getattr(self, name) for name in self.FIELDS]
        return type(self)(*values)


# Pure Python: attributes are set once (compiled, Final attributes are read-only slots already,
# and a __setattr__ mypyc can see would turn each constructor's assignments into calls).
if __file__.endswith((".py", ".pyc")):
    setattr(Value, "__setattr__", set_once)  # noqa: B010  (mypy refuses assigning to a method)
