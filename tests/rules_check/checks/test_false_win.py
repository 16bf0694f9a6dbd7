from rules_check.ruleset import MCR, MLEAGUE, RIICHI
from tests.rules_check.kit import HANDS, draw, feed, found, start
from tracker import events as ev

# seat 0: 234m 456p 666s 55p + 23s, waiting on 1s / 4s (4s: tanyao; 1s: no yaku unless riichi)


def opening(riichi: bool = False, own_discard: str | None = None) -> list:
    """Seat 0 draws N (or ``own_discard``) and discards it, as a riichi declaration if asked."""
    stream = start()
    pai = "N"
    stream.append(ev.Tsumo(actor=0, pai=pai))
    if riichi:
        stream.append(ev.Reach(actor=0))
    stream.append(ev.Dahai(actor=0, pai=pai, tsumogiri=True))
    if riichi:
        stream.append(ev.ReachAccepted(actor=0))
    return stream


def test_ron_on_a_complete_hand_with_yaku_is_fine():
    stream = opening() + draw(1, "P") + draw(2, "P") + draw(3, "4s") + [ev.Hora(actor=0, target=3)]
    checker = feed(stream)
    assert found(checker) == []
    assert checker.values[0].han >= 1


def test_ron_without_yaku():
    stream = opening() + draw(1, "P") + draw(2, "P") + draw(3, "1s") + [ev.Hora(actor=0, target=3)]
    checker = feed(stream)
    assert found(checker) == [("false_win", 0, "chombo")]
    assert "no yaku" in checker.alerts[0].message


