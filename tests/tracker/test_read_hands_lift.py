"""Tsumogiri from the standing row's right end measured from the pixels (``tracker.read_hands``
``_trace_row_ends`` / ``_row_tsumogiri``): scripted still reads as in test_read_hands, scripted
row measures on the moving frames between them."""

from __future__ import annotations

import numpy as np

from datasets.scene import table_layout as tl
from tests.tracker.test_read_hands import _measured
from tests.tracker.test_tracker_events import _hand, _rows, _started
from tracker.zones import RIVER
from vision.hand_rows import NOMINAL_PITCH_MM, HandRows

FIRST = (0, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "1m", False)
SECOND = (1, RIVER, tl.RIVER_LEFT + 13, tl.RIVER_ROW0_V, "9s", False)
PLAIN = -250.0 + 13 * NOMINAL_PITCH_MM  # edge 1's row end before its draw (as _measured has it)
HOLD = PLAIN + 9 + NOMINAL_PITCH_MM  # ... holding its drawn tile apart
APART = HOLD - NOMINAL_PITCH_MM  # a tedashi's lift: 12 in the row, the drawn tile still apart
ARM = HOLD + 45  # an arm over the row's end
IMAGE = np.zeros((4, 4, 3), np.uint8)


class _Meter:
    """Stands in for ``vision.hand_rows.HandRowMeter``: edge 1's row ends, one a frame."""

    def __init__(self, ends: list[float]) -> None:
        self.ends = list(ends)

    def measure(self, image: np.ndarray) -> HandRows:
        end = self.ends.pop(0)
        rows = _measured({0: 13, 2: 13, 3: 13})
        rows.left[1], rows.right[1] = -250.0, end
        return rows


def _discard_after(
    lift: list[float],
    hold_still: bool = True,
    looks: list | None = None,
    after: HandRows | None = None,
    model=None,
    pace: float = 3.0,
):
    """Seat 1 draws (seen holding it on still reads unless ``hold_still`` is False), its row end
    is measured on the moving frames ``lift``, its discard lands (its row measured ``after``, as
    before the draw by default); ``model``: the tracker's lift model (its log kept in
    ``model.log``); ``pace``: the game's (the lifts are frame by frame at the evaluation clips'
    3x play, 30 frames a second). Returns (kyoku, dahai)."""
    s = _started()
    s.tracker.cfg = s.tracker.cfg.model_copy(update={"pace": pace})
    k = s.tracker.kyoku
    if model is not None:
        s.tracker.lift_model, s.tracker.lift_log = model, model.log
    s.tracker._rows_now = _measured({0: 13, 1: 13, 2: 13, 3: 13})
    s.read(_rows([FIRST], {}), 10)  # edge 1's row before its draw
    assert abs(k.row_plain_end[1] - PLAIN) < 1e-6
    if hold_still:
        s.tracker._rows_now = _measured({0: 13, 1: 13, 2: 13, 3: 13}, apart=(1,))
        for f in (20, 21):
            s.read(_rows([FIRST], {1: _hand(1, 13, drawn=True)}), f)
        assert abs(k.row_hold_end[1] - HOLD) < 1e-6
    s.tracker.rows = _Meter(lift)
    for _ in lift:
        s.tracker._trace_row_ends(k, IMAGE)
    for u in looks or []:  # the detector's looks at the hand mid-discard
        s.tracker._look_at_hand(k, 1, np.asarray(u, np.float32))
    s.tracker._rows_now = after or _measured({0: 13, 1: 13, 2: 13, 3: 13})
    s.read(_rows([FIRST, SECOND], {}), 30)
    s.read(_rows([FIRST, SECOND], {}), 31)
    dahai = [e for e in s.events if e.type == "dahai"][-1]
    assert (dahai.actor, dahai.pai) == (1, "9s")
    return k, dahai


def test_the_row_ending_where_it_ended_before_the_draw_is_tsumogiri():
    # the arm reaches past the drawn tile, the tile is gone, the arm sweeps back over the end
    _, dahai = _discard_after([ARM, ARM + 10, PLAIN, ARM, ARM - 20, PLAIN, PLAIN])
    assert dahai.tsumogiri is True


