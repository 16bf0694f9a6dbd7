"""食替 kuikae: right after a chi or pon, discarding a tile that forms a set with the exposed pair or
partial run.

M-League ch.7 §2.2(3): 食替指碰或吃时，打出的牌与副露的对子或搭子能组成面子 — both the called kind
(genbutsu) and the other end of a two-sided run (suji: chi 6 with 45, discard 3) — ``dead_hand``.
004 七.3 吃换 (the same swap; ``dead_hand`` in the riichi profile). MCR allows it (003 五).

Code ``kuikae``. A discard on a later turn, or one that forms no set with the exposed tiles (chi 5
with 46 then 2 or 8; chi 3 with 12 then 6), is legal.
"""

from __future__ import annotations

from rules_check.situation import Finding, Situation
from tracker import tiles
from tracker.events import corrected

CODE = "kuikae"
ARTICLES = {"mleague": "M-League ch.7 §2.2(3)", "riichi": "004 七.3 吃换"}


def forbidden(call) -> set[str]:
    """Kinds (plain codes) that complete a set with the tiles the call exposed from the hand."""
    a, b = (tiles.deaka(c) for c in call.consumed)
    if call.type == "pon":
        return {a}
    suit = tiles.suit(a)
    if suit not in tiles.SUITS or tiles.suit(b) != suit:
        return set()  # unknown (``?``) or honour tiles: no run to swap within
    lo, hi = sorted((tiles.number(a), tiles.number(b)))
    if hi - lo == 1:
        ends = (lo - 1, hi + 1)
    elif hi - lo == 2:
        ends = (lo + 1,)
    else:
        return set()
    return {f"{n}{suit}" for n in ends if 1 <= n <= 9}


_PLAYS = ("tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "flower")


def check(event, situation: Situation) -> list[Finding]:
    if situation.ruleset.kuikae == "none":
        return []
    if event.type == "retract":
        return _read_again(event, situation)
    if event.type != "dahai":
        return []
    last = next((e for e in reversed(situation.history) if e.type in _PLAYS), None)
    return _judge(last, event, situation)


def _judge(call, discard, situation: Situation) -> list[Finding]:
    """The finding on ``discard`` made right after ``call`` (any play) by the same seat."""
    if call is None or call.type not in ("chi", "pon") or call.actor != discard.actor:
        return []
    if discard.pai == tiles.UNKNOWN or tiles.deaka(discard.pai) not in forbidden(call) - {tiles.UNKNOWN}:
        return []  # (an unread discard or exposed tile is no evidence of a swap)
    exposed = tiles.dump(call.consumed)
    return [
        Finding(
            CODE,
            discard.actor,
            f"食替 kuikae: discarded {discard.pai} right after {call.type} of {call.pai} with {exposed}; "
            f"it forms a set with the exposed tiles ({situation.article(ARTICLES)})",
            once=("after call", call.frame),  # judged once, as first read or as read again
            frame=discard.frame,
            t=discard.t,
        )
    ]


def _read_again(fix, situation: Situation) -> list[Finding]:
    """A camera's correction of a call, or of the discard right after one (tiles unread or
    misread on the first looks): the pair judged anew on what later looks saw."""
    if not fix.corrects or not fix.corrects_faces or fix.target_type not in ("chi", "pon", "dahai"):
        return []
    plays = [e for e in situation.history if e.type in _PLAYS]
    at = next(
        (
            i
            for i in range(len(plays) - 1, -1, -1)
            if plays[i].type == fix.target_type
            and plays[i].frame == fix.target_frame
            and plays[i].actor == fix.actor
        ),
        None,
    )
    if at is None:
        return []
    if fix.target_type == "dahai":
        call, discard = (plays[at - 1] if at else None), corrected(plays[at], fix)
    else:
        call, discard = corrected(plays[at], fix), (plays[at + 1] if at + 1 < len(plays) else None)
    if discard is None or discard.type != "dahai":
        return []
    return _judge(call, discard, situation)
