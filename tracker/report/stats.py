"""Figures the report shows, computed from the event stream alone."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

CALL_STARTS = ("chi", "pon", "daiminkan")


@dataclass
class Kyoku:
    """One hand of the game as the record tells it."""

    start: object  # the start_kyoku event
    events: list = field(default_factory=list)
    t0: float | None = None
    t1: float | None = None

    @property
    def title(self) -> str:
        s = self.start
        winds = {"E": "East", "S": "South", "W": "West", "N": "North"}
        honba = f", {s.honba} honba" if s.honba else ""
        return f"{winds.get(s.bakaze, s.bakaze)} {s.kyoku}{honba}"

    def of(self, *types: str) -> list:
        return [e for e in self.events if e.type in types]


def split_kyoku(events: list) -> list[Kyoku]:
    out: list[Kyoku] = []
    for e in events:
        if e.type == "start_kyoku":
            out.append(Kyoku(start=e, t0=e.t))
        elif out:
            out[-1].events.append(e)
            if e.t is not None:
                out[-1].t1 = e.t
    return out


def turn_times(events: list) -> dict[int, np.ndarray]:
    """Per seat, the seconds each discard took: from the turn passing to the seat (the previous
    discard, the seat's own call, or the deal for the first discard) to its discard.

    Counted from the previous discard rather than from the draw because a camera tracker may only
    confirm a draw when the discard shows it; the MCR time limits count the same way."""
    times: dict[int, list[float]] = {s: [] for s in range(4)}
    passed: float | None = None
    for e in events:
        if e.t is None:
            continue
        if e.type == "start_kyoku":
            passed = e.t
        elif e.type in CALL_STARTS:
            passed = e.t
        elif e.type == "dahai":
            if passed is not None:
                times[e.actor].append(e.t - passed)
            passed = e.t
        elif e.type in ("hora", "ryukyoku"):
            passed = None
    return {s: np.asarray(v, float) for s, v in times.items()}


def summarise(seconds: np.ndarray) -> dict[str, float | int | None]:
    if seconds.size == 0:
        return {"turns": 0, "median": None, "mean": None, "p90": None, "max": None}
    return {
        "turns": int(seconds.size),
        "median": float(np.median(seconds)),
        "mean": float(seconds.mean()),
        "p90": float(np.percentile(seconds, 90)),
        "max": float(seconds.max()),
    }
