"""Where every tile of a TableState lies on the table plane (mm), per DESIGN.md's physical layout.

From each player toward the centre: standing hand, melds at the right, wall (two high), river
(6 a row, left to right as the player sees it, rows going toward the centre), riichi stick.
``Staging`` carries what a faults file changes on the table (a misplaced discard, a wrongly laid
meld, a hand with a tile too many) so the camera sees the irregularity.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from datasets.scene.placements import FACE_DOWN, FACE_UP, STANDING, Placements
from datasets.scene.wall import WallModel
from tracker import tiles
from tracker.table.state import TableState

TILE_W, TILE_H, TILE_T = 26.0, 35.0, 20.0  # face width, face height, thickness (mm)
TABLE_HALF = 480.0  # half the playing surface
PANEL_HALF = 100.0  # the automatic table's centre panel
RIVER_LEFT, RIVER_ROW0_V = -78.0, 272.0
WALL_V = 318.0
MELD_V = 385.0
MELD_RIGHT = 466.0
HAND_V, HAND_LEFT, DRAWN_GAP = 432.0, -250.0, 9.0
STICK_V = 105.0
STICK = "stick"  # not a tile: the painter draws a riichi stick, truth leaves it out


@dataclass
class Staging:
    """Physical deviations from the rules, keyed by (seat, river index) / (seat, meld index)."""

    # row, col, sideways (None: as the rules have it)
    river: dict[tuple[int, int], tuple[int, int, bool | None]] = field(default_factory=dict)
    melds: dict[tuple[int, int], tuple[list[str], list[int]]] = field(default_factory=dict)  # tiles, sideways
    hand_delta: dict[int, int] = field(default_factory=dict)  # in force now
    hand_delta_from: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (event index, delta)
    open_hands: dict[int, list[str]] = field(default_factory=dict)  # laid face up at the end
    riichi_sticks: set[int] = field(default_factory=set)
    # tiles picked up and in a hand's grip, not on the table: seat -> hand tile code / river index
    lifted_hand: dict[int, str] = field(default_factory=dict)
    # seats whose lifted tile is a copy from the row although the drawn tile has the same code
    # (a tedashi of a tile matching the draw: the drawn tile stays set apart)
    lifted_from_row: set[int] = field(default_factory=set)
    lifted_river: set[tuple[int, int]] = field(default_factory=set)


def place_table(
    state: TableState,
    wall: WallModel,
    staging: Staging,
    rng: np.random.Generator | None = None,
    jitter: float = 0.0,
) -> Placements:
    """All tiles on the table; ``jitter`` (mm / degrees scale) shifts them as real hands leave them."""
    out = Placements()
    _place_wall(out, wall, state)
    for s, seat in enumerate(state.seats):
        _place_river(out, s, seat.river, staging, seat.riichi_accepted or s in staging.riichi_sticks)
        right_edge = _place_melds(out, s, seat.melds, staging)
        if s in staging.open_hands:
            _place_open_hand(out, s, staging.open_hands[s])
        else:
            hand, drawn = list(seat.hand), seat.drawn
            lifted = staging.lifted_hand.get(s)
            if lifted is not None:
                if drawn == lifted and s not in staging.lifted_from_row:
                    drawn = None
                if lifted in hand:
                    hand.remove(lifted)
            count = len(hand) + staging.hand_delta.get(s, 0)
            _place_hand(out, s, hand, drawn, count, right_edge)
        for k, code in enumerate(seat.flowers):
            out.add(s, HAND_LEFT + TILE_W * (k + 0.5), MELD_V, TILE_W, TILE_H, 0.0, FACE_UP, code, "flower")
    if rng is not None and jitter > 0 and len(out):
        n = len(out)
        # river and meld tiles are put down by hand: they wander a little, walls stay square
        loose = np.isin(np.asarray(out.zone), [3, 4])
        dx = rng.normal(0, jitter, n) * loose
        dy = rng.normal(0, jitter, n) * loose
        da = rng.normal(0, jitter * 1.5, n) * loose
        out.x = list(np.asarray(out.x) + dx)
        out.y = list(np.asarray(out.y) + dy)
        out.angle = list(np.asarray(out.angle) + da)
    return out


def _place_wall(out: Placements, wall: WallModel, state: TableState) -> None:
    k_up = 0
    for stack in range(wall.total):
        seat, slot = wall.stack_position(stack)
        u = (wall.per_side / 2 - 0.5 - slot) * TILE_W
        zone = "dead_wall" if wall.is_dead(stack) else "wall"
        if wall.top[stack]:
            if wall.face_up_top[stack]:
                k = _indicator_index(wall, stack)
                code = state.dora_indicators[k] if k < len(state.dora_indicators) else "?"
                out.add(seat, u, WALL_V, TILE_W, TILE_H, 0.0, FACE_UP, code, "dora", lift=2 * TILE_T)
                k_up += 1
            else:
                out.add(seat, u, WALL_V, TILE_W, TILE_H, 0.0, FACE_DOWN, "back", zone, lift=2 * TILE_T)
        elif wall.bottom[stack]:
            out.add(seat, u, WALL_V, TILE_W, TILE_H, 0.0, FACE_DOWN, "back", zone, lift=TILE_T)


def _indicator_index(wall: WallModel, stack: int) -> int:
    return (wall.start - 3 - stack) % wall.total


def river_slot_centre(row: int, col: int, sideways: bool, shift: float) -> tuple[float, float]:
    """Local (u, v) of a river tile; ``shift`` is the extra width of sideways tiles before it."""
    width = TILE_H if sideways else TILE_W
    u = RIVER_LEFT + col * TILE_W + shift + width / 2
    v = RIVER_ROW0_V - row * TILE_H + ((TILE_H - TILE_W) / 2 if sideways else 0.0)
    return u, v


def _place_river(out: Placements, s: int, river: list, staging: Staging, stick: bool) -> None:
    shift_by_row: dict[int, float] = {}
    for index, slot in enumerate(river):
        if slot.called_away or (s, index) in staging.lifted_river:
            continue
        row, col, sideways = staging.river.get((s, index), (slot.row, slot.col, slot.sideways))
        if sideways is None:
            sideways = slot.sideways
        shift = shift_by_row.get(row, 0.0)
        u, v = river_slot_centre(row, col, sideways, shift)
        if sideways:
            shift_by_row[row] = shift + (TILE_H - TILE_W)
        out.add(s, u, v, TILE_W, TILE_H, 90.0 if sideways else 0.0, FACE_UP, slot.code, "river")
    if stick:  # the 1000-point stick lies across, between the river and the centre panel
        out.add(s, 0.0, STICK_V, 8.0, 90.0, 90.0, FACE_UP, STICK, "river")


def _place_melds(out: Placements, s: int, melds: list, staging: Staging) -> float:
    """Lay melds from the right corner leftward; return the u of the leftmost meld edge."""
    cursor = MELD_RIGHT
    for m_index, meld in enumerate(melds):
        tiles_lr, sideways = list(meld.tiles), ([meld.sideways] if meld.sideways is not None else [])
        if (s, m_index) in staging.melds:
            tiles_lr, sideways = staging.melds[(s, m_index)]
        for i in range(len(tiles_lr) - 1, -1, -1):
            code = tiles_lr[i]
            side = i in sideways
            width = TILE_H if side else TILE_W
            u = cursor - width / 2
            down = i in meld.face_down
            if side:
                v = MELD_V + (TILE_H - TILE_W) / 2
                out.add(s, u, v, TILE_W, TILE_H, 90.0, FACE_UP, code, "meld")
                if meld.added is not None:
                    out.add(s, u, v - TILE_W, TILE_W, TILE_H, 90.0, FACE_UP, meld.added, "meld")
            else:
                out.add(
                    s,
                    u,
                    MELD_V,
                    TILE_W,
                    TILE_H,
                    0.0,
                    FACE_DOWN if down else FACE_UP,
                    "back" if down else code,
                    "meld",
                )
            cursor -= width
        cursor -= 5.0
    return cursor


def _place_hand(
    out: Placements, s: int, hand: list[str], drawn: str | None, count: int, right_edge: float
) -> None:
    """Standing tiles: the sorted hand from the left, the drawn tile set apart at the right."""
    rest = list(hand)
    if drawn is not None and drawn in rest:
        rest.remove(drawn)
    ordered = tiles.sorted_codes(rest)
    n_main = count - (1 if drawn is not None else 0)
    if n_main < 0:
        drawn, n_main = None, 0
    u = HAND_LEFT
    for i in range(max(n_main, 0)):
        code = ordered[i] if i < len(ordered) else "?"
        out.add(s, u + TILE_W / 2, HAND_V, TILE_W, TILE_T, 0.0, STANDING, code, "hand", lift=TILE_H)
        u += TILE_W
    if drawn is not None:
        u += DRAWN_GAP
        out.add(s, u + TILE_W / 2, HAND_V, TILE_W, TILE_T, 0.0, STANDING, drawn, "hand", lift=TILE_H)


def hand_tile_u(index: int, drawn: bool = False, n_main: int = 0) -> float:
    """Local u of the index-th standing tile (or of the drawn tile after ``n_main`` tiles)."""
    if drawn:
        return HAND_LEFT + n_main * TILE_W + DRAWN_GAP + TILE_W / 2
    return HAND_LEFT + index * TILE_W + TILE_W / 2


def _place_open_hand(out: Placements, s: int, codes: list[str]) -> None:
    u = HAND_LEFT
    for code in codes:
        out.add(s, u + TILE_W / 2, HAND_V - 6.0, TILE_W, TILE_H, 0.0, FACE_UP, code, "hand")
        u += TILE_W
