"""``TruthReplayAnalyzer``: a rendered clip's ``truth.json`` played back in step with its video.

A broadcast rehearsal of a recorded game (``mjmon live VIDEO --replay TRUTH.json``) and the
deterministic source for the browser tests, speaking the same ``FrameAnalyzer`` protocol as the
tracker. It reports what an ideal camera would: each draw as a ``wall_take`` at the frame the
tile physically leaves the wall (so a staged early draw shows), each discard with its river slot,
each call laid out as the truth's keyframe after it shows the tiles (so a staged meld orientation
shows), and runs everything through ``rules_check.checker.RulesChecker`` for the alerts.
The record itself is released in order: an event is due at its own frame, but never before the
event before it (an early draw's tsumo comes after the discard it jumped).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from rules_check.alert import Evidence
from rules_check.checker import RulesChecker
from rules_check.ruleset import RuleSet
from tracker import events as ev
from tracker.analysis import FrameResult

KANS = ("daiminkan", "kakan", "ankan")
CALLS = ("chi", "pon", "daiminkan")


class TruthReplayAnalyzer:
    """``process(image, frame, t)`` returns the truth's events due by ``frame``, with alerts."""

    def __init__(self, truth: dict, ruleset: RuleSet):
        self.truth = truth
        self.checker = RulesChecker(ruleset, settle_frames=0)  # truth is read right: nothing to wait for
        self._schedule = _observed_schedule(truth)  # [(frame, event, evidence box or None)]
        self._next = 0

    @classmethod
    def from_file(cls, path: str | Path, ruleset: RuleSet) -> TruthReplayAnalyzer:
        return cls(json.loads(Path(path).read_text(encoding="utf-8")), ruleset)

    @property
    def values(self):
        return self.checker.values

    def process(self, image: np.ndarray, frame: int, t: float) -> FrameResult:
        return self._release(lambda due: due <= frame, frame, t)

    def finish(self) -> FrameResult:
        last = self._schedule[-1][0] if self._schedule else 0
        return self._release(lambda due: True, last, last / float(self.truth.get("fps", 30.0)))

    def _release(self, due, frame: int, t: float) -> FrameResult:
        events, alerts = [], []
        while self._next < len(self._schedule) and due(self._schedule[self._next][0]):
            _, event, box = self._schedule[self._next]
            self._next += 1
            events.append(event)
            for alert in self.checker.feed(event):
                if box is not None:
                    alert = alert.model_copy(update={"evidence": Evidence(box=box)})
                alerts.append(alert)
        state = self.checker.state.to_json() if events else None
        return FrameResult(frame=frame, t=t, events=events, alerts=alerts, state=state)


def _observed_schedule(truth: dict) -> list[tuple[int, object, list[float] | None]]:
    """The truth's events as an ideal camera reports them, each with the frame it is due."""
    fps = float(truth.get("fps", 30.0))
    keyframes = sorted(truth.get("keyframes", []), key=lambda k: k["frame"])
    out: list[tuple[int, object, list[float] | None]] = []
    due = 0
    present = [0] * 4
    sideways_next = [False] * 4
    riichi_in_river: int | None = None
    last_play = None
    for item in truth["events"]:
        frame = int(item["frame"])
        e = ev.parse_event(item["event"])
        e = e.model_copy(update={"frame": frame, "t": round(frame / fps, 3)})
        kind = e.type
        box = None
        if kind == "start_kyoku":
            present, sideways_next, riichi_in_river = [0] * 4, [False] * 4, None
        elif kind == "tsumo":
            after_kan = last_play is not None and last_play.type in KANS and last_play.actor == e.actor
            take = ev.WallTake(actor=e.actor, dead_wall=after_kan, frame=frame, t=e.t)
            out.append((frame, take, None))  # seen when it happens, even out of turn
        elif kind == "reach":
            sideways_next[e.actor] = True
        elif kind == "dahai":
            row, col = divmod(present[e.actor], 6)
            e = e.model_copy(
                update={"slot": ev.RiverPlacement(row=row, col=col, sideways=sideways_next[e.actor])}
            )
            riichi_in_river = e.actor if sideways_next[e.actor] else None
            sideways_next[e.actor] = False
            present[e.actor] += 1
        elif kind in CALLS:
            present[e.target] -= 1
            if riichi_in_river == e.target:
                sideways_next[e.target] = True
            laid, box, seen = _meld_seen(keyframes, frame, e)
            if laid is not None:  # confirmed when the keyframe shows the tiles laid
                frame = seen
                e = e.model_copy(update={"laid": laid, "frame": frame, "t": round(frame / fps, 3)})
        due = max(due, frame)
        out.append((due, e, box))
        if kind in (*CALLS, "kakan", "ankan", "dahai", "hora", "ryukyoku"):
            last_play = e
            if kind != "dahai":
                riichi_in_river = None
    out.sort(key=lambda item: item[0])  # stable: record order among events due together
    return out


def _meld_seen(keyframes: list[dict], frame: int, call) -> tuple[ev.MeldPlacement | None, list | None, int]:
    """The call's tiles as the first keyframe after it shows them: the newest meld of the seat,
    ordered left to right as its owner sees them, sideways where the tile lies across."""
    size = 1 + len(call.consumed)
    seat = call.actor
    for key in keyframes:
        if key["frame"] < frame:
            continue
        melds = [t for t in key["tiles"] if t["zone"] == "meld" and t["seat"] == seat]
        if len(melds) < size:
            continue
        right = _RIGHT[seat]
        centres = np.array(
            [[(t["box"][0] + t["box"][2]) / 2, (t["box"][1] + t["box"][3]) / 2] for t in melds]
        )
        along = centres @ right
        # melds grow from the owner's right corner leftward: the newest meld is the leftmost run
        order = np.argsort(along)[:size]
        order = order[np.argsort(along[order])]
        chosen = [melds[i] for i in order]
        codes = [t.get("tile", t["code"]) for t in chosen]
        if sorted(c[:2] for c in codes) != sorted(c[:2] for c in [call.pai, *call.consumed]):
            return None, None, frame
        sideways = [
            i for i, t in enumerate(chosen) if abs(((t["angle"] - 90.0 * seat) % 180.0) - 90.0) < 30.0
        ]
        boxes = np.array([t["box"] for t in chosen], float)
        box = [*boxes[:, :2].min(0).tolist(), *boxes[:, 2:].max(0).tolist()]
        return ev.MeldPlacement(tiles=codes, sideways=sideways), box, int(key["frame"])
    return None, None, frame


# the owner's "right" in image coordinates, seat 0 at the bottom edge (DESIGN.md seats)
_RIGHT = {
    0: np.array([1.0, 0.0]),
    1: np.array([0.0, -1.0]),
    2: np.array([-1.0, 0.0]),
    3: np.array([0.0, 1.0]),
}
