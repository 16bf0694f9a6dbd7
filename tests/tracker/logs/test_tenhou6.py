import json
import re

import pytest

from tests.conftest import needs_shared_logs, shared_tenhou6_logs
from tracker.logs import LogError, events_to_tenhou6, load_log, read_log_text, read_mjai, write_mjai


def round_trip(data: dict) -> dict:
    """tenhou.net/6 -> mjai text -> events -> tenhou.net/6."""
    events = read_log_text(json.dumps(data, ensure_ascii=False), "<test>")
    return events_to_tenhou6(read_mjai(write_mjai(events)))


@needs_shared_logs
@pytest.mark.parametrize("path", shared_tenhou6_logs(), ids=lambda p: p.stem)
def test_real_logs_round_trip_identically(path):
    original = json.loads(path.read_text(encoding="utf-8"))
    assert round_trip(original) == original


def _tenhou_daiminkan_position(data: dict) -> dict:
    """jansou writes a daiminkan from shimocha as ``aabbmccdd``; tenhou.net/6 writes ``aabbccmdd``."""
    text = json.dumps(data, ensure_ascii=False)
    text = re.sub(r'"(\d{4})m(\d\d)(\d\d)"', r'"\1\3m\2"', text)
    return json.loads(text)


def test_jansou_hanchan_round_trip_identically(jansou_games):
    kyoku = 0
    for game in jansou_games:
        expected = _tenhou_daiminkan_position(game)
        assert round_trip(game) == expected
        assert round_trip(expected) == expected
        kyoku += len(game["log"])
    assert kyoku >= 8 * len(jansou_games)  # full hanchan, not east-only stubs


def _first_kyoku() -> list:
    return [
        [0, 0, 0],
        [25000] * 4,
        [11],
        [],
        [11] * 13,
        [12],
        [13],
        [21] * 13,
        [],
        [],
        [31] * 13,
        [],
        [],
        [41] * 13,
        [],
        [],
        ["流局", [0, 0, 0, 0]],
    ]


def test_a_kyoku_that_cannot_be_replayed_names_the_kyoku():
    data = {"log": [_first_kyoku()]}
    data["log"][0][5] = ["11p1111"]  # a pon where the dealer must draw
    with pytest.raises(LogError, match=r"^x\.json: kyoku 0: takes and discards cannot be replayed"):
        read_log_text(json.dumps(data), "x.json")


@pytest.mark.parametrize(
    "mutate, problem",
    [
        (lambda k: k.__setitem__(2, [99]), "invalid tenhou.net/6 tile number 99"),
        (lambda k: k.pop(), "array of 17 items"),
        (lambda k: k[5].__setitem__(0, "1x1111"), "bad call string"),
    ],
)
def test_malformed_kyoku_fails_in_one_line(mutate, problem):
    entry = _first_kyoku()
    mutate(entry)
    with pytest.raises(LogError) as err:
        read_log_text(json.dumps({"log": [entry]}), "bad.json")
    assert str(err.value).startswith("bad.json: kyoku 0: ")
    assert problem in str(err.value) and "\n" not in str(err.value)


def test_unknown_tiles_cannot_be_written_to_tenhou6():
    entry = _first_kyoku()
    events = read_log_text(json.dumps({"log": [entry]}), "x")
    events[1] = events[1].model_copy(update={"tehais": [["?"] * 13] * 4})
    with pytest.raises(ValueError, match="every tile must be known"):
        events_to_tenhou6(events)


@needs_shared_logs
def test_load_log_detects_both_formats(tmp_path):
    source = shared_tenhou6_logs()[0]
    events = load_log(source)
    mjai_file = tmp_path / "game.log"  # no telling extension: detection is by content
    mjai_file.write_text(write_mjai(events))
    assert [e.to_json() for e in load_log(mjai_file)] == [e.to_json() for e in events]


# A jansou m-league kyoku (MIT): seat 1 wins on the replacement tile of its daiminkan (9m). The
# M-League turns an open kan's indicator at once, so the log lists it (6s) although no discard
# followed; tenhou would not. Reading it used to fail ("cannot be replayed").
RINSHAN_AFTER_DAIMINKAN = [
    [7, 0, 0],
    [-44700, 54000, 73700, 17000],
    [33, 42, 36],
    [],
    [52, 28, 28, 19, 18, 15, 38, 21, 11, 31, 46, 41, 33],
    [25, 47, 47, 27, 47, 23, 42, 25, 47, 32, 43, 12, 29],
    [46, 41, 21, 11, 38, 15, 60, 23, "474747a47", 27, 60, 60, 60],
    [22, 17, 42, 18, 29, 42, 29, 14, 35, 24, 11, 32, 41],
    [43, 44, 39, 32, 46, 34, "p424242", "c232224", 29, 43, 34, "m29292929", 19],
    [11, 41, 43, 14, 60, 39, 44, 32, 32, 60, 35, 0],
    [23, 12, 38, 19, 13, 15, 35, 34, 19, 31, 35, 43, 53],
    [51, 27, 18, 11, 28, 38, 31, 33, 26, 46, 37],
    [31, 43, 38, 19, 34, 60, 23, 31, "r33", 60, 60],
    [45, 21, 21, 17, 14, 12, 36, 39, 45, 27, 37, 22, 13],
    [23, 13, 36, 26, 11, 26, 25, 41, 21, 32, 34, 39],
    [21, 13, 27, 17, 60, 39, 26, 60, 21, 60, 60, 60],
    ["和了", [-2000, 9000, -2000, -4000], [1, 1, 1, ""]],
]


def test_rinshan_win_after_daiminkan_with_the_kan_indicator_listed():
    data = {
        "title": ["", ""],
        "name": ["A", "B", "C", "D"],
        "rule": {"aka": 1},
        "log": [RINSHAN_AFTER_DAIMINKAN],
    }
    events = read_log_text(json.dumps(data, ensure_ascii=False), "<test>")
    tail = [e.type for e in events[-5:]]
    assert tail == ["tsumo", "dora", "hora", "end_kyoku", "end_game"]
    assert events[-4].dora_marker == "6s"
    assert round_trip(data) == data
