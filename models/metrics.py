"""DESIGN.md's tile metrics: a detection is correct when IoU >= 0.5 with a true tile and the code matches."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, 4) x (M, 4) x1 y1 x2 y2 boxes -> (N, M) IoU."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def greedy_match(iou: np.ndarray, allowed: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """One-to-one pairs (K, 2) [truth, detection], highest IoU first, among allowed pairs >= threshold."""
    cand = np.argwhere((iou >= threshold) & allowed)
    order = np.argsort(-iou[cand[:, 0], cand[:, 1]], kind="stable")
    used_t, used_d, pairs = set(), set(), []
    for t, d in cand[order]:  # evaluation only: K is small and this is not a per-frame path
        if t not in used_t and d not in used_d:
            used_t.add(t)
            used_d.add(d)
            pairs.append((t, d))
    return np.asarray(pairs, dtype=np.int64).reshape(-1, 2)


@dataclass
class Counts:
    truths: int = 0
    detections: int = 0
    matched: int = 0  # IoU >= 0.5, any code
    correct: int = 0  # IoU >= 0.5 and same code

    def add(self, other: Counts) -> None:
        self.truths += other.truths
        self.detections += other.detections
        self.matched += other.matched
        self.correct += other.correct

    def summary(self) -> dict[str, float | int]:
        return {
            "truths": self.truths,
            "detections": self.detections,
            "correct_recall": round(self.correct / max(self.truths, 1), 4),
            "correct_precision": round(self.correct / max(self.detections, 1), 4),
            "class_accuracy_on_matched": round(self.correct / max(self.matched, 1), 4),
            "box_recall": round(self.matched / max(self.truths, 1), 4),
        }


def count_image(
    truth_boxes: np.ndarray,
    truth_codes: np.ndarray,
    boxes: np.ndarray,
    codes: np.ndarray,
    threshold: float = 0.5,
) -> Counts:
    """Counts for one image; codes are compared as given (normalise red fives before if needed)."""
    truth_codes, codes = np.asarray(truth_codes, dtype=object), np.asarray(codes, dtype=object)
    n, m = len(truth_codes), len(codes)
    if not n or not m:
        return Counts(n, m, 0, 0)
    iou = iou_matrix(np.asarray(truth_boxes, np.float64), np.asarray(boxes, np.float64))
    same = truth_codes[:, None] == codes[None, :]
    matched = len(greedy_match(iou, np.ones_like(same)))
    correct = len(greedy_match(iou, same))
    return Counts(n, m, matched, correct)


def unmatched_detections(
    truth_boxes: np.ndarray,
    truth_codes: np.ndarray,
    boxes: np.ndarray,
    codes: np.ndarray,
    threshold: float = 0.5,
) -> list[tuple[int, float, str | None]]:
    """The detections ``count_image`` does not count correct (what lowers correct precision), as
    (detection index, best IoU with any true tile, that tile's code or None): a box off its tile,
    a tile misread, or something no label names at all."""
    truth_codes, codes = np.asarray(truth_codes, dtype=object), np.asarray(codes, dtype=object)
    if not len(codes):
        return []
    if not len(truth_codes):
        return [(d, 0.0, None) for d in range(len(codes))]
    iou = iou_matrix(np.asarray(truth_boxes, np.float64), np.asarray(boxes, np.float64))
    right = set(greedy_match(iou, truth_codes[:, None] == codes[None, :], threshold)[:, 1].tolist())
    best = iou.argmax(axis=0)
    return [
        (d, round(float(iou[best[d], d]), 3), str(truth_codes[best[d]]) if iou[best[d], d] > 0 else None)
        for d in range(len(codes))
        if d not in right
    ]
