"""Standing-hand counts (``tracker.read_hands``): the draw of the seat whose turn it is reported
while its tile stands apart, hands counted on their own edge's stillness, a kyoku started at
its dealer's first draw. Scripted table readings, as in test_tracker_events."""

from __future__ import annotations

import numpy as np

import tracker.read_hands as read_hands
from datasets.scene import table_layout as tl
from tests.tracker.test_tracker_events import (
    _PLACES,
    _call_from_left,
    _hand,
    _open_hand,
    _rows,
    _Script,
    _started,
    _table,
    _view,
    _walls,
)
from tracker.tiles import parse
from tracker.tracker import TrackerConfig
from tracker.zones import HAND, MELD, RIVER, WALL
from vision.hand_rows import NOMINAL_PITCH_MM, ROW_OVERHANG_MM, HandRows

FIRST = (0, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "1m", False)  # the dealer's (edge 0) discard


def _counts(s: _Script, seat: int) -> list[tuple[int, int]]:
    """The seat's counts read in play (the deal's, reported at the start, left out)."""
    dated = {f for f, _, _ in s.tracker.kyoku.deal_rows.values()}
    return [
        (e.frame, e.count)
        for e in s.events
        if e.type == "hand_count" and e.actor == seat and e.frame not in dated
    ]


def _seat1_draws(s, standing: int) -> None:
    """Frame 10: the table as dealt; frames 20 and 21: seat 1's row of ``standing`` tiles beside
    its drawn tile apart (two reads: the draw is read on the first)."""
    s.read(_rows([FIRST], {}), 10)
    drew = {1: _hand(1, standing, drawn=True)}
    s.read(_rows([FIRST], drew), 20)
    s.read(_rows([FIRST], drew), 21)


def test_the_draw_is_counted_on_the_read_that_sees_it():
    s = _started()
    s.read(_rows([FIRST], {}), 10)
    drew = {1: _hand(1, 13, drawn=True)}
    s.read(_rows([FIRST], drew), 20)
    assert [(e.type, e.actor) for e in s.events if e.frame == 20] == [
        ("wall_take", 1),
        ("tsumo", 1),
        ("hand_count", 1),
    ]
    assert _counts(s, 1)[-1] == (20, 14)
    assert not s.alerts
    # a turn at the evaluation set's pace holds one still read between draw and discard: with
    # two reads asked (the old default) most draws went uncounted
    assert TrackerConfig().draw_agree == 1


def test_a_whole_row_one_longer_at_the_seat_to_draw_is_its_draw():
    s = _started()
    s.read(_rows([FIRST], {}), 10)
    s.read(_rows([FIRST], {1: _hand(1, 14)}), 20)  # the drawn tile set down against the row
    assert [(e.type, e.actor) for e in s.events if e.frame == 20] == [
        ("wall_take", 1),
        ("tsumo", 1),
        ("hand_count", 1),
    ]
    assert _counts(s, 1)[-1] == (20, 14)


def test_a_row_one_longer_at_a_seat_not_to_draw_is_no_draw():
    s = _started()
    s.read(_rows([FIRST], {}), 10)
    for f in (20, 21, 22):  # edge 2 is two seats on from the last discard: a stray detection
        s.read(_rows([FIRST], {2: _hand(2, 14)}), f)
    assert not [e for e in s.events if e.frame >= 20 and getattr(e, "actor", None) == 2]


def test_with_more_reads_asked_for_a_draw_a_second_one_is_asked_for_at_once():
    s = _started()
    s.tracker.cfg = TrackerConfig(draw_agree=2)
    s.read(_rows([FIRST], {}), 10)
    drew = {1: _hand(1, 13, drawn=True)}
    s.read(_rows([FIRST], drew), 20)
    assert not [e for e in s.events if e.frame == 20]  # one read: not yet
    assert s.tracker.gate._confirm_in == TrackerConfig().confirm_frames  # a second look, at once
    s.read(_rows([FIRST], drew), 21)
    assert _counts(s, 1)[-1] == (21, 14)


def test_a_hand_is_counted_when_its_own_edge_is_still():
    s = _started()
    s.read(_rows([FIRST], {}), 10)
    drew = {1: _hand(1, 13, drawn=True)}
    # an arm moves over edge 2 the whole time: edge 1's draw is still read and counted
    still = np.array([True, True, False, True])
    for f in (20, 21):
        out = s.tracker._observe(_view(_rows([FIRST], drew)), f, f / 30, still)
        s.events += s.tracker._emit(out, f, f / 30).events
    assert _counts(s, 1)[-1] == (20, 14)
    # the moving edge's hand is not read: a row seen short there says nothing
    for f in (30, 31, 32, 33):
        out = s.tracker._observe(_view(_rows([FIRST], {2: _hand(2, 9), **drew})), f, f / 30, still)
        s.events += s.tracker._emit(out, f, f / 30).events
    assert _counts(s, 2)[-1][1] == 13


