"""错吃 / 错碰 / 错杠: the tiles of a call do not form the declared set.

M-League ch.7 §3 (错吃指副露的三张牌无法组成顺子。错碰、错杠同理) — ``dead_hand``. MCR: the exposed
"set" is none, the hand cannot win legally — ``xianggong``.

Code ``invalid_meld``: the tiles the camera saw laid (``laid``, face-up ones), or the event's own
called + consumed tiles, are not a run of one suit (chi), three of a kind (pon) or four (kans).

A kakan added to a pon laid wrong (its tile the pon's called kind) is not a second irregularity:
the call was judged. Judged only on a meld read whole: a tile the camera could not read (``?``)
usually goes with one it misread, a meld whose tiles, with every tile in view, make a fifth
copy of a kind is misread somewhere, and tiles two or more off the set are misread (a wrong set
holds one wrong tile, ``misread``); none is evidence of a wrong set.
"""

from __future__ import annotations

from dataclasses import replace

from rules_check.hands import fifth_copy, meld_as_read
from rules_check.situation import Finding, Situation
from tracker import tiles
from tracker.events import as_corrected, corrected, named_event

CODE = "invalid_meld"
ARTICLES = {"mleague": "M-League ch.7 §3", "riichi": "M-League ch.7 §3 practice", "mcr": "002 相公"}
_SIZE = {"chi": 3, "pon": 3, "daiminkan": 4, "kakan": 4, "ankan": 4}
_CALLS = ("chi", "pon", "daiminkan")
_NAME = {"chi": "错吃", "pon": "错碰", "daiminkan": "错杠", "kakan": "错杠", "ankan": "错杠"}


def is_set(kind: str, codes: list[str]) -> bool:
    """Whether the (known) tiles can be the declared set; unknown faces are not held against it."""
    seen = [tiles.deaka(c) for c in codes if c in tiles.GAME_CODES and c != tiles.UNKNOWN]
    if any(tiles.is_bonus(c) for c in seen):
        return False
    if kind != "chi":
        return len(set(seen)) <= 1
    suits = {tiles.suit(c) for c in seen}
    if not suits <= set(tiles.SUITS) or len(suits) > 1:
        return False
    numbers = sorted(tiles.number(c) for c in seen)
    if len(set(numbers)) != len(numbers):
        return False
    return not numbers or numbers[-1] - numbers[0] <= 2


def one_tile_off(kind: str, codes: list[str]) -> bool:
    """Could ``codes`` be the set with one tile laid wrong (all but one of them make it)?"""
    return any(is_set(kind, codes[:i] + codes[i + 1 :]) for i in range(len(codes)))


def misread(call, codes: list[str]) -> bool:
    """Tiles a camera read (the call has a ``laid`` placement) two or more off the set: a player
    who lays a wrong set reaches for one wrong tile, so a pon read "E S C" or "1s 2m 3m" is the
    unseen art's faces read as one another. Not a run laid for a pon: that is a chi from a seat
    a chi may not take from, an irregularity of its own. A record without a camera is as written."""
    if getattr(call, "laid", None) is None or one_tile_off(call.type, codes):
        return False
    return not (call.type == "pon" and is_set("chi", codes))


def still_found(evidence: list) -> bool:
    """The finding on a call (``evidence[0]``) as the camera reads it now: its tiles still make
    no set (a wrong tile read as another wrong one is still a 错碰)."""
    return not laid_as_declared(evidence[0])


def laid_as_declared(call) -> bool:
    """A call whose declared tiles and face-up laid tiles (unread ones not held against it) can
    be its set: what a correction of a call's reading must show to refute an invalid meld."""
    declared, up = meld_as_read(
        call, [call.pai, *call.consumed] if hasattr(call, "pai") else list(call.consumed)
    )
    return (is_set(call.type, declared) and is_set(call.type, up)) or misread(call, up or declared)


def _read(codes: list[str]) -> bool:
    return all(c in tiles.GAME_CODES and c != tiles.UNKNOWN for c in codes)


def _base_pon(event, situation: Situation):
    """The pon a kakan adds to (named by its called tile), or None."""
    for m in situation.table.seats[event.actor].melds:
        if m.type == "pon" and tiles.deaka(m.called or m.tiles[0]) == tiles.deaka(event.pai):
            return m
    return None


