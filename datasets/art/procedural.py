"""Random tile art sets for detector training: the same tile semantics, drawn in many styles.

The detector learns the art it sees. With two shared art sets it learned their colours and glyph
forms (a red 萬 means man, green-over-red dots mean 6p) and misread art it had not seen. Each set
made here draws every face from the rules all mahjong tiles share (how many dots or sticks and where,
which numeral over 萬, which wind character) while varying everything sets disagree on: fonts, ink
colours and which elements take which colour, dot and stick styles, stroke weight, the 1s emblem,
haku's frame, corner indices, the face's ground.

Unseen art taught two gaps: a 1s whose bird is not one of a handful of silhouettes was read as an
honour, and winds drawn with hairline strokes or small in the face were read as other winds. So the
1s also gets birds built from parts (sparrow, crane, peacock, long-tailed; filled, line-drawn, a few
brush strokes or coloured blobs; small on a large field), characters get thin and hairline
monoline weights, and honours get smaller sizes and hollow outlines; flowers and seasons may be a
sprig with a small corner character. All generic: the kinds of choice any tile maker makes.

A training-time tool (needs Pillow and CJK fonts, e.g. Debian's fonts-arphic-ukai/uming,
fonts-ipafont-gothic/mincho, fonts-wqy-zenhei/microhei). The Noto Sans Symbols 2 mahjong glyphs
behind the bundled `datasets/art/default` are never used, so that set stays unseen art:

    python -m datasets.art.procedural --count 40 --seed 1 --out /tmp/procart
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from datasets.tileset import FACE_CODES

W, H = 120, 160
SS = 3  # supersampling for anti-aliased shapes
NUMERALS = "一二三四五六七八九"
WINDS = {"E": "東", "S": "南", "W": "西", "N": "北"}
BONUS_CHARS = {
    "flower1": "梅", "flower2": "蘭", "flower3": "菊", "flower4": "竹",
    "season1": "春", "season2": "夏", "season3": "秋", "season4": "冬",
}  # fmt: skip
NEEDED = "".join(NUMERALS) + "伍萬万東南西北中發発白鳥雀" + "".join(BONUS_CHARS.values())

BLACK, RED, BLUE, GREEN = (25, 25, 25), (200, 35, 35), (30, 60, 160), (20, 115, 55)
INKS = [BLACK, RED, BLUE, GREEN, (120, 30, 30), (15, 40, 90), (60, 60, 60), (10, 90, 90), (150, 80, 20)]

# dot centres (x, y as fractions of the face) and radius (fraction of width) per pin count
PIN_LAYOUT: dict[int, tuple[list[tuple[float, float]], float]] = {
    1: ([(0.5, 0.5)], 0.4),
    2: ([(0.5, 0.27), (0.5, 0.73)], 0.21),
    3: ([(0.24, 0.2), (0.5, 0.5), (0.76, 0.8)], 0.18),
    4: ([(x, y) for y in (0.29, 0.71) for x in (0.28, 0.72)], 0.2),
    5: ([(0.26, 0.22), (0.74, 0.22), (0.5, 0.5), (0.26, 0.78), (0.74, 0.78)], 0.17),
    6: ([(0.28, 0.19), (0.72, 0.19)] + [(x, y) for y in (0.55, 0.82) for x in (0.28, 0.72)], 0.16),
    7: ([(0.2, 0.12), (0.5, 0.22), (0.8, 0.32)] + [(x, y) for y in (0.6, 0.86) for x in (0.28, 0.72)], 0.13),
    8: ([(x, y) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.28, 0.72)], 0.13),
    9: ([(x, y) for y in (0.19, 0.5, 0.81) for x in (0.2, 0.5, 0.8)], 0.14),
}
# Chinese-style sets (and the Unicode reference glyphs) draw 6p as an even grid, three rows of two
SIX_PIN_GRID = ([(x, y) for y in (0.19, 0.5, 0.81) for x in (0.28, 0.72)], 0.15)
# stick centres (x, y), length (fraction of height), tilt (degrees) per sou count
SOU_LAYOUT: dict[int, list[tuple[float, float, float, float]]] = {
    2: [(0.5, 0.27, 0.38, 0), (0.5, 0.73, 0.38, 0)],
    3: [(0.5, 0.27, 0.38, 0), (0.3, 0.73, 0.38, 0), (0.7, 0.73, 0.38, 0)],
    4: [(x, y, 0.38, 0) for y in (0.27, 0.73) for x in (0.3, 0.7)],
    5: [(x, y, 0.36, 0) for y in (0.26, 0.74) for x in (0.2, 0.8)] + [(0.5, 0.5, 0.36, 0)],
    6: [(x, y, 0.38, 0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.15, 0.24, 0)] + [(x, y, 0.28, 0) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
    8: [(0.14, 0.27, 0.38, 0), (0.86, 0.27, 0.38, 0), (0.38, 0.27, 0.38, 25), (0.62, 0.27, 0.38, -25),
        (0.14, 0.73, 0.38, 0), (0.86, 0.73, 0.38, 0), (0.38, 0.73, 0.38, -25), (0.62, 0.73, 0.38, 25)],
    9: [(x, y, 0.27, 0) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}  # fmt: skip


def cjk_fonts() -> list[Path]:
    """Installed fonts that draw every character a face needs (Noto Sans Symbols never: see above)."""
    try:
        listing = subprocess.run(
            ["fc-list", f":charset={' '.join(f'{ord(c):x}' for c in sorted(set(NEEDED)))}", "file"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return []
    files = sorted({Path(line.split(":")[0].strip()) for line in listing.splitlines() if line.strip()})
    return [f for f in files if "symbols" not in f.name.lower()]


@dataclass
class Bird:
    """A 1s bird built from parts, decided once per set. Units: fractions of the face width, body
    centre at the origin, facing right; `scale` and `at` place the whole bird in the face."""

    body: tuple[float, float]  # the body ellipse's half axes
    tilt: float  # body axis in degrees, tail end down
    neck: float  # how far the head sits above the body (0 a sparrow, 0.3 a crane)
    tail: str  # wedge, short, streamers, fan
    legs: float  # leg length, 0 for none
    crest: bool
    render: str  # filled, outline, strokes, blobs
    line: int  # outline / stroke width, supersampled px (2 is a hairline on the final face)
    scale: float  # 0.5: a small bird on a large field
    at: tuple[float, float]  # body centre in the face (x, y fractions)
    perch: bool  # a branch under its feet


@dataclass
class Style:
    """Everything one art set decides once."""

    font: Path
    ground: tuple[int, int, int]
    man_numeral: tuple[int, int, int]
    five: str  # 五 or 伍
    man_char: str
    man_ink: tuple[int, int, int]
    wind_ink: tuple[int, int, int]
    pin_style: str
    pin_colours: list[tuple[int, int, int]]
    pin_mono: bool
    six_pin_grid: bool
    sou_style: str
    sou_colours: list[tuple[int, int, int]]
    sou_mono: bool
    bird: str
    bird_flip: bool  # facing left instead of right
    haku: str
    haku_ink: tuple[int, int, int]
    hatsu: str
    corner_index: bool
    stroke: int  # dilate (>0) or erode (<0) ink, supersampled px
    squash: float  # character height / width stretch
    # later additions, with defaults so older callers keep working
    bird_build: Bird | None = None  # the parts of a "built" bird
    line: int = 0  # > 0: every character redrawn as a monoline of this width (supersampled px)
    honour_size: float = 1.0  # winds and dragons in a box this fraction of the usual one
    honour_hollow: bool = False  # winds and dragons as outlines
    bonus_layout: str = "centre"  # centre: a large character; sprig: a plant and a corner character


def random_style(rng: np.random.Generator, fonts: list[Path], variety: int = 2) -> Style:
    """One set's style. ``variety`` 1 draws what the committed models' art sets drew (the same
    random stream: ``models/recipe.sh`` reproduces them); 2 adds the built birds, monoline
    characters, small and hollow honours and sprig bonus faces."""

    def pick(seq):
        return seq[int(rng.integers(len(seq)))]

    def ink_list(n: int) -> list[tuple[int, int, int]]:
        return [pick(INKS) for _ in range(n)]

    ground = tuple(int(v) for v in np.clip(rng.integers(228, 256) - rng.integers(0, 14, 3), 0, 255))
    style = Style(
        font=pick(fonts),
        ground=ground,  # type: ignore[arg-type]
        man_numeral=pick([BLACK, BLACK, BLUE, (60, 60, 60), GREEN]),  # never red: red is the red five
        five=pick(["五", "五", "五", "伍"]),
        man_char=pick(["萬", "萬", "万"]),
        man_ink=pick([RED, RED, BLACK, (120, 30, 30), BLUE]),
        wind_ink=pick([BLACK, BLACK, BLUE, (15, 40, 90), GREEN]),
        pin_style=pick(["rings", "ring_dot", "disc", "petals", "flower", "hatched"]),
        pin_colours=[pick([BLUE, GREEN, BLACK, (15, 40, 90)])] + ink_list(2),
        pin_mono=bool(rng.random() < 0.45),
        six_pin_grid=bool(rng.random() < 0.35),
        sou_style=pick(["bone", "bar", "outlined", "segmented"]),
        sou_colours=[pick([GREEN, GREEN, BLUE, BLACK])] + [pick([RED, BLUE, GREEN])],
        sou_mono=bool(rng.random() < 0.5),
        bird=pick(["bird", "outline", "stick", "char", "fan"] + ["built"] * 5)
        if variety >= 2
        else pick(["bird", "bird", "outline", "stick", "char", "fan"]),
        bird_flip=bool(rng.random() < 0.5),
        haku=pick(["blank", "frame", "double", "thick"]),
        haku_ink=pick([BLUE, BLACK, GREEN, (15, 40, 90)]),
        hatsu=pick(["發", "發", "発"]),
        corner_index=bool(rng.random() < 0.3),
        stroke=int(rng.integers(-2, 4)),
        squash=float(rng.uniform(0.85, 1.25)),
    )
    if variety < 2:
        return style
    return replace(
        style,
        bird_build=random_bird(rng),
        # monoline strokes: a third of the sets thin (about 2 px on the face), some hairline (~1 px)
        line=pick([0, 0, 0, 0, 0, 0, 7, 7, 5, 3]),
        honour_size=pick([1.0, 1.0, 0.85, 0.75, 0.62]),
        honour_hollow=bool(rng.random() < 0.12),
        bonus_layout=pick(["centre", "centre", "sprig"]),
    )


# whole-bird builds most 1s emblems fall into; random_bird jitters one of them
BIRD_KINDS = {
    "sparrow": dict(body=(0.2, 0.15), neck=0.0, tail="short", legs=0.07),
    "crane": dict(body=(0.19, 0.1), neck=0.28, tail="short", legs=0.32),
    "peacock": dict(body=(0.13, 0.1), neck=0.12, tail="fan", legs=0.06),
    "longtail": dict(body=(0.16, 0.11), neck=0.04, tail="streamers", legs=0.08),
    "dove": dict(body=(0.22, 0.13), neck=0.02, tail="wedge", legs=0.05),
}


def random_bird(rng: np.random.Generator, kind: str | None = None) -> Bird:
    def pick(seq):
        return seq[int(rng.integers(len(seq)))]

    base = BIRD_KINDS[kind or pick(sorted(BIRD_KINDS))]
    jitter = rng.uniform(0.85, 1.15, 2)
    render = pick(["filled", "filled", "outline", "outline", "strokes", "blobs"])
    # a small bird sits anywhere on the field; a large one fills the face's middle
    scale = float(pick([1.0, 1.0, 0.85, 0.7, 0.5]))
    slack = (1.0 - scale) * 0.3
    tail = str(base["tail"]) if rng.random() < 0.75 else pick(["wedge", "short", "streamers", "fan"])
    ahead = 0.1 * scale if tail in ("fan", "streamers") else 0.0  # a big tail behind: body forward
    return Bird(
        body=(float(base["body"][0] * jitter[0]), float(base["body"][1] * jitter[1])),
        tilt=float(rng.uniform(-30, 5)),
        neck=float(base["neck"] * rng.uniform(0.8, 1.2)),
        tail=tail,
        legs=float(base["legs"] * rng.uniform(0.7, 1.3)),
        crest=bool(rng.random() < 0.35),
        render=render,
        line=int(pick([2, 3, 5, 8]) if render == "outline" else pick([6, 9, 12])),
        scale=scale,
        at=(float(0.5 + ahead + rng.uniform(-slack, slack)), float(0.52 + rng.uniform(-slack, slack))),
        perch=bool(rng.random() < 0.4),
    )


def thin(mask: np.ndarray) -> np.ndarray:
    """Zhang-Suen thinning: a 0/255 mask's one-pixel skeleton (what a monoline pen would trace)."""
    img = (mask > 127).astype(np.uint8)
    while True:
        changed = False
        for first in (True, False):
            p = np.pad(img, 1)
            n = [
                p[:-2, 1:-1],
                p[:-2, 2:],
                p[1:-1, 2:],
                p[2:, 2:],
                p[2:, 1:-1],
                p[2:, :-2],
                p[1:-1, :-2],
                p[:-2, :-2],
            ]
            count = sum(v.astype(np.int16) for v in n)
            turns = sum(((n[i] == 0) & (n[(i + 1) % 8] == 1)).astype(np.int16) for i in range(8))
            p2, p4, p6, p8 = n[0], n[2], n[4], n[6]
            side = (
                ((p2 & p4 & p6) == 0) & ((p4 & p6 & p8) == 0)
                if first
                else ((p2 & p4 & p8) == 0) & ((p2 & p6 & p8) == 0)
            )
            drop = (img == 1) & (count >= 2) & (count <= 6) & (turns == 1) & side
            if drop.any():
                img[drop] = 0
                changed = True
        if not changed:
            return img * 255


