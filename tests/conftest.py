"""Shared fixtures: where ../shared is, and generated jansou games."""

from __future__ import annotations

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
    """tenhou.net/6 dicts of full M-League-rule hanchan played by jansou's bots (seeds 0..19), the
    same games in every run."""
    pytest.importorskip("jansou", reason="jansou is a test dependency: pip install -e '.[test]'")
    from tracker.logs.jansou_games import play_mleague

    return [play_mleague(seed)[0] for seed in range(JANSOU_GAMES)]
