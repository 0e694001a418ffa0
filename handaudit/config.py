"""The project's configuration file, ``handaudit.toml``: what a site says once for every run.

Read from the working directory (or the file ``--config FILE`` names), like ruff's
``ruff.toml``. Today it holds the selection of findings::

    [findings]
    ignore = ["winnings-gross"]            # never reported (counted as ignored)
    select = []                            # only these codes (empty: all)
    severity = { negative-blind = "info" } # another severity for a code

The command line adds to it: ``--ignore`` and ``--severity`` extend the file's, ``--select``
replaces the file's ``select``. A key or a code the file does not know is an error naming the
file, never silently skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import ClassVar, Final

from .core.open_value import OpenValue
from .findings.selection import Selection, SelectionError, codes_of, severities_of

CONFIG_NAME = "handaudit.toml"
_KEYS = {"findings": {"select", "ignore", "severity"}}


class ConfigError(ValueError):
    """The configuration file cannot be read or says something handaudit does not know."""


_CONFIG_FIELDS = ("path", "select", "ignore", "severity")


class ProjectConfig(OpenValue):
    """What ``handaudit.toml`` says (empty when there is no file). A value
    (handaudit/core/open_value.py), not a dataclass compiled from source at every start."""

    __slots__ = _CONFIG_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _CONFIG_FIELDS

    def __init__(self, path: str | None = None, select: tuple[str, ...] = (), ignore: tuple[str, ...] = (),
                 severity: tuple[tuple[str, str], ...] = ()) -> None:
        self.path: Final = path
        self.select: Final = select
        self.ignore: Final = ignore
        self.severity: Final = severity


def load_config(path: str | None = None, directory: str = ".") -> ProjectConfig:
    """``path`` (which must exist), else ``handaudit.toml`` in ``directory`` if there is one."""
    if path is None:
        candidate = os.path.join(directory, CONFIG_NAME)
        if not os.path.isfile(candidate):
            return ProjectConfig()
        path = candidate
    import tomllib  # here: a run without a configuration file does without it (docs/performance.md)

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the configuration file: {err.strerror or err}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
    for section, value in data.items():
        if section not in _KEYS:
            raise ConfigError(f"{path}: unknown section [{section}] (known: {', '.join(sorted(_KEYS))})")
        if not isinstance(value, dict):
            raise ConfigError(f"{path}: {section} must be a table ([{section}])")
        unknown = sorted(set(value) - _KEYS[section])
        if unknown:
            raise ConfigError(f"{path}: unknown key {section}.{unknown[0]} "
                              f"(known: {', '.join(sorted(_KEYS[section]))})")
    findings = data.get("findings", {})
    try:
        select = codes_of(_strings(findings.get("select", []), path, "findings.select"), f"{path}: findings.select")
        ignore = codes_of(_strings(findings.get("ignore", []), path, "findings.ignore"), f"{path}: findings.ignore")
        levels = findings.get("severity", {})
        if not isinstance(levels, dict) or not all(isinstance(v, str) for v in levels.values()):
            raise ConfigError(f"{path}: findings.severity must be a table of code = \"error\"|\"warning\"|\"info\"")
        severity = severities_of([f"{k}={v}" for k, v in levels.items()], f"{path}: findings.severity")
    except SelectionError as err:
        raise ConfigError(str(err)) from None
    return ProjectConfig(path, select, ignore, severity)


def _strings(value: object, path: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: {key} must be a list of finding codes")
    return list(value)


def selection_for(config: ProjectConfig, select: Iterable[str] = (), ignore: Iterable[str] = (),
                  severity: Iterable[str] = ()) -> Selection:
    """The run's selection: the file's, with the command line's ``--select`` (replacing),
    ``--ignore`` and ``--severity`` (adding; a code's level on the command line wins)."""
    chosen = codes_of(select, "--select") or config.select
    ignored = tuple(sorted(set(config.ignore) | set(codes_of(ignore, "--ignore"))))
    levels = dict(config.severity)
    levels.update(severities_of(severity, "--severity"))
    return Selection(chosen, ignored, tuple(sorted(levels.items())))
