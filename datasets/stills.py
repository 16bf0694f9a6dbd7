"""Training stills for the tile detector: random but plausible tables, COCO json labels.

Each still is a moment of a real game (a random point of a random log), drawn with a random art set,
felt, tile backs, light and camera: tile widths from about 14 to 64 px, the table turned any way
(all four orientations, with jitter), backs, standing hand tiles, and arms partly covering tiles.
Boxes of tiles that an arm hides by more than ``max_hidden`` are dropped; the rest carry how much
of them is hidden.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.scene import table_layout as tl
from datasets.scene.arms import draw_arm
from datasets.scene.camera import CameraModel, CameraPreset
from datasets.scene.painter import Canvas, felt_image, paint_tiles
from datasets.scene.placements import FACE_DOWN, FACE_UP, STANDING, ZONES
from datasets.scene.style import random_style
from datasets.scene.wall import WallModel
from datasets.tileset import Tileset
from tracker import tiles
from tracker.table.state import TableState

CANVAS_HALF = 560.0


def random_moment(games: list[list], rng: np.random.Generator) -> tuple[TableState, WallModel]:
    """The table at a random point of a random kyoku of one of ``games`` (event lists)."""
    events = games[int(rng.integers(len(games)))]
    starts = [i for i, e in enumerate(events) if e.type == "start_kyoku"]
    k = int(rng.integers(len(starts)))
    end = starts[k + 1] if k + 1 < len(starts) else len(events)
    # later moments show fuller rivers and more melds: skew toward the end of the kyoku
    stop = starts[k] + 1 + int((end - starts[k] - 2) * rng.beta(2.2, 1.0))
    state = TableState()
    wall = None
    replacement = False
    for e in events[: stop + 1]:
        state.update(e)
        if e.type == "start_kyoku":
            wall = WallModel(state.rules, e.oya, int(rng.integers(2, 13)))
            wall.deal()
            wall.flip_indicator(0)
        elif e.type == "tsumo":
            wall.draw_replacement() if replacement else wall.draw_live()
            replacement = False
        elif e.type in ("daiminkan", "kakan", "ankan"):
            replacement = True
        elif e.type == "dora":
            wall.flip_indicator(len(state.dora_indicators) - 1)
    return state, wall


def _deal_bonus_tiles(state: TableState, rng: np.random.Generator) -> None:
    """Put 1-8 distinct flowers/seasons beside random seats' hands, as an MCR table shows them
    (the bundled logs are riichi games, which have none)."""
    codes = rng.permutation(tiles.BONUS)[: int(rng.integers(1, len(tiles.BONUS) + 1))]
    for code in codes:
        state.seats[int(rng.integers(4))].flowers.append(str(code))


def _camera_for(tile_px: float, size: int, look_at: np.ndarray, yaw: float, tilt: float) -> CameraModel:
    view = tl.TILE_W * size / tile_px  # mm the image height spans
    preset = CameraPreset(
        width=size, height=size, tilt_deg=tilt, height_mm=1400, view_mm=view, k1=0.0, noise=0, blur=0, crf=23
    )
    cam = CameraModel(preset, yaw_deg=yaw)
    centre = cam.project(np.array([[look_at[0], look_at[1], 0.0]]))[0]
    return CameraModel(preset, yaw_deg=yaw, offset=(size / 2 - centre[0], size / 2 - centre[1]))


class StillMaker:
    def __init__(
        self,
        games: list[list],
        tilesets: list[Tileset],
        size: int = 640,
        seed: int = 0,
        tile_px: tuple[float, float] = (14.0, 64.0),
        max_hidden: float = 0.6,
    ):
        if not games or not tilesets:
            raise ValueError("stills need at least one game log and one tileset")
        self.games = games
        self.tilesets = tilesets
        self.size = size
        self.rng = np.random.default_rng(seed)
        self.tile_px = tile_px
        self.max_hidden = max_hidden
        self._felts: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def make(self) -> tuple[np.ndarray, list[dict]]:
        rng = self.rng
        style = random_style(rng)
        tileset = self.tilesets[int(rng.integers(len(self.tilesets)))]
        state, wall = random_moment(self.games, rng)
        if tileset.has(tiles.BONUS[0]) and rng.random() < 0.6:
            _deal_bonus_tiles(state, rng)
        tile_px = float(np.exp(rng.uniform(np.log(self.tile_px[0]), np.log(self.tile_px[1]))))
        yaw = float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 6))
        # aim at a river or meld area most of the time: that is where the faces are
        seat = int(rng.integers(4))
        u, v = (
            (rng.uniform(-120, 160), rng.uniform(120, 300))
            if rng.random() < 0.6
            else (rng.uniform(-420, 420), rng.uniform(-420, 440))
        )
        from datasets.scene.placements import to_table

        look = np.array(to_table(seat, u, v))
        cam = _camera_for(tile_px, self.size, look, yaw, float(rng.uniform(0, 18)))
        # a few canvas resolutions only, so cached felts are reused
        scale = next((v for v in (1.0, 1.5, 2.0, 3.0) if v >= 1.4 * tile_px / tl.TILE_W), 4.0)
        canvas = Canvas(scale, CANVAS_HALF)
        img = self._felt(canvas, style, rng)
        placed = tl.place_table(state, wall, tl.Staging(), rng, style.jitter)
        tops = paint_tiles(img, canvas, placed, tileset, style, cam)
        arms = int(rng.choice([0, 1, 1, 2]))
        bare = img.copy() if arms else None
        for _ in range(arms):
            target = look + rng.normal(0, 120, 2)
            draw_arm(img, canvas, cam, int(rng.integers(4)), target, style)
        h_px = cam.homography_felt_to_ideal()
        to_canvas = np.array([[1 / scale, 0, -CANVAS_HALF], [0, 1 / scale, -CANVAS_HALF], [0, 0, 1]])
        warp = h_px @ to_canvas

        def view(canvas_img: np.ndarray) -> np.ndarray:
            return cv2.warpPerspective(
                canvas_img,
                warp,
                (self.size, self.size),
                flags=cv2.INTER_AREA if scale > 2 else cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )

        out = view(img)
        # where the arms changed the picture, compared in the (small) output view, not the canvas
        hidden = np.zeros((self.size, self.size), np.uint8)
        if bare is not None:
            hidden[cv2.absdiff(out, view(bare)).max(2) > 12] = 255
        out = self._camera_look(out, style, rng)
        return out, self._labels(placed, tops, cam, hidden, tileset)

    def _felt(self, canvas: Canvas, style, rng) -> np.ndarray:
        # a new cloth is costly (whole-table canvases reach 4480 px): redraw one now and then
        key = canvas.size
        if key not in self._felts or rng.random() < 0.05:
            cloth = felt_image(canvas, style, rng)
            self._felts[key] = (cloth, cloth.reshape(-1, 3).mean(0))
        cloth, base = self._felts[key]
        # recolour the cached cloth to this still's felt: keep its texture, change its hue (one
        # saturating pass)
        gain = np.asarray(style.felt, np.float64) / np.maximum(base, 1)
        return cv2.multiply(cloth, (*gain, 0.0))

    def _camera_look(self, img: np.ndarray, style, rng) -> np.ndarray:
        n = self.size
        ys, xs = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
        gain = 1 + style.light_strength * (xs * np.cos(style.light_angle) + ys * np.sin(style.light_angle))
        gain *= 1 - 0.3 * (xs**2 + ys**2)
        out = img.astype(np.float32) * gain[..., None] * rng.uniform(0.8, 1.15)
        sigma = rng.uniform(0.3, 1.4)
        out = cv2.GaussianBlur(out, (0, 0), sigma)
        out += rng.normal(0, rng.uniform(1, 7), out.shape).astype(np.float32)
        out = np.clip(out, 0, 255).astype(np.uint8)
        quality = int(rng.integers(60, 96))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)

    def _labels(
        self, placed, tops: np.ndarray, cam: CameraModel, hidden: np.ndarray, tileset: Tileset
    ) -> list[dict]:
        labels = []
        n = self.size
        corners = tops.reshape(-1, 2)
        img = cam.project(np.concatenate([corners, np.zeros((len(corners), 1))], 1)).reshape(-1, 4, 2)
        # the turn as seen in the image (counterclockwise, np.rot90's sense), from the projected face:
        # its top edge (corners 0, 1) minus its bottom edge (2, 3); y grows downward
        up = img[:, :2].mean(1) - img[:, 2:].mean(1)
        seen_angle = np.degrees(np.arctan2(-up[:, 0], -up[:, 1])) % 360
        for i, code in enumerate(placed.code):
            if code == tl.STICK:
                continue
            x0, y0 = img[i].min(0)
            x1, y1 = img[i].max(0)
            if x1 <= 0 or y1 <= 0 or x0 >= n or y0 >= n:
                continue
            cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, n), min(y1, n)
            inside = (cx1 - cx0) * (cy1 - cy0) / max((x1 - x0) * (y1 - y0), 1e-6)
            if inside < 0.6:
                continue  # mostly outside the picture
            box_mask = hidden[int(cy0) : int(np.ceil(cy1)), int(cx0) : int(np.ceil(cx1))]
            covered = float(box_mask.mean() / 255) if box_mask.size else 0.0
            if covered > self.max_hidden:
                continue
            look = placed.look[i]
            visible = "standing" if look == STANDING else "back" if look == FACE_DOWN else code
            if visible in tiles.RED_FIVES and tileset.faces[visible] is tileset.faces[visible[:2]]:
                visible = visible[:2]  # art without red fives draws the plain five: label what is seen
            if visible == "?" or visible not in tiles.MODEL_CLASSES:
                continue
            labels.append(
                {
                    "code": visible,
                    "box": [float(cx0), float(cy0), float(cx1), float(cy1)],
                    "angle": round(float(seen_angle[i]), 1),
                    "face_up": bool(look == FACE_UP),
                    "seat": placed.seat[i],
                    "zone": ZONES[placed.zone[i]],
                    "hidden": round(covered, 3),
                }
            )
        return labels


def write_coco(
    maker: StillMaker,
    count: int,
    out_dir: str | Path,
    progress: Callable[[int], None] | None = None,
    flush_every: int = 25,
) -> dict:
    """``count`` stills as ``images/NNNNNN.jpg`` plus ``annotations.json`` (COCO, with a ``classes`` list).

    ``annotations.json`` is rewritten every ``flush_every`` stills (atomically), so a long run that is
    cut short, or read while it runs, leaves a consistent labelled set of the stills so far."""
    out_dir = Path(out_dir)
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    images, annotations = [], []
    coco = {}
    for k in range(count):
        img, labels = maker.make()
        name = f"images/{k:06d}.jpg"
        cv2.imwrite(str(out_dir / name), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        images.append({"id": k, "file_name": name, "width": img.shape[1], "height": img.shape[0]})
        for lab in labels:
            x0, y0, x1, y1 = lab.pop("box")
            annotations.append(
                {
                    "id": len(annotations),
                    "image_id": k,
                    "category_id": tiles.class_id(lab["code"]),
                    "bbox": [round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2)],
                    "area": round((x1 - x0) * (y1 - y0), 2),
                    "iscrowd": 0,
                    **lab,
                }
            )
        if progress is not None:
            progress(1)
        if (k + 1) % flush_every == 0 or k + 1 == count:
            info = {
                "description": "mjmon rendered training stills",
                "tilesets": [t.name for t in maker.tilesets],
            }
            coco = write_annotations(out_dir, info, images, annotations)
    return coco


def write_annotations(out_dir: Path, info: dict, images: list, annotations: list) -> dict:
    """``annotations.json`` (COCO, with a ``classes`` list), written atomically: a reader never
    sees half a file."""
    coco = {
        "info": info,
        "images": images,
        "annotations": annotations,
        "categories": [{"id": i, "name": c} for i, c in enumerate(tiles.MODEL_CLASSES)],
        "classes": list(tiles.MODEL_CLASSES),
    }
    partial = out_dir / "annotations.json.part"
    partial.write_text(json.dumps(coco, separators=(",", ":")))
    partial.replace(out_dir / "annotations.json")
    return coco
