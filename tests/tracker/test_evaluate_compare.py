import json

import pytest

from tracker.evaluate_compare import (
    ResultsError,
    false_alerts,
    figure_rows,
    load_results,
    markdown,
    missed_faults,
)
from tracker.evaluate_set import aggregate, main


def _clip(name: str, discards_right: int, reported: list[dict], found: list[bool]) -> dict:
    return {
        "name": name,
        "camera": "overhead",
        "size": [1280, 720],
        "hanchan": False,
        "clean": not found,
        "frames": 900,
        "tracker": {
            "discards": {"right": discards_right, "total": 40},
            "melds": {"right": 3, "total": 4},
            "kyoku": 1,
            "spurious_events": 0,
            "turn_order_defects": {"double_draws": 0, "discards_without_draw": 0},
        },
        "alerts": {
            "staged": [
                {"code": "kuikae", "seat": 2, "found": f, "late": False, "latency_s": 1.0} for f in found
            ],
            "reported": reported,
        },
    }


def _alert(kind: str, frame: int, code: str = "meld_orientation") -> dict:
    return {
        "code": code,
        "seat": 1,
        "frame": frame,
        "emitted": frame,
        "kind": kind,
        "message": "seen no tile sideways",
    }


def _result(clips: list[dict]) -> dict:
    return {"meta": {}, "aggregate": aggregate(clips), "clips": clips}


BEFORE = _result(
    [
        _clip("t6-a", 36, [_alert("false", 100), _alert("false", 700, "invalid_meld")], [False, True]),
        _clip("t6-b", 40, [], []),
    ]
)
AFTER = _result(
    [
        _clip("t6-a", 38, [_alert("false", 100), _alert("staged", 300, "kuikae")], [True, True]),
        _clip("t6-b", 40, [_alert("late", 500)], []),
    ]
)


def test_the_figures_stand_side_by_side_per_group():
    rows = {label: (a, b) for label, a, b in figure_rows(BEFORE, AFTER)}
    assert rows["all: discards"] == ("76/80 = 95.0 %", "78/80 = 97.5 %")
    assert rows["overhead: melds"] == ("6/8 = 75.0 %", "6/8 = 75.0 %")
    assert rows["all: dora"] == ("-", "-")  # no clip gave the figure
    assert rows["alerts: staged faults found"] == ("1/2", "2/2")
    assert rows["alerts: false"] == ("2", "1")


def test_alerts_that_moved_are_listed_apart_from_those_in_both():
    assert false_alerts(AFTER) - false_alerts(BEFORE) == {
        ("t6-b", "meld_orientation", 1, 500, "seen no tile sideways")  # a late alert is a false one
    }
    assert missed_faults(BEFORE) - missed_faults(AFTER) == {("t6-a", "kuikae", 2, 0)}
    text = markdown(BEFORE, AFTER, "s28a", "s28b")
    assert "False alerts only in s28b:\n- t6-b meld_orientation seat 1 frame 500" in text
    assert "False alerts only in s28a:\n- t6-a invalid_meld seat 1 frame 700" in text
    assert "Staged faults missed only in s28a:\n- t6-a kuikae seat 2" in text
    assert "False alerts in both (1):\n- t6-a meld_orientation seat 1 frame 100" in text
    assert "Staged faults missed only in s28b: none" in text


def test_compare_reads_two_results_files(tmp_path, capsys):
    (tmp_path / "results-s28a.json").write_text(json.dumps(BEFORE))
    (tmp_path / "results-s28b.json").write_text(json.dumps(AFTER))
    assert main(["compare", str(tmp_path / "results-s28a.json"), str(tmp_path / "results-s28b.json")]) == 0
    assert capsys.readouterr().out.startswith("| figure | s28a | s28b |")


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "cannot read"), ("{", "not JSON"), ('{"meta": {}}', "not a results file")],
)
def test_a_file_that_is_no_scoring_fails_in_one_line(tmp_path, capsys, content, says):
    path = tmp_path / "results-x.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ResultsError, match=says):
        load_results(path)
    assert main(["compare", str(path), str(path)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1


def test_a_clip_whose_analysis_failed_is_listed_apart_not_as_faults_the_change_lost():
    # (review helper-46) score lists a failed clip in "clips" and leaves it out of the figures
    ok = {**_clip("t6-a", 38, [_alert("staged", 300, "kuikae")], [True]), "failed": False}
    failed = {**_clip("t6-a", 0, [], [False]), "failed": True}
    spare = {**_clip("t6-b", 40, [], []), "failed": False}
    before = {"meta": {}, "aggregate": aggregate([ok, spare]), "clips": [ok, spare]}
    after = {"meta": {}, "aggregate": aggregate([spare]), "clips": [failed, spare]}
    assert missed_faults(after) - missed_faults(before) == set()
    text = markdown(before, after, "a", "b")
    assert "Staged faults missed only in b: none" in text
    assert "Analyses failed in b (left out of its figures and lists): t6-a" in text
    assert "Clips scored in one only (their figures differ for that): t6-a" in text


def test_a_scoring_of_no_clip_fails_in_one_line(tmp_path, capsys):
    for aggregated in (aggregate([]), {}, None):
        path = tmp_path / "results-x.json"
        path.write_text(json.dumps({"meta": {}, "aggregate": aggregated, "clips": []}))
        assert main(["compare", str(path), str(path)]) == 2
        assert "no clip scored" in capsys.readouterr().err
