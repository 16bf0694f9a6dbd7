"""False win (错和/诈和): a win declared on a hand that is no win.

Cases of ``false_win``:

* ``not_complete`` — the revealed hand is not pair + sets / seven pairs / thirteen orphans
  (M-League ch.5 §1.1; MCR 003 和牌的要求 (一), which PyMahjongGB judges).
* ``no_yaku`` — riichi rules: no yaku (M-League ch.1 §3 一翻缚; 004 七.7.1).
* ``furiten`` — ron while furiten (M-League ch.5 §5; 004 振听): a wait in the winner's own
  discards, a winning tile passed since its last discard, or passed after its riichi.
* ``below_min_fan`` — MCR: fewer than 8 fan without flowers (003 和牌的前提 2).
* ``dead_hand`` — a win by a seat whose hand is dead (和了放棄, 相公).

Penalty: M-League ``chombo`` (ch.7 §4.2(1)); riichi ``chombo`` (004 七.4: 诈和 按照违规处理);
MCR ``penalty_points`` (003 罚分). Judged only when the hand is known: laid open in ``Hora.hand``
or known to the state (a full game record).

A hand read from a camera can be misread by one tile, which makes a good win look incomplete. So
a hand whose tiles, with every other tile in view (rivers, melds, dora indicators), give a fifth
copy of a kind is a misreading, not evidence: no ``not_complete`` / ``no_yaku`` judgement on it.
A hand two or more tiles from complete is a misreading too (a false win is declared on a hand
one tile off): ``not_complete`` is judged on hands one tile off only. A complete concealed part
beside a meld whose tiles make no set is judged by ``invalid_meld`` at the call, not here; nor is
a hand in which a tile the camera read unsurely (``Hora.hand_unsure``), read as another kind,
would complete it: that tile is the likeliest misreading (a referee would rather look again than
call a chombo on it). Nor is any hand judged whose tiles were read unsurely more often than surely:
such a reading is no evidence of the hand (set 8's hanchan-jansou-0 9390, low camera: 10 of 13
unsure, three misread, a good shanpon read one tile off). Nor is
``no_yaku`` judged on a closed hand without riichi in a camera's stream (riichi is read from the
sideways declaration tile; an upright one, itself a fault, would hide the yaku), nor on
a hand with a wind triplet (a camera does not see the round wind).
"""

from __future__ import annotations

from rules_check.checks.invalid_meld import is_set
from rules_check.hands import fifth_copy, shanten, waits, winning_hand
from rules_check.situation import Finding, Situation
from rules_check.value import NoValue, evaluate
from tracker import tiles
from tracker.events import as_corrected, taken_back

CODE = "false_win"
ARTICLES = {
    "mleague": "M-League ch.7 §4.2(1)",
    "riichi": "004 七.4",
    "mcr": "003 和牌的前提",
}


def _plays_read_surely(history: list, wanted: set[str]) -> list:
    """The kyoku's plays with the camera's retractions applied (a discard taken back as gone is
    none), a discard the camera read as a wanted kind once and as another kind once (read again)
    unread: either reading may be the wrong one (set 2's hanchan-jansou-0 16630: a P corrected to
    2s; set 3's hanchan-jansou-1 21265: a tile corrected to 9m; furiten on the first reading in
    one, on the correction in the other, each a false ron)."""
    gone = taken_back(history)
    plays = []
    for i, e in enumerate(history):
        if e.type == "retract" or i in gone:
            continue
        now = as_corrected(e, history)
        # (an unread face, ``?``, is no reading of another kind)
        read = e.type == "dahai" and tiles.UNKNOWN not in (e.pai, now.pai)
        if read and (tiles.deaka(e.pai) in wanted) != (tiles.deaka(now.pai) in wanted):
            now = now.model_copy(update={"pai": tiles.UNKNOWN})
        plays.append(now)
    return plays


