"""vision.evaluate_calibration: the calibration's error in mm on rendered clips, per clip and
camera, against the renderer's camera."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from vision.calibration import Calibration
from vision.evaluate_calibration import calibration_error, clip_dirs, main, truth_pixels

CLIP = Path(__file__).resolve().parents[2] / "tracker" / "samples" / "demo-kyoku"


def test_the_truth_camera_maps_its_own_points_back_exactly():
    truth = json.loads((CLIP / "truth.json").read_text())
    camera = dict(truth["calibration"], k1=0.0)  # without distortion the homography is the camera
    exact = Calibration(
        width=1280,
        height=720,
        homography=camera["homography_mm_to_px"],
        felt_half_mm=495.0,
        corners_px=[[0, 0], [1, 0], [1, 1], [0, 1]],
    )
    truth = dict(truth, calibration=camera)
    assert calibration_error(exact, truth, reach=450.0) == {"median_mm": 0.0, "max_mm": 0.0}
    # distortion moves the far points most: the centre stays put
    px = truth_pixels(dict(camera, k1=-0.08), np.array([[0.0, 0.0], [450.0, 450.0]]), (1280, 720))
    plain = truth_pixels(camera, np.array([[0.0, 0.0], [450.0, 450.0]]), (1280, 720))
    shift = np.linalg.norm(px - plain, axis=1)
    assert shift[1] > 5 * max(shift[0], 0.1)


def test_the_sample_clip_is_scored_per_clip_and_per_camera(tmp_path, capsys):
    clips = tmp_path / "set" / "clips"
    shutil.copytree(CLIP, clips / "demo-kyoku")
    (tmp_path / "set" / "plan.json").write_text(
        json.dumps({"clips": [{"name": "demo-kyoku", "camera": "tilted"}]})
    )
    out = tmp_path / "cal.json"
    assert main([str(tmp_path / "set"), "--seconds", "1", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures == json.loads(capsys.readouterr().out)
    (row,) = figures["clips"]
    assert row["clip"] == "demo-kyoku" and row["camera"] == "tilted"
    assert 0 < row["median_mm"] < 6 and row["median_mm"] <= row["max_mm"] < 20  # (measured 2.9 / 12.4)
    assert figures["summary"]["by_camera"]["tilted"]["clips"] == 1 and figures["summary"]["failed"] == []
    # the sample's felt is lit evenly: the shaded felt agrees with the one-colour one
    assert 0 <= row["shade_shift_px"] <= 10 and figures["summary"]["shaded_corners_used_on_some_frame"] == []
    assert figures["summary"]["largest_shade_shift_px_otherwise"] == row["shade_shift_px"]


def test_a_clip_that_does_not_calibrate_is_listed_with_its_error(tmp_path, capsys):
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "truth.json").write_text((CLIP / "truth.json").read_text())
    (bad / "video.mp4").write_bytes(b"not a video")
    assert clip_dirs([tmp_path]) == [bad]
    assert main([str(bad)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["summary"]["failed"] == ["broken"] and "error" in figures["clips"][0]


def test_a_clip_whose_truth_is_unreadable_is_listed_not_a_traceback(tmp_path, capsys):
    for name, text in (("garbled", "{not json"), ("no-camera", json.dumps({"width": 1280, "height": 720}))):
        clip = tmp_path / "set" / "clips" / name
        clip.mkdir(parents=True)
        (clip / "truth.json").write_text(text)
        (clip / "video.mp4").write_bytes((CLIP / "video.mp4").read_bytes())
    assert main([str(tmp_path / "set")]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["summary"]["failed"] == ["garbled", "no-camera"]
    assert all(r["error"].startswith("bad truth.json") for r in figures["clips"])


def test_bad_arguments_are_one_line(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.strip().endswith("not a folder: " + str(tmp_path / "nowhere"))
    assert main([str(tmp_path)]) == 2
    assert "no clips" in capsys.readouterr().err