def test_a_row_a_tile_short_beside_its_draw_is_the_draw_and_no_count_as_the_record():
    # 小相公 staged: the seat's row is 12 and it draws. Reporting 13 against the record's 13
    # (before the draw) would refute the short count the checker is confirming; the tile apart
    # is the draw, and 13 is then one short of the record's 14, held to the contra rule
    s = _started()
    _seat1_draws(s, standing=12)
    assert [(e.type, e.actor) for e in s.events if e.frame == 20] == [("wall_take", 1), ("tsumo", 1)]
    assert _counts(s, 1) == [(10, 13)]


def test_a_draw_already_read_at_the_discard_is_counted_on_one_read():
    # seat 2 was seen holding its draw as seat 1's discard landed (read as an early take): the
    # row of 14 with its tile apart is then just as the record has it
    s = _started()
    second = (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "9s", False)
    s.read(_rows([FIRST], {}), 10)
    early = {2: _hand(2, 13, drawn=True)}
    s.read(_rows([FIRST, second], early), 20)
    s.read(_rows([FIRST, second], early), 21)
    assert ("tsumo", 2) in [(e.type, getattr(e, "actor", None)) for e in s.events]
    assert _counts(s, 2)[-1] == (21, 14)  # on the read that read the draw (hand_agree: 22)


def _deal(dealer_drew: bool = True, extra_drawn: int | None = None, hole: bool = False) -> list:
    rows = [r for r in _table() if r[1] != HAND]
    for e in range(4):
        drawn = (dealer_drew and e == 1) or e == extra_drawn
        rows += _hand(e, 13, drawn=drawn, skip=5 if hole and e == 3 else None)
    return rows


def test_the_first_draw_of_a_deal_starts_the_kyoku_at_its_dealer():
    s = _Script()
    s.read(_table(), 1)  # a fresh deal: 13 standing a seat
    assert s.events == []
    s.read(_deal(), 10)
    assert s.events == []  # one read: not yet
    s.read(_deal(), 11)
    kinds = [(e.type, getattr(e, "actor", None)) for e in s.events]
    # (the deal's counts first: its rows were read whole, 13 each, on the read that found it)
    deal = [("hand_count", a) for a in (3, 0, 1, 2)]
    assert kinds[:8] == [("start_game", None), ("start_kyoku", None), *deal, ("wall_take", 0), ("tsumo", 0)]
    assert s.tracker.seat0_edge == 1  # the right edge drew first: the first dealer, seat 0
    start = s.events[1]
    assert (start.oya, start.frame) == (0, 1)
    assert {e.actor: e.count for e in s.events if e.type == "hand_count"} == {0: 14, 1: 13, 2: 13, 3: 13}
    # the dealer's discard then follows its draw: no second tsumo
    disc = (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "N", False)
    after = [r for r in _table() if r[1] != HAND] + [disc] + sum((_hand(e, 13) for e in range(4)), [])
    s.read(after, 30)
    s.read(after, 31)
    play = [(e.type, e.actor) for e in s.events if e.type in ("tsumo", "dahai")]
    assert play == [("tsumo", 0), ("dahai", 0)]
    assert not s.alerts and not s.tracker.state_errors


def test_the_deals_counts_are_reported_at_the_start_dated_to_the_read_that_saw_them():
    # the stable moments from the deal to the dealer's first draw had no count (4 % of the
    # evaluation sets' moments): the deal's rows, read whole at 13 each, are reported once the
    # dealer is known, dated to that read, edge by edge; a row never read whole reports nothing
    # (edge 3, seat 2, has a hole where ``holes`` says)
    for holes, want in (
        ((False, True), [(3, 13, 1), (0, 13, 1), (1, 13, 1), (2, 13, 1)]),  # the read that found the deal
        ((True, False), [(3, 13, 1), (0, 13, 1), (1, 13, 1), (2, 13, 5)]),  # the next read, for edge 3
        ((True, True), [(3, 13, 1), (0, 13, 1), (1, 13, 1)]),
    ):
        s = _Script()
        s.read(_deal(dealer_drew=False, hole=holes[0]), 1)  # the fresh deal: the kyoku is made
        s.read(_deal(dealer_drew=False, hole=holes[1]), 5)
        s.read(_deal(), 10)
        s.read(_deal(), 11)
        kinds = [e.type for e in s.events]
        assert kinds[:2] == ["start_game", "start_kyoku"]
        dated = [(e.actor, e.count, e.frame) for e in s.events if e.type == "hand_count" and e.frame < 10]
        assert dated == want
        assert kinds[2 : 2 + len(want)] == ["hand_count"] * len(want)  # (right after the start)
        counts = {e.actor: e.count for e in s.events if e.type == "hand_count" and e.frame == 11}
        assert counts == {0: 14, 1: 13, 2: 13, 3: 13}  # then the dealer's draw, as before


