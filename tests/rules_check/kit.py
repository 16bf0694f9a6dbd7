"""Helpers for rules-checker tests: hand-made kyoku in tile strings, fed through the checker."""

from __future__ import annotations

from rules_check.checker import RulesChecker
from rules_check.ruleset import MLEAGUE, RuleSet
from tests.builders import start_unseen, t
from tracker import events as ev

#: four hands that share no kind beyond four copies; seat 0 waits on 1s/4s (4s: tanyao; 1s: no yaku)
HANDS = ["234m456p666s23s55p", "111999m111999p4z", "111999s777888m2z", "1112223336667z"]


def start(
    hands: list[str] | None = None,
    oya: int = 0,
    honba: int = 0,
    kyotaku: int = 0,
    dora: str = "9s",
    bakaze: str = "E",
    t0: float | None = None,
) -> list:
    hands = hands or HANDS
    return [
        ev.StartGame(names=["A", "B", "C", "D"]),
        ev.StartKyoku(
            bakaze=bakaze,
            dora_marker=dora,
            kyoku=oya + 1,
            honba=honba,
            kyotaku=kyotaku,
            oya=oya,
            scores=[25000] * 4,
            tehais=[t(h) for h in hands],
            t=t0,
        ),
    ]


def draw(actor: int, pai: str, discard: str | None = None, slot: tuple | None = None, **kw) -> list:
    """A draw and a discard (tsumogiri when ``discard`` is None); ``slot`` = (row, col, sideways)."""
    placement = None if slot is None else ev.RiverPlacement(row=slot[0], col=slot[1], sideways=slot[2])
    return [
        ev.Tsumo(actor=actor, pai=pai),
        ev.Dahai(actor=actor, pai=discard or pai, tsumogiri=discard is None, slot=placement, **kw),
    ]


def feed(events: list, ruleset: RuleSet = MLEAGUE) -> RulesChecker:
    checker = RulesChecker(ruleset)
    checker.feed_all(events)
    assert not checker.state_errors, checker.state_errors
    return checker


def found(checker: RulesChecker) -> list[tuple]:
    """(code, seat, penalty) of every alert, in order."""
    return [(a.code, a.seat, a.penalty) for a in checker.alerts]


#: the river slot a camera reports with a discard (its place does not matter to these tests; that
#: discards carry one tells the checker the stream comes from a camera)
SEEN_SLOT = ev.RiverPlacement(row=0, col=0, sideways=False)


def seen_opening(pai: str, slot: ev.RiverPlacement | None = SEEN_SLOT) -> list:
    """A kyoku as a camera starts it (every dealt tile unknown) and seat 0's discard of ``pai``
    (its draw unread); ``slot=None``: as a game record has it."""
    return start_unseen() + [
        ev.Tsumo(actor=0, pai="?"),
        ev.Dahai(actor=0, pai=pai, tsumogiri=False, slot=slot),
    ]


def framed(events: list, step: int = 10) -> list:
    """``events`` a frame ``step`` apart from frame 0 (``seen_opening`` + one call: the call at 40)."""
    return [e.model_copy(update={"frame": step * i}) for i, e in enumerate(events)]
