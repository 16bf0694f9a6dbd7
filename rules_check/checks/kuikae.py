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

from rules_check.hands import fifth_copy
from rules_check.situation import Finding, Situation
from tracker import tiles
from tracker.events import as_corrected

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


def rests_on(before: list, event, case: str | None = None) -> list:
    """The call before the discard a kuikae finding judges (the discarding seat's last chi or pon
    in ``before``, the kyoku's events before ``event``), as first emitted."""
    calls = [e for e in before if e.type in ("chi", "pon") and e.actor == event.actor]
    return calls[-1:]


def still_found(evidence: list) -> bool:
    """The finding on a discard and the call before it as the camera reads them now."""
    discard = next(e for e in evidence if e.type == "dahai")
    call = next((e for e in evidence if e.type in ("chi", "pon")), None)
    return call is not None and swaps(call, discard)


def swaps(call, discard) -> bool:
    """Is ``discard`` (read) a kind that completes a set with the tiles ``call`` exposed?"""
    return discard.pai != tiles.UNKNOWN and tiles.deaka(discard.pai) in forbidden(call) - {tiles.UNKNOWN}


def check(event, situation: Situation) -> list[Finding]:
    if event.type != "dahai" or situation.ruleset.kuikae == "none":
        return []
    last = next(
        (
            e
            for e in reversed(situation.history)
            if e.type in ("tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "flower")
        ),
        None,
    )
    if last is None or last.type not in ("chi", "pon") or last.actor != event.actor:
        return []
    last = as_corrected(last, situation.history)  # (the call read again before the discard)
    if not swaps(last, event):
        return []  # (an unread discard or exposed tile is no evidence of a swap)
    if fifth_copy(situation.table, [event.pai]) is not None:
        # a pon's genbutsu swap is the fourth copy of its kind: one more in view is a misreading
        # (the evaluation set's winds read as E: a pon "E E E", an "E" discard and an E elsewhere)
        return []
    exposed = tiles.dump(last.consumed)
    return [
        Finding(
            CODE,
            event.actor,
            f"食替 kuikae: discarded {event.pai} right after {last.type} of {last.pai} with {exposed}; "
            f"it forms a set with the exposed tiles ({situation.article(ARTICLES)})",
        )
    ]