def test_a_deal_row_of_13_with_a_tile_apart_counts_but_at_the_dealers():
    # set 4 hanchan-jansou-0 18083: a stray tile beside a non-dealer's 13 left the whole table's
    # deal unreported; at the dealer's, 13 with one apart is its draw with a tile missed
    s = _Script()
    first = [r for r in _deal(dealer_drew=False) if r[0] not in (1, 2) or r[1] != HAND]
    first += _hand(1, 12, drawn=True) + _hand(2, 12, drawn=True)  # edge 1 deals (seat 0), edge 2 is seat 1
    s.read(first, 1)
    s.read(_deal(), 10)
    s.read(_deal(), 11)
    dated = [(e.actor, e.frame) for e in s.events if e.type == "hand_count" and e.frame < 10]
    assert dated == [(3, 1), (1, 1), (2, 1)]  # seats 3, 1, 2: all but the dealer's


def test_a_deal_read_unclearly_starts_nothing():
    for deal in (_deal(extra_drawn=3), _deal(hole=True), _deal(dealer_drew=False)):
        s = _Script()
        s.read(_table(), 1)
        for f in (10, 11, 12):
            s.read(deal, f)
        assert s.events == [] and s.tracker.seat0_edge is None


def _measured(
    tiles: dict[int, int], apart: tuple[int, ...] = (), pitch: float = NOMINAL_PITCH_MM
) -> HandRows:
    """Rows measured from the pixels: ``tiles`` per edge in the row, a drawn tile apart at ``apart``."""
    left = np.full(4, np.nan)
    right = np.full(4, np.nan)
    dl, dr = np.full(4, np.nan), np.full(4, np.nan)
    for e, n in tiles.items():
        left[e], right[e] = -250.0, -250.0 + n * pitch
        if e in apart:
            dl[e], dr[e] = right[e] + 9, right[e] + 9 + pitch
    return HandRows(left, right, dl, dr, np.zeros(4, bool))


def pitch_length(pitch: float, tiles: int) -> float:
    """mm a row of ``tiles`` measures at ``pitch`` (``HandRows.count``'s model: the overhang and
    the tiles' steps)."""
    return ROW_OVERHANG_MM + tiles * (pitch - ROW_OVERHANG_MM / 13)


def _sparse(edge: int) -> list:
    """A far camera's detections of a row of 13: four boxes, holes between them."""
    return [r for i, r in enumerate(_hand(edge, 13)) if i % 4 == 0]


def test_a_row_the_detector_boxes_only_in_part_is_counted_from_its_measure():
    s = _started()
    s.read(_rows([FIRST], {1: _sparse(1)}), 10)
    assert _counts(s, 1) == []  # holes: the detections alone count nothing
    s.tracker._rows_now = _measured({0: 13, 1: 13, 2: 13, 3: 13})
    s.read(_rows([FIRST], {1: _sparse(1)}), 11)
    assert _counts(s, 1) == [(11, 13)]
    # its draw, seen as a tile apart at the measured row's end
    s.tracker._rows_now = _measured({0: 13, 1: 13, 2: 13, 3: 13}, apart=(1,))
    s.read(_rows([FIRST], {1: _sparse(1)}), 20)
    s.read(_rows([FIRST], {1: _sparse(1)}), 21)
    assert [(e.type, e.actor) for e in s.events if e.frame == 20] == [
        ("wall_take", 1),
        ("tsumo", 1),
        ("hand_count", 1),
    ]
    assert _counts(s, 1)[-1] == (20, 14)


