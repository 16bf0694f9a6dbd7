"""mjmon analyze / calibrate: clear one-line failures (no model, no table, no video)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from tracker.cli import main


def _still_clip(path, frames=12):
    container = av.open(str(path), mode="w")
    stream = container.add_stream("libx264", rate=Fraction(10))
    stream.width, stream.height, stream.pix_fmt = 320, 192, "yuv420p"
    rng = np.random.default_rng(0)
    for _ in range(frames):
        img = rng.integers(0, 255, (192, 320, 3), dtype=np.uint8)
        for packet in stream.encode(av.VideoFrame.from_ndarray(img, format="bgr24")):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
    container.close()


def test_missing_model_fails_in_one_line(tmp_path, capsys):
    clip = tmp_path.parent.parent  # any path: the sample clip is used through calibrate first
    del clip
    from tracker.commands.analyze import SAMPLE_CLIP

    code = main(
        ["analyze", str(SAMPLE_CLIP), "--model", str(tmp_path / "none.onnx"), "--out", str(tmp_path / "o")]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "model file not found" in err and len(err.splitlines()) == 1


def test_a_named_reader_that_is_missing_fails_in_one_line(tmp_path, capsys):
    from tracker.commands.analyze import SAMPLE_CLIP

    missing = tmp_path / "no-reader.onnx"
    code = main(["analyze", str(SAMPLE_CLIP), "--reader", str(missing), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and str(missing) in err and len(err.splitlines()) == 1


def test_a_named_lift_model_that_is_missing_fails_in_one_line(tmp_path, capsys):
    from tracker.commands.analyze import SAMPLE_CLIP

    missing = tmp_path / "no-lift.onnx"
    code = main(["analyze", str(SAMPLE_CLIP), "--lift-model", str(missing), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and str(missing) in err and "--no-lift-model" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()  # refused before the long work


def test_the_lift_model_options_choose_the_file():
    from tracker.cli import build_parser
    from tracker.lift_model import DEFAULT_LIFT_MODEL, lift_model_path

    for command in (["analyze", "v.mp4"], ["demo"], ["live", "0"]):
        parser = build_parser()
        assert lift_model_path(parser.parse_args(command)) == DEFAULT_LIFT_MODEL
        assert lift_model_path(parser.parse_args([*command, "--no-lift-model"])) is None
        assert lift_model_path(parser.parse_args([*command, "--lift-model", "l.onnx"])) == Path("l.onnx")
        with pytest.raises(SystemExit):
            parser.parse_args([*command, "--no-lift-model", "--lift-model", "l.onnx"])


def test_the_pace_of_play_is_a_real_tables_unless_told_and_a_bad_one_is_refused(capsys):
    from tracker.cli import build_parser
    from tracker.commands.analyze import sample_pace

    for command in (["analyze", "v.mp4"], ["live", "0"]):
        parser = build_parser()
        assert parser.parse_args(command).pace == 1.0
        assert parser.parse_args([*command, "--pace", "3"]).pace == 3.0
        for bad in ("0", "-1", "fast"):
            with pytest.raises(SystemExit):
                parser.parse_args([*command, "--pace", bad])
    assert "--pace: a pace is over 0" in capsys.readouterr().err
    assert sample_pace() == 1.5  # the demo analyses its clip at the pace it was rendered


def test_the_reader_options_reach_the_detector():
    from tracker.cli import build_parser
    from vision.reader_options import BUNDLED_READER, ReaderChoice, reader_options

    commands = (["analyze", "v.mp4"], ["demo"], ["calibrate", "v.mp4", "--out", "c.json"], ["live", "0"])
    for command in (*commands, ["detect", "a.png", "--json", "o.json"]):
        parser = build_parser()
        assert reader_options(parser.parse_args(command)) == BUNDLED_READER
        assert reader_options(parser.parse_args([*command, "--no-reader"])).path is None
        assert str(reader_options(parser.parse_args([*command, "--reader", "r.onnx"])).path) == "r.onnx"
        chosen = reader_options(parser.parse_args([*command, "--reader-turns", "4", "--tiles-ref", "s.npz"]))
        assert chosen == ReaderChoice(BUNDLED_READER.path, 4, Path("s.npz"))


def test_the_rules_tile_set_reaches_the_detector():
    from tracker.commands.analyze import _load_detector
    from tracker.tiles import BONUS, RED_FIVES
    from vision.detector import DEFAULT_MODEL
    from vision.reader_options import ReaderChoice

    if not DEFAULT_MODEL.is_file():
        pytest.skip(f"{DEFAULT_MODEL} not built yet")
    # Japanese sets hold no flowers or seasons and MCR sets no red fives: never read as such
    alone = ReaderChoice(path=None, turns=1)
    assert _load_detector(None, alone, "mleague").absent_classes == BONUS
    assert _load_detector(None, alone, "riichi").absent_classes == BONUS
    assert _load_detector(None, alone, "mcr").absent_classes == RED_FIVES
    assert _load_detector(None, alone).absent_classes == ()


def test_no_table_in_view_fails_clearly(tmp_path, capsys):
    clip = tmp_path / "noise.mp4"
    _still_clip(clip)
    assert main(["calibrate", str(clip), "--out", str(tmp_path / "c.json")]) == 2
    assert "no table in view" in capsys.readouterr().err
    assert main(["analyze", str(clip), "--out", str(tmp_path / "o")]) == 2
    assert "no table in view" in capsys.readouterr().err


def test_an_output_path_taken_by_a_file_fails_in_one_line_before_the_analysis(tmp_path, capsys):
    from tracker.commands.analyze import SAMPLE_CLIP

    taken = tmp_path / "taken"
    taken.write_text("not a directory")
    assert main(["analyze", str(SAMPLE_CLIP), "--out", str(taken)]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{taken} is a file" in err and len(err.splitlines()) == 1
    out = tmp_path / "o"
    (out / "evidence").parent.mkdir()
    (out / "evidence").write_text("")  # where the alerts' pictures go
    assert main(["analyze", str(SAMPLE_CLIP), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{out / 'evidence'} is a file" in err and len(err.splitlines()) == 1
    assert not (out / "events.mjai.jsonl").exists()
    # a file where a folder of the path should be; nothing is created
    assert main(["analyze", str(SAMPLE_CLIP), "--out", str(taken / "sub" / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{taken} is a file" in err and len(err.splitlines()) == 1
    fresh = tmp_path / "new" / "o"
    assert main(["analyze", str(tmp_path / "nope.mp4"), "--out", str(fresh)]) == 2
    assert not (tmp_path / "new").exists()


def test_missing_video_fails_clearly(tmp_path, capsys):
    assert main(["analyze", str(tmp_path / "nope.mp4"), "--out", str(tmp_path / "o")]) == 2
    assert "video not found" in capsys.readouterr().err


def test_calibrate_saves_a_loadable_file(tmp_path, capsys):
    from tracker.commands.analyze import SAMPLE_CLIP
    from vision.calibration import Calibration

    out = tmp_path / "calib.json"
    assert main(["calibrate", str(SAMPLE_CLIP), "--out", str(out), "--seconds", "0.5"]) == 0
    assert "table found" in capsys.readouterr().out
    cal = Calibration.load(out)
    assert cal.width == 1280 and cal.seat0_edge is None


class _NoTiles:
    """Test double: a detector that sees nothing (the CLI path, not the detector, is under test)."""

    def detect(self, image, tile_px):
        from vision.detections import TileDetections

        return TileDetections.empty()


def test_cut_video_writes_what_it_saw_then_fails_in_one_line(tmp_path, capsys, monkeypatch):
    from tracker.commands import analyze

    # the sample clip remuxed with its index first, then cut: it opens and breaks off midway
    src = av.open(str(analyze.SAMPLE_CLIP))
    whole = tmp_path / "whole.mp4"
    dst = av.open(str(whole), mode="w", options={"movflags": "faststart"})
    stream = dst.add_stream_from_template(src.streams.video[0])
    for packet in src.demux(src.streams.video[0]):
        if packet.dts is None:
            continue
        packet.stream = stream
        dst.mux(packet)
    dst.close()
    src.close()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(whole.read_bytes()[: int(whole.stat().st_size * 0.4)])

    monkeypatch.setattr(analyze, "_load_detector", lambda model, reader=None, rules=None: _NoTiles())
    monkeypatch.setattr("vision.detection_cache.detector_identity", lambda detector: "no tiles")
    out = tmp_path / "out"
    # a detections cache that cannot be written (a directory) is one line, and loses nothing
    cache = tmp_path / "cache-is-a-directory"
    cache.mkdir()
    assert main(["analyze", str(cut), "--out", str(out), "--detections-cache", str(cache)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "broke off at frame" in err[-1]
    assert [line for line in err if "detections cache not saved" in line]
    assert not [line for line in err if "Traceback" in line]
    for name in ("events.mjai.jsonl", "state.jsonl", "alerts.jsonl", "summary.json"):
        assert (out / name).exists()
    import json

    summary = json.loads((out / "summary.json").read_text())
    assert 0 < summary["frames"] < 2739 and "broke off" in summary["video_error"]
