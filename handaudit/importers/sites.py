"""The site registry: every site whose logs handaudit reads, one entry each.

Adding a site is one :class:`Site` entry here, plus its importer module (and grammar) beside
this file. Everything else that tells sites apart reads this table: detection of a file by its
content and the cutting of a log into hands (:mod:`.common`, :mod:`.inputs`), the routing of a
hand to its importer (:func:`handaudit.importers.read_site`), the venue a hand names.

An importer module defines ``read_hand(chunk, venue) -> ReadResult``: one hand's text (a chunk
that starts with one of the site's header prefixes) read into the same
:class:`~handaudit.core.hand.Hand` the PHH reader makes, with findings. It is imported at the
first hand of its site, so a run of PHH files never pays for compiling a site's patterns.
"""

from __future__ import annotations

from typing import Final


class Site:
    """One site's log format.

    ``heads`` are the first characters of a hand's header line, each with the venue it names
    (one format can be written by several rooms or brands: PPPoker exports PokerStars' text).
    ``module`` is the importer's module name in :mod:`handaudit.importers`. ``markers`` are lines
    only this format has, by which a fragment of a log (its header lost) is still told a log of
    it and reported unreadable with the reason, not passed over.

    ``split``: for a format that is not a log of lines (iPoker's XML session), the name of the
    module's function ``split(source, stream) -> Iterator[Chunk]`` that cuts a file into hands;
    a file holding one of the site's ``markers`` in its first bytes is given to it
    (:mod:`.inputs`). Empty: the file is cut at header lines (:mod:`.common`).

    ``header``: a hand's whole header line, as a regular expression matched at a line's start
    (after the line's prefix in ``heads``): a log is cut into hands at these lines and told a
    log by one, so that a player whose name starts like a header ("PokerStars Fan: folds")
    splits nothing. Empty: the prefix alone (the line starts with one of ``heads``).

    ``blocks``: blocks of a log that are not hands, each (its first line as a regular
    expression, its kind): a block is cut out at that line like a hand and given to the
    importer's ``read_block(kind, chunk) -> list[Chunk]`` when the module has one (else not
    counted as a hand: the site declared it no hand), e.g. a tournament summary.

    ``leads``: prefixes (among ``heads``) of header lines that only lead in a hand whose own
    header follows ("#Game No : 123" before "***** 888poker Hand History for Game 123 *****"):
    the lines up to that header are one hand's, not a hand each.

    ``hand_number`` and ``table_name``, for a site whose hand ids are not digits after ``#`` (or
    whose table line is not PokerStars'): regular expressions (on a hand's header line, and on a
    line of the three after it) whose first group is the site's hand id and table name as the
    importer names them (its PHH conversion's ``hand`` and ``table``): what the
    ``duplicate-hand`` check keys a hand by before it is read. A hand id of digits only is keyed
    as a number (``"0042"`` as ``"42"``), any other as written (GGPoker's ``HD23847510``). Empty:
    the shared patterns of :func:`.common.site_log_hand`.

    A plain class with slots, not a dataclass: a dataclass's methods are compiled from source
    at every start, and every run imports the registry (tests/test_startup.py).
    """

    __slots__ = ("name", "heads", "module", "markers", "header", "blocks", "leads", "hand_number", "table_name",
                 "split")

    def __init__(self, name: str, heads: tuple[tuple[str, str], ...], module: str, markers: tuple[str, ...] = (),
                 header: str = "", blocks: tuple[tuple[str, str], ...] = (), leads: tuple[str, ...] = (),
                 hand_number: str = "", table_name: str = "", split: str = "") -> None:
        self.name = name
        self.heads = heads
        self.module = module
        self.markers = markers
        self.header = header
        self.blocks = blocks
        self.leads = leads
        self.hand_number = hand_number
        self.table_name = table_name
        self.split = split

    def __repr__(self) -> str:
        return (f"Site({self.name!r}, heads={self.heads!r}, module={self.module!r}, markers={self.markers!r}, "
                f"header={self.header!r}, blocks={self.blocks!r}, leads={self.leads!r}, split={self.split!r})")


