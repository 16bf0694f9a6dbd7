"""The speed benchmark's own table image: the bundled clip's felt, rectified as the tracker sees it."""

import numpy as np

from models.bench import sample_table_image


def test_sample_table_image_is_the_rectified_felt_at_table_scale():
    image, tile_px = sample_table_image(1024)
    assert image.shape == (1024, 1024, 3)
    # a 26 mm tile on a 990 mm felt square drawn 1024 px wide
    assert 26.5 < tile_px < 27.3
    # the felt fills the square: its blue cloth dominates a ring between the walls and the centre box
    ring = np.concatenate([image[250:300, 300:700].reshape(-1, 3), image[700:750, 300:700].reshape(-1, 3)])
    blue, green, red = np.median(ring, axis=0)
    assert blue > red + 40 and blue > green + 20


def test_a_missing_image_is_one_line_and_exit_2(tmp_path, capsys):
    from models.bench import main

    assert main([str(tmp_path / "missing.png"), "--runs", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bench: ") and "missing.png" in err and "\n" not in err
