"""Rulebooks: the parameters the replay and the settlement read, each with the rule it comes from.

A rulebook is a small TOML file. The built-ins live in ``books/*.toml``; a user file may say
``extends = "roberts-v11"`` (default: ``tda-2026``) and override any parameter, citation or ruling::

    extends = "roberts-v11"
    limit_raises = 4                        # shorthand for [parameters] limit_raises = 4

    [parameters.heads_up_uncap]             # or with the rule and a note
    value = "never"
    rule = "Casino X poker rules 12.3"

    [citations]
    raise-cap-exceeded = "Casino X poker rules 12.3"

``--set KEY=VALUE`` overrides one parameter after that. A loaded :class:`Rulebook` carries one typed
attribute per parameter so the replay reads ``book.limit_raises`` without a lookup.
"""

from __future__ import annotations

import functools
import os
import stat
from pathlib import Path
from typing import Any, ClassVar

from ..core.open_value import OpenValue
from ..findings.codes import CODES
from .params import CITED_CODES, PARAMETERS, RulebookError, show_value

BUILTIN = ("tda-2026", "roberts-v11", "wsop-2023-live", "house")
DEFAULT = "tda-2026"
_DIR = Path(__file__).with_name("books")
MAX_RULEBOOK_BYTES = 1024 * 1024  # a rulebook file larger than this is refused (the built-ins are ~10 KB)
_LIMIT_TEXT = "1 MiB (1,048,576 bytes)"
MAX_EXTENDS = 32  # files in one ``extends`` chain (a user file extending a user file ...)



_FIXED = ("name", "title", "sources", "notes", "citations", "rulings", "extends", "overrides")
_RULEBOOK_FIELDS = ("name", "title", *PARAMETERS, "sources", "notes", "citations", "rulings", "extends", "overrides")


class Rulebook(OpenValue):
    """A loaded rulebook: one attribute per parameter, with the rule and a note for each.

    ``sources``/``notes``: parameter -> citation / one-line note. ``citations``/``rulings``: finding
    code -> rule cited / what the rulebook makes of the irregular action. ``extends``: the rulebook a
    user file builds on; ``overrides``: the ``--set`` items applied. Treat the dicts as read-only.

    A value (handaudit/core/open_value.py) built from keywords: the parameters are passed by name,
    every one of :data:`PARAMETERS`, and a copy is made by ``replace``. Not a frozen
    dataclass: its generated constructor, comparison and ``__setattr__`` for some 30 fields were
    compiled at every run's start (2 ms of it; docs/performance.md).
    """

    __slots__ = _RULEBOOK_FIELDS
    FIELDS: ClassVar[tuple[str, ...]] = _RULEBOOK_FIELDS

    name: str
    title: str
    limit_raises: int
    limit_raises_short: int
    heads_up_uncap: str
    cap_counts: str
    short_raise_ruling: str
    straddle_counts_as_raise: bool
    completion_counts_as_raise: bool
    stud_open_pair_big_bet: bool
    limit_allin_reopen: str
    limit_raise_over_half_allin: str
    straddle_min_raise: str
    unnecessary_fold: str
    show_order: str
    odd_chip_stud: str
    odd_chip_button: str
    short_deck_trips_beat_straight: bool
    check_out_of_turn: str
    changed_action_out_of_turn: str
    call_out_of_turn: str
    substantial_action_count: int
    substantial_action_chips: int
    rake_limit_percent: int
    rake_rounding_units: int
    rake_percent: str
    rake_cap: str
    rake_cap_scope: str
    no_flop_no_drop: bool
    rake_rounding: str
    jackpot_drop: str
    button_rule: str
    missed_blinds: str
    new_player_posts: str
    sources: dict[str, str]
    notes: dict[str, str]
    citations: dict[str, str]
    rulings: dict[str, str]
    extends: str | None
    overrides: tuple[str, ...]

    def __init__(self, *, name: str, title: str, sources: dict[str, str], notes: dict[str, str],
                 citations: dict[str, str], rulings: dict[str, str], extends: str | None = None,
                 overrides: tuple[str, ...] = (), **values: int | bool | str) -> None:
        if values.keys() != PARAMETERS.keys():
            missing = [k for k in PARAMETERS if k not in values]
            unknown = [k for k in values if k not in PARAMETERS]
            raise TypeError(f"Rulebook(): {'missing parameters ' + ', '.join(missing) if missing else ''}"
                            f"{'; ' if missing and unknown else ''}"
                            f"{'unknown parameters ' + ', '.join(unknown) if unknown else ''}")
        self.name = name
        self.title = title
        for key in PARAMETERS:
            setattr(self, key, values[key])
        self.sources = sources
        self.notes = notes
        self.citations = citations
        self.rulings = rulings
        self.extends = extends
        self.overrides = overrides

    def fields(self) -> dict[str, object]:
        """Field -> value, every constructor keyword (pickling uses it; ``replace`` is
        OpenValue's, which builds by name)."""
        return {name: getattr(self, name) for name in _RULEBOOK_FIELDS}

    def __reduce__(self) -> tuple:
        return (_rebuild, (self.fields(),))

    def __hash__(self) -> int:  # the dicts are unhashable; the name and values identify a book
        return hash((self.name, self.extends, self.overrides, tuple(self.parameters().values())))

    def parameters(self) -> dict[str, int | bool | str]:
        """Parameter -> value, in PARAMETERS order."""
        return {k: getattr(self, k) for k in PARAMETERS}

    def cite(self, code: str) -> str | None:
        """The rule this rulebook cites for a finding code, or None."""
        return self.citations.get(code)

    def ruling(self, code: str) -> str | None:
        """What this rulebook makes of the irregular action a finding code reports, or None."""
        return self.rulings.get(code)

    def ruled(self, code: str, applied: str | None = None, facts: dict[str, str] | None = None) -> str | None:
        """The ruling a finding shows: this rulebook's text for ``code``, its placeholders
        (``{applied}``, ``{to}``, ``{min}``, ...: see :data:`RULING_PLACEHOLDERS`) filled from
        what the replay did. A code the rulebook gives no ruling for shows ``applied``."""
        text = self.rulings.get(code)
        if text is None:
            return applied
        values = _Facts(facts or {})
        values.setdefault("applied", applied or "")
        try:
            return text.format_map(values)
        except (ValueError, IndexError, AttributeError):  # a stray brace in a user's text
            return text