def test_a_measure_far_off_the_record_or_a_whole_row_of_detections_wins_over_it():
    s = _started()
    # an arm resting over edge 1's row: a bar of 17 tiles, not a hand the record allows
    s.tracker._rows_now = _measured({1: 17})
    s.read(_rows([FIRST], {1: _sparse(1)}), 10)
    assert _counts(s, 1) == []
    # a whole, sure row of detections one tile off the measure is kept: edge 1's draw is read
    # though the measure merged its tile apart into a row of 13
    s.tracker._rows_now = _measured({1: 13})
    drew = {1: _hand(1, 13, drawn=True)}
    s.read(_rows([FIRST], drew), 20)
    s.read(_rows([FIRST], drew), 21)
    assert _counts(s, 1)[-1] == (20, 14)


def test_a_fresh_deal_calibrates_the_row_pitch_per_edge():
    s = _Script()
    s.tracker._rows_now = _measured({0: 13, 1: 13, 2: 13}, apart=(2,), pitch=27.3)
    s.read(_table(), 1)  # the fresh deal is seen
    s.read(_table(), 2)  # and its hands read
    # edges 0 and 1 (13 tiles, no tile apart) give their pitch; edge 2 holds a tile apart, 3 no row
    assert [len(p) for p in s.tracker._row_pitches] == [1, 1, 0, 0]
    assert abs(s.tracker._row_pitches[0][0] - 27.3) < 1e-6


def test_a_tilted_cameras_stretched_rows_calibrate_and_an_uncalibrated_edge_takes_the_others():
    # hanchan-jansou-3's left row of 13 measured 362 mm at the deal: 27.85 mm a tile (13.6
    # nominal pitches, counted 14: seven false 大相公). Edges 0 and 1 are seen whole; edge 3's
    # row not yet (its player's arm over it): it counts with theirs
    s = _Script()
    s.tracker._rows_now = _measured({0: 13, 1: 13}, pitch=27.85)
    s.read(_table(), 1)
    s.read(_table(), 2)
    assert [len(p) for p in s.tracker._row_pitches] == [1, 1, 0, 0]
    assert abs(s.tracker._row_pitch(3) - 27.85) < 1e-6
    assert int(_measured({3: 13}, pitch=27.85).count(s.tracker._row_pitch(3))[3]) == 13


def test_a_dealers_row_with_its_draw_merged_does_not_calibrate():
    # the dealer (edge 0) holds its draw against the row, no gap seen: 14 tiles and a 3 mm gap
    # measured as one bar, 28.98 mm "a tile" of 13 (inside PITCH_RANGE); the others are 13
    s = _Script()
    rows = _measured({0: 13, 1: 13, 2: 13, 3: 13}, pitch=26.7)
    rows.right[0] = rows.left[0] + 14 * 26.7 + 3.0
    s.tracker._rows_now = rows
    s.read(_table(), 1)
    s.read(_table(), 2)
    assert [len(p) for p in s.tracker._row_pitches] == [0, 1, 1, 1]


def test_a_hand_keeping_its_count_through_its_discard_is_said_again():
    # 大相公 staged: seat 1 draws (14 said while it holds the draw) and discards, but 14 tiles
    # still stand. The same 14 against the record's 13 now must reach the rules checker
    s = _started()
    _seat1_draws(s, standing=13)
    assert _counts(s, 1)[-1] == (20, 14)
    second = (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "9s", False)
    excess = {1: _hand(1, 14)}
    for f in range(30, 30 + TrackerConfig().hand_contra_frames + 10, 5):
        s.read(_rows([FIRST, second], excess), f)
    assert ("dahai", 1) in [(e.type, getattr(e, "actor", None)) for e in s.events]
    after = [(f, n) for f, n in _counts(s, 1) if f > 21]
    assert after and after[-1][1] == 14


def test_a_gap_in_a_row_at_a_seat_not_drawing_does_not_start_its_counts_run_again():
    # t6-confusing_nakis_2: a staged 小相公's 9, one read with a gap measured in it (a tile
    # "apart"), started its run of reads again and was said 6 s late. Seat 2 is not next to draw
    # (seat 1 is): its 12 against the record's 13 is said hand_contra_frames after its first read
    s = _started()
    contra = TrackerConfig().hand_contra_frames
    for f in range(10, 10 + contra + 15, 5):
        row = _hand(2, 11, drawn=True) if f == 20 else _hand(2, 12)
        s.read(_rows([FIRST], {2: row}), f)
    assert _counts(s, 2)[0] == (10 + contra, 12)


