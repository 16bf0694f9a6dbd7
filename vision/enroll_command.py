"""``mjmon enroll [LABELLED...] [--tileset DIR] --out FILE``: a tile set's reference.

From labelled images of the set (LABELLED: a ``mjmon stills`` folder, a COCO ``.json`` or a YOLO
folder, ``models.data.load_any``), or from its face art (``--tileset DIR``: one picture a face,
named by code, as ``mjmon synth`` takes them, e.g. photographs of the venue's tiles), drawn on
rendered tables (``--stills N`` of them, as ``mjmon stills`` draws them). Pass the file to
``mjmon analyze --tiles-ref FILE``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from tracker.commands import CommandError
from vision.reader_options import DEFAULT_READER, READER_TURNS

PER_CLASS = 240  # reference tiles kept per face class (sharp and low-resolution looks together)
# each labelled image is enrolled again as a camera whose tiles are about this many px wide sees it:
# a low camera's blurred tiles then have alike reference tiles (models/README.md, "A tile set's
# reference": on rendered low-camera clips of a game no evaluation set plays, kinds read right
# 0.915 -> 0.933 with these copies and 240 tiles a class, against 60 sharp ones)
LOW_RES_PX = 17.0
STILLS = 300  # rendered tables for --tileset: about 100 face-up tiles of each face, of all sizes and turns


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "enroll",
        help="make a tile set's reference from labelled images or face art of it",
        description=__doc__.splitlines()[0].split(": ", 1)[1],
    )
    p.add_argument("labelled", nargs="*", type=Path, metavar="LABELLED")
    p.add_argument("--tileset", type=Path, metavar="DIR", help="the set's face art, drawn on rendered tables")
    p.add_argument(
        "--stills", type=int, default=STILLS, help=f"tables rendered with --tileset (default {STILLS})"
    )
    p.add_argument("--out", required=True, type=Path, metavar="FILE")
    p.add_argument(
        "--per-class", type=int, default=PER_CLASS, help=f"tiles kept a class (default {PER_CLASS})"
    )
    p.add_argument(
        "--low-res-px",
        type=float,
        default=LOW_RES_PX,
        metavar="PX",
        help=f"also enrol each image as seen with tiles about PX px wide (default {LOW_RES_PX:g}; 0: not)",
    )
    p.add_argument("--seed", type=int, default=0, help="the rendered tables, and which tiles are kept")
    p.add_argument("--reader", type=Path, default=DEFAULT_READER, help="tile reader model (default: bundled)")
    p.add_argument("--reader-turns", type=int, choices=(1, 2, 4), default=READER_TURNS)
    p.set_defaults(func=run)


def load_labelled(specs: list[Path]) -> list:
    """The labelled images (``models.data.Sample``) of every spec; CommandError naming a bad one."""
    from models.data import load_any

    samples = []
    for spec in specs:
        try:
            samples += load_any(spec)
        except (OSError, ValueError, KeyError) as err:
            raise CommandError(f"{spec}: cannot read labels: {err}") from None
    return samples


def labelled_tiles(samples: list) -> Iterator[tuple]:
    """(image, boxes (N, 4), class ids (N,)) of each labelled image's face-up tiles."""
    import numpy as np

    from tracker.tiles import BACK, STANDING, class_id

    for sample in samples:
        # (a face-down class marked face up by a label file is no face)
        up = sample.face_up & ~np.isin(sample.classes, [class_id(BACK), class_id(STANDING)])
        if up.any():
            try:
                image = sample.load_image()
            except OSError as err:
                raise CommandError(str(err)) from None
            yield image, sample.boxes[up], sample.classes[up]


