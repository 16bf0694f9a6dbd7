"""Calls that the rules do not allow at that moment.

Cases (``illegal_call`` with a case; the penalty may differ per case):

* ``houtei`` — chi/pon/daiminkan on the last discard of the kyoku: M-League ch.2 §4 (河底牌: 其余玩家
  不得吃、碰、杠); ron on it is fine. The wall is counted as the table state has it (a discard a
  camera took back as never made returns the draw taken back with it).
* ``kan_last_tile`` — ankan/kakan after drawing the last live tile: M-League ch.2 §3 (摸海底牌者不得开杠).
* ``fifth_kan`` — a fifth kan in one kyoku: M-League ch.4 §5.4 (一局中总计最多开4次杠); 004 3.2.
* ``chi_not_kamicha`` — chi on a discard that did not come from the left: ch.4 §3.1; 003 五.
* ``riichi_call`` — chi/pon/daiminkan after declaring riichi (only a closed kan is allowed, ch.4 §8.8).
* ``riichi_ankan`` — ankan after riichi that is not on the drawn tile or changes the wait: ch.4 §5.2,
  ch.7 §4.2(2) — ``chombo``; judged only when the state knows the hand.
* ``dead_hand`` — a call or riichi by a seat whose hand is dead (和了放棄): ch.7 §2.1 — ``chombo``.

Penalties: M-League/riichi ``dead_hand`` (the call does not exist), the two chombo cases above;
MCR ``warning``.
"""

from __future__ import annotations

from rules_check.checks.invalid_meld import is_set
from rules_check.hands import concealed_of, waits
from rules_check.situation import CALLS, KANS, Finding, Situation
from tracker import tiles

CODE = "illegal_call"
ARTICLES = {
    "houtei": "M-League ch.2 §4",
    "kan_last_tile": "M-League ch.2 §3",
    "fifth_kan": "M-League ch.4 §5.4; 004 六.3.2",
    "chi_not_kamicha": "M-League ch.4 §3.1; 003 行牌规定 五",
    "riichi_call": "M-League ch.4 §8.8",
    "riichi_ankan": "M-League ch.4 §5.2, ch.7 §4.2(2)",
    "dead_hand": "M-League ch.7 §2.1",
}


def still_found(evidence: list) -> bool:
    """A chi from the wrong seat (the only case a camera's reading may take back) as the camera
    reads the call now: still a chi."""
    return evidence[0].type == "chi"


def _finding(seat: int, case: str, text: str) -> Finding:
    return Finding(CODE, seat, f"illegal {text} ({ARTICLES[case]})", case=case)


def _riichi_ankan_changes_wait(event, situation: Situation) -> str | None:
    seat = situation.table.seats[event.actor]
    hand = concealed_of(situation.table, event.actor)
    if hand is None or seat.drawn is None:
        return None
    kind = tiles.deaka(event.consumed[0])
    if tiles.deaka(seat.drawn) != kind:
        return f"ankan of {kind} after riichi with a tile from the hand, not the drawn {seat.drawn}"
    before = list(hand)
    before.remove(seat.drawn)
    after = list(hand)
    for code in event.consumed:
        if code not in after:
            return None
        after.remove(code)
    if waits(before) != waits(after):
        return f"ankan of {kind} after riichi changes the wait"
    return None


def check(event, situation: Situation) -> list[Finding]:
    kind = event.type
    if kind not in CALLS and kind not in KANS and kind != "reach":
        return []
    seat = event.actor
    table = situation.table
    out = []
    if seat in situation.dead:
        what = "riichi" if kind == "reach" else kind
        out.append(_finding(seat, "dead_hand", f"{what} by seat {seat}, whose hand is dead (和了放棄)"))
    if kind == "reach":
        return out
    if kind in CALLS and situation.table.live_wall <= 0:
        out.append(_finding(seat, "houtei", f"{kind} on the last discard of the kyoku (河底牌)"))
    if kind in ("ankan", "kakan") and situation.table.live_wall <= 0:
        out.append(_finding(seat, "kan_last_tile", f"{kind} after drawing the last tile (海底牌)"))
    limit = situation.ruleset.max_kans
    if kind in KANS and limit is not None and table.kans >= limit:
        out.append(_finding(seat, "fifth_kan", f"{kind}: kan number {table.kans + 1} in one kyoku"))
    if kind == "chi" and event.target != (seat + 3) % 4 and is_set("chi", [event.pai, *event.consumed]):
        # (tiles that make no run are an invalid meld, judged there: not a chi from anyone)
        out.append(_finding(seat, "chi_not_kamicha", f"chi on seat {event.target}'s discard (not kamicha)"))
    if kind in CALLS and table.seats[seat].riichi:
        out.append(_finding(seat, "riichi_call", f"{kind} after declaring riichi"))
    if kind == "ankan" and table.seats[seat].riichi:
        why = _riichi_ankan_changes_wait(event, situation)
        if why:
            out.append(_finding(seat, "riichi_ankan", why))
    return out
