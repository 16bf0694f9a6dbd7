"""How strongly a tile set's reference should steer the reading: a grid over its weight and sharpness.

    python -m models.tune_reference CLIP... --tiles-ref REF [--frames 40] [--weights 0.75,1]
        [--sharpness 40,100] [--temperatures 1,2] [--sure 0.6] [--ratio 1] [--model M] [--reader R]
        [--json OUT]

Each CLIP is ``mjmon synth`` output drawn with the reference's art (clips of a game no evaluation
set plays, so the choice is not made on the figures it is judged by). On ``--frames`` keyframes of
each, every true face-up tile the detector finds face up (IoU >= 0.5) is read once, and its two
readings are kept: the net and reader's class log-probabilities and its likeness to the reference
(``TileDetector.face_readings``). Each weight and sharpness then combines them as the detector
would (``vision.tile_reference.lean_on_likeness``), and the share of tiles whose kind (red fives
as fives) comes out right is printed per clip and over all clips; the detector's current setting
is marked. A setting that reads every clip at least as well is the one to choose. At each
``--temperatures`` value it also prints how many wrong reads come out sure (probability ``--sure``
or more, and ``--ratio`` times the runner-up's: the tracker's sure meld faces ask 0.5 and 10)
against the share of right ones that do.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from datasets.clip_stills import synth_keyframes
from models.metrics import greedy_match, iou_matrix
from tracker.figures import write_output
from tracker.tiles import BACK, MODEL_CLASSES, STANDING, class_id, deaka
from vision.reader_options import add_reader_argument, reader_options

_KIND = np.array(
    [class_id(deaka(c)) if c not in (BACK, STANDING) else i for i, c in enumerate(MODEL_CLASSES)]
)


@dataclass
class Readings:
    """Matched face-up tiles of one clip: true class ids (N,), the net and reader's class
    log-probabilities (N, C) and the reference likenesses (N, C)."""

    truth: np.ndarray
    log_p: np.ndarray
    likeness: np.ndarray

    def sureness(
        self, weight: float, sharpness: float, temperature: float, floor: float, ratio: float = 1.0
    ) -> dict:
        """How sure the reads come out once the leaned log-probabilities are divided by
        ``temperature``: wrong reads whose class probability is ``floor`` or more and ``ratio``
        times the runner-up's (of all wrong reads), and the share of right reads that sure (the
        tracker takes a face read at 0.5-0.6 or more as evidence, a meld face at 0.5 and 10 times
        its runner-up; the class itself does not depend on the temperature)."""
        from vision.tile_reference import lean_on_likeness

        z = lean_on_likeness(self.log_p, self.likeness, weight, sharpness) / temperature
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        two = np.sort(p, axis=1)[:, -2:]
        sure = (two[:, 1] >= floor) & (two[:, 1] >= ratio * two[:, 0])
        right = _KIND[z.argmax(axis=1)] == _KIND[self.truth]
        return {
            "wrong_sure": int(sure[~right].sum()),
            "wrong": int((~right).sum()),
            "right_sure_share": round(float(sure[right].mean()), 4) if right.any() else None,
        }

    def kinds_right(self, weight: float, sharpness: float) -> float:
        from vision.tile_reference import lean_on_likeness

        if not len(self.truth):
            return float("nan")
        read = lean_on_likeness(self.log_p, self.likeness, weight, sharpness).argmax(axis=1)
        return float((_KIND[read] == _KIND[self.truth]).mean())


def clip_readings(detector, clip: Path, frames: int) -> Readings:
    """The matched face-up tiles of ``frames`` keyframes of ``clip`` and their readings."""
    truth, log_ps, likes = [], [], []
    for image, tiles in synth_keyframes(clip, picks=frames):
        up = [t for t in tiles if t["face_up"] and t["code"] not in (BACK, STANDING)]
        if not up:
            continue
        boxes = np.asarray([t["box"] for t in up], np.float32).reshape(-1, 4)
        tile_px = float(np.median(boxes[:, 2] - boxes[:, 0]))
        found, probs = detector.net_detections(image, tile_px)
        face = np.flatnonzero(found.face_up)
        if not len(face):
            continue
        codes = np.array([class_id(t["code"]) for t in up])
        pairs = greedy_match(iou_matrix(boxes, found.boxes[face]), np.ones((len(up), len(face)), bool))
        if not len(pairs):
            continue
        picked = face[pairs[:, 1]]
        log_p, likeness = detector.face_readings(image, found.boxes[picked], probs[picked])
        truth.append(codes[pairs[:, 0]])
        log_ps.append(log_p)
        likes.append(likeness)
    width = len(MODEL_CLASSES)
    if not truth:
        return Readings(np.zeros(0, np.int64), np.zeros((0, width)), np.zeros((0, width)))
    return Readings(np.concatenate(truth), np.concatenate(log_ps), np.concatenate(likes))


def _numbers(text: str) -> list[float]:
    try:
        return [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.tune_reference", description=__doc__.split("\n\n")[0])
    ap.add_argument("clips", nargs="+", type=Path, help="mjmon synth output directories")
    ap.add_argument("--frames", type=int, default=40, help="keyframes per clip (default 40)")
    ap.add_argument("--weights", type=_numbers, default=[0.5, 0.75, 0.9, 1.0])
    ap.add_argument("--sharpness", type=_numbers, default=[20, 40, 60, 80, 100, 120])
    ap.add_argument(
        "--temperatures",
        type=_numbers,
        default=[1.0, 2.0],
        help="also print how sure the pooled reads come out at each (default 1,2)",
    )
    ap.add_argument("--sure", type=float, default=0.6, help="the probability counted as sure (default 0.6)")
    ap.add_argument(
        "--ratio", type=float, default=1.0, help="... and its multiple of the runner-up's (default 1)"
    )
    ap.add_argument("--model", type=Path)
    ap.add_argument("--json", type=Path, help="also write the grid here")
    add_reader_argument(ap)
    args = ap.parse_args(argv)
    reader = reader_options(args)
    if args.frames < 1 or min(args.temperatures, default=1) <= 0 or not 0 < args.sure <= 1 or args.ratio < 1:
        print(
            "tune_reference: --frames must be >= 1, --temperatures > 0, --sure in (0, 1], --ratio >= 1",
            file=sys.stderr,
        )
        return 2
    if reader.reference is None or reader.path is None:
        print("tune_reference: needs --tiles-ref FILE and a reader", file=sys.stderr)
        return 2
    for clip in args.clips:
        if not (clip / "truth.json").is_file() or not (clip / "video.mp4").is_file():
            print(
                f"tune_reference: {clip}: no video.mp4 and truth.json (mjmon synth output)", file=sys.stderr
            )
            return 2

    from vision.detector import DEFAULT_MODEL, ModelError, TileDetector

    absent = tuple(c for c in MODEL_CLASSES if c.startswith(("flower", "season")))  # riichi art
    try:
        detector = TileDetector(
            args.model or DEFAULT_MODEL, absent_classes=absent, **reader.detector_kwargs()
        )
    except ModelError as err:
        print(f"tune_reference: {err}", file=sys.stderr)
        return 2
    readings = {}
    for clip in args.clips:
        readings[clip.name] = clip_readings(detector, clip, args.frames)
        print(f"{clip.name}: {len(readings[clip.name].truth)} face-up tiles matched", file=sys.stderr)
    pooled = Readings(
        np.concatenate([r.truth for r in readings.values()]),
        np.concatenate([r.log_p for r in readings.values()]),
        np.concatenate([r.likeness for r in readings.values()]),
    )
    current = (detector.reference_weight, detector.reference_sharpness)
    grid = []
    for w in args.weights:
        for s in args.sharpness:
            row = {"weight": w, "sharpness": s, "current": (w, s) == current}
            row["clips"] = {name: round(r.kinds_right(w, s), 4) for name, r in readings.items()}
            row["all"] = round(pooled.kinds_right(w, s), 4)
            row["sureness"] = {
                f"{t:g}": pooled.sureness(w, s, t, args.sure, args.ratio) for t in args.temperatures
            }
            grid.append(row)
    names = list(readings)
    print("weight sharpness  all     " + "  ".join(f"{n[:14]:>14}" for n in names))
    for row in grid:
        mark = " *" if row["current"] else ""
        cells = "  ".join(f"{row['clips'][n]:>14.4f}" for n in names)
        print(f"{row['weight']:>6g} {row['sharpness']:>9g}  {row['all']:.4f}  {cells}{mark}")
    times = f" and {args.ratio:g}x the runner-up" if args.ratio > 1 else ""
    print(
        f"\nall clips, reads with p >= {args.sure:g}{times}: wrong ones sure of all wrong / right ones sure"
    )
    print("weight sharpness  " + "  ".join(f"{'T=' + format(t, 'g'):>22}" for t in args.temperatures))
    for row in grid:
        cells = "  ".join(
            f"{v['wrong_sure']:>5}/{v['wrong']:<5} {v['right_sure_share'] or 0:>9.3f}"
            for v in row["sureness"].values()
        )
        print(f"{row['weight']:>6g} {row['sharpness']:>9g}  {cells}")
    counts = {name: len(r.truth) for name, r in readings.items()}
    if args.json and not write_output(
        args.json, json.dumps({"tiles": counts, "grid": grid}, indent=1) + "\n", "tune_reference"
    ):
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
