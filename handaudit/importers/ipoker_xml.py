"""Safe XML for the iPoker importer: a session export cut into its games, and one game read back.

The parser is the standard library's ``xml.parsers.expat`` (no new dependency), made safe on
hostile files here rather than trusted: a document type declaration is refused at its start (so
no entity is ever declared: no billion laughs, no external entity, no file or URL read), external
entity references and parameter entities are refused, nesting deeper than :data:`MAX_DEPTH`
elements is refused, and the file is fed to the parser in pieces of :data:`PIECE` bytes, each
game's text kept to :data:`MAX_HAND_BYTES`, so a gigabyte of whitespace or a huge text node costs
bounded memory. Each refusal or breakage is one chunk with a problem saying where and what; the
games before it are read.

A game's chunk is the game re-written as small, escaped XML that starts ``<game gamecode="...">``
(the site's header in the registry) and carries the session's ``<general>`` facts as one
``<session_general>`` element, so a chunk is read alone, in any worker.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Final
from xml.parsers import expat

from ..grammar.chunk import MAX_HAND_BYTES, Chunk

MAX_DEPTH: Final = 64  # a session is 5 levels deep (session, game, round, action); 64 is generous
PIECE: Final = 1 << 16
MAX_TEXT: Final = 1 << 16  # the text of one session fact (<gametype>, <tablename>, ...)
GAME_HEAD: Final = "<game gamecode="


# expat's errors for text after a document's end: "junk after document element", and an
# <?xml ...?> declaration not at the start (a second document appended)
_JUNK: Final = frozenset([expat.errors.codes[expat.errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT],
                          expat.errors.codes[expat.errors.XML_ERROR_MISPLACED_XML_PI]])


class Refused(Exception):
    """A construct refused on a hostile-file ground (DTD, entity, depth)."""


def _refuse_dtd(*_args: object) -> None:
    raise Refused("a document type declaration (<!DOCTYPE>) is refused: its entity declarations could expand "
                  "without bound (billion laughs) or read other files and URLs (external entities)")


def _refuse_entity(*_args: object) -> None:
    raise Refused("an entity declaration is refused (entities could expand without bound or read other files)")


def _refuse_external(*_args: object) -> int:
    raise Refused("an external entity reference is refused (it would read another file or a URL)")


def safe_parser() -> expat.XMLParserType:
    """An expat parser that refuses DTDs, entity declarations and external entities."""
    p = expat.ParserCreate()
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    p.StartDoctypeDeclHandler = _refuse_dtd
    p.EntityDeclHandler = _refuse_entity
    p.UnparsedEntityDeclHandler = _refuse_entity
    p.ExternalEntityRefHandler = _refuse_external
    p.buffer_text = True
    return p


def escape(text: str) -> str:
    """``text`` as XML character data or a double-quoted attribute value (the usual text has
    nothing to escape: tested first, the cutting's hot path)."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "\r" in text or "\t" in text or "\n" in text:
        return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
                .replace("\r", "&#13;").replace("\t", "&#9;").replace("\n", "&#10;"))
    return text


def _start_tag(name: str, attrs: dict[str, str]) -> str:
    parts = [name]
    if "gamecode" in attrs:  # first: the chunk must start with the registry's header
        parts.append(f'gamecode="{escape(attrs["gamecode"])}"')
    for k, v in attrs.items():
        if k != "gamecode":
            parts.append(f'{k}="{escape(v)}"')
    return "<" + " ".join(parts) + ">"


def _escape_text(text: str) -> str:
    if "&" in text or "<" in text or ">" in text or "\r" in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    return text


