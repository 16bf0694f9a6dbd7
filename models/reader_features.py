"""Give a reader ONNX file made before 2026-12-01 its ``features`` output, losslessly.

    python -m models.reader_features models/reader.onnx models/reader.onnx

``models.reader_net.export_reader`` now outputs the pooled features its head reads (a tile set's
reference compares tiles by them, ``vision.tile_reference``). A file exported before has them
inside only, as the input of its last ``Gemm``: this names that tensor as a third output,
``features``, through an ``Identity`` node. Nothing else in the graph changes, so its logits are
the same numbers.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.detector import first_line

OUTPUT = "features"


def add_features_output(model) -> bool:
    """Add the ``features`` output to an ``onnx.ModelProto`` in place; False if it has one.
    ValueError when the graph has no single ``Gemm`` fed by a ``ReduceMean`` (not a reader)."""
    from onnx import TensorProto, helper

    if OUTPUT in {o.name for o in model.graph.output}:
        return False
    pooled = {n.output[0] for n in model.graph.node if n.op_type == "ReduceMean"}
    heads = [n for n in model.graph.node if n.op_type == "Gemm" and n.input[0] in pooled]
    if len(heads) != 1:
        raise ValueError(f"expected one Gemm fed by a ReduceMean (the reader's head), found {len(heads)}")
    model.graph.node.append(helper.make_node("Identity", [heads[0].input[0]], [OUTPUT], name="features_out"))
    model.graph.output.append(helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["n", None]))
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.reader_features", description=__doc__.splitlines()[0])
    ap.add_argument("model", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    import onnx

    try:
        model = onnx.load(str(args.model))
        added = add_features_output(model)
        onnx.checker.check_model(model)
    except Exception as err:  # onnx raises many types for a file it cannot read
        print(f"reader_features: {args.model}: {first_line(err)}", file=sys.stderr)
        return 2
    try:
        onnx.save(model, str(args.out))
    except OSError as err:
        print(f"reader_features: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}" + ("" if added else " (it had the output already)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
