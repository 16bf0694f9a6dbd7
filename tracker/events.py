"""Game events: every mjai event as a pydantic model, in the dialect Mortal's libriichi reads.

Every event may carry ``t`` (seconds into the video) and ``frame``. Keys this module does not
know are kept (``extra="allow"``) so a log passes through unchanged. A few extension keys are
named here because the rest of the project uses them: on ``start_game`` the tenhou.net/6 header,
on ``hora`` the liable seat (``pao``) and the scorer's text (``score_text``, ``yaku_text``;
riichienv reads ``yaku`` as id pairs), on
``ryukyoku`` the kind of draw (``reason``), and the hands laid open (``hand``; from a camera,
``hand_unsure`` on ``hora`` and ``hands_unsure`` on ``ryukyoku``: the indexes of tiles read
unsurely).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from tracker import tiles

Tile = Annotated[str, AfterValidator(tiles.check)]
Seat = Annotated[int, Field(ge=0, le=3)]
Scores = list[int]


class _Event(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    t: float | None = None
    frame: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The mjai dict: ``type`` first, unset optional keys left out."""
        data = self.model_dump(exclude_none=True)
        return {"type": data.pop("type"), **data}


class RiverPlacement(BaseModel):
    """Where a discard was seen to land: river row/column and whether it lies sideways."""

    model_config = ConfigDict(frozen=True)

    row: Annotated[int, Field(ge=0)]
    col: Annotated[int, Field(ge=0)]
    sideways: bool


class MeldPlacement(BaseModel):
    """How a meld was seen laid out: tiles left to right as its owner sees them, which lie
    sideways (a kakan's added tile counts at its base tile's index) and which face down.
    ``unsure``: the face-up tiles whose face is no evidence of a tile laid wrong yet (a code
    inferred, or read mostly near another face; ``tracker.read_melds.unsure_faces``; left out:
    none, or not said)."""

    model_config = ConfigDict(frozen=True)

    tiles: list[Tile]
    sideways: list[int] = []
    face_down: list[int] = []
    unsure: list[int] | None = None


class StartGame(_Event):
    type: Literal["start_game"] = "start_game"
    names: list[str] | None = None
    kyoku_first: int | None = None
    aka_flag: bool | None = None
    tenhou: dict[str, Any] | None = None  # tenhou.net/6 header keys other than log/name


class StartKyoku(_Event):
    type: Literal["start_kyoku"] = "start_kyoku"
    bakaze: Literal["E", "S", "W", "N"]
    dora_marker: Tile
    kyoku: Annotated[int, Field(ge=1, le=4)]
    honba: Annotated[int, Field(ge=0)]
    kyotaku: Annotated[int, Field(ge=0)]
    oya: Seat
    scores: Scores
    tehais: list[list[Tile]]


class Tsumo(_Event):
    type: Literal["tsumo"] = "tsumo"
    actor: Seat
    pai: Tile


class Dahai(_Event):
    type: Literal["dahai"] = "dahai"
    actor: Seat
    pai: Tile
    tsumogiri: bool
    slot: RiverPlacement | None = None  # vision: where it landed


class Chi(_Event):
    type: Literal["chi"] = "chi"
    actor: Seat
    target: Seat
    pai: Tile
    consumed: Annotated[list[Tile], Field(min_length=2, max_length=2)]
    laid: MeldPlacement | None = None  # vision: the layout seen on the table


class Pon(_Event):
    type: Literal["pon"] = "pon"
    actor: Seat
    target: Seat
    pai: Tile
    consumed: Annotated[list[Tile], Field(min_length=2, max_length=2)]
    laid: MeldPlacement | None = None  # vision: the layout seen on the table


class Daiminkan(_Event):
    type: Literal["daiminkan"] = "daiminkan"
    actor: Seat
    target: Seat
    pai: Tile
    consumed: Annotated[list[Tile], Field(min_length=3, max_length=3)]
    laid: MeldPlacement | None = None  # vision: the layout seen on the table


class Kakan(_Event):
    type: Literal["kakan"] = "kakan"
    actor: Seat
    pai: Tile
    consumed: Annotated[list[Tile], Field(min_length=3, max_length=3)]
    laid: MeldPlacement | None = None  # vision: the layout seen on the table


