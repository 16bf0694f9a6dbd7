from rules_check.checker import Rules
from rules_check.ruleset import MCR, MLEAGUE
from tests.rules_check.kit import HANDS, draw, feed, found, start
from tracker import events as ev
from tracker.table.state import TableState

PON_HANDS = ["234m456p678s23s55p", "111999m111999p4z", "77m111999s888m23z", "1112223336667z"]


def table(events: list) -> TableState:
    state = TableState(MLEAGUE.table)
    for e in events:
        state.update(e)
    return state


def test_pon_on_the_last_discard_is_illegal_ron_is_not():
    state = table(start(PON_HANDS) + draw(0, "7m"))
    state.draws = 70  # every live tile drawn: this was the 河底牌
    assert state.live_wall == 0
    pon = ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"])
    alerts = Rules(MLEAGUE).check(pon, state)
    assert [(a.code, a.seat, a.penalty) for a in alerts] == [("illegal_call", 2, "dead_hand")]
    assert "河底" in alerts[0].message
    fine = table(start(PON_HANDS) + draw(0, "7m"))
    assert Rules(MLEAGUE).check(pon, fine) == []


def test_a_discard_taken_back_returns_its_draw_to_the_wall_count():
    # a camera read a discard (and the draw before it) that was never made, then took both back:
    # the wall has that tile again, and the real last discard is not the 河底牌 yet
    stream = start(PON_HANDS) + draw(0, "7m")
    phantom = [ev.Tsumo(actor=1, pai="?", frame=49), ev.Dahai(actor=1, pai="N", tsumogiri=False, frame=50)]
    back = [
        ev.Retract(
            target_type="dahai", target_frame=50, actor=1, frame=60, reason="no such tile in the river"
        ),
        ev.Retract(target_type="tsumo", target_frame=49, actor=1, frame=60, reason="its discard was none"),
    ]
    state = table(stream + phantom + back)
    assert state.draws == table(stream).draws
    state.draws = 69  # one live tile left
    pon = ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"])
    assert Rules(MLEAGUE).check(pon, state) == []
    state.draws = 70  # the last one drawn: now the wall is empty
    assert [a.code for a in Rules(MLEAGUE).check(pon, state)] == ["illegal_call"]


def test_kan_after_drawing_the_last_tile_and_a_fifth_kan():
    hands = ["2222m456p678s23s5p", *HANDS[1:]]
    state = table(start(hands) + [ev.Tsumo(actor=0, pai="5p")])
    ankan = ev.Ankan(actor=0, consumed=["2m"] * 4)
    state.draws = 70
    assert [a.message for a in Rules(MLEAGUE).check(ankan, state)][0].startswith(
        "illegal ankan after drawing"
    )
    state.draws = 10
    state.kans = 4
    alerts = Rules(MLEAGUE).check(ankan, state)
    assert [(a.code, a.penalty) for a in alerts] == [("illegal_call", "dead_hand")]
    assert "kan number 5" in alerts[0].message
    assert Rules(MCR).check(ankan, state) == []  # MCR sets no kan limit


def test_chi_from_toimen():
    hands = ["234m456p678m23p55p", "123456789s1234p", "23s111999s888m77z", "1112223336667z"]
    stream = start(hands) + draw(0, "4s")
    stream += [ev.Chi(actor=2, target=0, pai="4s", consumed=["2s", "3s"])]
    checker = RulesCheckerFed(stream)
    assert ("illegal_call", 2, "dead_hand") in found(checker)


def test_a_chi_whose_tiles_make_no_run_is_an_invalid_meld_not_a_call_from_the_wrong_seat():
    # a camera's misread: tiles that are no run, taken from toimen's river; the set is judged
    # (invalid_meld), not whose discard a "chi" that is none took
    hands = ["234m456p678m23p55p", "123456789s1234p", "23s111999s888m77z", "1112223336667z"]
    stream = start(hands) + draw(0, "4s")
    stream += [ev.Chi(actor=2, target=0, pai="4s", consumed=["2s", "C"])]
    checker = RulesCheckerFed(stream)
    assert [a.code for a in checker.alerts] == ["invalid_meld"]


def RulesCheckerFed(stream):  # the state rejects the chi; the checker keeps going and says why
    from rules_check.checker import RulesChecker

    checker = RulesChecker(MLEAGUE)
    checker.feed_all(stream)
    assert checker.state_errors and "kamicha" in checker.state_errors[0]
    return checker


