import json
import threading
import time
import urllib.request

from websockets.sync.client import connect

from tests.tracker.live.conftest import http, receive, wait_for


def _alerts(monitor):
    return http("GET", monitor.base + "/api/alerts")[1]["alerts"]


def test_alerts_stream_and_store_and_ack_needs_the_token(monitor_factory):
    monitor = monitor_factory(speed=20.0, start_pipeline=False)
    with connect(monitor.base.replace("http", "ws") + "/ws", open_timeout=10) as ws:
        first = receive(ws, 10)[0]
        assert first["type"] == "snapshot"
        monitor.pipeline.start()
        seen = {}
        while len(seen) < 2:
            for message in receive(ws, 20):
                if message["type"] == "update":
                    for record in message["alerts"]:
                        seen[record["id"]] = record
                        # stored before it was broadcast: the store already has it
                        assert record["id"] in {r["id"] for r in _alerts(monitor)}
    codes = {r["alert"]["code"] for r in seen.values()}
    assert codes == {"meld_orientation", "early_draw"}
    alert_id = next(i for i, r in seen.items() if r["alert"]["code"] == "early_draw")
    assert alert_id.startswith("s1-")

    url = f"{monitor.base}/api/alerts/{alert_id}/ack"
    assert http("POST", url, body={"who": "ref"})[0] == 401
    assert http("POST", url, token="wrong", body={"who": "ref"})[0] == 401
    assert http("POST", f"{monitor.base}/api/alerts/{alert_id}/dismiss")[0] == 401
    status, record = http("POST", url, token="test-token", body={"who": "Referee Kim"})
    assert status == 200 and record["status"] == "acknowledged" and record["status_by"] == "Referee Kim"
    assert http("POST", f"{monitor.base}/api/alerts/none/ack", token="test-token")[0] == 404
    stored = {r["id"]: r for r in _alerts(monitor)}
    assert stored[alert_id]["status"] == "acknowledged"
    filtered = http("GET", monitor.base + "/api/alerts?seat=0")[1]["alerts"]
    assert [r["alert"]["code"] for r in filtered] == ["meld_orientation"]
    thumb = stored[alert_id]["thumb"]
    with urllib.request.urlopen(monitor.base + thumb, timeout=5) as response:
        assert response.headers["content-type"] == "image/jpeg" and response.read()[:2] == b"\xff\xd8"


def test_only_tile_codes_and_listed_files_are_served(monitor_factory):
    monitor = monitor_factory(start_pipeline=False)
    ok = urllib.request.urlopen(monitor.base + "/tiles/5mr.png", timeout=5)
    assert ok.status == 200 and ok.read()[:4] == b"\x89PNG"
    for path in (
        "/tiles/..%2F..%2Fpyproject.toml.png",
        "/tiles/zz.png",
        "/tiles/back.png",
        "/static/..%2Fapp.py",
        "/static/overlay.html",
        "/static/%2Fetc%2Fpasswd",
        "/etc/passwd",
        "/api/alerts/x/thumb.jpg",
    ):
        assert http("GET", monitor.base + path)[0] == 404, path
    for page in ("/overlay", "/referee", "/static/overlay.js", "/static/live.css"):
        assert http("GET", monitor.base + page)[0] == 200
    # the overlay and the stream are read-only: nothing but ack/dismiss accepts a POST
    assert http("POST", monitor.base + "/overlay")[0] == 405
    assert http("POST", monitor.base + "/api/alerts")[0] == 405


def test_the_monitor_listens_on_loopback_by_default():
    from tracker.live.server import LiveConfig

    assert LiveConfig(source="0").host == "127.0.0.1"


def test_a_slow_client_does_not_slow_the_pipeline(monitor_factory):
    import socket

    monitor = monitor_factory(paced=False)
    # a client that completes the handshake and then never reads
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # before connect: a small window
    raw.connect(("127.0.0.1", monitor.config.port))
    raw.sendall(
        b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    wait_for(lambda: monitor.pipeline.done.is_set(), timeout=120)
    assert monitor.pipeline.frames == 2739
    assert monitor.pipeline.error is None
    # keep pushing (8 MB, more than the socket buffers hold): the stalled client's backlog is
    # dropped, a client that reads gets every message
    with connect(monitor.base.replace("http", "ws") + "/ws", open_timeout=10, max_size=None) as reader:
        got = []
        thread = threading.Thread(target=_read_pads, args=(reader, got, 128), daemon=True)
        thread.start()
        big = json.dumps({"type": "update", "pad": "x" * 65536})
        slowest = 0.0
        for _ in range(128):
            begin = time.monotonic()
            monitor.web.publish(big)
            slowest = max(slowest, time.monotonic() - begin)
            time.sleep(0.005)
        assert slowest < 0.05  # publishing never waits for a client
        wait_for(lambda: _stats(monitor)["dropped"] > 0, timeout=30)
        thread.join(30)
        assert len(got) == 128
        clients = _stats(monitor)["clients"]
        stalled = [c for c in clients if c["dropped"]]
        assert len(clients) == 2 and len(stalled) == 1
        assert stalled[0]["queued"] <= monitor.config.queue_size
    raw.close()


def _stats(monitor) -> dict:
    return http("GET", monitor.base + "/api/stats")[1]


def _read_pads(ws, got: list, count: int) -> None:
    while len(got) < count:
        got.extend(1 for message in receive(ws) if "pad" in message)


def test_another_sites_page_cannot_open_the_stream(monitor_factory):
    import pytest
    from websockets.exceptions import InvalidStatus

    monitor = monitor_factory(start_pipeline=False)
    url = monitor.base.replace("http", "ws") + "/ws"
    with pytest.raises(InvalidStatus):
        connect(url, origin="http://evil.example", open_timeout=10)
    with connect(url, origin=monitor.base, open_timeout=10) as ws:  # the pages themselves
        assert receive(ws, 10)[0]["type"] == "snapshot"
