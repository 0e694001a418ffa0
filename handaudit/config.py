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
import stat
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


MAX_CONFIG_BYTES: Final = 1024 * 1024  # as a rulebook file (rules/rulebook.py): a configuration is a few lines
_KINDS: Final = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                 (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def load_config(path: str | None = None, directory: str = ".") -> ProjectConfig:
    """``path`` (which must exist), else ``handaudit.toml`` in ``directory`` if there is one.

    Read with the checks a rulebook file gets: a regular file only (a FIFO cannot block, a
    device such as ``/dev/zero`` is never read, a directory is refused, a ``handaudit.toml``
    that is a link to one of them or a dangling link is an error, not passed over), at most
    :data:`MAX_CONFIG_BYTES`, UTF-8 TOML nested no deeper than the reader can take."""
    if path is None:
        candidate = os.path.join(directory, CONFIG_NAME)
        if not os.path.lexists(candidate):
            return ProjectConfig()
        path = candidate
    import tomllib  # here: a run without a configuration file does without it (docs/performance.md)

    raw = _read_config(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: the configuration file is not UTF-8 text: {err}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid for handaudit: arrays or tables nested too deeply") from None
    except ValueError as err:  # an integer of more than 4,300 digits
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


def _read_config(path: str) -> bytes:
    """The bytes of the configuration file, with the checks of :func:`load_config`: opened
    ``O_NONBLOCK`` and checked with ``fstat`` before a byte is read, read to one byte past the
    limit (a file that grows while read takes no more memory)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        if os.path.islink(path):
            raise ConfigError(f"{path}: the configuration file is a symbolic link to a missing file") from None
        raise ConfigError(f"{path}: cannot read the configuration file: no such file") from None
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read the configuration file: {getattr(err, 'strerror', None) or err}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((k for test, k in _KINDS if test(st.st_mode)), "not a regular file")
            link = " (through a symbolic link)" if os.path.islink(path) else ""
            raise ConfigError(f"{path}: the configuration file is {kind}{link}, not a regular file: it must be a TOML file")
        if st.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: the configuration file has {st.st_size:,} bytes, more than the "
                              f"{MAX_CONFIG_BYTES:,} it may have")
        parts: list[bytes] = []
        got = 0
        while got <= MAX_CONFIG_BYTES:
            block = os.read(fd, MAX_CONFIG_BYTES + 1 - got)
            if not block:
                break
            parts.append(block)
            got += len(block)
        if got > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: the configuration file has more than the {MAX_CONFIG_BYTES:,} bytes it may have")
        return b"".join(parts)
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the configuration file: {err.strerror or err}") from None
    finally:
        os.close(fd)


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
