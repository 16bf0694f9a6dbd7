"""Four copies of each kind: a river read that puts a fifth copy on the table is overruled.

A kind the detector confuses with another (on unseen tile art, winds read as East) is read the
same way on every look, so voting over looks keeps the wrong face; but a set holds four copies of
each kind. Where the table shows more, the reads that least insist on that kind become the face
their looks named next: the discard whose looks lose least by it. Each look gives its best face
and its runner-up with their scores (``vision.detections.TileDetections``); a face a look named
neither is taken as half as likely as its runner-up.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from tracker import tiles

COPIES = 4
UNNAMED = 0.5  # a face a look did not name: this share of that look's runner-up score


@dataclass(frozen=True)
class Look:
    """One read of a tile: its best face and score, the runner-up face and score."""

    best: str
    score: float
    runner_up: str
    runner_up_score: float


def look_likelihood(look: Look, kind: str) -> float:
    """log of how likely ``look`` says the tile is of ``kind`` (up to a constant per look)."""
    floor = max(look.runner_up_score * UNNAMED, 1e-6)
    if tiles.deaka(look.best) == kind:
        return math.log(max(look.score, floor))
    if tiles.deaka(look.runner_up) == kind:
        return math.log(max(look.runner_up_score, floor))
    return math.log(floor)


def loss(looks: list[Look], source: str, target: str) -> float:
    """How much less likely the looks make ``target`` than ``source``: log, the mean over looks
    (looks of one still tile are far from independent: a sum would weigh a long-seen tile most)."""
    if not looks:
        return math.inf
    return sum(look_likelihood(x, source) - look_likelihood(x, target) for x in looks) / len(looks)


def named_kinds(looks: list[Look]) -> set[str]:
    """Every kind some look named (best or runner-up), unknown left out."""
    named = {tiles.deaka(c) for x in looks for c in (x.best, x.runner_up)}
    named.discard(tiles.UNKNOWN)
    return {c for c in named if c in tiles.KINDS34}  # (never a bonus tile: none is discarded)


def face_of(looks: list[Look], kind: str) -> str:
    """The code to name ``kind`` by: the red five if the looks naming the kind saw it red more."""
    faces = Counter()
    for x in looks:
        for c, s in ((x.best, x.score), (x.runner_up, x.runner_up_score)):
            if tiles.deaka(c) == kind:
                faces[c] += s
    return max(faces, key=faces.__getitem__) if faces else kind


SWITCH = 0.25  # mean log a read must lose less than the one overruled now to take its place


def within_four(
    picks: list[str],
    looks: list[list[Look]],
    elsewhere: Counter,
    max_loss: float,
    held: list[str | None] | None = None,
) -> list[str]:
    """The river reads ``picks`` with no kind on the table more than four times.

    ``looks``: each pick's reads; ``elsewhere``: kinds seen outside these reads (meld tiles, dora
    indicators), never overruled. While a kind is over four, the pick of that kind whose looks lose
    least by it (mean log) becomes a kind its looks named that is under four; none within ``max_loss``: the
    rest stay as read (a fifth copy there is the reader's, and nothing here says which)."""
    out = list(picks)
    count = Counter(elsewhere)
    for p in out:
        count[tiles.deaka(p)] += 1
    count.pop(tiles.UNKNOWN, None)
    while True:
        over = {kind for kind, n in count.items() if n > COPIES}
        best: tuple[float, int, str] | None = None
        for i, p in enumerate(out):
            kind = tiles.deaka(p)
            if kind not in over:
                continue
            for target in named_kinds(looks[i]) - {kind}:
                if count[target] >= COPIES:
                    continue
                cost = loss(looks[i], kind, target)
                if held is not None and held[i] is not None and tiles.deaka(held[i]) == target:
                    cost -= SWITCH  # (the read overruled so now: kept unless another is clearly likelier)
                if cost <= max_loss and (best is None or cost < best[0]):
                    best = (cost, i, target)
        if best is None:
            return out
        _, i, target = best
        count[tiles.deaka(out[i])] -= 1
        count[target] += 1
        out[i] = face_of(looks[i], target)
