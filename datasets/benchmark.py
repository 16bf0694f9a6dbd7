"""Render speed: frames per second of ``mjmon synth`` (scene, camera, H.264) on this machine.

    python -m datasets.benchmark [--camera tilted] [--kyoku 1] [--pace 1] [--frames N]

Prints one JSON line; the figures go to docs/BENCHMARKS.md. Wall-clock time of the whole render
loop including encoding, after setup (felt, lens maps), which is reported separately.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from datasets.synth.pipeline import SynthRequest, prepare
from tracker.logs import load_log

SAMPLE = Path(__file__).resolve().parents[1] / "tracker" / "samples" / "jansou-mleague-hanchan.mjai.jsonl"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", default=str(SAMPLE))
    parser.add_argument("--camera", default="tilted")
    parser.add_argument("--kyoku", type=int, default=1)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--tileset")
    args = parser.parse_args(argv)
    events = load_log(args.log)
    t0 = time.perf_counter()
    renderer = prepare(
        events,
        [],
        SynthRequest(
            camera=args.camera, kyoku=(args.kyoku, args.kyoku), pace=args.pace, tileset=args.tileset
        ),
    )
    setup = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        t1 = time.perf_counter()
        truth = renderer.render(tmp)
        seconds = time.perf_counter() - t1
        size = (Path(tmp) / "video.mp4").stat().st_size
    result = {
        "camera": args.camera,
        "size": f"{truth['width']}x{truth['height']}",
        "frames": truth["frames"],
        "video_seconds": round(truth["frames"] / truth["fps"], 1),
        "render_seconds": round(seconds, 1),
        "fps": round(truth["frames"] / seconds, 1),
        "setup_seconds": round(setup, 2),
        "mb": round(size / 1e6, 2),
        "load1": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
