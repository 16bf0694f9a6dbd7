"""Render a game's events as an overhead-camera clip with exact ground truth (``truth.json``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from datasets.scene import table_layout as tl
from datasets.scene.arms import arm_path, draw_arm
from datasets.scene.camera import PRESETS, CameraModel, CameraPreset
from datasets.scene.optics import Optics
from datasets.scene.painter import Canvas, felt_image, paint_tiles, tile_tops
from datasets.scene.placements import FACE_DOWN, FACE_UP, STANDING, ZONES, Placements, to_table
from datasets.scene.style import Style, random_style
from datasets.scene.wall import WallModel
from datasets.synth.timeline import Action, Timeline, TimingPlan
from datasets.synth.video import H264Writer
from datasets.tileset import Tileset
from tracker import tiles
from tracker.table import layout
from tracker.table.layout import TableRules
from tracker.table.state import TableState


def tenpai_hand(hand: list[str]) -> list[str] | None:
    """The hand if it is known and one tile from complete (laid open at an exhaustive draw)."""
    if not hand or "?" in hand or len(hand) % 3 != 1:
        return None
    from mahjong.shanten import Shanten

    counts = [0] * 34
    for code in hand:
        counts[tiles.kind34(code)] += 1
    return list(hand) if Shanten().calculate_shanten(counts) == 0 else None


NINE_KINDS = "九種九牌"  # kyuushu kyuuhai, as tenhou.net/6 and mjai name the draw
CANVAS_HALF = 560.0  # mm of felt the canvas covers each way from the centre
OVERSAMPLE = 1.6  # canvas px per image px at the table centre


@dataclass
class StagedAlert:
    code: str
    seat: int
    event_index: int  # the event whose frame starts the evidence
    until_index: int | None = None  # the event whose frame ends it (None: the same frame + 1 s)


@dataclass
class Staged:
    """What a faults file asks the renderer to show (see datasets.synth.faults)."""

    staging_by_kyoku: dict[int, tl.Staging] = field(default_factory=dict)
    timing: TimingPlan = field(default_factory=TimingPlan)
    alerts: list[StagedAlert] = field(default_factory=list)


@dataclass
class RenderOptions:
    camera: str | CameraPreset = "tilted"
    fps: float = 30.0
    size: tuple[int, int] | None = None
    pace: float = 1.0
    seed: int = 0
    rules: TableRules = layout.MLEAGUE
    keyframe_every: int = 1  # keep every n-th quiet moment as a keyframe


class ClipRenderer:
    def __init__(self, events: list, tileset: Tileset, options: RenderOptions, staged: Staged | None = None):
        self.events = events
        self.tileset = tileset
        self.opt = options
        self.staged = staged or Staged()
        self.rng = np.random.default_rng(options.seed)
        preset = PRESETS[options.camera] if isinstance(options.camera, str) else options.camera
        if options.size is not None:
            preset = preset.model_copy(update={"width": options.size[0], "height": options.size[1]})
        self.style: Style = random_style(self.rng)
        self.camera = CameraModel(
            preset,
            yaw_deg=float(self.rng.normal(0, 1.0)),
            offset=(
                float(self.rng.normal(0, preset.width * 0.01)),
                float(self.rng.normal(0, preset.height * 0.01)),
            ),
        )
        scale = OVERSAMPLE * preset.height / preset.view_mm
        self.canvas = Canvas(scale, CANVAS_HALF)
        self.felt = felt_image(self.canvas, self.style, self.rng)
        self.optics = Optics(self.camera, self.canvas, self.style, self.rng)
        self.actions = Timeline(options.fps, options.pace, self.rng).schedule(events, self.staged.timing)
        self.total_frames = max(a.end for a in self.actions) + int(options.fps)
        self._action_by_index = {a.index: a for a in self.actions}
        self._rng_state = self.rng.bit_generator.state  # the dice of each kyoku come from here on

    def _reset(self) -> None:
        """The world before the first event (a replay after a render rolls the same dice)."""
        self.rng.bit_generator.state = self._rng_state
        self.state = TableState(self.opt.rules)
        self.staging = tl.Staging()
        self.wall = None
        self.kyoku_index = -1
        self.pending_replacement = False

    def _apply(self, change: tuple[int, int, int, str], aim: bool) -> None:
        """One change of ``_changes``; ``aim``: fix the arm's targets (only drawing needs them)."""
        _, index, phase, _what = change
        action = self._action_by_index[index]
        if phase == 0:
            if aim:
                action.targets = self._targets(action)
            self._pick(action)
        else:
            if aim and action.arm and action.targets is None:
                action.targets = self._targets(action)
            self._place(action)

    def _placements(self) -> Placements:
        rng = np.random.default_rng(self.opt.seed * 7919 + self.kyoku_index)
        return tl.place_table(self.state, self.wall, self.staging, rng, self.style.jitter)

    def scene_truth(self) -> Iterator[dict]:
        """Truth for every moment the tiles change, without painting: keyframe dicts (``frame``,
        ``tiles`` as in truth.json) at each frame where a tile was picked up or put down. The table
        at any frame is the latest of these at or before it (arms and the carried tile aside).
        The same steps as ``render``, so a replay of the same request matches its keyframes."""
        self._reset()
        changes = self._changes()
        ci = 0
        while ci < len(changes):
            f = changes[ci][0]
            while ci < len(changes) and changes[ci][0] <= f:
                self._apply(changes[ci], aim=False)
                ci += 1
            if self.wall is not None:
                placed = self._placements()
                yield self._keyframe(f, placed, tile_tops(placed, self.camera))

    # --- the world at a moment --------------------------------------------------------------

    def _setup_kyoku(self, e) -> None:
        dice = int(self.rng.integers(1, 7) + self.rng.integers(1, 7))
        self.wall = WallModel(self.opt.rules, e.oya, dice)
        self.wall.deal()
        self.wall.flip_indicator(0)
        self.kyoku_index += 1
        self.staging = self.staged.staging_by_kyoku.get(self.kyoku_index, tl.Staging())
        self.staging.lifted_hand.clear()
        self.staging.lifted_from_row.clear()
        self.staging.lifted_river.clear()
        self.staging.open_hands.clear()
        self.staging.hand_delta.clear()
        self.pending_replacement = False

    def _changes(self) -> list[tuple[int, int, int, str]]:
        """(frame, event index, phase, what) for every change on the table, in play order."""
        out = []
        for a in self.actions:
            if a.arm and a.kind in ("tsumo", "dahai", "chi", "pon", "daiminkan"):
                out.append((a.pick, a.index, 0, "pick"))
            out.append((a.place, a.index, 1, "place"))
        out.sort()
        return out

    def _pick(self, a: Action) -> None:
        e = self.events[a.index]
        if e.type == "tsumo":
            if self.pending_replacement:
                self.wall.draw_replacement()
            else:
                self.wall.draw_live()
        elif e.type == "dahai":
            self.staging.lifted_hand[e.actor] = e.pai
            if not self._from_drawn(e):
                self.staging.lifted_from_row.add(e.actor)
        else:  # a call: the discard leaves the river
            seat, index = self.state.last_discard
            self.staging.lifted_river.add((seat, index))

    def _place(self, a: Action) -> None:
        e = self.events[a.index]
        if e.type == "start_kyoku":
            self.state.update(e)
            self._setup_kyoku(e)
            return
        if e.type == "dahai":
            self.staging.lifted_hand.pop(e.actor, None)
            self.staging.lifted_from_row.discard(e.actor)
        if e.type in ("chi", "pon", "daiminkan"):
            self.staging.lifted_river.clear()
        self.state.update(e)
        for seat, (at, delta) in self.staging.hand_delta_from.items():
            if at == a.index:  # 大相公/小相公 staged: from this discard on the hand shows one tile off
                self.staging.hand_delta[seat] = delta
        if e.type == "tsumo":
            self.pending_replacement = False
        elif e.type in ("daiminkan", "kakan", "ankan", "flower"):
            self.pending_replacement = True
        elif e.type == "dora":
            self.wall.flip_indicator(len(self.state.dora_indicators) - 1)
        elif e.type == "hora":
            hand = list(e.hand) if e.hand else list(self.state.seats[e.actor].hand)
            if e.actor != e.target and self.state.seats[e.target].river:
                hand.append(self.state.seats[e.target].river[-1].code)
            self.staging.open_hands[e.actor] = tiles.sorted_codes(hand)
        elif e.type == "ryukyoku":
            if e.hands:
                hands = e.hands
            elif e.reason == NINE_KINDS:  # the seat that drew lays its nine kinds open, no other
                seats = enumerate(self.state.seats)
                hands = [list(seat.hand) if s == self.state.actor else None for s, seat in seats]
            else:
                hands = [tenpai_hand(seat.hand) for seat in self.state.seats]
            for s, hand in enumerate(hands):
                if hand:
                    self.staging.open_hands[s] = tiles.sorted_codes(hand)
        elif e.type == "end_kyoku":
            self.staging.open_hands.clear()

    def _from_drawn(self, e) -> bool:
        """Is this discard the drawn tile? As the log says (a tedashi of a tile matching the draw
        takes the copy from the row), unless the hand holds no other copy."""
        if e.tsumogiri:
            return True
        seat = self.state.seats[e.actor]
        return seat.drawn == e.pai and seat.hand.count(e.pai) < 2

    # --- positions arms reach for ------------------------------------------------------------

    def _targets(self, a: Action) -> tuple[np.ndarray, np.ndarray]:
        e = self.events[a.index]
        s = a.actor
        seat = self.state.seats[s]
        hand_n = len(seat.hand)
        drawn_xy = np.array(to_table(s, tl.hand_tile_u(0, True, hand_n), tl.HAND_V))
        meld_xy = np.array(to_table(s, tl.MELD_RIGHT - 60 - 110 * len(seat.melds), tl.MELD_V))
        if e.type == "tsumo":
            stack = self.wall.start + self.wall.taken_live // 2
            if self.pending_replacement:
                stack = self.wall.start - 1 - self.wall.taken_replacement // 2
            ws, slot = self.wall.stack_position(stack)
            u = (self.wall.per_side / 2 - 0.5 - slot) * tl.TILE_W
            return np.array(to_table(ws, u, tl.WALL_V)), drawn_xy
        if e.type == "dahai":
            n = len(seat.river_present)
            row, col = layout.river_position(n)
            river_xy = np.array(to_table(s, *tl.river_slot_centre(row, col, False, 0.0)))
            if self._from_drawn(e):
                return drawn_xy, river_xy
            order = tiles.sorted_codes(seat.hand)
            k = order.index(e.pai) if e.pai in order else hand_n // 2
            return np.array(to_table(s, tl.hand_tile_u(k), tl.HAND_V)), river_xy
        if e.type in ("chi", "pon", "daiminkan"):
            t_seat = self.state.seats[e.target]
            n = max(len(t_seat.river_present) - 1, 0)
            row, col = layout.river_position(n)
            return np.array(to_table(e.target, *tl.river_slot_centre(row, col, False, 0.0))), meld_xy
        if e.type == "reach_accepted":
            stick = np.array(to_table(s, 0.0, tl.STICK_V))
            return stick, stick
        if e.type == "dora":
            stack = self.wall.indicator_stack(len(self.state.dora_indicators))
            ws, slot = self.wall.stack_position(stack)
            u = (self.wall.per_side / 2 - 0.5 - slot) * tl.TILE_W
            xy = np.array(to_table(ws, u, tl.WALL_V))
            return xy, xy
        return drawn_xy, meld_xy

    # --- truth -----------------------------------------------------------------------------

    def _keyframe(self, frame: int, placed: Placements, tops: np.ndarray) -> dict:
        keep = [i for i, c in enumerate(placed.code) if c != tl.STICK]
        corners = tops[keep].reshape(-1, 2)
        img = self.camera.project(np.concatenate([corners, np.zeros((len(corners), 1))], 1)).reshape(-1, 4, 2)
        x0y0 = np.floor(img.min(1)).astype(int)
        x1y1 = np.ceil(img.max(1)).astype(int)
        out = []
        for j, i in enumerate(keep):
            look = placed.look[i]
            code = placed.code[i]
            visible = "standing" if look == STANDING else "back" if look == FACE_DOWN else code
            item = {
                "code": visible,
                "seat": placed.seat[i],
                "zone": ZONES[placed.zone[i]],
                "box": [int(x0y0[j][0]), int(x0y0[j][1]), int(x1y1[j][0]), int(x1y1[j][1])],
                "angle": round((placed.angle[i] + self.camera.yaw_deg) % 360, 1),
                "face_up": bool(look == FACE_UP),
            }
            if visible != code and code != "back":
                item["tile"] = code
            out.append(item)
        return {"frame": frame, "tiles": out}

    def _quiet_frames(self) -> set[int]:
        busy = np.zeros(self.total_frames + 2, np.int32)
        for a in self.actions:
            if a.arm:
                busy[a.start] += 1
                busy[a.end + 1] -= 1
        busy = np.cumsum(busy) > 0
        quiet = set()
        count = 0
        for a in self.actions:
            if a.kind in (
                "dahai",
                "chi",
                "pon",
                "daiminkan",
                "kakan",
                "ankan",
                "start_kyoku",
                "hora",
                "ryukyoku",
            ):
                f = a.end + 1 if a.arm else a.place + 1
                if f < self.total_frames and not busy[f]:
                    count += 1
                    if count % self.opt.keyframe_every == 0:
                        quiet.add(f)
        return quiet

    # --- the loop ---------------------------------------------------------------------------

    def render(self, out_dir: str | Path, progress=None) -> dict:
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        preset = self.camera.preset
        fps = self.opt.fps
        self._reset()
        changes = self._changes()
        quiet = self._quiet_frames()
        arms = [a for a in self.actions if a.arm]
        keyframes = []
        ci = 0
        static = self.felt.copy()
        tops = np.zeros((0, 4, 2))
        placed = Placements()
        dirty = True
        carried_cache: dict[tuple[str, bool], np.ndarray] = {}
        with H264Writer(out_dir / "video.mp4", fps, preset.width, preset.height, preset.crf) as writer:
            for f in range(self.total_frames):
                while ci < len(changes) and changes[ci][0] <= f:
                    self._apply(changes[ci], aim=True)
                    ci += 1
                    dirty = True
                if dirty:
                    static = self.felt.copy()
                    if self.wall is not None:
                        placed = self._placements()
                        tops = paint_tiles(static, self.canvas, placed, self.tileset, self.style, self.camera)
                    dirty = False
                active = [a for a in arms if a.start <= f <= a.end and (a.targets is not None or f < a.pick)]
                canvas_img = static
                if active:
                    canvas_img = static.copy()
                    for a in active:
                        self._draw_action(canvas_img, a, f, carried_cache)
                frame = self.optics.frame(canvas_img, f)
                writer.write(frame)
                if f in quiet and self.wall is not None:
                    keyframes.append(self._keyframe(f, placed, tops))
                if progress is not None:
                    progress(1)
        truth = self._truth(keyframes)
        (out_dir / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, separators=(",", ":")))
        return truth

    def _draw_action(self, img: np.ndarray, a: Action, f: int, cache: dict) -> None:
        if a.targets is None:
            # reaching before the pick: aim at where the pick will be
            a.targets = self._targets(a)
        pick_xy, place_xy = a.targets
        if f < a.pick:
            xy = arm_path(a.actor, pick_xy, (f - a.start) / max(1, a.pick - a.start))
            carried = None
        elif f < a.place:
            frac = (f - a.pick) / max(1, a.place - a.pick)
            xy = pick_xy + (place_xy - pick_xy) * (0.5 - 0.5 * np.cos(np.pi * frac))
            carried = self._carried(a, cache)
        else:
            xy = arm_path(a.actor, place_xy, 1 - (f - a.place) / max(1, a.end - a.place))
            carried = None
        speed = 1.0 if a.pick <= f < a.place else 0.6
        draw_arm(
            img, self.canvas, self.camera, a.actor, xy, self.style, carried, blur_px=speed * self.canvas.scale
        )

    def _carried(self, a: Action, cache: dict) -> np.ndarray | None:
        e = self.events[a.index]
        code = getattr(e, "pai", None)
        if code is None or a.kind in ("reach_accepted", "dora"):
            return None
        face_down = e.type == "tsumo"
        key = (code, face_down)
        if key not in cache:
            w = max(4, int(round(tl.TILE_W * self.canvas.scale * 1.05)))
            h = max(4, int(round(tl.TILE_H * self.canvas.scale * 1.05)))
            if face_down:
                img = np.empty((h, w, 3), np.uint8)
                img[:] = self.style.back
            else:
                face = self.tileset.face(code, w)
                img = np.empty((h, w, 3), np.uint8)
                img[:] = self.style.ivory
                fh = min(h, face.shape[0])
                alpha = face[:fh, :, 3:4] / 255.0
                img[:fh] = (img[:fh] * (1 - alpha) + face[:fh, :, :3] * alpha).astype(np.uint8)
            cache[key] = img
        return cache[key]

    def _truth(self, keyframes: list) -> dict:
        fps = self.opt.fps
        events = []
        for a in sorted(self.actions, key=lambda a: a.index):
            e = self.events[a.index]
            frame = a.event_frame
            data = e.model_copy(update={"frame": frame, "t": round(frame / fps, 3)}).to_json()
            events.append({"frame": frame, "event": data})
        alerts = []
        for al in self.staged.alerts:
            start = self._action_by_index[al.event_index].event_frame
            if al.until_index is not None:
                end = self._action_by_index[al.until_index].event_frame
            else:
                end = start + int(fps)
            alerts.append(
                {
                    "code": al.code,
                    "seat": al.seat,
                    "frame_start": min(start, end),
                    "frame_end": max(start, end),
                }
            )
        h = self.camera.homography_felt_to_ideal()
        return {
            "fps": fps,
            "width": self.camera.preset.width,
            "height": self.camera.preset.height,
            "frames": self.total_frames,
            "calibration": {
                "homography_mm_to_px": (h / h[2, 2]).round(6).tolist(),
                "k1": self.camera.preset.k1,
                "focal_px": self.camera.focal,
                "principal_px": self.camera.principal.tolist(),
                "seat0_edge": "bottom",
                "table_half_mm": tl.TABLE_HALF,
                "note": "homography maps felt mm (x right, y toward seat 0) to undistorted pixels; "
                "distortion x_d = x_u (1 + k1 r^2 / r_corner^2) on normalised coordinates",
            },
            "camera": self.camera.preset.model_dump(),
            "tileset": self.tileset.name,
            "seed": self.opt.seed,
            "style": self.style.model_dump(mode="json"),
            "events": events,
            "alerts": alerts,
            "keyframes": keyframes,
        }
