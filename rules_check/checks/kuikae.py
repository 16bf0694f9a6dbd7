"""食替 kuikae: right after a chi or pon, discarding a tile that forms a set with the exposed pair or
partial run.

M-League ch.7 §2.2(3): 食替指碰或吃时，打出的牌与副露的对子或搭子能组成面子 — both the called kind
(genbutsu) and the other end of a two-sided run (suji: chi 6 with 45, discard 3) — ``dead_hand``.
004 七.3 吃换 (the same swap; ``dead_hand`` in the riichi profile). MCR allows it (003 五).

Code ``kuikae``. A discard on a later turn, or one that forms no set with the exposed tiles (chi 5
with 46 then 2 or 8; chi 3 with 12 then 6), is legal. As in the other checks on a camera's
readings, a table showing a fifth copy of a kind with the discard is misread somewhere: no
judgement on it (``rules_check.hands.fifth_copy``).
"""

from __future__ import annotations

import copy
from collections import Counter

from rules_check.hands import fifth_copy
from rules_check.situation import Finding, Situation
from tracker import tiles
from tracker.events import as_corrected, corrected, event_key, taken_back

CODE = "kuikae"
PLAYS = ("tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "flower")
ARTICLES = {"mleague": "M-League ch.7 §2.2(3)", "riichi": "004 七.3 吃换"}


def forbidden(call) -> set[str]:
    """Kinds (plain codes) that complete a set with the tiles the call exposed from the hand. The
    called kind always does (genbutsu), even where the camera could not read an exposed tile."""
    called = {tiles.deaka(call.pai)} - {tiles.UNKNOWN}
    a, b = (tiles.deaka(c) for c in call.consumed)
    if call.type == "pon":
        # a pon's three tiles are one kind: the one most of its reads name (the called tile's on a tie)
        reads = Counter(k for k in (tiles.deaka(call.pai), a, b) if k != tiles.UNKNOWN)
        return {reads.most_common(1)[0][0]} if reads else set()
    suit = tiles.suit(a)
    if suit not in tiles.SUITS or tiles.suit(b) != suit:
        return called  # unknown (``?``) or honour tiles: no run to swap within
    lo, hi = sorted((tiles.number(a), tiles.number(b)))
    if hi - lo == 1:
        ends = (lo - 1, hi + 1)
    elif hi - lo == 2:
        ends = (lo + 1,)
    else:
        return called
    return called | {f"{n}{suit}" for n in ends if 1 <= n <= 9}


def rests_on(before: list, event, case: str | None = None) -> list:
    """The other events a kuikae finding on ``event`` judges, as first emitted, from ``before``
    (the kyoku's events before it): for a discard, the seat's last chi or pon; for a call read
    again after the discard that followed it, that discard; and the retractions that took back
    plays between them (a ghost's box seen as a discard: seen again, it was a play between)."""
    if event.type == "retract":
        judged = _discard_after(before, event)
        return [e for e in judged[0][1:] + judged[1] if event_key(e) != event.names] if judged else []
    after = _after_call(before, event.actor)
    return [] if after is None else after[0][:1] + [r for _, r in after[1]]


def _after_call(history: list, actor: int, at: int | None = None) -> tuple[list, list] | None:
    """(the plays still standing from ``actor``'s chi or pon at index ``at`` of ``history`` on, the
    call first; (play, its retraction) for those taken back), for its last call still standing
    by default; None without one."""
    calls = (
        [at]
        if at is not None
        else [
            i
            for i in range(len(history) - 1, -1, -1)
            if history[i].type in ("chi", "pon") and history[i].actor == actor
        ]
    )
    for i in calls:
        tail = history[i:]  # (what takes back a play after the call comes after it too)
        gone = taken_back(tail)
        if 0 in gone:
            continue  # (the call taken back: a ghost's, or read at a wrong moment)
        standing = [e for j, e in enumerate(tail) if e.type in PLAYS and j not in gone]
        undone = [(e, tail[gone[j]]) for j, e in enumerate(tail) if j in gone and e.type in PLAYS]
        return standing, undone
    return None


def _discard_after(history: list, fix) -> tuple[list, list] | None:
    """([the call, the discard] as first emitted, the retractions of plays taken back between
    them), when ``fix`` corrects a chi or pon in ``history`` whose seat's very next play still
    standing was a discard; else None. (A discard read again is not judged again: the
    evaluation set's one such finding was a 1s read as E, then as the pon's S.)"""
    if fix.type != "retract" or fix.target_type not in ("chi", "pon") or not fix.corrects:
        return None
    at = next((i for i in range(len(history) - 1, -1, -1) if event_key(history[i]) == fix.names), None)
    if at is None:
        return None
    after = _after_call(history, history[at].actor, at)
    if after is None or len(after[0]) < 2:
        return None  # (the call itself taken back, or nothing played after it yet)
    standing, undone = after
    discard = standing[1]
    if discard.type != "dahai" or discard.actor != history[at].actor:
        return None
    # (plays made before the discard, whenever taken back)
    between = [r for e, r in undone if e.frame is None or discard.frame is None or e.frame < discard.frame]
    return [history[at], discard], between


def still_found(evidence: list) -> bool:
    """The finding on a discard and the call before it as the camera reads them now."""
    discard = next(e for e in evidence if e.type == "dahai")
    call = next((e for e in evidence if e.type in ("chi", "pon")), None)
    return call is not None and swaps(call, discard)


def swaps(call, discard) -> bool:
    """Is ``discard`` (read) a kind that completes a set with the tiles ``call`` exposed? Not on a
    pon of a wind none of whose faces the camera read surely (``laid.unsure``): winds are the
    faces a reader takes for one another on unseen art, in the river as in the meld (set 4's
    hanchan-jansou-1 12956: a pon of S read E E E and its river tile E, then an E discarded;
    set 7's mleague hanchan 24390: a W discard read S after a pon of S; each a false kuikae), nor
    on a pon whose own tiles the camera read none of (``_pon_read_in_the_river_only``)."""
    if discard.pai == tiles.UNKNOWN or _wind_pon_unread(call) or _pon_read_in_the_river_only(call):
        return False
    return tiles.deaka(discard.pai) in forbidden(call) - {tiles.UNKNOWN}


def _pon_read_in_the_river_only(call) -> bool:
    """A pon laid (``laid``) with no tile read but the called one: its kind is the river's reading
    of that one tile, the discard after it another reading of the same camera, and two misreads
    agreeing make a swap no one made (set 7 t6-confusing_nakis_2 605, low camera: a pon of 8m
    laid "9m ? ?", a 7m discard read 9m). A pon laid with one of its own tiles read is judged."""
    laid = getattr(call, "laid", None)
    if call.type != "pon" or laid is None:
        return False
    read = [c for i, c in enumerate(laid.tiles) if c != tiles.UNKNOWN and i not in laid.face_down]
    return len(read) <= 1


def _wind_pon_unread(call) -> bool:
    laid = getattr(call, "laid", None)
    if call.type != "pon" or laid is None or not forbidden(call) <= {"E", "S", "W", "N"}:
        return False
    face_up = [i for i in range(len(laid.tiles)) if i not in laid.face_down]
    return set(face_up) <= set(laid.unsure or ())


def check(event, situation: Situation) -> list[Finding]:
    if situation.ruleset.kuikae == "none":
        return []
    if event.type == "retract":
        return _read_again(event, situation)
    if event.type != "dahai":
        return []
    # the record as read now: a discard taken back as gone (a ghost's box) is no play after the
    # call, and the call read again before the discard is judged as read again
    after = _after_call(situation.history, event.actor)
    standing = after[0] if after is not None else []
    if len(standing) != 1 or standing[0].type not in ("chi", "pon") or standing[0].actor != event.actor:
        return []  # (no call of this seat's, taken back, or a play still standing since)
    last = as_corrected(standing[0], situation.history)
    if not swaps(last, event):
        return []  # (an unread discard or exposed tile is no evidence of a swap)
    if fifth_copy(situation.table, [event.pai]) is not None:
        # a pon's genbutsu swap is the fourth copy of its kind: one more in view is a misreading
        # (the evaluation set's winds read as E: a pon "E E E", an "E" discard and an E elsewhere)
        return []
    return [_finding(last, event, situation)]


def _read_again(fix, situation: Situation) -> list[Finding]:
    """A call read again after the discard that followed it (the camera corrects a meld's faces
    within a few seconds, often after the caller has discarded): the discard judged on the call
    as read now, if it was no swap on the call as read before (then it was judged already)."""
    judged = _discard_after(situation.history, fix)
    if judged is None:
        return []
    call, discard = (as_corrected(e, situation.history) for e in judged[0])
    if swaps(call, discard):
        return []  # (judged on that reading already)
    call = corrected(judged[0][0], fix)  # (each correction replaces the one before)
    if not swaps(call, discard):
        return []
    after = copy.deepcopy(situation.table)  # (the table as this correction lays the call)
    after.update(fix)
    if fifth_copy(after, []) is not None:  # (the discard is on the table already)
        return []
    return [_finding(call, discard, situation, frame=discard.frame, t=discard.t)]


def _finding(
    call, discard, situation: Situation, frame: int | None = None, t: float | None = None
) -> Finding:
    exposed = tiles.dump(call.consumed)
    return Finding(
        CODE,
        discard.actor,
        f"食替 kuikae: discarded {discard.pai} right after {call.type} of {call.pai} with {exposed}; "
        f"it forms a set with the exposed tiles ({situation.article(ARTICLES)})",
        # one alert a discard: a call read back and forth after it was said does not say it again
        once=None if discard.frame is None else ("discard", discard.frame),
        frame=frame,
        t=t,
    )
