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
    stream += draw(3, "P") + [ev.HandCount(actor=2, count=10)]
    assert found(feed(stream)) == []
    too_many = start(PON_HANDS) + draw(0, "7m")
    too_many += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"])]
    too_many += [ev.Dahai(actor=2, pai="W", tsumogiri=False), ev.HandCount(actor=2, count=11)]
    too_many += draw(3, "P") + [ev.HandCount(actor=2, count=11)]  # seen again: evidence
    assert found(feed(too_many)) == [("tile_count_excess", 2, "dead_hand")]


def test_daishoukou_and_shoushoukou_are_reported_once():
    seen = [ev.HandCount(actor=0, count=14), ev.HandCount(actor=3, count=12)]
    stream = start() + draw(0, "N") + seen + draw(1, "P") + seen + draw(2, "P") + seen
    checker = feed(stream)
    assert found(checker) == [("tile_count_excess", 0, "dead_hand"), ("tile_count_short", 3, "dead_hand")]
    assert "大相公" in checker.alerts[0].message and "小相公" in checker.alerts[1].message


def test_mcr_xianggong():
    stream = start() + [ev.HandCount(actor=2, count=14)] + draw(0, "N") + [ev.HandCount(actor=2, count=14)]
    assert found(feed(stream, MCR)) == [("tile_count_excess", 2, "xianggong")]


# --- a camera's noise: one reading is not evidence ------------------------------------------


def test_one_misread_count_then_the_right_one_is_not_reported():
    stream = start() + draw(0, "N") + [ev.HandCount(actor=1, count=14)] + draw(1, "P")
    stream += [ev.HandCount(actor=1, count=13)] + draw(2, "P") + draw(3, "P")
    checker = feed(stream)
    assert found(checker) == [] and checker.rules.dead == set()


def test_counts_off_both_ways_are_the_cameras_noise():
    stream = start() + [ev.HandCount(actor=3, count=12)] + draw(0, "N") + [ev.HandCount(actor=3, count=14)]
    stream += (
        draw(1, "P") + [ev.HandCount(actor=3, count=12)] + draw(2, "P") + [ev.HandCount(actor=3, count=12)]
    )
    assert found(feed(stream)) == []


def test_a_count_standing_through_the_seats_next_turn_is_confirmed_at_its_first_reading():
    # the camera reports a count when it changes: a short hand seen once and never again
    # reported stays short through seat 1's draw and discard
    stream = start() + [ev.HandCount(actor=1, count=12, frame=40, t=1.3)] + draw(0, "N") + draw(1, "P")
    assert found(feed(stream)) == []  # not yet: nobody has played since seat 1's discard
    checker = feed(stream + draw(2, "P"))
    assert found(checker) == [("tile_count_short", 1, "dead_hand")]
    assert (checker.alerts[0].frame, checker.alerts[0].t) == (40, 1.3)  # the evidence frame


def test_the_post_discard_count_arriving_late_still_clears_the_doubt():
    stream = start() + [ev.HandCount(actor=1, count=12)] + draw(0, "N") + draw(1, "P")
    stream += [ev.Tsumo(actor=2, pai="P"), ev.HandCount(actor=1, count=13)] + draw(3, "P")
    assert found(feed(stream)) == []


def test_a_refuted_count_does_not_cascade_into_a_dead_hand():
    short = [ev.HandCount(actor=2, count=12)]
    stream = start(PON_HANDS) + short + draw(0, "N") + short  # confirmed: reported, seat 2 dead
    stream += draw(1, "P") + [ev.Tsumo(actor=2, pai="P"), ev.HandCount(actor=2, count=14)]  # then seen right
    stream += [ev.Dahai(actor=2, pai="P", tsumogiri=True)] + draw(3, "P") + draw(0, "7m")
    stream += [
        ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"]),
        ev.Dahai(actor=2, pai="W", tsumogiri=False),
    ]
    checker = feed(stream)
    assert found(checker) == [("tile_count_short", 2, "dead_hand")]  # no illegal_call/dead_hand after it
    assert checker.rules.dead == set()


def test_a_short_hand_holding_its_draw_before_it_is_read_keeps_its_doubt():
    # t6-chankan: a staged 小相公 (12) showed 13 each time it took its draw, before the camera read
    # the draw (a tsumo comes with the discard then); that 13 cleared the doubt every turn and the
    # hand was reported 35 s late. A 13 as the seat before discards says nothing either way
    stream = start() + draw(0, "N") + draw(1, "P") + [ev.HandCount(actor=1, count=12, frame=40)]
    stream += draw(2, "P") + draw(3, "P") + draw(0, "P") + [ev.HandCount(actor=1, count=13)]
    checker = feed(stream + draw(1, "P") + draw(2, "P"))
    assert found(checker) == [("tile_count_short", 1, "dead_hand")] and checker.alerts[0].frame == 40
    # the same 13 at another moment (seat 2 to play) is the hand seen right: the doubt goes
    noise = start() + draw(0, "N") + [ev.HandCount(actor=1, count=12)] + draw(1, "P")
    noise += [ev.HandCount(actor=1, count=13)] + draw(2, "P") + draw(3, "P") + draw(0, "P")
    assert found(feed(noise)) == []


