"""Tsumogiri from the lift, learned: a small tree ensemble (ONNX) over how a hand that held its
drawn tile apart looked on the moving frames while its discard was lifted.

The hand reader's rules (``read_hands._row_tsumogiri``) judge the row's right end frame by
frame; an arm over the row's end shows anything there, and they were wrong on 7 % of the
discards they called sure. This model weighs the same evidence at once: the row's right end and
the tile apart (if any) on the first ``LIFT_FRAMES`` moving frames after the hand last showed its
drawn tile in place, each relative to where the row ended before the draw (``plain``) and with
the tile apart (``hold``) in tile pitches, and what the rules and the detector's looks said.

Trained by ``python -m models.train_lift`` on features gathered by ``python -m models.lift_data``
from the renderer's clips, 30 frames a second at 3x play: a frame apart is 0.1 s of play. The
frames are taken that far apart in play at any frame rate and pace (``lift_step``): a real game
at 30 frames a second, every third. (Taken one apart, a real-speed clip showed the model only
the lift's first third: tsumogiri 86 % against the rules' 95 %; docs/BENCHMARKS.md.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

# (fixed, not TrackerConfig's: the shipped model was trained on features made with these; they
# equal its row_end_mm and drawn_gap_mm defaults)
LIFT_FRAMES = 10
LIFT_STEP_PLAY_S = 0.1  # seconds of play between the model's frames (its training clips' frame)
HOLD_MM = 3.0  # the row's end this close to where it ended holding the drawn tile: still holding
DRAWN_GAP_MM = 9.0  # row to drawn tile, where the row before the draw was not measured
MISSING = -9.0  # a value not measured (the trees split it off)
FEATURES = 6 + 3 * LIFT_FRAMES
DEFAULT_LIFT_MODEL = Path(__file__).resolve().parent.parent / "models" / "lift.onnx"


class LiftModelError(Exception):
    """The lift model file is missing or unreadable."""


@dataclass(frozen=True)
class LiftEvidence:
    """What the hand reader saw of one discard's lift. ``right``, ``drawn_right`` (n,) mm on each
    moving frame since the hand was seen holding its draw (NaN: not measured / no tile apart);
    ``hold``, ``plain`` mm: the row's end then and before the draw (NaN: unknown); ``pitch`` mm a
    tile; ``rules``: the rules' (tsumogiri, sure) or None; ``looks``: the detector's first looks
    mid-discard (True: a tile still apart)."""

    right: np.ndarray
    drawn_right: np.ndarray
    hold: float
    plain: float
    pitch: float
    rules: tuple[bool, bool] | None
    looks: tuple[bool, ...]


def lift_step(frame_s: float, pace: float) -> int:
    """Video frames that show ``LIFT_STEP_PLAY_S`` of play: a frame lasts ``frame_s`` seconds of
    video and shows ``pace`` times as much play (1: a real game)."""
    return max(1, round(LIFT_STEP_PLAY_S / (frame_s * pace)))


def lift_features(ev: LiftEvidence, step: int = 1) -> np.ndarray:
    """(FEATURES,) float32: rules said (none, tsumogiri, sure), the first three looks (apart,
    plain, how many), then per frame from the last still holding one (every ``step``-th moving
    frame, ``lift_step``): the row's end over ``plain`` and the tile apart's over ``hold``, in
    pitches, and whether a tile is apart."""
    rules, looks = ev.rules, ev.looks[:3]
    head = [rules is None, bool(rules and rules[0]), bool(rules and rules[1])]
    head += [sum(looks), len(looks) - sum(looks), len(looks)]
    frames = np.full((LIFT_FRAMES, 3), MISSING)
    frames[:, 2] = -1.0  # (no frame)
    hold, plain, pitch = ev.hold, ev.plain, ev.pitch
    if not np.isnan(hold):
        if np.isnan(plain) or not 0 < hold - pitch - plain < pitch:
            plain = hold - pitch - DRAWN_GAP_MM
        end = np.where(np.isnan(ev.drawn_right), ev.right, ev.drawn_right)
        # from the last frame still holding it (none: the still read that saw it held was the last)
        holding = np.nonzero(np.abs(end - hold) <= HOLD_MM)[0]
        start = int(holding[-1]) + 1 if len(holding) else 0
        right = ev.right[start : start + LIFT_FRAMES * step : step]
        drawn = ev.drawn_right[start : start + LIFT_FRAMES * step : step]
        n = len(right)
        frames[:n, 0] = np.where(np.isnan(right), MISSING, (right - plain) / pitch)
        frames[:n, 1] = np.where(np.isnan(drawn), MISSING, (drawn - hold) / pitch)
        frames[:n, 2] = ~np.isnan(drawn)
    return np.concatenate([np.array(head, float), frames.ravel()]).astype(np.float32)


class LiftModel:
    """``tsumogiri(features) -> P(tsumogiri)`` with onnxruntime (one thread: one row a discard)."""

    def __init__(self, path: Path | str = DEFAULT_LIFT_MODEL):
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = opts.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as err:  # noqa: BLE001 - onnxruntime raises its own types for a bad file
            raise LiftModelError(f"cannot load the lift model {path}: {str(err).splitlines()[0]}") from None
        self.path = Path(path)
        self._input = self.session.get_inputs()[0].name
        width = self.session.get_inputs()[0].shape[-1]
        if width != FEATURES:
            raise LiftModelError(f"{path}: a lift model of {width} features, not {FEATURES}")
        outputs = self.session.get_outputs()
        if len(outputs) < 2 or outputs[1].type != "tensor(float)" or outputs[1].shape[-1:] != [2]:
            raise LiftModelError(f"{path}: not a lift model (no (label, probabilities) outputs)")

    def tsumogiri(self, features: np.ndarray) -> float:
        probs = self.session.run(None, {self._input: features.reshape(1, -1).astype(np.float32)})[1]
        return float(probs[0, 1])


def _pace(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 100:
        raise argparse.ArgumentTypeError(f"a pace is over 0 and at most 100, not {text}")
    return value


def add_pace_argument(parser) -> None:
    """``--pace P``: seconds of play a second of video shows (``TrackerConfig.pace``)."""
    parser.add_argument(
        "--pace",
        type=_pace,
        default=1.0,
        metavar="P",
        help="seconds of play a second of the video shows: 1 for a real table (default); a clip "
        "rendered faster (mjmon synth --pace 3), 3",
    )


def add_lift_argument(parser) -> None:
    """``--lift-model FILE`` / ``--no-lift-model`` for the commands that build a tracker."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--lift-model", type=Path, metavar="FILE", help="tsumogiri model (default: models/lift.onnx)"
    )
    group.add_argument(
        "--no-lift-model", action="store_true", help="tsumogiri by the hand reader's rules alone"
    )


def lift_model_path(args) -> Path | None:
    """The lift model file the options name (None: rules alone)."""
    if getattr(args, "no_lift_model", False):
        return None
    return getattr(args, "lift_model", None) or DEFAULT_LIFT_MODEL
