"""Video in: decoded BGR frames in order, with their index and time, from a file or a camera.

OpenCV decodes H.264 (DESIGN.md: about 645 fps for 1280x720 here), so it is the reader. A video
that stops before the frame count its container announced is truncated or corrupt: iteration
ends at the break and ``VideoSource.error`` says where, so callers write what they have and exit
non-zero.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


class VideoError(Exception):
    """The video cannot be opened or read; the message is one line naming the source."""


@dataclass(frozen=True)
class VideoInfo:
    fps: float
    width: int
    height: int
    frames: int | None  # as the container announces it; None for live sources


class VideoSource:
    """``for index, t, image in VideoSource(path)``; ``error`` is set if the video broke off."""

    def __init__(self, source: str | Path | int, default_fps: float = 30.0) -> None:
        self.source = source
        if isinstance(source, int) or (isinstance(source, str) and source.isdigit()):
            cap = cv2.VideoCapture(int(source))
        else:
            path = Path(source)
            if not path.is_file():
                raise VideoError(f"video not found: {path}")
            cap = cv2.VideoCapture(str(path))
        if not cap.isOpened():
            raise VideoError(
                f"cannot open video {source} (unreadable, truncated before its index, or not a video)"
            )
        self._cap = cap
        fps = cap.get(cv2.CAP_PROP_FPS)
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        self.info = VideoInfo(
            fps=float(fps) if fps and fps > 0 else default_fps,
            width=int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
            height=int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)),
            frames=count if count > 0 else None,
        )
        self.error: str | None = None
        self.read_frames = 0

    def __iter__(self) -> Iterator[tuple[int, float, np.ndarray]]:
        index = 0
        fps = self.info.fps
        try:
            while True:
                ok, image = self._cap.read()
                if not ok or image is None:
                    break
                yield index, index / fps, image
                index += 1
        finally:
            self.read_frames = index
            self._cap.release()
        expected = self.info.frames
        if expected is not None and index < expected:
            self.error = (
                f"video {self.source} broke off at frame {index} of {expected} (truncated or corrupt)"
            )
        elif index == 0:
            self.error = f"video {self.source} holds no decodable frame"

    def close(self) -> None:
        self._cap.release()


def first_frames(source: str | Path, seconds: float) -> list[np.ndarray]:
    """The frames of the first ``seconds`` of a video (for calibration)."""
    video = VideoSource(source)
    limit = max(1, int(round(seconds * video.info.fps)))
    out = []
    for index, _t, image in video:
        out.append(image)
        if index + 1 >= limit:
            break
    video.close()
    return out