def test_the_end_gone_on_the_first_two_frames_is_tsumogiri_whatever_the_arm_shows_after():
    # the demo clip 2631: the row's end at the plain end on the lift's first two frames, then the
    # arm drawn back over the row's end measured a tile apart on two frames
    _, dahai = _discard_after([HOLD, PLAIN, PLAIN - 1, ARM + 20, ARM, APART, APART - 1, ARM, PLAIN])
    assert dahai.tsumogiri is True
    # one frame at the plain end first is no such evidence: the tile apart on two frames decides
    _, dahai = _discard_after([HOLD, PLAIN, ARM, APART, APART - 1, ARM, PLAIN])
    assert dahai.tsumogiri is False


def test_the_drawn_tile_left_standing_is_tedashi_whatever_the_detector_looked():
    # two frames of the drawn tile apart (the row a tile shorter), then the arm, then the hand
    # takes its drawn tile in and ends where a tsumogiri one would: tedashi
    detector_says_tsumogiri = [np.array([r[2] for r in _hand(1, 13)])] * 2
    k, dahai = _discard_after([HOLD, ARM, APART, APART + 1, ARM, PLAIN, PLAIN], looks=detector_says_tsumogiri)
    assert dahai.tsumogiri is False
    assert np.isnan(k.row_hold_end[1]) and k.row_trace[1] == []  # the turn is over


def test_the_first_frame_that_tells_decides_when_the_arm_hides_the_rest():
    near = HOLD + 10  # the arm reaching into the row, past its end a little
    _, dahai = _discard_after([near, APART, ARM, ARM, PLAIN, PLAIN])  # one frame apart first
    assert dahai.tsumogiri is False
    # one frame apart as an arm that reached for the drawn tile sweeps past: tsumogiri
    _, dahai = _discard_after([ARM, APART, ARM, ARM, PLAIN, PLAIN])
    assert dahai.tsumogiri is True
    _, dahai = _discard_after([ARM, PLAIN + 2, ARM, APART - 3, ARM, PLAIN])  # the end gone first
    assert dahai.tsumogiri is True


def test_a_plain_end_seen_only_late_leaves_it_to_where_the_reach_went():
    # the arm hides the row's end for the whole carry; the end seen after it is the hand after
    # the discard landed. The arm's first frames: far past the held end (the drawn tile reached
    # for) is tsumogiri, just past it (a tile taken from inside the row) tedashi
    _, dahai = _discard_after([ARM] * 8 + [PLAIN, PLAIN])
    assert dahai.tsumogiri is True
    near = [HOLD + 10, HOLD + 15] + [ARM] * 6 + [PLAIN, PLAIN]
    _, dahai = _discard_after(near)
    assert dahai.tsumogiri is False
    # two looks of the detector at an unbroken row outweigh it
    tsumogiri_looks = [np.array([r[2] for r in _hand(1, 13)])] * 2
    _, dahai = _discard_after(near, looks=tsumogiri_looks)
    assert dahai.tsumogiri is True


def test_two_detector_looks_at_an_unbroken_row_outweigh_one_frame_of_a_tile_apart():
    tsumogiri_looks = [np.array([r[2] for r in _hand(1, 13)])] * 2
    _, dahai = _discard_after([HOLD + 10, APART, ARM, PLAIN, PLAIN], looks=tsumogiri_looks)
    assert dahai.tsumogiri is True
    # ... but not two frames of it
    _, dahai = _discard_after([ARM, APART, APART, ARM, PLAIN], looks=tsumogiri_looks)
    assert dahai.tsumogiri is False


def test_no_row_end_seen_leaves_the_detector_looks_to_decide():
    nothing = [float("nan")] * 4
    k, dahai = _discard_after(nothing)
    assert dahai.tsumogiri is False  # no evidence: tedashi, as before
    tsumogiri_looks = [np.array([r[2] for r in _hand(1, 13)])] * 2
    _, dahai = _discard_after(nothing, looks=tsumogiri_looks)
    assert dahai.tsumogiri is True


def test_a_quick_player_is_seen_holding_its_draw_on_moving_frames():
    # no still read between the draw and the discard: the row a tile and a gap longer on two
    # moving frames is the hold; the lift after it is read as before
    _, dahai = _discard_after([PLAIN, HOLD, HOLD + 1, ARM, PLAIN, ARM, PLAIN], hold_still=False)
    assert dahai.tsumogiri is True
    _, dahai = _discard_after([HOLD, ARM, PLAIN, PLAIN], hold_still=False)  # one frame: no hold
    assert dahai.tsumogiri is False


