"""Immutable values in both builds: set-once attributes, and pickling through the constructor.

Parsed actions are memoised and shared by every hand that holds the same text, and hands,
findings and reports cross process boundaries (``--jobs``, Dask), so these values must never
change once made, compiled or not.

- Plain value classes (:class:`~handaudit.model.Action`, ``ParsedAction``, ``ActionRecord``:
  built by the million, where a named tuple's interpreted constructor is the cost) declare
  their attributes ``Final`` (compiled: not writable) and route ``__setattr__`` through
  :func:`set_once` (pure Python: refused once set). Compiled, the constructor's own assignments
  bypass ``__setattr__``, so building one stays native.
- Frozen dataclasses compiled by mypyc cannot be unpickled field by field (their
  ``__setattr__`` refuses), so each gets ``def __reduce__(self): return (Cls, init_args(self))``:
  rebuilt through its constructor, like any caller would build it.
"""

from __future__ import annotations

from dataclasses import fields

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
