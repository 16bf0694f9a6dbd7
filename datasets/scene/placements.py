"""Tile placements on the table plane: struct of arrays, millimetres, origin at the table centre.

Image convention (DESIGN.md): seat 0 at the bottom edge, 1 right, 2 top, 3 left. A seat's local
frame has ``u`` to the player's right and ``v`` from the centre toward the player; seat ``s``'s
frame is seat 0's turned 90 degrees counterclockwise (as seen from above) ``s`` times.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# what the camera sees of a tile
FACE_UP, FACE_DOWN, STANDING = 0, 1, 2
ZONES = ("hand", "wall", "dead_wall", "river", "meld", "dora", "flower", "held")


@dataclass
class Placements:
    """N tiles. ``x, y`` centre (mm, y toward the bottom of the image), ``w, h`` footprint before
    rotation (w across the tile, h along it), ``angle`` degrees counterclockwise of the tile's top
    from image-up, ``look`` FACE_UP / FACE_DOWN / STANDING, ``code`` the tile, ``seat``, ``zone`` index
    into ZONES, ``lift`` height of the tile's top above the felt (mm; walls are two high)."""

    x: list[float] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    w: list[float] = field(default_factory=list)
    h: list[float] = field(default_factory=list)
    angle: list[float] = field(default_factory=list)
    look: list[int] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    seat: list[int] = field(default_factory=list)
    zone: list[int] = field(default_factory=list)
    lift: list[float] = field(default_factory=list)

    def add(
        self,
        seat: int,
        u: float,
        v: float,
        w: float,
        h: float,
        turn: float,
        look: int,
        code: str,
        zone: str,
        lift: float = 0.0,
    ) -> None:
        """Add a tile given in ``seat``'s local frame; ``turn`` is its extra counterclockwise turn."""
        x, y = to_table(seat, u, v)
        self.x.append(x)
        self.y.append(y)
        self.w.append(w)
        self.h.append(h)
        self.angle.append((90.0 * seat + turn) % 360.0)
        self.look.append(look)
        self.code.append(code)
        self.seat.append(seat)
        self.zone.append(ZONES.index(zone))
        self.lift.append(lift)

    def __len__(self) -> int:
        return len(self.x)

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "x": np.asarray(self.x, np.float32),
            "y": np.asarray(self.y, np.float32),
            "w": np.asarray(self.w, np.float32),
            "h": np.asarray(self.h, np.float32),
            "angle": np.asarray(self.angle, np.float32),
            "look": np.asarray(self.look, np.int8),
            "seat": np.asarray(self.seat, np.int8),
            "zone": np.asarray(self.zone, np.int8),
            "lift": np.asarray(self.lift, np.float32),
        }

    def corners(self) -> np.ndarray:
        """(N, 4, 2) footprint corners on the table plane, mm."""
        a = self.arrays()
        rad = np.deg2rad(a["angle"])
        # tile axes: "up" of the tile face and "right"; image y grows downward
        up = np.stack([-np.sin(rad), -np.cos(rad)], axis=1)
        right = np.stack([np.cos(rad), -np.sin(rad)], axis=1)
        hw = (a["w"] / 2)[:, None]
        hh = (a["h"] / 2)[:, None]
        c = np.stack([a["x"], a["y"]], axis=1)
        return np.stack(
            [
                c - right * hw + up * hh,
                c + right * hw + up * hh,
                c + right * hw - up * hh,
                c - right * hw - up * hh,
            ],
            axis=1,
        )


def to_table(seat: int, u: float, v: float) -> tuple[float, float]:
    """Seat-local (u right, v toward the player) to table (x right, y down) in mm."""
    x, y = u, v
    for _ in range(seat % 4):
        x, y = y, -x  # a quarter turn counterclockwise as seen from above
    return x, y
