"""The value of a win: han/fu/points under the riichi profiles, fan with names under MCR.

``hand_value(hora, state, ruleset) -> HandValue | None`` (None when the hand is not known: an
overhead camera sees it only when it is laid open, ``Hora.hand``). Scoring is the ``mahjong``
package's (riichi) and ``PyMahjongGB``'s (MCR); this module only builds their inputs from the
table and turns their answer into score changes.

M-League (000 ch.6): kuitan, red fives, ura and kan dora, ippatsu; 30 fu 4 han / 60 fu 3 han are a
mangan (第4条 2, 切上满贯); 13+ han without a yakuman is a sanbaiman (第6条 2); several yakuman add up
(第6条 1), no double yakuman for a single hand; a double-wind pair is 4 fu (第3条 2); 300 per honba
(ch.3 §13.3); deposits to the winner. MCR (003 比赛成绩): self-drawn, each pays 8 + fan; on a
discard the discarder pays 8 + fan, the others 8.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

from rules_check.hands import winning_hand
from rules_check.ruleset import RuleSet
from rules_check.situation import CALLS, KANS, PLAY
from tracker import tiles
from tracker.table.state import TableState

WINDS = ("E", "S", "W", "N")


class Yaku(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    value: int  # han (riichi; 13 per yakuman) or fan points x count (MCR)


class HandValue(BaseModel):
    """A win's value for the overlay and the report. ``deltas`` are the score changes the win
    should make (pao liability not modelled); ``points`` is the hand's own value before honba and
    deposits."""

    model_config = ConfigDict(frozen=True)

    seat: int
    target: int
    rules: str
    tsumo: bool
    han: int | None = None
    fu: int | None = None
    yakuman: int = 0
    limit: str | None = None  # mangan, haneman, baiman, sanbaiman, yakuman, ...
    fan: int | None = None  # MCR, flowers included
    yaku: list[Yaku] = []
    points: int
    honba: int = 0
    deposits: int = 0
    deltas: list[int]

    @property
    def gain(self) -> int:
        return self.deltas[self.seat]


class NoValue(ValueError):
    """The hand is not a win (not complete, no yaku, below the minimum fan)."""


def hand_value(event, state: TableState, ruleset: RuleSet) -> HandValue | None:
    """The value of ``event`` (a hora) on the table ``state`` before it; None if unknown or no win."""
    try:
        return evaluate(event, state, ruleset)
    except NoValue:
        return None


def evaluate(event, state: TableState, ruleset: RuleSet) -> HandValue | None:
    """Like :func:`hand_value` but raises :class:`NoValue` saying why a known hand is no win."""
    found = winning_hand(event, state)
    if found is None:
        return None
    hand, pai = found
    meld_tiles = [c for meld in state.seats[event.actor].melds for c in meld.all_tiles]
    if "?" in hand or pai == "?" or "?" in meld_tiles:
        return None  # a tile nobody could read: the value is unknown, not zero
    if ruleset.scoring == "mcr":
        return _mcr_value(event, state, ruleset, hand, pai)
    return _riichi_value(event, state, ruleset, hand, pai)


# --- situation of the win, read from the kyoku's events ---------------------------------------


def win_flags(event, state: TableState) -> dict[str, bool]:
    """rinshan / chankan / haitei / houtei / riichi / double riichi / ippatsu / tenhou / chiihou."""
    seat = event.actor
    tsumo = event.actor == event.target
    plays = [e for e in state.kyoku_events if e.type in PLAY]
    last = plays[-1] if plays else None
    before_last = plays[-2] if len(plays) > 1 else None
    rinshan = bool(
        tsumo
        and last is not None
        and last.type == "tsumo"
        and before_last is not None
        and before_last.type in KANS
        and before_last.actor == seat
    )
    chankan = bool(not tsumo and last is not None and last.type == "kakan")
    last_tile = state.live_wall <= 0
    riichi = state.seats[seat].riichi
    calls = [i for i, e in enumerate(plays) if e.type in CALLS or e.type in KANS]
    own_discards = [i for i, e in enumerate(plays) if e.type == "dahai" and e.actor == seat]
    riichi_discard = _riichi_discard(state.kyoku_events, seat, plays)
    double = ippatsu = False
    if riichi and riichi_discard is not None:
        double = own_discards[0] == riichi_discard and not any(c < riichi_discard for c in calls)
        after = plays[riichi_discard + 1 :]
        if chankan:
            after = after[:-1]  # the robbed kakan never happened
        ippatsu = not any(
            e.type in CALLS or e.type in KANS or (e.type == "dahai" and e.actor == seat) for e in after
        )
    tenhou = tsumo and seat == state.oya and not own_discards and not calls
    chiihou = tsumo and seat != state.oya and not own_discards and not calls
    return {
        "tsumo": tsumo,
        "rinshan": rinshan,
        "chankan": chankan,
        "haitei": tsumo and last_tile and not rinshan,
        "houtei": (not tsumo) and last_tile and not chankan,
        "riichi": riichi,
        "double_riichi": double,
        "ippatsu": ippatsu,
        "tenhou": tenhou,
        "chiihou": chiihou,
    }


def _riichi_discard(history: list, seat: int, plays: list) -> int | None:
    """Index in ``plays`` of the seat's riichi declaration discard."""
    reached = False
    for e in history:
        if e.type == "reach" and e.actor == seat:
            reached = True
        elif reached and e.type == "dahai" and e.actor == seat:
            return next(i for i, p in enumerate(plays) if p is e)
    return None


