"""Gather the lift model's training rows from rendered clips: every discard the tracker judged, its
lift features (``tracker.lift_model.lift_features``) and the truth's tsumogiri flag.

    python -m models.lift_data SETDIR [SETDIR ...] --out lift.npz [--jobs 2] [--tiles-ref FILE]

SETDIR is a clip set made by ``python -m tracker.evaluate_set render`` (clips/NAME/video.mp4 and
truth.json). Each clip is analysed with the bundled tile model; its detections are kept in
SETDIR/detections/<model key>/NAME.npz, the cache ``evaluate_set score --cache-detections``
uses, so either reuses the other's. A discard is labelled by the truth's discard of the same
seat seen last within ``MATCH_FRAMES`` before it was judged; one with none is left out.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

MATCH_FRAMES = 30  # a discard is judged a few reads after it lands (7-20 frames on the sets)


def clip_rows(
    clip: Path, cache: Path | None, reference: Path | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features (n, F), tsumogiri (n,) bool, the rules' tsumogiri (n,) bool) of one clip's discards."""
    from tracker.commands.analyze import _calibration, _load_detector
    from tracker.evaluate import clip_pace, truth_seat_at
    from tracker.lift_model import FEATURES
    from tracker.run import analyze_video
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.detection_cache import CachedDetector, detector_identity
    from vision.reader_options import BUNDLED_READER, ReaderChoice
    from vision.video import VideoSource

    reader = ReaderChoice(BUNDLED_READER.path, BUNDLED_READER.turns, reference)
    detector = _load_detector(None, reader, "mleague")
    if cache is not None:
        detector = CachedDetector(detector, cache, detector_identity(detector))
    video = clip / "video.mp4"
    config = TrackerConfig(pace=clip_pace(clip))  # (the model's frames: 0.1 s of play apart)
    tracker = TableTracker(_calibration(str(video), None), detector, config)
    tracker.lift_log = []
    try:
        analyze_video(VideoSource(str(video)), tracker, progress=False)
    finally:
        if cache is not None:
            detector.save()
    truth = json.loads((clip / "truth.json").read_text())
    discards = sorted(
        (i["frame"], i["event"]["actor"], bool(i["event"]["tsumogiri"]))
        for i in truth["events"]
        if i["event"]["type"] == "dahai"
    )
    feats, labels, rules = [], [], []
    for frame, edge, features, by_rules in tracker.lift_log:
        seat = truth_seat_at(truth, edge)  # (the truth's seat there, not the tracker's guess of seat 0)
        seen = [tsumogiri for f, a, tsumogiri in discards if a == seat and 0 <= frame - f <= MATCH_FRAMES]
        if not seen:
            continue
        feats.append(features)
        labels.append(seen[-1])
        rules.append(by_rules)
    return np.array(feats, np.float32).reshape(-1, FEATURES), np.array(labels, bool), np.array(rules, bool)


def _one(job: tuple[Path, Path | None, Path | None]):
    """(clip, rows or None, why not): a clip that cannot be read is skipped, not the run."""
    from tracker.commands import CommandError
    from vision.video import VideoError

    clip, cache, reference = job
    try:
        return clip, clip_rows(clip, cache, reference), None
    except (CommandError, VideoError, OSError, ValueError, KeyError) as err:
        return clip, None, f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"


def main(argv: list[str] | None = None) -> int:
    from tracker.evaluate_set import analysis_key
    from vision.detector import DEFAULT_MODEL
    from vision.reader_options import BUNDLED_READER, ReaderChoice

    p = argparse.ArgumentParser(prog="python -m models.lift_data", description=__doc__.split("\n\n")[0])
    p.add_argument("setdirs", nargs="+", type=Path)
    p.add_argument(
        "--out", type=Path, required=True, help="npz to write (features, tsumogiri, rules, clip, camera)"
    )
    p.add_argument("--jobs", type=int, default=1, help="clips analysed at once")
    p.add_argument("--tiles-ref", type=Path, help="the tile set's reference (mjmon enroll), as the scorer's")
    p.add_argument("--no-cache", action="store_true", help="keep no detections cache")
    args = p.parse_args(argv)
    reader = ReaderChoice(BUNDLED_READER.path, BUNDLED_READER.turns, args.tiles_ref)
    plans = [setdir / "plan.json" for setdir in args.setdirs]
    for plan in plans:
        if not plan.is_file():
            print(f"lift_data: {plan.parent}: no plan.json (not a clip set)", file=sys.stderr)
            return 2
    problem = _cannot_run(args.out, reader)
    if problem:
        print(f"lift_data: {problem}", file=sys.stderr)
        return 2
    jobs, cameras = [], {}
    for setdir, plan in zip(args.setdirs, plans, strict=True):
        key = analysis_key(DEFAULT_MODEL, False, reader)
        for spec in json.loads(plan.read_text())["clips"]:
            clip = setdir / "clips" / spec["name"]
            if not (clip / "video.mp4").is_file() or not (clip / "truth.json").is_file():
                continue
            cache = None if args.no_cache else setdir / "detections" / key / f"{spec['name']}.npz"
            if cache is not None:
                cache.parent.mkdir(parents=True, exist_ok=True)
            jobs.append((clip, cache, args.tiles_ref))
            cameras[clip] = spec["camera"]
    if not jobs:
        print("lift_data: no rendered clips in the sets given", file=sys.stderr)
        return 2
    feats, labels, rules, names, cams = [], [], [], [], []
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for done, (clip, rows, why) in enumerate(pool.map(_one, jobs), 1):
            if rows is None:
                print(f"lift_data: {clip}: skipped ({why})", file=sys.stderr, flush=True)
                continue
            x, y, r = rows
            feats.append(x)
            labels.append(y)
            rules.append(r)
            names += [f"{clip.parent.parent.name}/{clip.name}"] * len(y)
            cams += [cameras[clip]] * len(y)
            print(
                f"[{done}/{len(jobs)}] {clip.name}: {len(y)} discards, {int(y.sum())} tsumogiri", flush=True
            )
    if not feats:
        print("lift_data: no clip could be read", file=sys.stderr)
        return 2
    x = np.concatenate(feats)
    np.savez_compressed(
        args.out,
        features=x,
        tsumogiri=np.concatenate(labels),
        rules=np.concatenate(rules),
        clip=np.array(names),
        camera=np.array(cams),
    )
    print(f"wrote {args.out}: {len(x)} discards from {len(feats)} clips")
    return 0


def _cannot_run(out: Path, reader) -> str | None:
    """Why the run would fail only at its end or in every clip (None: it can run): the output
    cannot be written, or the tile model does not load."""
    from tracker.commands import CommandError
    from tracker.commands.analyze import _load_detector

    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.is_dir() or not os.access(out.parent, os.W_OK):
            return f"cannot write {out}"
        _load_detector(None, reader, "mleague")
    except CommandError as err:
        return str(err)
    except OSError as err:
        return f"cannot write {out}: {err.strerror}"
    return None


if __name__ == "__main__":
    sys.exit(main())
