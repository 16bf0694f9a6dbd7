"""Fixtures the model tests share."""

import json

import numpy as np
import pytest


@pytest.fixture
def one_class_photos(tmp_path):
    """A YOLO folder of 8 plain photos (each its own source) of ``size`` (h, w) with one 1m tile
    each at box ``(cx, cy, w, h)`` (fractions of the image): the least a training run reads."""
    import cv2

    def make(size: tuple[int, int], box: tuple[float, float, float, float]):
        folder = tmp_path / "photos"
        (folder / "images").mkdir(parents=True)
        (folder / "labels").mkdir()
        for i in range(8):
            cv2.imwrite(
                str(folder / "images" / f"src{i}_jpg.rf.{i}.jpg"), np.full((*size, 3), 90 + 10 * i, np.uint8)
            )
            (folder / "labels" / f"src{i}_jpg.rf.{i}.txt").write_text("0 " + " ".join(map(str, box)) + "\n")
        (folder / "meta.json").write_text(json.dumps({"classes": ["1m"]}))
        return folder

    return make


def with_trained_statistics(make):
    """The net ``make()`` builds (seeded: the same weights whatever ran before) with non-trivial
    BatchNorm statistics, as after training; eval mode."""
    import torch

    torch.manual_seed(0)
    net = make()
    with torch.no_grad():
        for bn in (m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)):
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 2.0)
            bn.weight.uniform_(0.5, 1.5)
            bn.bias.uniform_(-0.2, 0.2)
    return net.eval()


@pytest.fixture(scope="module")
def trained_like(tmp_path_factory):
    """A tile net as after training (``with_trained_statistics``), exported to float ONNX: (net, path)."""
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
    from models.export import export_onnx
    from models.net import TileNet

    net = with_trained_statistics(TileNet)
    path = tmp_path_factory.mktemp("export") / "tiles.onnx"
    export_onnx(net, path)
    return net, path


@pytest.fixture
def warm_start_run(tmp_path, capsys):
    """Runs a training entry point ``main`` for no step from ``init`` on ``data``; checks it said so
    and that the net's BatchNorm ``bn_key`` took the warm batches' statistics (without, training
    mode would undo the start). Returns the run's output folder."""

    def run(main, init, data, batch: int, bn_key: str):
        import torch

        out = tmp_path / "out"
        args = ["--data", str(data), "--out", str(out), "--minutes", "0", "--batch", str(batch)]
        assert main([*args, "--init", str(init)]) == 0
        assert f"warm start from {init}" in capsys.readouterr().out
        running_var = torch.load(out / "last.pt", weights_only=False)["net"][bn_key]
        assert not torch.allclose(running_var, torch.ones_like(running_var), atol=1e-3)
        return out

    return run
