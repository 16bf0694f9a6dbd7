"""The lift model (``tracker.lift_model``): its features from a lift's evidence, and the bundled
model on lifts whose answer is plain to see."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.lift_model import (
    DEFAULT_LIFT_MODEL,
    DRAWN_GAP_MM,
    FEATURES,
    LIFT_FRAMES,
    MISSING,
    LiftEvidence,
    LiftModel,
    LiftModelError,
    lift_features,
)

PITCH = 27.0
PLAIN = 90.0  # the row's end before the draw
HOLD = PLAIN + 9.0 + PITCH  # ... with the drawn tile apart
NAN = float("nan")


def _lift(right, drawn=None, hold=HOLD, plain=PLAIN, rules=(True, False), looks=()) -> LiftEvidence:
    right = np.array(right, float)
    drawn = np.full(len(right), np.nan) if drawn is None else np.array(drawn, float)
    return LiftEvidence(right, drawn, hold, plain, PITCH, rules, tuple(looks))


def _frames(x: np.ndarray) -> np.ndarray:
    return x[6:].reshape(LIFT_FRAMES, 3)


def test_the_head_is_what_the_rules_and_the_looks_said():
    x = lift_features(_lift([PLAIN], rules=None, looks=(True, False, False, True)))
    assert x.shape == (FEATURES,) and x.dtype == np.float32
    assert x[:6].tolist() == [1, 0, 0, 1, 2, 3]  # no rules; first three looks: 1 apart, 2 plain
    assert lift_features(_lift([PLAIN], rules=(False, True)))[:3].tolist() == [0, 0, 1]


def test_frames_start_after_the_last_one_still_holding_the_draw():
    # held (the tile apart at the held end), the arm, held again, then the lift
    right = [PLAIN, PLAIN + 50, PLAIN, PLAIN - PITCH, PLAIN]
    drawn = [HOLD, NAN, HOLD - 2, HOLD - PITCH, NAN]
    f = _frames(lift_features(_lift(right, drawn)))
    assert np.allclose(f[:2, 0], [-1.0, 0.0])  # the row a tile shorter, then at its plain end
    assert np.allclose(f[0, 1], -1.0) and f[1, 1] == MISSING  # the tile apart a tile left, then none
    assert f[:2, 2].tolist() == [1, 0]
    assert (f[2:, 0] == MISSING).all() and (f[2:, 2] == -1).all()


def test_a_long_lift_is_cut_and_unmeasured_frames_are_missing():
    right = [HOLD] + [NAN] + [PLAIN] * 30
    f = _frames(lift_features(_lift(right)))
    assert f[0, 0] == MISSING and (f[1:, 0] == 0).all() and (f[:, 2] == 0).all()


def test_no_hold_no_frames_and_a_plain_end_not_measured_is_taken_a_gap_from_the_hold_end():
    assert (_frames(lift_features(_lift([PLAIN] * 5, hold=NAN)))[:, 2] == -1).all()
    # no moving frame at the held end (the arm came at once): from the first, the still read
    # before them having seen it held
    f = _frames(lift_features(_lift([PLAIN - 40] * 5)))
    assert np.allclose(f[:5, 0], -40 / PITCH) and (f[:5, 2] == 0).all() and (f[5:, 2] == -1).all()
    f = _frames(lift_features(_lift([HOLD, HOLD - PITCH - DRAWN_GAP_MM], plain=NAN)))
    assert f[0, 0] == pytest.approx(0.0)


def test_the_bundled_model_reads_plain_lifts():
    model = LiftModel(DEFAULT_LIFT_MODEL)
    # the drawn tile gone at once, the row unbroken at its end before the draw: tsumogiri
    tsumogiri = _lift([HOLD] + [PLAIN] * 6, rules=(True, True), looks=(False, False))
    assert model.tsumogiri(lift_features(tsumogiri)) > 0.5
    # the row a tile shorter with the drawn tile still apart for frames: tedashi
    right = [PLAIN] + [PLAIN - PITCH] * 4 + [PLAIN] * 2
    drawn = [HOLD] + [HOLD - PITCH] * 4 + [NAN] * 2
    tedashi = _lift(right, drawn, rules=(False, True), looks=(True, True))
    assert model.tsumogiri(lift_features(tedashi)) < 0.5


def test_a_missing_or_wrong_model_file_is_one_line_naming_it(tmp_path):
    with pytest.raises(LiftModelError, match="nothing.onnx") as err:
        LiftModel(tmp_path / "nothing.onnx")
    assert "\n" not in str(err.value)
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(LiftModelError, match="junk.onnx"):
        LiftModel(junk)


def test_a_model_of_the_right_width_without_class_probabilities_is_refused_at_load(tmp_path):
    # (one output, not (label, probabilities): tsumogiri() raised IndexError mid-analysis)
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, FEATURES])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 1])
    node = helper.make_node("ReduceSum", ["x"], ["y"], keepdims=1)
    graph = helper.make_graph([node], "g", [x], [y])
    path = tmp_path / "regressor.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)]), path)
    with pytest.raises(LiftModelError, match="regressor.onnx"):
        LiftModel(path)


def test_the_models_frames_are_a_tenth_of_a_second_of_play_apart():
    from tracker.lift_model import lift_step

    # its training clips: 30 frames a second at 3x play, one frame apart
    assert lift_step(1 / 30, 3.0) == 1
    assert [lift_step(1 / 30, 1.0), lift_step(1 / 30, 1.5), lift_step(1 / 60, 1.0)] == [3, 2, 6]
    assert lift_step(1 / 30, 10.0) == 1  # (never under one frame)
