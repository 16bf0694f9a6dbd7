"""Tile metrics on rendered frames: ``mjmon synth`` output (``video.mp4`` + ``truth.json``) or COCO stills.

    python -m models.evaluate_rendered DIR_OR_COCO_JSON... [--frames 20] [--model M] [--json OUT]

For a synth directory, ``--frames`` keyframes spread over each clip are decoded and compared with
their ``tiles`` (angles rounded to the nearest 90 degrees). ``--tile-px`` is each frame's median
true box width, as for photos. Figures (issue 4's rendered-frame acceptance):
correct recall / precision (IoU >= 0.5, same code), red five vs five (matched true fives whose
prediction has the same red flag), orientation accuracy on matched tiles (all, and face-up tiles only:
a plain back looks the same turned 180 degrees), the same counting 0 vs 180 degrees right where the
tile looks the same turned (``_visible``: backs, standing tiles and the art's point-symmetric faces),
back and standing recall.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from datasets.clip_stills import synth_keyframes
from models.data import load_coco
from models.metrics import Counts, count_image, greedy_match, iou_matrix
from tracker.figures import emit_figures
from tracker.tiles import BACK, MODEL_CLASSES, RED_FIVES, STANDING, deaka
from vision.reader_options import add_reader_argument, reader_options


def frames_from_synth(folder: Path, count: int):
    """Yield (image, codes (N,), boxes (N, 4), angles (N,), alike turned half (N,)) for ``count``
    keyframes of a synth clip (``half_turn_alike`` with the art it was drawn with, when that
    folder is still there)."""
    alike = _half_turn_alike_codes(_synth_tileset(folder))
    for frame, tiles in synth_keyframes(folder, picks=count):
        codes = np.asarray([t["code"] for t in tiles], dtype=object)
        boxes = np.asarray([t["box"] for t in tiles], np.float32).reshape(-1, 4)
        angles = (np.round(np.asarray([t["angle"] for t in tiles], float) / 90).astype(int) % 4) * 90
        yield frame, codes, boxes, angles, np.isin(codes, alike)


def frames_from_coco(path: Path, count: int):
    codes = np.asarray(MODEL_CLASSES, dtype=object)
    alike = _half_turn_alike_codes(None)
    for s in load_coco(path)[:count]:
        yield s.load_image(), codes[s.classes], s.boxes, s.angles, np.isin(codes[s.classes], alike)


def _synth_tileset(folder: Path):
    """The tile set a synth clip was drawn with (``synth.json``'s request: the bundled art wherever
    this checkout keeps it), or None, said on stderr, when that art is not here."""
    from datasets.tileset import DEFAULT_TILESET, TilesetError, load_tileset

    try:
        art = Path(json.loads((folder / "synth.json").read_text())["request"]["tileset"])
    except (OSError, KeyError, TypeError, ValueError):
        art = None
    if art is not None and not art.is_dir() and art.parts[-3:] == DEFAULT_TILESET.parts[-3:]:
        art = DEFAULT_TILESET  # (a clip rendered in another checkout names its path)
    try:
        return load_tileset(art) if art is not None else None
    except TilesetError:
        pass
    print(
        f"evaluate_rendered: {folder}: its tile art ({art or 'not in synth.json'}) is not here; orientation"
        " as it can be seen takes only backs and standing tiles as alike turned",
        file=sys.stderr,
    )
    return None


def _half_turn_alike_codes(tileset) -> list[str]:
    """Codes whose look is the same turned 180 degrees: a back and a standing tile's (plain), and
    the point-symmetric faces of ``tileset`` (``Tileset.alike_turned_half``; none when None)."""
    faces = [c for c in tileset.faces if tileset.alike_turned_half(c)] if tileset is not None else []
    return [BACK, STANDING, *faces]


def evaluate(frames, detector) -> dict:
    total = Counts()
    fives = fives_right = oriented = oriented_right = 0
    face_up_oriented = face_up_oriented_right = 0
    visible_right = face_up_visible_right = 0
    facedown = {BACK: [0, 0], STANDING: [0, 0]}
    confusions: Counter = Counter()
    matched: Counter = Counter()  # per true code, on matched tiles: seen, and read right
    right: Counter = Counter()
    for image, codes, boxes, angles, alike in frames:
        tile_px = float(np.median(boxes[:, 2] - boxes[:, 0])) if len(boxes) else 32.0
        found = detector.detect(image, tile_px)
        total.add(count_image(boxes, codes, found.boxes, found.codes))
        if not len(found) or not len(boxes):
            for code in facedown:
                facedown[code][1] += int((codes == code).sum())
            continue
        pairs = greedy_match(iou_matrix(boxes, found.boxes), np.ones((len(boxes), len(found)), bool))
        t, d = pairs[:, 0], pairs[:, 1]
        true_codes, got = codes[t], found.codes[d]
        wrong = true_codes != got
        confusions.update(f"{a}->{b}" for a, b in zip(true_codes[wrong], got[wrong], strict=True))
        matched.update(true_codes.tolist())
        right.update(true_codes[~wrong].tolist())
        is_five = np.isin([deaka(c) if c in RED_FIVES else c for c in true_codes], ["5m", "5p", "5s"])
        fives += int(is_five.sum())
        fives_right += int((np.isin(true_codes, RED_FIVES) == np.isin(got, RED_FIVES))[is_five].sum())
        known = angles[t] >= 0
        oriented += int(known.sum())
        oriented_right += int((angles[t] == found.angles[d])[known].sum())
        # a face-down tile's back is symmetric: 0 vs 180 degrees is not visible, so the faces alone too
        face_up = known & ~np.isin(true_codes, [BACK, STANDING])
        face_up_oriented += int(face_up.sum())
        face_up_oriented_right += int((angles[t] == found.angles[d])[face_up].sum())
        # a look the same turned half round shows its quarter turn only up to 180 degrees
        seen_right = (angles[t] == found.angles[d]) | (alike[t] & ((angles[t] - found.angles[d]) % 180 == 0))
        visible_right += int(seen_right[known].sum())
        face_up_visible_right += int(seen_right[face_up].sum())
        for code, tally in facedown.items():
            tally[0] += int(((true_codes == code) & (got == code)).sum())
            tally[1] += int((codes == code).sum())
    return total.summary() | {
        "red_vs_five_accuracy": round(fives_right / max(fives, 1), 4),
        "fives": fives,
        "orientation_accuracy": round(oriented_right / max(oriented, 1), 4),
        "orientation_accuracy_face_up": round(face_up_oriented_right / max(face_up_oriented, 1), 4),
        "face_up_oriented": face_up_oriented,
        # 0 vs 180 degrees counted right where the tile looks the same turned (backs, and faces
        # whose art is point-symmetric: its truth angle cannot be seen)
        "orientation_accuracy_visible": round(visible_right / max(oriented, 1), 4),
        "orientation_accuracy_face_up_visible": round(face_up_visible_right / max(face_up_oriented, 1), 4),
        "back_recall": round(facedown[BACK][0] / max(facedown[BACK][1], 1), 4),
        "backs": facedown[BACK][1],
        "standing_recall": round(facedown[STANDING][0] / max(facedown[STANDING][1], 1), 4),
        "standing": facedown[STANDING][1],
        "top_confusions": dict(confusions.most_common(12)),  # true->read, on matched tiles
        "per_code": {c: f"{right[c]}/{n}" for c, n in sorted(matched.items())},  # right/matched
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m models.evaluate_rendered", description=__doc__.splitlines()[0]
    )
    ap.add_argument(
        "sources", nargs="+", type=Path, help="mjmon synth output directories or COCO stills json"
    )
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--model", type=Path)
    ap.add_argument("--json", type=Path)
    add_reader_argument(ap)
    args = ap.parse_args(argv)

    from vision.detector import DEFAULT_MODEL, ModelError, TileDetector

    try:
        detector = TileDetector(args.model or DEFAULT_MODEL, **reader_options(args).detector_kwargs())
    except ModelError as err:
        print(f"evaluate_rendered: {err}", file=sys.stderr)
        return 2
    frames = itertools.chain.from_iterable(
        frames_from_synth(src, args.frames) if src.is_dir() else frames_from_coco(src, args.frames)
        for src in args.sources
    )
    report = {"sources": [str(s) for s in args.sources]} | evaluate(frames, detector)
    return 0 if emit_figures(report, args.json, "evaluate_rendered") else 2


if __name__ == "__main__":
    sys.exit(main())