class Ankan(_Event):
    type: Literal["ankan"] = "ankan"
    actor: Seat
    consumed: Annotated[list[Tile], Field(min_length=4, max_length=4)]
    laid: MeldPlacement | None = None  # vision: the layout seen on the table


class Dora(_Event):
    type: Literal["dora"] = "dora"
    dora_marker: Tile


class Reach(_Event):
    type: Literal["reach"] = "reach"
    actor: Seat
    # vision: a riichi read from its stick, after its declaration discard: was that tile seen
    # lying upright? True: on several reads and never sideways; False: seen sideways; None: unsure
    declaration_upright: bool | None = None


class ReachAccepted(_Event):
    type: Literal["reach_accepted"] = "reach_accepted"
    actor: Seat
    deltas: Scores | None = None
    scores: Scores | None = None


class Hora(_Event):
    type: Literal["hora"] = "hora"
    actor: Seat
    target: Seat
    pai: Tile | None = None
    deltas: Scores | None = None
    ura_markers: list[Tile] | None = None
    pao: Seat | None = None
    score_text: str | None = None
    yaku_text: list[str] | None = None
    hand: list[Tile] | None = None
    # vision: indexes into ``hand`` of tiles read unsurely (a camera's misreading is likeliest there)
    hand_unsure: list[int] | None = None


class Ryukyoku(_Event):
    type: Literal["ryukyoku"] = "ryukyoku"
    deltas: Scores | None = None
    reason: str | None = None
    hands: list[list[Tile] | None] | None = None
    # vision: per seat, indexes into its ``hands`` entry of tiles read unsurely
    hands_unsure: list[list[int] | None] | None = None


class EndKyoku(_Event):
    type: Literal["end_kyoku"] = "end_kyoku"


class EndGame(_Event):
    type: Literal["end_game"] = "end_game"
    scores: Scores | None = None


class Flower(_Event):
    """MCR: ``actor`` lays a bonus tile (flower/season) aside; a replacement ``tsumo`` follows."""

    type: Literal["flower"] = "flower"
    actor: Seat
    pai: Tile


class WallTake(_Event):
    """Vision: a tile was seen leaving the wall toward ``actor`` (the physical draw moment)."""

    type: Literal["wall_take"] = "wall_take"
    actor: Seat
    dead_wall: bool = False


class HandCount(_Event):
    """Vision: ``count`` standing tiles seen in ``actor``'s hand at a still, unoccluded moment."""

    type: Literal["hand_count"] = "hand_count"
    actor: Seat
    count: Annotated[int, Field(ge=0, le=18)]


class TileExposed(_Event):
    """Vision: a concealed tile of ``actor`` seen face up outside a legal reveal."""

    type: Literal["tile_exposed"] = "tile_exposed"
    actor: Seat
    pai: Tile


class Retract(_Event):
    """Vision: an earlier event was a wrong guess. ``target_type`` / ``target_frame`` / ``actor``
    name it; without ``pai``, ``consumed``, ``as_type`` or ``laid`` it did not happen at all, with
    ``pai`` its tile was this one instead. A call (chi / pon / daiminkan) read again on later looks
    is corrected whole: its tile, its own tiles (``consumed``), its type when they make the other
    call (``as_type``: a pon read from one tile that was a chi; None: as first emitted) and how its
    tiles lie (``laid``); ``target_type`` stays the type it was first emitted as, and each
    correction replaces the one before. An ankan read again is corrected the same way (its
    ``consumed`` and ``laid``). ``target_type="retract"`` takes back a discard's
    retraction as gone (the tile seen again where it lay): the retraction of a dahai made on that
    read by that seat, and the retraction of its draw made with it. ``fifth_copy``: the kind a
    discard was read as that put a fifth copy of it on the table, corrected to ``pai``
    (``tracker.copies``): the camera misread a tile in this kyoku. ``slot``: a discard's place
    corrected (its riichi declaration tile, read upright as it landed, lying sideways when the
    riichi was read from its stick); a discard's corrections of its tile and of its place are kept
    together. The record is never rewritten in place: readers apply retractions
    (``apply_retractions``)."""

    type: Literal["retract"] = "retract"
    target_type: str
    target_frame: int
    actor: Seat | None = None
    pai: Tile | None = None
    consumed: list[Tile] | None = None
    as_type: Literal["chi", "pon"] | None = None
    laid: MeldPlacement | None = None
    fifth_copy: Tile | None = None
    slot: RiverPlacement | None = None
    reason: str | None = None

    @property
    def names(self) -> tuple:
        """The ``event_key`` of the event it takes back or corrects."""
        return (self.target_type, self.target_frame, self.actor)

    @property
    def corrects(self) -> bool:
        """A correction (the event happened, with these tiles or this layout), not a taking back."""
        return any(x is not None for x in (self.pai, self.consumed, self.as_type, self.laid, self.slot))

    @property
    def corrects_faces(self) -> bool:
        """It takes the event back or corrects a tile of it (not only how its tiles lie)."""
        return not self.corrects or any(x is not None for x in (self.pai, self.consumed, self.as_type))