def test_the_hand_laid_open_is_not_complete():
    stream = opening() + draw(1, "P") + draw(2, "P") + draw(3, "4s")
    stream += [
        ev.Hora(
            actor=0,
            target=3,
            hand=["2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "2s", "3s", "5p", "7p"],
        )
    ]
    checker = feed(stream)
    assert found(checker) == [("false_win", 0, "chombo")]
    assert "not complete" in checker.alerts[0].message


def test_a_tile_read_unsurely_that_would_complete_the_hand_is_no_false_win():
    stream = opening() + draw(1, "P") + draw(2, "P") + draw(3, "4s")
    hand = ["2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "2s", "3s", "5p", "7p"]
    # the 7p read unsurely: as a 5p the hand wins (234m 456p 678s 234s 55p)
    assert found(feed(stream + [ev.Hora(actor=0, target=3, hand=hand, hand_unsure=[12])])) == []
    # unsure of the 2m: no other kind there completes it, so the fault stands
    checker = feed(stream + [ev.Hora(actor=0, target=3, hand=hand, hand_unsure=[0])])
    assert found(checker) == [("false_win", 0, "chombo")]


def test_a_hand_read_unsurely_more_often_than_surely_is_no_evidence_of_a_false_win():
    stream = opening() + draw(1, "P") + draw(2, "P") + draw(3, "4s")
    hand = ["2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "2s", "3s", "5p", "7p"]
    # six of thirteen unsure, none of which reread alone completes the hand: the fault stands
    checker = feed(stream + [ev.Hora(actor=0, target=3, hand=hand, hand_unsure=[0, 1, 2, 6, 7, 8])])
    assert found(checker) == [("false_win", 0, "chombo")]
    # seven of thirteen: the camera could not read this hand, no judgement on it
    assert (
        found(feed(stream + [ev.Hora(actor=0, target=3, hand=hand, hand_unsure=[0, 1, 2, 6, 7, 8, 9])])) == []
    )


def test_furiten_ron_on_own_discarded_wait_and_furiten_tsumo_is_fine():
    # seat 0 held 4s and riichi'd discarding it: waits 1s/4s, 4s is in its river
    hands = ["234m456p678s234s5p", *HANDS[1:]]
    base = start(hands) + [
        ev.Tsumo(actor=0, pai="5p"),
        ev.Reach(actor=0),
        ev.Dahai(actor=0, pai="4s", tsumogiri=False),
    ]
    base += [ev.ReachAccepted(actor=0)] + draw(1, "P") + draw(2, "P")
    ron = base + draw(3, "1s") + [ev.Hora(actor=0, target=3)]
    checker = feed(ron)
    assert found(checker) == [("false_win", 0, "chombo")]
    assert "furiten" in checker.alerts[0].message and "own discards" in checker.alerts[0].message
    tsumo = base + draw(3, "P") + [ev.Tsumo(actor=0, pai="1s"), ev.Hora(actor=0, target=0)]
    checker = feed(tsumo)
    assert found(checker) == []
    assert checker.values[0].tsumo and checker.values[0].han >= 3  # riichi, tsumo, ...


def test_temporary_furiten_after_passing_the_winning_tile():
    stream = opening() + draw(1, "4s") + draw(2, "P") + draw(3, "4s") + [ev.Hora(actor=0, target=3)]
    checker = feed(stream)
    assert found(checker) == [("false_win", 0, "chombo")]
    assert "passed since its last discard" in checker.alerts[0].message
    # after its own next discard the temporary furiten is over
    later = opening() + draw(1, "4s") + draw(2, "P") + draw(3, "P") + draw(0, "C") + draw(1, "P")
    later += draw(2, "4s") + [ev.Hora(actor=0, target=2)]
    assert found(feed(later)) == []


def test_riichi_furiten_lasts():
    stream = opening(riichi=True) + draw(1, "4s") + draw(2, "P") + draw(3, "P") + draw(0, "C") + draw(1, "P")
    stream += draw(2, "1s") + [ev.Hora(actor=0, target=2)]
    checker = feed(stream, RIICHI)
    assert found(checker) == [("false_win", 0, "chombo")]
    assert "after riichi" in checker.alerts[0].message


def test_a_passed_tile_the_camera_read_again_as_another_or_took_back_is_no_furiten():
    # set 2's hanchan-jansou-0 16630: a riichi declaration tile read P, corrected to 2s before the
    # ron on another seat's P: judged on the raw reading it was a false furiten ron
    passed = draw(1, "4s", frame=50)
    for fix in (
        ev.Retract(target_type="dahai", target_frame=50, actor=1, pai="P", reason="tile reread"),
        ev.Retract(target_type="dahai", target_frame=50, actor=1, reason="no such tile in the river"),
    ):
        stream = opening(riichi=True) + passed + [fix] + draw(2, "P") + draw(3, "4s")
        assert found(feed(stream + [ev.Hora(actor=0, target=3)], RIICHI)) == []
    # set 3's hanchan-jansou-1 21265: a P read again as 4s (wrong): read as a wanted kind once and
    # as another once, it is no evidence either way
    fix = ev.Retract(target_type="dahai", target_frame=50, actor=1, pai="4s", reason="tile reread")
    stream = opening(riichi=True) + draw(1, "P", frame=50) + [fix] + draw(2, "P") + draw(3, "4s")
    assert found(feed(stream + [ev.Hora(actor=0, target=3)], RIICHI)) == []
    stream = opening(riichi=True) + passed + draw(2, "P") + draw(3, "4s") + [ev.Hora(actor=0, target=3)]
    assert found(feed(stream, RIICHI)) == [("false_win", 0, "chombo")]


def test_a_passed_tile_first_read_unknown_then_read_as_a_wait_is_furiten():
    # a discard the camera could not read at first ("?"), read again as 4s: one reading only, of a
    # waited kind (no other kind was ever read there): the riichi ron on 4s is furiten
    fix = ev.Retract(target_type="dahai", target_frame=50, actor=1, pai="4s", reason="tile reread")
    stream = opening(riichi=True) + draw(1, "?", frame=50) + [fix] + draw(2, "P") + draw(3, "4s")
    assert found(feed(stream + [ev.Hora(actor=0, target=3)], RIICHI)) == [("false_win", 0, "chombo")]


def test_a_dead_hand_cannot_win():
    short = [ev.HandCount(actor=0, count=12)]  # seen at two moments: the count is evidence
    stream = opening() + short + draw(1, "P") + short + draw(2, "P") + draw(3, "4s")
    stream += [ev.Hora(actor=0, target=3)]
    assert found(feed(stream, MLEAGUE)) == [("tile_count_short", 0, "dead_hand"), ("false_win", 0, "chombo")]


def test_mcr_needs_eight_fan():
    # 123456789m 123p + 5p: pure straight (清龙, 16) on 5p; 234m 456p 678s 23s 55p + 4s is a few fan only
    rich = ["123456789m123p5p", "111999s777888m2z", "1112223336667z", "444z555z11999p22s"]
    stream = (
        start(rich)
        + draw(0, "N")
        + draw(1, "P")
        + draw(2, "P")
        + draw(3, "5p")
        + [ev.Hora(actor=0, target=3)]
    )
    checker = feed(stream, MCR)
    assert found(checker) == []
    assert checker.values[0].fan >= 16 and any(y.name == "清龙" for y in checker.values[0].yaku)
    poor = start() + draw(0, "N") + draw(1, "P") + draw(2, "P") + draw(3, "4s") + [ev.Hora(actor=0, target=3)]
    checker = feed(poor, MCR)
    assert found(checker) == [("false_win", 0, "penalty_points")]
    assert "below the 8-fan minimum" in checker.alerts[0].message


def test_a_misread_hand_with_a_fifth_copy_is_no_evidence():
    # the camera reads seat 0's 2m as a 5p: with the three 5p of the hand and the fourth in seat
    # 1's river that is five 5p, so the reading is wrong somewhere and the win is not judged on it
    stream = start() + draw(0, "N") + draw(1, "5p") + draw(2, "P") + draw(3, "4s")
    misread = ["5p", "3m", "4m", "4p", "5p", "6p", "6s", "6s", "6s", "2s", "3s", "5p", "5p"]
    assert found(feed(stream + [ev.Hora(actor=0, target=3, hand=misread)])) == []
    # the same incomplete hand with no impossible copy is judged
    wrong = ["7m", "3m", "4m", "4p", "5p", "6p", "6s", "6s", "6s", "2s", "3s", "5p", "5p"]
    assert found(feed(stream + [ev.Hora(actor=0, target=3, hand=wrong)])) == [("false_win", 0, "chombo")]


def test_a_laid_hand_without_the_winning_tile_is_not_judged():
    # 14 tiles read, none of them the ron tile: the reading disagrees with itself
    stream = opening() + draw(1, "P") + draw(2, "P") + draw(3, "4s")
    hand = ["2m", "3m", "4m", "4p", "5p", "6p", "6s", "6s", "6s", "2s", "3s", "5p", "5p", "9m"]
    checker = feed(stream + [ev.Hora(actor=0, target=3, hand=hand)])
    assert found(checker) == [] and checker.values == []


def test_no_yaku_on_a_closed_hand_is_not_judged_when_a_camera_may_have_missed_the_riichi():
    # the same ron without yaku, seen by a camera (discards with river slots): an upright riichi
    # tile would hide the riichi, so "no yaku" is no evidence on a closed hand
    seen = start() + draw(0, "N", slot=(0, 0, False)) + draw(1, "P", slot=(0, 0, False))
    seen += draw(2, "P", slot=(0, 0, False)) + draw(3, "1s", slot=(0, 0, False))
    checker = feed(seen + [ev.Hora(actor=0, target=3)])
    assert found(checker) == []
    # an incomplete hand is still judged
    wrong = ["7m", "3m", "4m", "4p", "5p", "6p", "6s", "6s", "6s", "2s", "3s", "5p", "5p"]
    assert found(feed(seen + [ev.Hora(actor=0, target=3, hand=wrong)])) == [("false_win", 0, "chombo")]


def test_a_hand_two_tiles_from_complete_is_a_misreading_not_a_false_win():
    stream = opening() + draw(1, "P") + draw(2, "P") + draw(3, "4s")
    far = ["1m", "8m", "8m", "1p", "1p", "2p", "4p", "4p", "2s", "3s", "3s", "3s", "8s"]
    checker = feed(stream + [ev.Hora(actor=0, target=3, hand=far)])
    assert found(checker) == []


def test_no_yaku_with_a_wind_triplet_is_not_judged_from_a_camera():
    # seat 0 holds SSS and pons nothing: in an East round the hand (234m 456p SSS 23s 55p + 1s)
    # has no yaku, in a South round 場風 South; a camera cannot see the round
    hands = ["234m456p23s55p222z", "111999m111999p4z", "111999s777888m2z", "1112223336667z"]
    record = start(hands) + draw(0, "N") + draw(1, "P") + draw(2, "P") + draw(3, "1s")
    assert found(feed(record + [ev.Hora(actor=0, target=3)])) == [("false_win", 0, "chombo")]
    seen = start(hands) + draw(0, "N", slot=(0, 0, False)) + draw(1, "P", slot=(0, 0, False))
    seen += draw(2, "P", slot=(0, 0, False)) + draw(3, "1s", slot=(0, 0, False))
    hand = ["2m", "3m", "4m", "4p", "5p", "6p", "2s", "3s", "5p", "5p", "S", "S", "S"]
    assert found(feed(seen + [ev.Hora(actor=0, target=3, hand=hand)])) == []


def test_a_complete_hand_beside_a_meld_read_as_no_set_is_no_false_win():
    # a camera read seat 1's chi 1m 2m 3m as a pon of 1m holding 3m 3m; its win on 7s is complete
    # in its concealed part: the meld's reading is at fault (invalid_meld judges calls), not the win
    from tests.builders import start_unseen

    def seen(actor: int, pai: str, col: int) -> list:
        slot = ev.RiverPlacement(row=0, col=col, sideways=False)
        return [ev.Tsumo(actor=actor, pai="?"), ev.Dahai(actor=actor, pai=pai, tsumogiri=False, slot=slot)]

    stream = start_unseen() + seen(0, "1m", 0)
    stream += [
        ev.Pon(actor=1, target=0, pai="1m", consumed=["3m", "3m"]),
        ev.Dahai(actor=1, pai="N", tsumogiri=False),
    ]
    stream += seen(2, "7s", 0)
    hand = ["2p", "3p", "4p", "5p", "6p", "7p", "8s", "9s", "E", "E"]
    checker = feed(stream + [ev.Hora(actor=1, target=2, pai="7s", hand=hand + ["7s"])])
    assert "false_win" not in [code for code, _, _ in found(checker)]
    wrong = ["2p", "3p", "4p", "5p", "6p", "7p", "8s", "9s", "E", "W", "7s"]  # one tile off: still judged
    checker = feed(stream + [ev.Hora(actor=1, target=2, pai="7s", hand=wrong)])
    assert "false_win" in [code for code, _, _ in found(checker)]
