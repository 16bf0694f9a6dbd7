"""大相公 / 小相公: a hand with too many or too few tiles.

M-League ch.2 §1 (13 tiles, one more per kan) and ch.7 §2.2(1): 14+ tiles (not counting kans) is
大相公, 12 or fewer 小相公, both ``dead_hand`` at once. 002 相公 (MCR, ``xianggong``): 手牌数多於
或少于规定的数量.

Codes ``tile_count_excess`` / ``tile_count_short``. Evidence: the camera's ``hand_count`` (standing
tiles at a still moment) against the concealed count the record implies (13 - 3 per meld, one more
while the seat holds its drawn or called tile; then a count one lower is accepted as well, since
the drawn tile may still be in the player's fingers). Reported once per seat and kyoku.
"""

from __future__ import annotations

from rules_check.situation import Finding, Situation

EXCESS, SHORT = "tile_count_excess", "tile_count_short"
ARTICLES = {"mleague": "M-League ch.7 §2.2(1)", "riichi": "M-League ch.7 §2.2(1) practice", "mcr": "002 相公"}


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "hand_count":
        return []
    seat = event.actor
    expected = situation.table.seats[seat].hand_count
    in_turn = expected % 3 == 2  # holding the tile it will discard
    accepted = {expected, expected - 1} if in_turn else {expected}
    if event.count in accepted:
        return []
    code, name = (EXCESS, "大相公 too many") if event.count > expected else (SHORT, "小相公 too few")
    return [
        Finding(
            code,
            seat,
            f"{name} tiles: {event.count} standing, expected {expected} with "
            f"{len(situation.table.seats[seat].melds)} melds ({situation.article(ARTICLES)})",
            once=("count",),
        )
    ]
