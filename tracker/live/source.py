"""Where frames come from: a video file (played at its own frame rate), a camera index or a
stream URL. A camera or stream that drops is reopened with growing backoff; a file simply ends.

``frames(stop)`` yields ``Frame(index, t, image, wall)``: ``t`` is video seconds (file) or seconds
since start (live), ``wall`` the ``time.monotonic()`` at which the frame was read (latency
figures start there).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Frame:
    index: int
    t: float
    image: np.ndarray  # (H, W, 3) uint8 BGR
    wall: float


def _open_cv(spec: str | int):
    import cv2

    return cv2.VideoCapture(spec)


class VideoSource:
    """``spec``: a path of an existing file, a camera index (``"0"``) or a URL (``rtsp://...``).

    ``speed`` plays a file that many times faster than real time; ``paced=False`` reads it as fast
    as it decodes (load tests). ``opener`` returns an object with OpenCV's ``VideoCapture``
    interface (``isOpened``, ``read``, ``get``, ``release``); injected in tests.
    """

    def __init__(
        self,
        spec: str,
        speed: float = 1.0,
        paced: bool = True,
        backoff: tuple[float, float] = (0.5, 8.0),
        opener: Callable[[str | int], object] = _open_cv,
        on_status: Callable[[str], None] = lambda status: None,
    ):
        self.spec = spec
        self.is_file = Path(spec).is_file()
        self.target: str | int = int(spec) if spec.isdigit() and not self.is_file else spec
        self.speed = speed
        self.paced = paced
        self.backoff = backoff
        self.opener = opener
        self.on_status = on_status
        self.reopens = 0
        self.late_frames = 0  # paced file frames read over one frame interval behind schedule

    def check(self) -> None:
        """Fail early (``OSError``) for a file that does not open; live sources may come later."""
        if self.is_file:
            cap = self.opener(self.target)
            ok = cap.isOpened()
            cap.release()
            if not ok:
                raise OSError(f"{self.spec}: cannot open this video")

    def frames(self, stop: threading.Event) -> Iterator[Frame]:
        return self._file_frames(stop) if self.is_file else self._live_frames(stop)

    def _file_frames(self, stop: threading.Event) -> Iterator[Frame]:
        import cv2

        cap = self.opener(self.target)
        fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        self.on_status("playing")
        start = time.monotonic()
        index = 0
        try:
            while not stop.is_set():
                ok, image = cap.read()
                if not ok:
                    break
                if self.paced:
                    delay = start + index / (fps * self.speed) - time.monotonic()
                    if delay > 0:
                        stop.wait(delay)
                    elif -delay > 1.0 / (fps * self.speed):
                        self.late_frames += 1  # more than a frame behind: the budget was missed
                yield Frame(index, index / fps, image, time.monotonic())
                index += 1
        finally:
            cap.release()
            self.on_status("ended")

    def _live_frames(self, stop: threading.Event) -> Iterator[Frame]:
        start = time.monotonic()
        index = 0
        wait = self.backoff[0]
        while not stop.is_set():
            cap = self.opener(self.target)
            if not cap.isOpened():
                cap.release()
                self.on_status(f"reconnecting in {wait:.1f} s")
                stop.wait(wait)
                wait = min(wait * 2, self.backoff[1])
                self.reopens += 1
                continue
            self.on_status("live")
            try:
                while not stop.is_set():
                    ok, image = cap.read()
                    if not ok:
                        break  # dropped: reopen
                    wait = self.backoff[0]
                    now = time.monotonic()
                    yield Frame(index, now - start, image, now)
                    index += 1
            finally:
                cap.release()
            if not stop.is_set():
                self.on_status(f"source dropped, reconnecting in {wait:.1f} s")
                stop.wait(wait)
                wait = min(wait * 2, self.backoff[1])
                self.reopens += 1
