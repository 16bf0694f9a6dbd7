"""tracker.readings: picking a tile from votes, one detection per river tile."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.readings import TILE_H, TILE_W, one_per_place, one_per_tile, pick_code
from tracker.tiles import class_id, parse
from tracker.zones import MELD, RIVER, TableView


def test_a_five_read_red_and_plain_equally_is_a_plain_five():
    for plain, red in zip(parse("5m5p5s"), parse("0m0p0s")):
        assert pick_code(Counter({red: 1.0, plain: 1.0})) == plain
        assert pick_code(Counter({plain: 1.0, red: 1.0})) == plain  # whichever was seen first
        assert pick_code(Counter({plain: 1.0, red: 2.0})) == red  # seen red more: red (MCR too)


def test_the_kind_is_chosen_on_both_fives_votes():
    # 5m seen 0.4 + red 0.5 = 0.9 of "a five of characters" beats 0.6 of 3m; the red face had more
    assert pick_code(Counter({"3m": 0.6, "5m": 0.4, "5mr": 0.5})) == "5mr"
    assert pick_code(Counter({"3m": 1.0, "5m": 0.4, "5mr": 0.5})) == "3m"


def test_unknown_only_when_nothing_is_known_and_ties_go_to_the_first_seen():
    assert pick_code(Counter()) == "?"
    assert pick_code(Counter({"?": 3.0})) == "?"
    assert pick_code(Counter({"?": 3.0, "E": 0.1})) == "E"
    assert pick_code(Counter({"9p": 1.0, "1p": 1.0})) == "9p"
    assert pick_code(Counter({"1p": 1.0, "9p": 1.0})) == "1p"


def _river(rows: list[tuple[float, float, str, bool, float]]) -> TableView:
    """(u, v, code, sideways, confidence) rows of edge 0's river."""
    n = len(rows)
    return TableView(
        edge=np.zeros(n, np.int8),
        zone=np.full(n, RIVER, np.int8),
        u=np.array([r[0] for r in rows], np.float32),
        v=np.array([r[1] for r in rows], np.float32),
        class_ids=np.array([class_id(r[2]) for r in rows], np.int64),
        sideways=np.array([r[3] for r in rows], bool),
        face_up=np.ones(n, bool),
        confidence=np.array([r[4] for r in rows], np.float32),
        tall=~np.array([r[3] for r in rows], bool),
    )


def test_a_tile_boxed_twice_is_one_tile_whose_orientation_is_unknown():
    # 6p sideways read as two upright tiles 14 mm apart; its neighbours a tile's width away stay
    row = [
        (-47.0, 276.0, "9s", False, 0.5),
        (-25.0, 280.0, "6p", False, 0.2),
        (-11.0, 280.0, "6p", False, 0.5),
    ]
    row += [(-11.0 + TILE_W + 5, 278.0, "E", False, 0.9)]
    tiles, doubled = one_per_tile(_river(row))
    assert len(tiles) == 3
    assert tiles.u.tolist() == [-47.0, -18.0, 20.0]
    assert doubled.tolist() == [False, True, False]
    assert tiles.confidence[1] == np.float32(0.5)  # the surer of the pair
    # tiles in two rows at the same u are two tiles; so are neighbours 26 mm apart
    tiles, doubled = one_per_tile(_river([(0.0, 280.0, "1m", False, 1.0), (0.0, 244.0, "2m", False, 1.0)]))
    assert len(tiles) == 2 and not doubled.any()
    tiles, doubled = one_per_tile(_river([(0.0, 280.0, "1m", False, 1.0), (TILE_W, 280.0, "2m", False, 1.0)]))
    assert len(tiles) == 2 and not doubled.any()
    # a neighbour boxed off-centre (18 mm from the tile beside it) is still a tile of its own
    tiles, doubled = one_per_tile(_river([(0.0, 280.0, "1m", False, 0.9), (18.0, 280.0, "2m", False, 0.3)]))
    assert len(tiles) == 2 and not doubled.any()


