"""Short training clips: one random kyoku each, random camera preset, frame size and art set.

The evaluation set (``tracker.evaluate_set``) draws its clips with the bundled default art and
seeds from 1000; these use the art sets given (procedural or shared, never the default) and seeds
from ``--seed`` (default 20000), so no evaluation clip's art or scene is seen in training::

    python -m datasets.train_clips --count 40 --out DIR --tileset SET... --log LOG... [--worker 0/2]

``--worker i/n`` renders every n-th clip starting at i, so n processes split one plan; a clip
already rendered (its truth.json exists) is skipped, so a cut-short run resumes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from datasets.synth.pipeline import SynthRequest, synthesize
from tracker.logs import LogError, load_log

CAMERAS = ("low", "low", "tilted", "overhead")  # the low camera is where faces are hardest to read
SIZES = ((1280, 720), (1280, 720), (960, 540))


def plan(count: int, tilesets: list[str], logs: list[str], seed: int) -> list[dict]:
    """``count`` clip requests, the same for the same arguments."""
    rng = np.random.default_rng(seed)
    kyoku_counts = [sum(e.type == "start_kyoku" for e in load_log(p)) for p in logs]
    out = []
    for n in range(count):
        li = int(rng.integers(len(logs)))
        k = int(rng.integers(kyoku_counts[li]))
        out.append(
            {
                "name": f"clip{n:03d}",
                "log": logs[li],
                "request": SynthRequest(
                    tileset=tilesets[int(rng.integers(len(tilesets)))],
                    seed=seed + n,
                    camera=CAMERAS[int(rng.integers(len(CAMERAS)))],
                    kyoku=(k, k),
                    size=SIZES[int(rng.integers(len(SIZES)))],
                    pace=6.0,  # arms move faster; keyframes (quiet moments) are the same
                ).model_dump(mode="json"),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.train_clips", description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--tileset", action="append", required=True)
    ap.add_argument("--log", action="append", required=True)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--worker", default="0/1", help="i/n: render clips i, i+n, i+2n, ...")
    args = ap.parse_args(argv)
    i, _, n = args.worker.partition("/")
    if not (i.isdigit() and n.isdigit() and int(i) < int(n)):
        ap.error(f"--worker {args.worker}: expected i/n with 0 <= i < n, e.g. 0/2")
    first, step = int(i), int(n)
    missing = [t for t in args.tileset if not Path(t).is_dir()]
    if missing:
        print(f"train_clips: no such tileset directory: {missing[0]}", file=sys.stderr)
        return 2
    try:
        clips = plan(args.count, args.tileset, args.log, args.seed)
    except LogError as err:
        print(f"train_clips: {err}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "plan.json").write_text(json.dumps(clips, indent=1))
    for clip in clips[first::step]:
        out = args.out / clip["name"]
        if (out / "truth.json").is_file():
            continue
        request = SynthRequest.model_validate(clip["request"])
        synthesize(load_log(clip["log"]), [], request, out)
        print(
            f"{clip['name']}: {request.camera} {request.size} {Path(request.tileset or '').name}", flush=True
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
