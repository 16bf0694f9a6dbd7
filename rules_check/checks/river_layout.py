"""River layout: discards six a row, left to right, rows toward the centre; no stray sideways tile.

M-League ch.3 §10 (舍牌从左至右, 一列6张); 004 六.6.2 (6 张一列); 003 行牌规定 四 (MCR: 从左向右
摆放, 第6张后另放一行). No rulebook names a penalty: ``warning``.

Code ``river_layout``: case ``seventh`` for a ``Dahai.slot`` in a seventh column (a row already
holds six: the tile should start the next row), case ``sideways`` for a tile lying sideways with
no riichi to explain it. Reported once per seat and kyoku (a shifted river would otherwise alert
at every discard).

A slot further along or further back than the record's count of tiles in that river is not
reported: from a camera that is what a discard it missed, or one it saw twice, looks like, and
a gap in a river cannot be told from a missed discard. A seventh tile in a row can, when the
record agrees that its row was full and the next empty. Neither case is judged on a doubled
reading (the same seat's second discard with no other play between: a tile of that river seen
twice, e.g. one the camera lost track of and found again). From a camera both cases wait for
the readings to settle (``rules_check.checker.SETTLING``): a riichi declaration tile read one
place on, after the first reading of it, is a second discard with no reach left to explain it
until the first reading is taken back; a seventh tile comes after six only while none of the
row's other readings is taken back (on the second evaluation set the five false seventh tiles,
each after a tile of its row seen twice or a ghost, were all dropped so; the six staged river
faults were still found).
"""

from __future__ import annotations

from rules_check.situation import PLAY, Finding, Situation
from tracker.events import taken_back
from tracker.table import layout

CODE = "river_layout"
ARTICLES = {"mleague": "M-League ch.3 §10", "riichi": "004 六.6.2", "mcr": "003 行牌规定 四"}


def rests_on(before: list, event, case: str | None) -> list:
    """The earlier discards a held finding of ``case`` on ``event`` (a discard) rests on, as first
    emitted, from ``before`` (the kyoku's events before it). ``"sideways"``, a tile judged stray:
    the discard that took the sideways place of its seat's last reach (the camera may have read
    the declaration tile twice, the first time one place off, and take that reading back: then
    the later one was the declaration tile). ``"seventh"``, a seventh tile in a row: that seat's
    other discards in the row (the record's count of them is the evidence: one of them taken
    back, a tile the camera saw twice, leaves the row short of six)."""
    if event.type != "dahai" or event.slot is None:
        return []
    seat = event.actor
    if case == "sideways":
        reach = max((i for i, e in enumerate(before) if e.type == "reach" and e.actor == seat), default=None)
        if reach is None:
            return []
        return [e for e in before[reach + 1 :] if e.type == "dahai" and e.actor == seat][:1]
    if case == "seventh":
        return [
            e
            for e in before
            if e.type == "dahai" and e.actor == seat and e.slot is not None and e.slot.row == event.slot.row
        ]
    return []


def still_found(evidence: list) -> bool:
    """A discard's face read again does not move it or turn it: still found. (What the finding
    also rests on, ``rests_on``, taken back drops it: ``rules_check.checker``.)"""
    return True


def _doubled(situation: Situation, event) -> bool:
    """A seat's second discard with no other seat's play between: the camera seeing a tile of
    that river twice (one it lost track of and found again), not a discard to judge."""
    last = next((e for e in reversed(situation.history) if e.type in PLAY and e.type != "tsumo"), None)
    return last is not None and last.type == "dahai" and last.actor == event.actor


def _row_full(situation: Situation, event, row: int) -> bool:
    """The record agrees the tile came when its row was full and the next still empty (as with a
    seventh tile laid there), and the camera took back none of the row's readings before (a tile
    of the row taken back as gone leaves its count to a ghost or a tile seen twice: set 2's
    hanchan-jansou-1 4729, a ghost in a row whose real tile had been taken back)."""
    seat = situation.table.seats[event.actor]
    if len(seat.river_present) != layout.RIVER_ROW * (row + 1):
        return False
    history = situation.history
    return not any(
        history[i].type == "dahai"
        and history[i].actor == event.actor
        and history[i].slot is not None
        and history[i].slot.row == row
        for i in taken_back(history)
    )


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "dahai" or event.slot is None or _doubled(situation, event):
        return []
    seat = situation.table.seats[event.actor]
    slot = event.slot
    out = []
    where = situation.article(ARTICLES)
    if slot.col >= layout.RIVER_ROW and _row_full(situation, event, slot.row):
        out.append(
            Finding(
                CODE,
                event.actor,
                f"discard {event.pai} placed at row {slot.row + 1} column {slot.col + 1}, "
                f"expected row {slot.row + 2} column 1 (six a row, left to right; {where})",
                case="seventh",
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