SITES: Final[tuple[Site, ...]] = (
    Site("pokerstars",
         heads=(("PokerStars ", "PokerStars"),  # "PokerStars Hand #", "PokerStars Game #", "PokerStars Zoom Hand #"
                ("PPPoker Hand #", "PPPoker")),  # PPPoker exports in PokerStars' format
         module="pokerstars",
         markers=("*** HOLE CARDS ***", "*** SUMMARY ***", "*** FLOP ***", "*** SHOW DOWN ***", "*** TURN ***",
                  "*** RIVER ***"),
         # "PokerStars Hand #1: ...", "PokerStars Game #", "PokerStars Zoom Hand #", "PokerStars Home
         # Game Hand #", "PPPoker Hand #": the hand number and its colon are what no action line has.
         header=r"(?:PokerStars(?: Zoom| Home Game)? (?:Hand|Game)|PPPoker (?:Hand|Game)) #[0-9]+:[ \t]",
         # a tournament summary (importers/tournaments.py reads it into the tournaments output)
         blocks=((r"PokerStars Tournament #[0-9]+", "tournament-summary"),)),

    # 888poker (Pacific Poker, Cassava: one network, several brands). "#Game No : N" leads in both
    # 888's and PartyPoker's hands: it is registered here, and the 888 importer hands a hand whose
    # own header is PartyPoker's to that importer (importers/poker888.py).
    Site("888poker",
         heads=(("#Game No : ", "888poker"),
                ("***** 888poker Hand History", "888poker"), ("***** 888poker Snap Poker Hand History", "888poker"),
                ("***** 888poker BLAST Hand History", "888poker"), ("***** 888 Hand History", "888poker"),
                ("***** Cassava Hand History", "888poker"), ("***** Cassava Snap Poker Hand History", "888poker"),
                ("***** Pacific Hand History", "888poker"), ("***** 888.es Hand History", "888.es"),
                ("***** 888.it Hand History", "888.it"), ("***** 888.pt Hand History", "888.pt"),
                ("***** 888.ro Hand History", "888.ro"), ("***** 888.dk Hand History", "888.dk"),
                ("***** 888.de Hand History", "888.de"), ("***** 888.se Hand History", "888.se"),
                ("***** LuckyAcePoker.com Hand History", "LuckyAcePoker")),
         module="poker888",
         markers=("** Dealing down cards **", "** Summary **"),
         # the lead-in line whole, or the header to its game number ("Snap Poker", "BLAST": formats)
         header=r"(?:#Game No\s*:\s*[0-9]+\s*$|\*{4,5}\s*(?:888poker|Cassava|Pacific|888|LuckyAcePoker\.com)"
                r"(?:\.[a-z]{2})?(?:-[a-z]{2})?\s+(?:Snap Poker |BLAST )?Hand History for Game [0-9]+)",
         # a tournament summary (its own file, no hand)
         blocks=((r"\*{4,5}\s*(?:888poker|Cassava|888)(?:\.[a-z]{2})? Tournament Summary", "tournament-summary"),),
         leads=("#Game No : ",)),
    # PartyPoker (and its network's skins), every era: "***** Hand History for Game N *****", led in
    # by "Game #N starts." and "#Game No : N" in the client's files.
    Site("partypoker",
         heads=(("***** Hand History for Game ", "PartyPoker"), ("***** Hand History For Game ", "PartyPoker"),
                ("Game #", "PartyPoker")),
         module="partypoker",
         markers=("** Dealing down cards **", "** Dealing Flop **"),
         header=r"(?:\*{5}\s*Hand History [Ff]or Game [0-9]+|Game #[0-9]+ starts)",
         leads=("Game #",)),
    Site("ggpoker",
         heads=(("Poker Hand #", "GGPoker"),),  # "Poker Hand #HD…:", "#RC…", "#TM…", "#OM…", "#SG…", digits only
         module="ggpoker",
         markers=("*** SHOWDOWN ***",),
         # (not after a letter: "PPPoker Hand #1: " ends with it, and is no GGPoker hand spliced in)
         header=r"(?<![A-Za-z])Poker Hand #[A-Z]*[0-9]+: ",
         hand_number=r"^Poker Hand #([A-Z]*\d+):",
         table_name=r"Table '(.*)' \d+-max Seat #\d+ is the button\s*$"),
    Site("winamax",
         heads=(("Winamax Poker - ", "Winamax"),),  # "Winamax Poker - CashGame|Tournament|Go Fast|…"
         module="winamax",
         markers=("*** ANTE/BLINDS ***", "*** PRE-FLOP ***"),
         header=r"Winamax Poker - .* - HandId: #[0-9]",
         hand_number=r" - HandId: #(\d+(?:-\d+)*) - ",
         blocks=((r"Winamax Poker - Tournament summary", "tournament-summary"),),
         table_name=r"Table: '(.*)' \d+-max"),
    # iPoker network XML session export: <session sessioncode=...> of <game gamecode=...>; each
    # game's chunk is re-written to start with its <game gamecode= tag (importers/ipoker_xml.py).
    Site("ipoker",
         heads=(("<game gamecode=", "iPoker"),),
         module="ipoker",
         markers=("<session sessioncode=", "<game gamecode="),
         split="split_session"),
)

# Every (header prefix, venue, site index), in registry order: what detection and routing test.
HEADS: Final[tuple[tuple[str, str, int], ...]] = tuple(
    [(prefix, venue, i) for i in range(len(SITES)) for prefix, venue in SITES[i].heads])
# Every lead-in header prefix (:attr:`Site.leads`).
LEADS: Final[tuple[str, ...]] = tuple([p for s in SITES for p in s.leads])
# Every site's marker lines, as bytes: a file holding one near its start is a (broken) log.
MARKERS: Final[tuple[bytes, ...]] = tuple([m.encode("utf-8") for s in SITES for m in s.markers])


# (marker bytes, site index) of the sites with a split hook: what :mod:`.inputs` looks for.
SPLIT_MARKERS: Final[tuple[tuple[bytes, int], ...]] = tuple(
    [(m.encode("utf-8"), i) for i in range(len(SITES)) if SITES[i].split for m in SITES[i].markers])


def site_named(name: str) -> Site:
    """The registered site called ``name`` (KeyError for another name)."""
    for site in SITES:
        if site.name == name:
            return site
    raise KeyError(name)


def header_patterns() -> tuple[tuple[str, int], ...]:
    """Every site's whole-header pattern (a regular expression matched at a line's start) with
    its site index: the prefixes of ``heads`` (escaped) where a site gives no ``header``."""
    import re

    out: list[tuple[str, int]] = []
    for i in range(len(SITES)):
        site = SITES[i]
        if site.header:
            out.append((site.header, i))
        else:
            out.extend([(re.escape(prefix), i) for prefix, _ in site.heads])
    return tuple(out)


def block_patterns() -> tuple[tuple[str, str, int], ...]:
    """Every site's non-hand blocks: (first-line pattern, kind, site index)."""
    return tuple([(pattern, kind, i) for i in range(len(SITES)) for pattern, kind in SITES[i].blocks])
