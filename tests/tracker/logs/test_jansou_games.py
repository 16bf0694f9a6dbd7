"""jansou games for the tests and evaluations: the same game for a seed in every process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytest.importorskip("jansou", reason="jansou is a test dependency: pip install -e '.[test]'")


def test_a_seed_plays_the_same_hanchan_in_another_process():
    from tracker.logs.jansou_games import play_mleague

    here, _ = play_mleague(3)
    code = "import json; from tracker.logs.jansou_games import play_mleague as p; print(json.dumps(p(3)[0]))"
    for hash_seed in ("1", "25"):  # unseeded bots and set order made games differ between processes
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO)}
        done = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        assert json.loads(done.stdout) == here


def test_the_command_writes_the_seeds_game_as_mjai(tmp_path, capsys):
    from tracker.logs import load_log, tenhou6_to_events
    from tracker.logs.jansou_games import main, play_mleague

    out = tmp_path / "games" / "g.mjai.jsonl"
    assert main(["--seed", "5", "--out", str(out)]) == 0
    written = load_log(out)
    assert [e.model_dump() for e in written] == [
        e.model_dump() for e in tenhou6_to_events(play_mleague(5)[0])
    ]
    kyoku = sum(e.type == "start_kyoku" for e in written)
    assert kyoku >= 8 and f"{kyoku} kyoku" in capsys.readouterr().out
