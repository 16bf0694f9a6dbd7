"""When each event happens on screen: a schedule of arm motions with exact frames.

Every action has an arm that reaches (``start`` -> ``pick``), carries (``pick`` -> ``place``) and
returns (``place`` -> ``end``). The mjai event's frame is the moment the camera can first be sure
of it: a draw when the tile leaves the wall (``pick``), everything else when it lands (``place``).
Durations are drawn from a seeded generator and divided by ``pace``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

REACH, CARRY, RETURN = 0.35, 0.4, 0.3  # seconds at pace 1


@dataclass
class Action:
    index: int  # position of the event in the event list
    kind: str  # event type
    actor: int | None
    start: int
    pick: int
    place: int
    end: int
    arm: bool = True  # False: nothing moves (bookkeeping events)
    # (pick, place) points on the table in mm, fixed when the hand starts to move
    targets: tuple | None = None

    @property
    def event_frame(self) -> int:
        return self.pick if self.kind == "tsumo" else self.place


@dataclass
class TimingPlan:
    """Per-event adjustments a faults file asks for."""

    early_draw: set[int] = field(default_factory=set)  # tsumo event indices drawn early
    slow_discard: dict[int, float] = field(default_factory=dict)  # dahai index -> seconds after the last


class Timeline:
    def __init__(self, fps: float, pace: float, rng: np.random.Generator):
        if pace <= 0:
            raise ValueError("pace must be positive")
        self.fps = fps
        self.pace = pace
        self.rng = rng

    def _f(self, seconds: float) -> int:
        return max(1, int(round(seconds * self.fps / self.pace)))

    def _think(self, low: float, high: float) -> int:
        # human decision times are skewed: mostly quick, sometimes long
        return self._f(low + (high - low) * float(self.rng.beta(1.6, 4.0)))

    def schedule(self, events: list, plan: TimingPlan | None = None) -> list[Action]:
        plan = plan or TimingPlan()
        actions: list[Action] = []
        now = 0
        last_discard_place = 0
        kan_actor = 0  # a new dora indicator is turned by whoever made the kan
        for i, e in enumerate(events):
            kind = e.type
            actor = getattr(e, "actor", None)
            if kind in ("daiminkan", "kakan", "ankan"):
                kan_actor = actor
            elif kind == "dora":
                actor = kan_actor
            if kind in ("start_game", "end_game"):
                actions.append(Action(i, kind, None, now, now, now, now, arm=False))
                continue
            if kind == "start_kyoku":
                now += self._f(1.2)
                actions.append(Action(i, kind, None, now, now, now, now + self._f(1.5), arm=False))
                now += self._f(1.5)
                continue
            if kind in ("end_kyoku", "reach", "hora", "ryukyoku"):
                hold = {"end_kyoku": 0.5, "reach": 0.0, "hora": 3.0, "ryukyoku": 3.0}[kind]
                gap = self._f(0.6) if kind in ("hora", "ryukyoku") else 0
                at = now + gap
                actions.append(
                    Action(i, kind, actor, at, at, at, at + self._f(hold) if hold else at, arm=False)
                )
                now = at + (self._f(hold) if hold else 0)
                continue
            reach, carry, back = self._f(REACH), self._f(CARRY), self._f(RETURN)
            if kind == "tsumo":
                start = now + self._think(0.15, 0.6)
                if i in plan.early_draw:
                    # 先摸: the hand is already at the wall while the previous discard is in the air
                    start = max(0, last_discard_place - reach - self._f(0.5))
            elif kind == "dahai":
                start = now + self._think(0.3, 2.6)
                if i in plan.slow_discard:
                    start = max(
                        start, last_discard_place + self._f(plan.slow_discard[i] * self.pace) - reach - carry
                    )
            elif kind == "dora":
                start = now
                reach, carry = self._f(0.3), self._f(0.2)
            else:
                start = now + self._think(0.2, 0.9)
            pick = start + reach
            place = pick + carry
            end = place + back
            actions.append(Action(i, kind, actor, start, pick, place, end))
            if kind == "dahai":
                last_discard_place = place
            now = max(now, end) if kind == "tsumo" and i in plan.early_draw else end
        return actions
