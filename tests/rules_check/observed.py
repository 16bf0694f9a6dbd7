"""A clean game as an ideal camera would report it: concealed tiles unknown (``?``), every
discard with its river slot, every call with its layout, a ``wall_take`` before each draw and
``hand_count`` observations after each draw and discard. Slots and counts are computed here by
counting events, not with TableState, so the checks are held against a second route."""

from __future__ import annotations

from tracker import events as ev
from tracker.table import layout

KANS = ("daiminkan", "kakan", "ankan")


def observed(events: list, ankan_down: tuple[int, ...] = (1, 2)) -> list:
    out = []
    present = [0] * 4  # tiles lying in each river
    melds = [0] * 4  # chi/pon/daiminkan/ankan per seat (a kakan adds no meld)
    sideways_next = [False] * 4
    sideways_callable = None  # seat whose riichi tile lies in its river, still callable
    last_play = None
    pon_sideways: dict[tuple[int, str], int] = {}
    for e in events:
        kind = e.type
        if kind == "start_kyoku":
            present, melds = [0] * 4, [0] * 4
            sideways_next, sideways_callable = [False] * 4, None
            pon_sideways = {}
            out.append(e.model_copy(update={"tehais": [["?"] * 13 for _ in range(4)]}))
            last_play = e
            continue
        if kind == "tsumo":
            after_kan = last_play is not None and last_play.type in KANS and last_play.actor == e.actor
            out.append(ev.WallTake(actor=e.actor, dead_wall=after_kan))
            out.append(e.model_copy(update={"pai": "?"}))
            out.append(ev.HandCount(actor=e.actor, count=14 - 3 * melds[e.actor]))
            last_play, sideways_callable = e, None
            continue
        if kind == "reach":
            sideways_next[e.actor] = True
        if kind == "dahai":
            row, col = divmod(present[e.actor], 6)
            slot = ev.RiverPlacement(row=row, col=col, sideways=sideways_next[e.actor])
            sideways_callable = e.actor if sideways_next[e.actor] else None
            sideways_next[e.actor] = False
            present[e.actor] += 1
            out.append(e.model_copy(update={"slot": slot}))
            out.append(ev.HandCount(actor=e.actor, count=13 - 3 * melds[e.actor]))
            last_play = e
            continue
        if kind in ("chi", "pon", "daiminkan"):
            present[e.target] -= 1  # the called tile leaves the river
            if sideways_callable == e.target:  # the riichi tile was called: the next one lies sideways
                sideways_next[e.target] = True
            order, side = layout.open_meld_order(
                kind, e.pai, list(e.consumed), layout.relative(e.actor, e.target)
            )
            if kind == "pon":
                pon_sideways[(e.actor, e.pai[:2])] = side
            melds[e.actor] += 1
            out.append(e.model_copy(update={"laid": ev.MeldPlacement(tiles=order, sideways=[side])}))
        elif kind == "kakan":
            side = pon_sideways[(e.actor, e.pai[:2])]
            laid = ev.MeldPlacement(tiles=[*e.consumed, e.pai], sideways=[side, side])
            out.append(e.model_copy(update={"laid": laid}))
        elif kind == "ankan":
            melds[e.actor] += 1
            laid_tiles = ["back" if i in ankan_down else c for i, c in enumerate(e.consumed)]
            out.append(
                e.model_copy(update={"laid": ev.MeldPlacement(tiles=laid_tiles, face_down=list(ankan_down))})
            )
        else:
            out.append(e)
        if kind in ("chi", "pon", "daiminkan", "kakan", "ankan", "hora", "ryukyoku"):
            last_play, sideways_callable = e, None
    return out
