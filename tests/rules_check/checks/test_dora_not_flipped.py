from rules_check.ruleset import MCR
from tests.rules_check.kit import HANDS, draw, feed, found, start
from tracker import events as ev

PON_HANDS = ["234m456p678s23s55p", "111999m111999p4z", "777m11999s888m23z", "1112223336667z"]


def ankan(flip: bool) -> list:
    hands = ["2222m456p678s23s5p", *HANDS[1:]]
    stream = start(hands) + [ev.Tsumo(actor=0, pai="5p"), ev.Ankan(actor=0, consumed=["2m"] * 4)]
    stream += [ev.Dora(dora_marker="1s")] if flip else []
    return stream + [ev.Tsumo(actor=0, pai="N"), ev.Dahai(actor=0, pai="N", tsumogiri=True)] + draw(1, "P")


def test_ankan_indicator_before_the_discard():
    assert found(feed(ankan(True))) == []
    checker = feed(ankan(False))
    assert found(checker) == [("dora_not_flipped", 0, "warning")]
    assert found(feed(ankan(False), MCR)) == []


def daiminkan(dora_at: str | None) -> list:
    stream = start(PON_HANDS) + draw(0, "7m")
    stream += [ev.Daiminkan(actor=2, target=0, pai="7m", consumed=["7m"] * 3)]
    if dora_at == "kan":
        stream.append(ev.Dora(dora_marker="1s"))
    stream += [ev.Tsumo(actor=2, pai="C"), ev.Dahai(actor=2, pai="C", tsumogiri=True)]
    if dora_at == "discard":
        stream.append(ev.Dora(dora_marker="1s"))
    return stream + draw(3, "P")


def test_open_kan_indicator_at_once_or_after_the_discard_is_fine():
    assert found(feed(daiminkan("kan"))) == []
    assert found(feed(daiminkan("discard"))) == []


def test_open_kan_without_indicator_by_the_next_play():
    assert found(feed(daiminkan(None))) == [("dora_not_flipped", 2, "warning")]


def test_rinshan_win_before_the_discard_owes_nothing():
    pon = start(PON_HANDS) + draw(0, "7m") + [ev.Daiminkan(actor=2, target=0, pai="7m", consumed=["7m"] * 3)]
    pon += [ev.Tsumo(actor=2, pai="W"), ev.Hora(actor=2, target=2, hand=None)]
    assert [f for f in found(feed(pon)) if f[0] == "dora_not_flipped"] == []
