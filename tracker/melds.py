"""New meld tiles: which are certain, and which of them make up which meld.

A seat's melds lie in one row from its right corner leftward, a few mm apart, so new melds cannot
be told apart by gaps: a player making several kans in a row (the arm over the meld area between
the tracker's reads) adds a daiminkan, a kakan's tile and an ankan before the next clean read.
Each new tile therefore counts once it has been seen at the same place on two reads in a row, and
the certain ones are cut into melds from the right (the oldest first) by what they are: four with
two backs (an ankan) or four face up of one kind (a daiminkan), else three.
"""

from __future__ import annotations

import numpy as np

from tracker import tiles
from tracker.readings import TILE_H, TILE_W
from tracker.table import layout


def seen_before(u: np.ndarray, v: np.ndarray, previous: np.ndarray, match_mm: float) -> np.ndarray:
    """(N,) bool: which tiles at ``u``, ``v`` (mm) lay within ``match_mm`` of one of ``previous``
    ((M, 2) u, v of the new tiles of the read before)."""
    if not len(u) or not len(previous):
        return np.zeros(len(u), bool)
    d = np.hypot(u[:, None] - previous[None, :, 0], v[:, None] - previous[None, :, 1])
    return d.min(axis=1) < match_mm


def first_sighting(u: np.ndarray, v: np.ndarray, glimpses: np.ndarray, match_mm: float) -> np.ndarray:
    """(N,) frame each tile at ``u``, ``v`` was first in view, from ``glimpses`` ((M, 3) u, v,
    frame); tiles never glimpsed get +inf (after every glimpsed one)."""
    out = np.full(len(u), np.inf)
    if not len(u) or not len(glimpses):
        return out
    d = np.hypot(u[:, None] - glimpses[None, :, 0], v[:, None] - glimpses[None, :, 1])
    near = d < match_mm
    frames = np.where(near, glimpses[None, :, 2], np.inf)
    return frames.min(axis=1)


# centres 26 mm apart between upright tiles, 30.5 beside a sideways one (its long side along the row)
WIDE_GAP_MM = (TILE_W + (TILE_W + TILE_H) / 2) / 2


def sideways_by_spacing(u: np.ndarray) -> list[int]:
    """The sideways tile of a call's laid tiles (``u`` mm, left to right) told by their spacing,
    where no tile was seen turned: the gaps each side of it are wider. [] if the gaps fit no one
    tile (none wider, or a pattern no single sideways tile makes)."""
    if len(u) < 3:
        return []
    wide = np.diff(np.sort(np.asarray(u, np.float64))) > WIDE_GAP_MM
    for i in range(len(u)):
        want = np.zeros(len(u) - 1, bool)
        want[max(i - 1, 0) : i + 1] = True
        if np.array_equal(wide, want):
            return [i]
    return []


# a sideways tile lies with its long side along the row and its edge on the row's player-side
# line, so its centre sits (TILE_H - TILE_W) / 2 = 4.5 mm nearer its player than an upright one's
_DEEPER_MM = 3.0
_LEVEL_MM = 2.0  # the upright tiles' centres agree this closely


def sideways_by_depth(v: np.ndarray) -> list[int]:
    """The sideways tile of a call's laid tiles (``v`` mm, depth toward their player) told by
    where it lies: the one tile whose centre is ``_DEEPER_MM`` nearer the player than every
    other, these level with each other. [] if no one tile is (all level: laid upright)."""
    v = np.asarray(v, np.float64)
    if len(v) < 3:
        return []
    deepest = int(np.argmax(v))
    rest = np.delete(v, deepest)
    if v[deepest] - rest.max() >= _DEEPER_MM and np.ptp(rest) <= _LEVEL_MM:
        return [deepest]
    return []


def sideways_by_place(u: np.ndarray, v: np.ndarray) -> list[int]:
    """The sideways tile of a call's laid tiles (``u``, ``v`` mm) where the detector saw none
    turned: the one lying deeper than the others (``sideways_by_depth``), else the one with the
    wider gaps beside it if it is also the deepest. The gaps alone named a wrong tile in 26 of
    the 140 calls they named one, the depth in 3 of 90, both together in 3 of 127 (first reads
    of the calls of the second evaluation set, docs/BENCHMARKS.md)."""
    deep = sideways_by_depth(v)
    if deep:
        return deep
    wide = sideways_by_spacing(u)
    return wide if wide and wide[0] == int(np.argmax(v)) else []


def _kind(code: str) -> str:
    return tiles.deaka(code)


def meld_size(codes: list[str], backs: list[bool]) -> int:
    """How many of ``codes`` (right to left, the next meld's tiles first) one meld takes."""
    if len(codes) >= 4:
        four, down = codes[:4], backs[:4]
        up = {_kind(c) for c, b in zip(four, down) if not b and c != tiles.UNKNOWN}
        if len(up) <= 1 and (sum(down) == 2 or not any(down)):
            return 4  # an ankan (two face down) or a daiminkan (four of a kind)
    return min(3, len(codes))


