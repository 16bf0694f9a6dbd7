from rules_check.ruleset import MCR, MLEAGUE
from tests.rules_check.kit import HANDS, draw, feed, found, start
from tracker import events as ev


def test_draw_after_the_discard_landed_is_fine():
    stream = start() + [ev.WallTake(actor=0)] + draw(0, "N")
    stream += [ev.WallTake(actor=1)] + draw(1, "S")
    assert found(feed(stream)) == []


def test_take_before_kamicha_discards_is_early_draw_and_kills_the_hand():
    stream = start() + [ev.WallTake(actor=0), ev.Tsumo(actor=0, pai="N"), ev.WallTake(actor=1)]
    stream += [ev.Dahai(actor=0, pai="N", tsumogiri=True)]
    checker = feed(stream)
    assert found(checker) == [("early_draw", 1, "dead_hand")]
    assert "seat 0 had not discarded" in checker.alerts[0].message
    assert checker.rules.dead == {1}


def test_taking_the_dealers_first_draw_is_early_draw():
    checker = feed(start() + [ev.WallTake(actor=2)])
    assert found(checker) == [("early_draw", 2, "dead_hand")]


def test_replacement_draw_after_own_kan_is_fine():
    hands = ["2222m456p678s23s5p", *HANDS[1:]]
    stream = start(hands) + [ev.WallTake(actor=0), ev.Tsumo(actor=0, pai="5p")]
    stream += [
        ev.Ankan(actor=0, consumed=["2m"] * 4),
        ev.Dora(dora_marker="1s"),
        ev.WallTake(actor=0, dead_wall=True),
    ]
    stream += [ev.Tsumo(actor=0, pai="N"), ev.Dahai(actor=0, pai="N", tsumogiri=True)]
    assert found(feed(stream)) == []


def test_mcr_names_a_warning():
    hands = HANDS
    checker = feed(start(hands) + [ev.WallTake(actor=3)], MCR)
    assert found(checker) == [("early_draw", 3, "warning")]
    assert found(feed(start(hands) + [ev.WallTake(actor=3)], MLEAGUE)) == [("early_draw", 3, "dead_hand")]


def test_a_take_seen_right_after_the_seats_own_discard_is_not_evidence():
    # seat 0 has just discarded: a take by it (or by seat 2, two seats on) is a miscounted hand to
    # a camera, not the 先摸 pattern of the next seat reaching before its kamicha has discarded
    stream = start() + draw(0, "N") + [ev.WallTake(actor=0), ev.WallTake(actor=2)]
    assert found(feed(stream)) == []
