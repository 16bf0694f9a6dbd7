"""Train the lift model (``tracker.lift_model``): tsumogiri from how the hand looked while its
discard was lifted, a gradient-boosted tree ensemble exported to ONNX.

    python -m models.train_lift TRAIN.npz [...] --out models/lift.onnx [--test TEST.npz ...]

TRAIN / TEST are ``python -m models.lift_data`` outputs. Needs the ``train`` extra (scikit-learn,
skl2onnx); the tracker runs the exported file with onnxruntime alone. With ``--test``, prints
the model's and the rules' share right on those discards, by camera (the rules' decision is
recorded beside the features: ``read_hands._tsumogiri`` without a model).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

TREES = 100
DEPTH = 3
SEED = 0


KEYS = ("features", "tsumogiri", "rules", "camera")


class DataError(Exception):
    """A training file that is missing or not ``models.lift_data``'s output."""


def load(paths: list[Path]) -> dict[str, np.ndarray]:
    """features, tsumogiri, rules (their decision), camera of the npz files, concatenated."""
    parts = []
    for path in paths:
        try:
            data = np.load(path)
        except (OSError, ValueError) as err:
            raise DataError(f"cannot read {path}: {str(err).splitlines()[0]}") from None
        missing = [k for k in KEYS if k not in getattr(data, "files", ())]
        if missing:
            raise DataError(f"{path}: not a lift_data file (no {', '.join(missing)})")
        parts.append(data)
    return {k: np.concatenate([d[k] for d in parts]) for k in KEYS}


def report(name: str, right: np.ndarray, camera: np.ndarray) -> str:
    parts = [f"{name}: {right.mean():.4f} ({int(right.sum())}/{len(right)})"]
    for cam in sorted(set(camera.tolist())):
        sel = camera == cam
        parts.append(f"{cam} {right[sel].mean():.4f}")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m models.train_lift", description=__doc__.split("\n\n")[0])
    p.add_argument("train", nargs="+", type=Path, help="lift_data npz files to train on")
    p.add_argument("--test", nargs="*", type=Path, default=[], help="lift_data npz files to score on")
    p.add_argument("--out", type=Path, required=True, help="ONNX file to write")
    args = p.parse_args(argv)
    from tracker.lift_model import FEATURES, LiftModel

    try:
        data = load(args.train)
        test = load(args.test) if args.test else None
    except DataError as err:
        print(f"train_lift: {err}", file=sys.stderr)
        return 2
    x, y, cam = data["features"], data["tsumogiri"], data["camera"]
    for name, rows, least in (("training", x, 100), ("test", None if test is None else test["features"], 1)):
        if rows is not None and (rows.ndim != 2 or rows.shape[-1] != FEATURES or len(rows) < least):
            shape = f"{len(rows)} of {rows.shape[-1]} features"
            print(f"train_lift: {name} rows: {shape}; need {least}+ of {FEATURES}", file=sys.stderr)
            return 2
    try:
        from skl2onnx import to_onnx
        from sklearn.ensemble import GradientBoostingClassifier
    except ImportError:
        print("train_lift: needs the train extra: pip install -e '.[train]'", file=sys.stderr)
        return 2
    model = GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, random_state=SEED).fit(x, y)
    print(f"trained on {len(x)} discards ({int(y.sum())} tsumogiri)")
    print(report("  train, model", model.predict(x) == y, cam))
    onx = to_onnx(model, x[:1].astype(np.float32), options={id(model): {"zipmap": False}}, target_opset=17)
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_bytes(onx.SerializeToString())
    except OSError as err:
        print(f"train_lift: cannot write {args.out}: {err.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    if test is not None:
        onnx_model = LiftModel(args.out)  # (the exported file, as the tracker runs it)
        said = np.array([onnx_model.tsumogiri(row) >= 0.5 for row in test["features"]])
        print(report("  test, model", said == test["tsumogiri"], test["camera"]))
        print(report("  test, rules", test["rules"] == test["tsumogiri"], test["camera"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
