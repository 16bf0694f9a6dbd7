import json

import numpy as np

from rules_check.ruleset import ruleset_by_name
from tests.tracker.live.conftest import TRUTH
from tracker.live.replay import TruthReplayAnalyzer


def _play(truth: dict):
    analyzer = TruthReplayAnalyzer(truth, ruleset_by_name("mleague"))
    image = np.zeros((4, 4, 3), np.uint8)
    results = [analyzer.process(image, f, f / truth["fps"]) for f in range(truth["frames"])]
    return analyzer, results + [analyzer.finish()]


def test_the_staged_faults_of_the_sample_clip_raise_their_alerts_in_their_window():
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    analyzer, results = _play(truth)
    raised = [(r.frame, a) for r in results for a in r.alerts]
    for staged in truth["alerts"]:
        hits = [
            frame
            for frame, a in raised
            if a.code == staged["code"]
            and a.seat == staged["seat"]
            and staged["frame_start"] - 60 <= frame <= staged["frame_end"] + 60
        ]
        assert hits, f"no {staged['code']} for seat {staged['seat']} near frame {staged['frame_start']}"
    meld = next(a for _, a in raised if a.code == "meld_orientation")
    assert meld.evidence.box is not None  # the meld's tiles in the keyframe
    assert analyzer.checker.state_errors == []


def test_every_record_event_is_released_once_in_order_with_a_wall_take_per_draw():
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    _, results = _play(truth)
    released = [e for r in results for e in r.events]
    record = [e for e in released if e.type != "wall_take"]
    assert [e.type for e in record] == [item["event"]["type"] for item in truth["events"]]
    draws = sum(1 for item in truth["events"] if item["event"]["type"] == "tsumo")
    assert sum(1 for e in released if e.type == "wall_take") == draws
    # results carry the state exactly when events were released; frames never go back
    assert all((r.state is not None) == bool(r.events) for r in results)
    frames = [r.frame for r in results[:-1] if r.events]
    assert frames == sorted(frames)
    assert results[-1].events == []  # nothing left for finish() once the clip played out


def test_an_early_draw_comes_out_before_the_discard_it_jumped():
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    _, results = _play(truth)
    released = [e for r in results for e in r.events]
    take = next(i for i, e in enumerate(released) if e.type == "wall_take" and e.frame == 1217)
    discard = next(i for i, e in enumerate(released) if e.type == "dahai" and e.frame == 1227)
    draw = next(i for i, e in enumerate(released) if e.type == "tsumo" and e.actor == 2 and e.frame == 1217)
    assert take < discard < draw