def _payments(event, state: TableState, ruleset: RuleSet, main: int, additional: int) -> tuple:
    """Score changes from the payer shares: (deltas, points, honba points, deposits)."""
    seat, tsumo = event.actor, event.actor == event.target
    deltas = [0, 0, 0, 0]
    honba = state.honba * ruleset.honba_points
    deposits = state.kyotaku * 1000
    if tsumo:
        for s in range(4):
            if s == seat:
                continue
            share = main if (s == state.oya or seat == state.oya) else additional
            deltas[s] -= share + honba // 3
        points = sum(
            (main if (s == state.oya or seat == state.oya) else additional) for s in range(4) if s != seat
        )
    else:
        deltas[event.target] -= main + honba
        points = main
    deltas[seat] = -sum(deltas) + deposits
    return deltas, points, honba, deposits


# --- riichi --------------------------------------------------------------------------------


class _Ids:
    """136-format ids for the ``mahjong`` package: four per kind, a red five takes id 4k."""

    def __init__(self) -> None:
        self.used: Counter = Counter()

    def take(self, code: str) -> int:
        k = tiles.kind34(code)
        if tiles.is_red(code):
            return 4 * k
        n = self.used[k]
        self.used[k] += 1
        if tiles.deaka(code) in ("5m", "5p", "5s"):
            return 4 * k + (1, 2, 3, 0)[min(n, 3)]  # a fourth plain five only in a set without reds
        return 4 * k + min(n, 3)