class _Cutter:
    """expat's handlers, cutting a session into game chunks as the parse goes."""

    def __init__(self, source: str, parser: expat.XMLParserType) -> None:
        self.source = source
        self.p = parser
        self.line_base = 0  # lines of the file before this parser's document (sessions joined)
        self.depth = 0
        self.path: list[str] = []
        self.general: dict[str, str] = {}  # the session's <general> facts
        self.fact = ""  # the session fact being read
        self.fact_text: list[str] = []
        self.game: list[str] | None = None  # the game being cut, as XML text pieces
        self.game_size = 0
        self.game_code = ""
        self.game_line = 0
        self.game_depth = 0
        self.too_big = False
        self.index = 0
        self.out: list[Chunk] = []
        self.games = 0
        self.attach(parser, 0)

    def attach(self, parser: expat.XMLParserType, line_base: int) -> None:
        """Read on with ``parser``: a new document (a session) starting after ``line_base`` lines."""
        self.p = parser
        self.line_base = line_base
        self.depth = 0
        self.path = []
        self.general = {}
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.text

    def line(self) -> int:
        return self.line_base + self.p.CurrentLineNumber

    def where(self) -> str:
        return f"line {self.line()}, column {self.p.CurrentColumnNumber + 1}"

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Refused(f"elements nested deeper than {MAX_DEPTH} levels are refused (at {self.where()})")
        self.path.append(name)
        if self.game is not None:
            self._add(_start_tag(name, attrs))
            return
        if name == "game":
            self.game = [_start_tag(name, attrs), self._session_general()]
            self.game_size = sum(len(s) for s in self.game)
            self.game_code = attrs.get("gamecode", "")
            self.game_line = self.line()
            self.game_depth = self.depth
            self.too_big = False
            if "gamecode" not in attrs:
                self.game[0] = "<game gamecode=\"\">"
            return
        if self.depth == 3 and self.path[1] == "general" and self.path[0] == "session":
            self.fact = name
            self.fact_text = []

    def end(self, name: str) -> None:
        if self.game is not None:
            self._add(f"</{name}>")
            if self.depth == self.game_depth:
                self._finish_game()
        elif self.fact and self.depth == 3:
            self.general[self.fact] = "".join(self.fact_text)[:MAX_TEXT]
            self.fact = ""
        self.depth -= 1
        self.path.pop()

    def text(self, data: str) -> None:
        if self.game is not None:
            if not data.isspace():  # (whitespace between elements says nothing)
                self._add(_escape_text(data))
        elif self.fact and sum(len(s) for s in self.fact_text) < MAX_TEXT:
            self.fact_text.append(data)

    def _add(self, piece: str) -> None:
        if self.too_big or self.game is None:
            return
        self.game_size += len(piece)
        if self.game_size > MAX_HAND_BYTES:
            self.too_big = True
            self.game = [self.game[0]]
            return
        self.game.append(piece)

    def _session_general(self) -> str:
        inner = "".join([f"<{k}>{_escape_text(v)}</{k}>" for k, v in self.general.items()])
        return f"<session_general>{inner}</session_general>"

    def _finish_game(self) -> None:
        assert self.game is not None
        self.games += 1
        if self.too_big:
            self.problem("syntax-error", f"iPoker game {self.game_code or '(no gamecode)'} is larger than "
                         f"{MAX_HAND_BYTES} bytes; not read", self.game_line)
        else:
            data = "".join(self.game).encode("utf-8", "surrogatepass")
            self.out.append(Chunk(self.source, str(self.index + 1), self.index, data, self.game_line))
            self.index += 1
        self.game = None

    def problem(self, code: str, message: str, line: int) -> None:
        self.out.append(Chunk(self.source, str(self.index + 1), self.index, b"", line, (code, message)))
        self.index += 1


