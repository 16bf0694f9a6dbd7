import json

from tests.conftest import SAMPLE_LOG, TENHOU6_DIR, needs_shared_logs
from tracker.cli import main


def test_mjmon_check_sample_log(capsys, tmp_path):
    out = tmp_path / "alerts.jsonl"
    assert main(["check", str(SAMPLE_LOG), "--values", "--alerts", str(out)]) == 0
    text = capsys.readouterr().out
    assert "0 alerts under mleague rules" in text and " wins (" in text
    assert out.read_text() == ""


@needs_shared_logs
def test_mjmon_check_writes_the_alert(capsys, tmp_path):
    out = tmp_path / "alerts.jsonl"
    assert main(["check", str(TENHOU6_DIR / "confusing_nakis_2.json"), "--alerts", str(out)]) == 0
    assert "false_win [chombo]" in capsys.readouterr().out
    line = json.loads(out.read_text().splitlines()[0])
    assert line["code"] == "false_win" and line["seat"] == 1
