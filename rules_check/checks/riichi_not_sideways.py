"""The riichi declaration tile must lie sideways; if it is called, the next discard does.

M-League ch.4 §8.2 (立直宣言 ... 将打出牌横置) and §8.4 (若立直宣言牌被吃、碰、杠，则下一巡的打出
牌需横置); 004 役 立直 (将牌横向打出). No penalty named: ``warning``. Not in MCR (no riichi).

Code ``riichi_not_sideways``; needs ``Dahai.slot``. A camera that missed the declaration (the tile
upright) reads the riichi from its stick, after the tile: a ``reach`` that comes once the seat has
discarded names its last discard as the declaration tile, judged only when the camera says it saw
that tile upright (``Reach.declaration_upright``): a sideways tile it failed to read sideways
looks the same in the record, and is far more common than the irregularity. A tile so seen that a
call took before the stick was read was discarded upright all the same (§8.2): judged too.
"""

from __future__ import annotations

from rules_check.situation import Finding, Situation

CODE = "riichi_not_sideways"
ARTICLES = {"mleague": "M-League ch.4 §8.2, §8.4", "riichi": "004 役 立直"}


def check(event, situation: Situation) -> list[Finding]:
    if event.type == "reach":
        return _read_late(event, situation)
    if event.type != "dahai" or event.slot is None or event.slot.sideways:
        return []
    seat = situation.table.seats[event.actor]
    if not seat.sideways_next:
        return []
    called = any(s.sideways and s.called_away for s in seat.river_kept)
    what = "the discard after the called riichi tile" if called else "the riichi declaration tile"
    return [
        Finding(
            CODE,
            event.actor,
            f"{what} ({event.pai}) is upright, it must lie sideways ({situation.article(ARTICLES)})",
            case="after_call" if called else None,
        )
    ]


def _read_late(event, situation: Situation) -> list[Finding]:
    """A riichi the camera read only from its stick, after the declaration tile was discarded:
    that tile (the seat's last discard, lying as it was placed) was not sideways."""
    seat = situation.table.seats[event.actor]
    if seat.hand_count % 3 != 1 or not seat.river_kept:
        return []  # declared holding the tile to discard: judged on that discard
    if event.declaration_upright is not True:
        return []  # the camera is not sure how the tile lies
    last = seat.river_kept[-1]
    if last.sideways:
        return []  # (a tile a call took after the camera saw it upright was laid upright all the same)
    return [
        Finding(
            CODE,
            event.actor,
            f"the riichi declaration tile ({last.code}) is upright (riichi seen from its stick), "
            f"it must lie sideways ({situation.article(ARTICLES)})",
        )
    ]
