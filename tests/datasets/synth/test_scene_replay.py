"""The scene replay (``ClipRenderer.scene_truth``): the tiles at every frame, not only at the quiet
keyframes, from the same steps as the render, and ``synth.json`` rebuilds the renderer."""

from __future__ import annotations

import bisect

from datasets.synth.faults import parse_faults
from datasets.synth.pipeline import SynthRequest, prepare, replay_renderer, write_spec
from tests.conftest import SAMPLE_LOG
from tests.datasets.conftest import CLIP_FAULTS, CLIP_KYOKU


def _request() -> SynthRequest:
    # the shared clip's request (tests/datasets/conftest.py)
    return SynthRequest(seed=11, camera="tilted", kyoku=(CLIP_KYOKU, CLIP_KYOKU), size=(640, 360), pace=8)


def test_replay_matches_every_keyframe_and_knows_the_moments_between(clip, sample_events):
    scenes = list(prepare(sample_events, parse_faults(CLIP_FAULTS), _request()).scene_truth())
    frames = [s["frame"] for s in scenes]
    assert frames == sorted(frames) and len(set(frames)) == len(frames)
    keyframes = clip["truth"]["keyframes"]
    for k in keyframes:
        at = scenes[bisect.bisect_right(frames, k["frame"]) - 1]
        assert at["tiles"] == k["tiles"]
    assert len(scenes) > 2 * len(keyframes)

    # a discard in the air: the seat's standing tiles one fewer between the pick and the landing
    def standing(scene, seat):
        return sum(
            t["zone"] == "hand" and t["code"] == "standing" and t["seat"] == seat for t in scene["tiles"]
        )

    dahai = [item for item in clip["truth"]["events"] if item["event"]["type"] == "dahai"]
    first = dahai[0]
    seat = first["event"]["actor"]
    before = [s for s in scenes if s["frame"] < first["frame"]]
    assert standing(before[-1], seat) == standing(before[-2], seat) - 1  # lifted, not yet landed


def test_spec_file_rebuilds_the_same_renderer(tmp_path, sample_events, clip):
    direct = prepare(sample_events, parse_faults(CLIP_FAULTS), _request())
    write_spec(tmp_path, parse_faults(CLIP_FAULTS), _request(), log=SAMPLE_LOG)
    for spec_dir in (tmp_path, clip["dir"]):  # a log's path; the events themselves (synthesize)
        replayed = replay_renderer(spec_dir)
        assert [(a.start, a.pick, a.place) for a in replayed.actions] == [
            (a.start, a.pick, a.place) for a in direct.actions
        ]
    assert replay_renderer(tmp_path / "nothing-here") is None
