"""ONNX export of a training checkpoint (``OUT/last.pt`` of ``models.train``). Needs the ``train`` extra.

    python -m models.export /tmp/tilenet/last.pt models/tiles.onnx

The graph is ``models.net.Exported`` (opset 17, dynamic height and width).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from models.net import OUTPUT_NAMES, Exported, TileNet


def export_graph(
    net: torch.nn.Module, graph: torch.nn.Module, example: torch.Tensor, path: Path, **names
) -> None:
    """``graph`` (a wrapper around ``net``) to ONNX opset 17 with ``net`` in eval mode, then back
    to the mode it was in; ``names``: input_names, output_names, dynamic_axes."""
    was_training = net.training
    net.eval()
    with torch.no_grad():
        torch.onnx.export(graph, example, str(path), opset_version=17, dynamo=False, **names)
    net.train(was_training)


def export_onnx(net: TileNet, path: Path) -> None:
    export_graph(
        net,
        Exported(net),
        torch.zeros(1, 3, 256, 256),
        path,
        input_names=["image"],
        output_names=list(OUTPUT_NAMES),
        dynamic_axes={"image": {2: "h", 3: "w"}, **{n: {2: "gh", 3: "gw"} for n in OUTPUT_NAMES}},
    )


def load_checkpoint(path: Path) -> TileNet:
    net = TileNet()
    net.load_state_dict(torch.load(path, weights_only=False)["net"])
    return net


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.export", description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint", type=Path)
    ap.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    export_onnx(load_checkpoint(args.checkpoint), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