class FacePainter:
    """Draws one style's faces: ink layers composed over the ground colour."""

    def __init__(self, style: Style, rng: np.random.Generator):
        from PIL import ImageFont

        self.style = style
        self.rng = rng
        self._font = ImageFont.truetype(str(style.font), 200)
        self._masks: dict[tuple, np.ndarray] = {}  # thinning is slow: each character once

    # --- primitives on a supersampled canvas (H*SS, W*SS, 3) plus a coverage mask ---
    def _canvas(self):
        img = np.empty((H * SS, W * SS, 3), np.uint8)
        img[:] = self.style.ground
        return img

    def _char_mask(self, ch: str, box: tuple[float, float, float, float]) -> np.ndarray:
        """A glyph stretched into box (x0, y0, x1, y1 as fractions), as a supersampled mask."""
        key = (ch, box)
        if key not in self._masks:
            self._masks[key] = self._draw_char(ch, box)
        return self._masks[key].copy()

    def _draw_char(self, ch: str, box: tuple[float, float, float, float]) -> np.ndarray:
        from PIL import Image, ImageDraw

        probe = Image.new("L", (260, 260), 0)
        ImageDraw.Draw(probe).text((20, 10), ch, font=self._font, fill=255)
        a = np.asarray(probe)
        ys, xs = np.nonzero(a > 100)
        mask = np.zeros((H * SS, W * SS), np.uint8)
        if not len(xs):
            return mask
        glyph = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        x0, y0, x1, y1 = (
            int(round(v)) for v in (box[0] * W * SS, box[1] * H * SS, box[2] * W * SS, box[3] * H * SS)
        )
        bw, bh = x1 - x0, y1 - y0
        gh, gw = glyph.shape
        scale = min(bw / gw, bh / (gh * self.style.squash))
        tw, th = max(1, int(gw * scale)), max(1, int(gh * scale * self.style.squash))
        fit = cv2.resize(glyph, (tw, th), interpolation=cv2.INTER_AREA)
        ox, oy = x0 + (bw - tw) // 2, y0 + (bh - th) // 2
        mask[oy : oy + th, ox : ox + tw] = fit
        return self._weight(mask)

    def _weight(self, mask: np.ndarray) -> np.ndarray:
        if self.style.line > 0:  # the font's own weight replaced by an even pen of that width
            return self._monoline(mask, self.style.line)
        s = self.style.stroke
        if s == 0:
            return mask
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(s) + 1, 2 * abs(s) + 1))
        return cv2.dilate(mask, k) if s > 0 else cv2.erode(mask, k)

    @staticmethod
    def _monoline(mask: np.ndarray, width: int) -> np.ndarray:
        ys, xs = np.nonzero(mask > 127)
        if not len(xs):
            return mask
        y0, y1, x0, x1 = max(0, ys.min() - 2), ys.max() + 3, max(0, xs.min() - 2), xs.max() + 3
        bone = np.zeros_like(mask)
        bone[y0:y1, x0:x1] = thin(mask[y0:y1, x0:x1])
        pen = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
        return cv2.GaussianBlur(cv2.dilate(bone, pen), (3, 3), 0)  # soft edges, as a drawn line has

    @staticmethod
    def _hollow(mask: np.ndarray) -> np.ndarray:
        """The outline of a character's strokes (an outlined or inlaid character)."""
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3 * SS, 3 * SS))
        ring = cv2.subtract(cv2.dilate(mask, k), mask)
        return ring if ring.any() else mask

    @staticmethod
    def _paint(img: np.ndarray, mask: np.ndarray, colour) -> None:
        a = (mask.astype(np.float32) / 255.0)[..., None]
        img[:] = (img * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)

    def _text(self, img, ch, box, colour) -> None:
        self._paint(img, self._char_mask(ch, box), colour)

    def _px(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x * W * SS)), int(round(y * H * SS))

    # --- suits ---
    def man(self, n: int, red: bool) -> np.ndarray:
        img = self._canvas()
        num_ink, char_ink = (RED, RED) if red else (self.style.man_numeral, self.style.man_ink)
        self._text(img, self.style.five if n == 5 else NUMERALS[n - 1], (0.14, 0.06, 0.86, 0.44), num_ink)
        self._text(img, self.style.man_char, (0.1, 0.48, 0.9, 0.95), char_ink)
        return img

    def pin(self, n: int, red: bool) -> np.ndarray:
        img = self._canvas()
        centres, r = SIX_PIN_GRID if n == 6 and self.style.six_pin_grid else PIN_LAYOUT[n]
        for i, (x, y) in enumerate(centres):
            self._dot(img, x, y, r, RED if red else self._pin_colour(n, i))
        return img

    def _pin_colour(self, n: int, i: int):
        c = self.style.pin_colours
        if self.style.pin_mono:
            return c[0]
        if n in (6, 7):  # the top group and the bottom block in different inks, as most sets do
            return c[1] if i < (2 if n == 6 else 3) else c[2]
        if n == 5:
            return c[2] if i == 2 else c[0]
        if n in (3, 9):
            return c[(i // (3 if n == 9 else 1)) % 3]
        return c[i % 2] if n in (4, 8) else c[0]

    def _dot(self, img, x, y, r, colour) -> None:
        cx, cy = self._px(x, y)
        R = int(r * W * SS)
        style = self.style.pin_style
        aa = cv2.LINE_AA
        if style == "rings":
            for frac in (1.0, 0.7, 0.4):
                cv2.circle(img, (cx, cy), int(R * frac), colour, max(2, R // 7), aa)
            cv2.circle(img, (cx, cy), max(2, R // 6), colour, -1, aa)
        elif style == "ring_dot":
            cv2.circle(img, (cx, cy), R, colour, max(2, R // 4), aa)
            cv2.circle(img, (cx, cy), int(R * 0.35), colour, -1, aa)
        elif style == "disc":
            cv2.circle(img, (cx, cy), R, colour, -1, aa)
            cv2.circle(img, (cx, cy), int(R * 0.6), self.style.ground, max(2, R // 8), aa)
            cv2.circle(img, (cx, cy), int(R * 0.25), self.style.ground, -1, aa)
        elif style == "petals":
            cv2.circle(img, (cx, cy), R, colour, max(2, R // 8), aa)
            for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
                p = (int(cx + 0.62 * R * np.cos(a)), int(cy + 0.62 * R * np.sin(a)))
                cv2.circle(img, p, max(2, R // 6), colour, -1, aa)
            cv2.circle(img, (cx, cy), max(2, R // 5), RED if colour != RED else BLACK, -1, aa)
        elif style == "flower":
            cv2.circle(img, (cx, cy), R, colour, -1, aa)
            for a in np.linspace(0, 2 * np.pi, 6, endpoint=False):
                p = (int(cx + 0.45 * R * np.cos(a)), int(cy + 0.45 * R * np.sin(a)))
                cv2.circle(img, p, max(2, R // 4), self.style.ground, -1, aa)
            cv2.circle(img, (cx, cy), max(2, R // 5), colour, -1, aa)
        else:  # hatched: a ring filled with crossing lines
            cv2.circle(img, (cx, cy), R, colour, max(2, R // 6), aa)
            mask = np.zeros(img.shape[:2], np.uint8)
            cv2.circle(mask, (cx, cy), int(R * 0.8), 255, -1)
            lines = np.zeros_like(mask)
            step = max(4, R // 3)
            for d in range(-2 * R, 2 * R, step):
                cv2.line(lines, (cx + d - R, cy - R), (cx + d + R, cy + R), 255, max(1, R // 10), aa)
                cv2.line(lines, (cx + d + R, cy - R), (cx + d - R, cy + R), 255, max(1, R // 10), aa)
            self._paint(img, cv2.bitwise_and(mask, lines), colour)

    def sou(self, n: int, red: bool) -> np.ndarray:
        img = self._canvas()
        if n == 1:
            self._bird(img, RED if red else self.style.sou_colours[0])
            return img[:, ::-1].copy() if self.style.bird_flip and self.style.bird != "char" else img
        for i, (x, y, length, tilt) in enumerate(SOU_LAYOUT[n]):
            colour = RED if red else self._sou_colour(n, i)
            self._stick(img, x, y, length, tilt, colour)
        return img

    def _sou_colour(self, n: int, i: int):
        c = self.style.sou_colours
        if self.style.sou_mono:
            return c[0]
        if n == 5 or n == 7:
            return c[1] if i == (4 if n == 5 else 0) else c[0]
        if n == 9:
            return c[1] if i % 3 == 1 else c[0]
        return c[0]

    def _stick(self, img, x, y, length, tilt, colour) -> None:
        cx, cy = self._px(x, y)
        half_l = int(length * H * SS / 2)
        half_w = int(0.055 * W * SS)
        mask = np.zeros((H * SS, W * SS), np.uint8)
        style = self.style.sou_style
        box = np.array(
            [[-half_w, -half_l], [half_w, -half_l], [half_w, half_l], [-half_w, half_l]], np.float32
        )
        if style == "bone":  # pinched at the middle node, knobs at the ends
            cv2.fillPoly(mask, [self._turn(box * [0.55, 1], cx, cy, tilt)], 255, cv2.LINE_AA)
            for end in (-1, 0, 1):
                p = self._turn(np.array([[0, end * half_l * 0.92]], np.float32), cx, cy, tilt)[0]
                cv2.ellipse(
                    mask, tuple(int(v) for v in p), (half_w, max(2, half_w // 2)), -tilt, 0, 360, 255, -1
                )
        else:
            cv2.fillPoly(mask, [self._turn(box, cx, cy, tilt)], 255, cv2.LINE_AA)
            if style in ("outlined", "segmented"):
                inner = np.zeros_like(mask)
                cv2.fillPoly(inner, [self._turn(box * [0.45, 0.9], cx, cy, tilt)], 255, cv2.LINE_AA)
                if style == "outlined":
                    mask = cv2.subtract(mask, inner)
            if style in ("bar", "segmented"):
                for frac in (-0.33, 0.33) if style == "segmented" else (0.0,):
                    a, b = self._turn(
                        np.array([[-half_w, frac * half_l], [half_w, frac * half_l]], np.float32),
                        cx,
                        cy,
                        tilt,
                    )
                    cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 0, max(2, half_w // 3))
        self._paint(img, mask, colour)

    @staticmethod
    def _turn(pts: np.ndarray, cx: int, cy: int, tilt: float) -> np.ndarray:
        a = np.deg2rad(tilt)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        return (pts @ rot.T + [cx, cy]).astype(np.int32)

    def _bird(self, img, colour) -> None:
        kind = self.style.bird
        if kind == "built" and self.style.bird_build is not None:
            self._built_bird(img, self.style.bird_build, colour)
        elif kind == "stick":
            self._stick(img, 0.5, 0.5, 0.8, 0, colour)
        elif kind == "char":
            self._text(img, "鳥" if self.rng.random() < 0.5 else "雀", (0.12, 0.15, 0.88, 0.85), colour)
        elif kind == "fan":  # a peacock's tail of feather eyes over a small body
            cx, cy = self._px(0.5, 0.72)
            for a in np.linspace(-2.4, -0.74, 5):
                tip = (int(cx + 0.38 * W * SS * np.cos(a)), int(cy + 0.5 * H * SS * np.sin(a)))
                cv2.line(img, (cx, cy), tip, colour, SS * 2, cv2.LINE_AA)
                cv2.circle(img, tip, int(0.07 * W * SS), colour, -1, cv2.LINE_AA)
                cv2.circle(img, tip, int(0.03 * W * SS), RED if colour != RED else BLUE, -1, cv2.LINE_AA)
            cv2.ellipse(
                img, (cx, cy), (int(0.12 * W * SS), int(0.09 * H * SS)), 0, 0, 360, colour, -1, cv2.LINE_AA
            )
        elif kind == "outline":  # a line drawing: body outline, wing feathers, long tail, crest
            aa, t = cv2.LINE_AA, SS * 2
            cv2.ellipse(
                img, self._px(0.5, 0.52), (int(0.24 * W * SS), int(0.14 * H * SS)), -25, 0, 360, colour, t, aa
            )
            cv2.circle(img, self._px(0.7, 0.3), int(0.1 * W * SS), colour, t, aa)
            for k in range(4):  # wing feathers
                a, b = self._px(0.38 + 0.06 * k, 0.45), self._px(0.3 + 0.06 * k, 0.62)
                cv2.line(img, a, b, colour, t, aa)
            for dx in (0.0, 0.05, 0.1):  # tail
                cv2.line(img, self._px(0.32, 0.62), self._px(0.08 + dx, 0.92), colour, t, aa)
            cv2.line(
                img, self._px(0.78, 0.28), self._px(0.9, 0.32), RED if colour != RED else BLACK, t * 2, aa
            )
            cv2.line(img, self._px(0.68, 0.2), self._px(0.6, 0.1), colour, t, aa)  # crest
        else:  # a perched bird: body, head, beak, tail, legs
            aa = cv2.LINE_AA
            body, head = self._px(0.5, 0.55), self._px(0.62, 0.3)
            cv2.ellipse(img, body, (int(0.22 * W * SS), int(0.17 * H * SS)), -35, 0, 360, colour, -1, aa)
            cv2.circle(img, head, int(0.11 * W * SS), colour, -1, aa)
            beak = np.array([self._px(0.72, 0.27), self._px(0.86, 0.3), self._px(0.72, 0.33)], np.int32)
            cv2.fillPoly(img, [beak], RED if colour != RED else BLACK, aa)
            tail = np.array([self._px(0.4, 0.62), self._px(0.12, 0.9), self._px(0.3, 0.92)], np.int32)
            cv2.fillPoly(img, [tail], colour, aa)
            cv2.circle(img, self._px(0.64, 0.28), max(2, SS * 2), self.style.ground, -1, aa)
            for lx in (0.47, 0.57):
                cv2.line(img, self._px(lx, 0.7), self._px(lx, 0.85), colour, SS * 2, aa)

    def _built_bird(self, img, b: Bird, colour) -> None:
        """A bird from parts: body, wing, head on a neck, beak, tail, legs, perhaps crest and perch."""
        aa, t = cv2.LINE_AA, b.line
        unit = b.scale * W * SS

        def px(u: float, v: float) -> tuple[int, int]:
            return int(round(b.at[0] * W * SS + u * unit)), int(round(b.at[1] * H * SS + v * unit))

        def size(u: float) -> int:
            return max(1, int(round(u * unit)))

        bw, bh = b.body
        # the body's rear end, where cv2.ellipse puts it: turned by ``tilt`` in image axes (y
        # down), so tilt < 0 lowers the tail end
        a = np.deg2rad(b.tilt)
        rear = (-bw * 0.95 * np.cos(a), -bw * 0.95 * np.sin(a))
        front = (bw * 0.75, -bh * 0.55)
        head = (bw * 0.8, -bh - b.neck - 0.02)
        hr = 0.075 if b.neck < 0.1 else 0.06
        accent = RED if colour != RED else BLACK
        if b.render == "blobs":  # each part its own colour, as painted sets do
            others = [c for c in INKS if c != colour]
            inks = [colour] + [others[int(self.rng.integers(len(others)))] for _ in range(3)]
        else:
            inks = [colour] * 4
        filled = b.render in ("filled", "blobs")
        fill = -1 if filled else t
        lw = t if b.render in ("outline", "strokes") else max(t, 2 * SS)

        if b.perch:  # a twig under the feet, drawn first so the feet stand on it
            y = bh + b.legs + 0.01
            cv2.line(img, px(-bw - 0.1, y + 0.05), px(bw + 0.12, y - 0.03), inks[3], max(lw, 2 * SS), aa)
        for dx in (-0.04, 0.04):  # legs
            if b.legs > 0:
                cv2.line(img, px(dx, bh * 0.8), px(dx + 0.02, bh + b.legs), inks[0], max(2, lw // 2 + 1), aa)
        self._tail(img, b, px, size, rear, inks[3], filled, lw)
        if b.neck > 0.03:
            cv2.line(
                img,
                px(*front),
                px(head[0], head[1] + hr * 0.5),
                inks[0],
                max(lw, size(0.045)) if filled else lw,
                aa,
            )
        if b.render == "strokes":  # a few brush strokes: the back's arc, the belly's arc, a wing tick
            cv2.ellipse(img, px(0, 0), (size(bw), size(bh)), b.tilt, 180, 360, inks[0], t, aa)
            cv2.ellipse(img, px(0, 0), (size(bw), size(bh)), b.tilt, 20, 150, inks[0], t, aa)
            cv2.line(img, px(-bw * 0.5, -bh * 0.2), px(bw * 0.2, bh * 0.2), inks[0], t, aa)
        else:
            cv2.ellipse(img, px(0, 0), (size(bw), size(bh)), b.tilt, 0, 360, inks[0], fill, aa)
            wing_ink = inks[1] if b.render == "blobs" else (self.style.ground if filled else inks[0])
            wing_t = -1 if b.render == "blobs" else max(2, lw // 2 if filled else lw)
            cv2.ellipse(
                img,
                px(-bw * 0.2, -bh * 0.1),
                (size(bw * 0.65), size(bh * 0.5)),
                b.tilt + 12,
                0,
                360,
                wing_ink,
                wing_t,
                aa,
            )
        cv2.circle(img, px(*head), size(hr), inks[2], -1 if b.render != "outline" else t, aa)
        tip = (head[0] + hr + 0.09, head[1] + 0.01)
        beak = np.array(
            [px(head[0] + hr * 0.8, head[1] - 0.025), px(*tip), px(head[0] + hr * 0.8, head[1] + 0.03)],
            np.int32,
        )
        cv2.fillPoly(img, [beak], accent, aa)
        if b.render != "outline":
            cv2.circle(
                img,
                px(head[0] + hr * 0.3, head[1] - hr * 0.2),
                max(2, size(0.015)),
                self.style.ground,
                -1,
                aa,
            )
        if b.crest:
            for k in (-1, 0, 1):
                cv2.line(
                    img,
                    px(head[0], head[1] - hr),
                    px(head[0] - 0.04 + 0.04 * k, head[1] - hr - 0.1),
                    accent,
                    max(2, lw // 2),
                    aa,
                )

    @staticmethod
    def _tail(img, b: Bird, px, size, rear, ink, filled: bool, lw: int) -> None:
        aa = cv2.LINE_AA
        ru, rv = rear
        if b.tail in ("wedge", "short"):
            n = 0.32 if b.tail == "wedge" else 0.14
            tri = np.array(
                [px(ru + 0.04, rv - 0.05), px(ru - n, rv + n * 0.8), px(ru - n * 0.5, rv + n * 1.1)], np.int32
            )
            if filled:
                cv2.fillPoly(img, [tri], ink, aa)
            else:
                cv2.polylines(img, [tri], True, ink, lw, aa)
        elif b.tail == "streamers":  # long trailing feathers, curving down
            for k in range(4):
                pts = [
                    px(ru - 0.12 * s - 0.03 * k, rv + 0.08 * s * s + 0.12 * s + 0.04 * k)
                    for s in np.linspace(0, 2.2, 8)
                ]
                cv2.polylines(img, [np.array(pts, np.int32)], False, ink, max(2, lw // 2 + 1), aa)
        else:  # fan: feathers spread behind and above the body, an eye at each tip
            for ang in np.linspace(np.deg2rad(100), np.deg2rad(230), 7):
                end = (ru + 0.45 * np.cos(ang), rv - 0.45 * np.sin(ang))
                cv2.line(img, px(ru, rv), px(*end), ink, max(2, lw // 2 + 1), aa)
                cv2.circle(img, px(*end), size(0.045), ink, -1 if filled else max(2, lw // 2), aa)

    def honour(self, code: str) -> np.ndarray:
        img = self._canvas()
        s = self.style.honour_size  # a smaller character leaves a wider margin, as many sets do
        box = (0.5 - 0.4 * s, 0.5 - 0.38 * s, 0.5 + 0.4 * s, 0.5 + 0.38 * s)
        if code in WINDS:
            self._honour_text(img, WINDS[code], box, self.style.wind_ink)
        elif code == "C":
            self._honour_text(img, "中", box, RED)
        elif code == "F":
            self._honour_text(img, self.style.hatsu, box, GREEN)
        else:
            self._haku(img)
        return img

    def _honour_text(self, img, ch, box, colour) -> None:
        mask = self._char_mask(ch, box)
        self._paint(img, self._hollow(mask) if self.style.honour_hollow else mask, colour)

    def _haku(self, img) -> None:
        kind = self.style.haku
        if kind == "blank":
            return
        ink = self.style.haku_ink
        x0, y0 = self._px(0.16, 0.14)
        x1, y1 = self._px(0.84, 0.86)
        width = {"frame": 3, "double": 2, "thick": 8}[kind] * SS
        cv2.rectangle(img, (x0, y0), (x1, y1), ink, width, cv2.LINE_AA)
        if kind == "double":
            g = 6 * SS
            cv2.rectangle(img, (x0 + g, y0 + g), (x1 - g, y1 - g), ink, width, cv2.LINE_AA)

    def bonus(self, code: str) -> np.ndarray:
        img = self._canvas()
        ink = INKS[int(self.rng.integers(len(INKS)))]
        if self.style.bonus_layout == "sprig":  # a picture fills the face; the name is small, top left
            self._sprig(img, ink)
            self._text(img, BONUS_CHARS[code], (0.05, 0.03, 0.3, 0.22), ink)
            self._text(img, code[-1], (0.78, 0.03, 0.95, 0.18), ink)
            return img
        self._text(img, BONUS_CHARS[code], (0.2, 0.3, 0.8, 0.8), ink)
        for _ in range(4):  # a few blossoms
            cx, cy = self._px(float(self.rng.uniform(0.15, 0.85)), float(self.rng.uniform(0.08, 0.92)))
            cv2.circle(img, (cx, cy), int(0.04 * W * SS), RED, -1, cv2.LINE_AA)
        self._text(img, code[-1], (0.7, 0.03, 0.95, 0.22), ink)
        return img

    def _sprig(self, img, ink) -> None:
        """A stem curving up from the bottom with leaves and blossoms: each face its own."""
        aa, rng = cv2.LINE_AA, self.rng
        bend = float(rng.uniform(-0.25, 0.25))
        stem = [(0.5 + bend * np.sin(s * 2.2) + 0.1 * s, 0.95 - 0.7 * s) for s in np.linspace(0, 1, 12)]
        cv2.polylines(img, [np.array([self._px(*p) for p in stem], np.int32)], False, GREEN, 2 * SS, aa)
        for k in range(int(rng.integers(3, 6))):
            x, y = stem[int(rng.integers(2, 11))]
            side = 1 if k % 2 else -1
            ang = float(rng.uniform(10, 60)) * side
            centre = self._px(x + side * 0.1, y + 0.02)
            cv2.ellipse(img, centre, (int(0.1 * W * SS), int(0.035 * W * SS)), ang, 0, 360, GREEN, -1, aa)
        for _ in range(int(rng.integers(1, 4))):
            x, y = stem[int(rng.integers(7, 12))]
            cx, cy = self._px(x + float(rng.uniform(-0.12, 0.12)), y + float(rng.uniform(-0.05, 0.05)))
            for a in np.linspace(0, 2 * np.pi, 5, endpoint=False):
                petal = (int(cx + 0.05 * W * SS * np.cos(a)), int(cy + 0.05 * W * SS * np.sin(a)))
                cv2.circle(img, petal, int(0.04 * W * SS), ink if ink != GREEN else RED, -1, aa)
            cv2.circle(img, (cx, cy), int(0.025 * W * SS), (230, 190, 40), -1, aa)

    def face(self, code: str) -> np.ndarray:
        """The BGRA face of one tile code, W x H."""
        red = code.endswith("r")
        if code in BONUS_CHARS:
            rgb = self.bonus(code)
        elif code[0].isdigit():
            n, suit = int(code[0]), code[1]
            rgb = {"m": self.man, "p": self.pin, "s": self.sou}[suit](n, red)
            if self.style.corner_index:
                self._text(rgb, str(n), (0.03, 0.01, 0.2, 0.16), BLACK)
        else:
            rgb = self.honour(code)
            if self.style.corner_index and code in WINDS:
                self._text(rgb, code, (0.03, 0.01, 0.2, 0.16), BLACK)
        small = cv2.resize(rgb, (W, H), interpolation=cv2.INTER_AREA)
        bgra = cv2.cvtColor(small[..., ::-1].copy(), cv2.COLOR_BGR2BGRA)
        return bgra


def make_set(out: Path, rng: np.random.Generator, fonts: list[Path], variety: int = 2) -> Style:
    style = random_style(rng, fonts, variety)
    painter = FacePainter(style, rng)
    out.mkdir(parents=True, exist_ok=True)
    for code in FACE_CODES:
        if not cv2.imwrite(str(out / f"{code}.png"), painter.face(code)):
            raise OSError(f"cannot write {out / f'{code}.png'}")
    return style


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m datasets.art.procedural", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("--count", type=int, default=40, help="number of art sets")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--variety",
        type=int,
        choices=(1, 2),
        default=2,
        help="1: the committed models' art (models/recipe.sh); 2: with built birds, thin and small honours",
    )
    ap.add_argument("--out", type=Path, required=True, help="folder for set000, set001, ...")
    args = ap.parse_args(argv)
    fonts = cjk_fonts()
    if not fonts:
        print(
            "procedural art: no font draws every character a face needs (fc-list); install fonts-arphic-ukai",
            file=sys.stderr,
        )
        return 2
    rng = np.random.default_rng(args.seed)
    for i in range(args.count):
        try:
            style = make_set(args.out / f"set{i:03d}", rng, fonts, args.variety)
        except OSError as err:
            print(f"procedural art: {err}", file=sys.stderr)
            return 2
        build = style.bird_build
        bird = f"{style.bird} {build.tail}/{build.render}" if style.bird == "built" and build else style.bird
        print(
            f"set{i:03d}: {style.font.name} pins {style.pin_style} sou {style.sou_style} 1s {bird}"
            f" line {style.line} honours {style.honour_size}{' hollow' if style.honour_hollow else ''}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
