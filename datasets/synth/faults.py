"""Faults files (DESIGN.md): each item stages one irregularity that a correct monitor reports.

``stage_faults(events, faults, rules)`` returns the (possibly edited) events and a ``Staged`` plan
for the renderer. A fault that names a kind, kyoku, seat, turn or call that does not exist, or
that cannot be shown at that point of the game, fails with one line saying which and why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from datasets.scene import table_layout as tl
from datasets.synth.render import Staged, StagedAlert
from tracker import tiles
from tracker.table import layout
from tracker.table.layout import TableRules
from tracker.table.state import TableState

Seat = int


class _Fault(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kyoku: int = Field(ge=0)
    seat: Seat = Field(ge=0, le=3)


class EarlyDraw(_Fault):
    kind: Literal["early_draw"]
    turn: int = Field(ge=0)


class MeldOrientation(_Fault):
    kind: Literal["meld_orientation"]
    call: int = Field(ge=0)
    place: Literal["left", "middle", "right", "none"]


class HandCount(_Fault):
    kind: Literal["hand_count"]
    delta: Literal[-1, 1]
    turn: int = Field(ge=0)


class RiverRow(_Fault):
    kind: Literal["river_row"]
    turn: int = Field(ge=0)


class RiichiUpright(_Fault):
    kind: Literal["riichi_upright"]


class Kuikae(_Fault):
    kind: Literal["kuikae"]
    call: int = Field(ge=0)


class InvalidMeld(_Fault):
    kind: Literal["invalid_meld"]
    call: int = Field(ge=0)


class SlowDiscard(_Fault):
    kind: Literal["slow_discard"]
    turn: int = Field(ge=0)
    seconds: float = Field(gt=0, le=600)


Fault = Annotated[
    EarlyDraw | MeldOrientation | HandCount | RiverRow | RiichiUpright | Kuikae | InvalidMeld | SlowDiscard,
    Field(discriminator="kind"),
]
KINDS = (
    "early_draw",
    "meld_orientation",
    "hand_count",
    "river_row",
    "riichi_upright",
    "kuikae",
    "invalid_meld",
    "slow_discard",
)
_ADAPTER = TypeAdapter(list[Fault])


class FaultError(ValueError):
    pass


def parse_faults(data: object, source: str = "faults") -> list:
    if not isinstance(data, list):
        raise FaultError(f"{source}: a faults file is a JSON list")
    for i, item in enumerate(data):
        kind = item.get("kind") if isinstance(item, dict) else None
        if kind not in KINDS:
            raise FaultError(f"{source}: item {i}: unknown fault kind {kind!r} (known: {', '.join(KINDS)})")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"] if not isinstance(p, str) or p not in KINDS)
        raise FaultError(f"{source}: item {where}: {first['msg']}") from None


def load_faults(path: str | Path) -> list:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FaultError(f"{path}: no such faults file") from None
    except json.JSONDecodeError as err:
        raise FaultError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from None
    return parse_faults(data, str(path))


class _KyokuIndex:
    """Event indices of one kyoku: each seat's discards, draws and calls in order."""

    def __init__(self, events: list, start: int, end: int):
        self.start, self.end = start, end
        self.discards: dict[int, list[int]] = {s: [] for s in range(4)}
        self.calls: dict[int, list[int]] = {s: [] for s in range(4)}
        self.reach: dict[int, int] = {}
        for i in range(start, end):
            e = events[i]
            if e.type == "dahai":
                self.discards[e.actor].append(i)
            elif e.type in ("chi", "pon", "daiminkan", "kakan", "ankan"):
                self.calls[e.actor].append(i)
            elif e.type == "reach":
                self.reach[e.actor] = i


def _kyoku_spans(events: list) -> list[tuple[int, int]]:
    starts = [i for i, e in enumerate(events) if e.type == "start_kyoku"]
    ends = starts[1:] + [len(events)]
    return list(zip(starts, ends))


def stage_faults(events: list, faults: list, rules: TableRules = layout.MLEAGUE) -> tuple[list, Staged]:
    events = list(events)
    staged = Staged()
    spans = _kyoku_spans(events)
    for n, fault in enumerate(faults):
        where = f"fault {n} ({fault.kind}, kyoku {fault.kyoku}, seat {fault.seat})"
        if fault.kyoku >= len(spans):
            raise FaultError(f"{where}: the log has {len(spans)} kyoku")
        index = _KyokuIndex(events, *spans[fault.kyoku])
        staging = staged.staging_by_kyoku.setdefault(fault.kyoku, tl.Staging())
        handler = globals()[f"_stage_{fault.kind}"]
        handler(events, fault, index, staging, staged, where, rules)
    return events, staged


