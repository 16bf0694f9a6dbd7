"""Zones: which seat edge and which part of the table (hand, wall, river, meld) each tile lies in.

Detections are mapped to table mm through the calibration, then into each edge's local frame
(``u`` to that player's right, ``v`` from the centre toward the player, as
``datasets/scene/placements.py`` defines it) and tested against bands of ``v`` (and ``u``) that
hold from each player toward the centre: hand, melds, wall, river. The bands are wide (they hold
the renderer's layout with a camera's lift and tilt and the usual variants of real tables);
slots inside a zone are fitted from the tiles themselves, not from fixed mm.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict

from tracker.tiles import BACK, STANDING, class_id
from vision.calibration import Calibration
from vision.detections import TileDetections

ZONES = ("river", "wall", "meld", "hand")
RIVER, WALL, MELD, HAND = range(4)
NONE = -1
TILE_W, TILE_H = 26.0, 35.0  # mm: a tile's face, along and across its player's rows when upright
# how far toward an upright tile's box shape (0: halfway from a sideways tile's, 1: exactly) a box
# must be to have it: 1.15 times longer across the rows than along, seen from straight above
TALL_MARGIN = 0.47
# mm past the wall band's far side within which a back is still a wall tile (see ``assign``)
WALL_SPILL_MM = 10.0
_CORNER_SIGNS = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
_BACK, _STANDING = class_id(BACK), class_id(STANDING)


class ZoneBands(BaseModel):
    """Per-zone (u_min, u_max, v_min, v_max) in an edge's local frame, mm (tile centres)."""

    model_config = ConfigDict(frozen=True)

    river: tuple[float, float, float, float] = (-115.0, 165.0, 110.0, 302.0)
    wall: tuple[float, float, float, float] = (-255.0, 255.0, 302.0, 356.0)
    meld: tuple[float, float, float, float] = (-160.0, 495.0, 356.0, 412.0)
    hand: tuple[float, float, float, float] = (-310.0, 230.0, 412.0, 495.0)

    def array(self) -> np.ndarray:
        """(4 zones, 4) in ZONES order."""
        return np.array([self.river, self.wall, self.meld, self.hand], np.float64)


def to_table(edge: int, u: float, v: float) -> tuple[float, float]:
    """Edge-local (u, v) mm -> table (x right, y toward the bottom edge): ``to_local``'s inverse."""
    x, y = u, v
    for _ in range(edge % 4):
        x, y = y, -x
    return x, y


def to_local(xy: np.ndarray, edge: int) -> np.ndarray:
    """(N, 2) table mm (x right, y toward the bottom edge) -> (N, 2) edge-local (u, v)."""
    x, y = xy[:, 0], xy[:, 1]
    for _ in range(edge % 4):
        x, y = -y, x
    return np.stack([x, y], axis=1)


@dataclass(frozen=True)
class TableView:
    """N tiles of one frame placed on the table (struct of arrays).

    ``edge`` (N,) int8 0..3 (image bottom, right, top, left) or -1 outside every zone; ``zone``
    (N,) int8 into ZONES or -1; ``u``, ``v`` (N,) mm in the tile's edge frame; ``class_ids`` (N,);
    ``sideways`` (N,) bool (turned a quarter from its player's upright); ``face_up`` (N,) bool;
    ``confidence`` (N,); ``tall`` (N,) bool: the box, seen on the table, is clearly longer across
    the edge's rows (``v``) than along them (``u``), as an upright tile is (a second look at a
    tile's turn, besides its angle); ``runner_up``, ``runner_up_confidence`` (N,): the face read
    next most likely and its score (``vision.detections.TileDetections``).
    """

    edge: np.ndarray
    zone: np.ndarray
    u: np.ndarray
    v: np.ndarray
    class_ids: np.ndarray
    sideways: np.ndarray
    face_up: np.ndarray
    confidence: np.ndarray
    tall: np.ndarray
    runner_up: np.ndarray | None = None
    runner_up_confidence: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.edge)  # (unknown runner-ups by default, as in TileDetections)
        if self.runner_up is None:
            object.__setattr__(self, "runner_up", np.full(n, -1, np.int64))
        if self.runner_up_confidence is None:
            object.__setattr__(self, "runner_up_confidence", np.zeros(n, np.float32))

    def select(self, mask: np.ndarray) -> TableView:
        return TableView(*(getattr(self, f)[mask] for f in self.__dataclass_fields__))

    def where(self, edge: int, zone: int) -> TableView:
        return self.select((self.edge == edge) & (self.zone == zone))

    def __len__(self) -> int:
        return len(self.edge)

    @property
    def standing(self) -> np.ndarray:
        return self.class_ids == _STANDING

    @property
    def back(self) -> np.ndarray:
        return self.class_ids == _BACK

    @property
    def uv(self) -> np.ndarray:
        """(N, 2) float64 u, v mm: the places, as the per-tile matching functions take them."""
        return np.stack([self.u, self.v], axis=1).astype(np.float64)