def test_a_hand_kept_at_14_is_no_draw_when_its_turn_comes_again():
    # 大相公 being confirmed: seat 1 kept 14 through its discard, and its row of 14 (no tile
    # apart) as its next turn comes must not read as that turn's draw: the record would then
    # agree with the camera and refute the excess the checker is confirming
    s = _started()
    _seat1_draws(s, standing=13)
    rivers = [FIRST, (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "9s", False)]
    excess = {1: _hand(1, 14)}
    for f in range(30, 30 + TrackerConfig().hand_contra_frames + 10, 5):
        s.read(_rows(rivers, excess), f)
    assert _counts(s, 1)[-1][1] == 14  # said against the record's 13
    frame = 100
    for edge, code in ((2, "E"), (3, "S"), (0, "W")):  # a round of discards: seat 1 to draw
        rivers = rivers + [(edge, RIVER, tl.RIVER_LEFT + 13 + 26 * (edge == 0), tl.RIVER_ROW0_V, code, False)]
        for f in (frame, frame + 1):
            s.read(_rows(rivers, excess), f)
        frame += 20
    assert [e.actor for e in s.events if e.type == "dahai"][-3:] == [2, 3, 0]
    s.read(_rows(rivers, {1: _hand(1, 14, skip=5)}), frame)  # an arm over the row: a hole
    s.read(_rows(rivers, excess), frame + 1)  # the row whole again, first seen after the discard
    assert not [e for e in s.events if e.frame == frame + 1 and e.type in ("wall_take", "tsumo")]
    # (a row of 14 with no contradiction said before is that turn's draw: the test above)


def test_a_lone_standing_tile_is_counted_only_where_the_record_has_one():
    s = _started()
    s.read(_rows([FIRST], {1: _hand(1, 1)}), 10)
    assert _counts(s, 1) == []  # a hand of 13 seen as one tile: a stray, not a count
    s.tracker.state.seats[1].hand = s.tracker.state.seats[1].hand[:1]  # four melds made (tanki)
    s.read(_rows([FIRST], {1: _hand(1, 1)}), 11)
    assert _counts(s, 1) == [(11, 1)]


def test_a_lone_tile_read_surely_is_not_lengthened_by_the_measure():
    # four melds: one tile stands; the measure, running into a meld beside it, reads two
    s = _started()
    s.tracker.state.seats[1].hand = s.tracker.state.seats[1].hand[:1]
    s.tracker._rows_now = _measured({1: 2})
    s.read(_rows([FIRST], {1: _hand(1, 1)}), 10)
    assert _counts(s, 1) == [(10, 1)]


NINE = (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "9s", False)  # seat 1's discard after FIRST


def _hora(s: _Script) -> list[tuple[int, int]]:
    return [(e.actor, e.target) for e in s.events if e.type == "hora"]


def _nine_read(s: _Script) -> None:
    for f, river in ((10, [FIRST]), (11, [FIRST]), (15, [FIRST, NINE]), (16, [FIRST, NINE])):
        s.read(_rows(river, {}), f)


def test_a_tile_apart_seen_mid_motion_as_the_hand_is_laid_open_is_no_draw(monkeypatch):
    # (review helper-37) the next seat's ron laid down: its tile apart seen on a moving frame (36),
    # 4 frames before the open hand's read; dated to the last still read (16) it was a draw
    s = _started()
    _nine_read(s)
    tracker = s.tracker
    looked = _view(_hand(2, 13, drawn=True, skip=5))
    monkeypatch.setattr(read_hands, "assign", lambda found, cal, bands: looked)
    monkeypatch.setattr(tracker, "_detect", lambda image, box=None: [0])  # (anything non-empty)
    activity = np.array([0.0, 0.0, 1.0, 0.0])  # seat 2's arm moves: laying its hand down
    tracker._watch_lift(np.zeros((720, 1280, 3), np.uint8), 36, activity)
    assert tracker.kyoku.armed[2] is not None
    s.read(_rows([FIRST, NINE], {2: _open_hand(2, "123m456p789s11z999s")}), 40)
    assert 40 - 36 <= TrackerConfig().hand_opening_frames
    assert _hora(s) == [(2, 1)]


def _seat2_drew_at_18() -> _Script:
    """The 9s read (frames 15-16); seat 2's drawn tile seen apart at 18, two of its row's tiles
    missed (no count, so no draw read: only the look)."""
    s = _started()
    _nine_read(s)
    two_missed = [r for i, r in enumerate(_hand(2, 13, drawn=True)) if i not in (4, 8)]
    s.read(_rows([FIRST, NINE], {2: two_missed}), 18)
    return s


