"""Robustness sweep: render every given log end to end at a tiny size and high pace.

    python -m datasets.sweep [LOG...]      (default: ../shared/data/logs/tenhou6/*.json + the bundled hanchan)

Prints one line per log (frames, keyframes, seconds) and a last line ``N of M rendered``; exit 1
if any log fails. Cameras rotate through the presets.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from datasets.synth.pipeline import SynthRequest, synthesize
from tracker.logs import load_log

REPO = Path(__file__).resolve().parents[1]
CAMERAS = ("overhead", "tilted", "low")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    logs = [Path(a) for a in args] or (
        sorted((REPO.parent / "shared" / "data" / "logs" / "tenhou6").glob("*.json"))
        + [REPO / "tracker" / "samples" / "jansou-mleague-hanchan.mjai.jsonl"]
    )
    ok = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(logs):
            start = time.perf_counter()
            request = SynthRequest(seed=i, camera=CAMERAS[i % 3], size=(256, 144), pace=20)
            try:
                truth = synthesize(load_log(path), [], request, Path(tmp) / str(i))
            except Exception as err:  # a sweep reports every failure and goes on
                print(f"{path.name}: FAILED {type(err).__name__}: {err}")
                continue
            ok += 1
            print(
                f"{path.name}: {truth['frames']} frames, {len(truth['keyframes'])} keyframes, "
                f"{time.perf_counter() - start:.1f} s ({request.camera})"
            )
    print(f"{ok} of {len(logs)} rendered")
    return 0 if ok == len(logs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
