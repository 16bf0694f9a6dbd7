"""The lift model's training rows (``models.lift_data``) from a clip set, and its training
(``models.train_lift``, with the train extra)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models import lift_data
from tracker.commands.analyze import SAMPLE_CLIP
from tracker.lift_model import FEATURES


def _one_clip_set(tmp_path: Path) -> Path:
    """A clip set holding the sample clip (its video, truth and spec), as evaluate_set lays one out."""
    setdir = tmp_path / "set"
    clip = setdir / "clips" / "demo"
    clip.mkdir(parents=True)
    for name in ("video.mp4", "truth.json"):
        (clip / name).symlink_to(SAMPLE_CLIP.parent / name)
    plan = {"tileset": "default", "clips": [{"name": "demo", "camera": "overhead"}]}
    (setdir / "plan.json").write_text(json.dumps(plan))
    return setdir


def test_every_discard_of_the_sample_clip_is_a_row_labelled_by_the_truth(tmp_path, capsys):
    setdir = _one_clip_set(tmp_path)
    out = tmp_path / "lift.npz"
    assert lift_data.main([str(setdir), "--out", str(out)]) == 0
    data = np.load(out)
    truth = json.loads((SAMPLE_CLIP.parent / "truth.json").read_text())
    discards = [i["event"] for i in truth["events"] if i["event"]["type"] == "dahai"]
    x, y = data["features"], data["tsumogiri"]
    assert x.shape[1] == FEATURES and len(x) >= len(discards) - 2  # (one or two unread at most)
    assert 0 < y.sum() < len(y)  # both kinds, as the truth has them
    assert set(data["camera"].tolist()) == {"overhead"} and data["rules"].dtype == bool
    # the rules' decision beside the features agrees with the truth as the demo's record does
    assert (data["rules"] == y).mean() > 0.8
    # the detections were kept where evaluate_set score --cache-detections keeps them
    assert list((setdir / "detections").glob("*/demo.npz"))
    assert "1 clips" in capsys.readouterr().out


def test_a_folder_that_is_no_clip_set_fails_in_one_line(tmp_path, capsys):
    assert lift_data.main([str(tmp_path), "--out", str(tmp_path / "o.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no plan.json" in err and len(err.splitlines()) == 1


def test_training_writes_a_model_the_tracker_loads_that_learned_the_rows(tmp_path, capsys):
    pytest.importorskip("sklearn", reason="the train extra (scikit-learn, skl2onnx) is not installed")
    pytest.importorskip("skl2onnx", reason="the train extra (scikit-learn, skl2onnx) is not installed")
    from models import train_lift
    from tracker.lift_model import LiftModel

    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, FEATURES)).astype(np.float32)
    y = x[:, 6] > 0  # the first lift frame's row end over the plain end decides
    for name, rows in (("train", slice(0, 300)), ("test", slice(300, 400))):
        np.savez(
            tmp_path / f"{name}.npz",
            features=x[rows],
            tsumogiri=y[rows],
            rules=np.zeros(len(y[rows]), bool),
            camera=np.array(["low"] * len(y[rows])),
        )
    out = tmp_path / "lift.onnx"
    args = [str(tmp_path / "train.npz"), "--test", str(tmp_path / "test.npz"), "--out", str(out)]
    assert train_lift.main(args) == 0
    model = LiftModel(out)
    said = np.array([model.tsumogiri(row) >= 0.5 for row in x[300:]])
    assert (said == y[300:]).mean() > 0.9
    assert "test, model" in capsys.readouterr().out


def _fake_clip(
    tmp_path: Path, monkeypatch, discards: list[tuple[int, int, bool]], log: list, seat0_edge: str = "bottom"
) -> Path:
    """A clip whose truth has ``discards`` (frame, actor, tsumogiri) and whose tracker (stood in
    for: no video is decoded) logs ``log`` (frame, edge) judged discards, seat 0 at edge 0."""
    import tracker.commands.analyze as analyze
    import tracker.run as run
    import tracker.tracker as tracker_mod
    import vision.video as video

    class _Tracker:
        def __init__(self, *args) -> None:
            self.lift_log, self.seat0_edge = None, 0

    def _analyze(_video, tracker, progress=False):
        tracker.lift_log += [(f, e, np.full(FEATURES, f, np.float32), False) for f, e in log]

    monkeypatch.setattr(analyze, "_load_detector", lambda *a: object())
    monkeypatch.setattr(analyze, "_calibration", lambda *a: object())
    monkeypatch.setattr(tracker_mod, "TableTracker", _Tracker)
    monkeypatch.setattr(run, "analyze_video", _analyze)
    monkeypatch.setattr(video, "VideoSource", lambda path: path)
    clip = tmp_path / "clip"
    clip.mkdir()
    dahai = [{"type": "dahai", "actor": a, "pai": "1m", "tsumogiri": t} for _, a, t in discards]
    events = [{"frame": f, "event": d} for (f, _, _), d in zip(discards, dahai)]
    (clip / "truth.json").write_text(
        json.dumps({"events": events, "calibration": {"seat0_edge": seat0_edge}})
    )
    return clip


def test_a_clip_with_no_discard_judged_gives_no_rows_not_an_error(tmp_path, monkeypatch):
    # (a clip the tracker never started a kyoku on: np.reshape(-1, 0) of no rows raised)
    clip = _fake_clip(tmp_path, monkeypatch, [(100, 0, True)], [])
    x, y, rules = lift_data.clip_rows(clip, None, None)
    assert x.shape == (0, FEATURES) and len(y) == len(rules) == 0


def test_a_discard_is_labelled_by_its_own_seats_truth_not_the_next_seats(tmp_path, monkeypatch):
    # at pace 3 a call's discard lands ~25 frames after the called one: seat 1's tedashi at 100,
    # judged at 125, is not seat 2's tsumogiri at 120
    clip = _fake_clip(tmp_path, monkeypatch, [(100, 1, False), (120, 2, True)], [(125, 1), (130, 2)])
    x, y, _ = lift_data.clip_rows(clip, None, None)
    assert x[:, 0].tolist() == [125, 130] and y.tolist() == [False, True]


def test_the_seat_at_an_edge_is_the_truths_not_the_trackers_guess(tmp_path, monkeypatch):
    # the truth's seat 0 sits at the right edge (1): edge 2 is its seat 1, whatever edge the
    # tracker took for seat 0 (its stand-in says 0)
    discards = [(100, 1, False), (101, 2, True)]
    clip = _fake_clip(tmp_path, monkeypatch, discards, [(110, 2), (111, 3)], seat0_edge="right")
    x, y, _ = lift_data.clip_rows(clip, None, None)
    assert x[:, 0].tolist() == [110, 111] and y.tolist() == [False, True]


def test_training_files_missing_or_not_lift_data_fail_in_one_line(tmp_path, capsys):
    from models import train_lift

    other = tmp_path / "other.npz"
    np.savez(other, features=np.zeros((200, FEATURES), np.float32))
    for path, says in ((tmp_path / "none.npz", "cannot read"), (other, "not a lift_data file (no tsumogiri")):
        assert train_lift.main([str(path), "--out", str(tmp_path / "m.onnx")]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("train_lift: ") and says in err and str(path) in err and "\n" not in err
    assert not (tmp_path / "m.onnx").exists()


def test_a_clip_that_cannot_be_read_is_skipped_in_one_line_and_the_rest_kept(tmp_path, capsys):
    setdir = _one_clip_set(tmp_path)
    broken = setdir / "clips" / "broken"
    broken.mkdir()
    (broken / "video.mp4").write_bytes(b"not a video")
    (broken / "truth.json").write_text("{}")
    plan = json.loads((setdir / "plan.json").read_text())
    plan["clips"].append({"name": "broken", "camera": "low"})
    (setdir / "plan.json").write_text(json.dumps(plan))
    out = tmp_path / "lift.npz"
    assert lift_data.main([str(setdir), "--out", str(out), "--no-cache"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "broken" in line]
    assert len(err) == 1 and "skipped" in err[0]
    assert set(np.load(out)["clip"].tolist()) == {"set/demo"}


def test_an_output_that_cannot_be_written_fails_before_the_work(tmp_path, capsys):
    setdir = _one_clip_set(tmp_path)
    taken = tmp_path / "taken"
    taken.mkdir()
    assert lift_data.main([str(setdir), "--out", str(taken)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"lift_data: cannot write {taken}"
    assert not (setdir / "detections").exists()  # no clip was analysed
