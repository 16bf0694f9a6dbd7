import pytest

from rules_check.ruleset import MCR, MLEAGUE, RIICHI
from tests.rules_check.kit import draw, feed, start
from tracker import events as ev

# seat 1 (not the dealer): 234m 456p 678s 55p + 23s, riichi, pinfu, tanyao; dora indicator 1m -> 2m
PINFU = ["111999m111999p4z", "234m456p678s23s55p", "111999s777888m2z", "1112223336667z"]


def opening(**kw) -> list:
    """A first go-around, so the riichi that follows is no double riichi."""
    stream = start(PINFU, dora="1m", **kw) + draw(0, "N") + draw(1, "F") + draw(2, "P") + draw(3, "P")
    return stream + draw(0, "N")


def riichi_ron(honba: int = 0, kyotaku: int = 0) -> list:
    stream = opening(honba=honba, kyotaku=kyotaku)
    stream += [ev.Tsumo(actor=1, pai="C"), ev.Reach(actor=1), ev.Dahai(actor=1, pai="C", tsumogiri=True)]
    stream += [ev.ReachAccepted(actor=1)] + draw(2, "P") + draw(3, "P") + draw(0, "P") + draw(1, "F")
    return stream + draw(2, "4s") + [ev.Hora(actor=1, target=2)]


def test_30_fu_4_han_is_a_mangan_under_mleague_only():
    league = feed(riichi_ron(), MLEAGUE).values[0]
    assert (league.han, league.fu, league.points) == (4, 30, 8000)
    assert {y.name for y in league.yaku} >= {"Riichi", "Pinfu", "Tanyao", "Dora"}
    common = feed(riichi_ron(), RIICHI).values[0]
    assert (common.han, common.fu, common.points) == (4, 30, 7700)
    assert league.deltas == [0, 9000, -8000, 0]  # the riichi stick of this kyoku goes to the winner


def test_honba_is_300_and_deposits_go_to_the_winner():
    value = feed(riichi_ron(honba=2, kyotaku=1), MLEAGUE).values[0]
    assert value.honba == 600 and value.deposits == 2000
    assert value.deltas == [0, 8000 + 600 + 2000, -8600, 0]
    assert sum(value.deltas) == 2000


def test_tsumo_payments_split_by_dealer():
    stream = opening()
    stream += [ev.Tsumo(actor=1, pai="C"), ev.Reach(actor=1), ev.Dahai(actor=1, pai="C", tsumogiri=True)]
    stream += [ev.ReachAccepted(actor=1)] + draw(2, "P") + draw(3, "P") + draw(0, "P")
    stream += [ev.Tsumo(actor=1, pai="1s"), ev.Hora(actor=1, target=1)]
    value = feed(stream, MLEAGUE).values[0]
    # riichi ippatsu tsumo pinfu dora (1s is no tanyao): 5 han, mangan 2000/4000
    assert value.han == 5 and value.limit == "mangan"
    assert value.deltas == [-4000, 9000, -2000, -2000]


@pytest.mark.parametrize("ruleset", [MCR])
def test_mcr_fan_names_and_payments(ruleset):
    hands = ["123456789m123p5p", "111999s777888m2z", "1112223336667z", "444z555z11999p22s"]
    stream = (
        start(hands)
        + draw(0, "N")
        + draw(1, "P")
        + draw(2, "P")
        + draw(3, "5p")
        + [ev.Hora(actor=0, target=3)]
    )
    value = feed(stream, ruleset).values[0]
    names = {y.name for y in value.yaku}
    assert "清龙" in names and "独听・单钓" in names  # PyMahjongGB's name for 单钓将
    assert value.fan == sum(y.value for y in value.yaku)
    assert value.deltas == [24 + value.fan, -8, -8, -(8 + value.fan)]


def test_four_plain_fives_get_distinct_ids_and_no_aka_dora():
    from rules_check.value import _Ids

    ids = _Ids()
    assert sorted(ids.take("5p") for _ in range(4)) == [16 + 36, 17 + 36, 18 + 36, 19 + 36]
    # a hand without a red five scores no aka dora even though a plain five may take the red's id
    hands = ["111999m111999p4z", "234m456s678s555p5m", "111999s777888m2z", "1112223336667z"]
    stream = (
        start(hands, dora="1m") + draw(0, "N") + draw(1, "F") + draw(2, "P") + draw(3, "P") + draw(0, "N")
    )
    stream += [ev.Tsumo(actor=1, pai="C"), ev.Reach(actor=1), ev.Dahai(actor=1, pai="C", tsumogiri=True)]
    stream += [ev.ReachAccepted(actor=1)] + draw(2, "P") + draw(3, "P") + draw(0, "P") + draw(1, "F")
    stream += draw(2, "5m") + [ev.Hora(actor=1, target=2)]
    value = feed(stream, MLEAGUE).values[0]
    assert {y.name for y in value.yaku} == {"Riichi", "Tanyao", "Dora"}


def test_a_win_with_an_unread_meld_tile_has_no_value_rather_than_an_error():
    from rules_check.ruleset import MLEAGUE
    from rules_check.value import hand_value, winning_hand
    from tests.builders import start_unseen
    from tracker import events as ev
    from tracker.table.state import TableState

    state = TableState()
    for e in start_unseen(oya=3) + [
        ev.Tsumo(actor=3, pai="?"),
        ev.Dahai(actor=3, pai="E", tsumogiri=False),
        ev.Pon(actor=0, target=3, pai="E", consumed=["?", "E"]),  # one exposed tile not read
        ev.Dahai(actor=0, pai="9s", tsumogiri=False),
        ev.Tsumo(actor=1, pai="?"),
        ev.Dahai(actor=1, pai="9p", tsumogiri=False),
    ]:
        state.update(e)
    win = ev.Hora(actor=0, target=1, hand=["1m", "2m", "3m", "4p", "5p", "6p", "2s", "3s", "4s", "9p"])
    assert winning_hand(win, state) is not None  # the hand itself is read: the meld is the unknown
    assert hand_value(win, state, MLEAGUE) is None
