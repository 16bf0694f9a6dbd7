"""The tracker: decoded frames in, game events out (``tracker.analysis.FrameAnalyzer``).

Per frame only the activity meter runs (a small frame difference). When the table settles after
motion, the detector reads the felt once, the tiles are placed into zones (``tracker.zones``) and
the reading is compared with what the tracker already holds, per table edge:

- a new tile in a river is a discard (code, slot, sideways; a first sideways discard is a riichi);
- new tiles in a meld zone are a call taking the last discard (chi / pon / daiminkan), four with
  backs an ankan, one laid beside a sideways meld tile a kakan;
- a new face-up tile in a wall is a dora indicator; hands laid face up end the kyoku (hora /
  ryukyoku with the hands read into ``hand``); fresh walls with empty rivers start one;
- standing tiles are counted (``hand_count``) when two still readings agree.

Seats: edge 0..3 is image bottom, right, top, left. The first dealer (seat 0) is the edge that
discards first, unless the calibration names it. Events wait until that is known.
Tiles associate by position (river slot, meld place); tiles barely move, so no motion model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel, ConfigDict

from rules_check.checker import RulesChecker
from tracker import events as ev
from tracker import tiles
from tracker.analysis import FrameResult
from tracker.melds import first_sighting, ready_melds, seen_before
from tracker.table.state import StateError, TableState
from tracker.temporal import StillnessGate
from tracker.zones import HAND, MELD, RIVER, WALL, TableView, ZoneBands, assign, to_table
from vision.activity import ActivityMeter
from vision.calibration import EDGES, Calibration
from vision.detections import TileDetections
from vision.sticks import StickFinder, StickReadings

TILE_W, TILE_H = 26.0, 35.0  # mm, for slot spacing
_CODES = np.asarray(tiles.MODEL_CLASSES, dtype=object)


class TrackerConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    rules: str = "mleague"
    motion_threshold: float = 0.002  # share of a region's pixels changed to count as motion
    settle_frames: int = 2
    idle_every: int = 90
    match_mm: float = 15.0  # a tile within this of a known tile is the same tile
    # fresh deal: 42 wall stacks (seen from above: 42 backs) and 52 standing tiles; a weak detector
    # sees a share of them, so the sum of both counts
    min_fresh_tiles: int = 12
    min_first_walls: int = 4
    fresh_river_noise: int = 2  # stray river detections tolerated on a fresh deal
    open_hand_min: int = 2  # face-up tiles in a hand zone: the hand is laid open (4 melds leave 2)
    crop: bool = True  # run the detector on the felt's bounding box only
    confirm_frames: int = 1  # a new river / meld tile must be seen again this many still frames later
    hand_agree: int = 3  # still readings in a row that must agree on a hand's count
    hand_contra_frames: int = 30  # a count off the record's must hold this long (and be one off)
    hand_contra_confidence: float = 0.6  # ... with every standing tile read at least this sure
    tile_px_scale: float = 1.0  # detector scale: calibrated face width times this
    meld_min_confidence: float = 0.4  # below this a meld tile's code is left unknown
    retract_after: int = 4  # still reads that contradict a discard before it is retracted
    lift_stride: int = 1  # read a moving hand that holds a drawn tile every this many frames
    draw_stride: int = 3  # read the moving hand of the seat about to draw every this many frames
    lift_votes: int = 2  # the first looks mid-discard: all must see the drawn tile gone (tsumogiri)
    cleared_reads: int = 3  # a fresh deal seen this many reads in a row ends a kyoku with no result
    vanished_frames: int = 60  # a river tile seen once and gone may be a call's this long after
    dora_wait_frames: int = 90  # a new indicator waits at most this long for its kan to be read
    place_mm: float = 8.0  # a standing tile this near a remembered place stands there
    stick_reads: int = 2  # still reads in a row that must see a new riichi stick
    bands: ZoneBands = ZoneBands()


class Detector:
    """What the tracker needs of a detector (``vision.detector.TileDetector`` fits)."""

    def detect(self, image: np.ndarray, tile_px: float) -> TileDetections: ...


@dataclass
class _Slot:
    u: float
    v: float
    votes: Counter
    sideways: bool
    frame: int  # the read that emitted its dahai (a retraction names it)
    said: str  # the tile the dahai named
    present: bool = True
    misses: int = 0  # still reads in a row that did not see it


@dataclass
class _MeldTile:
    u: float
    v: float
    code: str
    sideways: bool
    face_up: bool
    group: int  # which meld of its edge


@dataclass
class _Kyoku:
    frame: int
    t: float
    dora: list[str]
    rivers: list[list[_Slot]] = field(default_factory=lambda: [[] for _ in range(4)])
    melds: list[list[_MeldTile]] = field(default_factory=lambda: [[] for _ in range(4)])
    dora_u: list[tuple[int, float]] = field(default_factory=list)  # (edge, u) of face-up wall tiles
    started: bool = False  # start_kyoku emitted (needs the dealer: the first discard)
    round: tuple[int, int, int, int] | None = None  # wind, number, honba, riichi sticks
    kans: int = 0  # kans read this kyoku
    cleared: int = 0  # whole-table reads in a row that show a fresh deal
    doras: int = 0  # new indicators emitted (one per kan at most)
    dora_waiting: list[tuple[str, int]] = field(default_factory=list)  # (code, frame): its kan not read yet
    result: str | None = None  # "hora" / "ryukyoku" once seen
    last_kakan: tuple[int, str, int] | None = None  # (edge, tile, frame) of a kakan not yet passed
    ron_on: tuple[int, str] | None = None  # (edge, tile) a ron was won on: another may win it too
    winners: set[int] = field(default_factory=set)
    ended: bool = False  # hora / ryukyoku emitted
    last_discard: tuple[int, int] | None = None  # (edge, slot index) still callable
    last_actor: int | None = None  # edge of the last to act
    after_call: int | None = None  # edge that called and must now discard without a draw
    riichi: set[int] = field(default_factory=set)
    stick_clear: list[bool] = field(default_factory=lambda: [False] * 4)  # seen with no stick
    stick_run: list[int] = field(default_factory=lambda: [0] * 4)  # reads in a row with one
    reach_pending: int | None = None  # edge whose riichi discard awaits acceptance
    cand_river: list[list[tuple[float, float, Counter, bool]]] = field(
        default_factory=lambda: [[] for _ in range(4)]
    )
    # river tiles seen once and gone before confirmed: (edge, frame, candidate)
    vanished: list = field(default_factory=list)
    # (M, 2) u, v of the new meld tiles seen on the last read, per edge
    cand_meld: list[np.ndarray] = field(default_factory=lambda: [np.zeros((0, 2))] * 4)
    # (M, 3) u, v, frame first in view of new meld tiles, per edge (reads of moving edges too)
    meld_glimpses: list[np.ndarray] = field(default_factory=lambda: [np.zeros((0, 3))] * 4)
    hand_seen: list[int | None] = field(default_factory=lambda: [None] * 4)
    hand_run: list[int] = field(default_factory=lambda: [0] * 4)  # still readings in a row with that count
    hand_since: list[int] = field(default_factory=lambda: [0] * 4)  # frame of the first of them
    hand_said: list[int | None] = field(default_factory=lambda: [None] * 4)
    armed: list[int | None] = field(
        default_factory=lambda: [None] * 4
    )  # hand size when a drawn tile was seen apart this turn
    # looks with the discard in the air: was the drawn tile still apart?
    lift_gap: list[list[bool]] = field(default_factory=lambda: [[] for _ in range(4)])
    lift_base: list[int | None] = field(default_factory=lambda: [None] * 4)  # standing at the first look
    armed_u: list[float] = field(default_factory=lambda: [0.0] * 4)  # u of the row's right end when armed
    drew: list[bool] = field(default_factory=lambda: [False] * 4)  # tsumo emitted since the last discard
    pending_count: list[int] = field(default_factory=lambda: [0] * 4)  # hand change by events not yet applied
    # (standing tiles, one set apart) per edge at this read and the one before (None: not trusted)
    hand_now: list = field(default_factory=lambda: [None] * 4)
    hand_prev: list = field(default_factory=lambda: [None] * 4)
    plain_seen: list[int] = field(default_factory=lambda: [-1] * 4)  # frame: hand as the record has it


EventFactory = Callable[[Callable[[int], int]], object]


class TableTracker:
    """``process(image, frame, t) -> FrameResult``; ``finish()`` at the end of the video."""

    def __init__(self, calibration: Calibration, detector: Detector, config: TrackerConfig | None = None):
        from rules_check.ruleset import ruleset_by_name
        from tracker.table.layout import RULES_BY_NAME

        self.cal = calibration
        self.detector = detector
        self.cfg = config or TrackerConfig()
        self.activity = ActivityMeter(calibration)
        self.gate = StillnessGate(self.cfg.motion_threshold, self.cfg.settle_frames, self.cfg.idle_every)
        self.tile_px = calibration.tile_px() * self.cfg.tile_px_scale
        self.seat0_edge: int | None = (
            EDGES.index(calibration.seat0_edge) if calibration.seat0_edge is not None else None
        )
        self.state = TableState(RULES_BY_NAME[self.cfg.rules])
        self.checker = RulesChecker(ruleset_by_name(self.cfg.rules))
        self.kyoku: _Kyoku | None = None
        self.kyoku_count = 0
        self.last_round: tuple | None = None  # the previous kyoku's round and how it ended
        self.game_started = False
        self.waiting: list[tuple[EventFactory, int, float]] = []  # until the dealer is known
        self.emitted: list = []
        self.state_errors: list[str] = []
        self.reads = 0
        self.hand_looks = 0  # detector runs on one hand's strip while an arm moves (tsumogiri)
        self.last_frame, self.last_t = -1, 0.0
        self._crop = self._felt_box(calibration) if self.cfg.crop else None
        self._hand_boxes = [self._band_box(calibration, e, self.cfg.bands.hand) for e in range(4)]
        self.sticks = StickFinder(calibration)
        self._sticks_now = StickReadings.none()  # the riichi sticks of the current read

    # --- the frame loop ---------------------------------------------------------------------

    def process(self, image: np.ndarray, frame: int, t: float) -> FrameResult:
        self.last_frame, self.last_t = frame, t
        activity = self.activity.update(image)
        if not self.gate.update(activity):
            self._watch_lift(image, frame, activity)
            return FrameResult(frame=frame, t=t)
        self.gate.consume_moved()
        self.reads += 1
        view = assign(self._detect(image), self.cal, self.cfg.bands)
        self._sticks_now = self.sticks.find(image)
        factories = self._observe(view, frame, t, self.gate.trusted)
        return self._emit(factories, frame, t)

    def _watch_lift(self, image: np.ndarray, frame: int, activity: np.ndarray) -> None:
        """While an arm moves over a hand that holds a drawn tile (or the hand of the seat whose
        draw comes next: a quick player draws and discards with no still moment between), read
        that hand now and then: the moment one tile is gone tells tsumogiri (the set-apart tile
        left) from tedashi (it stayed)."""
        k = self.kyoku
        if k is None:
            return
        drawing = (k.last_actor + 1) % 4 if k.last_actor is not None and k.after_call is None else None
        for e in range(4):
            if activity[e] <= self.cfg.motion_threshold or len(k.lift_gap[e]) >= self.cfg.lift_votes:
                continue  # still, or its discard already judged (only the first looks count)
            # armed: every frame (the tile is in the air for a few); the next to draw: now and then,
            # to see its drawn tile arrive
            stride = self.cfg.lift_stride if k.armed[e] is not None else self.cfg.draw_stride
            if (k.armed[e] is None and e != drawing) or frame % stride:
                continue
            found = self._detect(image, self._hand_boxes[e])
            self.hand_looks += 1
            if not len(found):
                continue
            hand = assign(found, self.cal, self.cfg.bands).where(e, HAND)
            standing = standing_row(hand)
            # the first look of this motion (the arm still reaching) is a second baseline: the same
            # crop and scale each time, so a detector's misses (and the arm's cover) stay alike
            if k.lift_base[e] is None:
                k.lift_base[e] = len(standing)
            self._look_at_hand(k, e, standing.u)

    def _look_at_hand(self, k: _Kyoku, e: int, u: np.ndarray) -> bool:
        """One look at a hand's standing tiles (``u`` mm, still or mid-motion). Returns whether a
        drawn tile sits apart at the right. Arms the hand when it does (remembering where the
        row's right end stood); once armed, a look with one tile fewer is the discard in the air:
        a tile still set apart means the tile left from the row (tedashi); an unbroken row still
        ending where it ended means the drawn tile left (tsumogiri). Anything else (a hole, the
        row's end missing: tiles the detector or an arm hid) is no evidence either way."""
        n = len(u)
        apart = n >= 2 and drawn_apart(u)
        armed = k.armed[e]
        # an empty row (an arm over all of it) is no look at all
        one_gone = (
            n > 0
            and armed is not None
            and (n == armed - 1 or (k.lift_base[e] is not None and n == k.lift_base[e] - 1))
        )
        if one_gone:
            if apart:
                k.lift_gap[e].append(True)
            elif not row_holes(u, False) and abs(float(u.max()) - k.armed_u[e]) < self.cfg.place_mm:
                k.lift_gap[e].append(False)
        elif apart and (armed is None or n >= armed):
            k.armed[e] = n
            k.armed_u[e] = float(np.sort(u)[-2])
        return apart

    def finish(self) -> FrameResult:
        frame, t = self.last_frame, self.last_t
        out: list[EventFactory] = []
        k = self.kyoku
        if k is not None and k.started:
            out.append(lambda seat: ev.EndKyoku())
        if self.game_started:
            out.append(lambda seat: ev.EndGame())
        self.kyoku = None
        if self.seat0_edge is None and self.waiting:
            self.seat0_edge = 0  # never saw a discard: keep the image bottom as seat 0
        return self._emit(out, frame, t)

    def _detect(self, image: np.ndarray, box: tuple[int, int, int, int] | None = None) -> TileDetections:
        """Detections in ``box`` (x0, y0, x1, y1; default the felt's box, or all the image without
        cropping) in full-image pixels. The one place pixels are read (a test double overrides it)."""
        box = box or self._crop
        if box is None:
            return self.detector.detect(image, self.tile_px)
        x0, y0, x1, y1 = box
        found = self.detector.detect(np.ascontiguousarray(image[y0:y1, x0:x1]), self.tile_px)
        if len(found):
            found = TileDetections(
                found.boxes + np.array([x0, y0, x0, y0], np.float32),
                found.class_ids,
                found.angles,
                found.face_up,
                found.confidence,
            )
        return found

    @staticmethod
    def _band_box(
        cal: Calibration, edge: int, band: tuple[float, float, float, float]
    ) -> tuple[int, int, int, int]:
        """Image bounding box of one edge's zone band, a tile's margin around it."""
        u0, u1, v0, v1 = band
        local = np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]]) + np.array(
            [[-20, -20], [20, -20], [20, 20], [-20, 20]]
        )
        xy = np.array([to_table(edge, u, v) for u, v in local])
        px = cal.table_to_image(xy)
        x0, y0 = np.floor(px.min(axis=0)).astype(int)
        x1, y1 = np.ceil(px.max(axis=0)).astype(int)
        return max(0, x0), max(0, y0), min(cal.width, x1), min(cal.height, y1)

    @staticmethod
    def _felt_box(cal: Calibration) -> tuple[int, int, int, int]:
        half = cal.felt_half_mm + 40
        px = cal.table_to_image(np.array([[-half, -half], [half, -half], [half, half], [-half, half]]))
        x0, y0 = np.floor(px.min(axis=0)).astype(int)
        x1, y1 = np.ceil(px.max(axis=0)).astype(int)
        return max(0, x0), max(0, y0), min(cal.width, x1), min(cal.height, y1)

    # --- emitting ---------------------------------------------------------------------------

    def _seat(self, edge: int) -> int:
        return (edge - self.seat0_edge) % 4

    def _emit(self, factories: list[EventFactory], frame: int, t: float) -> FrameResult:
        self.waiting.extend((f, frame, t) for f in factories)
        if self.seat0_edge is None or not self.waiting:
            return FrameResult(frame=frame, t=t)
        out, alerts = [], []
        for factory, f_frame, f_t in self.waiting:
            event = factory(self._seat)
            if event is None:
                continue
            if event.frame is None:
                event = event.model_copy(update={"frame": f_frame, "t": round(f_t, 3)})
            try:
                self.state.update(event)
            except StateError as err:
                self.state_errors.append(f"frame {f_frame} {event.type}: {err}")
            try:
                alerts.extend(self.checker.feed(event))
            except Exception as err:  # a checker bug must not cost the record: note it, keep watching
                self.state_errors.append(f"frame {f_frame} {event.type}: rules checker failed: {err!r}")
            out.append(event)
        self.waiting = []
        if self.kyoku is not None:
            self.kyoku.pending_count = [0] * 4  # the state now holds every event
        self.emitted.extend(out)
        return FrameResult(frame=frame, t=t, events=out, alerts=alerts, state=self.state.to_json())

    # --- reading the table ------------------------------------------------------------------

    def _code(self, class_id: int) -> str:
        return game_code(class_id, self.cfg.rules == "mcr")

    def _observe(
        self, view: TableView, frame: int, t: float, trusted: np.ndarray | None = None
    ) -> list[EventFactory]:
        """One read. ``trusted`` (4,) bool: the edges still long enough to count (default all);
        zones of the others are skipped, not read as empty."""
        self._frame = frame
        self._trusted = np.ones(4, bool) if trusted is None else np.asarray(trusted, bool)
        walls = view.select(view.zone == WALL)
        backs = int(walls.back.sum())
        river_tiles = int((view.zone == RIVER).sum())
        k = self.kyoku
        out: list[EventFactory] = []
        if k is not None and not k.ended and self._trusted.all():
            # a new deal with no result seen (a draw where nobody showed a hand): rivers empty on
            # several whole-table reads in a row (one read missing the rivers is the detector's)
            k.cleared = k.cleared + 1 if self._cleared(k, backs, view, river_tiles) else 0
            if k.cleared >= self.cfg.cleared_reads:
                k.ended = True
        if k is not None and k.ended and k.ron_on is not None:
            self._read_more_rons(view, k, out)
        if k is None or k.ended:
            if not self._trusted.all():
                return out  # a fresh deal or a cleared table is judged on the whole table
            standing = int(view.select(view.zone == HAND).standing.sum())
            # the first kyoku of a video: any wall in view with empty rivers will do (a detector
            # weak on this camera may see few tiles); later ones need a full-looking fresh deal
            enough = self.cfg.min_fresh_tiles if self.kyoku_count else self.cfg.min_first_walls
            if backs + standing >= enough and river_tiles <= self.cfg.fresh_river_noise:
                self.kyoku_count += 1
                if k is not None and k.started:
                    out.append(lambda seat: ev.EndKyoku())
                    self._close_round(k)
                self.kyoku = _Kyoku(frame=frame, t=t, dora=[])
                self._read_dora(view, self.kyoku, initial=True)
            elif k is not None and k.ended and k.started and backs < 10:
                out.append(lambda seat: ev.EndKyoku())
                self._close_round(k)
                self.kyoku = None
            return out
        k.hand_prev, k.hand_now = k.hand_now, self._hand_shapes(view)
        self._note_plain_hands(k)
        self._glimpse_melds(view, k)
        # melds before rivers: a caller's own discard, seen on the read that confirms its call,
        # comes after the call in the record
        self._read_melds(view, k, out)
        self._read_rivers(view, k, out)
        self._read_sticks(k, out)
        self._read_dora(view, k, out=out)  # after the melds: a kan read now comes first
        self._read_hands(view, k, out)
        return out

    def _cleared(self, k: _Kyoku, backs: int, view: TableView, river_tiles: int) -> bool:
        """Fresh walls and empty rivers where this kyoku had discards: it is over."""
        if not k.started:
            return False
        discards = sum(s.present for river in k.rivers for s in river)
        standing = int(view.select(view.zone == HAND).standing.sum())
        return (
            discards >= 4
            and river_tiles <= self.cfg.fresh_river_noise
            and backs + standing >= self.cfg.min_fresh_tiles
        )

    def _hand_shapes(self, view: TableView) -> list[tuple[int, bool] | None]:
        """Per edge (None where not trusted): standing tiles seen and whether one sits apart."""
        out: list[tuple[int, bool] | None] = [None] * 4
        for e in np.nonzero(self._trusted)[0].tolist():
            hand = view.where(e, HAND)
            u = standing_row(hand).u
            out[e] = (len(u), len(u) >= 2 and drawn_apart(u))
        return out

    def _note_plain_hands(self, k: _Kyoku) -> None:
        """Remember when each hand was last seen just as the record has it (no tile apart)."""
        if self.seat0_edge is None or not k.started:
            return
        for e, shape in enumerate(k.hand_now):
            if shape is None:
                continue
            expected = self.state.seats[self._seat(e)].hand_count + k.pending_count[e]
            if shape == (expected, False):
                k.plain_seen[e] = self._frame

    def _early_draw(self, k: _Kyoku, e: int) -> int | None:
        """The edge after ``e`` if, as ``e``'s discard is read, that seat already holds a drawn tile
        set apart (one over its record, on this read and the one before): its arm took from the
        wall while the discard was still in the air (先摸). A normal draw starts only after the
        discarder's arm has gone back, well after the discard is read. The hand must also have
        been seen as the record has it during this turn (after the discard before): a detector's
        stray tile beside a hand is there before as well."""
        n = (e + 1) % 4
        if self.seat0_edge is None or k.drew[n] or k.after_call == n:
            return None
        before = k.rivers[k.last_discard[0]][k.last_discard[1]].frame if k.last_discard else -1
        if k.plain_seen[n] <= before:
            return None
        expected = self.state.seats[self._seat(n)].hand_count + k.pending_count[n]
        if expected % 3 != 1:
            return None  # not waiting for a draw
        shapes = (k.hand_now[n], k.hand_prev[n])
        if all(sh is not None and sh == (expected + 1, True) for sh in shapes):
            return n
        return None

    def _read_dora(self, view: TableView, k: _Kyoku, initial: bool = False, out: list | None = None) -> None:
        up = view.select((view.zone == WALL) & view.face_up & self._trusted[np.clip(view.edge, 0, 3)])
        for e, u, cid in zip(up.edge.tolist(), up.u.tolist(), up.class_ids.tolist()):
            if any(ke == e and abs(ku - u) < self.cfg.match_mm for ke, ku in k.dora_u):
                continue
            code = self._code(cid)
            k.dora_u.append((e, u))
            k.dora.append(code)
            if not initial and out is not None and k.started:
                k.dora_waiting.append((code, self._frame))
        if out is not None:
            self._flush_dora(k, out)

    def _flush_dora(self, k: _Kyoku, out: list) -> None:
        """A new indicator follows a kan: one turned before the kan is read (the kan maker's arm
        still over its meld) waits for it, so the record keeps kan, then dora; not forever (a kan
        the camera missed must not cost the indicator)."""
        while k.dora_waiting and (
            k.kans > k.doras or self._frame - k.dora_waiting[0][1] > self.cfg.dora_wait_frames
        ):
            code, _ = k.dora_waiting.pop(0)
            k.doras += 1
            out.append(lambda seat, c=code: ev.Dora(dora_marker=c))

    def _read_rivers(self, view: TableView, k: _Kyoku, out: list) -> None:
        for e in np.nonzero(self._trusted)[0].tolist():
            obs = view.where(e, RIVER)
            obs = obs.select(obs.face_up)  # discards lie face up: a back or standing tile here is noise
            river = k.rivers[e]
            present = [i for i, s in enumerate(river) if s.present]
            fresh = np.ones(len(obs), bool)
            if present and len(obs):
                su = np.array([river[i].u for i in present])
                sv = np.array([river[i].v for i in present])
                d = np.hypot(obs.u[:, None] - su[None], obs.v[:, None] - sv[None])
                near = d.min(axis=1) < self.cfg.match_mm
                fresh = ~near
                for j in np.nonzero(near)[0]:
                    # votes weigh by the detector's confidence: low-confidence codes are often wrong
                    river[present[int(d[j].argmin())]].votes[self._code(int(obs.class_ids[j]))] += float(
                        obs.confidence[j]
                    )
                seen = {present[int(i)] for i in d.argmin(axis=1)[near]}
            else:
                seen = set()
            self._review(k, e, [i for i in present if i not in seen], [i for i in present if i in seen], out)
            new = obs.select(fresh)
            confirmed, waiting = [], []
            for j in range(len(new)):
                u, v = float(new.u[j]), float(new.v[j])
                code = self._code(int(new.class_ids[j]))
                hit = next(
                    (
                        c
                        for c in k.cand_river[e]
                        if abs(c[0] - u) < self.cfg.match_mm and abs(c[1] - v) < self.cfg.match_mm
                    ),
                    None,
                )
                weight = float(new.confidence[j])
                if hit is None:
                    waiting.append((u, v, Counter({code: weight}), bool(new.sideways[j])))
                else:
                    hit[2][code] += weight
                    confirmed.append((j, hit[2]))
            # a tile seen once that left before it could be confirmed: a discard called at once
            hits = {id(c) for j, c in confirmed}
            gone = [c for c in k.cand_river[e] if id(c[2]) not in hits]
            k.vanished = [x for x in k.vanished if self._frame - x[1] <= self.cfg.vanished_frames]
            k.vanished += [(e, self._frame, c) for c in gone]
            k.cand_river[e] = waiting
            if waiting:
                self.gate.confirm(self.cfg.confirm_frames)
            if not confirmed:
                continue
            picked = new.select(np.array([j for j, _ in confirmed]))
            order = np.lexsort(
                (picked.u, -np.round(picked.v / TILE_H))
            )  # rows from the player, then left to right
            for j in order.tolist():
                u, v, sideways = float(picked.u[j]), float(picked.v[j]), bool(picked.sideways[j])
                self._discard(k, e, u, v, sideways, out, confirmed[j][1])

    def _review(self, k: _Kyoku, e: int, missed: list[int], seen: list[int], out: list) -> None:
        """Retract what later reads contradict: a discard whose tile left the river with no call
        taking it, or whose tile reads differently on most later looks."""
        river = k.rivers[e]
        for i in seen:
            slot = river[i]
            slot.misses = 0
            best = _pick_code(slot.votes)
            if (
                best != slot.said
                and slot.votes[best] >= self.cfg.retract_after * 0.5
                and slot.votes[best] > 2 * slot.votes[slot.said]
            ):
                out.append(
                    lambda seat, s=slot, c=best: ev.Retract(
                        target_type="dahai", target_frame=s.frame, actor=seat(e), pai=c, reason="tile reread"
                    )
                )
                slot.said = best
        for i in missed:
            slot = river[i]
            slot.misses += 1
            # the last discard may be on its way into a meld: give the call time to be read
            patience = self.cfg.retract_after * (3 if k.last_discard == (e, i) else 1)
            if slot.misses >= patience:
                slot.present = False
                out.append(
                    lambda seat, s=slot: ev.Retract(
                        target_type="dahai",
                        target_frame=s.frame,
                        actor=seat(e),
                        reason="no such tile in the river",
                    )
                )

    def _discard(
        self, k: _Kyoku, e: int, u: float, v: float, sideways: bool, out: list, votes: Counter
    ) -> None:
        code = _pick_code(votes)
        river = k.rivers[e]
        first = next((s for s in river), None)
        v0 = first.v if first is not None else v
        row = max(0, int(round((v0 - v) / TILE_H)))
        same_row = [s for s in river if s.present and max(0, int(round((v0 - s.v) / TILE_H))) == row]
        col = sum(1 for s in same_row if s.u < u)
        river.append(_Slot(u, v, votes, sideways, self._frame, code))
        if not k.started:
            if self.seat0_edge is None:
                self.seat0_edge = e  # the first discard names the first dealer
            if not self.game_started:  # mjai readers expect the game to open first
                self.game_started = True
                out.append(lambda seat, f=k.frame, t=k.t: _at(ev.StartGame(), f, t))
            out.append(self._start_factory(k, e))
            k.started = True
        if k.reach_pending is not None and k.reach_pending != e:
            out.append(lambda seat, a=k.reach_pending: ev.ReachAccepted(actor=seat(a)))
            k.reach_pending = None
        riichi = sideways and e not in k.riichi
        if k.after_call != e and not k.drew[e]:
            out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
            k.pending_count[e] += 1
        early = self._early_draw(k, e)
        if early is not None:
            out.append(lambda seat, n=early: ev.WallTake(actor=seat(n)))
        k.after_call = None
        k.last_kakan = None
        k.drew[e] = False
        k.pending_count[e] -= 1
        if riichi:
            k.riichi.add(e)
            k.reach_pending = e
            out.append(lambda seat: ev.Reach(actor=seat(e)))
        slot = ev.RiverPlacement(row=row, col=col, sideways=sideways)
        # tsumogiri: while the tile was in the air the hand showed no tile set apart any more.
        # Only the first looks after the lift count: once the tile has landed, a tedashi hand
        # takes its drawn tile in and looks like a tsumogiri one
        first = k.lift_gap[e][: self.cfg.lift_votes]
        tsumogiri = len(first) == self.cfg.lift_votes and not any(first)
        _disarm(k, e)
        out.append(
            lambda seat, c=code, s=slot, g=tsumogiri: ev.Dahai(actor=seat(e), pai=c, tsumogiri=g, slot=s)
        )
        k.last_discard = (e, len(river) - 1)
        k.last_actor = e
        if early is not None:  # the draw itself follows the discard in the record
            out.append(lambda seat, n=early: ev.Tsumo(actor=seat(n), pai="?"))
            k.drew[early] = True
            k.pending_count[early] += 1

    def _start_factory(self, k: _Kyoku, dealer_edge: int) -> EventFactory:
        dora = k.dora[0] if k.dora else "?"
        k.round = self._next_round(dealer_edge)
        wind, number, honba, sticks = k.round

        def make(seat: Callable[[int], int]) -> ev.StartKyoku:
            return ev.StartKyoku(
                bakaze=("E", "S", "W", "N")[wind % 4],
                dora_marker=dora,
                kyoku=number,
                honba=honba,
                kyotaku=sticks,
                oya=seat(dealer_edge),
                scores=[25000] * 4,  # not on camera: the point sticks are not read
                tehais=[["?"] * 13 for _ in range(4)],
            )

        return lambda seat: _at(make(seat), k.frame, k.t)

    def _next_round(self, dealer_edge: int) -> tuple[int, int, int, int]:
        """(wind, kyoku number, honba, riichi sticks on the table) of the kyoku whose dealer sits
        at ``dealer_edge``, from what the camera saw of the kyoku before: the dealer kept (連荘)
        or a draw adds a honba; the deal passing from the last seat back to seat 0 starts the next
        wind; riichi sticks stay on the table after a draw. The video's first kyoku cannot be
        known from the table (no round marker is read): it is taken as East 1, no honba."""
        prev = self.last_round
        number = self._seat(dealer_edge) + 1
        if prev is None:
            return 0, number, 0, 0
        wind, prev_number, honba, sticks, drawn, riichi = prev
        wind += number < prev_number  # the deal went round past seat 3
        honba = honba + 1 if (number == prev_number or drawn) else 0
        sticks = sticks + riichi if drawn else 0
        return wind, number, honba, sticks

    def _close_round(self, k: _Kyoku) -> None:
        """Remember how the kyoku went, for the next one's start_kyoku."""
        if k.round is not None:
            wind, number, honba, sticks = k.round
            self.last_round = (wind, number, honba, sticks, k.result != "hora", len(k.riichi))

    def _glimpse_melds(self, view: TableView, k: _Kyoku) -> None:
        """Remember when each new meld tile was first in view, on any read (an arm moving there
        too): only to order things that become certain on the same read."""
        for e in range(4):
            obs = view.where(e, MELD)
            if not len(obs):
                continue
            uv = np.stack([obs.u, obs.v], axis=1).astype(np.float64)
            if k.melds[e]:
                known = np.array([(m.u, m.v) for m in k.melds[e]])
                uv = uv[~seen_before(uv[:, 0], uv[:, 1], known, self.cfg.match_mm)]
            glimpses = k.meld_glimpses[e]
            if len(glimpses):
                gone = ~seen_before(glimpses[:, 0], glimpses[:, 1], uv, self.cfg.match_mm)
                glimpses = glimpses[~gone]  # became a known meld tile, or was a glimpse of noise
                uv = uv[~seen_before(uv[:, 0], uv[:, 1], glimpses[:, :2], self.cfg.match_mm)]
            fresh = np.column_stack([uv, np.full(len(uv), float(self._frame))])
            k.meld_glimpses[e] = np.concatenate([glimpses.reshape(-1, 3), fresh])

    def _read_melds(self, view: TableView, k: _Kyoku, out: list) -> bool:
        """New meld tiles: a call on the last discard, an ankan or a kakan. True if a call was read.
        A new tile counts once seen at the same place on the read before (``tracker.melds``)."""
        called = False
        for e in np.nonzero(self._trusted)[0].tolist():
            obs = view.where(e, MELD)
            known = k.melds[e]
            fresh = np.ones(len(obs), bool)
            if known and len(obs):
                ku = np.array([m.u for m in known])
                kv = np.array([m.v for m in known])
                d = np.hypot(obs.u[:, None] - ku[None], obs.v[:, None] - kv[None])
                fresh = d.min(axis=1) >= self.cfg.match_mm
            new = obs.select(fresh)
            certain = seen_before(new.u, new.v, k.cand_meld[e], self.cfg.match_mm)
            k.cand_meld[e] = np.stack([new.u, new.v], axis=1).astype(np.float64)
            if not certain.all():
                self.gate.confirm(self.cfg.confirm_frames)
            if not certain.any():
                continue
            # a tile beside (toward the centre of) a sideways meld tile is a kakan's added tile
            side_u = np.array([m.u for m in known if m.sideways]) if known else np.zeros(0)
            added = (
                (np.abs(new.u[:, None] - side_u[None]) < self.cfg.match_mm).any(axis=1)
                if len(side_u)
                else np.zeros(len(new), bool)
            )
            kakans = np.nonzero(added & certain)[0]
            # several added at once (two kakans between clean reads): in the order first glimpsed
            first = first_sighting(new.u[kakans], new.v[kakans], k.meld_glimpses[e], self.cfg.match_mm)
            for j in kakans[np.argsort(first, kind="stable")]:
                self._kakan(k, e, new.select(np.array([j])), out)
            order = np.nonzero(~added)[0]
            order = order[np.argsort(-new.u[order])]  # right to left: the oldest meld first
            rest = new.select(order)
            codes = [self._code(int(c)) for c in rest.class_ids.tolist()]
            for group in ready_melds(codes, rest.back.tolist(), certain[order].tolist()):
                if len(group) == 2 and not self._last_discard_gone(k, e):
                    continue  # two tiles: a call only as the last discard leaves its river
                called |= self._meld(k, e, rest.select(np.array(group)), out)
        return called

    def _read_sticks(self, k: _Kyoku, out: list) -> None:
        """A riichi stick newly put down where no sideways tile announced a riichi: the seat
        declared with its tile upright. The stick lies there once the riichi is accepted, so
        both follow its discard (the rules checker judges that discard). A stick must be seen
        on ``stick_reads`` reads in a row, at a seat seen without one earlier in the kyoku."""
        present = self._sticks_now.present
        for e in np.nonzero(self._trusted)[0].tolist():
            if not present[e]:
                k.stick_clear[e] = True
                k.stick_run[e] = 0
                continue
            k.stick_run[e] += 1
            if (
                k.stick_run[e] < self.cfg.stick_reads
                or not k.stick_clear[e]
                or e in k.riichi
                or not k.started
                or not k.rivers[e]
            ):
                continue
            k.riichi.add(e)
            out.append(lambda seat, e=e: ev.Reach(actor=seat(e)))
            out.append(lambda seat, e=e: ev.ReachAccepted(actor=seat(e)))

    def _discard_called_at_once(self, k: _Kyoku, e: int, out: list) -> None:
        """A call whose tile was seen in another river once and gone before it was confirmed
        (the caller's arm was over that river at once): that tile was the discard it called."""
        last = k.rivers[k.last_discard[0]][k.last_discard[1]].frame if k.last_discard else -1
        gone = [x for x in k.vanished if x[0] != e and x[1] > last]
        if not gone:
            return
        src, _, (u, v, votes, sideways) = gone[-1]
        k.vanished.remove(gone[-1])
        self._discard(k, src, u, v, sideways, out, votes)

    @staticmethod
    def _last_discard_gone(k: _Kyoku, e: int) -> bool:
        if k.last_discard is None or k.last_discard[0] == e:
            return False
        return k.rivers[k.last_discard[0]][k.last_discard[1]].misses >= 1

    @staticmethod
    def _own_draw(k: _Kyoku, e: int, out: list) -> None:
        """A kan from the hand is made after a draw: the draw the camera did not see goes first."""
        if not k.drew[e] and k.after_call != e:
            out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
            k.pending_count[e] += 1

    def _kakan(self, k: _Kyoku, e: int, new: TableView, out: list) -> None:
        u = float(new.u[0])
        base = [m for m in k.melds[e] if m.sideways and abs(m.u - u) < self.cfg.match_mm]
        if not base or not k.started:
            return
        code = self._code(int(new.class_ids[0]))
        group = base[0].group
        pon = [m.code for m in k.melds[e] if m.group == group]
        k.melds[e].append(_MeldTile(u, float(new.v[0]), code, True, True, group))
        consumed = (pon + ["?"] * 3)[:3]
        self._own_draw(k, e, out)
        out.append(lambda seat: ev.Kakan(actor=seat(e), pai=code, consumed=consumed))
        k.last_kakan = (e, code, self._frame)  # robbable (chankan) until play passes on
        _disarm(k, e)
        k.kans += 1
        out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
        k.after_call = e
        k.last_actor = e

    def _meld(self, k: _Kyoku, e: int, new: TableView, out: list) -> bool:
        if not k.started:
            return False
        k.last_kakan = None
        if len(new) == 4 and new.face_up.all() and not _one_kind([self._code(int(c)) for c in new.class_ids]):
            # four face-up tiles of more than one kind are no kan: a call plus a stray detection
            new = new.select(np.argsort(-new.confidence)[:3])
        order = np.argsort(new.u)  # left to right as the owner sees them
        lr = new.select(order)
        # a meld is read once or twice: a code the detector is unsure of stays unknown
        codes = [
            self._code(int(c)) if p >= self.cfg.meld_min_confidence else "?"
            for c, p in zip(lr.class_ids.tolist(), lr.confidence.tolist())
        ]
        side = np.nonzero(lr.sideways)[0].tolist()
        down = np.nonzero(~lr.face_up)[0].tolist()
        group = 1 + max((m.group for m in k.melds[e]), default=-1)
        for j in range(len(lr)):
            k.melds[e].append(
                _MeldTile(
                    float(lr.u[j]), float(lr.v[j]), codes[j], bool(lr.sideways[j]), bool(lr.face_up[j]), group
                )
            )
        laid_codes = [c if c != "?" else "?" for c in codes]
        if len(lr) == 4 and down:
            visible = [c for c in codes if c != "?"]
            kind = visible[0] if visible else "?"
            consumed = [kind if c == "?" else c for c in codes]
            laid = ev.MeldPlacement(tiles=laid_codes, sideways=side, face_down=down)
            self._own_draw(k, e, out)
            out.append(lambda seat: ev.Ankan(actor=seat(e), consumed=consumed, laid=laid))
            _disarm(k, e)
            k.kans += 1
            out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
            k.pending_count[e] -= 3
            k.after_call = e
            k.last_actor = e
            return False
        self._discard_called_at_once(k, e, out)
        if k.last_discard is None:
            return False
        src_edge, src_index = k.last_discard
        if src_edge == e:
            return False
        slot = k.rivers[src_edge][src_index]
        slot.present = False
        called = _pick_code(slot.votes)
        laid_known = len(lr) >= 3
        if not laid_known:  # two seen: the called tile is the river's
            pai, consumed = called, list(codes)
            codes = [called, *codes]
        else:
            pick = side[0] if side else _position_of(codes, called)
            pai = codes[pick] if codes[pick] != "?" else called
            consumed = [c for i, c in enumerate(codes) if i != pick]
        kinds = {tiles.deaka(c) for c in codes if c != "?"}
        # a set laid wrong (错碰: a pon holding another tile) is still the pon of its called tile:
        # its kakan must find it; the rules checker judges the tiles laid
        called_twice = pai != "?" and sum(tiles.deaka(c) == tiles.deaka(pai) for c in codes) >= 2
        if len(codes) == 4:
            kind_cls = ev.Daiminkan
        elif len(kinds) <= 1 or called_twice:
            kind_cls = ev.Pon
        else:
            kind_cls = ev.Chi
        laid = ev.MeldPlacement(tiles=laid_codes, sideways=side, face_down=down) if laid_known else None
        if k.reach_pending is not None and k.reach_pending != e:
            out.append(lambda seat, a=k.reach_pending: ev.ReachAccepted(actor=seat(a)))
            k.reach_pending = None
        out.append(
            lambda seat: kind_cls(actor=seat(e), target=seat(src_edge), pai=pai, consumed=consumed, laid=laid)
        )
        k.pending_count[e] -= len(consumed)
        if kind_cls is ev.Daiminkan:
            k.kans += 1
            out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
            k.pending_count[e] += 1
        k.after_call = e
        k.last_discard = None
        k.last_actor = e
        return True

    def _count_hand(self, k: _Kyoku, e: int, standing: TableView, apart: bool, out: list) -> None:
        """Standing-tile counts for ``hand_count``, at genuinely stable moments only: the whole
        table still (no arm anywhere: a draw from another side of the wall is an arm too), a row
        without holes (a hole is a tile the detector missed), the same count on ``hand_agree``
        such reads (one, for a row just as the record has it). A count the record contradicts
        needs more: one off only (大相公 / 小相公), every tile read with confidence, and the same
        count over ``hand_contra_frames``."""
        count = len(standing)
        if not self._trusted.all():
            return  # not a stable moment: neither evidence for nor against
        if row_holes(standing.u, apart) or count < 2:
            k.hand_run[e], k.hand_seen[e] = 0, None
            return
        if k.hand_seen[e] == count:
            k.hand_run[e] += 1
        else:
            k.hand_run[e], k.hand_seen[e], k.hand_since[e] = 1, count, self._frame
        expected = self.state.seats[self._seat(e)].hand_count + k.pending_count[e]
        # a row as the record has it (no drawn tile apart: no draw to read from it) cannot raise
        # an alert: one still read reports it; a draw seen or a count off the record needs
        # ``hand_agree`` of them
        if k.hand_run[e] < (1 if count == expected and not apart else self.cfg.hand_agree):
            return
        if count == expected + 1 and apart and not k.drew[e] and k.after_call != e and expected % 3 == 1:
            # a tile came into the hand from the wall and sits apart at the right: the draw,
            # seen as it happens (a count one up alone is too often the detector's noise)
            k.drew[e] = True
            k.pending_count[e] += 1
            expected += 1
            out.append(lambda seat, e=e: ev.WallTake(actor=seat(e)))
            out.append(lambda seat, e=e: ev.Tsumo(actor=seat(e), pai="?"))
        if count != expected:
            sure = (
                abs(count - expected) == 1
                and float(standing.confidence.min()) >= self.cfg.hand_contra_confidence
                and self._frame - k.hand_since[e] >= self.cfg.hand_contra_frames
            )
            if not sure:
                return
        if k.hand_said[e] != count:
            k.hand_said[e] = count
            out.append(lambda seat, e=e, n=count: ev.HandCount(actor=seat(e), count=min(n, 18)))

    def _read_hands(self, view: TableView, k: _Kyoku, out: list) -> None:
        opened = {}
        for e in np.nonzero(self._trusted)[0].tolist():
            hand = view.where(e, HAND)
            up = hand.select(hand.face_up)
            if len(up) >= self.cfg.open_hand_min:
                opened[e] = [self._code(int(c)) for c in up.select(np.argsort(up.u)).class_ids.tolist()]
                continue
            standing = standing_row(hand)
            apart = self._look_at_hand(k, e, standing.u)
            if k.started:
                self._count_hand(k, e, standing, apart, out)
        if not opened or not k.started:
            return
        k.ended = True
        # a winning hand laid open holds 14 tiles counting each meld as 3 (the ron tile included);
        # a tenpai hand shown at a draw holds 13
        groups = [len({m.group for m in k.melds[e]}) for e in range(4)]
        winners = {e: c for e, c in opened.items() if (len(c) + 3 * groups[e]) % 3 == 2}
        if not winners:
            hands: list = [None] * 4
            for e, codes in opened.items():
                hands[e] = codes

            def draw(seat, hands=hands):
                by_seat: list = [None] * 4
                for edge, codes in enumerate(hands):
                    if codes is not None:
                        by_seat[seat(edge)] = codes
                return ev.Ryukyoku(reason="exhaustive", hands=by_seat)

            out.append(draw)
            k.result = "ryukyoku"
            return
        k.result = "hora"
        for e, codes in winners.items():
            self._win(k, e, codes, out)

    def _win(self, k: _Kyoku, e: int, codes: list[str], out: list) -> None:
        """Edge ``e`` won with ``codes`` laid open: on another's kakan (chankan: the kan's
        replacement draw never came), on the last discard (ron), or on its own draw (tsumo,
        rinshan kaihou after its own kan included)."""
        k.winners.add(e)
        # a drawn tile seen in the winner's hand (set apart, or its draw read) makes it tsumo
        drew = k.drew[e] or k.armed[e] is not None
        if k.last_kakan is not None and k.last_kakan[0] != e and not drew:
            src, pai, frame = k.last_kakan
            if k.ron_on is None:  # (a second winner on the same kakan: retracted once)
                out.append(self._no_replacement(src, frame))
            k.ron_on = (src, pai)
            out.append(
                lambda seat, e=e, s=src, p=pai, h=codes: ev.Hora(actor=seat(e), target=seat(s), pai=p, hand=h)
            )
            return
        ron = k.last_discard is not None and k.last_discard[0] != e and k.last_actor != e and not drew
        if ron:
            src_edge, src_index = k.last_discard
            pai = _pick_code(k.rivers[src_edge][src_index].votes)
            k.ron_on = (src_edge, pai)
            out.append(
                lambda seat, e=e, s=src_edge, p=pai, h=codes: ev.Hora(
                    actor=seat(e), target=seat(s), pai=p, hand=h
                )
            )
        else:
            out.append(lambda seat, e=e, h=codes: ev.Hora(actor=seat(e), target=seat(e), hand=h))

    @staticmethod
    def _no_replacement(src: int, frame: int) -> EventFactory:
        return lambda seat: ev.Retract(
            target_type="tsumo",
            target_frame=frame,
            actor=seat(src),
            reason="kakan robbed (chankan): no replacement draw",
        )

    def _read_more_rons(self, view: TableView, k: _Kyoku, out: list) -> None:
        """After a ron, another hand laid open as a winning one (double ron) won on the same tile."""
        src, pai = k.ron_on
        for e in np.nonzero(self._trusted)[0].tolist():
            if e in k.winners or e == src:
                continue
            hand = view.where(e, HAND)
            up = hand.select(hand.face_up)
            groups = len({m.group for m in k.melds[e]})
            if len(up) < self.cfg.open_hand_min or (len(up) + 3 * groups) % 3 != 2:
                continue
            codes = [self._code(int(c)) for c in up.select(np.argsort(up.u)).class_ids.tolist()]
            k.winners.add(e)
            out.append(lambda seat, e=e, h=codes: ev.Hora(actor=seat(e), target=seat(src), pai=pai, hand=h))


