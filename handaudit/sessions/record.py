"""What the cross-hand pass knows of one hand (:class:`HandRecord`), and the table events between
two hands (:class:`TableEvent`).

A record is made from the Parquet report's ``hands`` and ``players`` rows (``extract``), never
from the per-hand loop: the per-hand audit does not grow by one instruction for the pass. It
holds only what the checks compare across hands: the session key, the hand's number and time,
the seats, names and stacks in PHH player order, the blinds, and the level.
"""

from __future__ import annotations

# Table events a site log records between hands (issue #39a gives them as typed values; a PHH
# file has no field for them). ``TOP_UP``, ``REBUY``, ``ADD_ON`` and ``RE_ENTRY`` bring chips
# in; ``JOIN``/``LEAVE``/``SIT_OUT``/``SIT_IN`` explain a player arriving, leaving or moving.
TOP_UP = "top-up"
REBUY = "rebuy"
ADD_ON = "add-on"
RE_ENTRY = "re-entry"
JOIN = "join"
LEAVE = "leave"
SIT_OUT = "sit-out"
SIT_IN = "sit-in"
CHIPS_IN = (TOP_UP, REBUY, ADD_ON, RE_ENTRY)
EVENT_KINDS = (*CHIPS_IN, JOIN, LEAVE, SIT_OUT, SIT_IN)


class TableEvent:
    """One thing that happened at the table before a hand: ``kind`` (one of :data:`EVENT_KINDS`),
    the player's name, and the chips it brought (top-up, rebuy, add-on, re-entry; in the hand's
    smallest unit at the hand's scale), else 0."""

    __slots__ = ("kind", "player", "amount")

    def __init__(self, kind: str, player: str, amount: int = 0) -> None:
        self.kind = kind
        self.player = player
        self.amount = amount

    def __repr__(self) -> str:
        return f"TableEvent({self.kind!r}, {self.player!r}, {self.amount})"

    def __reduce__(self) -> tuple:  # (compiled, a native class pickles only this way)
        return (TableEvent, (self.kind, self.player, self.amount))