def _upright_shaped(
    boxes: np.ndarray, xy: np.ndarray, along_x: np.ndarray, calibration: Calibration
) -> np.ndarray:
    """(N,) bool: each image box has an upright tile's shape where it lies. The image boxes an
    upright (26 mm along its row, 35 across) and a sideways tile there would have are projected
    from the table, so the camera's turn and perspective move both alike (a camera turned 12
    degrees makes an upright tile's box only 1.12 times longer across than along); the box's
    aspect must lie ``TALL_MARGIN`` of the way from their middle to the upright one's. The angle
    alone is a guess for faces that look the same turned (1p, 4p, 5p, haku)."""
    n = len(boxes)
    half = np.where(along_x[:, None], [TILE_W / 2, TILE_H / 2], [TILE_H / 2, TILE_W / 2])  # (N, 2) x, y

    def log_aspect(half_xy: np.ndarray) -> np.ndarray:
        corners = xy[:, None, :] + half_xy[:, None, :] * _CORNER_SIGNS[None]
        px = calibration.table_to_image(corners.reshape(-1, 2)).reshape(n, 4, 2)
        ext = np.maximum(px.max(axis=1) - px.min(axis=1), 1e-3)
        return np.log(ext[:, 0] / ext[:, 1])

    upright, turned = log_aspect(half), log_aspect(half[:, ::-1])
    w = np.maximum(boxes[:, 2] - boxes[:, 0], 1e-3)
    h = np.maximum(boxes[:, 3] - boxes[:, 1], 1e-3)
    toward = (np.log(w / h) - (upright + turned) / 2) * np.sign(upright - turned)
    return toward >= TALL_MARGIN * np.abs(upright - turned) / 2


def assign(
    detections: TileDetections,
    calibration: Calibration,
    bands: ZoneBands | None = None,
    yaw_deg: float = 0.0,
) -> TableView:
    """Place every detection: table mm, then the first (edge, zone) band holding its centre."""
    n = len(detections)
    if n == 0:
        z = np.zeros(0, np.int8)
        f = np.zeros(0, np.float32)
        b = np.zeros(0, bool)
        return TableView(z, z, f, f, np.zeros(0, np.int64), b, b, f, b)
    bands_arr = (bands or ZoneBands()).array()
    xy = calibration.image_to_table(detections.centres) if n else np.zeros((0, 2))
    local = np.stack([to_local(xy, e) for e in range(4)])  # (4, N, 2)
    u, v = local[..., 0], local[..., 1]
    b = bands_arr[None, :, :, None]  # (1, Z, 4, 1)
    inside = (
        (u[:, None] >= b[:, :, 0])
        & (u[:, None] <= b[:, :, 1])
        & (v[:, None] >= b[:, :, 2])
        & (v[:, None] <= b[:, :, 3])
    )  # (4 edges, Z, N)
    flat = inside.reshape(-1, n)  # edge-major, zone-minor
    hit = flat.any(axis=0)
    first = flat.argmax(axis=0)
    edge = np.where(hit, first // len(ZONES), NONE).astype(np.int8)
    zone = np.where(hit, first % len(ZONES), NONE).astype(np.int8)
    pick = np.clip(edge, 0, 3)
    cols = np.arange(n)
    u_at, v_at = u[pick, cols], v[pick, cols]
    # a back just past the wall band, along the wall, is a wall tile boxed toward its player, not
    # a meld's (hanchan-jansou-mleague-hanchan, overhead camera: three wall tiles boxed at v 360
    # were an ankan, twice a kyoku; the meld row's tiles lay at v 380-400 over the set)
    wall = bands_arr[WALL]
    spilt = (
        (zone == MELD)
        & ~detections.face_up
        & (v_at <= wall[3] + WALL_SPILL_MM)
        & (u_at >= wall[0])
        & (u_at <= wall[1])
    )
    zone[spilt] = WALL
    # a tile upright for edge e lies turned 90*e in the image; sideways is an odd quarter off that
    turn = np.round((detections.angles - yaw_deg) / 90.0).astype(np.int64)
    sideways = ((turn - pick) % 2) == 1
    tall = _upright_shaped(detections.boxes, xy, (pick % 2) == 0, calibration)
    return TableView(
        edge=edge,
        zone=zone,
        u=u_at.astype(np.float32),
        v=v_at.astype(np.float32),
        class_ids=detections.class_ids,
        sideways=sideways,
        face_up=detections.face_up,
        confidence=detections.confidence,
        tall=tall,
        runner_up=detections.runner_up,
        runner_up_confidence=detections.runner_up_confidence,
    )
