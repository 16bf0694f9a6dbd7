"""The evaluation-set harness: fault plans that stage every kind, and how alerts are scored."""

from __future__ import annotations

from pathlib import Path

from datasets.synth.faults import parse_faults, stage_faults
from tests.conftest import SAMPLE_LOG, needs_shared_logs, shared_tenhou6_logs
from tests.rules_check.kit import start
from tracker import events as ev
from tracker.evaluate import match_alerts
from tracker.evaluate_set import FAULT_KINDS, _select, alert_totals, plan_faults, score_clip_alerts
from tracker.logs import load_log


@needs_shared_logs
def test_the_fault_plan_stages_every_kind_on_different_seats():
    counts = {k: 0 for k in FAULT_KINDS}
    for i, path in enumerate(shared_tenhou6_logs()):
        events = load_log(path)
        faults = plan_faults(events, i, counts)
        assert len({f["seat"] for f in faults}) == len(faults)
        stage_faults(events, parse_faults(faults))  # stageable as planned
    events = load_log(SAMPLE_LOG)
    kuikae = [plan_faults(_select(events, k), k, counts, only="kuikae") for k in range(16)]
    assert any(kuikae)
    assert all(counts[k] >= 3 for k in FAULT_KINDS if k != "kuikae"), counts
    assert counts["kuikae"] >= 1


def test_alerts_match_by_code_and_seat_within_two_seconds():
    want = [{"code": "early_draw", "seat": 1, "frame_start": 100, "frame_end": 110}]
    near = {"code": "early_draw", "seat": 1, "frame": 160}
    far = {"code": "early_draw", "seat": 1, "frame": 171}
    other_seat = {"code": "early_draw", "seat": 2, "frame": 105}
    assert match_alerts(want, [far, other_seat, near], 30.0, lambda s: s) == [2]
    assert match_alerts(want, [far], 30.0, lambda s: s) == [None]
    # the analysis' seat 0 sits where the truth's seat 3 is
    assert match_alerts(want, [{**near, "seat": 2}], 30.0, lambda s: (s + 3) % 4) == [0]


def _framed(events: list) -> list:
    return [e.model_copy(update={"frame": 10 * i, "t": i / 3}) for i, e in enumerate(events)]


def test_alerts_are_classified_staged_consequence_and_false():
    # seat 1 reaches for the wall while seat 0 has not discarded (staged 先摸), later declares
    # riichi with its dead hand (a consequence); seat 3 reaches early too (not staged: false)
    record = start() + [ev.Tsumo(actor=0, pai="N"), ev.Dahai(actor=0, pai="N", tsumogiri=True)]
    record += [ev.Tsumo(actor=1, pai="P"), ev.Reach(actor=1), ev.Dahai(actor=1, pai="P", tsumogiri=True)]
    record += [ev.ReachAccepted(actor=1)]
    seen = start() + [ev.Tsumo(actor=0, pai="N"), ev.WallTake(actor=1)]
    seen += [ev.Dahai(actor=0, pai="N", tsumogiri=True)]
    seen += [ev.Tsumo(actor=1, pai="P"), ev.Reach(actor=1), ev.Dahai(actor=1, pai="P", tsumogiri=True)]
    seen += [ev.ReachAccepted(actor=1), ev.Tsumo(actor=2, pai="P"), ev.WallTake(actor=3)]
    seen = _framed(seen)
    truth = {
        "fps": 30.0,
        "calibration": {"seat0_edge": "bottom"},
        "events": [{"frame": 10 * i, "event": e.to_json()} for i, e in enumerate(record)],
        "alerts": [
            {"code": "early_draw", "seat": 1, "frame_start": 30, "frame_end": 30},
            {"code": "kuikae", "seat": 3, "frame_start": 50, "frame_end": 50},
        ],
    }
    scored = score_clip_alerts(truth, {"seat0_edge": "bottom"}, seen)
    kinds = [(a["code"], a["seat"], a["kind"]) for a in scored["reported"]]
    assert kinds == [
        ("early_draw", 1, "staged"),
        ("illegal_call", 1, "consequence"),
        ("early_draw", 3, "false"),
    ]
    assert [(s["code"], s["found"]) for s in scored["staged"]] == [("early_draw", True), ("kuikae", False)]
    assert scored["staged"][0]["latency_s"] == 0.0  # raised on the take itself
    totals = alert_totals([{"hanchan": False, "clean": False, "alerts": scored}])
    assert totals["per_code"]["early_draw"]["recall"] == 1.0
    assert totals["per_code"]["early_draw"]["precision"] == 0.5
    assert totals["per_code"]["kuikae"]["recall"] == 0.0
    assert totals["per_code"]["illegal_call"]["precision"] is None  # only a consequence
    assert (totals["staged"], totals["found"], totals["false"], totals["consequences"]) == (2, 1, 1, 1)


