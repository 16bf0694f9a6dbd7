from rules_check.ruleset import MCR
from tests.rules_check.kit import draw, feed, found, start
from tracker import events as ev

PON_HANDS = ["234m456p678s23s55p", "111999m111999p4z", "77m111999s888m23z", "1112223336667z"]


def test_right_counts_between_and_during_turns():
    stream = start() + [ev.HandCount(actor=1, count=13), ev.Tsumo(actor=0, pai="N")]
    # holding the drawn tile: 14, or 13 while the drawn tile is still in the fingers
    stream += [ev.HandCount(actor=0, count=14), ev.HandCount(actor=0, count=13)]
    stream += [ev.Dahai(actor=0, pai="N", tsumogiri=True), ev.HandCount(actor=0, count=13)]
    assert found(feed(stream)) == []


def test_after_a_pon_the_hand_is_three_shorter():
    stream = start(PON_HANDS) + draw(0, "7m")
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"]), ev.HandCount(actor=2, count=11)]
    stream += [ev.Dahai(actor=2, pai="W", tsumogiri=False), ev.HandCount(actor=2, count=10)]
    assert found(feed(stream)) == []
    too_many = start(PON_HANDS) + draw(0, "7m")
    too_many += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"])]
    too_many += [ev.Dahai(actor=2, pai="W", tsumogiri=False), ev.HandCount(actor=2, count=11)]
    assert found(feed(too_many)) == [("tile_count_excess", 2, "dead_hand")]


def test_daishoukou_and_shoushoukou_are_reported_once():
    stream = start() + draw(0, "N") + [ev.HandCount(actor=0, count=14), ev.HandCount(actor=0, count=14)]
    stream += [ev.HandCount(actor=3, count=12)]
    checker = feed(stream)
    assert found(checker) == [("tile_count_excess", 0, "dead_hand"), ("tile_count_short", 3, "dead_hand")]
    assert "大相公" in checker.alerts[0].message and "小相公" in checker.alerts[1].message


def test_mcr_xianggong():
    stream = start() + [ev.HandCount(actor=2, count=14)]
    assert found(feed(stream, MCR)) == [("tile_count_excess", 2, "xianggong")]
