"""先摸 early draw: a tile taken from the wall before it is the seat's turn to draw.

M-League ch.3 §8.3-8.4: the draw may start only after kamicha's discard has landed and been
seen; drawing earlier is 先摸, penalty ``dead_hand`` (和了放棄); ch.3 §4.8: taking the dealer's
first draw is the same. 004 六.6.1: one draws after kamicha's discard (and no call on it).
003 行牌规定 三: 上家未打出牌，自己不能动手摸牌 (MCR: ``warning``).

Code ``early_draw``. Needs the camera's ``wall_take``; a pure mjai record cannot show it.

Reported when the seat next in turn takes from the wall while the seat before it has not
discarded yet (the way 先摸 happens), and for any take before the dealer's first draw (ch.3
§4.8). A take seen at any other moment (e.g. by the seat that has just discarded) is what a
miscounted hand looks like to the camera, and is not reported on that evidence alone.
"""

from __future__ import annotations

from rules_check.situation import Finding, Situation

CODE = "early_draw"
ARTICLES = {"mleague": "M-League ch.3 §8.3-8.4", "riichi": "004 六.6.1", "mcr": "003 行牌规定 三"}


def turn(history: list, oya: int) -> tuple[set[int], int | None]:
    """(seats that may take from the wall now, the seat in the middle of its turn)."""
    allowed, owner = {oya}, None
    for e in history:
        kind = e.type
        if kind == "tsumo":
            owner = e.actor
        elif kind == "wall_take":
            allowed, owner = set(), e.actor
        elif kind == "dahai":
            allowed, owner = {(e.actor + 1) % 4}, None
        elif kind in ("chi", "pon"):
            allowed, owner = set(), e.actor
        elif kind in ("daiminkan", "kakan", "ankan", "flower"):
            allowed, owner = {e.actor}, e.actor  # the replacement draw
        elif kind in ("hora", "ryukyoku"):
            allowed, owner = set(), None
    return allowed, owner


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "wall_take":
        return []
    seat = event.actor
    allowed, owner = turn(situation.history, situation.table.oya)
    if seat in allowed or owner == seat or event.dead_wall:
        return []  # its own turn (a second take shows up in the tile count instead)
    first_draw = not any(e.type in ("tsumo", "wall_take", "dahai") for e in situation.history)
    current = owner if owner is not None else (next(iter(allowed)) if len(allowed) == 1 else None)
    if not first_draw and (current is None or seat != (current + 1) % 4):
        return []
    if first_draw:
        why = "the dealer had not made its first draw"
    elif owner is not None:
        why = f"seat {owner} had not discarded yet"
    else:
        why = f"seat {current} had not drawn and discarded yet"
    return [
        Finding(
            CODE,
            seat,
            f"先摸 early draw: seat {seat} took a wall tile while {why} ({situation.article(ARTICLES)})",
        )
    ]
