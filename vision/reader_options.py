"""Which tile reader a command uses: the bundled one, a named file, or none (no heavy imports here:
the CLI registers these options at start-up)."""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class ReaderChoice:
    """The tile reader a detector takes a second look with: its file (None: the net's classes
    alone), its looks at each tile, and the tile set's reference file (``vision.tile_reference``;
    None: none). The commands pass this one object down to where the TileDetector is made."""

    path: Path | None = DEFAULT_READER
    turns: int = READER_TURNS
    reference: Path | None = None

    def detector_kwargs(self) -> dict:
        """TileDetector's ``reader_path``, ``reader_turns`` and ``reference_path``."""
        return {"reader_path": self.path, "reader_turns": self.turns, "reference_path": self.reference}

    def cli_args(self) -> list[str]:
        """The ``add_reader_argument`` options that choose this, for a child ``mjmon`` process run in
        another directory (paths made absolute; the bundled reader is not named)."""
        out = ["--no-reader"] if self.path is None else []
        if self.path is not None and self.path != DEFAULT_READER:
            out += ["--reader", str(self.path.resolve())]
        out += ["--reader-turns", str(self.turns)]
        if self.reference is not None:
            out += ["--tiles-ref", str(self.reference.resolve())]
        return out


# the bundled reader, its default looks, no tile set reference
BUNDLED_READER = ReaderChoice()


def reader_options(args) -> ReaderChoice:
    """The ReaderChoice of parsed ``add_reader_argument`` options."""
    return ReaderChoice(
        None if args.no_reader else (args.reader or DEFAULT_READER), args.reader_turns, args.tiles_ref
    )
