"""Calibration error on rendered clips: where the automatic calibration puts felt points, in mm,
against the renderer's exact camera (its homography and lens distortion in ``truth.json``).

    python -m vision.evaluate_calibration CLIP_OR_SET_DIR... [--seconds 2] [--json OUT]

Each argument is a clip folder (``video.mp4`` + ``truth.json``) or a folder of them (an evaluation
set's ``clips/``, or the set itself). A grid over the play area (every 100 mm within
``--reach`` of the centre) is projected through the truth camera, mapped back through the found
calibration and compared: median and largest error per clip, and per camera preset. A clip whose
calibration fails is listed with its one-line error, not dropped.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import (
    SHADE_CUT_CORNER_PX,
    Calibration,
    CalibrationError,
    calibrate_frames,
    calibration_frames,
    felt_quads,
    shade_shift_px,
    work_image,
)
from vision.video import VideoError, first_frames


def truth_pixels(camera: dict, mm: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """(N, 2) image px where the renderer put felt points ``mm`` (x right, y toward seat 0): its
    homography, then its lens distortion (``x_d = x_u (1 + k1 r^2 / r_corner^2)`` on coordinates
    normalised by the focal length, ``r_corner`` the image corner's). ``size``: (width, height)."""
    from datasets.scene.camera import corner_r2, distort

    h = np.asarray(camera["homography_mm_to_px"], np.float64)
    px = cv2.perspectiveTransform(np.asarray(mm, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)
    f, pp = float(camera["focal_px"]), np.asarray(camera["principal_px"], np.float64)
    return distort((px - pp) / f, float(camera["k1"]), corner_r2(size, f)) * f + pp


def grid_mm(reach: float, step: float = 100.0) -> np.ndarray:
    """Points every ``step`` mm within ``reach`` of the table's centre, both ways."""
    ticks = np.arange(-reach, reach + 1e-6, step)
    return np.stack(np.meshgrid(ticks, ticks), -1).reshape(-1, 2)


def calibration_error(calibration: Calibration, truth: dict, reach: float) -> dict:
    """Median and largest distance (mm) between grid points and where the calibration maps the
    pixels the truth camera put them at."""
    grid = grid_mm(reach)
    size = (int(truth["width"]), int(truth["height"]))
    found = calibration.image_to_table(truth_pixels(truth["calibration"], grid, size))
    err = np.linalg.norm(found - grid, axis=1)
    return {"median_mm": round(float(np.median(err)), 2), "max_mm": round(float(err.max()), 2)}


def clip_dirs(paths: list[Path]) -> list[Path]:
    """Clip folders named or held (one level down, or under ``clips/``), in name order."""
    out = []
    for p in paths:
        if (p / "truth.json").is_file():
            out.append(p)
            continue
        base = p / "clips" if (p / "clips").is_dir() else p
        out += sorted(
            c for c in base.iterdir() if (c / "truth.json").is_file() and (c / "video.mp4").is_file()
        )
    return out


def evaluate_clip(clip: Path, seconds: float, reach: float) -> dict:
    """One clip's row: its camera and error, or ``error`` (a one-line reason) where its truth is
    unreadable or its video does not calibrate."""
    try:
        truth = json.loads((clip / "truth.json").read_text())
        if not all(int(truth[side]) > 0 for side in ("width", "height")):
            raise ValueError("width and height must be positive")
        missing = [key for key in _CAMERA_KEYS if key not in truth["calibration"]]
        if missing:
            raise KeyError(f"calibration.{missing[0]}")
    except (OSError, ValueError, KeyError, TypeError) as err:
        return {"clip": clip.name, "camera": "?", "error": f"bad truth.json: {err!r}"}
    row = {"clip": clip.name, "camera": _preset(truth, clip)}
    try:
        frames = first_frames(clip / "video.mp4", seconds)
        calibration = calibrate_frames(frames)
    except (CalibrationError, VideoError) as err:
        return row | {"error": str(err)}
    return row | calibration_error(calibration, truth, reach) | {"shade_shift_px": _shade_shift(frames)}


def _shade_shift(frames: list[np.ndarray]) -> float:
    """The most the shaded felt moved a corner of the one-colour felt on the frames calibrated
    from (px at ``WORK_WIDTH``; used past ``SHADE_CUT_CORNER_PX``)."""
    shifts = []
    for image in calibration_frames(frames):
        try:
            shifts.append(shade_shift_px(*felt_quads(work_image(image)[0])))
        except CalibrationError:
            continue
    return round(max(shifts, default=0.0), 1)


# what ``truth_pixels`` reads of the truth's camera
_CAMERA_KEYS = ("homography_mm_to_px", "focal_px", "principal_px", "k1")


def _preset(truth: dict, clip: Path) -> str:
    """The camera preset's name from the evaluation set's ``plan.json``, else the camera's height
    and tilt (a clip rendered alone)."""
    named = _plan_cameras(clip.parent.parent / "plan.json")
    if named.get(clip.name):
        return named[clip.name]
    camera = truth.get("camera", {})
    return f"{camera.get('height_mm', '?')}mm-{camera.get('tilt_deg', '?')}deg"


@cache
def _plan_cameras(plan: Path) -> dict[str, str | None]:
    """Clip name -> camera preset, from an evaluation set's ``plan.json`` (read once a set)."""
    try:
        return {c["name"]: c.get("camera") for c in json.loads(plan.read_text()).get("clips", [])}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def summarise(rows: list[dict]) -> dict:
    ok = [r for r in rows if "error" not in r]
    groups: dict[str, list[dict]] = {}
    for r in ok:
        groups.setdefault(r["camera"], []).append(r)

    def stats(rs: list[dict]) -> dict:
        med = [r["median_mm"] for r in rs]
        big = [r["max_mm"] for r in rs]
        return {
            "clips": len(rs),
            "median_of_medians_mm": round(float(np.median(med)), 2),
            "worst_median_mm": round(float(max(med)), 2),
            "worst_max_mm": round(float(max(big)), 2),
        }

    shifted = sorted(ok, key=lambda r: -r["shade_shift_px"])
    return {
        "clips": len(rows),
        "failed": [r["clip"] for r in rows if "error" in r],
        # where the shaded felt's corners were taken (``vision.calibration.SHADE_CUT_CORNER_PX``)
        "shaded_corners_used_on_some_frame": [
            r["clip"] for r in shifted if r["shade_shift_px"] > SHADE_CUT_CORNER_PX
        ],
        "largest_shade_shift_px_otherwise": next(
            (r["shade_shift_px"] for r in shifted if r["shade_shift_px"] <= SHADE_CUT_CORNER_PX), None
        ),
        "all": stats(ok) if ok else None,
        "by_camera": {k: stats(v) for k, v in sorted(groups.items())},
    }


def main(argv: list[str] | None = None) -> int:
    from tracker.figures import emit_figures

    prog = "python -m vision.evaluate_calibration"
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("paths", type=Path, nargs="+", help="clip folders, or folders of clips")
    parser.add_argument("--seconds", type=float, default=2.0, help="video calibrated from (as mjmon analyze)")
    parser.add_argument("--reach", type=float, default=450.0, help="mm from the centre the grid spans")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    missing = [p for p in args.paths if not p.is_dir()]
    if missing:
        print(f"{prog}: not a folder: {missing[0]}", file=sys.stderr)
        return 2
    clips = clip_dirs(args.paths)
    if not clips:
        print(
            f"{prog}: no clips (video.mp4 + truth.json) under {', '.join(map(str, args.paths))}",
            file=sys.stderr,
        )
        return 2
    from tqdm import tqdm

    rows = [evaluate_clip(c, args.seconds, args.reach) for c in tqdm(clips, desc="calibrate", unit="clip")]
    figures = {"summary": summarise(rows), "clips": rows}
    return 0 if emit_figures(figures, args.json, prog) else 2


if __name__ == "__main__":
    sys.exit(main())