def test_a_tile_boxed_again_with_its_own_face_up_to_0_7_of_a_tile_on_is_one_tile():
    # set 8 hanchan-jansou-mleague-hanchan 22901: a 4s boxed again 16 mm on at 0.25 was read as
    # a discard out of turn (then a false 先摸); another face that near is a discard of its own
    tiles, doubled = one_per_tile(_river([(0.0, 280.0, "4s", False, 0.32), (16.0, 280.0, "4s", False, 0.25)]))
    assert len(tiles) == 1 and doubled.tolist() == [True]
    tiles, doubled = one_per_tile(_river([(0.0, 280.0, "4s", False, 0.32), (16.0, 280.0, "W", False, 0.25)]))
    assert len(tiles) == 2 and not doubled.any()
    # two of one face discarded side by side stay two, even measured short of a tile's width apart
    # (set 8 hanchan-jansou-0 10729, a low camera: a 2s, and a 4s read 2s 19.2 mm on)
    tiles, doubled = one_per_tile(_river([(0.0, 280.0, "2s", False, 0.8), (19.2, 280.0, "2s", False, 0.56)]))
    assert len(tiles) == 2 and not doubled.any()


def _meld_row(rows: list[tuple[float, float, str, bool, float]]) -> TableView:
    return replace(_river(rows), zone=np.full(len(rows), MELD, np.int8))


def test_a_meld_area_keeps_one_detection_per_place():
    # a chi laid left to right: sideways 6p, 4p, 5p (30.5 then 26 mm apart) all stay
    chi = [
        (306.0, 394.0, "6p", True, 0.6),
        (336.5, 385.0, "4p", False, 0.4),
        (362.5, 385.0, "5p", False, 0.8),
    ]
    assert one_per_place(_meld_row(chi)).u.tolist() == [306.0, 336.5, 362.5]
    # a box straddling two tiles, or a tile boxed again a few mm off, is dropped for the surer one
    extra = chi + [(350.0, 385.0, "5p", True, 0.5), (339.0, 398.0, "2p", False, 0.2)]
    kept = one_per_place(_meld_row(extra))
    assert kept.u.tolist() == [306.0, 336.5, 362.5] and kept.confidence.tolist() == pytest.approx(
        [0.6, 0.4, 0.8]
    )
    # a kakan's added tile lies a tile's width toward the centre of its sideways tile: kept
    added = chi + [(306.0, 394.0 - TILE_W, "6p", True, 0.3)]
    assert len(one_per_place(_meld_row(added))) == 4
    # a sideways tile's place is its long side: an upright tile within it is the same place
    assert (
        len(one_per_place(_meld_row([(0.0, 390.0, "1m", True, 0.9), (TILE_H / 2, 385.0, "1m", False, 0.5)])))
        == 1
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 200), st.floats(370, 400), st.booleans(), st.floats(0.01, 1.0, allow_subnormal=False)
        ),
        min_size=0,
        max_size=12,
        unique_by=lambda r: r[3],
    )
)
def test_one_per_place_keeps_what_a_greedy_pick_by_confidence_keeps(rows):
    """The whole-array passes give the surest-first pick: each tile kept unless a kept surer one
    takes its place."""
    row = _meld_row([(u, v, "1m", side, conf) for u, v, side, conf in rows])
    half = np.where(row.sideways, TILE_H, TILE_W) / 2.0
    kept: list[int] = []
    for i in np.argsort(-row.confidence, kind="stable").tolist():
        clash = [
            min(row.u[i] + half[i], row.u[j] + half[j]) - max(row.u[i] - half[i], row.u[j] - half[j])
            > 0.4 * 2 * min(half[i], half[j])
            and abs(row.v[i] - row.v[j]) < 0.6 * TILE_W
            for j in kept
        ]
        if not any(clash):
            kept.append(i)
    got = one_per_place(row)
    assert sorted(got.confidence.tolist()) == sorted(row.confidence[kept].tolist())
