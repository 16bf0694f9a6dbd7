import numpy as np
import pytest

from tracker.tiles import class_id
from vision.detections import TileDetections


def make(n: int) -> TileDetections:
    return TileDetections(
        boxes=np.arange(n * 4, dtype=np.float32).reshape(n, 4),
        class_ids=np.array([class_id(c) for c in ["1m", "5pr", "back", "flower2"][:n]], dtype=np.int64),
        angles=np.array([0, 90, 180, 270][:n], dtype=np.int64),
        face_up=np.array([True, True, False, True][:n]),
        confidence=np.linspace(0.9, 0.6, n).astype(np.float32),
    )


def test_codes_and_mask_indexing():
    det = make(4)
    assert det.codes.tolist() == ["1m", "5pr", "back", "flower2"]
    picked = det[det.face_up]
    assert len(picked) == 3
    assert picked.codes.tolist() == ["1m", "5pr", "flower2"]
    assert picked.angles.tolist() == [0, 90, 270]
    assert det[2].codes.tolist() == ["back"]
    assert det[np.array([3, 0])].boxes[0].tolist() == [12.0, 13.0, 14.0, 15.0]


def test_shape_checks_name_the_field():
    det = make(2)
    with pytest.raises(ValueError, match="boxes"):
        TileDetections(det.boxes[:, :3], det.class_ids, det.angles, det.face_up, det.confidence)
    with pytest.raises(ValueError, match="confidence"):
        TileDetections(det.boxes, det.class_ids, det.angles, det.face_up, det.confidence[:1])


def test_empty_and_records():
    assert len(TileDetections.empty()) == 0
    rec = make(2).to_records()
    assert rec[1] == {
        "code": "5pr",
        "box": [4.0, 5.0, 6.0, 7.0],
        "angle": 90,
        "face_up": True,
        "confidence": 0.6,
    }
    assert make(2).centres.tolist() == [[1.0, 2.0], [5.0, 6.0]]