def test_a_draw_held_long_before_the_hand_opens_stays_a_draw_when_one_more_tile_is_seen():
    # (review helper-37) seat 2 drew at 18 (a tile apart; two row tiles missed: no count, only the
    # look); at 35 the row shows one tile more (one missed): the tile apart is as old as before,
    # so its tsumo shown at 40 is no ron on the 9s
    s = _seat2_drew_at_18()
    s.read(_rows([FIRST, NINE], {2: _hand(2, 13, drawn=True, skip=5)}), 35)
    assert not s.tracker.kyoku.drew[2]  # (holes: no count, no draw read)
    s.read(_rows([FIRST, NINE], {2: _open_hand(2, "123m456p789s11z999s")}), 40)
    assert _hora(s) == [(2, 2)]


def test_a_drawn_tile_merged_into_the_row_and_set_apart_again_as_the_hand_opens_is_still_a_draw():
    # set 4 hanchan-jansou-1 14762: seat 2 drew (a tile apart at 18), its row then read plain (the
    # tile set against it), and apart again just before the tsumo was laid open: the draw is as
    # old as its first look, so the win is a tsumo, not a ron on the 9s
    s = _seat2_drew_at_18()
    s.read(_rows([FIRST, NINE], {2: _hand(2, 13)}), 25)  # (the row plain: as the record has it)
    assert s.tracker.kyoku.plain_seen[2] == 25
    s.read(_rows([FIRST, NINE], {2: _hand(2, 13, drawn=True, skip=5)}), 37)
    assert not s.tracker.kyoku.drew[2]  # (holes: no count, no draw read)
    s.read(_rows([FIRST, NINE], {2: _open_hand(2, "123m456p789s11z999s")}), 40)
    assert _hora(s) == [(2, 2)]


def test_a_dealers_row_read_13_after_its_draw_was_seen_is_not_the_deals():
    # the dealer's (edge 1) row has a hole on the read that found the deal; it draws (14, its tile
    # apart, read at 5), then a read misses its tile apart (13, whole, at 6): that 13 is its draw
    # with a tile missed, not the deal's count (the record holds 14 from 5 on)
    walls = [r for r in _table() if r[1] != HAND]

    def table(dealer: list) -> list:
        return walls + dealer + sum((_hand(e, 13) for e in (0, 2, 3)), [])

    s = _Script()
    s.read(table(_hand(1, 13, skip=5)), 1)  # the fresh deal, the dealer's row misread
    s.read(table(_hand(1, 13, drawn=True)), 5)
    s.read(table(_hand(1, 13)), 6)
    s.read(_deal(), 10)
    s.read(_deal(), 11)
    assert s.tracker.seat0_edge == 1
    dated = [(e.actor, e.count, e.frame) for e in s.events if e.type == "hand_count" and e.frame < 10]
    assert dated == [(3, 13, 1), (1, 13, 1), (2, 13, 1)]  # seats 3, 1, 2: not the dealer's at 6


def _read_one_box_unsure(s: _Script, rows: list, frame: int, edge: int) -> None:
    """A still read with the first standing box of ``edge`` read at 0.42 (others sure)."""
    view = _view(rows)
    view.confidence[np.nonzero((view.edge == edge) & (view.zone == HAND))[0][0]] = 0.42
    s.events += s.tracker._emit(s.tracker._observe(view, frame, frame / 30), frame, frame / 30).events


def test_a_row_the_pixels_measure_alike_is_sure_though_one_box_is_not():
    # t6-rinshan: a staged 小相公's row of 12 had one box at 0.42, under hand_contra_confidence, and
    # was not said for 6 s, until a read with every box sure; the pixels measured 12 all along
    short = _rows([FIRST], {3: _hand(3, 12)})
    for measure, said in ((None, False), ({0: 13, 1: 13, 2: 13, 3: 12}, True)):
        s = _started()
        if measure is not None:
            s.tracker._rows_now = _measured(measure)
        for f in range(30, 30 + TrackerConfig().hand_contra_frames + 10, 5):
            _read_one_box_unsure(s, short, f, 3)
        assert (12 in [n for _, n in _counts(s, 3)]) is said