def test_analyze_all_runs_every_clip_once_across_jobs(monkeypatch, tmp_path):
    import threading

    import tracker.evaluate_set as es

    seen, specs_written, readers, lifts, lock = [], [], [], [], threading.Lock()

    def fake_analyze(
        clip, out, model, oracle, cache=None, reader=es.BUNDLED_READER, lift=es.DEFAULT_LIFT_MODEL
    ):
        with lock:
            seen.append((clip.name, out.name, model, oracle, cache))
            readers.append(reader)
            lifts.append(lift)
        return 1.0

    monkeypatch.setattr(es, "analyze_clip", fake_analyze)
    monkeypatch.setattr(es, "ensure_spec", lambda spec, tileset, clip: specs_written.append(spec.name))
    specs = [
        es.ClipSpec(name=f"c{i}", log="x", camera="low", seed=i, size=(64, 36), pace=1.0) for i in range(5)
    ]
    paths = [(s, tmp_path / "clips" / s.name, tmp_path / "analysis" / s.name) for s in specs]
    es.analyze_all(paths, "art", Path("m.onnx"), oracle=False, jobs=2)
    assert sorted(seen) == [(f"c{i}", f"c{i}", Path("m.onnx"), False, None) for i in range(5)]
    assert specs_written == []  # the truth-reading double alone needs synth.json
    es.analyze_all(paths[:2], "art", None, oracle=True, jobs=3, cache_dir=tmp_path / "det")
    assert sorted(specs_written) == ["c0", "c1"]
    assert all(cache is None for *_, cache in seen[5:])  # truth readings have no detector to cache
    seen.clear()
    es.analyze_all(paths[:2], "art", Path("m.onnx"), oracle=False, jobs=1, cache_dir=tmp_path / "det")
    assert sorted(cache for *_, cache in seen) == [tmp_path / "det" / "c0.npz", tmp_path / "det" / "c1.npz"]
    assert set(readers) == {es.BUNDLED_READER}
    alone = es.ReaderChoice(path=None)
    es.analyze_all(paths[:1], "art", Path("m.onnx"), oracle=False, jobs=1, reader=alone)
    assert readers[-1] is alone  # --no-reader reaches every clip
    assert set(lifts) == {es.DEFAULT_LIFT_MODEL}
    es.analyze_all(paths[:1], "art", Path("m.onnx"), oracle=False, jobs=1, lift=None)
    assert lifts[-1] is None  # --no-lift-model too


def test_analyze_clip_names_the_reader_unless_it_is_the_bundled_one(monkeypatch, tmp_path):
    import subprocess

    import tracker.evaluate_set as es

    commands = []

    def fake_run(cmd, **kw):
        commands.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(es, "code_version", lambda: "abc1234")
    monkeypatch.setattr(es.subprocess, "run", fake_run)
    choices = (
        es.BUNDLED_READER,
        es.ReaderChoice(path=None),
        es.ReaderChoice(path=Path("r.onnx")),
        es.ReaderChoice(turns=4),
        es.ReaderChoice(reference=Path("set.npz")),
    )
    for n, reader in enumerate(choices):
        es.analyze_clip(tmp_path / "clip", tmp_path / f"out{n}", Path("m.onnx"), False, reader=reader)
    default, none, named, four, referenced = commands
    assert "--tiles-ref" not in default and referenced[referenced.index("--tiles-ref") + 1] == str(
        Path("set.npz").resolve()
    )
    assert "--reader" not in default and "--no-reader" not in default
    assert default[default.index("--reader-turns") + 1] == str(es.BUNDLED_READER.turns)
    assert four[four.index("--reader-turns") + 1] == "4"
    assert "--no-reader" in none
    assert named[named.index("--reader") + 1] == str(Path("r.onnx").resolve())  # (the child runs elsewhere)


