"""``mjmon analyze VIDEO``, ``mjmon demo`` and ``mjmon calibrate SOURCE``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.lift_model import DEFAULT_LIFT_MODEL, add_lift_argument, add_pace_argument, lift_model_path
from vision.reader_options import BUNDLED_READER, ReaderChoice, add_reader_argument, reader_options

SAMPLE_CLIP = Path(__file__).resolve().parents[1] / "samples" / "demo-kyoku" / "video.mp4"


def _load_detector(
    model: str | None,
    reader: ReaderChoice = BUNDLED_READER,
    rules: str | None = None,
):
    """``reader``: the tile reader, its looks and the tile set's reference (``--reader`` /
    ``--no-reader``, ``--reader-turns``, ``--tiles-ref``); ``rules``: the ruleset whose tile set
    is on the table: faces it has none of are never read (``TableRules.absent_tiles``; None: any)."""
    from tracker.commands import CommandError
    from tracker.table.layout import RULES_BY_NAME
    from vision.detector import DEFAULT_MODEL, ModelError, TileDetector

    path = Path(model) if model else DEFAULT_MODEL
    try:
        absent = RULES_BY_NAME[rules].absent_tiles if rules else ()
        return TileDetector(path, threads=1, absent_classes=absent, **reader.detector_kwargs())
    except ModelError as err:
        if reader.reference is not None and (
            str(reader.reference) in str(err) or "features output" in str(err)
        ):
            hint = "pass another --tiles-ref FILE, or none"
        elif reader.path is not None and str(reader.path) in str(err):
            hint = "pass --no-reader"
        else:
            hint = "pass --model FILE"
        raise CommandError(f"{err} ({hint})") from None


def load_lift_model(path: Path | None):
    """The tsumogiri model at ``path`` (None: rules alone); a bad file fails in one line."""
    from tracker.commands import CommandError
    from tracker.lift_model import LiftModel, LiftModelError

    if path is None:
        return None
    try:
        return LiftModel(path)
    except LiftModelError as err:
        raise CommandError(f"{err} (pass --no-lift-model)") from None


def _calibration(video_path: str, calib: str | None):
    from tracker.commands import CommandError
    from vision.calibration import Calibration, CalibrationError, calibrate_video

    try:
        calibration = Calibration.load(calib) if calib else calibrate_video(video_path)
    except CalibrationError as err:
        raise CommandError(str(err)) from None
    warning = calibration.small_tiles_warning()
    if warning:
        print(f"mjmon: warning: {warning}", file=sys.stderr)
    return calibration


def run_analyze(
    video_path: str,
    out: str,
    rules: str,
    calib: str | None,
    model: str | None,
    detections_cache: str | None = None,
    reader: ReaderChoice = BUNDLED_READER,
    lift_model: Path | None = DEFAULT_LIFT_MODEL,
    pace: float = 1.0,
) -> int:
    from tracker.commands import CommandError
    from tracker.run import analyze_video, summary_text, write_outputs
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.video import VideoError, VideoSource

    try:
        video = VideoSource(video_path)
    except VideoError as err:
        raise CommandError(str(err)) from None
    out_dir = Path(out)
    _check_writable(out_dir)  # before the long work, not after it
    calibration = _calibration(video_path, calib)
    detector = _load_detector(model, reader, rules)
    lift = load_lift_model(lift_model)
    if detections_cache:
        from vision.detection_cache import CachedDetector, detector_identity

        detector = CachedDetector(detector, detections_cache, detector_identity(detector))
    tracker = TableTracker(calibration, detector, TrackerConfig(rules=rules, pace=pace), lift)
    try:
        result = analyze_video(video, tracker)
    finally:
        if detections_cache:
            _save_cache(detector)
    try:
        write_outputs(
            result,
            out_dir,
            rules,
            {"video": str(video_path), "rules": rules, "calibration": calibration.model_dump()},
        )
    except OSError as err:
        raise CommandError(f"cannot write the outputs in {out_dir}: {err}") from None
    _report_hook(out_dir, rules, str(video_path))
    print(summary_text(result, out_dir))
    if result.video_error:
        raise CommandError(result.video_error)
    return 0


def _check_writable(out_dir: Path) -> None:
    """The outputs can be written there: no file in the way of the output directory or its
    evidence folder, and the nearest existing folder writable. Checked before the analysis, so
    a bad ``--out`` fails in one line at once, not after the whole video (nothing is created)."""
    import os

    from tracker.commands import CommandError
    from tracker.run import EVIDENCE_DIR

    for folder in (out_dir, out_dir / EVIDENCE_DIR):
        if folder.exists() and not folder.is_dir():
            raise CommandError(f"cannot write the outputs: {folder} is a file, not a directory")
    existing = next((p for p in (out_dir, *out_dir.parents) if p.exists()), Path("."))
    if not existing.is_dir():
        raise CommandError(f"cannot write the outputs: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise CommandError(f"cannot write the outputs in {out_dir}: {existing} is not writable")


def _save_cache(detector) -> None:
    """Write the detections cache; a cache that cannot be written costs only the next run's time,
    so it is one line on stderr, never the analysis (whose outputs are written next)."""
    import sys

    try:
        detector.save()
    except OSError as err:
        print(f"mjmon: detections cache not saved: {err}", file=sys.stderr)


def _report_hook(out_dir: Path, rules: str, source: str) -> None:
    """report.html belongs to the report module (``tracker.report``); written when it is there."""
    import sys

    try:
        from tracker.report.html import report_from_outputs
    except ImportError:
        return
    try:
        report_from_outputs(out_dir, rules=rules, source=source)
    except Exception as err:  # the report is a by-product: the record is already written
        print(f"mjmon: report.html not written: {err}".splitlines()[0], file=sys.stderr)


def _cmd_analyze(args: argparse.Namespace) -> int:
    return run_analyze(
        args.video,
        args.out,
        args.rules,
        args.calib,
        args.model,
        args.detections_cache,
        reader_options(args),
        lift_model_path(args),
        args.pace,
    )


def sample_pace() -> float:
    """The sample clip's pace, as it was rendered (its ``synth.json``)."""
    import json

    return float(json.loads((SAMPLE_CLIP.parent / "synth.json").read_text())["request"]["pace"])