def _turn(index: _KyokuIndex, fault, where: str) -> int:
    turns = index.discards[fault.seat]
    if fault.turn >= len(turns):
        raise FaultError(
            f"{where}: seat {fault.seat} discards {len(turns)} times in that kyoku, no turn {fault.turn}"
        )
    return turns[fault.turn]


def _call(index: _KyokuIndex, fault, where: str) -> int:
    calls = index.calls[fault.seat]
    if fault.call >= len(calls):
        raise FaultError(
            f"{where}: seat {fault.seat} calls {len(calls)} times in that kyoku, no call {fault.call}"
        )
    return calls[fault.call]


def _state_before(events: list, stop: int, rules: TableRules) -> TableState:
    state = TableState(rules)
    for e in events[:stop]:
        state.update(e)
    return state


def _stage_early_draw(events, fault, index, staging, staged, where, rules) -> None:
    discard = _turn(index, fault, where)
    draw = next(
        (
            i
            for i in range(discard - 1, index.start, -1)
            if events[i].type == "tsumo" and events[i].actor == fault.seat
        ),
        None,
    )
    previous = draw - 1 if draw is not None else None
    while previous is not None and events[previous].type in ("reach_accepted", "dora"):
        previous -= 1
    if previous is None or events[previous].type != "dahai" or events[previous].actor != (fault.seat + 3) % 4:
        raise FaultError(
            f"{where}: turn {fault.turn} does not follow kamicha's discard (a call or the deal comes first)"
        )
    staged.timing.early_draw.add(draw)
    staged.alerts.append(StagedAlert("early_draw", fault.seat, draw, previous))


def _stage_meld_orientation(events, fault, index, staging, staged, where, rules) -> None:
    i = _call(index, fault, where)
    e = events[i]
    if e.type not in ("chi", "pon", "daiminkan"):
        raise FaultError(f"{where}: call {fault.call} is a {e.type}, which has no called tile to turn")
    order, correct = layout.open_meld_order(
        e.type, e.pai, list(e.consumed), layout.relative(e.actor, e.target)
    )
    n = len(order)
    wanted = {"left": 0, "middle": 1, "right": n - 1, "none": None}[fault.place]
    if wanted == correct:
        raise FaultError(
            f"{where}: place {fault.place!r} is where the rules put the called tile: not a fault"
        )
    tiles_lr = [t for k, t in enumerate(order) if k != correct]
    tiles_lr.insert(wanted if wanted is not None else correct, e.pai)
    meld_index = _meld_index(events, index, fault.seat, i)
    staging.melds[(fault.seat, meld_index)] = (tiles_lr, [] if wanted is None else [wanted])
    staged.alerts.append(StagedAlert("meld_orientation", fault.seat, i))


def _meld_index(events: list, index: _KyokuIndex, seat: int, call_index: int) -> int:
    return sum(1 for i in index.calls[seat] if i < call_index and events[i].type != "kakan")


def _stage_hand_count(events, fault, index, staging, staged, where, rules) -> None:
    i = _turn(index, fault, where)
    staging.hand_delta_from[fault.seat] = (i, fault.delta)
    code = "tile_count_excess" if fault.delta > 0 else "tile_count_short"
    staged.alerts.append(StagedAlert(code, fault.seat, i))


def _stage_river_row(events, fault, index, staging, staged, where, rules) -> None:
    i = _turn(index, fault, where)
    state = _state_before(events, i, rules)
    present = len(state.seats[fault.seat].river_present)
    row, col = layout.river_position(present)
    if col != 0 or row == 0:
        raise FaultError(
            f"{where}: turn {fault.turn} does not start a new river row (it lands at row {row}, column {col})"
        )
    # this discard goes on as a 7th tile; every later one of the kyoku sits one place earlier
    river_index = len(state.seats[fault.seat].river)
    staging.river[(fault.seat, river_index)] = (row - 1, 6, False)
    position = present  # the slot this discard should have started
    later = [j for j in index.discards[fault.seat] if j > i]
    for k, j in enumerate(later, start=1):
        staging.river[(fault.seat, river_index + k)] = (*layout.river_position(position), None)
        if not _called_away(events, j):
            position += 1
    staged.alerts.append(StagedAlert("river_layout", fault.seat, i))


def _called_away(events: list, discard: int) -> bool:
    for e in events[discard + 1 :]:
        if e.type in ("dora", "reach_accepted"):
            continue
        return e.type in ("chi", "pon", "daiminkan") and e.target == events[discard].actor
    return False


