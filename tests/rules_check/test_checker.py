"""rules_check.checker.RulesChecker: from a camera, alerts on tile faces wait for the readings to
settle, and one whose reading the camera corrects meanwhile is dropped."""

from __future__ import annotations

from rules_check.checker import LONGER_SETTLING, SETTLE_FRAMES, RulesChecker
from rules_check.ruleset import MLEAGUE
from tests.rules_check.kit import SEEN_SLOT, framed, seen_opening
from tracker import events as ev


def _kuikae(camera: bool) -> list:
    """Seat 1 chis seat 0's 6s with 45s at frame 40 and discards 3s at frame 50 (a 食替)."""
    slot = SEEN_SLOT if camera else None
    return framed(
        seen_opening("6s", slot)
        + [
            ev.Chi(actor=1, target=0, pai="6s", consumed=["4s", "5s"]),
            ev.Dahai(actor=1, pai="3s", tsumogiri=False, slot=slot),
        ]
    )


def _later(frame: int) -> ev.HandCount:
    return ev.HandCount(actor=2, count=13, frame=frame)


def test_a_cameras_kuikae_waits_for_the_discard_to_settle_then_is_said_with_its_own_frame():
    checker = RulesChecker(MLEAGUE)
    said = [a for e in _kuikae(camera=True) for a in checker.feed(e)]
    assert said == [] and [a.code for a in checker.held] == ["kuikae"]
    hold = SETTLE_FRAMES * LONGER_SETTLING["kuikae"]
    assert checker.feed(_later(50 + hold - 1)) == []
    (alert,) = checker.feed(_later(50 + hold))
    assert (alert.code, alert.seat, alert.frame) == ("kuikae", 1, 50)  # matched by its evidence frame
    assert checker.held == [] and checker.alerts == [alert]


def test_a_kuikae_waits_longer_than_other_face_readings_and_is_dropped_when_read_again_late():
    # set 4 hanchan-jansou-1 7158: a discard after a pon of F read as F, read again as 9s 154
    # frames later (as "no such tile in the river" there), after a 90-frame hold had let it out
    assert LONGER_SETTLING["kuikae"] * SETTLE_FRAMES > 154
    checker = RulesChecker(MLEAGUE)
    for e in _kuikae(camera=True):
        checker.feed(e)
    assert checker.feed(_later(50 + SETTLE_FRAMES + 10)) == [] and len(checker.held) == 1
    checker.feed(ev.Retract(target_type="dahai", target_frame=50, actor=1, pai="9s", frame=50 + 154))
    assert checker.held == [] and checker.release() == []
    assert [a.code for a in checker.withdrawn] == ["kuikae"]


def test_a_kuikae_on_a_discard_the_camera_reads_again_is_dropped():
    checker = RulesChecker(MLEAGUE)
    for e in _kuikae(camera=True):
        checker.feed(e)
    other = ev.Retract(target_type="dahai", target_frame=50, actor=3, pai="9s", frame=70)  # another seat's
    assert checker.feed(other) == [] and len(checker.held) == 1
    reread = ev.Retract(target_type="dahai", target_frame=50, actor=1, pai="9s", frame=80)
    assert checker.feed(reread) == [] and checker.held == []
    assert checker.feed(_later(500)) == [] and checker.release() == []
    assert [a.code for a in checker.withdrawn] == ["kuikae"] and checker.alerts == []


def test_a_call_read_again_drops_the_kuikae_that_followed_it():
    checker = RulesChecker(MLEAGUE)
    for e in _kuikae(camera=True):
        checker.feed(e)
    fix = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="6s", consumed=["7s", "8s"], frame=90)
    checker.feed(fix)
    assert checker.held == [] and [a.code for a in checker.withdrawn] == ["kuikae"]


