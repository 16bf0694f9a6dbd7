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
from dataclasses import dataclass, field

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


@dataclass
class Looks:
    """Every read of one tile, summed as it comes (constant work a read): ``n`` reads; per kind
    named by a read (best or runner-up), the sum over those reads of log(its score / the read's
    floor), so that the log likelihood of any kind is the floors' sum plus this (nothing for a
    kind the read did not name); per face code, the scores naming it (a red five told apart)."""

    n: int = 0
    named: dict[str, float] = field(default_factory=dict)
    faces: Counter = field(default_factory=Counter)

    def add(self, look: Look) -> None:
        floor = max(look.runner_up_score * UNNAMED, 1e-6)
        self.n += 1
        counted = set()
        for code, score in ((look.best, look.score), (look.runner_up, look.runner_up_score)):
            kind = tiles.deaka(code)
            if kind == tiles.UNKNOWN:
                continue
            self.faces[code] += score
            if kind not in counted:  # (a five read plain, then red: the best read counts)
                counted.add(kind)
                self.named[kind] = self.named.get(kind, 0.0) + math.log(max(score, floor) / floor)

    @classmethod
    def of(cls, looks: list[Look]) -> Looks:
        tally = cls()
        for look in looks:
            tally.add(look)
        return tally

    def loss(self, source: str, target: str) -> float:
        """How much less likely the reads make ``target`` than ``source``: log, the mean over
        reads (reads of one still tile are far from independent: a sum would weigh a long-seen
        tile most); infinite with no reads."""
        if not self.n:
            return math.inf
        return (self.named.get(source, 0.0) - self.named.get(target, 0.0)) / self.n

    def kinds(self) -> set[str]:
        """Every kind some read named, never unknown or a bonus tile (none is discarded)."""
        return {k for k in self.named if k in tiles.KINDS34}

    def face_of(self, kind: str) -> str:
        """The code to name ``kind`` by: the red five if the reads naming the kind saw it red more."""
        faces = {c: s for c, s in self.faces.items() if tiles.deaka(c) == kind}
        return max(faces, key=faces.__getitem__) if faces else kind


SWITCH = 0.25  # mean log a read must lose less than the one overruled now to take its place


def within_four(
    picks: list[str],
    looks: list[Looks],
    elsewhere: Counter,
    max_loss: float,
    held: list[str | None] | None = None,
) -> list[str]:
    """The river reads ``picks`` with no kind on the table more than four times.

    ``looks``: each pick's reads; ``elsewhere``: codes seen outside these reads (meld tiles, dora
    indicators), never overruled. While a kind is over four, the pick of that kind whose looks lose
    least by it (mean log) becomes a kind its looks named that is under four; none within ``max_loss``: the
    rest stay as read (a fifth copy there is the reader's, and nothing here says which). A set
    holds one red five of a suit: a read becomes a red five only while none is on the table."""
    out = list(picks)
    on_table = list(elsewhere.items()) + [(p, 1) for p in out]
    count: Counter = Counter()
    for code, n in on_table:
        count[tiles.deaka(code)] += n
    count.pop(tiles.UNKNOWN, None)
    reds = {code for code, n in on_table if n > 0 and tiles.is_red(code)}
    while True:
        over = {kind for kind, n in count.items() if n > COPIES}
        best: tuple[float, int, str] | None = None
        for i, p in enumerate(out):
            kind = tiles.deaka(p)
            if kind not in over:
                continue
            for target in looks[i].kinds() - {kind}:
                if count[target] >= COPIES:
                    continue
                cost = looks[i].loss(kind, target)
                if cost > max_loss:
                    continue
                if held is not None and held[i] is not None and tiles.deaka(held[i]) == target:
                    cost -= SWITCH  # (the read overruled so now: kept unless another is clearly likelier)
                if best is None or cost < best[0]:
                    best = (cost, i, target)
        if best is None:
            return out
        _, i, target = best
        count[tiles.deaka(out[i])] -= 1
        count[target] += 1
        face = looks[i].face_of(target)
        out[i] = target if face in reds else face
        reds.update({out[i]} & set(tiles.RED_FIVES))