def _stage_riichi_upright(events, fault, index, staging, staged, where, rules) -> None:
    if fault.seat not in index.reach:
        raise FaultError(f"{where}: seat {fault.seat} does not declare riichi in that kyoku")
    r = index.reach[fault.seat]
    discard = next(j for j in index.discards[fault.seat] if j > r)
    state = _state_before(events, discard, rules)
    river_index = len(state.seats[fault.seat].river)
    row, col = layout.river_position(len(state.seats[fault.seat].river_present))
    staging.river[(fault.seat, river_index)] = (row, col, False)
    staged.alerts.append(StagedAlert("riichi_not_sideways", fault.seat, discard))


def _stage_kuikae(events, fault, index, staging, staged, where, rules) -> None:
    i = _call(index, fault, where)
    e = events[i]
    if e.type not in ("chi", "pon"):
        raise FaultError(f"{where}: call {fault.call} is a {e.type}; 食替 needs a chi or pon")
    discard = next((j for j in index.discards[fault.seat] if j > i), None)
    if discard is None or any(
        events[k].type == "tsumo" and events[k].actor == fault.seat for k in range(i, discard)
    ):
        raise FaultError(f"{where}: no discard right after call {fault.call}")
    state = _state_before(events, i + 1, rules)
    hand = state.seats[fault.seat].hand
    swaps = _swap_tiles(e)
    pick = next((t for t in hand if tiles.deaka(t) in swaps), None)
    if pick is None:
        raise FaultError(
            f"{where}: seat {fault.seat} holds no swap-call tile ({', '.join(sorted(swaps))}) after "
            f"call {fault.call}"
        )
    original = events[discard].pai
    events[discard] = events[discard].model_copy(update={"pai": pick, "tsumogiri": False})
    _swap_later(events, discard + 1, index.end, fault.seat, pick, original)
    check = TableState(rules)
    try:
        for ev in events[: index.end]:
            check.update(ev)
    except ValueError as err:
        raise FaultError(f"{where}: cannot stage: {err}") from None
    staged.alerts.append(StagedAlert("kuikae", fault.seat, discard))


def _swap_tiles(call) -> set[str]:
    """Kinds a 食替 discard may be: the called kind, and for a chi the other end of the run."""
    kind = tiles.deaka(call.pai)
    out = {kind}
    if call.type == "chi":
        nums = sorted(tiles.number(t) for t in [call.pai] + list(call.consumed))
        called = tiles.number(call.pai)
        s = tiles.suit(call.pai)
        if called == nums[0] and nums[2] + 1 <= 9:
            out.add(f"{nums[2] + 1}{s}")
        if called == nums[2] and nums[0] - 1 >= 1:
            out.add(f"{nums[0] - 1}{s}")
    return out


def _swap_later(events: list, start: int, end: int, seat: int, kept: str, released: str) -> None:
    """After swapping which tile left the hand, later uses of ``kept`` by the seat become ``released``."""
    for j in range(start, end):
        e = events[j]
        if getattr(e, "actor", None) != seat:
            continue
        if e.type == "dahai" and e.pai == kept:
            events[j] = e.model_copy(update={"pai": released, "tsumogiri": False})
            return
        if e.type in ("chi", "pon", "daiminkan", "ankan", "kakan") and kept in e.consumed:
            consumed = list(e.consumed)
            consumed[consumed.index(kept)] = released
            events[j] = e.model_copy(update={"consumed": consumed})
            return


def _stage_invalid_meld(events, fault, index, staging, staged, where, rules) -> None:
    i = _call(index, fault, where)
    e = events[i]
    if e.type not in ("chi", "pon", "daiminkan"):
        raise FaultError(
            f"{where}: call {fault.call} is a {e.type}; stage invalid_meld on a chi, pon or daiminkan"
        )
    state = _state_before(events, i, rules)
    hand = [t for t in state.seats[fault.seat].hand if t not in e.consumed]
    wrong = next(
        (t for t in hand if tiles.deaka(t) not in {tiles.deaka(c) for c in e.consumed + [e.pai]}), None
    )
    if wrong is None:
        raise FaultError(f"{where}: seat {fault.seat} has no other tile to lay by mistake")
    order, sideways = layout.open_meld_order(
        e.type, e.pai, list(e.consumed), layout.relative(e.actor, e.target)
    )
    k = next(n for n in range(len(order)) if n != sideways)
    order[k] = wrong
    staging.melds[(fault.seat, _meld_index(events, index, fault.seat, i))] = (order, [sideways])
    staged.alerts.append(StagedAlert("invalid_meld", fault.seat, i))


def _stage_slow_discard(events, fault, index, staging, staged, where, rules) -> None:
    i = _turn(index, fault, where)
    staged.timing.slow_discard[i] = fault.seconds
    staged.alerts.append(StagedAlert("time_limit", fault.seat, i))
