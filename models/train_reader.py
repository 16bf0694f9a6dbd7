"""Train the tile reader (``models/reader.onnx``): crops of labelled tiles -> their class.

    python -m models.train_reader --data ../shared/data/real/riichi-jp/train@4 \\
        --data ../shared/data/real/chinese/train@2 --data /tmp/stills3/w1 --data /tmp/stills3/w2 \\
        --minutes 60 --out /tmp/reader

Every tile of every training image (``models.data.split``'s training side, so the detector's
held-out photos stay held out here too) is cut once into a bank of ``BANK_PX`` squares with room
around it; each step draws a class-balanced batch from the bank and turns, shifts, rescales,
blurs and recolours it into the reader's ``READER_PX`` view. Photo sets without red-five labels
train their fives as "five, red or not". Writes ``OUT/last.pt`` and ``OUT/reader.onnx``; prints
held-out accuracy per set.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from models.augment import photometric
from models.data import load_any, split
from models.from_onnx import OnnxWeightsError, readernet_from_onnx, warm_start
from models.reader_net import ReaderNet, export_reader
from models.spec import NUM_CLASSES, READER_MARGIN, READER_PX
from tracker.tiles import MODEL_CLASSES, RED_FIVES, class_id
from vision.reader import crop_tiles, to_input

BANK_PX = 64
BANK_MARGIN = 1.7  # room for shifts and turns around the reader's 1.25 view
_RED = {class_id(r): class_id(r[:2]) for r in RED_FIVES}
_PLAIN_FIVE = {v: k for k, v in _RED.items()}


@dataclass
class Bank:
    crops: np.ndarray  # (N, BANK_PX, BANK_PX, 3) uint8
    labels: np.ndarray  # (N,) int64
    red_unknown: np.ndarray  # (N,) bool: a five whose set does not label red fives
    quarters: np.ndarray  # (N,) int64: quarter turns counterclockwise in the image, -1 unknown
    part: np.ndarray  # (N,) int64: which --data set


def build_banks(specs: list[str], max_images: int, max_held: int) -> tuple[Bank, Bank, list[str], list[int]]:
    """The training and held-out banks, each set read once: (train, held, names, weights)."""
    sides: dict[bool, list[list]] = {False: [[] for _ in range(5)], True: [[] for _ in range(5)]}
    names, weights = [], []
    for k, spec in enumerate(specs):
        path, _, weight = spec.partition("@")
        everything = load_any(path)
        has_red = any(np.isin(s.classes, list(_RED)).any() for s in everything)
        train, held = split(everything)
        for held_out, samples, cap in ((False, train, max_images), (True, held, max_held)):
            rng = np.random.default_rng(k)
            if len(samples) > cap:
                samples = [samples[i] for i in sorted(rng.choice(len(samples), cap, replace=False))]
            crops, labels, unknown, quarters, part = sides[held_out]
            n0 = sum(len(c) for c in crops)
            for s in samples:
                if not len(s.classes):
                    continue
                crops.append(crop_tiles(s.load_image(), s.boxes, BANK_PX, BANK_MARGIN))
                labels.append(s.classes)
                unknown.append(np.isin(s.classes, list(_PLAIN_FIVE)) & (not has_red))
                quarters.append(np.where(s.angles >= 0, s.angles // 90, -1))
                part.append(np.full(len(s.classes), k))
            side = "held out" if held_out else "training"
            print(
                f"{path}: {side} {len(samples)} images, {sum(len(c) for c in crops) - n0} tiles", flush=True
            )
        names.append(Path(path).name if Path(path).name != "train" else Path(path).parent.name)
        weights.append(int(weight or 1))

    def bank(crops, labels, unknown, quarters, part) -> Bank:
        if not crops:
            raise ValueError("no labelled tiles in " + ", ".join(specs))
        return Bank(
            np.concatenate(crops),
            np.concatenate(labels),
            np.concatenate(unknown),
            np.concatenate(quarters).astype(np.int64),
            np.concatenate(part),
        )

    return bank(*sides[False]), bank(*sides[True]), names, weights


def draw_weights(bank: Bank, set_weights: list[int]) -> np.ndarray:
    """Sampling probability per tile: rarer classes more often (1/sqrt count), times the set weight."""
    counts = np.bincount(bank.labels, minlength=NUM_CLASSES).astype(np.float64)
    w = 1.0 / np.sqrt(np.maximum(counts[bank.labels], 1)) * np.asarray(set_weights, np.float64)[bank.part]
    return w / w.sum()


def view(bank_crop: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """The reader's view of one banked tile (turned, shifted, rescaled, degraded) and the quarter
    turns it was turned by (counterclockwise, as the tile's own angle counts)."""
    ratio = BANK_PX * READER_MARGIN / BANK_MARGIN / READER_PX  # bank px per reader px
    scale = 1 / ratio * rng.uniform(0.88, 1.12)
    turns = int(rng.integers(4))
    angle = 90 * turns + rng.uniform(-10, 10)  # cv2: positive is counterclockwise on screen
    m = cv2.getRotationMatrix2D((BANK_PX / 2, BANK_PX / 2), angle, scale)
    m[:, 2] += (READER_PX - BANK_PX) / 2 + rng.uniform(-0.06, 0.06, 2) * READER_PX
    out = cv2.warpAffine(
        bank_crop, m, (READER_PX, READER_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    if rng.random() < 0.5:  # a smaller tile in the image: fewer pixels behind the same view
        small = max(8, round(READER_PX * rng.uniform(0.35, 1.0)))
        out = cv2.resize(
            cv2.resize(out, (small, small), interpolation=cv2.INTER_AREA), (READER_PX, READER_PX)
        )
    return photometric(out, rng), turns


def loss_fn(
    out: torch.Tensor, labels: torch.Tensor, red_unknown: torch.Tensor, quarters: torch.Tensor | None = None
) -> torch.Tensor:
    """Class cross-entropy where a five from a set without red-five labels may be read as either
    five, plus orientation cross-entropy where the quarter turn is known (``quarters`` >= 0)."""
    logits = out[:, :NUM_CLASSES]
    allowed = F.one_hot(labels, NUM_CLASSES).bool()
    if red_unknown.any():
        red_of = torch.full((NUM_CLASSES,), -1, dtype=torch.long)
        for plain, red in _PLAIN_FIVE.items():
            red_of[plain] = red
        rows = torch.nonzero(red_unknown).squeeze(1)
        allowed[rows, red_of[labels[rows]]] = True
    loss = (torch.logsumexp(logits, 1) - torch.logsumexp(logits.masked_fill(~allowed, -1e9), 1)).mean()
    if quarters is not None and (quarters >= 0).any():
        loss = loss + F.cross_entropy(out[:, NUM_CLASSES:], quarters, ignore_index=-1)
    return loss


def accuracy(net: ReaderNet, bank: Bank, names: list[str]) -> dict[str, float]:
    """Held-out accuracy per set (fives of sets without red labels: either five counts)."""
    net.eval()
    with torch.no_grad():
        x = np.stack([cv2.resize(c, (READER_PX, READER_PX)) for c in _reader_views(bank.crops)])
        out = torch.cat([net(torch.from_numpy(to_input(x[i : i + 512]))) for i in range(0, len(x), 512)])
    net.train()
    pred, turn = out[:, :NUM_CLASSES].argmax(1).numpy(), out[:, NUM_CLASSES:].argmax(1).numpy()
    as_plain = np.array([_RED.get(int(p), int(p)) for p in pred])
    ok = (pred == bank.labels) | (bank.red_unknown & (as_plain == bank.labels))
    figures = {names[k]: round(float(ok[bank.part == k].mean()), 4) for k in np.unique(bank.part)}
    known = bank.quarters >= 0
    if known.any():
        figures["orientation"] = round(float((turn == bank.quarters)[known].mean()), 4)
    return figures


def _reader_views(crops: np.ndarray) -> np.ndarray:
    """Centre squares of the bank crops matching the reader's margin (no augmentation)."""
    side = round(BANK_PX * READER_MARGIN / BANK_MARGIN)
    lo = (BANK_PX - side) // 2
    return crops[:, lo : lo + side, lo : lo + side]


def draw_batch(bank: Bank, p: np.ndarray, size: int, rng: np.random.Generator):
    """``size`` banked tiles drawn with weights ``p``, as augmented views: the net's input
    (B, 3, S, S), their bank rows, and each view's quarter turn (-1 where unknown)."""
    idx = rng.choice(len(p), size, p=p)
    views = [view(bank.crops[i], rng) for i in idx]
    x = torch.from_numpy(to_input(np.stack([v for v, _ in views])))
    turns = np.array([t for _, t in views])
    return x, idx, np.where(bank.quarters[idx] >= 0, (bank.quarters[idx] + turns) % 4, -1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train_reader", description=__doc__.splitlines()[0])
    ap.add_argument(
        "--data", action="append", required=True, help="YOLO folder / COCO json / stills folder, PATH@N"
    )
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--max-images", type=int, default=3000, help="per set, drawn at random")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ckpt-every", type=int, default=500)
    ap.add_argument(
        "--init",
        type=Path,
        help="checkpoint (.pt) or exported reader (.onnx, e.g. models/reader.onnx) to start from",
    )
    args = ap.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        bank, held, names, set_weights = build_banks(
            args.data, args.max_images, max(50, args.max_images // 6)
        )
    except (OSError, ValueError) as err:
        print(f"train_reader: {err}", file=sys.stderr)
        return 2
    p = draw_weights(bank, set_weights)
    print(f"bank {len(bank.labels)} tiles, held out {len(held.labels)}; classes seen "
          f"{len(np.unique(bank.labels))}/{len(MODEL_CLASSES)}", flush=True)  # fmt: skip

    net = ReaderNet()
    if args.init and args.init.suffix == ".onnx":
        try:
            net = warm_start(readernet_from_onnx, args.init, lambda: draw_batch(bank, p, args.batch, rng)[0])
        except OnnxWeightsError as err:
            print(f"train_reader: {err}", file=sys.stderr)
            return 2
    elif args.init:
        load_weights(net, torch.load(args.init, weights_only=False)["net"])
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget, start, step, running = args.minutes * 60, time.monotonic(), 0, None
    log = open(args.out / "train.log", "a")
    while (elapsed := time.monotonic() - start) < budget:
        lr = args.lr * (0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * elapsed / budget)))
        for group in opt.param_groups:
            group["lr"] = lr
        x, idx, quarters = draw_batch(bank, p, args.batch, rng)
        labels, red_unknown = torch.from_numpy(bank.labels[idx]), torch.from_numpy(bank.red_unknown[idx])
        loss = loss_fn(net(x), labels, red_unknown, torch.from_numpy(quarters))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        if step % args.ckpt_every == 0 or elapsed + 1 >= budget:
            save(net, step, args.out)
            figures = {"step": step, "s": round(elapsed), "lr": round(lr, 5), "loss": round(running, 4)}
            line = json.dumps(figures | {"held_out_accuracy": accuracy(net, held, names)})
            print(line, flush=True)
            log.write(line + "\n")
            log.flush()
    save(net, step, args.out)
    print(json.dumps({"done": step, "held_out_accuracy": accuracy(net, held, names)}), flush=True)
    return 0


def load_weights(net: ReaderNet, state: dict) -> None:
    """Start from a checkpoint; a head without the orientation outputs fills the class rows only."""
    head_w, head_b = net.head.weight, net.head.bias
    if state["head.weight"].shape != head_w.shape:
        with torch.no_grad():
            w, b = state.pop("head.weight"), state.pop("head.bias")
            head_w[: len(w)], head_b[: len(b)] = w, b
    net.load_state_dict(state, strict=False)


def save(net: ReaderNet, step: int, out: Path) -> None:
    torch.save({"net": net.state_dict(), "step": step}, out / "last.pt")
    export_reader(net, out / "reader.onnx")


if __name__ == "__main__":
    raise SystemExit(main())
