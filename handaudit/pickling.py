"""Pickling of the frozen dataclasses, for the compiled build.

Hands, findings and reports cross process boundaries (``--jobs``, Dask). A frozen dataclass
compiled by mypyc cannot be unpickled field by field (its ``__setattr__`` refuses), so each such
class gets ``def __reduce__(self): return (Cls, init_args(self))``: rebuilt through its
constructor, like any caller would build it. Pure Python pickles them the same way.
"""

from __future__ import annotations

from dataclasses import fields

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # per class: its fields, in constructor order


def init_args(obj: object) -> tuple:
    """The constructor arguments that rebuild ``obj`` (a dataclass whose fields are all in __init__)."""
    cls = type(obj)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple([f.name for f in fields(obj)])  # type: ignore[arg-type]
    return tuple([getattr(obj, name) for name in names])
