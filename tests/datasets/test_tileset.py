import cv2
import numpy as np
import pytest

from datasets.tileset import DEFAULT_TILESET, FACE_CODES, Tileset, TilesetError, load_tileset
from tests.conftest import SHARED


def test_default_tileset_has_every_face():
    tileset = load_tileset(None)
    assert all(tileset.has(code) for code in FACE_CODES)
    face = tileset.face("5pr", 30)
    assert face.shape[1] == 30 and face.shape[2] == 4
    assert not np.array_equal(tileset.face("5pr", 30), tileset.face("5p", 30))  # red fives differ


def test_missing_faces_are_named(tmp_path):
    for code in ("1m", "2m"):
        cv2.imwrite(str(tmp_path / f"{code}.png"), np.zeros((32, 24, 3), np.uint8))
    with pytest.raises(TilesetError, match="missing faces 3m, 4m"):
        Tileset(tmp_path)
    with pytest.raises(TilesetError, match="not a directory"):
        Tileset(tmp_path / "nope")


@pytest.mark.skipif(not (SHARED / "tileart").is_dir(), reason="../shared/tileart absent")
@pytest.mark.parametrize("name", ["fluffystuff", "kmahjongg-default"])
def test_shared_art_sets_load(name):
    tileset = Tileset(SHARED / "tileart" / name)
    assert tileset.has("5mr") and tileset.face("E", 20).shape[1] == 20
    assert DEFAULT_TILESET.is_dir()


def test_point_symmetric_faces_look_alike_turned_half_round(tmp_path):
    tileset = load_tileset(None)
    assert all(tileset.alike_turned_half(c) for c in ("1p", "4p", "2s", "8s", "P"))
    assert not any(tileset.alike_turned_half(c) for c in ("2m", "S", "C", "1s", "7p"))
    # a blank face has no look to turn: not counted alike
    for code in tileset.faces:
        cv2.imwrite(str(tmp_path / f"{code}.png"), np.full((32, 24, 3), 200, np.uint8))
    assert not Tileset(tmp_path).alike_turned_half("1m")