def test_analyze_clip_passes_the_clips_pace_and_the_tsumogiri_choice(monkeypatch, tmp_path):
    import json
    import subprocess

    import tracker.evaluate_set as es

    commands = []
    monkeypatch.setattr(es, "code_version", lambda: "abc1234")
    monkeypatch.setattr(
        es.subprocess,
        "run",
        lambda cmd, **kw: commands.append(cmd) or subprocess.CompletedProcess(cmd, 0, "", ""),
    )
    clip = tmp_path / "clip"
    clip.mkdir()
    (clip / "synth.json").write_text(json.dumps({"request": {"pace": 3.0}}))
    es.analyze_clip(clip, tmp_path / "a", Path("m.onnx"), False)
    es.analyze_clip(clip, tmp_path / "b", Path("m.onnx"), False, lift=None)
    (clip / "synth.json").unlink()  # a clip without its spec: a real table's pace
    es.analyze_clip(clip, tmp_path / "c", Path("m.onnx"), False, lift=Path("l.onnx"))
    model, rules, other = commands
    assert model[model.index("--pace") + 1] == "3.0" and other[other.index("--pace") + 1] == "1.0"
    assert model[model.index("--lift-model") + 1] == str(es.DEFAULT_LIFT_MODEL) and "--no-lift-model" in rules
    assert other[other.index("--lift-model") + 1] == "l.onnx"


def test_the_analysis_key_names_the_reader_used(tmp_path):
    import tracker.evaluate_set as es

    model, reader = tmp_path / "m.onnx", tmp_path / "r.onnx"
    model.write_bytes(b"net")
    reader.write_bytes(b"reader")
    key = es.analysis_key(model, False, es.ReaderChoice(reader, turns=1))
    assert key == f"model-{es.file_md5(model)[:8]}-reader-{es.file_md5(reader)[:8]}"
    # more looks a tile are other detections: another key (caches of one look stay theirs)
    assert es.analysis_key(model, False, es.ReaderChoice(reader, turns=4)) == key + "-turns4"
    assert es.analysis_key(model, False, es.ReaderChoice(None, turns=4)) == f"model-{es.file_md5(model)[:8]}"
    assert es.analysis_key(model, True, es.ReaderChoice(reader)) == "oracle"
    ref = tmp_path / "set.npz"
    ref.write_bytes(b"reference")
    # a tile set's reference reads other classes: another key; so does another likeness sharpness
    # than the first (40), whose detections were cached under the plain reference key
    assert (
        es.analysis_key(model, False, es.ReaderChoice(reader, 1, ref))
        == key + f"-ref-{es.file_md5(ref)[:8]}-sharp100-t2"
    )


def test_score_analyses_into_and_scores_a_named_directory(monkeypatch, tmp_path):
    import tracker.evaluate_set as es

    setdir = tmp_path / "set"
    specs = [
        es.ClipSpec(name=f"c{i}", log="x", camera="low", seed=i, size=(64, 36), pace=1.0) for i in range(2)
    ]
    (setdir / "clips" / "c0").mkdir(parents=True)
    (setdir / "clips" / "c0" / "truth.json").write_text("{}")  # c1 is not rendered
    (setdir / "plan.json").write_text(es.Plan(tileset="art", clips=specs).model_dump_json())
    analysed, scored = [], []
    monkeypatch.setattr(es, "analyze_all", lambda paths, *a: analysed.extend(out for _, _, out in paths))
    monkeypatch.setattr(
        es,
        "score_clip",
        lambda spec, clip, out: (
            scored.append(out) or {"name": spec.name, "frames": 0, "failed": True, "code": "x"}
        ),
    )
    monkeypatch.setattr(es, "aggregate", lambda clips: {})
    monkeypatch.setattr(es, "markdown", lambda result: "")
    mine = tmp_path / "mine"
    (mine / "c0").mkdir(parents=True)
    assert es.main(["score", str(setdir), "--oracle", "--analysis-dir", str(mine)]) == 0
    assert analysed == [mine / "c0"] and scored == [mine / "c0"]
    assert (setdir / "results-mine.json").exists()
    assert not (setdir / "analysis").exists()  # the cached analyses are not touched


