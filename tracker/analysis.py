"""The analysis contract: what watching one video frame yields.

The tracker (``mjmon analyze``), the live server (``mjmon live``) and the report all speak this:
a ``FrameAnalyzer`` is fed decoded frames in order and returns a ``FrameResult`` per frame with the
game events that became certain, the alerts they raised, and the table snapshot when it changed.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from rules_check.alert import Alert
from tracker.events import GameEvent


class FrameResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    frame: int
    t: float
    events: list[GameEvent] = Field(default_factory=list)
    alerts: list[Alert] = Field(default_factory=list)
    state: dict[str, Any] | None = None  # TableState.to_json() after this frame's events, if any


class FrameAnalyzer(Protocol):
    def process(self, image: np.ndarray, frame: int, t: float) -> FrameResult:
        """Analyse one decoded BGR frame (frames come in order, ``t`` in seconds)."""
        ...

    def finish(self) -> FrameResult:
        """The video ended: flush whatever is still pending."""
        ...
