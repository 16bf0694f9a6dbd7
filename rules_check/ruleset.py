"""RuleSet: what the checker enforces and what each irregularity costs, per profile.

Three profiles, from the seed documents (../shared/seeds, see DESIGN.md):

* ``mleague`` — the M-League rules (000/001). Penalties are the rulebook's own (ch.7):
  ``dead_hand`` (和了放棄), ``chombo``, ``yellow_card``; layout slips the rulebook only asks to
  correct (ch.3 §10, ch.4 §7) are a ``warning``.
* ``riichi`` — common Japanese rules (004). 004 says a false win or a false riichi "is handled
  as a violation" (七.4, 8.1.2) without naming penalties, so this profile uses the usual
  tournament ladder: ``chombo`` for those, ``dead_hand`` for procedural faults, else ``warning``.
* ``mcr`` — Chinese Official rules (002/003): ``xianggong`` (相公: a wrong tile count, the hand
  cannot win), ``penalty_points`` (罚分, e.g. 诈和 false win), ``warning`` (time limits, layout).

A penalty of ``None`` switches a check off under that profile (no riichi in MCR, no time limit in
the Japanese rules). ``penalties`` is keyed by alert code, or ``"code/case"`` for a case that
costs something different (a call by a dead hand is a chombo, other illegal calls a dead hand).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tracker.table import layout
from tracker.table.layout import TableRules

Penalty = Literal["dead_hand", "chombo", "yellow_card", "warning", "xianggong", "penalty_points"]

#: penalties after which the seat may not win this kyoku (and, for ``dead_hand``, not call)
DEAD_PENALTIES = frozenset({"dead_hand", "xianggong"})


class RuleSet(BaseModel):
    """Everything rule-dependent the checks and the hand value read. Passed in, never global."""

    model_config = ConfigDict(frozen=True)

    name: Literal["mleague", "riichi", "mcr"]
    table: TableRules
    scoring: Literal["riichi", "mcr"] = "riichi"
    penalties: dict[str, Penalty | None]
    # 食替: which discards right after a call are forbidden
    kuikae: Literal["none", "genbutsu_and_suji"] = "genbutsu_and_suji"
    # ankan layouts accepted (indices face down, left to right)
    ankan_face_down: tuple[tuple[int, ...], ...] = ((1, 2),)
    max_kans: int | None = 4
    # kan indicators: ankan before the kan maker's discard; open kans before the play after it
    kan_dora: bool = True
    # a wait whose four tiles are all in one's own hand and melds is not tenpai (000 ch.3 §11.2)
    tenpai_needs_live_wait: bool = True
    # riichi scoring (M-League ch.6, 004 点数计算)
    aka_dora: bool = True
    ura_dora: bool = True
    ippatsu: bool = True
    kiriage: bool = True  # 30 fu 4 han and 60 fu 3 han round up to mangan
    kazoe: Literal["sanbaiman", "yakuman"] = "sanbaiman"
    double_yakuman_hands: bool = False  # e.g. 四暗刻単騎 at twice value (several yakuman always add up)
    honba_points: int = 300
    # MCR (003 行牌规定 四): seconds to discard
    first_discard_seconds: float | None = None
    discard_seconds: float | None = None
    min_fan: int = 8  # MCR: 番种分值之和到少为8分 (003 和牌的前提 2)

    def penalty(self, code: str, case: str | None = None) -> Penalty | None:
        """The penalty for an alert code (and case) under this profile; None = not checked."""
        if case is not None and f"{code}/{case}" in self.penalties:
            return self.penalties[f"{code}/{case}"]
        return self.penalties.get(code)


MLEAGUE = RuleSet(
    name="mleague",
    table=layout.MLEAGUE,
    penalties={
        "early_draw": "dead_hand",  # ch.3 §8.4 先摸
        "meld_orientation": "warning",  # ch.4 §7: corrected by agreement
        "tile_count_excess": "dead_hand",  # ch.7 §2.2(1) 大相公
        "tile_count_short": "dead_hand",  # ch.7 §2.2(1) 小相公
        "river_layout": "warning",  # ch.3 §10
        "riichi_not_sideways": "warning",  # ch.4 §8.2, §8.4
        "kuikae": "dead_hand",  # ch.7 §2.2(3) 食替
        "invalid_meld": "dead_hand",  # ch.7 §3 错吃/错碰/错杠
        "illegal_call": "dead_hand",  # ch.2 §3/§4, ch.4 §5.4: the call does not exist
        "illegal_call/dead_hand": "chombo",  # ch.7 §2.1: a dead hand calling or declaring riichi
        "illegal_call/riichi_ankan": "chombo",  # ch.7 §4.2(2): ankan after riichi changing the wait
        "dora_not_flipped": "warning",  # ch.4 §5.5
        "false_win": "chombo",  # ch.7 §4.2(1)
        "noten_riichi": "chombo",  # ch.7 §4.2(2)
        "time_limit": None,
        "exposed_tiles": "yellow_card",  # ch.7 §5.5(2): two or more tiles exposed
        "exposed_tiles/single": None,
    },
)

RIICHI = RuleSet(
    name="riichi",
    table=layout.RIICHI,
    ankan_face_down=((1, 2), (0, 3)),  # 004 七.2: 中间或两端两张
    kiriage=False,  # 004: 切上满贯 only "in some rules"
    kazoe="yakuman",  # 004: 累计役满
    double_yakuman_hands=True,
    penalties={
        "early_draw": "dead_hand",  # 004 六.6.1
        "meld_orientation": "warning",  # 004 七.2/七.3
        "tile_count_excess": "dead_hand",
        "tile_count_short": "dead_hand",
        "river_layout": "warning",  # 004 六.6.2: 6 a row
        "riichi_not_sideways": "warning",  # 004 役 立直: 将牌横向打出
        "kuikae": "dead_hand",  # 004 七.3 吃换
        "invalid_meld": "dead_hand",
        "illegal_call": "dead_hand",
        "illegal_call/dead_hand": "chombo",
        "illegal_call/riichi_ankan": "chombo",
        "dora_not_flipped": "warning",  # 004 七.1.2.2, 七.2
        "false_win": "chombo",  # 004 七.4 诈和
        "noten_riichi": "chombo",  # 004 8.1.2 虚假立直
        "time_limit": None,
        "exposed_tiles": "warning",
    },
)

MCR = RuleSet(
    name="mcr",
    table=layout.MCR,
    scoring="mcr",
    kuikae="none",  # 003 五: 允许吃碰(杠)、和跟张打出的牌
    ankan_face_down=((0, 3), (0, 1, 2, 3)),  # 003 七(二): 暗杠应扣放
    max_kans=None,
    kan_dora=False,
    first_discard_seconds=30.0,  # 003 四: 庄家第一次 ... 30秒
    discard_seconds=15.0,  # 003 四: 此后 ... 15秒
    penalties={
        "early_draw": "warning",  # 003 三: 上家未打出牌，自己不能动手摸牌
        "meld_orientation": "warning",  # 003 八
        "tile_count_excess": "xianggong",  # 002 相公
        "tile_count_short": "xianggong",
        "river_layout": "warning",  # 003 四: 从左向右 ... 第6张后另放一行
        "riichi_not_sideways": None,
        "kuikae": None,
        "invalid_meld": "xianggong",  # the exposed set is no set: the hand cannot reach a legal win
        "illegal_call": "warning",
        "illegal_call/fifth_kan": None,
        "illegal_call/riichi_ankan": None,
        "illegal_call/riichi_call": None,
        "dora_not_flipped": None,
        "false_win": "penalty_points",  # 002/003 诈和, 罚分
        "noten_riichi": None,
        "time_limit": "warning",  # 003 四
        "exposed_tiles": "warning",
    },
)

RULESETS: dict[str, RuleSet] = {r.name: r for r in (MLEAGUE, RIICHI, MCR)}


def ruleset_by_name(name: str) -> RuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None