# The placeholders a [rulings] text may use; the replay fills those it knows, any other stays as
# written. (docs/rules.md lists them.)
RULING_PLACEHOLDERS = {
    "applied": "what the replay did, in its own words (e.g. 'treated as a call')",
    "player": "the player the finding is about (p3)",
    "to": "the amount the bet or raise is ruled to be (formatted in the hand's currency)",
    "min": "the minimum legal bet or raise-to",
    "max": "the largest legal bet or raise-to (pot limit)",
    "stack": "what the player had: stack plus chips already in this round",
}


class _Facts(dict):
    """A format mapping that leaves an unknown placeholder as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _rebuild(fields: dict) -> Rulebook:
    """A pickled rulebook, rebuilt through its constructor."""
    return Rulebook(**fields)


# Keep the typed attributes and PARAMETERS in step (the constructor takes PARAMETERS by name).
if [name for name in Rulebook.__annotations__ if name not in (*_FIXED, "FIELDS")] != list(PARAMETERS):
    raise AssertionError("Rulebook attributes and PARAMETERS differ")


# --- loading ---------------------------------------------------------------------------------------

def load_rulebook(name_or_path: str = DEFAULT, overrides: list[str] | tuple[str, ...] = ()) -> Rulebook:
    """A built-in rulebook by name, or a TOML file (extending a built-in), then ``KEY=VALUE`` overrides.

    Built-in names win over files of the same name (write ``./house`` for a file called ``house``).
    Raises :class:`RulebookError` with one sentence naming the problem.
    """
    if name_or_path in BUILTIN:
        book = _builtin(name_or_path)
    else:
        book = _load_file(Path(name_or_path))
    for item in overrides:
        book = _apply_set(book, item)
    return book


@functools.cache
def _builtin(name: str) -> Rulebook:
    """Load and completely check one built-in (cached: every worker loads it once)."""
    path = _DIR / f"{name}.toml"
    data = _read_toml(path)
    where = f"built-in rulebook {name}"
    layer = _parse_layer(data, where)
    if layer["extends"] is not None:
        raise RulebookError(f"{where}: a built-in rulebook cannot extend another")
    missing = [k for k in PARAMETERS if k not in layer["values"] or k not in layer["sources"] or k not in layer["notes"]]
    missing += [f"citation for {c}" for c in CITED_CODES if c not in layer["citations"]]
    missing += [f"ruling for {c}" for c in CITED_CODES if c not in layer["rulings"]]
    if missing:
        raise RulebookError(f"{where}: missing {', '.join(missing)}")
    return Rulebook(
        name=layer["name"] or name,
        title=layer["title"] or name,
        **layer["values"],
        sources=layer["sources"],
        notes=layer["notes"],
        citations=layer["citations"],
        rulings=layer["rulings"],
    )


def _load_file(path: Path) -> Rulebook:
    """A user rulebook file: its base (``extends``, default tda-2026) with the file's changes on top.

    The ``extends`` chain is followed in a loop (not by recursion): at most :data:`MAX_EXTENDS`
    files, each read by :func:`_read_file` (a regular file of at most :data:`MAX_RULEBOOK_BYTES`),
    and a file met twice (same device and inode, whatever the path) is a cycle.
    """
    chain: list[tuple[Path, dict]] = []
    seen: dict[tuple[int, int], int] = {}  # (st_dev, st_ino) -> position in the chain
    current, referrer = path, ""
    while True:
        data, ident = _read_file(current, referrer)
        if ident in seen:
            loop = [p for p, _ in chain[seen[ident]:]] + [current]
            raise RulebookError(f"rulebook file {show_value(str(path))} extends itself through a cycle: "
                                f"{_path_chain(loop)}")
        if len(chain) >= MAX_EXTENDS:
            raise RulebookError(
                f"rulebook file {show_value(str(path))}: its extends chain is longer than {MAX_EXTENDS} files, the limit "
                f"({_path_chain([p for p, _ in chain] + [current])})")
        where = f"rulebook file {show_value(str(current))}"
        layer = _parse_layer(_parse_toml(data, current), where)
        seen[ident] = len(chain)
        chain.append((current, layer))
        base_ref = layer["extends"] or DEFAULT
        if base_ref in BUILTIN:
            book = _builtin(base_ref)
            break
        base_path = Path(base_ref)
        if not base_path.is_absolute():
            base_path = current.parent / base_path
        current, referrer = base_path, f"{where}: extends {show_value(base_ref)}, which"
    for file, layer in reversed(chain):
        book = _apply_layer(book, file, layer)
    return book


def _apply_layer(base: Rulebook, path: Path, layer: dict) -> Rulebook:
    """One user file's changes on top of the rulebook it extends."""
    label = path.name
    values: dict[str, Any] = base.parameters()  # one value per parameter, each checked by Param.check
    sources, notes = dict(base.sources), dict(base.notes)
    for k, v in layer["values"].items():
        if v != values[k]:
            sources[k] = f"{label} (overrides {base.name})"
            notes[k] = f"set in {label}; {base.name} has {_fmt(values[k])}"
        values[k] = v
    sources.update(layer["sources"])
    notes.update(layer["notes"])
    return Rulebook(
        name=layer["name"] or path.stem,
        title=layer["title"] or f"{path.stem} (extends {base.name})",
        **values,
        sources=sources,
        notes=notes,
        citations={**base.citations, **layer["citations"]},
        rulings={**base.rulings, **layer["rulings"]},
        extends=base.name,
    )