def split_session(source: str, stream: IO[bytes]) -> Iterator[Chunk]:
    """An iPoker XML session export -> its games as chunks, streamed (:data:`PIECE` at a time).

    A file that stops inside a game reports that game ``site-truncated-hand``; broken or hostile
    XML is one ``syntax-error`` chunk at its line and column (XML has no resynchronisation point,
    so the rest of that file is not read, and the message says so); the games before it are read.
    """
    p = safe_parser()
    cut = _Cutter(source, p)
    fed = 0  # bytes given to the current parser
    window = b""  # the last two pieces read: where a start tag cut by the file's end is looked for
    lines = 0  # newlines in the bytes given to the parsers before the current one
    try:
        while True:
            piece = stream.read(PIECE)
            if piece:
                window = window[-PIECE:] + piece
            while True:
                try:
                    p.Parse(piece, not piece)
                    fed += len(piece)
                    break
                except expat.ExpatError as err:
                    # Sessions joined in one file (an export appended to): after a session's end
                    # the next document starts; read it with a new parser, from where it starts.
                    if cut.depth != 0 or cut.game is not None or cut.games == 0 or err.code not in _JUNK:
                        raise
                    at = p.ErrorByteIndex - fed
                    if at < 0 or at > len(piece):
                        raise
                    lines += p.ErrorLineNumber - 1
                    piece = piece[at:]
                    fed = 0
                    p = safe_parser()
                    cut.attach(p, lines)
                    yield from cut.out
                    cut.out.clear()
            yield from cut.out
            cut.out.clear()
            if not piece:
                break
    except Refused as err:
        yield from cut.out
        cut.out.clear()
        _broken(cut, f"{source}: {err}; the rest of the file is not read")
        yield from cut.out
        return
    except expat.ExpatError as err:
        yield from cut.out
        cut.out.clear()
        _xml_error(cut, source, err, window)
        yield from cut.out
        return
    except OSError as err:
        yield from cut.out
        cut.out.clear()
        _broken(cut, f"{source}: the file cannot be read: {err.strerror or err}")
        yield from cut.out
        return
    if cut.depth > 0 and (cut.game is not None or not cut.games):
        _broken(cut, f"{source}: the file stops before </session>: truncated")
    elif cut.games == 0:
        cut.problem("site-unknown-line", f"{source}: no <game gamecode=...> in the iPoker session; not read", 1)
    yield from cut.out


def _broken(cut: _Cutter, message: str) -> None:
    """The file broke off: the game in progress (named) is the problem, or one chunk for the file."""
    if cut.game is not None:
        truncated = "truncated" in message
        code = "site-truncated-hand" if truncated else "syntax-error"
        cut.problem(code, f"iPoker game {cut.game_code or '(no gamecode)'} (line {cut.game_line}): {message}",
                    cut.game_line)
        cut.game = None
    elif "truncated" in message:
        cut.problem("site-truncated-hand", message, cut.line())
    else:
        cut.problem("syntax-error", message, cut.line())


class Node:
    """One element of a game chunk: tag, attributes, text, children (a game is some 60 nodes)."""

    __slots__ = ("attrs", "children", "tag", "text")

    def __init__(self, tag: str, attrs: dict[str, str]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children: list[Node] = []
        self.text = ""

    def find(self, tag: str) -> Node | None:
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def all(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]


def parse_game(data: bytes) -> Node:
    """A game chunk (made by :func:`split_session`) -> its tree, with the same safe parser."""
    p = safe_parser()
    stack: list[Node] = []
    root: list[Node] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            raise Refused(f"elements nested deeper than {MAX_DEPTH} levels are refused")
        node = Node(name, attrs)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(_name: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack:
            stack[-1].text += data

    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = text
    p.Parse(data, True)
    return root[0]


def _xml_error(cut: _Cutter, source: str, err: expat.ExpatError, window: bytes) -> None:
    """What a file whose XML stops or breaks says, after the games read before the fault."""
    eof = err.code in (expat.errors.codes[expat.errors.XML_ERROR_NO_ELEMENTS],
                       expat.errors.codes[expat.errors.XML_ERROR_UNCLOSED_TOKEN])
    if eof and cut.game is None and window.rfind(b"<game") > window.rfind(b"</game>"):
        cut.problem("site-truncated-hand", f"{source}: the file stops inside a <game> start tag (line "
                    f"{cut.line()}): that game is not read", cut.line())
        return
    if eof and cut.game is None and cut.games:
        return  # the session's end tag is missing, but every game it began is read: nothing lost
    if eof and (cut.depth > 0 or cut.games):
        _broken(cut, f"{source}: the file stops at line {err.lineno} before its elements are closed: truncated")
    elif eof:
        cut.problem("site-unknown-line", f"{source}: no iPoker <session> element in the file; not read", 1)
    else:
        _broken(cut, f"{source}: the XML cannot be read at line {err.lineno}, column {err.offset + 1}: "
                f"{expat.ErrorString(err.code)}; the rest of the file is not read")
