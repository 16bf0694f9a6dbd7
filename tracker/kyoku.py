"""What the tracker holds about the kyoku in play: the river slots and meld tiles it has read, and
its bookkeeping between reads (candidates, hand looks, counts, riichi). Plain data; the readers
(``tracker.read_*``) change it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tracker import events as ev
from tracker import tiles
from tracker.copies import Looks
from tracker.melds import chi_from, declared_own_tiles, sure_pon

#: an event still to be made: given edge -> seat (known once the dealer is), the event
EventFactory = Callable[[Callable[[int], int]], object]


@dataclass
class Slot:
    u: float
    v: float
    votes: Counter
    sideways: bool
    frame: int  # the read that emitted its dahai (a retraction names it)
    said: str  # the tile the dahai named
    present: bool = True
    misses: int = 0  # still reads in a row that did not see it
    upright_reads: int = 0  # reads that saw it lying upright (its first two included)
    sideways_reads: int = 0  # ... lying sideways
    declared: bool = False  # its sideways read made a riichi (taken back if later reads say upright)
    lost_at: int | None = None  # the read that took it back as gone (no call took it): seen again, restored
    called: bool = False  # a call took it
    first_seen: int | None = None  # the read it was first seen on (``frame`` confirmed it)
    looks: Looks = field(default_factory=Looks)  # its reads since confirmed, summed (tracker.copies)
    overruled: str | None = None  # the face it is read as where its votes' face was a fifth copy
    place: tuple[int, int] = (0, 0)  # (row, col) its dahai named
    draw: int | None = None  # the read whose tsumo this discard closed (None: it followed a call or kan)
    # taken back as gone after closing a call or kan: the seat's next discard, and the draw it
    # closed then, which it gave up to close the call instead (``take_back_discard``)
    handed: tuple[Slot, int] | None = None
    handed_call: bool = False  # ... or, none read yet, to the discard its seat still owed

    @property
    def seen_from(self) -> int:
        """The first read it was seen on (its confirming read when that is not known)."""
        return self.first_seen if self.first_seen is not None else self.frame


@dataclass
class MeldTile:
    u: float
    v: float
    code: str
    sideways: bool
    face_up: bool
    group: int  # which meld of its edge
    votes: Counter = field(default_factory=Counter)  # code -> confidence summed over its reads
    reads: Counter = field(default_factory=Counter)  # code -> reads that named it
    sure: Counter = field(default_factory=Counter)  # code -> ... surely (``MeldReader._sure_reads``)
    near: Counter = field(default_factory=Counter)  # (code, runner-up code) -> ... with that runner-up near
    near_votes: Counter = field(default_factory=Counter)  # (code, runner-up code) -> its score summed there
    proven: set = field(default_factory=set)  # kinds its reads made evidence of (``unsure_faces``)
    sideways_reads: int = 0  # reads after the call that saw it lie sideways (angle and box agree)
    upright_reads: int = 0  # ... upright
    angle_turns: int = 0  # reads after the call whose angle said sideways, less those that said upright
    depths: list = field(default_factory=list)  # v mm of each read after the call (how deep it lies)

    def note(
        self, code: str, confidence: float, sure: bool, near: str | None, near_confidence: float = 0.0
    ) -> None:
        """One read naming face ``code`` (not ``?``): its score, whether it was sure, and the
        runner-up face (plain code) that scored near it, if one did, with that face's score."""
        self.votes[code] += confidence
        self.reads[code] += 1
        self.sure[code] += int(sure)
        if near is not None:
            self.near[(tiles.deaka(code), near)] += 1
            self.near_votes[(tiles.deaka(code), near)] += near_confidence


@dataclass
class ClosedKan:
    """An ankan as emitted, to correct when later reads of its face-up tiles name another kind
    than it said (``?``: its faces unread as it was laid): its meld ``group``, the read
    (``frame``) it was emitted at, its ``consumed`` and ``laid`` as the record has them now."""

    edge: int
    group: int
    frame: int
    consumed: list[str]
    laid: ev.MeldPlacement | None