def test_an_open_hand_boxed_twice_as_it_is_laid_counts_each_tile_once():
    # t6-confusing_nakis_6: at an exhaustive draw the one tenpai hand of 13, read as it was laid
    # down, had three tiles boxed again half a tile off (unsure, other faces): 16 tiles, a win
    s = _started()
    s.read(_rows([FIRST], {}), 10)
    few_backs = [r for r in _walls() if r[4] != "back"]
    few_backs += [(0, WALL, -210 + 20 * i, tl.WALL_V, "back", False) for i in range(6)]
    tenpai = _open_hand(3, "234m44p12334s789s")
    twice = [(3, HAND, tenpai[i][2] + 14, tl.HAND_V, c, False) for i, c in ((7, "4s"), (8, "S"), (9, "2s"))]
    rows = [FIRST] + few_backs + tenpai + twice + [r for e in range(3) for r in _hand(e, 13)]
    view = _view(rows)
    view.confidence[len(rows) - 39 - 3 : len(rows) - 39] = 0.2  # the boxes over a tile already boxed
    for f in (20, 21):
        s.events += s.tracker._emit(s.tracker._observe(view, f, f / 30), f, f / 30).events
    ends = [e for e in s.events if e.type in ("hora", "ryukyoku")]
    assert [e.type for e in ends] == ["ryukyoku"]
    assert ends[0].hands[s.tracker._seat(3)] == parse("234m44p12334s789s")
    assert ends[0].hands_unsure[s.tracker._seat(3)] == []  # the unsure boxes were the ones dropped


def test_a_callers_row_with_a_gap_is_counted_on_the_read_that_sees_its_call():
    # t6-confusing_nakis_7 243: a pon's caller read at 11 with a tile apart where the called pair
    # left its row; as a row "with a draw apart" it waited for three reads, and the caller
    # discarded first (every count after a pon went unsaid on the evaluation set)
    s = _call_from_left("C")  # edge 3 discarded C; edge 0 (seat 1) calls it
    laid = [(0, MELD, u, v, "C", i == 0) for i, (u, v) in enumerate(_PLACES)]
    caller = {0: _hand(0, 10, drawn=True)}  # 11 standing, one apart
    for frame in (4, 5):
        s.read(_rows([], caller) + laid, frame)
    pon = next(e for e in s.events if e.type == "pon")
    assert (pon.actor, pon.frame) == (1, 5)
    assert [(e.frame, e.count) for e in s.events if e.type == "hand_count" and e.actor == 1][-1] == (5, 11)


def _deal_set_down(dealer: int) -> list:
    """A fresh deal whose ``dealer`` edge drew and set its tile down against its row (14 whole)."""
    rows = [r for r in _table() if r[1] != HAND]
    return rows + sum((_hand(e, 14 if e == dealer else 13) for e in range(4)), [])


def test_a_dealers_draw_set_down_against_its_row_starts_the_kyoku():
    # t6-rinshan 44: the dealer's 14 lay whole on the one still read before its discard; waiting
    # for a tile apart left its 14 unsaid until the discard (half the clips' first kyoku)
    s = _Script()
    s.read(_table(), 1)
    s.read(_deal_set_down(1), 10)
    assert s.events == []  # one read: not yet (a second is asked for at once)
    s.read(_deal_set_down(1), 11)
    assert s.tracker.seat0_edge == 1
    assert [(e.frame, e.count) for e in s.events if e.type == "hand_count" and e.actor == 0][-1] == (11, 14)


def test_a_whole_row_of_14_starts_a_later_kyoku_only_at_a_seat_that_may_deal():
    from tests.tracker.test_tracker_events import _four_discarded

    for dealer, starts in ((1, True), (0, True), (2, False), (3, False)):
        s = _four_discarded()  # seat 0 (edge 0) dealt East 1; no result seen: a draw
        for f in (100, 101, 102):
            s.read(_table(), f)  # a fresh deal
        assert s.tracker.last_round[1] == 1
        for f in (110, 111):
            s.read(_deal_set_down(dealer), f)
        started = [e for e in s.events if e.type == "start_kyoku" and e.frame > 100]
        assert bool(started) == starts, dealer
        if starts:  # the dealer kept (連荘) or the deal passed to seat 1
            assert started[0].oya == dealer


