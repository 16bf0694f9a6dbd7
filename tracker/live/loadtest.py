"""Load test of the live monitor on loopback: ``python -m tracker.live.loadtest``.

Plays the sample clip through the replay analyzer as fast as it decodes, once with no WebSocket
client and once with N clients (one of them stalled: it handshakes and never reads), alternating
``--rounds`` times, and compares frames analysed per second. Then plays it at its own frame rate
for ``--paced-seconds`` with the N clients connected and records event-to-client latency: from
the moment the frame was read to the moment a client holds the decoded message (both sides use
the machine's monotonic clock; the clients run in a separate process, like browsers do).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "demo-kyoku"


def _clients(port: int, count: int, stalled: int, ready, stop, results, niceness: int = 0) -> None:
    """Child process: ``count`` readers (``stalled`` of them never read); reports latencies."""
    import os

    from websockets.asyncio.client import connect

    if niceness:
        os.nice(niceness)

    async def reader(latencies: list[float], counts: list[int]):
        async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
            async for text in ws:
                now = time.monotonic()
                data = json.loads(text)
                for message in data if isinstance(data, list) else [data]:
                    counts[0] += 1
                    if message.get("type") == "update" and message.get("read_wall") is not None:
                        if message["events"]:
                            latencies.append(now - message["read_wall"])

    async def main():
        stalled_socks = []
        for _ in range(stalled):
            raw = socket.socket()
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # before connect: a small window
            raw.connect(("127.0.0.1", port))
            raw.sendall(
                b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            stalled_socks.append(raw)  # never read again
        latencies: list[list[float]] = [[] for _ in range(count - stalled)]
        counts = [[0] for _ in range(count - stalled)]
        tasks = [asyncio.create_task(reader(latencies[i], counts[i])) for i in range(count - stalled)]
        while sum(c[0] > 0 for c in counts) < len(counts):  # every reader got its snapshot
            await asyncio.sleep(0.02)
        ready.set()
        cpu = time.process_time()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # the last messages in flight
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        results.put(
            {
                "latencies": [x for lat in latencies for x in lat],
                "messages": [c[0] for c in counts],
                "client_cpu_s": time.process_time() - cpu,
            }
        )
        for raw in stalled_socks:
            raw.close()

    asyncio.run(main())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_phase(
    video: Path,
    truth: dict,
    clients: int,
    stalled: int,
    paced: bool,
    seconds: float | None,
    client_nice: int = 0,
) -> dict:
    from rules_check.ruleset import ruleset_by_name
    from tracker.live.replay import TruthReplayAnalyzer
    from tracker.live.server import LiveConfig, LiveMonitor

    with tempfile.TemporaryDirectory(prefix="mjmon-load-") as tmp:
        config = LiveConfig(
            source=str(video), db=str(Path(tmp) / "a.sqlite"), port=_free_port(), token="x", paced=paced
        )
        monitor = LiveMonitor(config, lambda: TruthReplayAnalyzer(truth, ruleset_by_name("mleague")))
        monitor.start(start_pipeline=False)
        child = None
        try:
            if clients:
                ctx = mp.get_context("spawn")
                ready, stop, results = ctx.Event(), ctx.Event(), ctx.Queue()
                child = ctx.Process(
                    target=_clients, args=(config.port, clients, stalled, ready, stop, results)
                )
                child.start()
                if not ready.wait(60):
                    raise RuntimeError("the clients did not connect")
                connected = len(monitor.hub.clients)
            else:
                connected = 0
            cpu = time.process_time()
            monitor.pipeline.start()
            if seconds is not None:
                monitor.pipeline.done.wait(seconds)
                monitor.pipeline.stop.set()
            monitor.pipeline.done.wait()
            out = {
                "clients": clients,
                "connected": connected,
                "stalled": stalled if clients else 0,
                "paced": paced,
                "frames": monitor.pipeline.frames,
                "fps": monitor.pipeline.fps,
                "server_cpu_s": time.process_time() - cpu,  # pipeline + decode + web server threads
                "late_frames": monitor.source.late_frames,
                "dropped_messages": monitor.hub.dropped,
            }
            if child is not None:
                stop.set()
                got = results.get(timeout=30)
                out["latency_s"] = got["latencies"]
                out["messages_per_client"] = got["messages"]
                out["client_cpu_s"] = got["client_cpu_s"]
                child.join(10)
            return out
        finally:
            if child is not None and child.is_alive():
                child.terminate()
            monitor.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tracker.live.loadtest", description=__doc__.splitlines()[0])
    p.add_argument("--video", type=Path, default=SAMPLE / "video.mp4")
    p.add_argument("--truth", type=Path, default=SAMPLE / "truth.json")
    p.add_argument("--clients", type=int, default=50)
    p.add_argument("--stalled", type=int, default=1)
    p.add_argument("--rounds", type=int, default=2, help="baseline/loaded pairs for the throughput figure")
    p.add_argument("--paced-seconds", type=float, default=15.0, help="real-time run for the latency figure")
    p.add_argument(
        "--client-nice",
        type=int,
        default=0,
        help="niceness of the clients' process (19: they stand in for browsers on other machines)",
    )
    p.add_argument("--json", type=Path, help="write the raw figures here")
    args = p.parse_args(argv)
    truth = json.loads(args.truth.read_text(encoding="utf-8"))

    base, loaded = [], []
    for r in range(args.rounds):
        base.append(run_phase(args.video, truth, 0, 0, paced=False, seconds=None))
        loaded.append(run_phase(args.video, truth, args.clients, args.stalled, False, None, args.client_nice))
        print(
            f"round {r + 1}: no clients {base[-1]['fps']:.0f} fps ({base[-1]['server_cpu_s']:.2f} CPU s); "
            f"{args.clients} clients ({loaded[-1]['connected']} connected, {args.stalled} stalled) "
            f"{loaded[-1]['fps']:.0f} fps ({loaded[-1]['server_cpu_s']:.2f} CPU s; clients "
            f"{loaded[-1]['client_cpu_s']:.2f} CPU s), "
            f"{loaded[-1]['dropped_messages']} messages dropped from stalled backlogs",
            flush=True,
        )
    fps0 = statistics.median(b["fps"] for b in base)
    fps1 = statistics.median(x["fps"] for x in loaded)
    live = run_phase(
        args.video, truth, args.clients, args.stalled, True, args.paced_seconds, args.client_nice
    )
    lat = np.asarray(live["latency_s"]) * 1000.0
    flood = np.asarray([x for run in loaded for x in run["latency_s"]]) * 1000.0
    cpu0 = statistics.median(b["server_cpu_s"] for b in base)
    cpu1 = statistics.median(x["server_cpu_s"] for x in loaded)
    summary = {
        "server_cpu_s_no_clients": cpu0,
        "server_cpu_s_with_clients": cpu1,
        "paced_late_frames": live["late_frames"],
        "fps_no_clients": fps0,
        "fps_with_clients": fps1,
        "ratio": fps1 / fps0,
        "clients": args.clients,
        "stalled": args.stalled,
        "paced_frames": live["frames"],
        "paced_fps": live["fps"],
        "latency_ms_median": float(np.median(lat)) if lat.size else None,
        "latency_ms_p95": float(np.percentile(lat, 95)) if lat.size else None,
        "latency_samples": int(lat.size),
        "unpaced_latency_ms_median": float(np.median(flood)) if flood.size else None,
        "unpaced_latency_ms_p95": float(np.percentile(flood, 95)) if flood.size else None,
    }
    print(
        f"throughput: {fps0:.0f} fps without clients, {fps1:.0f} fps with {args.clients} "
        f"({summary['ratio']:.1%} of it)"
    )
    print(f"server process CPU for the clip: {cpu0:.2f} s without clients, {cpu1:.2f} s with {args.clients}")
    print(
        f"at the clip's own rate with {args.clients} clients: {live['frames']} frames, "
        f"{live['late_frames']} read more than a frame interval late"
    )
    print(
        f"latency at the clip's own rate ({live['frames']} frames, {lat.size} event deliveries to "
        f"{args.clients - args.stalled} readers): median {summary['latency_ms_median']:.1f} ms, "
        f"p95 {summary['latency_ms_p95']:.1f} ms"
    )
    print(
        f"latency while flooding at full decode speed: median {summary['unpaced_latency_ms_median']:.1f} ms, "
        f"p95 {summary['unpaced_latency_ms_p95']:.1f} ms"
    )
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "base": base, "loaded": loaded}, default=list))
    return 0


if __name__ == "__main__":
    sys.exit(main())
