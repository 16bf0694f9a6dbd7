import json

from rules_check.alert import Alert, Evidence, read_alerts_jsonl, write_alerts_jsonl
from tests.rules_check.kit import draw, feed, start
from tracker import events as ev


def test_alert_has_exactly_the_design_fields():
    assert list(Alert.model_fields) == [
        "id",
        "code",
        "seat",
        "rules",
        "penalty",
        "t",
        "frame",
        "message",
        "evidence",
    ]
    assert list(Evidence.model_fields) == ["box", "image"]


def test_alerts_jsonl_round_trip(tmp_path):
    stream = start() + [ev.WallTake(actor=2, t=12.5, frame=375)] + draw(0, "N")
    alerts = feed(stream).alerts
    path = tmp_path / "alerts.jsonl"
    assert write_alerts_jsonl(alerts, path) == 1
    line = json.loads(path.read_text().splitlines()[0])
    assert line["code"] == "early_draw" and line["t"] == 12.5 and line["frame"] == 375
    assert line["rules"] == "mleague" and line["penalty"] == "dead_hand"
    assert line["evidence"] == {"box": None, "image": None}
    assert read_alerts_jsonl(path) == alerts
