"""Tiles exposed by accident: a concealed or wall tile seen face up outside a legal reveal.

M-League ch.7 §5.5(2): exposing two or more tiles (wall or hand) without intent — ``yellow_card``
(one tile alone carries no penalty there). Riichi / MCR: ``warning`` from the first tile.

Code ``exposed_tiles`` (case ``single`` for the first tile of an incident); one incident is the run
of the seat's ``tile_exposed`` observations with no play in between, reported once.
"""

from __future__ import annotations

from rules_check.situation import PLAY, Finding, Situation

CODE = "exposed_tiles"
ARTICLES = {"mleague": "M-League ch.7 §5.5(2)", "riichi": "004 违规", "mcr": "003 行牌规定"}


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "tile_exposed":
        return []
    start = 0
    count = 1
    history = situation.history
    for i in range(len(history) - 1, -1, -1):
        e = history[i]
        if e.type in PLAY:
            start = i + 1
            break
        if e.type == "tile_exposed" and e.actor == event.actor:
            count += 1
    exposed = [e.pai for e in history[start:] if e.type == "tile_exposed" and e.actor == event.actor]
    exposed.append(event.pai)
    return [
        Finding(
            CODE,
            event.actor,
            f"seat {event.actor} exposed {len(exposed)} tile(s): {' '.join(exposed)} "
            f"({situation.article(ARTICLES)})",
            case="single" if count == 1 else None,
            once=("incident", start),
        )
    ]
