"""River layout: discards six a row, left to right, rows toward the centre; no stray sideways tile.

M-League ch.3 §10 (舍牌从左至右, 一列6张); 004 六.6.2 (6 张一列); 003 行牌规定 四 (MCR: 从左向右
摆放, 第6张后另放一行). No rulebook names a penalty: ``warning``.

Code ``river_layout``: a ``Dahai.slot`` at another row/column than the next free slot (called
tiles leave the river), case ``sideways`` for a tile lying sideways with no riichi to explain it.
Reported once per seat and kyoku (a shifted river would otherwise alert at every discard).
"""

from __future__ import annotations

from rules_check.situation import Finding, Situation
from tracker.table import layout

CODE = "river_layout"
ARTICLES = {"mleague": "M-League ch.3 §10", "riichi": "004 六.6.2", "mcr": "003 行牌规定 四"}


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "dahai" or event.slot is None:
        return []
    seat = situation.table.seats[event.actor]
    row, col = layout.river_position(len(seat.river_present))
    slot = event.slot
    out = []
    where = situation.article(ARTICLES)
    if (slot.row, slot.col) != (row, col):
        out.append(
            Finding(
                CODE,
                event.actor,
                f"discard {event.pai} placed at row {slot.row + 1} column {slot.col + 1}, "
                f"expected row {row + 1} column {col + 1} (six a row, left to right; {where})",
                once=("slot",),
            )
        )
    if slot.sideways and not seat.sideways_next:
        out.append(
            Finding(
                CODE,
                event.actor,
                f"discard {event.pai} lies sideways without a riichi declaration ({where})",
                case="sideways",
                once=("sideways",),
            )
        )
    return out
