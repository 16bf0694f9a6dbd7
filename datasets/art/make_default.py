"""Build the bundled default tileset from the Unicode mahjong glyphs of Noto Sans Symbols 2.

A development tool, not run at install time: it needs Pillow and Debian's fonts-noto-core
(``apt-get install fonts-noto-core; pip install pillow``). The faces it writes to
``datasets/art/default`` are committed; the font is under the SIL Open Font License 1.1.

    python -m datasets.art.make_default
    python -m datasets.art.make_default --font /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf \
        --out /tmp/art-symbola     # a second unseen set for evaluation (Symbola draws the same glyphs)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

FONT = Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf")
OUT = Path(__file__).parent / "default"
W, H = 120, 160

# code -> (codepoint, ink colour RGB)
INK = {"m": (30, 30, 30), "p": (25, 60, 150), "s": (20, 110, 50)}
GLYPHS: dict[str, tuple[int, tuple[int, int, int]]] = {}
for n in range(1, 10):
    GLYPHS[f"{n}m"] = (0x1F006 + n, INK["m"])
    GLYPHS[f"{n}s"] = (0x1F00F + n, INK["s"])
    GLYPHS[f"{n}p"] = (0x1F018 + n, INK["p"])
for red, base in (("5mr", "5m"), ("5pr", "5p"), ("5sr", "5s")):
    GLYPHS[red] = (GLYPHS[base][0], (200, 30, 30))
GLYPHS.update(
    {
        "E": (0x1F000, (20, 20, 20)),
        "S": (0x1F001, (20, 20, 20)),
        "W": (0x1F002, (20, 20, 20)),
        "N": (0x1F003, (20, 20, 20)),
        "C": (0x1F004, (200, 30, 30)),
        "F": (0x1F005, (20, 120, 50)),
        "P": (0x1F006, (40, 70, 170)),
        "flower1": (0x1F022, (170, 40, 60)),
        "flower2": (0x1F023, (120, 40, 140)),
        "flower3": (0x1F025, (190, 120, 20)),
        "flower4": (0x1F024, (20, 120, 50)),
        "season1": (0x1F026, (20, 120, 50)),
        "season2": (0x1F027, (200, 60, 30)),
        "season3": (0x1F028, (170, 100, 20)),
        "season4": (0x1F029, (40, 70, 170)),
    }
)
IVORY = (244, 241, 232)


def render(codepoint: int, ink: tuple[int, int, int], font_path: Path = FONT):
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(font_path), 900)
    canvas = Image.new("L", (1100, 1300), 0)
    ImageDraw.Draw(canvas).text((50, 50), chr(codepoint), font=font, fill=255)
    a = np.asarray(canvas)
    ys, xs = np.nonzero(a > 128)
    glyph = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    # drop the glyph's own tile outline: keep the inside, a few percent in from the frame
    h, w = glyph.shape
    inset_y, inset_x = int(h * 0.045), int(w * 0.06)
    inner = glyph[inset_y : h - inset_y, inset_x : w - inset_x]
    ink_img = Image.fromarray(inner).resize((W - 12, H - 12), Image.LANCZOS)
    face = Image.new("RGBA", (W, H), (*IVORY, 255))
    colour = Image.new("RGBA", ink_img.size, (*ink, 255))
    face.paste(colour, (6, 6), ink_img)
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, W - 1, H - 1), radius=11, fill=255)
    face.putalpha(mask)
    return face


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m datasets.art.make_default", description=__doc__.splitlines()[0]
    )
    ap.add_argument("--font", type=Path, default=FONT, help="a font with the Unicode mahjong tile glyphs")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if not args.font.exists():
        print(f"make_default: {args.font} not found (apt-get install fonts-noto-core)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for code, (cp, ink) in GLYPHS.items():
        render(cp, ink, args.font).save(args.out / f"{code}.png", optimize=True)
    print(f"wrote {len(GLYPHS)} faces to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
