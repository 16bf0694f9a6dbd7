"""Per-seed looks: felt, tile backs, light. Drawn from a seeded generator so a seed is repeatable."""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, ConfigDict

# BGR
FELTS = [
    (40, 150, 50),
    (30, 165, 70),
    (60, 110, 40),
    (70, 95, 35),
    (110, 70, 45),
    (120, 80, 40),
    (80, 105, 55),
]
BACKS = [(60, 140, 40), (150, 110, 30), (40, 150, 200), (50, 60, 170), (120, 120, 120), (90, 150, 60)]


class Style(BaseModel):
    model_config = ConfigDict(frozen=True)

    felt: tuple[int, int, int]
    back: tuple[int, int, int]
    ivory: tuple[int, int, int]
    panel: tuple[int, int, int]
    light_angle: float  # where the brighter side of the table is
    light_strength: float  # 0..0.3 uneven lighting
    glare: float  # 0..1 specular highlight strength
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    jitter: float  # mm: how untidily tiles are put down


def random_style(rng: np.random.Generator) -> Style:
    def vary(c: tuple[int, int, int], amount: int) -> tuple[int, int, int]:
        return tuple(int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in c)

    skin_tones = [(150, 180, 225), (120, 155, 205), (90, 120, 170), (70, 95, 140)]
    sleeves = [(40, 40, 40), (230, 230, 230), (120, 60, 30), (30, 30, 110), (90, 90, 90), (50, 90, 40)]
    return Style(
        felt=vary(FELTS[rng.integers(len(FELTS))], 12),
        back=vary(BACKS[rng.integers(len(BACKS))], 15),
        ivory=vary((215, 232, 238), 8),
        panel=vary((45, 45, 45), 10),
        light_angle=float(rng.uniform(0, 2 * np.pi)),
        light_strength=float(rng.uniform(0.08, 0.25)),
        glare=float(rng.uniform(0.2, 0.8)),
        skin=vary(skin_tones[rng.integers(len(skin_tones))], 10),
        sleeve=vary(sleeves[rng.integers(len(sleeves))], 15),
        jitter=float(rng.uniform(0.4, 1.4)),
    )
