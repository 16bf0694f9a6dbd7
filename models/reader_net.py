"""The reader network (torch; training only): one tile crop in, its class out.

(B, 3, READER_PX, READER_PX) float in [0, 1] -> (B, NUM_CLASSES + NUM_ORIENTATIONS) logits: the
tile's class, then how far it is turned (the detector's orientation classes, 0/90/180/270 degrees
counterclockwise in the image). Six 3x3 conv layers, four
of them stride 2, then global average pooling: about 0.1 M parameters and 5 M multiply-adds a tile,
so re-reading the ~80 face-up tiles of a table costs a few milliseconds.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from models.export import export_graph
from models.spec import NUM_CLASSES, NUM_ORIENTATIONS, READER_PX


def _cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class ReaderNet(nn.Module):
    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            _cbr(3, w, 2),
            _cbr(w, 2 * w, 2),
            _cbr(2 * w, 2 * w),
            _cbr(2 * w, 4 * w, 2),
            _cbr(4 * w, 4 * w),
            _cbr(4 * w, 8 * w, 2),
        )
        self.head = nn.Linear(8 * w, NUM_CLASSES + NUM_ORIENTATIONS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).mean(dim=(2, 3)))


class _Exported(nn.Module):
    def __init__(self, net: ReaderNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor):
        features = self.net.features(x).mean(dim=(2, 3))
        out = self.net.head(features)
        return out[:, :NUM_CLASSES], out[:, NUM_CLASSES:], features


def export_reader(net: ReaderNet, path: Path) -> None:
    """ONNX (opset 17) with a dynamic batch: input ``crops``, outputs ``logits``, ``orient_logits``
    and ``features`` (the pooled features the head reads: a tile set's reference compares them,
    ``vision.tile_reference``)."""
    export_graph(
        net,
        _Exported(net),
        torch.zeros(2, 3, READER_PX, READER_PX),
        path,
        input_names=["crops"],
        output_names=["logits", "orient_logits", "features"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}, "orient_logits": {0: "n"}, "features": {0: "n"}},
    )
