import numpy as np

from models.augment import Crop, resolution_loss, rot90, targets
from models.spec import NATIVE_TILE_PX, STRIDE


def test_rot90_moves_boxes_with_the_pixels():
    image = np.zeros((40, 60, 3), np.uint8)
    image[5:15, 30:50] = 255
    boxes = np.array([[30, 5, 50, 15]], np.float32)
    for k in range(4):
        rotated, b = rot90(image, boxes, k)
        ys, xs = np.nonzero(rotated[:, :, 0])
        assert b[0].tolist() == [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]


def test_targets_peak_at_tile_centres():
    boxes = np.array([[8, 8, 28, 36], [100, 40, 127, 60]], np.float32)
    crop = Crop(np.zeros((128, 128, 3), np.uint8), boxes, np.array([3, 40]), np.array([0, 1]))
    t = targets(crop)
    assert t["heat"].shape == (1, 32, 32)
    cells = [(int((b[1] + b[3]) / 2 / STRIDE), int((b[0] + b[2]) / 2 / STRIDE)) for b in boxes]
    for (y, x), cls, o, b in zip(cells, [3, 40], [0, 1], boxes):
        assert t["heat"][0, y, x] == 1.0 and t["reg"][y, x]
        assert t["cls"][y, x] == cls and t["orient"][y, x] == o
        w, h = np.exp(t["size"][:, y, x]) * NATIVE_TILE_PX
        assert (w, h) == (b[2] - b[0], b[3] - b[1]) or np.allclose((w, h), (b[2] - b[0], b[3] - b[1]))
    assert t["reg"].sum() == 2
    assert (t["cls"] >= 0).sum() == 10  # centre + 4 neighbours each


def test_resolution_loss_keeps_the_size_and_removes_fine_detail():
    board = (np.indices((64, 80)).sum(axis=0) % 2 * 255).astype(np.uint8)  # 1 px checkerboard
    image = np.repeat(board[..., None], 3, axis=2)
    out = resolution_loss(image, np.random.default_rng(0))
    assert out.shape == image.shape and out.dtype == np.uint8
    # the finest pattern a camera cannot resolve turns to grey: far less contrast than the input
    assert out.std() < 0.5 * image.std()
    assert abs(float(out.mean()) - float(image.mean())) < 20