def test_discard_errors_and_confusions_add_up_over_clips():
    from tracker.evaluate_set import tracker_totals

    def clip(errors, confusions):
        figs = {"kyoku": 1, "spurious_events": 0, "discard_errors": errors, "discard_confusions": confusions}
        return {"frames": 10, "tracker": figs}

    totals = tracker_totals(
        [
            clip({"misread": 2, "missing": 1}, {"W -> ?": 2}),
            clip({"misread": 3, "extra": 1}, {"W -> ?": 1, "1s -> S": 2}),
        ]
    )
    assert totals["discard_errors"] == {"misread": 5, "missing": 1, "extra": 1}
    assert totals["discard_confusions"] == {"W -> ?": 3, "1s -> S": 2}


@needs_shared_logs
def test_a_second_set_plans_other_seeds_cameras_and_faults(monkeypatch, tmp_path):
    import tracker.evaluate_set as es

    monkeypatch.setattr(es, "_generate_hanchan", lambda logs_dir, n, first_seed: [])  # the bundled one only
    first = {c.name: c for c in es.make_plan(tmp_path, (1280, 720), 3.0).clips}
    second = {c.name: c for c in es.make_plan(tmp_path, (1280, 720), 3.0, first_seed=2000).clips}
    assert first.keys() == second.keys()
    assert all(second[n].seed == first[n].seed + 1000 for n in first)
    assert all(second[n].camera != first[n].camera for n in first)
    assert sum(second[n].faults != first[n].faults for n in first) >= len(first) // 2


