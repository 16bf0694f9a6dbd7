from rules_check.ruleset import MCR
from tests.rules_check.kit import draw, feed, found, start
from tracker import events as ev

# seat 3 discards its own tiles one a turn; everyone else discards what they draw
SEAT3 = ["E", "E", "E", "S", "S", "S", "W"]


def rounds(slots3: list[tuple], riichi_at: int | None = None) -> list:
    stream = start()
    for i, slot in enumerate(slots3):
        for seat in range(3):
            stream += draw(seat, "P")
        stream.append(ev.Tsumo(actor=3, pai="N"))
        if riichi_at == i:
            stream.append(ev.Reach(actor=3))
        stream.append(
            ev.Dahai(
                actor=3,
                pai=SEAT3[i],
                tsumogiri=False,
                slot=ev.RiverPlacement(row=slot[0], col=slot[1], sideways=slot[2]),
            )
        )
        if riichi_at == i:
            stream.append(ev.ReachAccepted(actor=3))
    return stream


def test_six_a_row_left_to_right_is_fine():
    slots = [(0, c, False) for c in range(6)] + [(1, 0, False)]
    assert found(feed(rounds(slots))) == []


def test_seventh_tile_in_a_full_row_is_reported_once():
    slots = [(0, c, False) for c in range(6)] + [(0, 6, False)]
    checker = feed(rounds(slots))
    assert found(checker) == [("river_layout", 3, "warning")]
    assert "row 1 column 7, expected row 2 column 1" in checker.alerts[0].message
    assert found(feed(rounds(slots), MCR)) == [("river_layout", 3, "warning")]


def test_stray_sideways_tile():
    slots = [(0, 0, False), (0, 1, True)]
    assert found(feed(rounds(slots))) == [("river_layout", 3, "warning")]


def test_riichi_tile_sideways_is_fine_and_upright_is_not():
    assert found(feed(rounds([(0, 0, False), (0, 1, True), (0, 2, False)], riichi_at=1))) == []
    checker = feed(rounds([(0, 0, False), (0, 1, False)], riichi_at=1))
    assert found(checker) == [("riichi_not_sideways", 3, "warning")]
    assert "declaration tile" in checker.alerts[0].message


def called_riichi_tile(next_sideways: bool) -> list:
    hands = ["234m456p678s23s55p", "111999m111999p4z", "111999s777888m2z", "1112223336667z"]
    stream = start(hands) + draw(0, "P") + draw(1, "P")
    stream += [ev.Tsumo(actor=2, pai="N"), ev.Reach(actor=2)]
    stream += [
        ev.Dahai(actor=2, pai="S", tsumogiri=False, slot=ev.RiverPlacement(row=0, col=0, sideways=True))
    ]
    stream += [ev.ReachAccepted(actor=2), ev.Pon(actor=3, target=2, pai="S", consumed=["S", "S"])]
    stream += [ev.Dahai(actor=3, pai="C", tsumogiri=False)] + draw(0, "P") + draw(1, "P")
    stream += [ev.Tsumo(actor=2, pai="P")]
    stream += [
        ev.Dahai(
            actor=2, pai="P", tsumogiri=True, slot=ev.RiverPlacement(row=0, col=0, sideways=next_sideways)
        )
    ]
    return stream


def test_called_riichi_tile_then_sideways_discard_is_fine():
    assert found(feed(called_riichi_tile(True))) == []


def test_called_riichi_tile_then_upright_discard():
    checker = feed(called_riichi_tile(False))
    assert found(checker) == [("riichi_not_sideways", 2, "warning")]
    assert "after the called riichi tile" in checker.alerts[0].message


def test_a_shifted_slot_is_what_a_missed_discard_looks_like_and_is_not_reported():
    # the camera missed the second discard (or saw one twice): the next slots are one off the
    # record's count, which a gap in the river or a discard it never saw would both explain
    assert found(feed(rounds([(0, 0, False), (0, 2, False), (0, 3, False)]))) == []
    assert found(feed(rounds([(0, 0, False), (0, 1, False), (0, 1, False)]))) == []


def test_a_seventh_column_the_record_cannot_explain_is_not_judged():
    # the camera saw a seventh tile in a row the record holds five tiles of, or one discard
    # twice (the same seat's second discard with no play between): a misreading of the river
    slots = [(0, c, False) for c in range(5)] + [(0, 6, False)]
    assert found(feed(rounds(slots))) == []
    twice = rounds([(0, c, False) for c in range(6)])
    twice += [ev.Tsumo(actor=3, pai="N")]
    twice += [
        ev.Dahai(actor=3, pai="N", tsumogiri=True, slot=ev.RiverPlacement(row=0, col=6, sideways=False))
    ]
    assert found(feed(twice)) == []


def test_a_seventh_column_in_a_row_the_camera_took_a_tile_back_from_is_not_judged():
    # seven readings in row 0, the fourth (a tile seen where another lay) taken back with its
    # draw: the row counts six, but one of them may be a ghost or a tile seen twice (set 2's
    # hanchan-jansou-1 4729); a seventh column there is not judged. The same row read without
    # a reading taken back is
    slots = [(0, 0, False), (0, 1, False), (0, 2, False), (0, 3, False), (0, 3, False), (0, 4, False)]
    stream = [e.model_copy(update={"frame": i}) for i, e in enumerate(rounds(slots + [(0, 5, False)]))]
    ghost = [e for e in stream if e.type == "dahai" and e.actor == 3][3]
    back = [
        ev.Retract(target_type="dahai", target_frame=ghost.frame, actor=3, frame=900, reason="gone"),
        ev.Retract(target_type="tsumo", target_frame=ghost.frame - 1, actor=3, frame=900, reason="its draw"),
    ]
    seventh = [*draw(0, "P"), *draw(1, "P"), *draw(2, "P"), ev.Tsumo(actor=3, pai="N")]
    seventh += [
        ev.Dahai(actor=3, pai="W", tsumogiri=False, slot=ev.RiverPlacement(row=0, col=6, sideways=False))
    ]
    seventh = [e.model_copy(update={"frame": 1000 + i}) for i, e in enumerate(seventh)]
    assert found(feed(stream + back + seventh)) == []
    clean = [
        e.model_copy(update={"frame": i}) for i, e in enumerate(rounds([(0, c, False) for c in range(6)]))
    ]
    assert found(feed(clean + seventh)) == [("river_layout", 3, "warning")]


def test_a_sideways_tile_read_as_the_same_seats_second_discard_is_not_judged():
    # a riichi seat's river lost and found again: its sideways declaration tile comes back as a
    # second discard of that seat with no play between (a misreading, not a stray sideways tile)
    twice = rounds([(0, 0, False), (0, 1, False)])
    twice += [ev.Tsumo(actor=3, pai="N")]
    twice += [ev.Dahai(actor=3, pai="N", tsumogiri=True, slot=ev.RiverPlacement(row=0, col=2, sideways=True))]
    assert found(feed(twice)) == []
