"""The library's arguments checked where they enter (``handaudit.audit``, ``audit_read``,
``audit_to_parquet``, ``to_dataframes``): a wrong type is a TypeError and a wrong value a
ValueError that name the argument and say what it takes, never an AttributeError from deep
inside (``'int' object has no attribute 'isprintable'``) or a string read a character at a time.

A single ``str`` (or path) where a list is taken is one item: ``audit("day.phhs")`` is
``audit(["day.phhs"])``, ``select="out-of-turn,show-order"`` is two codes, as on the command line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping


def _kind(value: object) -> str:
    return type(value).__name__


def path_list(value: object, name: str = "paths") -> list[str]:
    """Input paths: a path (str or os.PathLike) or an iterable of them; "-" is standard input."""
    if isinstance(value, (str, os.PathLike)):
        value = [value]
    if isinstance(value, (bytes, bytearray)) or not isinstance(value, Iterable):
        raise TypeError(f"{name}: expected a path or a list of paths (str or os.PathLike), not {_kind(value)}")
    out: list[str] = []
    for item in value:
        if isinstance(item, os.PathLike):
            item = os.fspath(item)
        if not isinstance(item, str):
            raise TypeError(f"{name}: each path must be a str or an os.PathLike, not {_kind(item)} ({item!r:.60})")
        if not item:
            raise ValueError(f"{name}: an empty path")
        if "\0" in item:
            raise ValueError(f"{name}: a path holds a NUL character: {item!r:.60}")
        out.append(item)
    if not out:
        raise ValueError(f"{name}: no path given")
    return out


def path_arg(value: object, name: str) -> str:
    """One path (str or os.PathLike), not empty."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a path (str or os.PathLike), not {_kind(value)}")
    if not value:
        raise ValueError(f"{name}: an empty path")
    return value


def rulebook_arg(value: object) -> str:
    """A built-in rulebook's name or a rulebook file (str or os.PathLike)."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)  # type: ignore[return-value]
    if not isinstance(value, str):
        raise TypeError(f"rulebook: expected a built-in rulebook's name or a TOML file's path (str), not {_kind(value)}")
    return value


def string_list(value: object, name: str) -> list[str]:
    """A str (one item) or an iterable of str."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"{name}: expected a str or a list of str, not {_kind(value)}")
    out = list(value)
    for item in out:
        if not isinstance(item, str):
            raise TypeError(f"{name}: each item must be a str, not {_kind(item)} ({item!r:.60})")
    return out


def severity_list(value: object) -> list[str]:
    """``{"code": "warning"}`` or ``"CODE=LEVEL"`` strings -> ``CODE=LEVEL`` strings."""
    if isinstance(value, Mapping):
        out = []
        for k, v in value.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError(f"severity: expected code = level strings ({{'winnings-gross': 'warning'}}), "
                                f"not {_kind(k)}: {_kind(v)}")
            out.append(f"{k}={v}")
        return out
    return string_list(value, "severity")


def jobs_arg(value: object) -> int | None:
    """Worker processes: None (all cores) or an int of at least 1."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"jobs: expected an int (or None for every core), not {_kind(value)}")
    if value < 1:
        raise ValueError(f"jobs: at least 1, not {value}")
    return value


def table_list(value: object) -> list[str]:
    """Report tables: a name or a list of names, each one of the report's."""
    from ..reports.layout import TABLE_NAMES

    names = string_list(value, "tables")
    for name in names:
        if name not in TABLE_NAMES:
            raise ValueError(f"tables: unknown table {name!r}; the report has {', '.join(TABLE_NAMES)}")
    return names


def report_dir_arg(value: object) -> str:
    """A report directory that exists and holds a report."""
    from ..reports.layout import is_report

    path = path_arg(value, "out_dir")
    if not os.path.isdir(path):
        raise FileNotFoundError(f"out_dir: no report directory {path!r}")
    if not is_report(path):
        raise ValueError(f"out_dir: {path!r} is not a handaudit report (no _manifest.json, no hands/ table)")
    return path
