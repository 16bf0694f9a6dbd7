"""Dora indicators read from the walls (tracker.read_dora): votes over the kyoku, corrections,
indicators confirmed on reads in a row, one let go for a kan never read."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from datasets.scene import table_layout as tl
from tests.tracker.test_tracker_events import _Script, _table, _view
from tracker.events import apply_retractions
from tracker.zones import HAND, RIVER, WALL

FIRST = (0, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "1m", False)


def _wall_tile(u: float, code: str) -> tuple:
    return (3, WALL, u, tl.WALL_V, code, False)


def _deal(indicator: str = "7p", extra=()) -> list:
    """``_table`` with its indicator (edge 3, u 150) read as ``indicator``."""
    rows = [r for r in _table() if r[1] != WALL or r[4] == "back"] + [_wall_tile(150.0, indicator)]
    return rows + list(extra)


def _play(s: _Script, frames, indicator: str = "7p", extra=()) -> None:
    for f in frames:
        s.read(_deal(indicator, [FIRST, *extra]), f)


def _started(indicator: str = "7p", extra_first_read=()) -> _Script:
    s = _Script()
    s.read(_deal(indicator, extra_first_read), 1)
    _play(s, (2, 3), indicator, [_wall_tile(176.0, "back")] if extra_first_read else [])
    assert [e.type for e in s.events][:2] == ["start_game", "start_kyoku"]
    return s


def _doras(s: _Script) -> list[tuple[str, int]]:
    return [(e.dora_marker, e.frame) for e in apply_retractions(s.events) if e.type == "dora"]


def test_a_first_indicator_misread_at_the_deal_is_corrected_by_later_reads():
    s = _started("4p")  # the far edge of a low camera: the first reads are wrong
    assert s.events[1].dora_marker == "4p"
    _play(s, range(10, 18), "8s")
    fix = [e for e in s.events if e.type == "retract"]
    assert [(e.target_type, e.target_frame, e.pai) for e in fix] == [("start_kyoku", 1, "8s")]
    start = next(e for e in apply_retractions(s.events) if e.type == "start_kyoku")
    assert start.dora_marker == "8s"


def test_a_few_contrary_reads_do_not_overturn_an_indicator():
    s = _started("7p")
    _play(s, range(10, 13), "8s")  # three reads against three: not clearly overturned
    assert not [e for e in s.events if e.type == "retract"]


def test_a_new_indicator_read_unknown_first_is_corrected():
    s = _started()
    s.tracker.kyoku.kans += 1  # the meld reader read a kan
    _play(s, (20, 21), extra=[_wall_tile(176.0, "flower1")])  # no flowers under M-League: "?"
    assert _doras(s) == [("?", 21)]
    _play(s, (30, 31, 32), extra=[_wall_tile(176.0, "flower1")])
    _play(s, (40,), extra=[_wall_tile(176.0, "N")])  # one read of a known face is worth more
    assert _doras(s) == [("N", 21)]


def test_a_wall_tile_misread_face_up_once_is_no_indicator():
    s = _started()
    _play(s, (20,), extra=[_wall_tile(176.0, "3m")])
    _play(s, range(21, 200, 10), extra=[_wall_tile(176.0, "back")])
    assert _doras(s) == []


def test_a_place_misread_face_up_at_the_deal_still_takes_a_kan_indicator():
    # a wall tile read face up on the deal's first read (then a back) is where the kan's
    # indicator is later turned: it is read, not taken for the tile seen before
    s = _started(extra_first_read=[_wall_tile(176.0, "3m")])
    assert s.events[1].dora_marker == "7p"
    s.tracker.kyoku.kans += 1
    _play(s, (20, 21), extra=[_wall_tile(176.0, "2m")])
    assert _doras(s) == [("2m", 21)]


def test_an_indicator_let_go_for_a_kan_never_read_leaves_the_next_kan_its_own():
    s = _started()
    first_kan = [_wall_tile(176.0, "1m")]
    _play(s, (20, 21, 60, 100, 120), extra=first_kan)  # its kan was never read: let go by time
    assert _doras(s) == [("1m", 120)]
    s.tracker.kyoku.kans += 1  # the next kan is read, then its indicator
    both = [*first_kan, _wall_tile(202.0, "5m")]
    _play(s, (130, 131), extra=both)
    assert _doras(s) == [("1m", 120), ("5m", 131)]  # at once, not a wait later


def test_a_face_read_barely_sure_in_the_wall_is_not_read():
    # a back beside the indicator boxed again as a face, at 0.05-0.08 (hanchan-jansou-1): it was
    # confirmed on two reads and let go as a dora with no kan
    s = _started()
    for f in (20, 21, 30, 60, 100, 140):
        rows = _deal("7p", [FIRST, _wall_tile(179.0, "6m")])
        view = _view(rows)
        view = replace(view, confidence=np.where(view.u == 179.0, 0.06, 1.0).astype(np.float32))
        s.events += s.tracker._emit(s.tracker._observe(view, f, f / 30), f, f / 30).events
    assert _doras(s) == []


def test_an_indicator_still_waiting_for_its_kan_when_a_hand_is_laid_open_is_this_kyokus():
    # set 8 t6-suukantsu_0: the fourth kan was read as a pon, so its indicator waited for a kan
    # until the win 107 frames later, and the kyoku closed without it
    from tests.tracker.test_tracker_events import _open_hand

    s = _started()
    turned = [_wall_tile(176.0, "3m")]
    _play(s, (20, 21, 40), extra=turned)
    assert _doras(s) == []  # waiting for a kan
    won = [r for r in _deal("7p", [FIRST, *turned]) if not (r[0] == 2 and r[1] == HAND)]
    won += _open_hand(2, "123m456p789s11z999s")
    s.read(won, 60)
    record = [e.type for e in apply_retractions(s.events) if e.type in ("dora", "hora", "ryukyoku")]
    assert _doras(s) == [("3m", 60)]
    assert record[0] == "dora" and len(record) == 2  # turned before the hands: dora, then the result


def test_a_face_boxed_sideways_in_the_wall_is_no_indicator():
    # set 10 hanchan-jansou-0 1944 (low camera): the far wall's end boxed as a sideways 3m on
    # seven reads was let go as a dora with no kan; an indicator lies as the wall's tiles do
    s = _started()
    sideways = (3, WALL, 179.0, tl.WALL_V, "3m", True)
    _play(s, (20, 21, 30, 60, 100, 140), extra=[sideways])
    assert _doras(s) == []
    _play(s, (150, 151, 200, 250), extra=[_wall_tile(179.0, "3m")])  # turned over as it lay
    assert _doras(s) == [("3m", 250)]
