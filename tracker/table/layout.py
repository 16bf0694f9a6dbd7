"""The physical layout rules of the table (DESIGN.md, M-League ch.4 §6, MCR 行牌规定 八).

Everything that decides where a tile lies lives here: river rows, which tile of a meld is turned
sideways, which tiles of an ankan are face down, how many tiles the wall holds. The renderer draws
from these and the tracker checks against them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tracker.tiles import BONUS, RED_FIVES

RIVER_ROW = 6  # discards per river row

# offset of the target seat from the caller -> index of the sideways tile in the meld
# (tiles listed left to right as the meld's owner sees them)
KAMICHA, TOIMEN, SHIMOCHA = 3, 2, 1
PON_SIDEWAYS = {KAMICHA: 0, TOIMEN: 1, SHIMOCHA: 2}
DAIMINKAN_SIDEWAYS = {KAMICHA: 0, TOIMEN: 1, SHIMOCHA: 3}

MeldType = Literal["chi", "pon", "daiminkan", "kakan", "ankan"]


class TableRules(BaseModel):
    """What differs between rulesets in the physical game."""

    model_config = ConfigDict(frozen=True)

    tiles: int = 136  # tiles in the set
    dead_wall: int = 14  # tiles kept back for kan replacements and indicators
    stacks_per_side: int = 17  # wall length in front of each player, two tiles high
    ankan_face_down: Literal["middle", "ends"] = "middle"
    # faces the set has none of, which no tile is read as: Japanese sets have no flowers or
    # seasons, MCR sets no red fives
    absent_tiles: tuple[str, ...] = BONUS


MLEAGUE = TableRules()
RIICHI = TableRules()
MCR = TableRules(tiles=144, dead_wall=0, stacks_per_side=18, ankan_face_down="ends", absent_tiles=RED_FIVES)

RULES_BY_NAME = {"mleague": MLEAGUE, "riichi": RIICHI, "mcr": MCR}


def river_position(index: int) -> tuple[int, int]:
    """(row, column) of the index-th tile lying in a river: six a row, rows toward the centre."""
    return divmod(index, RIVER_ROW)


def relative(actor: int, target: int) -> int:
    """Seat offset of ``target`` from ``actor``: 1 shimocha, 2 toimen, 3 kamicha."""
    return (target - actor) % 4


def open_meld_order(kind: MeldType, called: str, consumed: list[str], offset: int) -> tuple[list[str], int]:
    """Tiles of a called meld left to right as its owner lays them, and the sideways index.

    Chi: the called tile at the left, the rest in ascending order. Pon and daiminkan: the called
    tile toward the seat it came from (left for kamicha, middle / second for toimen, right for
    shimocha).
    """
    if kind == "chi":
        if offset != KAMICHA:
            raise ValueError("chi must be called from kamicha (the player on the left)")
        return [called] + sorted(consumed, key=_number_key), 0
    table = PON_SIDEWAYS if kind == "pon" else DAIMINKAN_SIDEWAYS
    if offset not in table:
        raise ValueError(f"{kind} cannot be called from one's own discard")
    index = table[offset]
    rest = list(consumed)
    return rest[:index] + [called] + rest[index:], index


def ankan_face_down(rules: TableRules) -> tuple[int, ...]:
    """Positions of the face-down tiles of an ankan."""
    return (1, 2) if rules.ankan_face_down == "middle" else (0, 3)


def _number_key(code: str) -> tuple[str, str]:
    return (code[:2], code)


def live_wall_at_start(rules: TableRules) -> int:
    """Tiles left to draw after the deal (13 to each player; the dealer's 14th is a draw)."""
    return rules.tiles - rules.dead_wall - 13 * 4
