import base64
import json
import re

import numpy as np

from rules_check.alert import Alert, Evidence, write_alerts_jsonl
from tests.builders import start, turn
from tests.tracker.live.conftest import TRUTH
from tracker.logs import write_mjai
from tracker.report import ReportInput, render_report, report_from_outputs, report_from_truth
from tracker.report.stats import split_kyoku, turn_times

HANDS = ["123456789m1234p", "123456789s1234p", "123456789m5678p", "123456789s1122z"]


def _timed(events: list, times: list[float]) -> list:
    return [e.model_copy(update={"t": t, "frame": int(t * 30)}) for e, t in zip(events, times)]


def _stream():
    events = start(HANDS) + turn(0, "5m", "1m") + turn(1, "E") + turn(2, "9p") + turn(0, "P")
    #           game kyoku tsumo dahai tsumo dahai tsumo dahai tsumo dahai
    times = [0.0, 0.0, 1.0, 3.5, 4.0, 5.0, 6.0, 10.0, 11.0, 11.5]
    return _timed(events, times)


def test_turn_times_run_from_the_previous_discard_to_the_seats_discard():
    times = turn_times(_stream())
    assert times[0].tolist() == [3.5, 1.5]  # the dealer's first from the deal
    assert times[1].tolist() == [1.5]
    assert times[2].tolist() == [5.0]
    assert times[3].size == 0


def test_a_call_starts_the_callers_turn():
    from tracker import events as ev

    events = _stream()[:4] + _timed([ev.Pon(actor=2, target=0, pai="1m", consumed=["1m", "1m"])], [4.0])
    events += _timed([ev.Dahai(actor=2, pai="9p", tsumogiri=False)], [6.5])
    assert turn_times(events)[2].tolist() == [2.5]


def test_the_report_is_one_file_with_timeline_alerts_turn_times_and_record():
    events = _stream()
    crop = b"\xff\xd8\xff\xe0fake-jpeg"
    alert = Alert(
        id="k1-a1",
        code="early_draw",
        seat=1,
        rules="mleague",
        penalty="dead_hand",
        t=4.0,
        frame=120,
        message="先摸 early draw <seat 1>",
        evidence=Evidence(box=[1, 2, 3, 4]),
    )
    page = render_report(ReportInput(events, [alert], crops={"k1-a1": crop}))
    assert page.startswith("<!doctype html>")
    # self-contained: no external references at all
    assert not re.search(r'(src|href)="(?!data:)', page)
    assert "<script" not in page
    # the timeline is inline SVG with the alert on it and one mark per discard
    svg = page[page.index('<svg class="timeline"') : page.index("</svg>")]
    assert svg.count("alert-mark") == 1 and svg.count('r="3"') == 4
    # the alert with its thumbnail inlined, text escaped
    assert f"data:image/jpeg;base64,{base64.b64encode(crop).decode()}" in page
    assert "先摸 early draw &lt;seat 1&gt;" in page
    # per-seat turn times
    assert "<td>2</td><td>2.5 s</td><td>2.5 s</td>" in page  # seat 0: two turns, 3.5 s and 1.5 s
    # the record names each discard in order with inlined faces
    record = page[page.index("<table class='record'>") :]
    rows = [re.findall(r'title="([^"]+)"', row) for row in record.split("<tr>")[2:6]]
    assert rows == [["1m", "P"], ["E"], ["9p"], []]
    assert ".f-1m{background-image:url(data:image/png;base64," in page
    assert len(split_kyoku(events)) == 1


def test_report_from_truth_has_the_staged_alerts_thumbnails_and_the_win_value(tmp_path):
    out = report_from_truth(TRUTH, tmp_path / "report.html")
    page = out.read_text(encoding="utf-8")
    assert "meld_orientation" in page and "early_draw" in page
    assert page.count("data:image/jpeg;base64,") >= 2  # evidence cut from the clip's video
    assert "Yakuhai (chun) 1" in page and "<b>1500</b>" in page  # hand value of the win
    assert "South 1, 1 honba" in page


def test_report_from_analysis_outputs_reads_events_alerts_states_and_crops(tmp_path):
    import cv2

    events = _stream()
    (tmp_path / "events.mjai.jsonl").write_text(write_mjai(events), encoding="utf-8")
    (tmp_path / "evidence").mkdir()
    ok, png = cv2.imencode(".png", np.full((20, 30, 3), 200, np.uint8))
    (tmp_path / "evidence" / "a1.png").write_bytes(png.tobytes())
    alert = Alert(
        id="a1",
        code="river_layout",
        seat=0,
        rules="mleague",
        penalty="warning",
        t=3.5,
        frame=105,
        message="seventh tile in a row",
        evidence=Evidence(image="evidence/a1.png"),
    )
    write_alerts_jsonl([alert], tmp_path / "alerts.jsonl")
    (tmp_path / "state.jsonl").write_text(json.dumps({"index": 0, "state": {}}) + "\n", encoding="utf-8")
    out = report_from_outputs(tmp_path)
    page = out.read_text(encoding="utf-8")
    assert out == tmp_path / "report.html"
    assert (
        "river_layout" in page and "data:image/png;base64," + base64.b64encode(png.tobytes()).decode() in page
    )


def test_a_win_whose_hand_the_camera_did_not_read_is_listed_without_a_value():
    from tracker import events as ev

    unseen = [
        e.model_copy(update={"tehais": [["?"] * 13] * 4}) if e.type == "start_kyoku" else e for e in start()
    ]
    events = _timed(unseen, [0.0, 0.0])
    events += _timed([ev.Tsumo(actor=0, pai="?"), ev.Hora(actor=0, target=0, pai="?")], [2.0, 3.0])
    page = render_report(ReportInput(events, []))
    wins = page[page.index("<h2>Wins</h2>") :]
    wins = wins[: wins.index("</section>")]
    assert "seat 0" in wins and "tsumo" in wins and "not known: the winning hand was not read" in wins
