"""The networks' torch weights back from their exported ONNX files (``models/tiles.onnx``,
``models/reader.onnx``), so a training run can start from the committed models. Needs the
``train`` extra.

The export folds each BatchNorm into its convolution and the int8 file stores the weights
quantized (``models.quantize``): this reads every convolution's weights (dequantized where they
are) and puts them back into a ``TileNet`` or ``ReaderNet``, each BatchNorm holding only the
folded bias, so the net computes in eval mode what the file computes before activation rounding.
Training uses batch statistics instead of running ones; ``match_batch_statistics`` re-expresses
each BatchNorm so that the batches it is shown pass through unchanged in training mode too
(otherwise the first step would re-normalise every layer and undo the warm start).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.net import TileNet
from models.reader_net import ReaderNet

# node names the exporter gives the convolutions of a block ``NAME[i][0]`` and the head (after a
# scope prefix some torch versions add: the committed reader's is ``/net``)
_MODULE_CONV = re.compile(r"/(stem|trunk|features)/\1\.(\d+)/\1\.\2\.0/Conv$")
_HEAD_CONV = "/head/Conv"
_READER_HEAD = "/head/Gemm"


WARM_BATCHES = 16  # training batches whose statistics a warm start's BatchNorms take


class OnnxWeightsError(ValueError):
    """The file is not an export of the net asked for (another net, or a damaged file)."""


def _tensor(name: str, inits: dict[str, np.ndarray], producers: dict) -> np.ndarray:
    """An initializer, or the float value of a DequantizeLinear of initializers."""
    if name in inits:
        return inits[name].astype(np.float32)
    node = producers.get(name)
    if node is None or node.op_type != "DequantizeLinear":
        raise OnnxWeightsError(f"weight {name!r} is neither stored nor dequantized from stored values")
    q, scale, zero = (inits[i] for i in node.input[:3])
    axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
    shape = [1] * q.ndim
    if scale.ndim:  # per channel along ``axis``
        shape[axis] = -1
    return ((q.astype(np.float32) - zero.astype(np.float32).reshape(shape)) * scale.reshape(shape)).astype(
        np.float32
    )


def folded_convolutions(path: Path) -> dict[str, tuple[np.ndarray, np.ndarray | None, dict]]:
    """Every convolution (and fully connected layer) of the file as (weight, bias or None, its
    attributes), keyed by its node name. A graph still holding BatchNorm layers (exported in
    training mode) is refused: their statistics would be lost."""
    import onnx
    from onnx import helper, numpy_helper

    if not Path(path).is_file():
        raise OnnxWeightsError(f"{path}: no such file")
    try:
        model = onnx.load(str(path))
    except Exception as exc:  # noqa: BLE001 - onnx raises several kinds for a damaged file
        raise OnnxWeightsError(f"{path}: not a readable ONNX file ({exc})") from exc
    if any(n.op_type == "BatchNormalization" for n in model.graph.node):
        raise OnnxWeightsError(f"{path}: its BatchNorm layers are not folded (exported in training mode)")
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    producers = {out: n for n in model.graph.node for out in n.output}
    out = {}
    try:
        for node in model.graph.node:
            if node.op_type not in ("Conv", "Gemm"):
                continue
            weight = _tensor(node.input[1], inits, producers)
            bias = _tensor(node.input[2], inits, producers) if len(node.input) > 2 and node.input[2] else None
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            out[node.name] = (weight, bias, attrs)
    except (KeyError, ValueError) as exc:
        raise OnnxWeightsError(f"{path}: a weight it names cannot be read ({exc})") from exc
    return out


def _same_settings(conv: nn.Conv2d, attrs: dict) -> bool:
    """Does the file's convolution slide as ``conv`` does (stride, dilation, padding, groups)?"""
    pads = list(attrs.get("pads", [0, 0, 0, 0]))
    return (
        list(attrs.get("strides", [1, 1])) == list(conv.stride)
        and list(attrs.get("dilations", [1, 1])) == list(conv.dilation)
        and pads[:2] == list(conv.padding)
        and pads[2:] == list(conv.padding)
        and attrs.get("group", 1) == conv.groups
    )


def _set_folded(conv: nn.Conv2d, bn: nn.BatchNorm2d, weight: np.ndarray, bias: np.ndarray) -> None:
    """Conv then BatchNorm computing ``conv(x, weight) + bias`` in eval mode."""
    if tuple(conv.weight.shape) != weight.shape:
        raise OnnxWeightsError(
            f"a convolution of shape {weight.shape} where the net has {tuple(conv.weight.shape)}"
        )
    with torch.no_grad():
        conv.weight.copy_(torch.from_numpy(weight))
        bn.running_mean.zero_()
        bn.running_var.fill_(1.0 - bn.eps)
        bn.weight.fill_(1.0)
        bn.bias.copy_(torch.from_numpy(bias))


