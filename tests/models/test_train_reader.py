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
        v, _ = view(crop, rng)
        assert v.shape == (READER_PX, READER_PX, 3)
        c = READER_PX // 2
        assert v[c - 2 : c + 2, c - 2 : c + 2].mean() > v[:4, :4].mean()


def test_rare_classes_are_drawn_more_often_per_tile():
    labels = np.array([class_id("1m")] * 90 + [class_id("5mr")] * 10)
    zeros = np.zeros(100, np.int64)
    bank = Bank(np.zeros((100, 1, 1, 3), np.uint8), labels, np.zeros(100, bool), zeros - 1, zeros)
    p = draw_weights(bank, [1])
    assert np.isclose(p.sum(), 1) and p[-1] == pytest.approx(3 * p[0])  # 1/sqrt(10) vs 1/sqrt(90)


def test_the_turn_label_counts_counterclockwise_like_tile_angles():
    """A tile dark in its top half, turned a quarter counterclockwise, is dark on its left."""
    crop = np.full((BANK_PX, BANK_PX, 3), 128, np.uint8)
    crop[18:46, 22:42] = 240
    crop[18:32, 22:42] = 10  # the top half of the face is dark
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(40):
        v, turns = view(crop, rng)
        g = v.astype(int).sum(axis=2)
        c, d = READER_PX // 2, 6
        sides = {0: g[c - 2 * d : c, c - 2 : c + 3], 1: g[c - 2 : c + 3, c - 2 * d : c],
                 2: g[c : c + 2 * d, c - 2 : c + 3], 3: g[c - 2 : c + 3, c : c + 2 * d]}  # fmt: skip
        darkest = min(sides, key=lambda k: sides[k].mean())  # top, left, bottom, right
        assert darkest == turns
        seen.add(turns)
    assert seen == {0, 1, 2, 3}


def test_orientation_loss_only_where_the_turn_is_known():
    out = torch.zeros((2, NUM_CLASSES + 4))
    out[:, class_id("1m")] = 10.0
    labels = torch.tensor([class_id("1m"), class_id("1m")])
    unknown_turn = loss_fn(out, labels, torch.tensor([False, False]), torch.tensor([-1, -1]))
    known_turn = loss_fn(out, labels, torch.tensor([False, False]), torch.tensor([2, -1]))
    assert unknown_turn.item() < 0.01
    assert known_turn.item() == pytest.approx(unknown_turn.item() + np.log(4), abs=1e-3)


def test_missing_training_data_is_one_line(tmp_path, capsys):
    from models.train_reader import main

    assert (
        main(["--data", str(tmp_path / "nothing"), "--out", str(tmp_path / "out"), "--minutes", "0.01"]) == 2
    )
    err = capsys.readouterr().err.strip()
    assert err.startswith("train_reader:") and "nothing" in err and "\n" not in err


def test_banks_split_by_source_and_read_each_set_once(tmp_path, monkeypatch):
    import json

    import cv2

    import models.train_reader as tr
    from models.data import is_held_out

    folder = tmp_path / "photos"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    for i in range(40):  # 40 source photos, two tiles each
        cv2.imwrite(str(folder / "images" / f"src{i}_jpg.rf.{i}.jpg"), np.full((60, 80, 3), 200, np.uint8))
        (folder / "labels" / f"src{i}_jpg.rf.{i}.txt").write_text("0 0.3 0.5 0.2 0.4\n1 0.7 0.5 0.2 0.4\n")
    (folder / "meta.json").write_text(json.dumps({"classes": ["1m", "5p"]}))
    reads = []
    real_load = tr.load_any
    monkeypatch.setattr(tr, "load_any", lambda path: reads.append(path) or real_load(path))

    train, held, names, weights = tr.build_banks([f"{folder}@3"], max_images=1000, max_held=1000)
    held_sources = sum(is_held_out(f"src{i}") for i in range(40))
    assert reads == [str(folder)]
    assert len(held.labels) == 2 * held_sources and len(train.labels) == 2 * (40 - held_sources)
    assert names == ["photos"] and weights == [3]
    assert set(train.labels.tolist()) == {class_id("1m"), class_id("5p")}
    assert train.red_unknown[train.labels == class_id("5p")].all()  # this set labels no red fives
    capped, _, _, _ = tr.build_banks([str(folder)], max_images=5, max_held=5)
    assert len(capped.labels) == 10


def test_a_run_can_start_from_the_committed_reader(tmp_path, one_class_photos, warm_start_run):
    """``--init models/reader.onnx``: the run's net is the committed reader (a run too short for a
    step writes it back unchanged in what it reads)."""
    from pathlib import Path

    import onnxruntime as ort

    from models.train_reader import main

    committed = Path(__file__).resolve().parents[2] / "models" / "reader.onnx"
    folder = one_class_photos((60, 80), (0.3, 0.5, 0.2, 0.4))
    out = warm_start_run(main, committed, folder, 8, "features.0.1.running_var")
    x = np.random.default_rng(7).random((16, 3, READER_PX, READER_PX), dtype=np.float32)
    want, got = (
        ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(["logits"], {"crops": x})[0]
        for p in (committed, out / "reader.onnx")
    )
    assert (got.argmax(1) == want.argmax(1)).mean() >= 14 / 16
    assert np.abs(got - want).max() < 0.05 * np.abs(want).max()


def test_a_bad_init_file_is_one_line(tmp_path, capsys, one_class_photos):
    from pathlib import Path

    from models.train_reader import main

    folder = one_class_photos((60, 80), (0.3, 0.5, 0.2, 0.4))
    tiles = Path(__file__).resolve().parents[2] / "models" / "tiles.onnx"  # the detector, not a reader
    args = ["--data", str(folder), "--out", str(tmp_path / "out"), "--minutes", "0", "--init", str(tiles)]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("train_reader:") and "not an export of the tile reader" in err and "\n" not in err