def test_a_row_out_of_its_turn_is_plain_whatever_its_measured_count():
    # a measure one tile over the record at a seat that neither drew nor is to draw (a far
    # camera's short row, a meld beside it): no hold, and its end is where a tsumogiri leaves it
    s = _started()
    k = s.tracker.kyoku
    s.tracker._rows_now = _measured({0: 13, 1: 13, 2: 14, 3: 13})
    s.read(_rows([FIRST], {}), 10)
    assert np.isnan(k.row_hold_end[2])
    assert abs(k.row_plain_end[2] - (-250.0 + 14 * NOMINAL_PITCH_MM)) < 1e-6


def test_a_row_miscounted_in_its_turn_holds_its_draw_by_its_end():
    # edge 1's row measured a tile long before its draw and two long holding it: the end a
    # tile and a gap past the plain one is the hold all the same
    s = _started()
    k = s.tracker.kyoku
    s.tracker._rows_now = _measured({0: 13, 1: 14, 2: 13, 3: 13})
    s.read(_rows([FIRST], {}), 10)  # (edge 1 is to draw: its count must match to be plain)
    assert np.isnan(k.row_plain_end[1])
    k.row_plain_end[1] = PLAIN + NOMINAL_PITCH_MM  # as read out of its turn
    s.tracker._rows_now = _measured({0: 13, 1: 14, 2: 13, 3: 13}, apart=(1,))
    s.read(_rows([FIRST], {}), 20)
    assert abs(k.row_hold_end[1] - (HOLD + NOMINAL_PITCH_MM)) < 1e-6


def test_a_row_measured_a_tile_long_as_its_discard_lands_keeps_the_lift_seen():
    # the still read that first sees the discard in the river measures the row a tile long (an
    # arm beside it, a stray bar): not a new hold wiping the lift's frames
    long_row = _measured({0: 13, 1: 13, 2: 13, 3: 13}, apart=(1,))
    _, dahai = _discard_after([ARM, PLAIN, ARM, PLAIN], after=long_row)
    assert dahai.tsumogiri is True


class _Model:
    """Stands in for ``tracker.lift_model.LiftModel``: says ``p`` and keeps what it was shown."""

    def __init__(self, p: float) -> None:
        self.p, self.shown, self.log = p, [], []

    def tsumogiri(self, features: np.ndarray) -> float:
        self.shown.append(features)
        return self.p


def test_a_lift_model_given_decides_and_sees_the_lift_from_the_last_frame_holding_the_draw():
    from tracker.lift_model import FEATURES, LIFT_FRAMES, MISSING

    lift = [HOLD, PLAIN, PLAIN - 1, ARM, PLAIN]  # the rules: tsumogiri, surely
    _, dahai = _discard_after(lift)
    assert dahai.tsumogiri is True
    model = _Model(0.2)
    _, dahai = _discard_after(lift, model=model)
    assert dahai.tsumogiri is False  # the model's word, not the rules'
    (x,) = model.shown
    assert x.shape == (FEATURES,)
    assert x[:3].tolist() == [0, 1, 1]  # the rules said (tsumogiri, sure)
    frames = x[6:].reshape(LIFT_FRAMES, 3)
    pitch = NOMINAL_PITCH_MM
    assert np.allclose(frames[:4, 0], [0, -1 / pitch, (ARM - PLAIN) / pitch, 0], atol=1e-5)
    assert (frames[:4, 1] == MISSING).all() and (frames[:4, 2] == 0).all()  # no tile apart measured
    assert (frames[4:, 0] == MISSING).all() and (frames[4:, 2] == -1).all()  # no more frames
    # the log keeps the features and the rules' decision (models.lift_data's training rows)
    ((frame, edge, logged, by_rules),) = model.log
    assert (edge, by_rules) == (1, True) and np.array_equal(logged, x)
    _, dahai = _discard_after([HOLD, ARM, APART, APART + 1, ARM, PLAIN], model=_Model(0.7))
    assert dahai.tsumogiri is True  # the rules would say tedashi


def test_a_real_speed_lift_shows_the_model_the_same_play_as_a_3x_clip():
    # a real game filmed at 30 frames a second shows each tenth of a second of play on three
    # frames: the model takes every third (set 9: taken one apart, tsumogiri 86 % at real speed)
    lift = [HOLD, PLAIN, PLAIN - 1, ARM, PLAIN]
    fast, real = _Model(0.2), _Model(0.2)
    _discard_after(lift, model=fast)
    _discard_after([end for end in lift for _ in range(3)], model=real, pace=1.0)
    assert np.array_equal(fast.shown[0], real.shown[0])