@dataclass
class Call:
    """A call (chi / pon / daiminkan) as emitted, to correct when later reads of its tiles say
    otherwise: its meld ``group``, the read (``frame``) and ``type`` it was emitted at (a
    correction names them), what it says now, where its called tile lies (``pick``) and the
    discard it took (``source`` in ``source_edge``'s river)."""

    edge: int
    group: int
    frame: int
    type: str
    codes: list[str]  # the laid tiles, left to right, as the record has them now
    pick: int
    kind: str  # the call's type as the record has it now (a correction may turn a pon into a chi)
    source_edge: int
    source: Slot
    side: list[int]  # the sideways tile's index as the record has it ([]: none seen)
    # (pai, consumed, type, laid tiles, side, read whole and surely as no set) the record says:
    # corrected on a change (``read_melds._says``)
    said: tuple = ()
    added_to: bool = False  # a tile was added to it (kakan): a pon of that kind, whatever was read

    @property
    def sure_pon(self) -> bool:
        """A pon sure of its kind: one was added to it, or its kind is read twice (``sure_pon``)."""
        return self.kind != "chi" and (self.added_to or sure_pon(self.codes, self.codes[self.pick]))

    def record(self) -> tuple[str, list[str]]:
        """(pai, consumed) as the record declares them from the laid ``codes``: a pon sure of its
        kind declares its own tiles that kind (a wrong one laid is the layout's, 错碰)."""
        pai = self.codes[self.pick]
        consumed = [c for i, c in enumerate(self.codes) if i != self.pick]
        chi_possible = chi_from(self.edge, self.source_edge)
        return pai, declared_own_tiles(self.kind, pai, consumed, self.sure_pon, chi_possible)


@dataclass
class DoraPlace:
    """A place in a wall where a face-up tile was seen: a dora indicator once seen so on
    consecutive reads (a wall tile misread face up once is not one)."""

    edge: int
    u: float
    votes: Counter  # code -> the detector's confidence, summed over the reads
    run: int = 0  # reads in a row that saw it face up (a back seen there ends the run)
    indicator: bool = False  # confirmed: an indicator stays one
    barred: bool = False  # seen face up beside the first indicator before the first discard: no
    # indicator until a back is seen there (a tile the detector keeps reading face up)
    said: str | None = None  # the code the record gave it
    event: str | None = None  # the event that named it: "start_kyoku" or "dora"
    frame: int = -1  # that event's frame (a correction names it)


