"""Players' arms over the table: soft-edged sleeve and hand with a shadow, seen from above.

An arm runs from the player's shoulder (off the table edge) to the hand point, held above the felt,
so it is drawn lifted toward the camera like everything raised. A carried tile sits in the grip.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.scene.camera import CameraModel
from datasets.scene.painter import Canvas
from datasets.scene.placements import to_table
from datasets.scene.style import Style

SHOULDER_UV = (150.0, 600.0)
ARM_Z, HAND_Z = 220.0, 90.0
SLEEVE_MM, HAND_MM = 85.0, 80.0


def shoulder(seat: int) -> np.ndarray:
    return np.array(to_table(seat, *SHOULDER_UV))


def draw_arm(
    img: np.ndarray,
    canvas: Canvas,
    camera: CameraModel,
    seat: int,
    hand_xy: np.ndarray,
    style: Style,
    carried: np.ndarray | None = None,
    blur_px: float = 0.0,
) -> tuple[int, int, int, int]:
    """Paint one arm reaching to ``hand_xy`` (table mm). ``carried``: a small BGR tile image to show in
    the grip. Returns the canvas box it touched (x0, y0, x1, y1) for motion blur or bookkeeping."""
    sh = camera.lift_to_felt(shoulder(seat)[None], ARM_Z)[0]
    hd = camera.lift_to_felt(np.asarray(hand_xy, float)[None], HAND_Z)[0]
    direction = hd - sh
    length = float(np.linalg.norm(direction)) or 1.0
    unit = direction / length
    wrist = hd - unit * HAND_MM * 0.7
    p_sh, p_wr, p_hd = canvas.px(sh), canvas.px(wrist), canvas.px(hd)
    r_sleeve = SLEEVE_MM / 2 * canvas.scale
    r_hand = HAND_MM / 2 * canvas.scale
    pts = np.array([p_sh, p_wr, p_hd])
    pad = r_sleeve * 2.5 + 12
    x0, y0 = np.floor(pts.min(0) - pad).astype(int)
    x1, y1 = np.ceil(pts.max(0) + pad).astype(int)
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return (0, 0, 0, 0)
    roi = img[y0:y1, x0:x1]
    off = np.array([x0, y0], float)

    def P(p: np.ndarray) -> tuple[int, int]:
        return tuple(np.round((p - off) * 16).astype(int))

    # shadow: the same shape, offset away from the light and very soft
    shadow = np.zeros(roi.shape[:2], np.uint8)
    s_off = np.array([22.0, 30.0]) * canvas.scale
    cv2.line(shadow, P(p_sh + s_off), P(p_wr + s_off), 255, int(r_sleeve * 2), cv2.LINE_AA, 4)
    cv2.circle(shadow, P(p_hd + s_off), int(r_hand * 16), 255, -1, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 6 * canvas.scale)
    dark = (255 - (shadow.astype(np.uint16) * 120 // 255)).astype(np.uint8)
    cv2.multiply(roi, cv2.merge([dark] * 3), roi, scale=1 / 255)

    mask = np.zeros(roi.shape[:2], np.uint8)
    colour = np.zeros_like(roi)
    # a sleeve is a cylinder: darker at its sides, lit along the top, with a cuff at the wrist
    for width, shade in ((1.0, 0.72), (0.75, 0.9), (0.4, 1.08)):
        tone = tuple(int(min(255, c * shade)) for c in style.sleeve)
        cv2.line(colour, P(p_sh), P(p_wr), tone, max(1, int(r_sleeve * 2 * width)), cv2.LINE_AA, 4)
    cv2.line(mask, P(p_sh), P(p_wr), 255, int(r_sleeve * 2), cv2.LINE_AA, 4)
    cuff = tuple(int(c * 0.6) for c in style.sleeve)
    cv2.line(
        colour,
        P(p_wr - unit * r_sleeve * 0.25 / canvas.scale),
        P(p_wr),
        cuff,
        int(r_sleeve * 2),
        cv2.LINE_AA,
        4,
    )
    # the hand: a palm ellipse along the reach, knuckles a shade lighter
    angle = float(np.degrees(np.arctan2(unit[1], unit[0])))
    axes = (int(r_hand * 1.15 * 16), int(r_hand * 0.85 * 16))
    cv2.ellipse(colour, P(p_hd), axes, angle, 0, 360, style.skin, -1, cv2.LINE_AA, 4)
    cv2.ellipse(mask, P(p_hd), axes, angle, 0, 360, 255, -1, cv2.LINE_AA, 4)
    # four fingers reaching ahead of the palm
    side = np.array([-unit[1], unit[0]])
    finger = (int(r_hand * 0.62 * 16), int(r_hand * 0.19 * 16))
    for k in (-1.5, -0.5, 0.5, 1.5):
        tip = p_hd + unit * r_hand * 1.25 + side * r_hand * 0.34 * k
        tone = tuple(int(c * 0.93) for c in style.skin)
        cv2.ellipse(colour, P(tip), finger, angle, 0, 360, tone, -1, cv2.LINE_AA, 4)
        cv2.ellipse(mask, P(tip), finger, angle, 0, 360, 255, -1, cv2.LINE_AA, 4)
    knuckle = tuple(int(min(255, c * 1.1)) for c in style.skin)
    cv2.ellipse(
        colour,
        P(p_hd + unit * r_hand * 0.5),
        (axes[0] // 2, axes[1]),
        angle,
        -60,
        60,
        knuckle,
        -1,
        cv2.LINE_AA,
        4,
    )
    if carried is not None:
        th, tw = carried.shape[:2]
        cx, cy = np.round(p_hd + unit * r_hand * 0.9 - off).astype(int)
        ty0, tx0 = cy - th // 2, cx - tw // 2
        if 0 <= ty0 and 0 <= tx0 and ty0 + th <= roi.shape[0] and tx0 + tw <= roi.shape[1]:
            colour[ty0 : ty0 + th, tx0 : tx0 + tw] = carried
            mask[ty0 : ty0 + th, tx0 : tx0 + tw] = 255
            # fingers over the tile's near half
            cv2.ellipse(
                colour,
                P(p_hd + unit * r_hand * 0.55),
                (axes[0] // 2, int(axes[1] * 0.8)),
                angle,
                0,
                360,
                style.skin,
                -1,
                cv2.LINE_AA,
                4,
            )
    soft = max(0.8, canvas.scale * 1.2 + blur_px)
    mask = cv2.GaussianBlur(mask, (0, 0), soft)
    if blur_px > 0.5:
        colour = cv2.GaussianBlur(colour, (0, 0), blur_px)
    alpha = mask.astype(np.float32)[..., None] / 255.0
    roi[:] = (roi * (1 - alpha) + colour * alpha).astype(np.uint8)
    return (x0, y0, x1, y1)


def arm_path(seat: int, target: np.ndarray, frac: float) -> np.ndarray:
    """Hand point ``frac`` of the way from resting near the player's edge to ``target``."""
    rest = np.array(to_table(seat, 120.0, 520.0))
    f = 0.5 - 0.5 * np.cos(np.pi * np.clip(frac, 0, 1))  # ease in and out
    return rest + (np.asarray(target, float) - rest) * f