def _disarm(k: _Kyoku, e: int) -> None:
    """The hand's turn is over (discard) or its size changed (kan): forget its lift looks."""
    k.lift_gap[e] = []
    k.lift_base[e] = None
    k.armed[e] = None


def _position_of(codes: list[str], called: str) -> int:
    for i, c in enumerate(codes):
        if c != "?" and tiles.deaka(c) == tiles.deaka(called) if called != "?" else False:
            return i
    return 0


def _one_kind(codes: list[str]) -> bool:
    return len({tiles.deaka(c) for c in codes if c != "?"}) <= 1


def standing_row(hand: TableView, min_step_mm: float = 0.5 * TILE_W) -> TableView:
    """One hand's standing tiles, one detection per tile: two closer than half a tile's width are
    one tile seen twice (a detector boxing its top and its side), the surer one kept."""
    row = hand.select(hand.standing)
    if len(row) < 2:
        return row
    order = np.argsort(row.u)
    keep: list[int] = [int(order[0])]
    for i in order[1:].tolist():
        if row.u[i] - row.u[keep[-1]] < min_step_mm:
            if row.confidence[i] > row.confidence[keep[-1]]:
                keep[-1] = i
        else:
            keep.append(i)
    return row.select(np.array(sorted(keep, key=lambda j: row.u[j])))


