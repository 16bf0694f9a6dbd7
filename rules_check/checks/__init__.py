"""The checks, one per file (like MahjongRepository/mahjong's one yaku per file).

Each module has ``check(event, situation) -> list[Finding]``, a docstring citing the seed article
it enforces with the penalty under each profile, and its stable alert code(s).
"""

from __future__ import annotations

from rules_check.checks import (
    dora_not_flipped,
    early_draw,
    exposed_tiles,
    false_win,
    illegal_call,
    invalid_meld,
    kuikae,
    meld_orientation,
    noten_riichi,
    riichi_not_sideways,
    river_layout,
    tile_count,
    time_limit,
)

MODULES = (
    early_draw,
    meld_orientation,
    tile_count,
    river_layout,
    riichi_not_sideways,
    kuikae,
    invalid_meld,
    illegal_call,
    dora_not_flipped,
    false_win,
    noten_riichi,
    time_limit,
    exposed_tiles,
)
CHECKS = tuple(m.check for m in MODULES)