@dataclass
class Kyoku:
    frame: int
    t: float
    dora: list[str]
    rivers: list[list[Slot]] = field(default_factory=lambda: [[] for _ in range(4)])
    melds: list[list[MeldTile]] = field(default_factory=lambda: [[] for _ in range(4)])
    calls: list[Call] = field(default_factory=list)  # calls read with three or more tiles laid
    ankans: list[ClosedKan] = field(default_factory=list)  # ankans read, to correct their kind
    dora_places: list[DoraPlace] = field(default_factory=list)  # face-up tiles seen in the walls
    started: bool = False  # start_kyoku emitted (needs the dealer: the first discard)
    # per edge, (frame, t, apart) of the first read of the deal that saw its row whole at 13: its
    # count is reported, dated then, once the kyoku starts (the dealer known)
    deal_rows: dict[int, tuple[int, float, bool]] = field(default_factory=dict)
    deal_drew: dict[int, int] = field(default_factory=dict)  # per edge, the first read of its row whole at 14
    round: tuple[int, int, int, int] | None = None  # wind, number, honba, riichi sticks
    kans: int = 0  # kans read this kyoku
    cleared: int = 0  # whole-table reads in a row that show a fresh deal
    doras: int = 0  # new indicators emitted for a kan read (not one let go for a kan never read)
    # (place, frame confirmed) of new indicators whose kan is not read yet
    dora_waiting: list[tuple[DoraPlace, int]] = field(default_factory=list)
    result: str | None = None  # "hora" / "ryukyoku" once seen
    last_kakan: tuple[int, str, int] | None = None  # (edge, tile, frame) of a kakan not yet passed
    ron_on: tuple[int, str] | None = None  # (edge, tile) a ron was won on: another may win it too
    ron_at: int = -1  # the read that ron was read on
    winners: set[int] = field(default_factory=set)
    ended: bool = False  # hora / ryukyoku emitted
    last_discard: tuple[int, int] | None = None  # (edge, slot index) still callable
    last_actor: int | None = None  # edge of the last to act
    after_call: int | None = None  # edge that called and must now discard without a draw
    # per edge: it called or made a kan (its replacement drawn) and has not discarded since. Its
    # next discard closes no draw even when another river's tile was read in between (a tile read
    # late, or a stray box: ``after_call`` is then another's, and a draw inferred for it would make
    # the seat draw twice in the record)
    owes_discard: list[bool] = field(default_factory=lambda: [False] * 4)
    riichi: set[int] = field(default_factory=set)
    stick_clear: list[bool] = field(default_factory=lambda: [False] * 4)  # seen with no stick
    stick_run: list[int] = field(default_factory=lambda: [0] * 4)  # reads in a row with one
    reach_pending: int | None = None  # edge whose riichi discard awaits acceptance
    stick_seen: list[bool] = field(default_factory=lambda: [False] * 4)  # a riichi stick on any read
    stick_riichi_at: list[int | None] = field(default_factory=lambda: [None] * 4)  # riichi read from a stick
    accepted_at: list[int | None] = field(default_factory=lambda: [None] * 4)  # reach_accepted's read
    # (M, 3) u, v, frame: boxes of tiles beside a discard, confirmed with it on one read (no
    # discard while still seen)
    river_ghosts: list[np.ndarray] = field(default_factory=lambda: [np.zeros((0, 3)) for _ in range(4)])
    # river tiles seen on the last read and not yet confirmed: (u, v, votes, sideways, first read)
    cand_river: list[list[tuple[float, float, Counter, bool | None, int]]] = field(
        default_factory=lambda: [[] for _ in range(4)]
    )
    # river tiles seen once and gone before confirmed: (edge, frame, candidate)
    vanished: list = field(default_factory=list)
    # (M, 2) u, v of the new meld tiles seen on the last read, per edge
    cand_meld: list[np.ndarray] = field(default_factory=lambda: [np.zeros((0, 2))] * 4)
    # (M, 4) u, v, frame last and first in view of the new meld tiles seen on the edge's reads and
    # not yet read into a meld, per edge (``MeldReader._hidden_new_tiles``)
    meld_unread: list[np.ndarray] = field(default_factory=lambda: [np.zeros((0, 4))] * 4)
    # (M, 3) u, v, frame first in view of new meld tiles, per edge (reads of moving edges too)
    meld_glimpses: list[np.ndarray] = field(default_factory=lambda: [np.zeros((0, 3))] * 4)
    hand_seen: list[tuple[int, bool] | None] = field(default_factory=lambda: [None] * 4)  # (count, one apart)
    hand_run: list[int] = field(default_factory=lambda: [0] * 4)  # still readings in a row with that count
    hand_since: list[int] = field(default_factory=lambda: [0] * 4)  # frame of the first of them
    hand_said: list[tuple[int, int] | None] = field(default_factory=lambda: [None] * 4)  # (count, record's)
    armed: list[int | None] = field(
        default_factory=lambda: [None] * 4
    )  # hand size when a drawn tile was seen apart this turn
    # looks with the discard in the air: was the drawn tile still apart?
    lift_gap: list[list[bool]] = field(default_factory=lambda: [[] for _ in range(4)])
    lift_base: list[int | None] = field(default_factory=lambda: [None] * 4)  # standing at the first look
    armed_u: list[float] = field(default_factory=lambda: [0.0] * 4)  # u of the row's right end when armed
    armed_at: list[int] = field(default_factory=lambda: [-1] * 4)  # frame of the look that armed it
    # frame of the look, still or moving, that first saw this tile apart (not moved by a count
    # change while armed): how long the hand has held it when it lies open
    apart_since: list[int] = field(default_factory=lambda: [-1] * 4)
    # the standing row's right end measured from the pixels (``vision.hand_rows``), mm, per edge:
    # on a still read with the hand as the record has it before a draw (NaN: not seen), on a
    # still read holding its draw, and on each moving frame since that read (the discard's lift:
    # (end, the row's own right end, the tile apart's right end or NaN) a frame)
    row_plain_end: list[float] = field(default_factory=lambda: [float("nan")] * 4)
    row_hold_end: list[float] = field(default_factory=lambda: [float("nan")] * 4)
    row_trace: list[list[tuple[float, float, float]]] = field(default_factory=lambda: [[] for _ in range(4)])
    drew: list[bool] = field(default_factory=lambda: [False] * 4)  # tsumo emitted since the last discard
    drew_at: list[int] = field(default_factory=lambda: [-1] * 4)  # the read that emitted that tsumo
    pending_count: list[int] = field(default_factory=lambda: [0] * 4)  # hand change by events not yet applied
    # (standing tiles, one set apart) per edge at this read and the one before (None: not trusted)
    hand_now: list = field(default_factory=lambda: [None] * 4)
    hand_prev: list = field(default_factory=lambda: [None] * 4)
    hand_last: list = field(default_factory=lambda: [None] * 4)  # the last read that saw the hand
    # frame of the first read, of those in a row that saw a standing tile count, showing it now
    shape_since: list[int] = field(default_factory=lambda: [0] * 4)
    plain_seen: list[int] = field(default_factory=lambda: [-1] * 4)  # frame: hand as the record has it