def _riichi_value(event, state, ruleset, hand, pai) -> HandValue:
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld as MjMeld

    seat = event.actor
    ids = _Ids()
    # the winning tile first, so its id is known
    concealed_ids = [ids.take(pai)] + [ids.take(c) for c in _without(hand, pai)]
    win_id = concealed_ids[0]
    all_ids = list(concealed_ids)
    melds = []
    for meld in state.seats[seat].melds:
        meld_ids = sorted(ids.take(c) for c in meld.all_tiles)
        all_ids += meld_ids
        if meld.type == "chi":
            melds.append(MjMeld(MjMeld.CHI, meld_ids, opened=True))
        elif meld.type == "pon":
            melds.append(MjMeld(MjMeld.PON, meld_ids, opened=True))
        else:
            melds.append(MjMeld(MjMeld.KAN, meld_ids, opened=meld.type != "ankan"))
    flags = win_flags(event, state)
    options = OptionalRules(
        has_open_tanyao=True,
        # id 4k marks a red five; without a red tile in the hand it may be a plain fourth five
        has_aka_dora=ruleset.aka_dora and any(tiles.is_red(c) for c in _all_tiles(hand, state, seat)),
        has_double_yakuman=ruleset.double_yakuman_hands,
        kazoe_limit=HandConstants.KAZOE_SANBAIMAN
        if ruleset.kazoe == "sanbaiman"
        else HandConstants.KAZOE_LIMITED,
        kiriage=ruleset.kiriage,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
    )
    config = HandConfig(
        is_tsumo=flags["tsumo"],
        is_riichi=flags["riichi"] and not flags["double_riichi"],
        is_daburu_riichi=flags["double_riichi"],
        is_ippatsu=flags["ippatsu"] and ruleset.ippatsu,
        is_rinshan=flags["rinshan"],
        is_chankan=flags["chankan"],
        is_haitei=flags["haitei"],
        is_houtei=flags["houtei"],
        is_tenhou=flags["tenhou"],
        is_chiihou=flags["chiihou"],
        player_wind=EAST + (seat - state.oya) % 4,
        round_wind=EAST + WINDS.index(state.bakaze),
        options=options,
    )
    dora = [4 * tiles.kind34(c) + 3 for c in state.dora_indicators if c in tiles.GAME_CODES and c != "?"]
    ura = None
    if flags["riichi"] and ruleset.ura_dora and event.ura_markers:
        ura = [4 * tiles.kind34(c) + 3 for c in event.ura_markers]
    result = HandCalculator.estimate_hand_value(
        all_ids, win_id, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if result.error:
        raise NoValue(result.error)
    main, additional = result.cost["main"], result.cost["additional"]
    deltas, points, honba, deposits = _payments(event, state, ruleset, main, additional)
    closed = not any(m.opened for m in melds)
    yaku = [Yaku(name=y.name, value=int((y.han_closed if closed else y.han_open) or 0)) for y in result.yaku]
    yakuman = sum(y.value // 13 for y, raw in zip(yaku, result.yaku) if raw.is_yakuman)
    return HandValue(
        seat=seat,
        target=event.target,
        rules=ruleset.name,
        tsumo=flags["tsumo"],
        han=result.han,
        fu=result.fu,
        yakuman=yakuman,
        limit=result.cost.get("yaku_level") or None,
        yaku=[y for y in yaku if y.value],
        points=points,
        honba=honba,
        deposits=deposits,
        deltas=deltas,
    )


def _all_tiles(hand: list[str], state: TableState, seat: int) -> list[str]:
    return list(hand) + [c for m in state.seats[seat].melds for c in m.all_tiles]


def _without(hand: list[str], pai: str) -> list[str]:
    rest = list(hand)
    rest.remove(pai)
    return rest


# --- MCR -----------------------------------------------------------------------------------

_GB_HONOR = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
_GB_SUIT = {"m": "W", "s": "T", "p": "B"}
_GB_OFFER = {3: 1, 2: 2, 1: 3}  # our seat offset (3 kamicha) -> GB's 1 上家, 2 对家, 3 下家


def gb_tile(code: str) -> str:
    code = tiles.deaka(code)
    if code in _GB_HONOR:
        return _GB_HONOR[code]
    return f"{_GB_SUIT[code[1]]}{code[0]}"


def _mcr_value(event, state, ruleset, hand, pai) -> HandValue:
    from MahjongGB import MahjongFanCalculator

    seat = event.actor
    packs = []
    for meld in state.seats[seat].melds:
        offset = (meld.source - seat) % 4 if meld.source is not None else 0
        if meld.type == "chi":
            run = sorted(meld.tiles, key=lambda c: tiles.number(c))
            called_at = [tiles.deaka(c) for c in run].index(tiles.deaka(meld.called)) + 1
            packs.append(("CHI", gb_tile(run[1]), called_at))
        elif meld.type == "pon":
            packs.append(("PENG", gb_tile(meld.tiles[0]), _GB_OFFER.get(offset, 1)))
        elif meld.type == "ankan":
            packs.append(("GANG", gb_tile(meld.tiles[0]), 0))
        else:
            packs.append(("GANG", gb_tile(meld.tiles[0]), _GB_OFFER.get(offset, 1)))
    flags = win_flags(event, state)
    visible = [c for c in state.visible_tiles() if c != "?"]
    seen = sum(1 for c in visible if tiles.deaka(c) == tiles.deaka(pai))
    if not flags["tsumo"]:
        seen -= 1  # the discard itself lies in the river
    seen -= sum(1 for c in state.seats[seat].hand if tiles.deaka(c) == tiles.deaka(pai))
    try:
        fans = MahjongFanCalculator(
            pack=tuple(packs),
            hand=tuple(gb_tile(c) for c in _without(hand, pai)),
            winTile=gb_tile(pai),
            flowerCount=len(state.seats[seat].flowers),
            isSelfDrawn=flags["tsumo"],
            is4thTile=seen >= 3,
            isAboutKong=flags["rinshan"] or flags["chankan"],
            isWallLast=flags["haitei"] or flags["houtei"],
            seatWind=(seat - state.oya) % 4,
            prevalentWind=WINDS.index(state.bakaze),
            verbose=True,
        )
    except TypeError as err:
        raise NoValue(str(err)) from None
    yaku = [Yaku(name=name, value=point * count) for point, count, name, _en in fans]
    fan = sum(y.value for y in yaku)
    without_flowers = sum(y.value for y in yaku if y.name != "花牌")
    if without_flowers < ruleset.min_fan:
        raise NoValue(f"{without_flowers} fan, below the {ruleset.min_fan}-fan minimum")
    deltas = [0, 0, 0, 0]
    for s in range(4):
        if s == seat:
            continue
        if flags["tsumo"] or s == event.target:
            deltas[s] = -(8 + fan)
        else:
            deltas[s] = -8
    deltas[seat] = -sum(deltas)
    return HandValue(
        seat=seat,
        target=event.target,
        rules=ruleset.name,
        tsumo=flags["tsumo"],
        fan=fan,
        yaku=yaku,
        points=fan,
        deltas=deltas,
    )
