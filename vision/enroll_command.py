"""``mjmon enroll LABELLED... --out FILE``: a tile set's reference, from labelled images of it.

LABELLED is a ``mjmon stills`` folder, a COCO ``.json`` or a YOLO folder (``models.data.load_any``):
photos of the venue's tiles with their boxes and codes, or stills rendered with its face art
(``mjmon stills --tileset DIR``). Pass the file to ``mjmon analyze --tiles-ref FILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.commands import CommandError
from vision.reader_options import DEFAULT_READER, READER_TURNS

PER_CLASS = 60  # reference tiles kept per face class


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "enroll",
        help="make a tile set's reference from labelled images of it",
        description=__doc__.splitlines()[0].split(": ", 1)[1],
    )
    p.add_argument("labelled", nargs="+", type=Path, metavar="LABELLED")
    p.add_argument("--out", required=True, type=Path, metavar="FILE")
    p.add_argument(
        "--per-class", type=int, default=PER_CLASS, help=f"tiles kept a class (default {PER_CLASS})"
    )
    p.add_argument("--seed", type=int, default=0, help="which tiles are kept where a class has more")
    p.add_argument("--reader", type=Path, default=DEFAULT_READER, help="tile reader model (default: bundled)")
    p.add_argument("--reader-turns", type=int, choices=(1, 2, 4), default=READER_TURNS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import numpy as np
    from tqdm import tqdm

    from models.data import load_any
    from tracker.tiles import BACK, STANDING, class_id
    from vision.detection_cache import file_md5
    from vision.detector import ModelError
    from vision.reader import TileReader
    from vision.tile_reference import TileReference, choose, unit_rows

    if args.per_class < 1:
        raise CommandError(f"--per-class must be at least 1, got {args.per_class}")
    try:
        reader = TileReader(args.reader, turns=args.reader_turns)
    except ModelError as err:
        raise CommandError(str(err)) from None
    if not reader.has_features:
        raise CommandError(f"{args.reader} has no features output: python -m models.reader_features IN OUT")
    samples = []
    for spec in args.labelled:
        try:
            samples += load_any(spec)
        except (OSError, ValueError, KeyError) as err:
            raise CommandError(f"{spec}: cannot read labels: {err}") from None
    features, classes = [], []
    for sample in tqdm(samples, desc="enroll", unit="image", file=sys.stderr):
        up = sample.face_up & ~np.isin(sample.classes, [class_id(BACK), class_id(STANDING)])
        if not up.any():
            continue
        try:
            image = sample.load_image()
        except OSError as err:
            raise CommandError(str(err)) from None
        reading = reader.read_full(image, sample.boxes[up])
        features.append(reading.features)
        classes.append(sample.classes[up])
    if not features:
        raise CommandError("no face-up labelled tiles in " + ", ".join(map(str, args.labelled)))
    features, classes = np.concatenate(features), np.concatenate(classes).astype(np.int64)
    keep = choose(classes, args.per_class, np.random.default_rng(args.seed))
    reference = TileReference(
        unit_rows(features[keep]), classes[keep], file_md5(args.reader), args.reader_turns
    )
    try:
        reference.save(args.out)
    except OSError as err:
        raise CommandError(f"cannot write {args.out}: {err.strerror or err}") from None
    missing = reference.missing()
    print(
        f"{len(keep)} reference tiles of {len(reference.classes)} faces from {len(samples)} image(s)"
        f" -> {args.out}"
        + (f"; no tile of {', '.join(missing)}: never read with this reference" if missing else "")
    )
    return 0
