"""SIGKILL the live process mid-clip, restart it on the same store: every alert a client saw is
there (alerts are committed before they are broadcast)."""

import json
import os
import signal
import subprocess
import sys

from websockets.sync.client import connect

from tests.conftest import REPO
from tests.tracker.live.conftest import TRUTH, VIDEO, free_port, http, receive, wait_for


def _launch(db, port):
    command = [sys.executable, "-m", "tracker.cli", "live", str(VIDEO), "--replay", str(TRUTH)]
    command += ["--db", str(db), "--port", str(port), "--speed", "6", "--token", "t"]
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _up(port):
    try:
        return http("GET", f"http://127.0.0.1:{port}/api/state")[0] == 200
    except OSError:
        return False


def test_every_alert_a_client_saw_survives_a_sigkill(tmp_path):
    db = tmp_path / "alerts.sqlite"
    port = free_port()
    process = _launch(db, port)
    seen = set()
    try:
        wait_for(lambda: _up(port), timeout=30)
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
            # the early draw comes ~6.8 s into the clip at 6x: kill right as it reaches us
            while not any(json.loads(r)["alert"]["code"] == "early_draw" for r in seen):
                for message in receive(ws):
                    if message["type"] == "update":
                        seen.update(json.dumps(r, sort_keys=True) for r in message["alerts"])
            os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    assert process.returncode == -signal.SIGKILL
    seen_ids = {json.loads(r)["id"] for r in seen}
    assert len(seen_ids) >= 2

    port = free_port()
    again = _launch(db, port)
    try:
        wait_for(lambda: _up(port), timeout=30)
        stored = {r["id"] for r in http("GET", f"http://127.0.0.1:{port}/api/alerts")[1]["alerts"]}
    finally:
        again.send_signal(signal.SIGINT)
        try:
            again.wait(10)
        except subprocess.TimeoutExpired:
            again.kill()
            again.wait(10)
    assert seen_ids <= stored
