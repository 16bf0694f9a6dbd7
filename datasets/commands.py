"""``mjmon synth``: render a game log as a table video with ground truth."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, got {text!r}") from None
    if not (64 <= w <= 7680 and 64 <= h <= 4320) or w % 2 or h % 2:
        raise argparse.ArgumentTypeError(f"size {text!r}: even width and height between 64 and 7680x4320")
    return w, h


def _parse_range(text: str) -> tuple[int, int]:
    try:
        if "-" in text:
            a, b = (int(v) for v in text.split("-"))
        else:
            a = b = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"kyoku range must look like 0-2 or 3, got {text!r}") from None
    if a < 0 or b < a:
        raise argparse.ArgumentTypeError(f"kyoku range {text!r} is empty")
    return a, b


def _cmd_synth(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from datasets.synth.faults import FaultError, load_faults
    from datasets.synth.pipeline import SynthRequest, prepare, write_spec
    from datasets.tileset import TilesetError
    from tracker.commands import CommandError
    from tracker.logs import load_log

    events = load_log(args.log)
    try:
        faults = load_faults(args.faults) if args.faults else []
        request = SynthRequest(
            tileset=args.tileset,
            seed=args.seed,
            camera=args.camera,
            kyoku=args.kyoku,
            fps=args.fps,
            size=args.size,
            pace=args.pace,
            rules=args.rules,
        )
        renderer = prepare(events, faults, request)
        with tqdm(
            total=renderer.total_frames,
            unit="frame",
            desc="synth",
            file=sys.stderr,
            dynamic_ncols=True,
            mininterval=0.5,
        ) as bar:

            def progress(n: int) -> None:
                bar.update(n)

            truth = renderer.render(args.out, progress)
        write_spec(args.out, faults, request, log=args.log)
    except (FaultError, TilesetError, ValueError) as err:
        raise CommandError(str(err)) from None
    print(
        f"wrote {args.out}/video.mp4 ({truth['frames']} frames, {truth['width']}x{truth['height']} at "
        f"{truth['fps']:g} fps) and truth.json ({len(truth['events'])} events, {len(truth['alerts'])} staged "
        f"alerts, {len(truth['keyframes'])} keyframes)"
    )
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="render a game log as an overhead table video with exact ground truth")
    p.add_argument("log", help="mjai JSONL or tenhou.net/6 JSON")
    p.add_argument("--tileset", help="directory of face PNGs named by tile code (default: the bundled set)")
    p.add_argument("--faults", help="JSON list of irregularities to stage (DESIGN.md faults file)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--camera", choices=("overhead", "tilted", "low"), default="tilted")
    p.add_argument("--kyoku", type=_parse_range, help="only these kyoku, e.g. 0-1 (0-based)")
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--size", type=_parse_size, help="WxH, overriding the camera preset's")
    p.add_argument("--pace", type=float, default=1.0, help="speed the play up (2 = twice as fast)")
    p.add_argument("--rules", choices=("mleague", "riichi", "mcr"), default="mleague")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_cmd_synth)
    register_stills(sub)


def _cmd_stills(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from datasets.stills import StillMaker, write_coco
    from datasets.tileset import TilesetError, load_tileset
    from tracker.commands import CommandError
    from tracker.logs import load_log

    sample = Path(__file__).resolve().parents[1] / "tracker" / "samples" / "jansou-mleague-hanchan.mjai.jsonl"
    games = [load_log(p) for p in (args.log or [sample])]
    try:
        tilesets = [load_tileset(d) for d in (args.tileset or [None])]
        maker = StillMaker(games, tilesets, size=args.size, seed=args.seed)
    except (TilesetError, ValueError) as err:
        raise CommandError(str(err)) from None
    with tqdm(total=args.count, unit="still", desc="stills", file=sys.stderr, mininterval=0.5) as bar:
        coco = write_coco(maker, args.count, args.out, bar.update)
    print(
        f"wrote {args.count} stills and {len(coco['annotations'])} labelled tiles "
        f"to {args.out}/annotations.json"
    )
    return 0


def register_stills(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stills", help="render labelled training stills for the tile detector (COCO json)")
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument(
        "--tileset", action="append", help="face art directory; repeat for several (default: bundled)"
    )
    p.add_argument("--log", action="append", help="game log(s) to take table moments from (default: bundled)")
    p.add_argument("--size", type=int, default=640)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=_cmd_stills)
