import json
import subprocess
import sys

import pytest

from datasets.synth.faults import FaultError, parse_faults, stage_faults
from tests.conftest import REPO, SAMPLE_LOG
from tracker.table.state import TableState


def stage(events, *faults):
    return stage_faults(events, parse_faults(list(faults)))


def test_every_kind_is_staged_with_its_alert_code(sample_events):
    # kyoku 5: seat 0 pons (call 0) and chis (calls 1, 2); kyoku 1: seat 3 calls; kyoku 0: riichi
    cases = [
        ({"kind": "early_draw", "kyoku": 2, "seat": 1, "turn": 2}, "early_draw"),
        ({"kind": "meld_orientation", "kyoku": 5, "seat": 0, "call": 0, "place": "none"}, "meld_orientation"),
        ({"kind": "hand_count", "kyoku": 2, "seat": 3, "delta": 1, "turn": 3}, "tile_count_excess"),
        ({"kind": "hand_count", "kyoku": 2, "seat": 3, "delta": -1, "turn": 3}, "tile_count_short"),
        ({"kind": "river_row", "kyoku": 5, "seat": 1, "turn": 6}, "river_layout"),
        ({"kind": "slow_discard", "kyoku": 2, "seat": 2, "turn": 1, "seconds": 20}, "time_limit"),
        ({"kind": "invalid_meld", "kyoku": 5, "seat": 0, "call": 0}, "invalid_meld"),
    ]
    reach_seat = next(e.actor for e in sample_events if e.type == "reach")
    cases.append(({"kind": "riichi_upright", "kyoku": 0, "seat": reach_seat}, "riichi_not_sideways"))
    for fault, code in cases:
        events, staged = stage(sample_events, fault)
        assert [(a.code, a.seat) for a in staged.alerts] == [(code, fault["seat"])], fault
        assert events[staged.alerts[0].event_index].type in ("dahai", "tsumo", "pon", "chi", "daiminkan")


def test_meld_orientation_moves_the_sideways_tile(sample_events):
    _, staged = stage(
        sample_events, {"kind": "meld_orientation", "kyoku": 5, "seat": 0, "call": 0, "place": "none"}
    )
    ((tiles_lr, sideways),) = staged.staging_by_kyoku[5].melds.values()
    assert sideways == [] and len(tiles_lr) == 3


def test_kuikae_changes_the_discard_and_keeps_the_game_consistent(sample_events):
    # find a chi or pon after which the caller holds a swap tile
    for kyoku in range(16):
        for seat in range(4):
            for call in range(3):
                fault = {"kind": "kuikae", "kyoku": kyoku, "seat": seat, "call": call}
                try:
                    events, staged = stage(sample_events, fault)
                except FaultError:
                    continue
                alert = staged.alerts[0]
                assert alert.code == "kuikae"
                assert events[alert.event_index].pai != sample_events[alert.event_index].pai
                state = TableState()
                for e in events:
                    state.update(e)  # still a playable record
                return
    pytest.skip("no stageable kuikae in the sample log")


@pytest.mark.parametrize(
    "fault, message",
    [
        ({"kind": "teleport", "kyoku": 0, "seat": 0}, "unknown fault kind 'teleport'"),
        ({"kind": "early_draw", "kyoku": 99, "seat": 0, "turn": 0}, "the log has 16 kyoku"),
        ({"kind": "early_draw", "kyoku": 0, "seat": 0, "turn": 99}, "no turn 99"),
        ({"kind": "meld_orientation", "kyoku": 2, "seat": 0, "call": 0, "place": "left"}, "no call 0"),
        ({"kind": "river_row", "kyoku": 5, "seat": 1, "turn": 2}, "does not start a new river row"),
        ({"kind": "riichi_upright", "kyoku": 2, "seat": 3}, "does not declare riichi"),
        ({"kind": "hand_count", "kyoku": 0, "seat": 0, "delta": 2, "turn": 0}, "delta"),
        ({"kind": "early_draw", "kyoku": 0, "seat": 0, "turn": 0, "extra": 1}, "extra"),
    ],
)
def test_bad_faults_fail_in_one_line(sample_events, fault, message):
    with pytest.raises(FaultError) as err:
        stage(sample_events, fault)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_rules_position_is_not_a_fault(sample_events):
    refused = []
    for place in ("left", "middle", "right", "none"):
        try:
            stage(
                sample_events, {"kind": "meld_orientation", "kyoku": 5, "seat": 0, "call": 0, "place": place}
            )
        except FaultError as err:
            assert "is where the rules put the called tile: not a fault" in str(err)
            refused.append(place)
    assert len(refused) == 1 and refused != ["none"]


def test_synth_cli_reports_a_bad_faults_file_in_one_line(tmp_path):
    faults = tmp_path / "faults.json"
    faults.write_text(json.dumps([{"kind": "river_row", "kyoku": 0, "seat": 1, "turn": 400}]))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tracker.cli",
            "synth",
            str(SAMPLE_LOG),
            "--faults",
            str(faults),
            "--out",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "mjmon: fault 0 (river_row, kyoku 0, seat 1): seat 1 discards 18 times in that kyoku, no turn 400"
    ]
    assert not (tmp_path / "o" / "video.mp4").exists()


def test_synth_cli_renders_a_short_clip(tmp_path):
    """Kyoku 3 has an ankan: the kan, its replacement draw and the new indicator are drawn too."""
    out = tmp_path / "clip"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tracker.cli",
            "synth",
            str(SAMPLE_LOG),
            "--kyoku",
            "3",
            "--pace",
            "12",
            "--size",
            "320x180",
            "--camera",
            "overhead",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and (out / "video.mp4").stat().st_size > 10_000
    truth = json.loads((out / "truth.json").read_text())
    assert (truth["width"], truth["height"]) == (320, 180) and truth["alerts"] == []
    kinds = [item["event"]["type"] for item in truth["events"]]
    assert "ankan" in kinds and "dora" in kinds
    last = truth["keyframes"][-1]["tiles"]
    assert sum(1 for t in last if t["zone"] == "dora") == 2  # the first indicator and the kan's
    assert any(t["zone"] == "meld" and t["code"] == "back" for t in last)  # ankan: two face down
