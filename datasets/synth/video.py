"""H.264 video out through PyAV (libx264): what cameras deliver, compression artifacts included."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np


class H264Writer:
    def __init__(
        self, path: str | Path, fps: float, width: int, height: int, crf: int = 23, preset: str = "veryfast"
    ):
        self.container = av.open(str(path), mode="w")
        self.stream = self.container.add_stream("libx264", rate=Fraction(fps).limit_denominator(1001))
        self.stream.width = width
        self.stream.height = height
        self.stream.pix_fmt = "yuv420p"
        self.stream.options = {"crf": str(crf), "preset": preset, "tune": "film"}
        self.frames = 0

    def write(self, bgr: np.ndarray) -> None:
        frame = av.VideoFrame.from_ndarray(bgr, format="bgr24")
        for packet in self.stream.encode(frame):
            self.container.mux(packet)
        self.frames += 1

    def close(self) -> None:
        for packet in self.stream.encode():
            self.container.mux(packet)
        self.container.close()

    def __enter__(self) -> H264Writer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
