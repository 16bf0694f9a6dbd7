"""TableTracker's event logic on scripted table readings (no video): discards need two sightings,
the first discard names the dealer, a stray tile that vanishes is retracted, a call takes the
last discard with its laid-out placement."""

from __future__ import annotations

import numpy as np

from datasets.scene import table_layout as tl
from tracker.tiles import class_id
from tracker.tracker import TableTracker, TrackerConfig, drawn_apart
from tracker.zones import HAND, MELD, RIVER, WALL, TableView
from vision.calibration import Calibration

CAL = Calibration(width=1280, height=720, homography=[[0.6, 0, 640], [0, 0.6, 360], [0, 0, 1]])


def _view(tiles: list[tuple[int, int, float, float, str, bool]]) -> TableView:
    """(edge, zone, u, v, code, sideways) rows -> a TableView."""
    ids = np.array([class_id(t[4]) for t in tiles], np.int64)
    return TableView(
        edge=np.array([t[0] for t in tiles], np.int8),
        zone=np.array([t[1] for t in tiles], np.int8),
        u=np.array([t[2] for t in tiles], np.float32),
        v=np.array([t[3] for t in tiles], np.float32),
        class_ids=ids,
        sideways=np.array([t[5] for t in tiles], bool),
        face_up=~np.isin(ids, [class_id("back"), class_id("standing")]),
        confidence=np.ones(len(tiles), np.float32),
    )


def _table(extra=()) -> list:
    """A fresh deal: 42 wall backs, a dora indicator, 13 standing tiles a seat."""
    rows = [(e, WALL, -210 + 20 * i, tl.WALL_V, "back", False) for e in range(4) for i in range(10)]
    rows += [(3, WALL, 150.0, tl.WALL_V, "7p", False)]
    rows += [(e, HAND, -250 + 26 * i, tl.HAND_V, "standing", False) for e in range(4) for i in range(13)]
    return rows + list(extra)


class _Script:
    def __init__(self) -> None:
        self.tracker = TableTracker(CAL, detector=None, config=TrackerConfig())
        self.events: list = []

    def read(self, rows: list, frame: int) -> None:
        factories = self.tracker._observe(_view(rows), frame, frame / 30)
        self.events += self.tracker._emit(factories, frame, frame / 30).events


def test_first_discard_needs_two_sightings_and_names_the_dealer():
    s = _Script()
    s.read(_table(), 10)
    assert s.events == []  # fresh walls: the kyoku waits for its dealer
    river = (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "N", False)
    s.read(_table([river]), 40)
    assert s.events == []  # seen once: not yet certain
    s.read(_table([river]), 41)
    kinds = [e.type for e in s.events]
    assert kinds == ["start_game", "start_kyoku", "tsumo", "dahai"]
    assert s.events[1].oya == 0 and s.events[1].dora_marker == "7p" and s.events[1].frame == 10
    assert s.tracker.seat0_edge == 1  # the right edge discarded first: seat 0 sits there
    dahai = s.events[3]
    assert (dahai.actor, dahai.pai, dahai.frame) == (0, "N", 41)
    assert (dahai.slot.row, dahai.slot.col, dahai.slot.sideways) == (0, 0, False)


def test_a_vanished_stray_discard_is_retracted_not_rewritten():
    s = _Script()
    first = (0, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "1m", False)
    stray = (2, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "9p", False)
    s.read(_table(), 1)
    s.read(_table([first]), 2)
    s.read(_table([first, stray]), 3)
    s.read(_table([first, stray]), 4)
    play = [e for e in s.events if e.type != "hand_count"]
    assert [e.type for e in play][-2:] == ["tsumo", "dahai"] and play[-1].pai == "9p"
    for f in range(5, 5 + 3 * TrackerConfig().retract_after):  # the last discard: a call may come
        s.read(_table([first]), f)
    retract = [e for e in s.events if e.type != "hand_count"][-1]
    assert retract.type == "retract" and retract.target_type == "dahai"
    assert (retract.target_frame, retract.actor, retract.pai) == (4, 2, None)


def test_pon_takes_the_last_discard_with_its_sideways_position():
    s = _Script()
    disc = (2, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "C", False)
    s.read(_table(), 1)
    s.read(_table([disc]), 2)
    s.read(_table([disc]), 3)
    meld = [
        (0, MELD, 390.0, tl.MELD_V, "C", False),
        (0, MELD, 416.0, tl.MELD_V, "C", False),
        (0, MELD, 448.5, tl.MELD_V + 4.5, "C", True),
    ]
    s.read(_table(meld), 4)
    s.read(_table(meld), 5)
    pon = [e for e in s.events if e.type != "hand_count"][-1]
    assert pon.type == "pon" and (pon.actor, pon.target, pon.pai) == (2, 0, "C")  # seat 0 is edge 2
    assert pon.laid.tiles == ["C", "C", "C"] and pon.laid.sideways == [2]


def test_drawn_tile_set_apart():
    hand = np.array([-250 + 26 * i for i in range(13)] + [-250 + 26 * 13 + 9], float)
    assert drawn_apart(hand)
    assert not drawn_apart(hand[:13])
    assert not drawn_apart(np.array([0.0]))


def test_call_with_a_tile_the_detector_missed_takes_it_from_the_river():
    s = _Script()
    disc = (3, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "6p", False)
    s.read(_table(), 1)
    s.read(_table([disc]), 2)
    s.read(_table([disc]), 3)  # edge 3 discards first: seat 0 sits at the left edge
    seen = [(0, MELD, 416.0, tl.MELD_V, "4p", False), (0, MELD, 442.0, tl.MELD_V, "5p", False)]
    s.read(_table(seen), 4)  # the 6p left the river; two tiles appeared at edge 0's meld place
    s.read(_table(seen), 5)
    chi = [e for e in s.events if e.type != "hand_count"][-1]
    assert chi.type == "chi" and (chi.actor, chi.target, chi.pai) == (1, 0, "6p")
    assert chi.consumed == ["4p", "5p"] and chi.laid is None  # layout not seen: not guessed


def test_a_failing_rules_checker_costs_no_event():
    s = _Script()

    def broken(event):
        raise RuntimeError("checker bug")

    s.tracker.checker.feed = broken
    disc = (0, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "1m", False)
    s.read(_table(), 1)
    s.read(_table([disc]), 2)
    s.read(_table([disc]), 3)
    assert [e.type for e in s.events] == ["start_game", "start_kyoku", "tsumo", "dahai"]
    assert any("rules checker failed" in x for x in s.tracker.state_errors)
