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
