"""Load test of the live monitor on loopback: ``python -m tracker.live.loadtest``.

Throughput: the sample clip read as fast as it decodes through ``mjmon live``'s own analysis
path — the tile detector (``models/tiles.onnx``) + ``TableTracker`` + ``RulesChecker``, built by
the same factory as the command — once with no WebSocket client and once with N clients (one of
them stalled: it handshakes with a 2 KB receive window and never reads). Pairs alternate their
order (ABBA) so drift in the machine's load falls on both sides; the figure is the median of the
per-pair ratios, with the spread. Beside it, frames per CPU second of the analysis process
(decode, analyzer, store, the pipe to the web process): what serving costs the analysis itself,
whatever else the machine is busy with. The truth-replay analyzer (~1000 frames/s, every event of the
clip in ~3 s) is the extra stress row: the most serving per frame analysed.

Latency: the clip at its own frame rate with the product analyzer and the N clients, from the
moment a frame is read to the moment a client holds the decoded message (both sides use the
machine's monotonic clock; the clients run in a separate process, like browsers do).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import socket
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "demo-kyoku"


def _clients(port: int, count: int, stalled: int, ready, stop, results) -> None:
    """Child process: ``count`` readers (``stalled`` of them never read); reports latencies."""
    from websockets.asyncio.client import connect

    async def reader(latencies: list[float], serving: list[float], counts: list[int]):
        async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
            async for text in ws:
                now, wall = time.monotonic(), time.time()
                data = json.loads(text)
                for message in data if isinstance(data, list) else [data]:
                    counts[0] += 1
                    if message.get("type") == "update" and message.get("read_wall") is not None:
                        if message["events"]:
                            latencies.append(now - message["read_wall"])  # frame read -> client
                            serving.append(wall - message["sent_wall"])  # published -> client

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
        serving: list[list[float]] = [[] for _ in range(count - stalled)]
        counts = [[0] for _ in range(count - stalled)]
        tasks = [
            asyncio.create_task(reader(latencies[i], serving[i], counts[i])) for i in range(count - stalled)
        ]
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
                "serving": [x for lat in serving for x in lat],
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


def _stats(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/stats", timeout=10) as response:
        return json.loads(response.read())


def run_pass(video: Path, factory, clients: int, stalled: int, paced: bool, seconds: float | None) -> dict:
    """One pass of the clip through a fresh ``LiveMonitor`` (``seconds``: stop after that long)."""
    from tracker.live.server import LiveConfig, LiveMonitor

    with tempfile.TemporaryDirectory(prefix="mjmon-load-") as tmp:
        config = LiveConfig(
            source=str(video), db=str(Path(tmp) / "a.sqlite"), port=_free_port(), token="x", paced=paced
        )
        monitor = LiveMonitor(config, factory)
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
            before = _stats(config.port)
            cpu = time.process_time()
            monitor.pipeline.start()
            if seconds is not None:
                monitor.pipeline.done.wait(seconds)
                monitor.pipeline.stop.set()
            monitor.pipeline.done.wait()
            analysis_cpu = time.process_time() - cpu  # decode + analyzer + store + pipe writer
            after = _stats(config.port)
            out = {
                "clients": clients,
                "connected": len(before["clients"]),
                "stalled": stalled if clients else 0,
                "paced": paced,
                "frames": monitor.pipeline.frames,
                "fps": monitor.pipeline.fps,
                "analysis_cpu_s": analysis_cpu,
                # frames per CPU second of the analysis process: what serving costs it, whatever
                # else the machine's cores are busy with
                "cpu_fps": monitor.pipeline.frames / max(analysis_cpu, 1e-9),
                "web_cpu_s": after["cpu_s"] - before["cpu_s"],
                "messages": after["messages"] - before["messages"],
                "late_frames": monitor.source.late_frames,
                "dropped_messages": after["dropped"],
                "error": repr(monitor.pipeline.error) if monitor.pipeline.error else None,
            }
            if child is not None:
                stop.set()
                got = results.get(timeout=30)
                out["latency_s"] = got["latencies"]
                out["serving_latency_s"] = got["serving"]
                out["messages_per_client"] = got["messages"]
                out["client_cpu_s"] = got["client_cpu_s"]
                child.join(10)
            return out
        finally:
            if child is not None and child.is_alive():
                child.terminate()
            monitor.close()


def analyzer_factories(video: Path, truth_path: Path, model: str | None, names: list[str]) -> dict:
    """name -> zero-argument factory. ``tracker`` is built by ``mjmon live``'s own code (model
    loaded and the view calibrated once, as the command does before serving)."""
    from tracker.live.command import analyzer_factory

    out = {}
    for name in names:
        ns = argparse.Namespace(
            source=str(video),
            rules="mleague",
            replay=str(truth_path) if name == "replay" else None,
            calib=None,
            model=model,
        )
        out[name] = analyzer_factory(ns)
    return out


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def throughput(video: Path, factory, name: str, args) -> dict:
    if args.warmup:
        run_pass(video, factory, 0, 0, paced=False, seconds=None)
    pairs = []
    for r in range(args.rounds):
        load_before = _load()
        order = (0, args.clients) if r % 2 == 0 else (args.clients, 0)  # ABBA
        runs = {n: run_pass(video, factory, n, args.stalled if n else 0, False, None) for n in order}
        base, loaded = runs[0], runs[args.clients]
        for run in (base, loaded):
            if run["error"] or run["frames"] == 0:
                raise RuntimeError(f"{name}: the analysis failed: {run['error']}")
        pair = {
            "base": base,
            "loaded": loaded,
            "ratio": loaded["fps"] / base["fps"],
            "cpu_ratio": loaded["cpu_fps"] / base["cpu_fps"],
            "load": load_before,
        }
        pairs.append(pair)
        print(
            f"{name} round {r + 1} (load {load_before}; {'clients' if order[0] else 'none'} first): "
            f"no clients {base['fps']:.1f} fps; {args.clients} clients ({loaded['connected']} connected, "
            f"{args.stalled} stalled) {loaded['fps']:.1f} fps = {pair['ratio']:.1%}; analysis CPU "
            f"{base['analysis_cpu_s']:.2f} / {loaded['analysis_cpu_s']:.2f} s, web process CPU "
            f"{base['web_cpu_s']:.2f} / {loaded['web_cpu_s']:.2f} s, clients CPU "
            f"{loaded['client_cpu_s']:.2f} s, {loaded['messages']} messages",
            flush=True,
        )
    ratios = [p["ratio"] for p in pairs]
    cpu_ratios = [p["cpu_ratio"] for p in pairs]
    fps0 = [p["base"]["fps"] for p in pairs]
    fps1 = [p["loaded"]["fps"] for p in pairs]
    flood = np.asarray([x for p in pairs for x in p["loaded"]["latency_s"]]) * 1000.0
    flood_serving = np.asarray([x for p in pairs for x in p["loaded"]["serving_latency_s"]]) * 1000.0
    summary = {
        "analyzer": name,
        "rounds": args.rounds,
        "fps_no_clients_median": statistics.median(fps0),
        "fps_no_clients_range": [min(fps0), max(fps0)],
        "fps_with_clients_median": statistics.median(fps1),
        "fps_with_clients_range": [min(fps1), max(fps1)],
        "ratio_of_medians": statistics.median(fps1) / statistics.median(fps0),
        "pair_ratio_median": statistics.median(ratios),
        "pair_ratio_range": [min(ratios), max(ratios)],
        "cpu_pair_ratio_median": statistics.median(cpu_ratios),
        "cpu_pair_ratio_range": [min(cpu_ratios), max(cpu_ratios)],
        "analysis_cpu_s": [
            statistics.median(p["base"]["analysis_cpu_s"] for p in pairs),
            statistics.median(p["loaded"]["analysis_cpu_s"] for p in pairs),
        ],
        "web_cpu_s": [
            statistics.median(p["base"]["web_cpu_s"] for p in pairs),
            statistics.median(p["loaded"]["web_cpu_s"] for p in pairs),
        ],
        "client_cpu_s": statistics.median(p["loaded"]["client_cpu_s"] for p in pairs),
        "messages": statistics.median(p["loaded"]["messages"] for p in pairs),
        "flood_latency_ms_median": float(np.median(flood)) if flood.size else None,
        "flood_latency_ms_p95": float(np.percentile(flood, 95)) if flood.size else None,
        "flood_serving_ms_median": float(np.median(flood_serving)) if flood_serving.size else None,
        "flood_serving_ms_p95": float(np.percentile(flood_serving, 95)) if flood_serving.size else None,
        "loads": [p["load"] for p in pairs],
    }
    print(
        f"{name}: {summary['fps_no_clients_median']:.1f} fps without clients "
        f"({fps0 and min(fps0):.1f}-{max(fps0):.1f}), {summary['fps_with_clients_median']:.1f} with "
        f"{args.clients} ({min(fps1):.1f}-{max(fps1):.1f}); per-pair ratio median "
        f"{summary['pair_ratio_median']:.1%} (range {min(ratios):.1%}-{max(ratios):.1%}), ratio of "
        f"medians {summary['ratio_of_medians']:.1%}; frames per analysis-CPU-second with clients "
        f"{summary['cpu_pair_ratio_median']:.1%} of none ({min(cpu_ratios):.1%}-{max(cpu_ratios):.1%}); "
        f"latency under this flood, frame read to client: median "
        f"{summary['flood_latency_ms_median']:.1f} ms, p95 {summary['flood_latency_ms_p95']:.1f} ms; "
        f"published to client: median {summary['flood_serving_ms_median']:.1f} ms, "
        f"p95 {summary['flood_serving_ms_p95']:.1f} ms",
        flush=True,
    )
    return {"summary": summary, "pairs": pairs}


def paced(video: Path, factory, name: str, args) -> dict:
    runs = {}
    for n in (0, args.clients):
        runs[n] = run_pass(video, factory, n, args.stalled if n else 0, True, args.paced_seconds)
    live = runs[args.clients]
    lat = np.asarray(live["latency_s"]) * 1000.0
    serving = np.asarray(live["serving_latency_s"]) * 1000.0
    summary = {
        "analyzer": name,
        "frames": live["frames"],
        "late_frames_no_clients": runs[0]["late_frames"],
        "late_frames_with_clients": live["late_frames"],
        "frames_no_clients": runs[0]["frames"],
        "latency_samples": int(lat.size),
        "latency_ms_median": float(np.median(lat)) if lat.size else None,
        "latency_ms_p95": float(np.percentile(lat, 95)) if lat.size else None,
        "serving_ms_median": float(np.median(serving)) if serving.size else None,
        "serving_ms_p95": float(np.percentile(serving, 95)) if serving.size else None,
        "load": _load(),
    }
    print(
        f"{name} at the clip's own rate, {args.paced_seconds:.0f} s: late frames (over one frame interval "
        f"behind) {runs[0]['late_frames']} of {runs[0]['frames']} without clients, {live['late_frames']} "
        f"of {live['frames']} with {args.clients}; event-to-client latency ({lat.size} deliveries to "
        f"{args.clients - args.stalled} readers), frame read to client: median "
        f"{summary['latency_ms_median']:.1f} ms, p95 {summary['latency_ms_p95']:.1f} ms; published to "
        f"client: median {summary['serving_ms_median']:.1f} ms, p95 {summary['serving_ms_p95']:.1f} ms",
        flush=True,
    )
    return {"summary": summary, "runs": runs}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tracker.live.loadtest", description=__doc__.splitlines()[0])
    p.add_argument("--video", type=Path, default=SAMPLE / "video.mp4")
    p.add_argument("--truth", type=Path, default=SAMPLE / "truth.json", help="for the replay stress row")
    p.add_argument("--model", help="tile model (default: models/tiles.onnx)")
    p.add_argument(
        "--analyzers", default="tracker,replay", help="comma list of tracker (the product path), replay"
    )
    p.add_argument("--clients", type=int, default=50)
    p.add_argument("--stalled", type=int, default=1)
    p.add_argument("--rounds", type=int, default=6, help="no-client/client pairs per analyzer")
    p.add_argument("--warmup", type=int, default=1, help="unmeasured passes first (0 or 1)")
    p.add_argument("--paced-seconds", type=float, default=20.0, help="real-time runs for latency (0: skip)")
    p.add_argument("--json", type=Path, help="write the raw figures here")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.analyzers.split(",") if n.strip()]
    if not set(names) <= {"tracker", "replay"}:
        p.error("--analyzers: tracker and/or replay")
    print(f"load average at start: {_load()}", flush=True)
    factories = analyzer_factories(args.video, args.truth, args.model, names)
    report: dict = {"throughput": {}, "paced": {}}
    for name in names:
        report["throughput"][name] = throughput(args.video, factories[name], name, args)
    if args.paced_seconds > 0:
        report["paced"][names[0]] = paced(args.video, factories[names[0]], names[0], args)
    print(f"load average at end: {_load()}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, default=list))
    return 0


if __name__ == "__main__":
    sys.exit(main())