def ready_melds(codes: list[str], backs: list[bool], certain: list[bool]) -> list[list[int]]:
    """Indices (into the inputs, ordered right to left as the tiles lie) of the melds that can be
    read now. Only a run of certain tiles from the right counts; a meld of three of a kind whose
    next tile, not certain yet, is a fourth of that kind waits (a daiminkan still being laid).
    Two tiles are returned only when they are all there is and certain (a call whose third tile
    the detector missed: the caller decides); a lone tile waits."""
    run = next((i for i, c in enumerate(certain) if not c), len(codes))
    out: list[list[int]] = []
    i = 0
    while i < run:
        size = meld_size(codes[i:run], backs[i:run])
        group = list(range(i, i + size))
        if size == 3 and run < len(codes):
            kinds = {_kind(codes[j]) for j in group}
            if len(kinds) == 1 and _kind(codes[run]) in kinds:
                break
        if size < 3:
            if size == 2 and not out and run == len(codes):
                out.append(group)
            break
        out.append(group)
        i += size
    return out


def sure_pon(codes: list[str], pai: str) -> bool:
    """A call that can only be a pon (or a daiminkan) of ``pai``: an honour, or its kind read twice."""
    known = pai != tiles.UNKNOWN
    return known and (tiles.is_honor(pai) or sum(tiles.deaka(c) == tiles.deaka(pai) for c in codes) >= 2)


def declared(pai: str, consumed: list[str]) -> list[str]:
    """The own tiles of a call that can only be a pon (or a daiminkan) of ``pai``, as the record
    declares them: the called kind (a tile laid wrong, 错碰, or unread is that kind in the record;
    the layout, ``laid``, keeps what was seen and the rules checker judges it). Red fives read as
    such stay red."""
    if pai == tiles.UNKNOWN:
        return consumed
    kind = tiles.deaka(pai)
    return [c if c != tiles.UNKNOWN and tiles.deaka(c) == kind else kind for c in consumed]


def run_completions(known: list[str]) -> list[str]:
    """The tiles that make a run with the two ``known`` ones (two kinds of one suit, 1 or 2
    apart: 1m 3m -> 2m; 5m 6m -> 4m, 7m; 8s 9s -> 7s), else none."""
    suits = {tiles.suit(c) for c in known}
    if len(known) != 2 or len(suits) != 1 or not suits <= set(tiles.SUITS):
        return []
    suit = suits.pop()
    lo, hi = sorted(tiles.number(c) for c in known)
    if hi - lo == 2:
        return [f"{lo + 1}{suit}"]
    if hi - lo == 1:
        return [f"{n}{suit}" for n in (lo - 1, hi + 1) if 1 <= n <= 9]
    return []


def completed_run(pai: str, consumed: list[str]) -> list[str]:
    """A chi's own tiles as the record declares them: one left unread (``?``) is named when the
    two read can be completed to a run one way only (``run_completions``), as a chi's tiles must
    be. The layout (``laid``) keeps the tile unread: the rules checker judges what was seen."""
    known = [c for c in (pai, *consumed) if c != tiles.UNKNOWN]
    ways = run_completions(known) if consumed.count(tiles.UNKNOWN) == 1 else []
    if len(ways) != 1:
        return consumed
    return [ways[0] if c == tiles.UNKNOWN else c for c in consumed]


def declared_own_tiles(
    kind: str, pai: str, consumed: list[str], sure_pon: bool, chi_possible: bool = True
) -> list[str]:
    """A call's own tiles as the record declares them from those laid: a pon sure of its kind,
    that kind (``declared``); a chi, its run completed (``completed_run``); a pon from a seat no
    chi comes from (not the caller's kamicha) or a daiminkan with none of its own tiles read, or
    all read and no two alike, the called kind (nothing else it can declare: "7m ? ?" and
    "1m 7m 8m" from toimen are pons of 7m; "? 7m 8m" stays as read, a tile unread beside one
    misread or laid wrong: ``invalid_meld`` judges only a meld read whole, and the layout keeps
    what was seen); else as read."""
    if kind == "chi":
        return completed_run(pai, consumed)
    if sure_pon:
        return declared(pai, consumed)
    unread = all(c == tiles.UNKNOWN for c in consumed)
    only_a_pon = pai != tiles.UNKNOWN and (kind == "daiminkan" or not chi_possible)
    if only_a_pon and unread:
        return [tiles.deaka(pai)] * len(consumed)
    kinds = {tiles.deaka(c) for c in consumed}
    if only_a_pon and tiles.UNKNOWN not in kinds and len(kinds) == len(consumed):
        # every own tile read, no two alike: at most one is the called kind, the others misread
        # or laid wrong (t6-double_kakan_then_chankan, low camera: a pon of 2m from shimocha read
        # 1m 2m 3m). Two alike of another kind would name the pon themselves: kept as read
        return declared(pai, consumed)
    return consumed


def chi_from(edge: int, source_edge: int) -> bool:
    """Can the seat at ``edge`` chi a discard of the seat at ``source_edge``: is it its kamicha
    (the seat before it in turn)? Edges go round the table in turn order, as seats do."""
    return layout.relative(edge, source_edge) == layout.KAMICHA
