"""The tile network (torch; training only): a small centre-net shaped for one known tile scale.

Images are rescaled so a tile's box is ``NATIVE_TILE_PX`` wide; the net predicts on a stride-4 grid
a tile-centre heatmap, the class, the box size, the centre offset inside the cell and the
orientation. A stride-8 trunk with dilated convolutions sees a whole tile and its neighbours; one
upsampling step brings the finer stride-4 features back for localisation.

``Exported`` wraps the net with the activations and the 3x3 peak test so that the ONNX graph returns
ready-to-gather maps and the runtime decoder stays a few vectorised numpy lines.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from models.spec import NATIVE_TILE_PX, NUM_CLASSES, NUM_ORIENTATIONS


def _cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class TileNet(nn.Module):
    """(B, 3, H, W) float in [0, 1], H and W multiples of 8 -> raw head maps (B, 5 + C + 4, H/4, W/4):
    channel 0 heat logit, 1..C class logits, then log size (2), offset logit (2), orientation (4)."""

    def __init__(self, width: int = 64) -> None:
        super().__init__()
        self.stem = nn.Sequential(_cbr(3, 16, 2), _cbr(16, 32, 2), _cbr(32, 32))
        self.trunk = nn.Sequential(
            _cbr(32, 96, 2),
            _cbr(96, 96),
            _cbr(96, 96, dilation=2),
            _cbr(96, 96, dilation=4),
        )
        # 1x1 fuse: a 3x3 here would cost as much as the whole trunk at stride 4
        self.fuse = nn.Sequential(nn.Conv2d(32 + 96, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU())
        self.head = nn.Conv2d(width, 1 + NUM_CLASSES + 2 + 2 + NUM_ORIENTATIONS, 1)
        with torch.no_grad():  # start the heatmap near the background rate (centre-net practice)
            self.head.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.stem(x)
        coarse = self.trunk(fine)
        up = F.interpolate(coarse, scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([fine, up], dim=1)))


def split_heads(raw: torch.Tensor) -> dict[str, torch.Tensor]:
    c = NUM_CLASSES
    return {
        "heat": raw[:, 0:1],
        "cls": raw[:, 1 : 1 + c],
        "size": raw[:, 1 + c : 3 + c],
        "offset": raw[:, 3 + c : 5 + c],
        "orient": raw[:, 5 + c : 5 + c + NUM_ORIENTATIONS],
    }


class Exported(nn.Module):
    """uint8-free ONNX face: input (1, 3, H, W) float BGR in [0, 1]; outputs at stride 4:
    ``peaks`` (1, 1, h, w) centre score where it is a 3x3 local maximum else 0,
    ``cls_logits`` (1, C, h, w) class logits, ``size`` (1, 2, h, w) box w, h in input px,
    ``offset`` (1, 2, h, w) centre offset in cells (0..1), ``orient_logits`` (1, 4, h, w).

    Cheaper than the training graph, same numbers: no softmax over whole maps (onnxruntime's
    channel softmax cost a third of the run; the decoder normalises only the few peak cells), and
    the fuse's 1x1 conv (BatchNorm folded in) is split over its two inputs, so the coarse half runs
    at stride 8 before the upsampling and no stride-4 concatenation is built (1x1 convs commute
    with nearest upsampling)."""

    def __init__(self, net: TileNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor):
        net = self.net
        fine = net.stem(x)
        coarse = net.trunk(fine)
        conv, bn = net.fuse[0], net.fuse[1]
        gain = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        weight = conv.weight * gain[:, None, None, None]
        bias = bn.bias - bn.running_mean * gain
        n_fine = net.stem[-1][0].out_channels  # a constant, so the export folds the weight split
        fused = F.conv2d(fine, weight[:, :n_fine], bias) + F.interpolate(
            F.conv2d(coarse, weight[:, n_fine:]), scale_factor=2.0, mode="nearest"
        )
        h = split_heads(net.head(torch.relu(fused)))
        heat = torch.sigmoid(h["heat"])
        peaks = heat * (F.max_pool2d(heat, 3, 1, 1) == heat).to(heat.dtype)
        return (
            peaks,
            h["cls"],
            torch.exp(h["size"]) * NATIVE_TILE_PX,
            torch.sigmoid(h["offset"]),
            h["orient"],
        )


OUTPUT_NAMES = ("peaks", "cls_logits", "size", "offset", "orient_logits")
