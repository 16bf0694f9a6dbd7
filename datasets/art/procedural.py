"""Random tile art sets for detector training: the same tile semantics, drawn in many styles.

The detector learns the art it sees. With two shared art sets it learned their colours and glyph
forms (a red 萬 means man, green-over-red dots mean 6p) and misread art it had not seen. Each set
made here draws every face from the rules all mahjong tiles share (how many dots or sticks and where,
which numeral over 萬, which wind character) while varying everything sets disagree on: fonts, ink
colours and which elements take which colour, dot and stick styles, stroke weight, the 1s emblem,
haku's frame, corner indices, the face's ground.

A training-time tool (needs Pillow and CJK fonts, e.g. Debian's fonts-arphic-ukai/uming,
fonts-ipafont-gothic/mincho, fonts-wqy-zenhei/microhei). The Noto Sans Symbols 2 mahjong glyphs
behind the bundled `datasets/art/default` are never used, so that set stays unseen art:

    python -m datasets.art.procedural --count 40 --seed 1 --out /tmp/procart
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
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


def random_style(rng: np.random.Generator, fonts: list[Path]) -> Style:
    def pick(seq):
        return seq[int(rng.integers(len(seq)))]

    def ink_list(n: int) -> list[tuple[int, int, int]]:
        return [pick(INKS) for _ in range(n)]

    ground = tuple(int(v) for v in np.clip(rng.integers(228, 256) - rng.integers(0, 14, 3), 0, 255))
    return Style(
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
        bird=pick(["bird", "bird", "outline", "stick", "char", "fan"]),
        bird_flip=bool(rng.random() < 0.5),
        haku=pick(["blank", "frame", "double", "thick"]),
        haku_ink=pick([BLUE, BLACK, GREEN, (15, 40, 90)]),
        hatsu=pick(["發", "發", "発"]),
        corner_index=bool(rng.random() < 0.3),
        stroke=int(rng.integers(-2, 4)),
        squash=float(rng.uniform(0.85, 1.25)),
    )


class FacePainter:
    """Draws one style's faces: ink layers composed over the ground colour."""

    def __init__(self, style: Style, rng: np.random.Generator):
        from PIL import ImageFont

        self.style = style
        self.rng = rng
        self._font = ImageFont.truetype(str(style.font), 200)

    # --- primitives on a supersampled canvas (H*SS, W*SS, 3) plus a coverage mask ---
    def _canvas(self):
        img = np.empty((H * SS, W * SS, 3), np.uint8)
        img[:] = self.style.ground
        return img

    def _char_mask(self, ch: str, box: tuple[float, float, float, float]) -> np.ndarray:
        """A glyph stretched into box (x0, y0, x1, y1 as fractions), as a supersampled mask."""
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
        s = self.style.stroke
        if s == 0:
            return mask
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(s) + 1, 2 * abs(s) + 1))
        return cv2.dilate(mask, k) if s > 0 else cv2.erode(mask, k)

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
        if kind == "stick":
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

    def honour(self, code: str) -> np.ndarray:
        img = self._canvas()
        box = (0.1, 0.12, 0.9, 0.88)
        if code in WINDS:
            self._text(img, WINDS[code], box, self.style.wind_ink)
        elif code == "C":
            self._text(img, "中", box, RED)
        elif code == "F":
            self._text(img, self.style.hatsu, box, GREEN)
        else:
            self._haku(img)
        return img

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
        self._text(img, BONUS_CHARS[code], (0.2, 0.3, 0.8, 0.8), ink)
        for _ in range(4):  # a few blossoms
            cx, cy = self._px(float(self.rng.uniform(0.15, 0.85)), float(self.rng.uniform(0.08, 0.92)))
            cv2.circle(img, (cx, cy), int(0.04 * W * SS), RED, -1, cv2.LINE_AA)
        self._text(img, code[-1], (0.7, 0.03, 0.95, 0.22), ink)
        return img

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


def make_set(out: Path, rng: np.random.Generator, fonts: list[Path]) -> Style:
    style = random_style(rng, fonts)
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
            style = make_set(args.out / f"set{i:03d}", rng, fonts)
        except OSError as err:
            print(f"procedural art: {err}", file=sys.stderr)
            return 2
        print(f"set{i:03d}: {style.font.name} pins {style.pin_style} sou {style.sou_style} 1s {style.bird}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