def test_what_is_still_held_at_the_end_is_said_and_a_record_is_never_held():
    checker = RulesChecker(MLEAGUE)
    checker.feed_all(_kuikae(camera=True))  # the stream ends before the discard settled
    assert [a.code for a in checker.alerts] == ["kuikae"]
    checker = RulesChecker(MLEAGUE)
    assert [a.code for e in _kuikae(camera=False) for a in checker.feed(e)] == ["kuikae"]  # a game record
    checker = RulesChecker(MLEAGUE, settle_frames=0)
    assert [a.code for e in _kuikae(camera=True) for a in checker.feed(e)] == ["kuikae"]


def test_a_chi_from_the_wrong_seat_read_again_as_a_pon_is_dropped_and_kills_no_hand():
    # a camera read seat 2's pon of seat 0's 6p as a chi 4p 6p: a chi from toimen is illegal, but
    # a chi or a pon is told by faces; later looks read 6p 6p 6p and correct the call
    stream = framed(seen_opening("6p") + [ev.Chi(actor=2, target=0, pai="6p", consumed=["4p", "5p"])])
    checker = RulesChecker(MLEAGUE)
    assert [a for e in stream for a in checker.feed(e)] == []
    assert [a.code for a in checker.held] == ["illegal_call"] and checker.rules.dead == frozenset()
    fix = ev.Retract(
        target_type="chi", target_frame=40, actor=2, pai="6p", consumed=["6p", "6p"], as_type="pon"
    )
    checker.feed(fix.model_copy(update={"frame": 70}))
    assert checker.held == [] and [a.code for a in checker.withdrawn] == ["illegal_call"]
    assert checker.release() == [] and checker.alerts == []


def test_a_meld_laid_out_wrong_waits_and_only_a_layout_correction_drops_it():
    # seat 2's pon of seat 0's 6p read with its right tile sideways (toimen's goes in the middle)
    seen = ev.MeldPlacement(tiles=["6p", "6p", "6p"], sideways=[2])
    stream = framed(
        seen_opening("6p") + [ev.Pon(actor=2, target=0, pai="6p", consumed=["6p", "6p"], laid=seen)]
    )

    def held_after(fix: ev.Retract) -> RulesChecker:
        checker = RulesChecker(MLEAGUE)
        for e in stream + [fix.model_copy(update={"frame": 70})]:
            checker.feed(e)
        return checker

    tiles_only = ev.Retract(target_type="pon", target_frame=40, actor=2, pai="6p", consumed=["6p", "6p"])
    assert [a.code for a in held_after(tiles_only).held] == ["meld_orientation"]  # still laid wrong
    layout = ev.Retract(
        target_type="pon", target_frame=40, actor=2, laid=ev.MeldPlacement(tiles=["6p"] * 3, sideways=[1])
    )
    checker = held_after(layout)
    assert checker.held == [] and [a.code for a in checker.withdrawn] == ["meld_orientation"]
    assert not layout.corrects_faces and layout.corrects


def test_only_a_correction_of_an_alerts_own_evidence_drops_it():
    checker = RulesChecker(MLEAGUE)
    for e in _kuikae(camera=True):
        checker.feed(e)
    # seat 1's draw taken back, and seat 0's discard (the one called) read again as the same kind
    checker.feed(ev.Retract(target_type="tsumo", target_frame=50, actor=1, frame=60))
    checker.feed(ev.Retract(target_type="dahai", target_frame=30, actor=0, pai="6s", frame=61))
    # the call read again with the same tiles
    same = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="6s", consumed=["4s", "5s"], frame=62)
    checker.feed(same)
    assert [a.code for a in checker.held] == ["kuikae"] and checker.withdrawn == []


def test_a_layout_read_again_still_wrong_keeps_the_alert():
    seen = ev.MeldPlacement(tiles=["6p"] * 3, sideways=[2])
    checker = RulesChecker(MLEAGUE)
    for e in framed(
        seen_opening("6p") + [ev.Pon(actor=2, target=0, pai="6p", consumed=["6p", "6p"], laid=seen)]
    ):
        checker.feed(e)
    left = ev.MeldPlacement(tiles=["6p"] * 3, sideways=[0])  # toimen's goes in the middle: still wrong
    checker.feed(ev.Retract(target_type="pon", target_frame=40, actor=2, laid=left, frame=70))
    assert [a.code for a in checker.held] == ["meld_orientation"]


