"""Make a QDQ int8 model's weights unsigned (uint8, zero point 128), losslessly.

    python -m models.unsigned_weights models/tiles.onnx models/tiles.onnx

Why: onnxruntime runs a QDQ convolution with uint8 activations and int8 weights (U8S8) on x86
with ``vpmaddubsw``, which adds two u8 x s8 products into a signed 16-bit lane. On CPUs with
AVX-512 VNNI / AVX-VNNI the products are summed in 32 bits; on AVX2-only CPUs (an AMD EPYC here,
many laptops) the pair sum saturates once activations and weights are both large. The committed
detector, quantized with int8 weights, found 5 of the demo's 38 discards on such a machine and
all 38 with its integer kernels turned off. With uint8 weights (U8U8) onnxruntime widens to 16
bits before multiplying: no saturation on any x86 CPU. A symmetric int8 weight ``w`` (zero point
0) is the uint8 weight ``w + 128`` with zero point 128: the same dequantized values, bit for bit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.detector import first_line

ZERO_POINT = 128


def unsigned_weights(model) -> int:
    """Turn every int8 weight initializer that feeds a ``DequantizeLinear`` with zero point 0 into
    uint8 with zero point 128, in place on ``model`` (an ``onnx.ModelProto``). Returns how many.
    Every node reading such a weight is checked before anything changes (a weight or a zero point
    may be shared by several nodes: each is rewritten once); ValueError for an int8 weight with
    another zero point (an asymmetric one has no lossless uint8 form in range)."""
    from onnx import numpy_helper

    init = {i.name: i for i in model.graph.initializer}
    weights: set[str] = set()
    zeros: set[str] = set()
    for node in model.graph.node:
        if node.op_type != "DequantizeLinear" or node.input[0] not in init:
            continue
        if numpy_helper.to_array(init[node.input[0]]).dtype != np.int8:
            continue
        if len(node.input) < 3 or node.input[2] not in init:
            raise ValueError(f"int8 weight {node.input[0]} has no zero point initializer")
        zero = numpy_helper.to_array(init[node.input[2]])
        if zero.dtype != np.int8 or np.any(zero != 0):
            raise ValueError(f"int8 weight {node.input[0]} is not symmetric (zero point not 0)")
        weights.add(node.input[0])
        zeros.add(node.input[2])
    for name in weights:
        shifted = (numpy_helper.to_array(init[name]).astype(np.int16) + ZERO_POINT).astype(np.uint8)
        init[name].CopyFrom(numpy_helper.from_array(shifted, name))
    for name in zeros:
        shape = numpy_helper.to_array(init[name]).shape
        init[name].CopyFrom(numpy_helper.from_array(np.full(shape, ZERO_POINT, np.uint8), name))
    return len(weights)


def int8_weights(model) -> list[str]:
    """Names of the int8 initializers that feed a ``DequantizeLinear`` (weights U8S8 kernels run)."""
    from onnx import numpy_helper

    init = {i.name: i for i in model.graph.initializer}
    names = {n.input[0] for n in model.graph.node if n.op_type == "DequantizeLinear" and n.input[0] in init}
    return sorted(n for n in names if numpy_helper.to_array(init[n]).dtype == np.int8)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m models.unsigned_weights", description=__doc__.splitlines()[0]
    )
    ap.add_argument("model", type=Path, help="QDQ ONNX with int8 weights (models.quantize)")
    ap.add_argument("out", type=Path, help="where to write it (may be the same file)")
    args = ap.parse_args(argv)
    import onnx

    try:
        model = onnx.load(str(args.model))
        count = unsigned_weights(model)
    except (OSError, ValueError) as err:
        print(f"unsigned_weights: {args.model}: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # onnx raises its own types for a file it cannot parse
        print(f"unsigned_weights: cannot read {args.model}: {first_line(err)}", file=sys.stderr)
        return 2
    # written beside the target, then renamed: an in-place rewrite never leaves half a model
    partial = args.out.with_name(args.out.name + ".partial")
    try:
        onnx.save(model, str(partial))
        partial.replace(args.out)
    except OSError as err:
        partial.unlink(missing_ok=True)
        print(f"unsigned_weights: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(f"{count} weights made unsigned -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
