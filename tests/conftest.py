"""Shared fixtures: where ../shared is, and generated jansou games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
TENHOU6_DIR = SHARED / "data" / "logs" / "tenhou6"
SAMPLE_LOG = REPO / "tracker" / "samples" / "jansou-mleague-hanchan.mjai.jsonl"
JANSOU_GAMES = 20


def shared_tenhou6_logs() -> list[Path]:
    return sorted(TENHOU6_DIR.glob("*.json")) if TENHOU6_DIR.is_dir() else []


needs_shared_logs = pytest.mark.skipif(
    not shared_tenhou6_logs(), reason=f"real game logs not found at {TENHOU6_DIR} (../shared absent)"
)


@pytest.fixture(scope="session")
def jansou_games() -> list[dict]:
    """tenhou.net/6 dicts of full M-League-rule hanchan played by jansou's bots (seeds 0..19)."""
    jansou = pytest.importorskip("jansou", reason="jansou is a test dependency: pip install -e '.[test]'")
    del jansou
    from jansou.core.rules import preset
    from jansou.game.agents import SmartEfficiencyAgent
    from jansou.game.environment import Environment
    from jansou.io.from_game import paifu_from_game
    from jansou.io.tenhou_json import dump_tenhou_json

    games = []
    for seed in range(JANSOU_GAMES):
        env = Environment(preset("m-league"), seed=seed)
        env.run([SmartEfficiencyAgent() for _ in range(4)])
        games.append(json.loads(json.dumps(dump_tenhou_json(paifu_from_game(env)))))
    return games
