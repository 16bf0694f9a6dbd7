"""Keyframes of a rendered clip as training stills: frames, boxes and codes as truth.json has them."""

from __future__ import annotations

import numpy as np

from datasets.clip_stills import main, synth_keyframes, write_clip_stills
from models.data import load_any
from tracker import tiles


def test_every_other_keyframe_becomes_a_labelled_still(clip, tmp_path):
    keyframes = [k for k in clip["truth"]["keyframes"] if k["tiles"]]
    coco = write_clip_stills([clip["dir"]], tmp_path, every=2)
    samples = load_any(tmp_path)
    assert len(samples) == len(keyframes[::2]) == len(coco["images"])
    first = keyframes[0]["tiles"]
    known = [t for t in first if t["code"] in tiles.MODEL_CLASSES]
    s = samples[0]
    assert [tiles.MODEL_CLASSES[c] for c in s.classes] == [t["code"] for t in known]
    np.testing.assert_allclose(s.boxes, np.asarray([t["box"] for t in known], np.float32))
    assert s.face_up.tolist() == [t["face_up"] for t in known]
    # a whole clip is one source, so models.data.split holds it out whole
    assert {x.source for x in samples} == {clip["dir"].name}
    assert s.load_image().shape[:2] == (clip["truth"]["height"], clip["truth"]["width"])


def test_keyframe_images_are_the_videos_frames(clip):
    frames = list(synth_keyframes(clip["dir"], picks=2))
    assert len(frames) == 2
    image, tile_list = frames[0]
    assert image.shape == (clip["truth"]["height"], clip["truth"]["width"], 3)
    # the first pick is the first keyframe that shows tiles
    assert tile_list == next(k["tiles"] for k in clip["truth"]["keyframes"] if k["tiles"])
    # a face-up tile is brighter than the felt around the table's centre
    x0, y0, x1, y1 = next(t["box"] for t in tile_list if t["face_up"])
    assert image[y0:y1, x0:x1].mean() > image[: clip["truth"]["height"] // 8].mean()


def test_a_folder_that_is_not_a_clip_is_refused(tmp_path, capsys):
    assert main([str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "not a rendered clip" in capsys.readouterr().err


def test_a_broken_truth_file_is_named_in_one_line_and_nothing_is_written(tmp_path, capsys):
    clip = tmp_path / "clip"
    clip.mkdir()
    (clip / "video.mp4").write_bytes(b"")
    (clip / "truth.json").write_text('{"frames": 3')
    out = tmp_path / "out"
    assert main([str(clip), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert str(clip / "truth.json") in err and len(err.splitlines()) == 1
    assert not out.exists()