def _short_seat1(phantom: list) -> list:
    stream = start() + draw(0, "N") + draw(1, "P") + [ev.HandCount(actor=1, count=12, frame=40)]
    stream += draw(2, "P") + draw(3, "P") + draw(0, "P") + phantom + [ev.HandCount(actor=1, count=13)]
    return stream + draw(1, "P") + draw(2, "P")


def test_a_stray_discard_taken_back_with_its_draw_leaves_the_real_last_discard_the_last():
    assert found(feed(_short_seat1([]))) == [("tile_count_short", 1, "dead_hand")]
    stray = [ev.Tsumo(actor=3, pai="?", frame=50), ev.Dahai(actor=3, pai="P", tsumogiri=False, frame=50)]
    stray += [ev.Retract(target_type="dahai", target_frame=50, actor=3, reason="no such tile in the river")]
    stray += [ev.Retract(target_type="tsumo", target_frame=50, actor=3, reason="its discard was none")]
    checker = feed(_short_seat1(stray))
    assert found(checker) == [("tile_count_short", 1, "dead_hand")] and checker.alerts[0].frame == 40


def test_a_discard_taken_back_is_not_the_seat_befores_discard():
    # seat 2's 12 is noise; a phantom discard of seat 1, taken back with its draw, leaves seat 0's
    # the last: seat 2's 13 then is the hand seen right and clears the doubt, as without it
    clean = start() + [ev.HandCount(actor=2, count=12, frame=40)] + draw(0, "N")
    clean += [ev.HandCount(actor=2, count=13)] + draw(1, "P") + draw(2, "P") + draw(3, "P")
    assert found(feed(clean)) == []
    stream = start() + [ev.HandCount(actor=2, count=12, frame=40)] + draw(0, "N")
    stream += [ev.Tsumo(actor=1, pai="?", frame=50), ev.Dahai(actor=1, pai="P", tsumogiri=False, frame=50)]
    stream += [ev.Retract(target_type="dahai", target_frame=50, actor=1, reason="no such tile in the river")]
    stream += [ev.Retract(target_type="tsumo", target_frame=50, actor=1, reason="its discard was none")]
    stream += [ev.HandCount(actor=2, count=13)] + draw(1, "P") + draw(2, "P") + draw(3, "P")
    assert found(feed(stream)) == []


def test_the_dealer_draws_next_at_the_kyoku_start():
    # a staged 12 at the deal, then 13 as the dealer takes its first draw unread: the doubt stays
    stream = start() + [ev.HandCount(actor=0, count=12, frame=40), ev.HandCount(actor=0, count=13)]
    stream += draw(0, "N") + draw(1, "P")
    checker = feed(stream)
    assert found(checker) == [("tile_count_short", 0, "dead_hand")] and checker.alerts[0].frame == 40


def test_a_long_hand_read_as_the_record_while_it_discards_keeps_its_doubt():
    # t6-confusing_nakis_2: a staged 大相公 (one tile long), read as the record's count while its
    # discard was lifted and not yet in the river, lost its doubt and was reported 4.5 s late
    long_hand = start() + draw(0, "N") + [ev.HandCount(actor=1, count=14, frame=40)]
    lifted = [ev.Tsumo(actor=1, pai="P"), ev.HandCount(actor=1, count=14)]  # 15 standing, one lifted
    stream = long_hand + lifted + [ev.Dahai(actor=1, pai="P", tsumogiri=True)] + draw(2, "P")
    assert found(feed(stream)) == []  # read as the record once: a second contradiction must confirm
    checker = feed(stream + [ev.HandCount(actor=1, count=14)])
    assert found(checker) == [("tile_count_excess", 1, "dead_hand")] and checker.alerts[0].frame == 40
    # the hand out of turn as the record has it after all: noise, nothing reported
    noise = stream + [ev.HandCount(actor=1, count=13)] + draw(3, "P") + draw(0, "P")
    assert found(feed(noise)) == []


def test_a_long_hand_read_long_again_after_the_challenge_still_confirms_through_its_turn():
    # (review helper-39) one read as the record between two long ones in the same turn: the
    # latest reading contradicts the record, so its turn's end confirms it as before
    turn = [ev.Tsumo(actor=1, pai="P"), ev.HandCount(actor=1, count=15, frame=40)]
    turn += [ev.HandCount(actor=1, count=14), ev.HandCount(actor=1, count=15)]
    stream = start() + draw(0, "N") + turn + [ev.Dahai(actor=1, pai="P", tsumogiri=True)] + draw(2, "P")
    checker = feed(stream)
    assert found(checker) == [("tile_count_excess", 1, "dead_hand")] and checker.alerts[0].frame == 40