def row_holes(u: np.ndarray, apart: bool, gap_mm: float = 8.0) -> int:
    """Places in a standing row (``u`` mm; the drawn tile set apart excluded) where neighbours
    stand a tile or more apart: tiles the detector missed."""
    s = np.sort(u)[: len(u) - 1 if apart else len(u)]
    if len(s) < 2:
        return 0
    return int((np.diff(s) > TILE_W + gap_mm).sum())


def drawn_apart(u: np.ndarray, gap_mm: float = 5.0) -> bool:
    """Do standing tiles at ``u`` (mm) end, at the player's right, in one tile set apart?"""
    if len(u) < 2:
        return False
    s = np.sort(u)
    step = s[-1] - s[-2]
    return bool(TILE_W + gap_mm < step < 2 * TILE_W - gap_mm)  # wider: a tile the detector missed


def _pick_code(votes: Counter) -> str:
    """The most seen code, a known tile before ``?``."""
    known = [(n, c) for c, n in votes.items() if c != "?"]
    return max(known)[1] if known else "?"


def game_code(class_id: int, bonus: bool) -> str:
    """A detector class as a game tile code: backs and standing tiles are unknown (``?``), and so
    is a flower or season where the rules have none (the detector confused it)."""
    code = str(_CODES[class_id])
    if code in (tiles.BACK, tiles.STANDING) or (not bonus and tiles.is_bonus(code)):
        return "?"
    return code


def _at(event, frame: int, t: float):
    return event.model_copy(update={"frame": frame, "t": round(t, 3)})
