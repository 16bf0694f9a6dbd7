"""The live loop: frames -> FrameAnalyzer -> alert store -> broadcast.

Runs in its own thread. Every alert is committed to the store before its message is published;
each message is serialised once and handed to ``publish`` (the web process's pipe), which never
waits for a client. The latest table picture stays after the source ends or drops.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from rules_check.checker import LONGEST_HOLD
from tracker.analysis import FrameAnalyzer, FrameResult
from tracker.evidence import EventFrames
from tracker.live.source import Frame, VideoSource
from tracker.live.store import AlertStore

CALLS = ("chi", "pon", "daiminkan")
TURN_ENDS = ("hora", "ryukyoku", "end_kyoku", "end_game")


class LivePipeline:
    def __init__(
        self,
        source: VideoSource,
        analyzer_factory: Callable[[], FrameAnalyzer],
        store: AlertStore,
        publish: Callable[[str], None] = lambda text: None,
        table: str = "1",
        session: str | None = None,
        tick_seconds: float = 0.5,
    ):
        self.source = source
        self.analyzer_factory = analyzer_factory
        self.store = store
        self.publish = publish
        self.table = table
        self.session = session or time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        self.tick_seconds = tick_seconds
        self.stop = threading.Event()
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.frames = 0
        self.busy_seconds = 0.0  # time spent in analyse + store + publish
        self.started: float | None = None
        self.ended: float | None = None
        self._lock = threading.Lock()
        # images of the last frames that raised events: an alert held for its readings to settle
        # (rules_check.checker.LONGEST_HOLD) comes later and is pictured at its evidence frame
        self._event_images = EventFrames(2 * LONGEST_HOLD)
        self._latest: dict[str, Any] = {
            "type": "snapshot",
            "table": table,
            "frame": None,
            "t": None,
            "state": None,
            "turn": None,
            "source": "starting",
        }
        source.on_status = self._on_status
        self._thread: threading.Thread | None = None

    # --- for the server -----------------------------------------------------------------------

    def snapshot(self) -> str:
        """The current picture as a snapshot message (serialised only when asked: the web
        process keeps its own from the messages; this one replaces messages it lost)."""
        with self._lock:
            return json.dumps(self._latest, ensure_ascii=False)

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="mjmon-live-pipeline", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def fps(self) -> float:
        """Frames analysed per second of the run so far (wall time, pacing included)."""
        if self.started is None:
            return 0.0
        end = self.ended or time.monotonic()
        return self.frames / max(end - self.started, 1e-9)

    # --- the loop -----------------------------------------------------------------------------

    def run(self) -> None:
        try:
            analyzer = self.analyzer_factory()
            self.started = time.monotonic()
            next_tick = 0.0
            for frame in self.source.frames(self.stop):
                begin = time.monotonic()
                result = analyzer.process(frame.image, frame.index, frame.t)
                self._handle(result, frame)
                self.frames += 1
                now = time.monotonic()
                self.busy_seconds += now - begin
                if now >= next_tick:
                    self._tick(frame)
                    next_tick = now + self.tick_seconds
            if not self.stop.is_set():
                self._handle(analyzer.finish(), None)
            elif hasattr(analyzer, "release_alerts"):  # stopped: alerts still settling are not lost
                last = self._latest
                late = analyzer.release_alerts()
                if late:
                    result = FrameResult(frame=last["frame"] or 0, t=last["t"] or 0.0, alerts=late)
                    self._handle(result, None)
        except BaseException as err:  # surfaced by the CLI; the pages keep the last state
            self.error = err
            self._on_status(f"error: {err}")
        finally:
            self.ended = time.monotonic()
            self.done.set()

    def _handle(self, result: FrameResult, frame: Frame | None) -> None:
        if not result.events and not result.alerts and result.state is None:
            return
        if result.events and frame is not None:
            self._event_images.add(frame.index, frame.image)
        records = []
        for alert in result.alerts:
            alert = alert.model_copy(update={"id": f"{self.session}-{alert.id}"})
            thumb = self._event_images.picture(alert, frame.image if frame is not None else None)
            records.append(self.store.add(alert, self.table, thumb))  # durable before broadcast
        turn = self._latest["turn"]
        for event in result.events:
            turn = next_turn(turn, event, result.t)
        self._remember(
            frame=result.frame,
            t=result.t,
            turn=turn,
            **({"state": result.state} if result.state is not None else {}),
        )
        message = {
            "type": "update",
            "table": self.table,
            "frame": result.frame,
            "t": result.t,
            "events": [e.to_json() for e in result.events],
            "alerts": records,
            "state": result.state,
            "turn": turn,
            "read_wall": frame.wall if frame is not None else None,
            "sent_wall": time.time(),
        }
        self.publish(json.dumps(message, ensure_ascii=False))

    def _tick(self, frame: Frame) -> None:
        self._remember(frame=frame.index, t=frame.t)
        tick = {"type": "tick", "table": self.table, "frame": frame.index, "t": frame.t}
        tick["turn"] = self._latest["turn"]
        self.publish(json.dumps(tick))

    def _on_status(self, status: str) -> None:
        self._remember(source=status)
        self.publish(json.dumps({"type": "source", "table": self.table, "source": status}))

    def _remember(self, **changes) -> None:
        with self._lock:
            self._latest = {**self._latest, **changes}


def next_turn(turn: dict | None, event, t: float) -> dict | None:
    """Whose turn it is and since when (video seconds), for the overlay's turn timer.

    The turn passes at the discard (to the next seat), at a call (to the caller) and at the deal
    (to the dealer), not at the draw: a camera sees a draw late or only when the discard shows
    it, and the report's per-seat turn times count the same way (``tracker.report.stats``)."""
    since = event.t if event.t is not None else t
    if event.type == "start_kyoku":
        return {"seat": event.oya, "since": since}
    if event.type == "dahai":
        return {"seat": (event.actor + 1) % 4, "since": since}
    if event.type in CALLS:
        return {"seat": event.actor, "since": since}
    if event.type in TURN_ENDS:
        return None
    return turn
