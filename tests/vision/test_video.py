"""vision.video: frames in order with index and time; a video that breaks off says where."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from vision.video import VideoError, VideoSource, first_frames


def _write_clip(path: Path, frames: int, fps: int = 10) -> None:
    """A small H.264 mp4 with its index at the front (faststart), so a cut file still opens."""
    container = av.open(str(path), mode="w", options={"movflags": "faststart"})
    stream = container.add_stream("libx264", rate=Fraction(fps))
    stream.width, stream.height, stream.pix_fmt = 160, 96, "yuv420p"
    stream.options = {"crf": "30", "preset": "ultrafast", "g": "5"}
    rng = np.random.default_rng(0)
    for i in range(frames):
        img = rng.integers(0, 255, (96, 160, 3), dtype=np.uint8)  # noise: every frame costs bytes
        img[:, : 8 * (i % 20)] = 255
        for packet in stream.encode(av.VideoFrame.from_ndarray(img, format="bgr24")):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
    container.close()


def test_frames_come_in_order_with_time(tmp_path):
    path = tmp_path / "clip.mp4"
    _write_clip(path, 30)
    video = VideoSource(path)
    assert (video.info.width, video.info.height, video.info.frames) == (160, 96, 30)
    seen = [(i, t, img.shape) for i, t, img in video]
    assert [i for i, _, _ in seen] == list(range(30))
    assert seen[10][1] == pytest.approx(1.0)
    assert seen[0][2] == (96, 160, 3)
    assert video.error is None


def test_a_cut_video_yields_frames_up_to_the_break_then_says_so(tmp_path):
    path = tmp_path / "clip.mp4"
    _write_clip(path, 60)
    data = path.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: int(len(data) * 0.5)])
    video = VideoSource(cut)
    frames = [i for i, _, _ in video]
    assert 0 < len(frames) < 60
    assert video.error is not None and "broke off at frame" in video.error and "\n" not in video.error


def test_unreadable_sources_fail_in_one_line(tmp_path):
    with pytest.raises(VideoError, match="not found"):
        VideoSource(tmp_path / "nope.mp4")
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all" * 100)
    with pytest.raises(VideoError, match="cannot open"):
        VideoSource(junk)


def test_first_frames_stops_after_the_asked_seconds(tmp_path):
    path = tmp_path / "clip.mp4"
    _write_clip(path, 30, fps=10)
    assert len(first_frames(path, 1.5)) == 15