def test_render_refuses_a_set_planned_with_another_first_seed(tmp_path, capsys):
    import tracker.evaluate_set as es

    spec = es.ClipSpec(name="c", log="x.json", camera="low", seed=1000, size=(64, 36), pace=3.0)
    (tmp_path / "plan.json").write_text(es.Plan(tileset="t", clips=[spec]).model_dump_json())
    assert es.main(["render", str(tmp_path), "--first-seed", "2000"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"evaluate_set: {tmp_path / 'plan.json'} was planned with first seed 1000, not 2000: "
        "render another set into another SETDIR"
    ]
    assert not (tmp_path / "clips").exists()  # nothing rendered, nothing lost


def test_render_and_score_take_only_the_clips_named(monkeypatch, tmp_path, capsys):
    import tracker.evaluate_set as es

    specs = [
        es.ClipSpec(name=f"c{i}", log="x", camera="low", seed=1000 + i, size=(64, 36), pace=3.0)
        for i in range(3)
    ]
    (tmp_path / "plan.json").write_text(es.Plan(tileset="t", clips=specs).model_dump_json())
    rendered = []
    monkeypatch.setattr(es, "render_clip", lambda spec, tileset, clips_dir: rendered.append(spec.name))
    assert es.main(["render", str(tmp_path), "--clips", "c2", "c0"]) == 0
    assert rendered == ["c0", "c2"]  # in the plan's order
    for i in (0, 2):
        (tmp_path / "clips" / f"c{i}").mkdir(parents=True, exist_ok=True)
        (tmp_path / "clips" / f"c{i}" / "truth.json").write_text("{}")
    analysed = []
    monkeypatch.setattr(es, "analyze_all", lambda paths, *a: analysed.extend(s.name for s, _, _ in paths))
    monkeypatch.setattr(es, "aggregate", lambda clips: {})
    monkeypatch.setattr(es, "markdown", lambda result: "")
    assert es.main(["score", str(tmp_path), "--oracle", "--clips", "c2"]) == 0
    assert analysed == ["c2"]
    assert (tmp_path / "results-oracle-some.json").exists()  # not the whole set's results


def test_clips_the_plan_does_not_hold_are_refused_in_one_line(tmp_path, capsys):
    import tracker.evaluate_set as es

    spec = es.ClipSpec(name="c0", log="x", camera="low", seed=1000, size=(64, 36), pace=3.0)
    (tmp_path / "plan.json").write_text(es.Plan(tileset="t", clips=[spec]).model_dump_json())
    for command in ("render", "score"):
        assert es.main([command, str(tmp_path), "--clips", "c0", "nope", "gone"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [f"evaluate_set: {tmp_path / 'plan.json'}: not clips of this plan: gone, nope"]
    assert not (tmp_path / "clips").exists()


def test_quick_and_clips_are_alternatives(tmp_path, capsys):
    import pytest

    import tracker.evaluate_set as es

    for command in ("render", "score"):
        with pytest.raises(SystemExit) as stop:
            es.main([command, str(tmp_path), "--quick", "--clips", "c0"])
        assert stop.value.code == 2
        assert "not allowed with argument" in capsys.readouterr().err


def test_a_reference_without_a_reader_gets_its_own_analysis_key(tmp_path):
    """analysis_key named the reference only after the reader: `score --no-reader --tiles-ref R`
    (every analysis FAILED: a reference needs the reader) wrote its FAILED clips under the plain
    --no-reader key, and a later `score --no-reader` skipped them as done."""
    import tracker.evaluate_set as es

    model, ref = tmp_path / "m.onnx", tmp_path / "set.npz"
    model.write_bytes(b"net")
    ref.write_bytes(b"reference")
    for path in (None, tmp_path / "no-such-reader.onnx"):
        with_ref = es.analysis_key(model, False, es.ReaderChoice(path, 2, ref))
        assert with_ref != es.analysis_key(model, False, es.ReaderChoice(path, 2))


def test_score_with_a_missing_reference_fails_in_one_line(tmp_path, capsys):
    """file_md5(reference) raised FileNotFoundError out of cmd_score: a traceback."""
    import tracker.evaluate_set as es

    setdir = tmp_path / "set"
    setdir.mkdir()
    spec = es.ClipSpec(name="c0", log="x", camera="low", seed=0, size=(64, 36), pace=1.0)
    (setdir / "plan.json").write_text(es.Plan(tileset="art", clips=[spec]).model_dump_json())
    model = tmp_path / "m.onnx"
    model.write_bytes(b"net")
    argv = [
        "score",
        str(setdir),
        "--model",
        str(model),
        "--no-analyze",
        "--tiles-ref",
        str(tmp_path / "nope.npz"),
    ]
    assert es.main(argv) == 2
    assert "nope.npz" in capsys.readouterr().err


def test_score_with_a_missing_lift_model_fails_in_one_line_before_any_analysis(tmp_path, capsys):
    import tracker.evaluate_set as es

    setdir = tmp_path / "set"
    setdir.mkdir()
    spec = es.ClipSpec(name="c0", log="x", camera="low", seed=0, size=(64, 36), pace=1.0)
    (setdir / "plan.json").write_text(es.Plan(tileset="art", clips=[spec]).model_dump_json())
    (setdir / "clips" / "c0").mkdir(parents=True)
    (setdir / "clips" / "c0" / "truth.json").write_text("{}")
    argv = ["score", str(setdir), "--lift-model", str(tmp_path / "nope.onnx")]
    assert es.main(argv) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .splitlines()[-1]
        .endswith("lift model not found: " + str(tmp_path / "nope.onnx"))
    )
    assert not (setdir / "analysis").exists()  # nothing analysed (each clip would have failed)


def test_each_camera_is_also_scored_at_each_frame_size():
    from tracker.evaluate_set import aggregate

    def clip(camera, size, right, total):
        figs = {"kyoku": 1, "spurious_events": 0, "discards": {"right": right, "total": total}}
        alerts = {"staged": [], "reported": []}
        return {"frames": 10, "camera": camera, "size": size, "name": "x", "hanchan": False,
                "clean": True, "tracker": figs, "alerts": alerts}  # fmt: skip

    groups = aggregate(
        [clip("low", [960, 540], 7, 10), clip("low", [1280, 720], 9, 10), clip("tilted", [960, 540], 10, 10)]
    )
    tracker = groups["tracker"]
    assert tracker["low"]["discards"] == {"right": 16, "total": 20, "share": 0.8}
    assert tracker["low 960x540"]["discards"]["share"] == 0.7
    assert tracker["low 1280x720"]["discards"]["share"] == 0.9
    assert tracker["tilted 960x540"]["clips"] == 1 and "tilted 1280x720" not in tracker