def test_a_dead_hand_calling_is_chombo():
    short = [ev.HandCount(actor=2, count=12)]  # seen at two moments: the count is evidence
    stream = start(PON_HANDS) + short + draw(0, "N") + short + draw(1, "P") + draw(2, "P") + draw(3, "P")
    stream += draw(0, "7m")
    stream += [
        ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"]),
        ev.Dahai(actor=2, pai="W", tsumogiri=False),
    ]
    checker = feed(stream)
    assert found(checker) == [("tile_count_short", 2, "dead_hand"), ("illegal_call", 2, "chombo")]


def test_ankan_after_riichi():
    # seat 0 in riichi on 2223m (waits 1m 3m 4m): an ankan of a drawn 5p keeps the wait, an
    # ankan of a drawn 2m leaves only 3m
    hands = ["2223m678s555p777p", *HANDS[1:]]
    base = start(hands) + [
        ev.Tsumo(actor=0, pai="N"),
        ev.Reach(actor=0),
        ev.Dahai(actor=0, pai="N", tsumogiri=True),
    ]
    base += [ev.ReachAccepted(actor=0)] + draw(1, "P") + draw(2, "P") + draw(3, "P")
    good = base + [
        ev.Tsumo(actor=0, pai="5p"),
        ev.Ankan(actor=0, consumed=["5p"] * 4),
        ev.Dora(dora_marker="1s"),
    ]
    good += [ev.Tsumo(actor=0, pai="C"), ev.Dahai(actor=0, pai="C", tsumogiri=True)]
    assert found(feed(good)) == []
    bad = base + [
        ev.Tsumo(actor=0, pai="2m"),
        ev.Ankan(actor=0, consumed=["2m"] * 4),
        ev.Dora(dora_marker="1s"),
    ]
    bad += [ev.Tsumo(actor=0, pai="C"), ev.Dahai(actor=0, pai="C", tsumogiri=True)]
    assert found(feed(bad)) == [("illegal_call", 0, "chombo")]


def test_from_a_camera_a_count_alert_stands_alone():
    # the same dead hand calling, seen by a camera (discards carry their river slot): the count
    # alert is raised, the pon is not turned into a chombo on top of what may be a misreading
    short = [ev.HandCount(actor=2, count=12)]
    slot = (0, 0, False)
    stream = start(PON_HANDS) + short + draw(0, "N", slot=slot) + short + draw(1, "P", slot=slot)
    stream += draw(2, "P", slot=slot) + draw(3, "P", slot=slot) + draw(0, "7m", slot=(0, 1, False))
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"])]
    checker = feed(stream)
    assert found(checker) == [("tile_count_short", 2, "dead_hand")]


def test_from_a_camera_an_early_draw_stands_alone_too():
    # a camera sees an early draw as a tile apart in the next hand while the discard is read: a
    # count, one reading (hanchan-jansou-0's false one turned seat 0's riichi into a chombo alert)
    slot = (0, 0, False)
    stream = start(PON_HANDS) + draw(0, "N", slot=slot)
    stream += [ev.Tsumo(actor=1, pai="P"), ev.WallTake(actor=2)]  # seat 2 reaches before seat 1 discards
    stream += [
        ev.Dahai(actor=1, pai="P", tsumogiri=True, slot=ev.RiverPlacement(row=0, col=0, sideways=False))
    ]
    stream += draw(2, "P", slot=slot) + draw(3, "P", slot=slot) + draw(0, "7m", slot=(0, 1, False))
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"])]
    assert found(feed(stream)) == [("early_draw", 2, "dead_hand")]
    unseen = [e.model_copy(update={"slot": None}) if e.type == "dahai" else e for e in stream]
    assert found(feed(unseen)) == [("early_draw", 2, "dead_hand"), ("illegal_call", 2, "chombo")]


def test_a_declaration_tile_turned_sideways_is_not_a_discard_taken_back_from_the_wall_count():
    # seat 1 declared riichi with N (read upright; the stick then read: its place corrected to
    # sideways, a retract with a slot and no tile). The discard stands: the wall count is not
    # given a tile back, and a pon on the 河底牌 is still illegal
    stream = start(PON_HANDS) + draw(0, "7m")
    stream += [ev.Tsumo(actor=1, pai="?"), ev.Dahai(actor=1, pai="N", tsumogiri=False, frame=50)]
    stream += [
        ev.Retract(
            target_type="dahai",
            target_frame=50,
            actor=1,
            slot=ev.RiverPlacement(row=0, col=0, sideways=True),
            reason="riichi declaration tile (riichi read from its stick)",
        )
    ]
    state = table(stream)
    state.draws = 70
    assert state.live_wall == 0
    pon = ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"])
    assert [a.code for a in Rules(MLEAGUE).check(pon, state)] == ["illegal_call"]