def _load_blocks(convs: dict, blocks: dict[str, nn.Sequential], head: nn.Module, head_name: str) -> list:
    """Put the file's block convolutions (``blocks[name][i]`` is conv, BatchNorm, ReLU) and its head
    into the net; returns the layers left over as (weight, bias). Raises unless every block and the
    head were found, shaped as the net's."""
    found, rest = 0, []
    for name, (weight, bias, attrs) in convs.items():
        m = _MODULE_CONV.search(name)
        if m and m.group(1) in blocks and int(m.group(2)) < len(blocks[m.group(1)]):
            block = blocks[m.group(1)][int(m.group(2))]
            if not _same_settings(block[0], attrs):
                raise OnnxWeightsError(f"{name} slides otherwise than the net's ({attrs})")
            zero = np.zeros(len(weight), np.float32)
            _set_folded(block[0], block[1], weight, zero if bias is None else bias)
            found += 1
        elif name.endswith(head_name):
            plain = isinstance(head, nn.Conv2d) and _same_settings(head, attrs)
            plain |= isinstance(head, nn.Linear) and attrs.get("transB") == 1 and attrs.get("transA", 0) == 0
            plain &= attrs.get("alpha", 1.0) == 1.0 and attrs.get("beta", 1.0) == 1.0
            if tuple(head.weight.shape) != weight.shape or bias is None or not plain:
                raise OnnxWeightsError(
                    f"a head of shape {weight.shape} where the net has {tuple(head.weight.shape)}"
                )
            with torch.no_grad():
                head.weight.copy_(torch.from_numpy(weight))
                head.bias.copy_(torch.from_numpy(bias))
            found += 1
        else:
            rest.append((weight, bias, attrs))
    if found != sum(len(seq) for seq in blocks.values()) + 1:
        raise OnnxWeightsError(f"{found} of the net's layers found")
    return rest


def tilenet_from_onnx(path: Path) -> TileNet:
    """A ``TileNet`` computing (in eval mode) what the exported file ``path`` computes."""
    net = TileNet()
    convs = folded_convolutions(path)  # (a missing or unreadable file says so itself)
    refused = OnnxWeightsError(f"{path}: not an export of the tile net (models.net.Exported)")
    try:
        fuse_parts = _load_blocks(convs, {"stem": net.stem, "trunk": net.trunk}, net.head, _HEAD_CONV)
    except OnnxWeightsError as err:
        raise refused from err
    n_fine = net.stem[-1][0].out_channels
    fine = [p for p in fuse_parts if p[0].shape[1] == n_fine]
    coarse = [p for p in fuse_parts if p[0].shape[1] != n_fine]
    if (
        len(fine) != 1
        or len(coarse) != 1
        or not all(_same_settings(net.fuse[0], p[2]) for p in fine + coarse)
    ):
        raise refused
    # the export split the fuse's 1x1 conv over its two inputs; a bias on either half adds
    weight = np.concatenate([fine[0][0], coarse[0][0]], axis=1)
    bias = sum((b for _, b, _ in fine + coarse if b is not None), np.zeros(len(weight), np.float32))
    try:
        _set_folded(net.fuse[0], net.fuse[1], weight, bias)
    except OnnxWeightsError as err:
        raise refused from err
    return net


def readernet_from_onnx(path: Path) -> ReaderNet:
    """A ``ReaderNet`` computing (in eval mode) what the exported reader ``path`` computes."""
    net = ReaderNet()
    convs = folded_convolutions(path)
    refused = OnnxWeightsError(f"{path}: not an export of the tile reader (models.reader_net)")
    try:
        rest = _load_blocks(convs, {"features": net.features}, net.head, _READER_HEAD)
    except OnnxWeightsError as err:
        raise refused from err
    if rest:
        raise refused
    return net


def match_batch_statistics(net: nn.Module, batches) -> None:
    """Re-express every Conv + BatchNorm pair so training-mode BatchNorm, which normalises by the
    batch's own statistics, passes these batches' activations through as eval mode does: running
    mean and variance become the statistics measured on ``batches`` (tensors (B, 3, H, W)), the
    scale and shift undo them. Eval-mode outputs do not change."""
    pairs = [
        (m[i], m[i + 1])
        for m in net.modules()
        if isinstance(m, nn.Sequential)
        for i in range(len(m) - 1)
        if isinstance(m[i], nn.Conv2d) and isinstance(m[i + 1], nn.BatchNorm2d)
    ]
    sums: dict[int, list] = {id(c): [0.0, 0.0, 0] for c, _ in pairs}

    def record(conv, _inputs, output):
        s = sums[id(conv)]
        x = output.detach().double()
        s[0] = s[0] + x.sum(dim=(0, 2, 3))
        s[1] = s[1] + (x * x).sum(dim=(0, 2, 3))
        s[2] += x.numel() // x.shape[1]

    hooks = [c.register_forward_hook(record) for c, _ in pairs]
    was_training = net.training
    net.eval()
    try:
        with torch.no_grad():
            for x in batches:
                net(x)
    finally:
        for h in hooks:
            h.remove()
        net.train(was_training)
    with torch.no_grad():
        for conv, bn in pairs:
            total, squares, n = sums[id(conv)]
            if not n:
                raise ValueError("match_batch_statistics: no batches")
            mean = total / n
            var = (squares / n - mean * mean).clamp(min=0)
            # eval mode: (x - rm) / sqrt(rv + eps) * w + b, which is x + shift before and after
            gain = bn.weight / torch.sqrt(bn.running_var + bn.eps)
            shift = bn.bias - bn.running_mean * gain  # the folded bias (gain is 1 after _set_folded)
            conv.weight.mul_(gain[:, None, None, None])
            bn.running_mean.copy_((mean * gain.double()).float())
            bn.running_var.copy_((var * gain.double() ** 2).float())
            bn.weight.copy_(torch.sqrt(bn.running_var + bn.eps))
            bn.bias.copy_(bn.running_mean + shift)


def warm_start(read, path: Path, draw) -> nn.Module:
    """The net ``read(path)`` builds from an exported file, its BatchNorms matched to
    ``WARM_BATCHES`` training inputs ``draw()`` gives, ready to train; says so on stdout. Raises
    ``OnnxWeightsError`` for a file that is not that net's."""
    net = read(path)
    match_batch_statistics(net, (draw() for _ in range(WARM_BATCHES)))
    print(f"warm start from {path} (batch statistics of {WARM_BATCHES} batches)", flush=True)
    return net