def furiten_reason(event, situation: Situation, hand: list[str], pai: str) -> str | None:
    """Why a ron is furiten, or None."""
    seat = event.actor
    concealed = list(hand)
    concealed.remove(pai)
    wanted = waits(concealed)
    history = _plays_read_surely(situation.history, wanted)
    # the winning discard (or robbed kakan) is the last play of the target: not "passed"
    end = len(history)
    for i in range(len(history) - 1, -1, -1):
        e = history[i]
        if e.type in ("dahai", "kakan") and e.actor == event.target:
            end = i
            break
    last_own = None
    reach_at = None
    for i, e in enumerate(history[:end]):
        if e.type == "dahai" and e.actor == seat:
            if tiles.deaka(e.pai) in wanted:
                return f"{e.pai} is in the winner's own discards"
            last_own = i
        if e.type == "reach" and e.actor == seat:
            reach_at = i
    since = last_own if reach_at is None else min(x for x in (last_own, reach_at) if x is not None)
    if since is None:
        return None
    for e in history[since + 1 : end]:
        if e.type in ("dahai", "kakan") and e.actor != seat and tiles.deaka(e.pai) in wanted:
            when = "after riichi" if reach_at is not None and reach_at <= since else "since its last discard"
            return f"{e.pai} from seat {e.actor} was passed {when}"
    return None


def _yaku_unseen(event, situation: Situation, hand: list[str]) -> bool:
    """In a camera's stream, a yaku the camera cannot see: riichi on a closed hand (an upright
    declaration tile, a stick it cannot read), or the round wind (a camera does not see which
    round it is, so a wind triplet may be 場風). Then "no yaku" is no evidence."""
    if not any(e.type == "dahai" and e.slot is not None for e in situation.history):
        return False  # a game record: riichi and round are known
    seat = situation.table.seats[event.actor]
    if all(m.type == "ankan" for m in seat.melds) and not seat.riichi:
        return True
    shown = list(hand) + [c for m in seat.melds for c in m.all_tiles]
    return any(shown.count(wind) >= 3 for wind in ("E", "S", "W", "N"))


def _melds_are_sets(melds) -> bool:
    """Every meld's tiles (a kakan's four, an ankan's) can be its set."""
    return all(is_set("chi" if m.type == "chi" else "pon", m.all_tiles) for m in melds)


def _read_mostly_unsurely(event) -> bool:
    """Were more of the laid-open hand's tiles read unsurely than surely?"""
    laid = event.hand or []
    return len(set(event.hand_unsure or ()) & set(range(len(laid)))) * 2 > len(laid)


def _unsure_tile_completes(event, hand: list[str]) -> bool:
    """Would one tile of ``hand`` read unsurely, read as some other kind, make it complete?"""
    for code in {event.hand[i] for i in event.hand_unsure or () if i < len(event.hand)}:
        rest = list(hand)
        rest.remove(code)
        if waits(rest) - {tiles.deaka(code)}:
            return True
    return False


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "hora":
        return []
    seat = event.actor
    where = situation.article(ARTICLES)
    if seat in situation.dead:
        return [
            Finding(
                CODE, seat, f"win declared by seat {seat}, whose hand is dead ({where})", case="dead_hand"
            )
        ]
    found = winning_hand(event, situation.table)
    if found is None:
        return []
    hand, pai = found
    shown = tiles.dump(tiles.sorted_codes(hand))
    in_hand = list(hand)
    if event.actor != event.target:
        in_hand.remove(pai)  # a ron tile still lies in the discarder's river
    if fifth_copy(situation.table, in_hand) is not None:
        return []  # the hand or the table is misread somewhere: no judgement on this reading
    if _read_mostly_unsurely(event):
        return []
    try:
        value = evaluate(event, situation.table, situation.ruleset)
    except NoValue as err:
        reason = str(err)
        if reason == "no_yaku" and _yaku_unseen(event, situation, hand):
            return []
        if reason == "no_yaku":
            case, text = "no_yaku", "no yaku"
        elif "fan" in reason:
            case, text = "below_min_fan", reason
        elif shanten(hand) > 0:
            return []  # two or more tiles from complete: nobody declares that, the camera misread it
        elif shanten(hand) < 0 and not _melds_are_sets(situation.table.seats[seat].melds):
            return []  # the concealed part wins; a meld read as no set is invalid_meld's to judge
        elif _unsure_tile_completes(event, hand):
            return []
        else:
            case, text = "not_complete", "the hand is not complete"
        return [Finding(CODE, seat, f"false win on {pai} with {shown}: {text} ({where})", case=case)]
    if value is None or situation.ruleset.scoring == "mcr" or event.actor == event.target:
        return []
    why = furiten_reason(event, situation, hand, pai)
    if why:
        return [Finding(CODE, seat, f"furiten ron on {pai} with {shown}: {why} ({where})", case="furiten")]
    return []
