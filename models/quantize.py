"""Static int8 quantization of the exported tile net (onnxruntime QDQ, calibrated on training images).

    python -m models.quantize models/tiles-fp32.onnx models/tiles.onnx \
        --data ../shared/data/real/riichi-jp/train --data /tmp/stills [--count 96]
    python -m models.quantize /tmp/reader/reader.onnx models/reader.onnx --reader --data ...

``--reader``: the tile reader (``models.train_reader``), calibrated on batches of 32 tile crops cut
as ``vision.reader`` cuts them; its final linear layer stays float.

Calibration images come from the training side of ``models.data.split`` only, rescaled exactly as
``TileDetector`` rescales them (tiles ``NATIVE_TILE_PX`` wide) and cut to 384 x 384. Convolutions
are quantized (weights int8 per channel, symmetric, then stored as uint8 with zero point 128:
``models.unsigned_weights`` says why; activations uint8); the 1x1 head stays float so the class
and size logits keep their precision. Measure the accuracy cost with ``models.evaluate`` and
``models.evaluate_rendered`` before committing a quantized model.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from pathlib import Path

import numpy as np

from vision.detector import first_line

CALIBRATION_SIDE = 384
FLOAT_NODES = ("/head/Conv",)


def training_draws(specs: list[str], rng: np.random.Generator):
    """Endless random training images with tiles (``models.data.split``'s training side), taken from
    the data specs in turn."""
    from models.data import load_any, split

    per_set = [[s for s in split(load_any(spec))[0] if len(s.classes)] for spec in specs]
    for k in itertools.count():
        samples = per_set[k % len(per_set)]
        yield samples[int(rng.integers(len(samples)))]


def calibration_inputs(specs: list[str], count: int, seed: int = 0) -> list[np.ndarray]:
    """``count`` net inputs (1, 3, S, S) float32 drawn evenly from the data specs' training images."""
    from vision.detector import net_input

    rng = np.random.default_rng(seed)
    draws = training_draws(specs, rng)
    inputs = []
    for _ in range(count):
        sample = next(draws)
        x, _ = net_input(sample.load_image(), sample.median_tile_width())
        h, w = x.shape[2:]
        y0 = int(rng.integers(0, max(h - CALIBRATION_SIDE, 0) + 1)) // 8 * 8
        x0 = int(rng.integers(0, max(w - CALIBRATION_SIDE, 0) + 1)) // 8 * 8
        inputs.append(np.ascontiguousarray(x[:, :, y0 : y0 + CALIBRATION_SIDE, x0 : x0 + CALIBRATION_SIDE]))
    return inputs


def reader_calibration_inputs(specs: list[str], count: int, seed: int = 0) -> list[np.ndarray]:
    """``count`` batches (32, 3, READER_PX, READER_PX) of training tiles, cut as the reader cuts them."""
    from vision.reader import crop_tiles, to_input

    draws = training_draws(specs, np.random.default_rng(seed))
    inputs = []
    for _ in range(count):
        crops = []
        while sum(len(c) for c in crops) < 32:
            sample = next(draws)
            crops.append(crop_tiles(sample.load_image(), sample.boxes))
        inputs.append(to_input(np.concatenate(crops)[:32]))
    return inputs


def quantize(
    model: Path,
    out: Path,
    inputs: list[np.ndarray],
    input_name: str = "image",
    float_nodes: tuple[str, ...] = FLOAT_NODES,
    op_types: tuple[str, ...] = ("Conv", "Relu", "Add", "Resize"),
) -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.items = iter(inputs)

        def get_next(self):
            x = next(self.items, None)
            return None if x is None else {input_name: x}

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(out),
            Reader(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=list(op_types),
            nodes_to_exclude=list(float_nodes),
        )
    import onnx

    from models.unsigned_weights import unsigned_weights

    quantized = onnx.load(str(out))
    unsigned_weights(quantized)  # U8U8: no saturating kernel on AVX2-only CPUs (models.unsigned_weights)
    onnx.save(quantized, str(out))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.quantize", description=__doc__.splitlines()[0])
    ap.add_argument("model", type=Path, help="float ONNX from models.export / models.train")
    ap.add_argument("out", type=Path)
    ap.add_argument("--data", action="append", required=True, help="YOLO folder, stills folder or COCO json")
    ap.add_argument("--count", type=int, default=96)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reader", action="store_true", help="the model is the tile reader, not the detector")
    args = ap.parse_args(argv)
    if not args.model.is_file():
        return _fail(f"model file not found: {args.model}")
    make_inputs = reader_calibration_inputs if args.reader else calibration_inputs
    try:
        inputs = make_inputs(args.data, args.count, args.seed)
    except (OSError, ValueError) as err:
        return _fail(f"calibration data: {err}")
    try:
        if args.reader:
            quantize(args.model, args.out, inputs, "crops", (), ("Conv", "Relu"))
        else:
            quantize(args.model, args.out, inputs)
    except Exception as err:  # onnx / onnxruntime raise many types for a model they cannot read
        return _fail(f"cannot quantize {args.model}: {first_line(err)}")
    print(f"wrote {args.out}")
    return 0


def _fail(message: str) -> int:
    print(f"quantize: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
