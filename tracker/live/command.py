"""``mjmon live SOURCE``: the live monitor (overlay, referee feed, alert store)."""

from __future__ import annotations

import argparse
import os
import sys

from tracker.lift_model import add_lift_argument, add_pace_argument
from vision.reader_options import add_reader_argument

TOKEN_ENV = "MJMON_LIVE_TOKEN"


def analyzer_factory(args: argparse.Namespace):
    """The analyzer the CLI picks: a truth replay when asked, else the camera tracker."""
    from rules_check.ruleset import ruleset_by_name
    from tracker.commands import CommandError

    if args.replay:
        ruleset = ruleset_by_name(args.rules)
        from tracker.live.replay import TruthReplayAnalyzer

        try:
            import json
            from pathlib import Path

            truth = json.loads(Path(args.replay).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise CommandError(f"{args.replay}: cannot read the truth file ({err})") from None
        if "events" not in truth:
            raise CommandError(f"{args.replay}: not a truth.json (no events)")
        return lambda: TruthReplayAnalyzer(truth, ruleset)
    return _tracker_factory(args)


def _tracker_factory(args: argparse.Namespace):
    """The camera tracker (issue 5) with the tile model and a calibration, both loaded here so a
    missing model or an uncalibrated view fails before the server starts."""
    from pathlib import Path

    from tracker.commands import CommandError
    from tracker.commands.analyze import _calibration, _load_detector, load_lift_model
    from tracker.lift_model import lift_model_path
    from tracker.tracker import TableTracker, TrackerConfig

    if args.calib is None and not Path(args.source).is_file():
        raise CommandError(
            f"{args.source}: a live source needs a saved calibration: mjmon calibrate {args.source} "
            "--out table.json, then --calib table.json"
        )
    from vision.reader_options import reader_options

    detector = _load_detector(args.model, reader_options(args), args.rules)
    calibration = _calibration(args.source, args.calib)
    config = TrackerConfig(rules=args.rules, pace=args.pace)
    lift = load_lift_model(lift_model_path(args))
    return lambda: TableTracker(calibration, detector, config, lift)


def _cmd_live(args: argparse.Namespace) -> int:
    from tracker.commands import CommandError
    from tracker.live.server import LiveConfig, LiveMonitor

    if args.host not in ("127.0.0.1", "localhost", "::1") and not args.allow_remote:
        raise CommandError(f"--host {args.host} exposes the monitor beyond this machine: add --allow-remote")
    factory = analyzer_factory(args)
    config = LiveConfig(
        source=args.source,
        db=args.db,
        host=args.host,
        port=args.port,
        token=args.token or os.environ.get(TOKEN_ENV) or None,
        table=args.table,
        speed=args.speed,
        session=args.session,
    )
    try:
        monitor = LiveMonitor(config, factory)
    except OSError as err:
        raise CommandError(str(err)) from None
    base = f"http://{args.host}:{args.port}"

    def banner() -> None:
        print(f"mjmon live: {args.source} -> alerts in {args.db}", flush=True)
        print(f"  overlay  {base}/overlay", flush=True)
        print(f"  referee  {base}/referee", flush=True)
        print(f"  token    {monitor.token}   (needed to acknowledge or dismiss alerts)", flush=True)

    try:
        monitor.serve(on_ready=banner)
    except OSError as err:
        raise CommandError(f"cannot serve on {args.host}:{args.port}: {err}") from None
    if monitor.pipeline.error is not None:
        print(f"mjmon live: the analysis stopped: {monitor.pipeline.error}", file=sys.stderr)
        return 1
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("live", help="live monitor: broadcast overlay, referee alert feed, alert store")
    p.add_argument("source", help="a video file (played at its frame rate), a camera index, or a stream URL")
    p.add_argument("--rules", choices=("mleague", "riichi", "mcr"), default="mleague")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--db", default="mjmon-live.sqlite", help="SQLite alert store (kept across restarts)")
    p.add_argument(
        "--replay", metavar="TRUTH", help="play this truth.json in step with the video (rehearsal)"
    )
    p.add_argument("--calib", help="saved calibration (mjmon calibrate); default: found in a video file")
    p.add_argument("--model", help="tile model (default: models/tiles.onnx)")
    add_reader_argument(p)
    add_lift_argument(p)
    add_pace_argument(p)
    p.add_argument("--token", help=f"token for acknowledging alerts (default: ${TOKEN_ENV} or a random one)")
    p.add_argument("--table", default="1", help="table name shown with each alert")
    p.add_argument("--speed", type=float, default=1.0, help="play a video file this many times real time")
    p.add_argument("--session", help="prefix of alert ids (default: the start time)")
    p.add_argument("--allow-remote", action="store_true", help="allow a --host other than loopback")
    p.set_defaults(func=_cmd_live)
