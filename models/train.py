"""Train the tile net on CPU and export ONNX. Needs the ``train`` extra (torch).

    nice -n 15 python -m models.train --data /work/shared/data/real/riichi-jp/train \
        --data /work/shared/data/real/chinese/train --art /work/shared/tileart/fluffystuff \
        --art /work/shared/tileart/kmahjongg-default --minutes 90 --out /tmp/tilenet

``--data`` takes YOLO folders (with meta.json), ``mjmon stills`` output folders or COCO json files;
``PATH@N`` draws that set N times as often. Photos whose source is held out (``models.data.split``)
are never used. YOLO photos are read into memory once; stills (thousands) are read per crop.
``--init`` warm-starts the net's weights from a checkpoint or from an exported model such as the
committed ``models/tiles.onnx`` (``models.from_onnx``; fresh optimiser and schedule);
``--resume`` continues a run (weights, optimiser, step and time spent). Training runs for a
wall-clock budget with a cosine learning rate over that budget; every ``--ckpt-every`` steps it writes
``OUT/last.pt`` and ``OUT/tiles.onnx``, so a model can be taken mid-way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F

from models.augment import ArtBank, paste_crop, real_crop, targets
from models.data import load_any, split
from models.export import export_onnx
from models.from_onnx import OnnxWeightsError, tilenet_from_onnx, warm_start
from models.net import TileNet, split_heads


def focal_heat_loss(logit: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heatmap."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - target) ** 4 * (1 - pos)
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def losses(raw: torch.Tensor, t: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    h = split_heads(raw)
    reg = t["reg"].unsqueeze(1).float()
    n = reg.sum().clamp(min=1)
    return {
        "heat": focal_heat_loss(h["heat"], t["heat"]),
        "cls": F.cross_entropy(h["cls"], t["cls"], ignore_index=-1)
        if (t["cls"] >= 0).any()
        else raw.sum() * 0,
        "size": (F.l1_loss(h["size"], t["size"], reduction="none") * reg).sum() / n,
        "offset": (F.l1_loss(torch.sigmoid(h["offset"]), t["offset"], reduction="none") * reg).sum() / n,
        "orient": F.cross_entropy(h["orient"], t["orient"], ignore_index=-1)
        if (t["orient"] >= 0).any()
        else raw.sum() * 0,
    }


WEIGHTS = {"heat": 1.0, "cls": 1.0, "size": 0.5, "offset": 0.5, "orient": 0.5}


class TrainingSet:
    """The weighted training images. YOLO photo sets are read into memory once; ``mjmon stills``
    folders (thousands of images) are read per crop and re-listed by ``refresh`` when their
    ``annotations.json`` has grown, so training can start while the stills are still being made."""

    def __init__(self, specs: list[str]) -> None:
        self.parts = []
        for spec in specs:
            path, _, weight = spec.partition("@")  # PATH@N: draw this set's images N times as often
            self.parts.append(self._load(Path(path), int(weight or 1)))
        self._index()

    @staticmethod
    def _load(path: Path, weight: int) -> dict:
        labels = path if path.suffix == ".json" else path / "annotations.json"
        lazy = labels.is_file()
        train, held = split(load_any(path))
        print(f"{path}: {len(train)} train images (x{weight}), {len(held)} held out", flush=True)
        return {
            "path": path,
            "weight": weight,
            "stamp": labels.stat().st_mtime if lazy else None,
            "samples": train,
            "images": [None] * len(train) if lazy else [s.load_image() for s in train],
        }

    def refresh(self) -> bool:
        grown = False
        for k, part in enumerate(self.parts):
            if part["stamp"] is None:
                continue
            labels = part["path"] if part["path"].suffix == ".json" else part["path"] / "annotations.json"
            if labels.stat().st_mtime != part["stamp"]:
                self.parts[k] = self._load(part["path"], part["weight"])
                grown = True
        if grown:
            self._index()
        return grown

    def _index(self) -> None:
        self.samples = [s for p in self.parts for s in p["samples"] * p["weight"]]
        self.images = [i for p in self.parts for i in p["images"] * p["weight"]]
        self.with_tiles = [i for i, s in enumerate(self.samples) if len(s.classes)]
        self.backgrounds = [
            img for img, s in zip(self.images, self.samples) if img is not None and not len(s.classes)
        ]

    def describe(self) -> str:
        return ", ".join(f"{p['path'].name} {len(p['samples'])}x{p['weight']}" for p in self.parts)

    def crop(self, size: int, rng: np.random.Generator):
        """A training crop of a random image (7 % drawn from all images, tile-free ones included)."""
        pool = self.with_tiles if rng.random() < 0.93 else range(len(self.samples))
        i = pool[int(rng.integers(len(pool)))]
        image = self.images[i] if self.images[i] is not None else self.samples[i].load_image()
        return real_crop(image, self.samples[i], size, rng)


def draw_batch(data: TrainingSet, bank: ArtBank | None, args, rng: np.random.Generator):
    """One training batch: ``args.batch`` crops (a share ``args.paste`` of pasted art), as the net's
    input (B, 3, S, S) float in [0, 1] and its target maps."""
    crops = []
    for _ in range(args.batch):
        if bank is not None and rng.random() < args.paste:
            crops.append(paste_crop(bank, args.crop, rng, data.backgrounds))
        else:
            crops.append(data.crop(args.crop, rng))
    maps = [targets(c) for c in crops]
    x = torch.from_numpy(np.stack([c.image for c in crops])).permute(0, 3, 1, 2).float() / 255
    return x, {k: torch.from_numpy(np.stack([m[k] for m in maps])) for k in maps[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train", description=__doc__.splitlines()[0])
    ap.add_argument(
        "--data",
        action="append",
        required=True,
        help="YOLO folder or COCO json, PATH@N to weight it N-fold (repeat)",
    )
    ap.add_argument("--art", action="append", default=[], help="tileset dir for pasted tiles (repeat)")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--crop", type=int, default=256)
    ap.add_argument("--paste", type=float, default=0.35, help="share of crops made of pasted art")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=100)
    ap.add_argument("--resume", type=Path)
    ap.add_argument(
        "--init",
        type=Path,
        help="checkpoint (.pt) or exported model (.onnx, e.g. models/tiles.onnx) to start from",
    )
    ap.add_argument("--refresh-every", type=int, default=200, help="steps between re-reads of growing stills")
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)

    data = TrainingSet(args.data)
    bank = ArtBank([Path(a) for a in args.art]) if args.art else None

    net = TileNet()
    if args.init and args.init.suffix == ".onnx":
        try:
            net = warm_start(tilenet_from_onnx, args.init, lambda: draw_batch(data, bank, args, rng)[0])
        except OnnxWeightsError as err:
            print(f"train: {err}", file=sys.stderr)
            return 2
    elif args.init:
        net.load_state_dict(torch.load(args.init, weights_only=False)["net"])
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    step, spent = 0, 0.0
    if args.resume:
        state = torch.load(args.resume, weights_only=False)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        step, spent = state["step"], state["seconds"]
    budget = args.minutes * 60
    start = time.monotonic() - spent
    log = open(args.out / "train.log", "a")
    running: dict[str, float] = {}
    while (elapsed := time.monotonic() - start) < budget:
        lr = args.lr * (0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * elapsed / budget)))
        for group in opt.param_groups:
            group["lr"] = lr
        x, t = draw_batch(data, bank, args, rng)
        parts = losses(net(x), t)
        loss = sum(WEIGHTS[k] * v for k, v in parts.items())
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        for k, v in parts.items():
            running[k] = 0.98 * running.get(k, v.item()) + 0.02 * v.item()
        if step % 20 == 0:
            line = json.dumps(
                {"step": step, "s": round(elapsed), "lr": round(lr, 5)}
                | {k: round(v, 4) for k, v in running.items()}
            )
            print(line, flush=True)
            log.write(line + "\n")
            log.flush()
        if step % args.refresh_every == 0 and data.refresh():
            print(f"step {step}: stills grew, now {data.describe()}", flush=True)
        if step % args.ckpt_every == 0:
            save(net, opt, step, time.monotonic() - start, args.out)
    save(net, opt, step, time.monotonic() - start, args.out)
    print(f"done: {step} steps in {time.monotonic() - start:.0f} s", flush=True)
    return 0


def save(net: TileNet, opt, step: int, seconds: float, out: Path) -> None:
    torch.save(
        {"net": net.state_dict(), "opt": opt.state_dict(), "step": step, "seconds": seconds}, out / "last.pt"
    )
    export_onnx(net, out / "tiles.onnx")


if __name__ == "__main__":
    raise SystemExit(main())
