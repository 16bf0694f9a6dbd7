import json
import subprocess
import sys

import pytest

from tests.conftest import REPO, SAMPLE_LOG, needs_shared_logs, shared_tenhou6_logs
from tracker.cli import main
from tracker.logs import load_log


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tracker.cli", *args], capture_output=True, text=True, cwd=REPO, timeout=120
    )


def test_convert_both_ways_round_trips(tmp_path, capsys):
    t6 = tmp_path / "game.json"
    back = tmp_path / "game.jsonl"
    assert main(["convert", str(SAMPLE_LOG), "--to", "tenhou6", "--out", str(t6)]) == 0
    assert json.loads(t6.read_text())["log"]
    assert main(["convert", str(t6), "--to", "mjai", "--out", str(back)]) == 0
    assert back.read_text() == SAMPLE_LOG.read_text()
    assert "wrote" in capsys.readouterr().out


@needs_shared_logs
def test_convert_real_log_to_mjai_and_back(tmp_path):
    source = shared_tenhou6_logs()[0]
    mjai = tmp_path / "a.jsonl"
    t6 = tmp_path / "a.json"
    assert main(["convert", str(source), "--to", "mjai", "--out", str(mjai)]) == 0
    assert main(["convert", str(mjai), "--to", "tenhou6", "--out", str(t6)]) == 0
    assert json.loads(t6.read_text())["log"] == json.loads(source.read_text())["log"]
    assert len(load_log(mjai)) > 10


def test_replay_prints_each_kyoku(capsys):
    assert main(["replay", str(SAMPLE_LOG)]) == 0
    out = capsys.readouterr().out
    kyoku = sum(1 for e in load_log(SAMPLE_LOG) if e.type == "start_kyoku")
    assert out.count("== kyoku ") == kyoku
    assert "seat 0 (" in out and "river" in out and "legend:" in out


def test_replay_one_kyoku_verbose(capsys):
    assert main(["replay", str(SAMPLE_LOG), "--kyoku", "0", "-v"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("-- 1: start_kyoku")
    assert "-- " in out and "dahai actor=" in out


def test_replay_missing_kyoku_is_an_error(capsys):
    assert main(["replay", str(SAMPLE_LOG), "--kyoku", "99"]) == 2
    assert "no kyoku 99" in capsys.readouterr().err


@pytest.mark.parametrize(
    "content, expected",
    [
        ('{"log": [[[0,0,0]]]}', "bad.json: kyoku 0: a kyoku must be an array of 17 items"),
        (
            '{"type":"start_game"}\n{"type":"dahai","actor":9,"pai":"1m","tsumogiri":false}\n',
            "bad.json: line 2: dahai: actor: Input should be less than or equal to 3",
        ),
    ],
)
def test_malformed_log_fails_in_one_line_without_traceback(tmp_path, content, expected):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = run_cli("replay", str(bad))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"mjmon: {bad.parent}/{expected}"]


def test_impossible_event_in_log_names_the_event(tmp_path):
    lines = SAMPLE_LOG.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"type":"dahai"' in line)
    discard = json.loads(lines[index])
    own_call = {
        "type": "pon",
        "actor": discard["actor"],
        "target": discard["actor"],
        "pai": discard["pai"],
        "consumed": [discard["pai"]] * 2,
    }
    lines.insert(index + 1, json.dumps(own_call))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = run_cli("replay", str(bad))
    assert result.returncode == 2
    assert result.stderr.startswith(f"mjmon: {bad}: event {index + 1} (pon): seat ")
    assert "Traceback" not in result.stderr
