"""The tile reader: vectorised crops around boxes, and the detector taking its second look."""

import numpy as np
import pytest

from tracker.tiles import BACK, class_id
from vision.detections import TileDetections
from vision.detector import DEFAULT_MODEL, ModelError, TileDetector
from vision.reader import TileReader, crop_tiles, to_input, turned


def test_crops_are_centred_squares_around_each_box():
    image = np.zeros((200, 300, 3), np.uint8)
    image[50:90, 100:130] = (0, 0, 255)  # a red 30 x 40 "tile"
    image[120:140, 20:60] = (255, 0, 0)  # a blue 40 x 20 one lying sideways
    boxes = np.array([[100, 50, 130, 90], [20, 120, 60, 140]], np.float32)
    crops = crop_tiles(image, boxes, size=40, margin=1.25)
    assert crops.shape == (2, 40, 40, 3)
    assert (crops[0, 20, 20] == (0, 0, 255)).all() and (crops[1, 20, 20] == (255, 0, 0)).all()
    # the square is margin * the longer side: the tile's 30 px width fills 30 / 50 of the crop
    red_cols = (crops[0, 20, :, 2] > 128).sum()
    assert 22 <= red_cols <= 26
    blue_rows = (crops[1, :, 20, 0] > 128).sum()
    assert 14 <= blue_rows <= 18


def test_crops_at_the_border_and_of_nothing():
    image = np.full((50, 50, 3), 7, np.uint8)
    assert crop_tiles(image, np.array([[-10, -10, 10, 10]], np.float32), size=16).shape == (1, 16, 16, 3)
    assert crop_tiles(image, np.zeros((0, 4), np.float32)).shape[0] == 0
    x = to_input(crop_tiles(image, np.array([[0, 0, 20, 20]], np.float32), size=16))
    assert x.shape == (1, 3, 16, 16) and x.dtype == np.float32 and np.allclose(x, 7 / 255)


def test_turned_crops_come_as_quarter_turns_of_the_batch():
    crops = np.zeros((2, 4, 4, 3), np.uint8)
    crops[:, 0, 0] = 255  # a mark at the top left
    assert (turned(crops, 1) == crops).all()
    four = turned(crops, 4)
    assert four.shape == (8, 4, 4, 3)
    # counterclockwise: the top-left mark goes to the bottom left, then bottom right, then top right
    marks = [tuple(np.argwhere(four[k * 2, :, :, 0])[0]) for k in range(4)]
    assert marks == [(0, 0), (3, 0), (3, 3), (0, 3)]
    assert (turned(crops, 2)[2:] == four[4:6]).all()  # upside down
    with pytest.raises(ValueError, match="1, 2 or 4"):
        turned(crops, 3)


class _MarkSession:
    """A reader net that reads 1m where a crop's top-left pixel is bright, else 9p (as certain)."""

    def run(self, _names, feeds):
        (x,) = feeds.values()
        logits = np.zeros((len(x), 47), np.float32)
        bright = x[:, 0, 0, 0] > 0.5
        logits[bright, class_id("1m")] = 4.0
        logits[~bright, class_id("9p")] = 4.0
        return [logits]


def test_the_reader_averages_its_looks_at_each_tile():
    image = np.zeros((40, 40, 3), np.uint8)
    image[:3, :3] = 255  # a mark that only the first look sees at the crop's top left
    boxes = np.array([[0, 0, 16, 16], [20, 20, 36, 36]], np.float32)
    reader = TileReader.__new__(TileReader)  # (no model file: the session stands in for the net)
    reader.session, reader.input_name, reader.outputs = _MarkSession(), "x", ["logits"]
    reader.turns = 1
    ids, probs, turns = reader.read(image, boxes)
    assert [class_id("1m"), class_id("9p")] == ids.tolist() and turns is None
    reader.turns = 4  # three of the four looks at the marked tile see no mark at the top left
    ids, probs, _ = reader.read(image, boxes)
    assert ids.tolist() == [class_id("9p"), class_id("9p")]
    assert np.allclose(probs.sum(axis=1), 1.0)
    # the geometric mean of the looks: 9p at 3/4 of the logit margin over 1m
    margin = np.log(probs[0, class_id("9p")] / probs[0, class_id("1m")])
    assert margin == pytest.approx(4.0 * 3 / 4 - 4.0 * 1 / 4, abs=1e-4)


class _FakeReader:
    """Reads every crop as 9p, except the second tile, which it thinks is a back."""

    def read(self, image, boxes):
        ids = np.full(len(boxes), class_id("9p"))
        ids[1:2] = class_id(BACK)
        probs = np.full((len(boxes), 47), 0.01, np.float32)
        probs[np.arange(len(boxes)), ids] = 0.9
        return ids, probs, np.full(len(boxes), 3)  # turned 270 degrees


needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")


def _probs(*pairs):
    p = np.full(47, 0.001, np.float32)
    for code, v in pairs:
        p[class_id(code)] = v
    return p / p.sum()


@needs_model
def test_the_reader_and_the_net_vote_on_face_up_tiles_only():
    det = TileDetector(reader_path=None)
    det.reader = _FakeReader()
    found = TileDetections(
        boxes=np.array([[0, 0, 10, 13], [20, 0, 30, 13], [40, 0, 50, 13]], np.float32),
        class_ids=np.array([class_id("1m"), class_id("2m"), class_id(BACK)]),
        angles=np.zeros(3, np.int64),
        face_up=np.array([True, True, False]),
        confidence=np.full(3, 0.5, np.float32),
    )
    net = np.stack([_probs(("1m", 0.55), ("9p", 0.4)), _probs(("2m", 0.9)), _probs((BACK, 0.99))])
    found = TileDetections(
        found.boxes, found.class_ids, found.angles, found.face_up, 0.8 * net[[0, 1, 2], found.class_ids]
    )
    out = det._reread(np.zeros((20, 60, 3), np.uint8), found, net)
    # tile 0: the net hesitates, the reader is sure: 9p; tile 1: the reader sees a back where the net
    # found a face: the net's 2m stays; tile 2: face down, untouched
    assert out.codes.tolist() == ["9p", "2m", BACK]
    assert out.angles.tolist() == [0, 0, 0]  # the net's turns stay (the reader's measured worse)
    assert out.confidence[2] == found.confidence[2]
    # disagreement costs confidence: the reader doubts the net's 2m
    assert 0.5 < out.confidence[0] / 0.8 < 1.0 and out.confidence[1] < found.confidence[1]
    det.reader_weight = 0.0  # the net alone
    assert det._reread(np.zeros((20, 60, 3), np.uint8), found, net).codes.tolist() == ["1m", "2m", BACK]


@needs_model
def test_a_named_reader_must_exist(tmp_path):
    with pytest.raises(ModelError, match="missing-reader.onnx"):
        TileDetector(reader_path=tmp_path / "missing-reader.onnx")


def test_the_default_models_ship_with_the_package():
    """An installed (non-editable) mjmon carries every model the detector loads by default: a
    reader left out of the wheel would silently leave the detector reading alone."""
    import tomllib

    from vision.reader_options import DEFAULT_READER

    pyproject = DEFAULT_MODEL.parents[1] / "pyproject.toml"
    shipped = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]["package-data"]["models"]
    assert DEFAULT_MODEL.name in shipped and DEFAULT_READER.name in shipped