def test_a_kuikae_judged_on_a_call_corrected_before_its_discard_rests_on_that_reading():
    # chi 6s with 45s (frame 40), read again as 78s (45) before the discard 9s (50): 食替 on 78s.
    # A later correction moving only the sideways tile keeps it; one back to 45s drops it.
    stream = framed(seen_opening("6s"))
    chi = ev.Chi(actor=1, target=0, pai="6s", consumed=["4s", "5s"], frame=40)
    to78 = ev.Retract(target_type="chi", target_frame=40, actor=1, pai="6s", consumed=["7s", "8s"], frame=45)
    discard = ev.Dahai(actor=1, pai="9s", tsumogiri=False, slot=SEEN_SLOT, frame=50)
    turned = to78.model_copy(
        update={"laid": ev.MeldPlacement(tiles=["6s", "7s", "8s"], sideways=[0]), "frame": 60}
    )
    checker = RulesChecker(MLEAGUE)
    for e in [*stream, chi, to78, discard, turned]:
        checker.feed(e)
    assert [a.code for a in checker.held] == ["kuikae"] and checker.withdrawn == []
    back = to78.model_copy(update={"consumed": ["4s", "5s"], "frame": 70})
    checker.feed(back)
    assert checker.held == [] and [a.code for a in checker.withdrawn] == ["kuikae"]


def test_an_alert_on_a_call_read_again_is_held_from_then_and_dropped_by_a_later_reading():
    laid = ev.MeldPlacement(tiles=["6p", "?", "?"], sideways=[0])
    stream = framed(seen_opening("6p"))
    pon = ev.Pon(actor=1, target=0, pai="6p", consumed=["?", "?"], laid=laid, frame=40)

    def reread(tiles: list[str], frame: int, as_type=None) -> ev.Retract:
        return ev.Retract(
            target_type="pon", target_frame=40, actor=1, pai="6p", consumed=tiles[1:], as_type=as_type,
            laid=ev.MeldPlacement(tiles=tiles, sideways=[0]), frame=frame,
        )  # fmt: skip

    checker = RulesChecker(MLEAGUE)
    for e in [*stream, pon, reread(["6p", "7p", "8p"], 200, "chi")]:
        checker.feed(e)
    assert checker.held == [] and checker.alerts == []
    said = checker.feed(reread(["6p", "7p", "9p"], 210, "chi"))  # a chi 6 7 9: no set
    assert said == [] and [(a.code, a.frame) for a in checker.held] == [("invalid_meld", 40)]
    assert checker.feed(ev.HandCount(actor=2, count=13, frame=290)) == []  # held 90 from 210
    checker.feed(reread(["6p", "7p", "8p"], 295, "chi"))
    assert checker.held == [] and [a.code for a in checker.withdrawn] == ["invalid_meld"]
    # read as no set once more: found again (its first alert was dropped, not said)
    checker.feed(reread(["6p", "7p", "9p"], 300, "chi"))
    assert [a.code for a in checker.held] == ["invalid_meld"]


def test_every_settling_finding_can_be_judged_again():
    from rules_check.checker import SETTLING, STILL_FOUND

    codes = {k if isinstance(k, str) else k[0] for k in SETTLING}
    assert codes <= set(STILL_FOUND)


def _declaration_read_twice() -> list:
    """Seat 0 declares riichi; the camera reads its sideways 3p at (1, 0) at frame 30, seat 1
    discards, then reads the same tile again one place on at (1, 1), at frame 50."""
    return framed(
        seen_opening("1p", ev.RiverPlacement(row=0, col=5, sideways=False))
        + [
            ev.Reach(actor=0),
            ev.Dahai(actor=0, pai="3p", tsumogiri=False, slot=ev.RiverPlacement(row=1, col=0, sideways=True)),
            ev.Tsumo(actor=1, pai="?"),
            ev.Dahai(actor=1, pai="6m", tsumogiri=False, slot=SEEN_SLOT),
            ev.Dahai(actor=0, pai="3p", tsumogiri=False, slot=ev.RiverPlacement(row=1, col=1, sideways=True)),
        ]
    )