def rendered_tiles(tileset: Path, count: int, seed: int) -> Iterator[tuple]:
    """(image, boxes, class ids) of the face-up tiles on ``count`` tables drawn with ``tileset``."""
    import numpy as np

    from datasets.stills import StillMaker
    from datasets.tileset import TilesetError, load_tileset
    from tracker.logs import load_log
    from tracker.tiles import class_id

    sample = Path(__file__).resolve().parents[1] / "tracker" / "samples" / "jansou-mleague-hanchan.mjai.jsonl"
    try:  # (now, not when the first table is asked for: a bad art folder is one line)
        maker = StillMaker([load_log(sample)], [load_tileset(tileset)], seed=seed)
    except (TilesetError, ValueError) as err:
        raise CommandError(str(err)) from None

    def tables() -> Iterator[tuple]:
        for _ in range(count):
            image, labels = maker.make()
            up = [t for t in labels if t["face_up"]]
            if up:
                boxes = np.array([t["box"] for t in up], np.float32)
                yield image, boxes, np.array([class_id(t["code"]) for t in up], np.int64)

    return tables()


def seen_small(image, boxes, tile_px: float, rng):
    """``image`` as a camera whose tiles are about ``tile_px`` wide (x0.8-1.2) would see it: shrunk
    (never enlarged), blurred, JPEG-compressed (quality 50) and scaled back to its own size, so
    ``boxes`` still lie on their tiles."""
    import cv2
    import numpy as np

    h, w = image.shape[:2]
    width = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    scale = min(1.0, tile_px * rng.uniform(0.8, 1.2) / max(width, 1.0))
    small = cv2.resize(
        image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA
    )
    small = cv2.GaussianBlur(small, (0, 0), 0.8)
    small = cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 50])[1], cv2.IMREAD_COLOR)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def run(args: argparse.Namespace) -> int:
    import numpy as np
    from tqdm import tqdm

    from vision.detection_cache import file_md5
    from vision.detector import ModelError
    from vision.reader import TileReader
    from vision.tile_reference import TileReference, choose, unit_rows

    if not args.labelled and args.tileset is None:
        raise CommandError("enroll needs labelled images (LABELLED...) or the set's face art (--tileset DIR)")
    if args.per_class < 1 or args.stills < 1:
        raise CommandError(
            f"--per-class and --stills must be at least 1, got {args.per_class}, {args.stills}"
        )
    if args.low_res_px < 0:
        raise CommandError(f"--low-res-px must be 0 (off) or a tile width in px, got {args.low_res_px:g}")
    try:
        reader = TileReader(args.reader, turns=args.reader_turns)
    except ModelError as err:
        raise CommandError(str(err)) from None
    if not reader.has_features:
        raise CommandError(f"{args.reader} has no features output: python -m models.reader_features IN OUT")
    samples = load_labelled(args.labelled)  # (before any progress bar: a bad file is one line)
    sources = [(labelled_tiles(samples), len(samples))] if samples else []
    if args.tileset is not None:
        sources.append((rendered_tiles(args.tileset, args.stills, args.seed), args.stills))
    features, classes, images = [], [], 0
    rng = np.random.default_rng(args.seed)
    for source, total in sources:
        for image, boxes, ids in tqdm(source, total=total, desc="enroll", unit="image", file=sys.stderr):
            looks = [image] + ([seen_small(image, boxes, args.low_res_px, rng)] if args.low_res_px else [])
            for look in looks:
                features.append(reader.read_full(look, boxes).features)
                classes.append(ids)
            images += 1
    if not features:
        named = [*map(str, args.labelled), *([str(args.tileset)] if args.tileset else [])]
        raise CommandError("no face-up labelled tiles in " + ", ".join(named))
    features, classes = np.concatenate(features), np.concatenate(classes).astype(np.int64)
    keep = choose(classes, args.per_class, rng)
    reference = TileReference(
        unit_rows(features[keep]), classes[keep], file_md5(args.reader), args.reader_turns
    )
    try:
        reference.save(args.out)
    except OSError as err:
        raise CommandError(f"cannot write {args.out}: {err.strerror or err}") from None
    missing = reference.missing()
    print(
        f"{len(keep)} reference tiles of {len(reference.classes)} faces from {images} image(s)"
        f" -> {args.out}"
        + (f"; no tile of {', '.join(missing)}: never read with this reference" if missing else "")
    )
    return 0
