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
TALL_RATIO = 1.15  # across / along a box must reach to be an upright tile's shape
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
    tile's turn, besides its angle).
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
    # a tile upright for edge e lies turned 90*e in the image; sideways is an odd quarter off that
    turn = np.round((detections.angles - yaw_deg) / 90.0).astype(np.int64)
    sideways = ((turn - pick) % 2) == 1
    # the box's corners on the table: its extent along x and y (u runs along x for edges 0 and 2)
    x1, y1, x2, y2 = (detections.boxes[:, i] for i in range(4))
    corners = np.stack([np.stack(c, axis=1) for c in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))], axis=1)
    on_table = calibration.image_to_table(corners.reshape(-1, 2)).reshape(n, 4, 2)
    extent = on_table.max(axis=1) - on_table.min(axis=1)  # (N, 2) mm along x, y
    along_x = (pick % 2) == 0
    along, across = (
        np.where(along_x, extent[:, 0], extent[:, 1]),
        np.where(along_x, extent[:, 1], extent[:, 0]),
    )
    # an upright tile's box is 1.3-1.5 times as long across as along; a sideways one's is square or
    # long along. The angle alone is a guess for faces that look the same turned (1p, 4p, 5p, haku)
    tall = across >= TALL_RATIO * along
    return TableView(
        edge=edge,
        zone=zone,
        u=u[pick, cols].astype(np.float32),
        v=v[pick, cols].astype(np.float32),
        class_ids=detections.class_ids,
        sideways=sideways,
        face_up=detections.face_up,
        confidence=detections.confidence,
        tall=tall,
    )
