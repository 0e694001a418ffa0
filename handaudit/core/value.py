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
- The values made once a run (rulebooks and their parameters, variants and streets, finding
  code pages, a run's configuration) and action errors are :class:`Value` classes too, not frozen
  dataclasses: a dataclass's methods are generated as source and compiled at import, some 1 ms of
  every run's start per class (docs/performance.md).
"""

from __future__ import annotations

from typing import ClassVar, TypeVar


def set_once(obj: object, name: str, value: object) -> None:
    """``__setattr__`` of a value class: the constructor sets each attribute once, nobody after."""
    if hasattr(obj, name):
        raise AttributeError(f"{type(obj).__name__} is immutable: cannot set {name!r}")
    object.__setattr__(obj, name, value)


def field_values(obj: object, names: tuple[str, ...]) -> tuple:
    """``obj``'s values of the fields ``names``, in that order."""
    return tuple([getattr(obj, name) for name in names])


def same_fields(obj: object, other: object, names: tuple[str, ...]) -> bool:
    """``obj == other`` for a value class: the same class, and equal values of the fields ``names``."""
    return type(other) is type(obj) and field_values(obj, names) == field_values(other, names)


def show_fields(obj: object, names: tuple[str, ...]) -> str:
    """``Cls(a=1, b='x')``: the ``repr`` of a value class."""
    values = ", ".join(f"{name}={getattr(obj, name)!r}" for name in names)
    return f"{type(obj).__name__}({values})"


def replaced(obj: object, names: tuple[str, ...], changes: dict[str, object]) -> object:
    """A copy of ``obj`` with some fields changed, built by calling its class with every field
    ``names`` lists, by name (``dataclasses.replace``'s part): a value class's constructor takes
    its fields by their names, in any order (a rulebook takes its parameters only so)."""
    unknown = [name for name in changes if name not in names]
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {unknown[0]!r}")
    return type(obj)(**{name: changes[name] if name in changes else getattr(obj, name) for name in names})


V = TypeVar("V", bound="Value")


class Value:
    """Base of the plain value classes: set-once attributes; equality, hash, repr and pickling
    by their fields. A subclass declares ``__slots__`` and ``FIELDS`` (its constructor's
    parameters, in order) and sets each attribute (``Final``) in its ``__init__``.
    (:class:`~handaudit.core.open_value.OpenValue` is the same for interpreted modules.)"""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

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

    def replace(self: V, **changes: object) -> V:
        """A copy with some fields changed (as ``dataclasses.replace``), built by the constructor."""
        return replaced(self, self.FIELDS, changes)  # type: ignore[return-value]


# Pure Python: attributes are set once (compiled, Final attributes are read-only slots already,
# and a __setattr__ mypyc can see would turn each constructor's assignments into calls).
if __file__.endswith((".py", ".pyc")):
    setattr(Value, "__setattr__", set_once)  # noqa: B010  (mypy refuses assigning to a method)
