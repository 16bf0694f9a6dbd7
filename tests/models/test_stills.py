import json

import cv2
import numpy as np

from models.data import load_coco
from models.stills import convert
from tracker.tiles import class_id


def test_keyframes_become_coco_stills(tmp_path):
    clip = tmp_path / "clip"
    clip.mkdir()
    writer = cv2.VideoWriter(str(clip / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 5, (64, 48))
    for i in range(4):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    tiles = [
        {"code": "5pr", "seat": 1, "zone": "river", "box": [10, 5, 30, 20], "angle": 91.2, "face_up": True},
        {
            "code": "back",
            "seat": 0,
            "zone": "wall",
            "box": [40, 30, 52, 46],
            "angle": 358.0,
            "face_up": False,
        },
    ]
    truth = {"keyframes": [{"frame": 2, "tiles": tiles}, {"frame": 3, "tiles": []}]}
    (clip / "truth.json").write_text(json.dumps(truth))
    doc = convert([clip], tmp_path / "stills")
    assert len(doc["images"]) == 1
    (s,) = load_coco(tmp_path / "stills" / "stills.json")
    assert s.classes.tolist() == [class_id("5pr"), class_id("back")]
    assert s.boxes.tolist() == [[10, 5, 30, 20], [40, 30, 52, 46]]
    assert s.angles.tolist() == [90, 0] and s.face_up.tolist() == [True, False]
    assert abs(int(s.load_image().mean()) - 80) <= 3  # the third frame
