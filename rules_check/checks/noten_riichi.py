"""Noten riichi (不听立直): at an exhaustive draw a riichi player's hand is not tenpai.

M-League ch.7 §4.2(2) — ``chombo`` (tenpai as in ch.3 §11.2: a wait whose four tiles are all in
one's own hand and melds does not count); 004 8.1.2 (虚假立直 is punished) — ``chombo``. Not in MCR.

Code ``noten_riichi``. Judged from the hands laid open (``Ryukyoku.hands``) or a fully known
state; abortive draws show no hands and are skipped. A shown hand holding a kind of which, with
the tiles already on the table (rivers, melds, indicators, the other hands shown), there would be
more than four is misread (a camera's reading of a far hand): nothing is judged on it; nor is a
hand with a tile the camera read unsurely (``Ryukyoku.hands_unsure``): a chombo on a hand not read
surely throughout is no evidence (set 3's hanchan-jansou-mleague-hanchan, a 960x540 low camera:
a riichi hand of 13, three tiles read unsurely and two more misread, a false noten riichi).
"""

from __future__ import annotations

from collections import Counter

from rules_check.hands import is_tenpai, revealed_at_draw
from rules_check.situation import ABORTIVE, Finding, Situation
from tracker import tiles

CODE = "noten_riichi"
ARTICLES = {"mleague": "M-League ch.7 §4.2(2)", "riichi": "004 8.1.2"}


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "ryukyoku" or (event.reason in ABORTIVE):
        return []
    out = []
    for seat, state in enumerate(situation.table.seats):
        if not state.riichi:
            continue
        hand = revealed_at_draw(event, situation.table, seat)
        if hand is None or len(hand) % 3 != 1 or _over_four(seat, hand, event, situation):
            continue
        if _read_unsurely(event, seat):
            continue
        if not is_tenpai(situation.table, seat, hand, situation.ruleset.tenpai_needs_live_wait):
            out.append(
                Finding(
                    CODE,
                    seat,
                    f"noten riichi: seat {seat} shows {tiles.dump(tiles.sorted_codes(hand))}, not tenpai "
                    f"({situation.article(ARTICLES)})",
                )
            )
    return out


def _read_unsurely(event, seat: int) -> bool:
    """Did the camera read a tile of the seat's shown hand unsurely (``Ryukyoku.hands_unsure``)?"""
    unsure = getattr(event, "hands_unsure", None) or []
    return seat < len(unsure) and bool(unsure[seat])


def _over_four(seat: int, hand: list[str], event, situation: Situation) -> bool:
    """Would a kind of ``hand`` (seat's) number more than four with the hands shown and the tiles
    on the table?"""
    table = situation.table
    codes = list(table.dora_indicators)
    for state in table.seats:
        codes += [s.code for s in state.river_present]
        for meld in state.melds:
            codes += meld.all_tiles
    shown = getattr(event, "hands", None) or []
    for laid in shown:
        codes += laid or []
    if not (seat < len(shown) and shown[seat]):
        codes += hand  # known from the state, not shown
    kinds = Counter(tiles.kind34(c) for c in codes if c != tiles.UNKNOWN and not tiles.is_bonus(c))
    return any(kinds[tiles.kind34(c)] > 4 for c in hand if c != tiles.UNKNOWN and not tiles.is_bonus(c))
