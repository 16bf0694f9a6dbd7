"""Reader training pieces: the five-or-red-five loss, the augmented view, class-balanced drawing."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from models.spec import NUM_CLASSES, READER_PX  # noqa: E402
from models.train_reader import BANK_PX, Bank, draw_weights, loss_fn, view  # noqa: E402
from tracker.tiles import class_id  # noqa: E402


def test_a_five_without_red_labels_may_be_read_as_either_five():
    logits = torch.full((2, NUM_CLASSES), -5.0)
    logits[:, class_id("5mr")] = 5.0  # the net says red five for both
    labels = torch.tensor([class_id("5m"), class_id("5m")])
    loss_known = loss_fn(logits[:1], labels[:1], torch.tensor([False]))
    loss_unknown = loss_fn(logits[1:], labels[1:], torch.tensor([True]))
    assert loss_known > 5 and loss_unknown < 0.01


def test_view_is_the_reader_size_and_keeps_a_centred_tile_centred():
    crop = np.full((BANK_PX, BANK_PX, 3), 40, np.uint8)
    crop[22:42, 25:39] = 230  # a bright tile in the middle of the bank crop
    rng = np.random.default_rng(0)
    for _ in range(10):
        v = view(crop, rng)
        assert v.shape == (READER_PX, READER_PX, 3)
        c = READER_PX // 2
        assert v[c - 2 : c + 2, c - 2 : c + 2].mean() > v[:4, :4].mean()


def test_rare_classes_are_drawn_more_often_per_tile():
    labels = np.array([class_id("1m")] * 90 + [class_id("5mr")] * 10)
    bank = Bank(np.zeros((100, 1, 1, 3), np.uint8), labels, np.zeros(100, bool), np.zeros(100, np.int64))
    p = draw_weights(bank, [1])
    assert np.isclose(p.sum(), 1) and p[-1] == pytest.approx(3 * p[0])  # 1/sqrt(10) vs 1/sqrt(90)