def disarm(k: Kyoku, e: int) -> None:
    """The hand's turn is over (discard) or its size changed (kan): forget its lift looks."""
    k.lift_gap[e] = []
    k.lift_base[e] = None
    k.armed[e] = None
    k.row_plain_end[e] = k.row_hold_end[e] = float("nan")
    k.row_trace[e] = []


def take_back_draw(k: Kyoku, e: int, out: list, reason: str) -> None:
    """Edge ``e``'s draw read this turn was none: a ``retract`` of it, and the hand as before."""
    k.drew[e] = False
    k.pending_count[e] -= 1
    out.append(
        lambda seat, f=k.drew_at[e]: ev.Retract(
            target_type="tsumo", target_frame=f, actor=seat(e), reason=reason
        )
    )


def take_back_discard(k: Kyoku, slot: Slot, e: int, out: list, reason: str) -> None:
    """Edge ``e``'s discard at ``slot`` was none: a ``retract`` of its dahai, then one of the draw
    it closed. A draw kept without its discard would leave the seat drawing twice in the record
    when it plays again (its next discard infers a draw). One that closed a call or kan (no draw)
    leaves that call to the seat's next discard, whose draw is taken back instead (a call, then
    a draw, would be a draw twice too), or, none read yet, to the discard the seat still owes.
    (The tracker's hand count needs no change: the draw added the tile the discard took away.)"""
    out.append(
        lambda seat, f=slot.frame: ev.Retract(
            target_type="dahai", target_frame=f, actor=seat(e), reason=reason
        )
    )
    draw = slot.draw
    if draw is None:
        river = k.rivers[e]
        at = next(i for i, s in enumerate(river) if s is slot)
        later = river[at + 1] if at + 1 < len(river) else None
        if later is None:
            k.owes_discard[e] = slot.handed_call = True
        elif later.draw is not None:
            draw, later.draw = later.draw, None
            slot.handed = (later, draw)
    if draw is not None:
        out.append(
            lambda seat, f=draw: ev.Retract(
                target_type="tsumo", target_frame=f, actor=seat(e), reason="its discard was none"
            )
        )


def give_back_discard(k: Kyoku, slot: Slot, e: int, out: list, reason: str) -> None:
    """Edge ``e``'s discard at ``slot``, taken back as gone, was there after all: a ``retract`` of
    that retraction (the record keeps the discard, and the draw taken back with it:
    ``events.apply_retractions``)."""
    at = slot.lost_at
    out.append(lambda seat: ev.Retract(target_type="retract", target_frame=at, actor=seat(e), reason=reason))
    slot.lost_at = None
    if slot.handed is not None:  # the next discard closes its own draw again
        later, draw = slot.handed
        later.draw, slot.handed = draw, None
    if slot.handed_call:  # it closes its call again
        k.owes_discard[e] = slot.handed_call = False


def in_turn(k: Kyoku, e: int) -> bool:
    """Is the play edge ``e``'s: it drew, it called or made a kan and has not discarded, or it is
    next to draw (its draw may be unseen)?"""
    return k.drew[e] or k.after_call == e or k.owes_discard[e] or next_to_draw(k, e)


def next_to_draw(k: Kyoku, e: int) -> bool:
    """Is it edge ``e``'s turn to draw: the last play was its kamicha's discard (no call since)?"""
    return k.last_actor is not None and k.after_call is None and e == (k.last_actor + 1) % 4


def at_frame(event, frame: int, t: float):
    return event.model_copy(update={"frame": frame, "t": round(t, 3)})
