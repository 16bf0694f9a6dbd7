"""mjmon analyze / calibrate: clear one-line failures (no model, no table, no video)."""

from __future__ import annotations

from fractions import Fraction

import av
import numpy as np

from tracker.cli import main


def _still_clip(path, frames=12):
    container = av.open(str(path), mode="w")
    stream = container.add_stream("libx264", rate=Fraction(10))
    stream.width, stream.height, stream.pix_fmt = 320, 192, "yuv420p"
    rng = np.random.default_rng(0)
    for _ in range(frames):
        img = rng.integers(0, 255, (192, 320, 3), dtype=np.uint8)
        for packet in stream.encode(av.VideoFrame.from_ndarray(img, format="bgr24")):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
    container.close()


def test_missing_model_fails_in_one_line(tmp_path, capsys):
    clip = tmp_path.parent.parent  # any path: the sample clip is used through calibrate first
    del clip
    from tracker.commands.analyze import SAMPLE_CLIP

    code = main(
        ["analyze", str(SAMPLE_CLIP), "--model", str(tmp_path / "none.onnx"), "--out", str(tmp_path / "o")]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "model file not found" in err and len(err.splitlines()) == 1


def test_no_table_in_view_fails_clearly(tmp_path, capsys):
    clip = tmp_path / "noise.mp4"
    _still_clip(clip)
    assert main(["calibrate", str(clip), "--out", str(tmp_path / "c.json")]) == 2
    assert "no table in view" in capsys.readouterr().err
    assert main(["analyze", str(clip), "--out", str(tmp_path / "o")]) == 2
    assert "no table in view" in capsys.readouterr().err


def test_missing_video_fails_clearly(tmp_path, capsys):
    assert main(["analyze", str(tmp_path / "nope.mp4"), "--out", str(tmp_path / "o")]) == 2
    assert "video not found" in capsys.readouterr().err


def test_calibrate_saves_a_loadable_file(tmp_path, capsys):
    from tracker.commands.analyze import SAMPLE_CLIP
    from vision.calibration import Calibration

    out = tmp_path / "calib.json"
    assert main(["calibrate", str(SAMPLE_CLIP), "--out", str(out), "--seconds", "0.5"]) == 0
    assert "table found" in capsys.readouterr().out
    cal = Calibration.load(out)
    assert cal.width == 1280 and cal.seat0_edge is None
