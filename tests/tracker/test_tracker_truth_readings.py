"""The tracker's zone, time and event logic end to end on the sample clip, with the tiles read from
the renderer's truth (``tests/tracker/oracle.py``: the sample's scene replayed, so every frame is
known, a discard in the air included) instead of the detector, then scored by ``tracker.evaluate``:
what the tracker makes of perfect tile readings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tracker.oracle import main as oracle_main
from tracker.evaluate import evaluate
from tracker.logs import read_mjai

CLIP = Path(__file__).resolve().parents[2] / "tracker" / "samples" / "demo-kyoku"


@pytest.fixture(scope="module")
def analysis(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("oracle")
    oracle_main([str(CLIP), str(out)])
    return out


def test_record_matches_the_truth(analysis):
    figures = evaluate(CLIP, analysis)
    assert figures["discards"]["total"] == 38 and figures["discards"]["share"] == 1.0
    assert figures["melds"] == {"right": 3, "total": 3, "share": 1.0}
    assert figures["dora_indicators"]["share"] == 1.0
    assert figures["results"]["share"] == 1.0
    assert figures["spurious_events"] == 0 and figures["retractions"] == 0
    assert figures["latency_s"]["median"] < 0.5
    # tsumogiri read from the hand while the tile is in the air (12 of the 38 are tsumogiri)
    assert figures["tsumogiri_on_right_discards"]["share"] == 1.0
    assert figures["hand_counts_reported"]["total"] >= 5 and figures["hand_counts_reported"]["share"] == 1.0


def test_the_double_knows_every_frame_and_matches_the_keyframes():
    from tests.tracker.oracle import TruthDetector

    double = TruthDetector.for_clip(CLIP)  # refuses a replay that differs from truth.json
    assert double.every_frame and len(double.frames) > 3 * len(
        json.loads((CLIP / "truth.json").read_text())["keyframes"]
    )


def test_events_are_a_readable_mjai_stream_with_vision_keys(analysis):
    events = read_mjai((analysis / "events.mjai.jsonl").read_text())
    kinds = [e.type for e in events]
    assert kinds[:2] == ["start_game", "start_kyoku"] and kinds[-2:] == ["end_kyoku", "end_game"]
    assert all(e.frame is not None and e.t is not None for e in events)
    frames = [e.frame for e in events]
    assert frames[2:] == sorted(frames[2:])  # video order (start_game/kyoku dated to the fresh walls)
    dahai = [e for e in events if e.type == "dahai"]
    assert all(e.slot is not None for e in dahai)
    riichi = [e for e in dahai if e.slot.sideways]
    assert len(riichi) == 1 and riichi[0].actor == 2  # seat 2's riichi tile lies sideways
    reach = kinds.index("reach")
    assert kinds[reach + 1] == "dahai" and "reach_accepted" in kinds[reach:]
    pon = next(e for e in events if e.type == "pon")
    assert (pon.actor, pon.target, pon.pai) == (0, 2, "C") and pon.laid.sideways == [2]


def test_staged_faults_are_alerted_and_record_has_no_tenhou6(analysis):
    alerts = [json.loads(x) for x in (analysis / "alerts.jsonl").read_text().splitlines()]
    codes = [(a["code"], a["seat"]) for a in alerts]
    # the early draw: seat 2's wall take is read before seat 1's discard (then its riichi is a dead
    # hand's, which the rules checker calls illegal)
    assert codes[:2] == [("meld_orientation", 0), ("early_draw", 2)]
    assert set(codes[2:]) <= {("illegal_call", 2)}
    events = read_mjai((analysis / "events.mjai.jsonl").read_text())
    # the take read early comes just before the discard it beat (seat 2's other takes are the
    # draws of its turns, read from its hand)
    pairs = [
        ((e.type, getattr(e, "actor", None)), (n.type, getattr(n, "actor", None)))
        for e, n in zip(events, events[1:])
    ]
    assert (("wall_take", 2), ("dahai", 1)) in pairs
    summary = json.loads((analysis / "summary.json").read_text())
    assert not (analysis / "game.tenhou6.json").exists()
    assert any("dealt hand tiles" in m for m in summary["missing"])
    states = (analysis / "state.jsonl").read_text().splitlines()
    assert len(states) == len((analysis / "events.mjai.jsonl").read_text().splitlines())
