"""Meld orientation: the called tile lies sideways where the rules put it; ankan face-down tiles.

M-League ch.4 §6 (副露规范): chi — the called tile sideways at the left; pon — left / middle /
right for kamicha / toimen / shimocha; daiminkan — left / second / right; kakan — the added tile
on the sideways one; ankan — the middle two face down (ch.4 §5.2). Wrong placement is corrected
by agreement (ch.4 §7): ``warning``. 004 七.2-3 (ankan: the middle or the two ends face down),
003 行牌规定 八 (MCR; ankan 扣放): ``warning``.

Code ``meld_orientation``; needs the camera's ``laid`` placement on the call event. Not judged
on what only a misreading shows: two tiles sideways in a chi/pon/daiminkan, or no tile sideways
in a meld whose faces were not all read.
"""

from __future__ import annotations

from rules_check.situation import Finding, Situation
from tracker import tiles
from tracker.table import layout

CODE = "meld_orientation"
ARTICLES = {"mleague": "M-League ch.4 §6", "riichi": "004 七.2-3", "mcr": "003 行牌规定 八"}
_PLACES3 = ("left", "middle", "right")
_PLACES4 = ("left", "second from left", "second from right", "right")


def _place(index: int, size: int) -> str:
    names = _PLACES3 if size == 3 else _PLACES4
    return names[index] if 0 <= index < len(names) else f"position {index}"


def _seen(sideways: list[int], size: int) -> str:
    if not sideways:
        return "no tile sideways"
    return "sideways at " + ", ".join(_place(i, size) for i in sorted(set(sideways)))


def still_found(evidence: list) -> bool:
    """The finding on a call (``evidence[0]``) as the camera reads it now: its sideways tile
    still not where the rules put it (``rules_check.checker`` drops a waiting alert otherwise)."""
    return not laid_as_the_rules_want(evidence[0])


def laid_as_the_rules_want(call) -> bool:
    """A chi / pon / daiminkan whose one sideways tile (``laid``) lies where the rules put it."""
    if call.type not in ("chi", "pon", "daiminkan") or call.laid is None:
        return False
    try:
        _, want = layout.open_meld_order(
            call.type, call.pai, list(call.consumed), layout.relative(call.actor, call.target)
        )
    except ValueError:
        return False
    return set(call.laid.sideways) == {want}


def check(event, situation: Situation) -> list[Finding]:
    laid = getattr(event, "laid", None)
    if laid is None or event.type not in ("chi", "pon", "daiminkan", "kakan", "ankan"):
        return []
    seat = event.actor
    where = situation.article(ARTICLES)
    if event.type == "ankan":
        down = tuple(sorted(set(laid.face_down)))
        if down in situation.ruleset.ankan_face_down and not laid.sideways:
            return []
        want = " or ".join(str(list(d)) for d in situation.ruleset.ankan_face_down)
        return [
            Finding(
                CODE,
                seat,
                f"ankan laid with tiles {list(down)} face down (and {_seen(laid.sideways, 4)}); "
                f"expected {want} face down, none sideways ({where})",
            )
        ]
    if event.type == "kakan":
        pon = next(
            (
                m
                for m in situation.table.seats[seat].melds
                if m.type == "pon" and tiles.deaka(m.tiles[0]) == tiles.deaka(event.pai)
            ),
            None,
        )
        if pon is None or pon.sideways is None:
            return []
        want, size = pon.sideways, 3
    else:
        offset = layout.relative(seat, event.target)
        try:
            _, want = layout.open_meld_order(event.type, event.pai, list(event.consumed), offset)
        except ValueError:
            return []  # a chi from the wrong seat is an illegal call, not a layout slip
        size = 4 if event.type == "daiminkan" else 3
    if set(laid.sideways) == {want}:
        return []
    if event.type != "kakan" and len(set(laid.sideways)) > 1:
        return []  # two tiles sideways is no layout anyone lays: the camera misread an orientation
    if not laid.sideways and not all(c in tiles.GAME_CODES and c != tiles.UNKNOWN for c in laid.tiles):
        return []  # no sideways tile seen in a meld not read whole: too poor a look to judge
    source = {3: "kamicha", 2: "toimen", 1: "shimocha"}.get(
        layout.relative(seat, getattr(event, "target", seat)), "own pon"
    )
    return [
        Finding(
            CODE,
            seat,
            f"{event.type} from {source}: the called tile should lie sideways at the "
            f"{_place(want, size)}, seen {_seen(laid.sideways, size)} ({where})",
        )
    ]