def _pon_read_unsurely(kakan, situation: Situation) -> bool:
    """Has the kakan's seat a pon whose faces, as surely read, could all be the added tile's kind
    (each unread, unsure or that kind)? Its kind in the record may be the river's misreading of
    its called tile (set 3's t6-chankan 1546: a pon of 6s read 9p, its faces unread or unsure, a 6s
    added to it named no pon: a false 错杠)."""
    kind = tiles.deaka(kakan.pai)
    for e in situation.history:
        meld = situation.table.meld_of(e) if e.type == "pon" else None
        if meld is not None and e.actor == kakan.actor and meld.type == "pon":  # (not made a kakan, a chi)
            pon = as_corrected(e, situation.history)
            _, up = meld_as_read(pon, [pon.pai, *pon.consumed])
            if up and all(c == tiles.UNKNOWN or tiles.deaka(c) == kind for c in up):
                return True
    return False


def check(event, situation: Situation) -> list[Finding]:
    if event.type == "retract":
        return _read_again(event, situation)
    return _judge(event, situation)


def _judge(event, situation: Situation, in_view: list[str] | tuple = ()) -> list[Finding]:
    """The finding on call ``event``; ``in_view``: tiles of it the table already shows (a call
    read again lies on the table as first read), not counted twice for a fifth copy."""
    if event.type not in _SIZE:
        return []
    if event.type == "kakan":
        base = _base_pon(event, situation)
        if base is not None and _read(base.tiles) and not is_set("pon", base.tiles):
            return []  # added to a pon laid wrong: judged at the call, once
        if base is None and _pon_read_unsurely(event, situation):
            return []
        declared = [event.pai] + list(event.consumed)
    elif event.type == "ankan":
        declared = list(event.consumed)
    else:
        declared = [event.pai] + list(event.consumed)
    declared, up = meld_as_read(event, declared)
    problems = []
    if _read(declared) and not is_set(event.type, declared):
        if misread(event, declared):
            return []
        problems.append(f"declared tiles {tiles.dump(declared)}")
    laid = getattr(event, "laid", None)
    if laid is not None:
        if _read(up) and not is_set(event.type, up) and misread(event, up):
            return []
        if _read(up) and (not is_set(event.type, up) or len(laid.tiles) != _SIZE[event.type]):
            problems.append(f"laid tiles {' '.join(laid.tiles)}")
    shown = list(up or declared)
    if event.type == "kakan":
        shown = [event.pai]  # the pon's tiles are already on the table
    elif event.type != "ankan" and event.pai in shown:
        shown.remove(event.pai)  # the called tile still lies in the river
    for tile in in_view:
        if tile in shown:
            shown.remove(tile)
    if problems and fifth_copy(situation.table, shown) is not None:
        return []  # a misreading somewhere on the table
    if event.type == "kakan":
        pon = [m for m in situation.table.seats[event.actor].melds if m.type == "pon"]
        if pon and _base_pon(event, situation) is None:
            problems.append(f"no pon of {event.pai} to add to")
    if not problems:
        return []
    return [
        Finding(
            CODE,
            event.actor,
            f"{_NAME[event.type]} invalid {event.type}: {'; '.join(problems)} do not form the set "
            f"({situation.article(ARTICLES)})",
            once=("call", event.type, event.frame) if event.type in _CALLS else None,  # judged once
        )
    ]


def _read_again(fix, situation: Situation) -> list[Finding]:
    """A call a camera read again (a ``retract`` with its laid tiles): judged on those when its
    first reading was not (a tile unread then), the alert pointing at the call. The tracker takes
    a reading that makes no set only where the first could make none either, or for a pon sure of
    its kind (its kind read twice): a tile laid wrong, 错碰. Not on tiles read again as two honours
    or more: on the evaluation set's unseen art the winds and dragons were the faces read as one
    another most (9 false invalid pons from rereads such as "F F E", "N E N"; none with number
    tiles only). A number tile read again in a pon of an honour is judged (t6-confusing_nakis_0: a
    staged 错碰 "3m C C", laid so and read so, went unreported)."""
    if fix.target_type not in _CALLS or fix.laid is None:
        return []
    honours = {c for c in map(tiles.deaka, fix.laid.tiles) if c in tiles.GAME_CODES and tiles.is_honor(c)}
    if len(honours) >= 2:
        return []  # honour faces are what a reader confuses on unseen art (winds, dragons): no evidence
    call = named_event(fix, situation.history)
    if call is None:
        return []
    meld = situation.table.call_meld(call.actor, call.frame)
    found = _judge(corrected(call, fix), situation, meld.all_tiles if meld is not None else ())
    return [replace(f, frame=call.frame, t=call.t, once=("call", call.type, call.frame)) for f in found]