def _path_chain(paths: list[Path]) -> str:
    """``'a' -> 'b' -> 'c'``, with the middle of a long chain elided."""
    shown = [show_value(str(p)) for p in paths]
    if len(shown) > 6:
        shown = shown[:3] + [f"... ({len(shown) - 5} more)"] + shown[-2:]
    return " -> ".join(shown)


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def _read_file(path: Path, referrer: str = "") -> tuple[bytes, tuple[int, int]]:
    """The bytes of a rulebook file and its (device, inode).

    Only a regular file of at most :data:`MAX_RULEBOOK_BYTES` is read: it is opened with
    ``O_NONBLOCK`` (a FIFO without a writer cannot block the open), checked with ``fstat`` on the
    open descriptor (a device, FIFO, socket or directory is refused before a byte is read), and
    read up to one byte past the limit (a file that grows while read cannot take more memory).
    ``referrer``: for a file named by ``extends``, the words that introduce it in a message.
    """
    name = show_value(str(path))
    subject = referrer or f"rulebook file {name}"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (FileNotFoundError, NotADirectoryError):
        if referrer:
            raise RulebookError(f"{referrer} is neither a built-in rulebook ({', '.join(BUILTIN)}) "
                                "nor an existing file") from None
        if path.suffix == ".toml" or len(path.parts) > 1:
            raise RulebookError(f"rulebook file {name} does not exist") from None
        raise RulebookError(
            f"rulebook {name} is neither a built-in rulebook ({', '.join(BUILTIN)}) nor an existing file") from None
    except OSError as e:
        raise RulebookError(f"{subject}: cannot read rulebook file {name}: {e.strerror or e}") from None
    except ValueError as e:  # an embedded NUL
        raise RulebookError(f"{subject}: cannot read rulebook file {name}: {e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((k for test, k in _KINDS if test(st.st_mode)), "not a regular file")
            raise RulebookError(f"{subject} is {kind}, not a regular file: a rulebook must be a TOML file")
        if st.st_size > MAX_RULEBOOK_BYTES:
            raise RulebookError(f"{subject} has {st.st_size:,} bytes, more than the {_LIMIT_TEXT} a rulebook "
                                "file may have")
        parts: list[bytes] = []
        got = 0
        while got <= MAX_RULEBOOK_BYTES:
            block = os.read(fd, MAX_RULEBOOK_BYTES + 1 - got)
            if not block:
                break
            parts.append(block)
            got += len(block)
        if got > MAX_RULEBOOK_BYTES:
            raise RulebookError(f"{subject} has more than the {_LIMIT_TEXT} a rulebook file may have")
        return b"".join(parts), (st.st_dev, st.st_ino)
    except OSError as e:
        raise RulebookError(f"{subject}: cannot read rulebook file {name}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def _parse_toml(data: bytes, path: Path) -> dict:
    """A user's rulebook file as TOML, by the standard library's reader (imported here: a run
    with the built-in rulebooks does without it), every failure a :class:`RulebookError`."""
    import tomllib

    name = show_value(str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulebookError(f"rulebook file {name} is not UTF-8 text: {e}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulebookError(f"rulebook file {name} is not valid TOML: {e}") from None
    except RecursionError:
        raise RulebookError(f"rulebook file {name} is not valid for handaudit: arrays or tables nested too "
                            "deeply") from None
    except ValueError as e:  # an integer of more than 4,300 digits
        raise RulebookError(f"rulebook file {name} is not valid TOML: {e}") from None


def _read_toml(path: Path) -> dict:
    """A built-in rulebook's contents (a package file, read with the same limits as a user's).

    Read by toml-rs, which every run has loaded to read hands, as TOML 1.0: the standard
    library's reader and its regular expressions cost some 3 ms of a run's start
    (docs/performance.md). A test holds each built-in to what ``tomllib`` reads, and a user's
    file keeps ``tomllib``'s messages (:func:`_parse_toml`)."""
    import toml_rs

    try:
        return toml_rs.loads(_read_file(path)[0].decode("utf-8"), toml_version="1.0.0")
    except ValueError as e:  # (toml_rs.TOMLDecodeError, UnicodeDecodeError): a damaged installation
        raise RulebookError(f"built-in rulebook file {show_value(str(path))} is not valid TOML: {e}") from None


_TOP = ("name", "title", "extends", "parameters", "citations", "rulings")
_ENTRY = ("value", "rule", "note")


def _parse_layer(data: dict, where: str) -> dict:
    """Check one file's contents; return its name/title/extends and the values, sources, notes,
    citations and rulings it sets (partial for a user file)."""
    layer: dict[str, Any] = {"name": None, "title": None, "extends": None,
             "values": {}, "sources": {}, "notes": {}, "citations": {}, "rulings": {}}
    params = {}
    for key, val in data.items():
        if key in ("name", "title", "extends"):
            layer[key] = _string(val, f"{where}: {key}")
        elif key == "parameters":
            if not isinstance(val, dict):
                raise RulebookError(f"{where}: [parameters] must be a table of parameter = value")
            for k, v in val.items():
                if k in params:
                    raise RulebookError(f"{where}: parameter {k} is given twice")
                params[k] = v
        elif key in ("citations", "rulings"):
            if not isinstance(val, dict):
                raise RulebookError(f"{where}: [{key}] must be a table of finding-code = text")
            for code, text in val.items():
                if code not in CODES:
                    raise RulebookError(f"{where}: [{key}] names unknown finding code {show_value(code)}{_suggest(code, CODES)}")
                layer[key][code] = _string(text, f"{where}: [{key}] {code}")
        elif key in PARAMETERS:
            if key in params:
                raise RulebookError(f"{where}: parameter {key} is given twice")
            params[key] = val
        else:
            raise RulebookError(
                f"{where}: unknown key {show_value(key)}{_suggest(key, [*_TOP, *PARAMETERS])}; allowed keys are "
                f"{', '.join(_TOP)} and the parameters {', '.join(PARAMETERS)}")
    for k, v in params.items():
        spec = PARAMETERS.get(k)
        if spec is None:
            raise RulebookError(
                f"{where}: unknown parameter {show_value(k)}{_suggest(k, PARAMETERS)}; known parameters are {', '.join(PARAMETERS)}")
        pwhere = f"{where}, parameter {k}"
        if isinstance(v, dict):
            extra = [x for x in v if x not in _ENTRY]
            if extra:
                raise RulebookError(f"{pwhere}: unknown key {show_value(extra[0])}; allowed keys are {', '.join(_ENTRY)}")
            if "value" in v:
                layer["values"][k] = spec.check(v["value"], where)
            if "rule" in v:
                layer["sources"][k] = _string(v["rule"], f"{pwhere}: rule")
            if "note" in v:
                layer["notes"][k] = _string(v["note"], f"{pwhere}: note")
        else:
            layer["values"][k] = spec.check(v, where)
    return layer


def _string(val, where: str) -> str:
    if not isinstance(val, str) or not val.strip():
        raise RulebookError(f"{where} must be a non-empty string, not {show_value(val)}")
    return val



def _suggest(word: str, options) -> str:
    if len(word) > 100:  # no key is that long; difflib's cost grows with the word
        return ""
    import difflib  # (here: only a mistyped key needs it, and a run's start would pay its import)

    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _apply_set(book: Rulebook, item: str) -> Rulebook:
    """Apply one ``KEY=VALUE`` override; the source records the ``--set`` that made it."""
    where = f"--set {show_value(item, 120)}"
    if "=" not in item:
        raise RulebookError(f"{where}: expected KEY=VALUE, e.g. --set limit_raises=4")
    key, text = item.split("=", 1)
    key = key.strip().replace("-", "_")
    spec = PARAMETERS.get(key)
    if spec is None:
        raise RulebookError(
            f"{where}: unknown parameter {show_value(key)}{_suggest(key, PARAMETERS)}; known parameters are {', '.join(PARAMETERS)}")
    value = spec.parse(text, where)
    old = getattr(book, key)
    sources = {**book.sources, key: f"--set {key}={_fmt(value)}"}
    notes = {**book.notes, key: f"set on the command line; {book.name} has {_fmt(old)}"}
    return book.replace(**{key: value}, sources=sources, notes=notes,
                        overrides=book.overrides + (f"{key}={_fmt(value)}",))


def _fmt(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# --- output ----------------------------------------------------------------------------------------

def rulebook_to_json(book: Rulebook) -> dict:
    """The rulebook as JSON: every parameter with its value, rule and note; citations; rulings."""
    return {
        "name": book.name,
        "title": book.title,
        "extends": book.extends,
        "overrides": list(book.overrides),
        "parameters": {
            k: {"value": v, "rule": book.sources.get(k), "note": book.notes.get(k)}
            for k, v in book.parameters().items()
        },
        "citations": dict(book.citations),
        "rulings": dict(book.rulings),
    }


def render_table(names: list[str] | None = None, width: int = 120) -> str:
    """The rulebooks side by side: a row per parameter, a column per rulebook, each value followed by
    a ``[n]`` footnote mark; the footnotes (the rules cited) follow, per rulebook.

    Rows are one line when the table fits ``width``; otherwise each row is the parameter's line
    followed by the values, and rulebooks that still do not fit go into further tables.
    """
    import textwrap  # only `handaudit rulebooks` renders: a run does without it

    books = [load_rulebook(n) for n in (names or BUILTIN)]
    cells: dict[str, list[str]] = {}
    notes: list[list[str]] = []
    for book in books:
        marks: dict[str, int] = {}
        for k, v in book.parameters().items():
            src = book.sources.get(k, "")
            n = marks.setdefault(src, len(marks) + 1)
            cells.setdefault(k, []).append(f"{_fmt(v)} [{n}]")
        notes.append(list(marks))
    out = ["Rulebook parameters side by side; [n] marks the rule each value comes from (listed below).", ""]
    colw = [max(len(b.name), *(len(cells[k][i]) for k in PARAMETERS)) for i, b in enumerate(books)]
    keyw = max(len("parameter"), *map(len, PARAMETERS))
    gap = "  "

    def line(parts: list[str], ws: list[int]) -> str:
        return gap.join(p.ljust(w) for p, w in zip(parts, ws, strict=True)).rstrip()

    if keyw + sum(len(gap) + w for w in colw) <= width:
        ws = [keyw, *colw]
        out.append(line(["parameter", *(b.name for b in books)], ws))
        out.append(line(["-" * w for w in ws], ws))
        for k in PARAMETERS:
            out.append(line([k, *cells[k]], ws))
    else:
        indent = 4
        groups: list[list[int]] = []
        cur: list[int] = []
        used = indent
        for i, w in enumerate(colw):
            if cur and used + w > width:
                groups.append(cur)
                cur, used = [], indent
            cur.append(i)
            used += w + len(gap)
        groups.append(cur)
        for gi, group in enumerate(groups):
            ws = [colw[i] for i in group]
            if gi:
                out.append("")
            out.append(" " * indent + line([books[i].name for i in group], ws))
            out.append(" " * indent + line(["-" * w for w in ws], ws))
            for k, spec in PARAMETERS.items():
                out.append(textwrap.shorten(f"{k}: {spec.summary}", width, placeholder="..."))
                out.append(" " * indent + line([cells[k][i] for i in group], ws))
    out += ["", "Rules cited"]
    for book, srcs in zip(books, notes, strict=True):
        out.append(f"  {book.name}: {book.title}")
        for n, src in enumerate(srcs, 1):
            mark = f"  {f'[{n}]':>6} "
            out.extend(textwrap.wrap(src, width, initial_indent=mark, subsequent_indent=" " * len(mark)))
    return "\n".join(out) + "\n"


def render_codes(names: list[str] | None = None, width: int = 120) -> str:
    """Every finding code (the one catalogue, ``CODES``, in its order), with its severity, its
    meaning, the rule each rulebook cites for it, and the parameters that change it (for
    ``rulebooks --codes``): a code no rulebook cites (reading the file, a site's figures) says so."""
    import textwrap  # only `handaudit rulebooks` renders: a run does without it

    from .params import CODES_CHANGED_BY

    books = [load_rulebook(n) for n in (names or BUILTIN)]
    namew = max(len(b.name) for b in books)
    changed: dict[str, list[str]] = {}
    for param, codes in CODES_CHANGED_BY.items():
        for code in codes:
            changed.setdefault(code, []).append(param)
    out = [f"{len(CODES)} finding codes ({', '.join(b.name for b in books)}):", ""]
    for code, info in CODES.items():
        out.append(f"{code} ({info.severity}): {info.summary}")
        if any(b.cite(code) for b in books):
            for b in books:
                rule = b.cite(code) or "-"
                head = f"    {b.name.ljust(namew)}  "
                out.extend(textwrap.wrap(rule, width, initial_indent=head, subsequent_indent=" " * len(head)))
        else:
            out.append("    no rulebook cites a rule for it: a check of the hand as written (its text, fields or figures)")
        if code in changed:
            out.extend(textwrap.wrap("changed by: " + ", ".join(sorted(changed[code])), width,
                                     initial_indent="    ", subsequent_indent="      "))
    return "\n".join(out) + "\n"
