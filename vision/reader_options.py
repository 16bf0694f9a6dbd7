"""Which tile reader a command uses: the bundled one, a named file, or none (no heavy imports here:
the CLI registers these options at start-up)."""

from __future__ import annotations

from pathlib import Path

DEFAULT_READER = Path(__file__).resolve().parents[1] / "models" / "reader.onnx"
# looks the reader takes at each tile, turned by quarter turns (``vision.reader.TileReader``)
READER_TURNS = 2


def add_reader_argument(parser) -> None:
    """``--reader PATH`` / ``--no-reader`` for the commands and scripts that build a TileDetector."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--reader", type=Path, help="tile reader model (default: models/reader.onnx if present)"
    )
    group.add_argument("--no-reader", action="store_true", help="classes from the detector net alone")
    parser.add_argument(
        "--reader-turns",
        type=int,
        choices=(1, 2, 4),
        default=READER_TURNS,
        help=f"looks the reader takes at each tile, turned by quarter turns (default {READER_TURNS})",
    )
    parser.add_argument(
        "--tiles-ref",
        type=Path,
        metavar="FILE",
        help="the tile set's reference from mjmon enroll: tiles are read by likeness to it too",
    )


def reader_kwargs(args) -> dict:
    """TileDetector's ``reader_path``, ``reader_turns`` and ``reference_path`` from parsed
    ``add_reader_argument`` options."""
    return {
        "reader_path": reader_choice(args),
        "reader_turns": args.reader_turns,
        "reference_path": args.tiles_ref,
    }


def reader_reference(args) -> Path | None:
    """The ``reference_path`` for TileDetector from parsed ``add_reader_argument`` options."""
    return args.tiles_ref


def reader_choice(args) -> Path | None:
    """The ``reader_path`` for TileDetector from parsed ``add_reader_argument`` options."""
    return None if args.no_reader else (args.reader or DEFAULT_READER)


def reader_turns(args) -> int:
    """The ``reader_turns`` for TileDetector from parsed ``add_reader_argument`` options."""
    return args.reader_turns
