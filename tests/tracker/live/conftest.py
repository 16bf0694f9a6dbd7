"""Fixtures for the live monitor: the sample clip, a free loopback port, a monitor in a thread."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import REPO

CLIP = REPO / "tracker" / "samples" / "demo-kyoku"
VIDEO = CLIP / "video.mp4"
TRUTH = CLIP / "truth.json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, token: str | None = None, body: dict | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw[:1] in (b"{", b"[") else {"raw": raw}
    except urllib.error.HTTPError as err:
        raw = err.read()
        return err.code, json.loads(raw) if raw[:1] in (b"{", b"[") else {"raw": raw}


def receive(ws, timeout: float = 30.0) -> list[dict]:
    """The next WebSocket frame's messages (a client that fell behind gets a JSON array)."""
    data = json.loads(ws.recv(timeout=timeout))
    return data if isinstance(data, list) else [data]


def wait_for(predicate, timeout: float = 20.0, every: float = 0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s")


@pytest.fixture
def monitor_factory(tmp_path: Path):
    """Start ``LiveMonitor``s on the sample clip replay (closed at teardown)."""
    from rules_check.ruleset import ruleset_by_name
    from tracker.live.replay import TruthReplayAnalyzer
    from tracker.live.server import LiveConfig, LiveMonitor

    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    started = []

    def make(speed: float = 8.0, paced: bool = True, db: Path | None = None, start_pipeline: bool = True):
        config = LiveConfig(
            source=str(VIDEO),
            db=str(db or tmp_path / "alerts.sqlite"),
            port=free_port(),
            token="test-token",
            speed=speed,
            paced=paced,
            session="s1",
        )
        monitor = LiveMonitor(config, lambda: TruthReplayAnalyzer(truth, ruleset_by_name("mleague")))
        monitor.start(start_pipeline=start_pipeline)
        monitor.base = f"http://127.0.0.1:{config.port}"
        started.append(monitor)
        return monitor

    yield make
    for monitor in started:
        monitor.close()
