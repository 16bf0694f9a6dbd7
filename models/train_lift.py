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


def load(paths: list[Path]) -> dict[str, np.ndarray]:
    """features, tsumogiri, rules (their decision), camera of the npz files, concatenated."""
    parts = [np.load(p) for p in paths]
    return {k: np.concatenate([d[k] for d in parts]) for k in ("features", "tsumogiri", "rules", "camera")}


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
    try:
        from skl2onnx import to_onnx
        from sklearn.ensemble import GradientBoostingClassifier
    except ImportError:
        print("train_lift: needs the train extra: pip install -e '.[train]'", file=sys.stderr)
        return 2
    from tracker.lift_model import FEATURES, LiftModel

    data = load(args.train)
    x, y, cam = data["features"], data["tsumogiri"], data["camera"]
    if x.ndim != 2 or x.shape[1] != FEATURES or len(x) < 100:
        print(
            f"train_lift: {len(x)} rows of {x.shape[-1]} features; need 100+ of {FEATURES}", file=sys.stderr
        )
        return 2
    model = GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, random_state=SEED).fit(x, y)
    print(f"trained on {len(x)} discards ({int(y.sum())} tsumogiri)")
    print(report("  train, model", model.predict(x) == y, cam))
    onx = to_onnx(model, x[:1].astype(np.float32), options={id(model): {"zipmap": False}}, target_opset=17)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(onx.SerializeToString())
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    if args.test:
        test = load(args.test)
        onnx_model = LiftModel(args.out)  # (the exported file, as the tracker runs it)
        said = np.array([onnx_model.tsumogiri(row) >= 0.5 for row in test["features"]])
        print(report("  test, model", said == test["tsumogiri"], test["camera"]))
        print(report("  test, rules", test["rules"] == test["tsumogiri"], test["camera"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