class HandRecord:
    """One hand as the pass sees it. Lists are in PHH player order (p1 first).

    ``starts``/``finishes``: stacks in units of ``scale`` (None: unknown, an ``inf`` stack or an
    undetermined hand); ``finishes`` prefers the recorded finishing stack, else the settled one.
    ``blinds``: the ``blinds_or_straddles`` entries as written (heads-up the PHH convention
    reverses them: entry 0 is the small blind, posted by p2). ``when``: microseconds (UTC when the
    hand's zone is known, else the venue's local clock), or None. ``number``/``prefix``: the
    hand field's trailing integer and the text before it (``R5-1704660-`` and 533).
    ``max_buy_in``: the table's largest buy-in where the log states it (units), else None.
    """

    __slots__ = ("source", "hand_index", "hand_key", "hand", "venue", "table", "event", "number", "prefix",
                 "when", "button_game", "level", "scale", "seats", "names", "starts", "finishes", "blinds",
                 "nets", "events", "max_buy_in", "seat_count", "rake", "status", "computed", "received", "pot", "rake_known")

    def __init__(self, source: str, hand_index: int, *, hand_key: str = "", hand: str | None = None,
                 venue: str | None = None, table: str | None = None, event: str | None = None,
                 when: int | None = None, button_game: bool = True, level: int | None = None, scale: int = 0,
                 seats: list[int] | None = None, names: list[str] | None = None,
                 starts: list[int | None] | None = None, finishes: list[int | None] | None = None,
                 blinds: list[int] | None = None, nets: list[int | None] | None = None,
                 events: list[TableEvent] | None = None, max_buy_in: int | None = None,
                 seat_count: int | None = None, rake: list[int] | None = None, status: str = "valid") -> None:
        self.source = source
        self.hand_index = hand_index
        self.hand_key = hand_key
        self.hand = hand
        self.venue = venue
        self.table = table
        self.event = event
        self.prefix, self.number = hand_number(hand)
        self.when = when
        self.button_game = button_game
        self.level = level
        self.scale = scale
        self.seats: list[int] = seats or []
        self.names: list[str] = names or []
        n = len(self.names)
        self.starts: list[int | None] = starts if starts is not None else [None] * n
        self.finishes: list[int | None] = finishes if finishes is not None else [None] * n
        self.blinds: list[int] = blinds if blinds is not None else [0] * n
        self.nets: list[int | None] = nets if nets is not None else [None] * n
        self.rake: list[int] = rake if rake is not None else [0] * n  # rake each player paid (units)
        self.events: list[TableEvent] = events or []
        self.max_buy_in = max_buy_in
        self.seat_count = seat_count
        self.status = status
        # per player: the finishing stack is the settlement's (not recorded), and what they received
        self.computed: list[bool] = [False] * n
        self.received: list[int] = [0] * n
        self.pot = 0  # the pots' total (units)
        self.rake_known = False
        self.normalize()

    def normalize(self) -> None:
        """Every per-player list as long as ``names`` (the checks index them without testing)."""
        n = len(self.names)
        if len(self.starts) < n:
            self.starts += [None] * (n - len(self.starts))
        if len(self.finishes) < n:
            self.finishes += [None] * (n - len(self.finishes))
        if len(self.nets) < n:
            self.nets += [None] * (n - len(self.nets))
        if len(self.blinds) < n:
            self.blinds += [0] * (n - len(self.blinds))
        if len(self.rake) < n:
            self.rake += [0] * (n - len(self.rake))
        if len(self.computed) < n:
            self.computed += [False] * (n - len(self.computed))
        if len(self.received) < n:
            self.received += [0] * (n - len(self.received))

    def __repr__(self) -> str:
        return f"HandRecord({self.source!r}, {self.hand_index}, hand={self.hand!r}, table={self.table!r})"

    def __reduce__(self) -> tuple:
        """Pickled by its fields (the on-disk partition spills records; compiled, a native class
        pickles only this way)."""
        return (record_from, (tuple([getattr(self, name) for name in RECORD_FIELDS]),))

    # -- the positions the button gives ------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.names)

    def button_seat(self) -> int | None:
        """The button's seat: the last player in PHH order (heads-up too: p2 is the button), or
        None without a button or seats."""
        if not self.button_game or len(self.seats) < 2 or len(self.seats) != self.n:
            return None
        return self.seats[-1]

    def big_blind_index(self) -> int | None:
        """The PHH index of the big blind: p1 heads-up (the PHH convention), else p2, or p1 when
        p1 posted the larger blind (the small blind seat is empty or dead)."""
        if not self.button_game or self.n < 2:
            return None
        if self.n == 2:
            return 0
        b = self.blinds
        if len(b) >= 2 and b[0] > b[1]:
            return 0
        return 1

    def big_blind_seat(self) -> int | None:
        i = self.big_blind_index()
        if i is None or len(self.seats) != self.n:
            return None
        return self.seats[i]

    def big_blind(self) -> int:
        """The big blind's amount (units): the largest positive blind of the first two entries."""
        b = self.blinds
        return max([x for x in b[:2] if x > 0], default=0)

    def small_blind(self) -> int:
        b = self.blinds
        if len(b) < 2:
            return 0
        return max(0, min(b[0], b[1])) if b[0] > 0 and b[1] > 0 else 0

    def extra_post(self, i: int) -> int:
        """What player ``i`` posted outside the blind seats (a new or returning player's post,
        written negative by site logs, or a positive post beyond the two blinds), in units."""
        if self.n <= 2 or i < 2 or i >= len(self.blinds):
            return 0
        return abs(self.blinds[i])


RECORD_FIELDS = ("source", "hand_index", "hand_key", "hand", "venue", "table", "event", "number", "prefix", "when",
                 "button_game", "level", "scale", "seats", "names", "starts", "finishes", "blinds", "nets", "events",
                 "max_buy_in", "seat_count", "rake", "status", "computed", "received", "pot", "rake_known")


def record_from(values: tuple) -> HandRecord:
    """A :class:`HandRecord` from its fields in :data:`RECORD_FIELDS` order (unpickling)."""
    r = HandRecord(values[0], values[1])
    for name, value in zip(RECORD_FIELDS, values, strict=True):
        setattr(r, name, value)
    return r


def hand_number(text: str | None) -> tuple[str, int | None]:
    """``"R5-1704660-533"`` -> ``("R5-1704660-", 533)``; ``"59937794410"`` -> ``("", 59937794410)``;
    text without trailing digits -> ``(text, None)``."""
    if not text:
        return "", None
    end = len(text)
    start = end
    while start > 0 and text[start - 1].isdigit() and text[start - 1].isascii():
        start -= 1
    if start == end or end - start > 18:
        return text, None
    return text[:start], int(text[start:])