def test_a_row_keeping_its_drawn_tile_apart_through_a_discard_is_counted_with_the_discard():
    # hanchan-jansou-1 527: a discard from the row, the drawn tile still apart (12 + 1): taken
    # as "a draw to read", the count waited three reads, past the first stable moment
    s = _started()
    s.read(_rows([FIRST], {}), 10)
    s.read(_rows([FIRST], {1: _hand(1, 13, drawn=True)}), 20)
    assert _counts(s, 1)[-1] == (20, 14)
    second = (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "9s", False)
    for frame in (30, 31):
        s.read(_rows([FIRST, second], {1: _hand(1, 12, drawn=True)}), frame)
    assert [(e.frame, e.pai) for e in s.events if e.type == "dahai" and e.actor == 1] == [(31, "9s")]
    assert _counts(s, 1)[-1] == (31, 13)
    # the seat next to draw with a tile apart and its row a tile short is still read as its draw
    s.read(_rows([FIRST, second], {1: _hand(1, 12, drawn=True), 2: _hand(2, 12, drawn=True)}), 40)
    assert [(e.type, e.actor) for e in s.events if e.frame == 40][:2] == [("wall_take", 2), ("tsumo", 2)]


def test_an_edge_no_deal_calibrated_takes_its_pitch_from_its_row_in_play_at_the_records_count():
    # t6-confusing_nakis_0: the dealer's kyoku started on its draw's first read, before any
    # still read of its 13; the others' pitch then read its row of 11 as 12 with a tile apart
    for tiles, calibrated in ((13, True), (14, False), (4, False)):  # 大相公's row; too short a row
        s = _Script()
        s.tracker._rows_now = _measured({0: 13, 1: 13, 3: 13}, pitch=27.3)  # edge 2's row not seen
        s.read(_table(), 1)
        s.read(_table([FIRST]), 2)
        s.read(_table([FIRST]), 3)  # edge 0 discards: play starts
        assert [len(p) for p in s.tracker._row_pitches] == [1, 1, 0, 1]
        rows = _measured({0: 13, 1: 13, 2: tiles, 3: 13}, pitch=27.6)
        rows.right[2] = rows.left[2] + pitch_length(27.6, tiles)
        s.tracker._rows_now = rows
        if tiles == 4:
            s.tracker.kyoku.pending_count[2] = -9  # a record of 4 standing (melds not scripted here)
        s.read(_rows([FIRST], {2: _sparse(2)}), 10)
        assert [round(p, 6) for p in s.tracker._row_pitches[2]] == ([27.6] if calibrated else []), tiles


def test_a_deal_pitch_a_tile_off_gives_way_to_rows_in_play_whose_boxes_count_the_record():
    # kuikae-jansou-3-k5: the dealer's 14, its draw merged into the bar, was read once at the deal
    # as a row of 13 (28.69 mm a tile, within the others' spread); its 13 in play measured
    # 27.15 mm a tile and counted 12, its 10 later 9: a false 小相公
    s = _Script()
    s.tracker._rows_now = _measured({1: 13, 2: 13, 3: 13}, pitch=27.15)
    s.tracker._rows_now.right[0] = -250.0 + pitch_length(28.69, 13)
    s.tracker._rows_now.left[0] = -250.0
    s.read(_table(), 1)
    s.read(_table([FIRST]), 2)
    s.read(_table([FIRST]), 3)  # edge 0 discards: play starts
    assert round(s.tracker._row_pitch(0), 2) == 28.69
    in_play = _measured({0: 13, 1: 13, 2: 13, 3: 13}, pitch=27.15)
    assert int(in_play.count(s.tracker._row_pitch(0))[0]) == 12
    s.tracker._rows_now = in_play
    # boxes with a hole, or a 大相公's row of 14 whose boxes missed a tile, do not calibrate
    s.read(_rows([FIRST], {0: _hand(0, 13, skip=6)}), 10)
    s.tracker._rows_now = _measured({0: 14, 1: 13, 2: 13, 3: 13}, pitch=27.15)
    s.read(_rows([FIRST], {}), 11)
    assert round(s.tracker._row_pitch(0), 2) == 28.69
    # a whole row of 13 boxes and the record's 13: the measure's 12 calibrates the pitch until
    # it counts 13 (the row of 10 after a pon then counts 10, not 9)
    s.tracker._rows_now = in_play
    for frame in (20, 21):
        s.read(_rows([FIRST], {}), frame)
    assert int(in_play.count(s.tracker._row_pitch(0))[0]) == 13
    ten = _measured({0: 10}, pitch=27.15)
    ten.right[0] = ten.left[0] + pitch_length(27.15, 10)
    assert int(ten.count(s.tracker._row_pitch(0))[0]) == 10
    # a pitch that counts its rows right is left alone: set 7 t6-ryukyoku's, moved from 26.85 to
    # 26.69 mm by rows of 13 measured 2 mm short, counted 14s with their drawn tile's gap
    # merged as 15
    assert [round(p, 2) for p in s.tracker._row_pitches[1]] == [27.15]