EVENT_CLASSES = (
    StartGame,
    StartKyoku,
    Tsumo,
    Dahai,
    Chi,
    Pon,
    Daiminkan,
    Kakan,
    Ankan,
    Dora,
    Reach,
    ReachAccepted,
    Hora,
    Ryukyoku,
    EndKyoku,
    EndGame,
    Flower,
    WallTake,
    HandCount,
    TileExposed,
    Retract,
)
#: observations only a camera makes; mjai readers do not know them (``write_mjai(vision=False)``)
VISION_TYPES = frozenset({"wall_take", "hand_count", "tile_exposed", "retract"})
GameEvent = Annotated[Union[EVENT_CLASSES], Field(discriminator="type")]

CALLS = (Chi, Pon, Daiminkan)
KANS = (Daiminkan, Kakan, Ankan)

_ADAPTER: TypeAdapter[Any] = TypeAdapter(GameEvent)
EVENT_TYPES = frozenset(cls.model_fields["type"].default for cls in EVENT_CLASSES)


def parse_event(data: dict[str, Any]) -> Any:
    """Validate one mjai dict into its event model; ``ValueError`` in one line on bad input."""
    if not isinstance(data, dict):
        raise ValueError(f"an event must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind not in EVENT_TYPES:
        raise ValueError(f"unknown event type {kind!r}")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "event"
        raise ValueError(f"{kind}: {where}: {first['msg']}") from None


def apply_retractions(events: list) -> list:
    """The record with every ``retract`` applied: retracted events dropped, corrections applied
    (``pai``; a start_kyoku's or dora's ``dora_marker``; a call's ``consumed``, type and ``laid``;
    the latest correction of an event replaces the earlier ones), the ``retract`` events
    themselves left out. A retraction names the latest event before it of that type, frame and actor (a kan's
    replacement draw shares its frame with the draw before the kan). A retraction of a
    retraction (``target_type="retract"``: a discard taken back as gone, seen again) cancels it."""
    drop, fix = _retractions_applied(events)
    return [corrected(e, fix.get(j)) for j, e in enumerate(events) if e.type != "retract" and j not in drop]


def taken_back(events: list) -> dict[int, int]:
    """Index of each event of ``events`` a retraction takes back (not one it corrects) -> the
    index of that retraction."""
    return _retractions_applied(events)[0]


def discards_taken_back(events: list) -> set[int]:
    """Indices of the discards of ``events`` a retraction takes back as never made, and of the
    draws taken back with them (``its_draw_taken_back``)."""
    gone = taken_back(events)
    return {
        i
        for i, r in gone.items()
        if events[i].type == "dahai"
        or (events[i].type == "tsumo" and its_draw_taken_back(events[r], events[r - 1]))
    }


def _retractions_applied(events: list) -> tuple[dict[int, int], dict[int, Retract]]:
    """(index taken back -> index of its retraction, index corrected -> its latest correction)."""
    cancelled = _cancelled_retractions(events)
    drop: dict[int, int] = {}
    fix: dict[int, Retract] = {}
    for i, e in enumerate(events):
        if e.type != "retract" or e.target_type == "retract" or i in cancelled:
            continue
        for j in range(i - 1, -1, -1):
            if j in drop or event_key(events[j]) != e.names:
                continue
            if not e.corrects:
                drop[j] = i
            else:
                # (a later correction of the same event replaces an earlier one; a discard's
                # tile and place are corrected apart, so each keeps the other's)
                fix[j] = joined(fix.get(j), e)
            break
    return drop, fix


def event_key(event) -> tuple:
    """(type, frame, actor): how a ``retract`` names an event."""
    return (event.type, event.frame, getattr(event, "actor", None))


def named_event(fix: Retract, history: list):
    """The latest event of ``history`` that ``fix`` names, or None."""
    return next((e for e in reversed(history) if event_key(e) == fix.names), None)


def as_corrected(event, history: list):
    """``event`` with the latest correction of it in ``history`` applied."""
    fix = None
    for e in history:
        if e.type == "retract" and e.corrects and e.names == event_key(event):
            fix = joined(fix, e)
    return corrected(event, fix)


def joined(before: Retract | None, fix: Retract) -> Retract:
    """The correction of an event that ``fix`` leaves after ``before``: ``fix`` itself, except that
    a discard's correction of its tile alone keeps the place ``before`` corrected, and one of its
    place alone keeps the tile."""
    if before is None or fix.target_type != "dahai":
        return fix
    update = {}
    if fix.slot is None and before.slot is not None:
        update["slot"] = before.slot
    if fix.pai is None and before.pai is not None:
        update.update(pai=before.pai, fifth_copy=before.fifth_copy)
    return fix.model_copy(update=update) if update else fix


def corrected(event, fix: Retract | None):
    """``event`` with a correcting retraction's tile, tiles and call type applied."""
    if fix is None:
        return event
    if hasattr(event, "dora_marker"):  # start_kyoku / dora: the indicator reread
        return event.model_copy(update={"dora_marker": fix.pai}) if fix.pai else event
    update: dict[str, Any] = {}
    if fix.pai is not None and hasattr(event, "pai"):
        update["pai"] = fix.pai
    if fix.consumed is not None and hasattr(event, "consumed"):
        update["consumed"] = list(fix.consumed)
    if fix.laid is not None and hasattr(event, "laid"):
        update["laid"] = fix.laid
    if fix.slot is not None and getattr(event, "type", None) == "dahai":
        update["slot"] = fix.slot
    if fix.as_type is not None and fix.as_type != event.type and isinstance(event, Chi | Pon):
        data = {**event.model_dump(exclude={"type"}), **update}
        return (Chi if fix.as_type == "chi" else Pon).model_validate(data)
    return event.model_copy(update=update)


def _cancelled_retractions(events: list) -> set[int]:
    """Indices of the retractions a later ``retract`` of ``target_type="retract"`` takes back: a
    discard's retraction as gone, and the retraction of its draw that follows it at once
    (``tracker.kyoku.take_back_discard``)."""
    out: set[int] = set()
    for i, e in enumerate(events):
        if e.type != "retract" or e.target_type != "retract":
            continue
        key = (e.target_frame, e.actor)
        for j in range(i - 1, -1, -1):
            x = events[j]
            # (only a discard's retraction as gone is ever taken back; a riichi retracted on the
            # same read by the same seat is not the one named)
            gone = x.type == "retract" and x.target_type == "dahai" and not x.corrects
            if gone and j not in out and (x.frame, x.actor) == key:
                out.add(j)
                after = events[j + 1] if j + 1 < len(events) else None
                if its_draw_taken_back(after, x):
                    out.add(j + 1)
                break
    return out


def its_draw_taken_back(event, gone) -> bool:
    """Is ``event`` the retraction of the draw taken back with the discard the retraction ``gone``
    takes back as never made: the one it closed, or, when it closed a call, the one the seat's
    next discard closed (``tracker.kyoku.take_back_discard`` emits it right after, on that read)?"""
    return (
        event is not None
        and gone.type == "retract"
        and gone.target_type == "dahai"
        and not gone.corrects
        and event.type == "retract"
        and event.target_type == "tsumo"
        and not event.corrects
        and (event.frame, event.actor) == (gone.frame, gone.actor)
    )