def _cmd_demo(args: argparse.Namespace) -> int:
    return run_analyze(
        str(SAMPLE_CLIP),
        args.out,
        "mleague",
        None,
        args.model,
        reader=reader_options(args),
        lift_model=lift_model_path(args),
        pace=sample_pace(),
    )


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from tracker.commands import CommandError
    from vision.calibration import EDGES, CalibrationError, calibrate_video

    try:
        calibration = calibrate_video(args.source, args.seconds)
    except CalibrationError as err:
        raise CommandError(str(err)) from None
    edge = None
    if args.find_dealer:
        edge = _first_discard_edge(
            args.source,
            calibration,
            args.model,
            args.scan_seconds,
            reader_options(args),
        )
        if edge is not None:
            calibration = calibration.model_copy(update={"seat0_edge": EDGES[edge]})
    calibration.save(args.out)
    warning = calibration.small_tiles_warning()
    if warning:
        print(f"mjmon: warning: {warning}", file=sys.stderr)
    where = (
        "the first discard's edge" if edge is not None else "undecided: the tracker takes the first discarder"
    )
    print(
        f"table found: corners {calibration.corners_px}, {calibration.px_per_mm():.3f} px/mm, "
        f"tile {calibration.tile_px():.1f} px; seat 0 edge: {calibration.seat0_edge or where}; "
        f"saved {args.out}"
    )
    return 0


def _first_discard_edge(
    source: str,
    calibration,
    model: str | None,
    seconds: float,
    reader: ReaderChoice = BUNDLED_READER,
) -> int | None:
    """Watch the start of the video until the first discard lands: its edge is seat 0's."""
    from tracker.tracker import TableTracker, TrackerConfig
    from vision.video import VideoSource

    config = TrackerConfig()
    tracker = TableTracker(calibration, _load_detector(model, reader, config.rules), config)
    video = VideoSource(source)
    limit = int(seconds * video.info.fps)
    for frame, t, image in video:
        tracker.process(image, frame, t)
        if tracker.seat0_edge is not None or frame >= limit:
            break
    video.close()
    return tracker.seat0_edge


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("analyze", help="offline analysis of a table video: game record, alerts")
    p.add_argument("video", help="video file (H.264 mp4, ...)")
    p.add_argument("--rules", choices=("mleague", "riichi", "mcr"), default="mleague")
    p.add_argument("--calib", help="calibration file from mjmon calibrate (default: find the table)")
    p.add_argument("--out", default="mjmon-analysis", help="output directory")
    p.add_argument("--model", help="tile model (default: models/tiles.onnx)")
    add_reader_argument(p)
    add_lift_argument(p)
    add_pace_argument(p)
    p.add_argument(
        "--detections-cache",
        metavar="FILE",
        help="keep the detector's outputs in FILE and reuse them on the next analysis of the same "
        "video (re-analysing after a tracker change skips the net)",
    )
    p.set_defaults(func=_cmd_analyze)

    p = subparsers.add_parser("demo", help="analyse the sample clip shipped with mjmon")
    p.add_argument("--out", default="mjmon-demo", help="output directory")
    p.add_argument("--model", help="tile model (default: models/tiles.onnx)")
    add_reader_argument(p)
    add_lift_argument(p)
    p.set_defaults(func=_cmd_demo)

    p = subparsers.add_parser("calibrate", help="find the table and seat edges in a video; save them")
    p.add_argument("source", help="video file")
    p.add_argument("--out", required=True, help="calibration JSON to write")
    p.add_argument("--seconds", type=float, default=2.0, help="seconds of video to find the table in")
    p.add_argument(
        "--find-dealer",
        action="store_true",
        help="also watch for the first discard (needs the tile model) to fix which edge is seat 0",
    )
    p.add_argument(
        "--scan-seconds", type=float, default=120.0, help="how long to watch for the first discard"
    )
    p.add_argument("--model", help="tile model (default: models/tiles.onnx)")
    add_reader_argument(p)
    p.set_defaults(func=_cmd_calibrate)