def test_a_riichi_tile_read_twice_is_not_a_stray_once_the_first_reading_is_taken_back():
    events = _declaration_read_twice()
    assert [e.type for e in events[-5:]] == ["reach", "dahai", "tsumo", "dahai", "dahai"]
    checker = RulesChecker(MLEAGUE)
    for e in events:
        checker.feed(e)
    assert [(a.code, a.seat) for a in checker.held] == [("river_layout", 0)] and checker.alerts == []
    first = events[-4]
    checker.feed(ev.Retract(target_type="dahai", target_frame=first.frame, actor=0, frame=first.frame + 40))
    assert checker.held == [] and [a.code for a in checker.withdrawn] == ["river_layout"]
    assert checker.release() == []


def test_a_stray_sideways_tile_whose_riichi_reading_stands_is_said_after_the_hold():
    events = _declaration_read_twice()
    checker = RulesChecker(MLEAGUE)
    for e in events:
        checker.feed(e)
    (alert,) = checker.feed(_later(events[-1].frame + SETTLE_FRAMES))
    assert (alert.code, alert.seat, alert.frame) == ("river_layout", 0, events[-1].frame)
    assert "sideways without a riichi" in alert.message


def _seventh_tile() -> list:
    """Seat 3 lays six tiles in its first row, then a seventh beside them, as a camera reads it."""
    from tests.rules_check.checks.test_river_layout import rounds

    return framed(rounds([(0, c, False) for c in range(6)] + [(0, 6, False)]))


def test_a_cameras_seventh_tile_waits_then_is_said_with_its_own_frame():
    events = _seventh_tile()
    checker = RulesChecker(MLEAGUE)
    for e in events:
        checker.feed(e)
    assert [(a.code, a.seat) for a in checker.held] == [("river_layout", 3)] and checker.alerts == []
    row = [e for e in events if e.type == "dahai" and e.actor == 3]
    # a tile of the row read with another face is still a tile there: still six before it
    checker.feed(
        ev.Retract(target_type="dahai", target_frame=row[2].frame, actor=3, pai="W", frame=row[-1].frame + 5)
    )
    (alert,) = checker.feed(_later(row[-1].frame + SETTLE_FRAMES))
    assert (alert.code, alert.seat, alert.frame) == ("river_layout", 3, row[-1].frame)
    assert "row 1 column 7" in alert.message


def test_a_seventh_tile_is_dropped_when_a_tile_of_its_row_is_taken_back():
    # the camera had seen one tile of the row twice (or a ghost): taken back, the row held five
    events = _seventh_tile()
    checker = RulesChecker(MLEAGUE)
    for e in events:
        checker.feed(e)
    row = [e for e in events if e.type == "dahai" and e.actor == 3]
    checker.feed(
        ev.Retract(target_type="dahai", target_frame=row[2].frame, actor=3, frame=row[-1].frame + 30)
    )
    assert checker.held == [] and [a.code for a in checker.withdrawn] == ["river_layout"]
    assert checker.release() == []


def test_a_sideways_seventh_tile_rests_on_its_row_for_the_one_and_its_riichi_for_the_other():
    # a seventh tile lying sideways with no riichi: two findings, each resting on its own evidence
    from tests.rules_check.checks.test_river_layout import rounds

    events = framed(rounds([(0, c, False) for c in range(6)] + [(0, 6, True)]))
    checker = RulesChecker(MLEAGUE)
    for e in events:
        checker.feed(e)
    assert len(checker.held) == 2
    row = [e for e in events if e.type == "dahai" and e.actor == 3]
    checker.feed(
        ev.Retract(target_type="dahai", target_frame=row[2].frame, actor=3, frame=row[-1].frame + 30)
    )
    assert ["column 7" in a.message for a in checker.withdrawn] == [True]
    (left,) = checker.held
    assert "sideways without a riichi" in left.message
