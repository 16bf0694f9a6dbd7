"""The analysis side of the web process pipe: publishing never blocks, a stuck web process costs a
bounded backlog and gets the current picture once it reads again."""

import json
import threading
import time

from tracker.live.hub import Snapshot
from tracker.live.webproc import BACKLOG, WebProcess, WebSettings


class StuckPipe:
    """A pipe whose reader does not read until ``release`` is set."""

    def __init__(self):
        self.release = threading.Event()
        self.sent: list[str] = []

    def send_bytes(self, data: bytes) -> None:
        self.release.wait(30)
        self.sent.append(data.decode())

    def close(self) -> None:
        pass


def test_a_stuck_web_process_never_blocks_the_publisher_and_is_resynchronised():
    web = WebProcess(WebSettings("127.0.0.1", 0, ":memory:", "t"), lambda: '{"type": "snapshot", "n": "now"}')
    web._conn = pipe = StuckPipe()
    web._writer = threading.Thread(target=web._write, daemon=True)
    web._writer.start()
    slowest = 0.0
    for n in range(BACKLOG + 100):
        begin = time.monotonic()
        web.publish(json.dumps({"type": "update", "n": n}))
        slowest = max(slowest, time.monotonic() - begin)
    assert slowest < 0.01 and web.dropped >= 99
    pipe.release.set()
    web.stop()
    got = [json.loads(text) for text in pipe.sent]
    updates = [m["n"] for m in got if m["type"] == "update"]
    assert updates == sorted(updates) and updates[-1] == BACKLOG + 99  # in order, the newest kept
    assert len(got) <= 2 * BACKLOG + 2  # bounded
    # the backlog that was dropped is replaced by the current picture, ahead of what followed it
    first = next(i for i, m in enumerate(got) if m["type"] == "snapshot")
    assert got[first] == {"type": "snapshot", "n": "now"} and len(updates) < BACKLOG + 100
    after = [m["n"] for m in got[first + 1 :]]
    assert after == list(range(after[0], BACKLOG + 100))


def test_the_web_process_snapshot_follows_the_messages():
    snap = Snapshot("7")
    assert json.loads(snap.text())["source"] == "starting"
    snap.merge({"type": "source", "source": "playing"})
    snap.merge({"type": "update", "frame": 5, "t": 0.2, "state": {"kyoku": 1}, "turn": None, "events": []})
    snap.merge({"type": "update", "frame": 9, "t": 0.3, "state": None, "turn": {"seat": 1, "since": 0.3}})
    snap.merge({"type": "tick", "frame": 12, "t": 0.4, "turn": {"seat": 1, "since": 0.3}})
    snap.merge({"type": "alert_status", "alert": {"id": "x"}})
    got = json.loads(snap.text())
    assert got == {
        "type": "snapshot",
        "table": "7",
        "frame": 12,
        "t": 0.4,
        "state": {"kyoku": 1},  # an update without a state keeps the last one
        "turn": {"seat": 1, "since": 0.3},
        "source": "playing",
    }
    snap.merge({"type": "snapshot", "table": "7", "frame": 99, "state": None})
    assert json.loads(snap.text())["frame"] == 99
