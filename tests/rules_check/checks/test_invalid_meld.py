from rules_check.ruleset import MCR, MLEAGUE
from tests.rules_check.kit import draw, feed, found, framed, seen_opening, start
from tracker import events as ev

CHI_HANDS = ["234m456p678m23p55p", "123456789s1234p", "77m111999s888m23z", "1112223336667z"]


def chi(laid_tiles: list[str]) -> list:
    laid = ev.MeldPlacement(tiles=laid_tiles, sideways=[0])
    stream = start(CHI_HANDS) + draw(0, "4s")
    return stream + [
        ev.Chi(actor=1, target=0, pai="4s", consumed=["2s", "3s"], laid=laid),
        ev.Dahai(actor=1, pai="9s", tsumogiri=False),
    ]


def test_a_run_laid_as_declared_is_fine():
    assert found(feed(chi(["4s", "2s", "3s"]))) == []


def test_chi_laid_with_a_tile_that_makes_no_run():
    checker = feed(chi(["4s", "2s", "7s"]))
    assert found(checker) == [("invalid_meld", 1, "dead_hand")]
    assert "错吃" in checker.alerts[0].message
    assert found(feed(chi(["4s", "2s", "7s"]), MCR)) == [("invalid_meld", 1, "xianggong")]


def test_a_fifth_copy_overruled_earlier_in_the_kyoku_does_not_silence_a_wrong_chi():
    # a river tile read as a fifth 4m and recorded as its runner-up 4s: the table as read since
    # holds four, and the chi laid with a 7s later is judged
    laid = ev.MeldPlacement(tiles=["4s", "2s", "7s"], sideways=[0])
    stream = framed(start(CHI_HANDS) + draw(0, "4s"))
    overruled = ev.Retract(
        target_type="dahai", target_frame=stream[-1].frame, actor=0, pai="4s", fifth_copy="4m"
    )
    stream += [overruled, ev.Chi(actor=1, target=0, pai="4s", consumed=["2s", "7s"], laid=laid)]
    assert found(feed(stream)) == [("invalid_meld", 1, "dead_hand")]


def test_a_tile_read_unsurely_is_no_evidence_until_read_surely():
    # a camera's chi with its third face read near another (``laid.unsure``): not judged on it
    def chi_read(unsure: list[int] | None) -> ev.Chi:
        laid = ev.MeldPlacement(tiles=["4s", "2s", "7s"], sideways=[0], unsure=unsure)
        return ev.Chi(actor=1, target=0, pai="4s", consumed=["2s", "7s"], laid=laid)

    stream = framed(start(CHI_HANDS) + draw(0, "4s") + [chi_read([2])])
    assert found(feed(stream)) == []
    sure = ev.MeldPlacement(tiles=["4s", "2s", "7s"], sideways=[0])
    fix = ev.Retract(
        target_type="chi", target_frame=stream[-1].frame, actor=1, pai="4s", consumed=["2s", "7s"], laid=sure
    )
    assert found(feed(stream + [fix])) == [("invalid_meld", 1, "dead_hand")]
    # the unsure face need not be the one off the set: a tile read near another is as if unread
    assert found(feed(stream[:-1] + [chi_read([1])])) == []
    assert found(feed(stream[:-1] + [chi_read(None)])) == [("invalid_meld", 1, "dead_hand")]


def test_pon_declared_with_a_different_tile():
    stream = start(CHI_HANDS) + draw(0, "7m")
    stream += [
        ev.Pon(
            actor=2,
            target=0,
            pai="7m",
            consumed=["7m", "7m"],
            laid=ev.MeldPlacement(tiles=["7m", "7m", "8m"], sideways=[1]),
        )
    ]
    stream += [ev.Dahai(actor=2, pai="W", tsumogiri=False)]
    checker = feed(stream)
    melds = [a for a in checker.alerts if a.code == "invalid_meld"]
    assert [(a.seat, a.penalty) for a in melds] == [(2, "dead_hand")] and "错碰" in melds[0].message


def _pon_of_7m_laid(tiles: list[str]) -> list:
    stream = start(CHI_HANDS) + draw(0, "7m")
    laid = ev.MeldPlacement(tiles=tiles, sideways=[1])
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"], laid=laid)]
    return stream + [ev.Dahai(actor=2, pai="W", tsumogiri=False)]


def test_tiles_a_camera_read_two_off_the_set_are_a_misreading_not_a_wrong_set():
    # evaluation set: pons read "E S C", "1s 2m 3m"; a wrong set holds one wrong tile
    wrong = [("invalid_meld", 2, "dead_hand")]
    for tiles, want in (
        (["7m", "7m", "8m"], wrong),
        (["8m", "7m", "7m"], wrong),
        (["1s", "7m", "3m"], []),
        (["6m", "5m", "7m"], wrong),  # a run laid for a pon: a chi from a seat it may not take from
    ):
        assert [f for f in found(feed(_pon_of_7m_laid(tiles))) if f[0] == "invalid_meld"] == want, tiles
    assert found(feed(chi(["4s", "9p", "1m"]))) == []  # nothing of it but the called tile makes the run
    # a record without a camera is as written: its pon of "7m 1s 9s" is a wrong set
    stream = start(CHI_HANDS) + draw(0, "7m")
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["1s", "9s"])]
    assert [f for f in found(feed(stream)) if f[0] == "invalid_meld"] == wrong


def test_ankan_with_face_down_tiles_is_judged_on_its_face_up_ones():
    hands = ["2222m456p678s23s5p", *CHI_HANDS[1:]]
    for up, want in ((["2m", "2m"], []), (["2m", "3m"], [("invalid_meld", 0, "dead_hand")])):
        laid = ev.MeldPlacement(tiles=[up[0], "back", "back", up[1]], face_down=[1, 2])
        stream = start(hands) + [
            ev.Tsumo(actor=0, pai="5p"),
            ev.Ankan(actor=0, consumed=["2m"] * 4, laid=laid),
        ]
        stream += [
            ev.Dora(dora_marker="1s"),
            ev.Tsumo(actor=0, pai="N"),
            ev.Dahai(actor=0, pai="N", tsumogiri=True),
        ]
        assert found(feed(stream)) == want


def test_a_kakan_added_to_a_pon_laid_wrong_is_not_a_second_irregularity():
    # seat 2 pons 7m but lays an 8m with it (错碰, alerted at the call); it later adds its last 7m
    laid = ev.MeldPlacement(tiles=["8m", "7m", "7m"], sideways=[1])
    stream = start(CHI_HANDS) + draw(0, "7m")
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["8m", "7m"], laid=laid)]
    stream += [ev.Dahai(actor=2, pai="W", tsumogiri=False)]
    stream += draw(3, "5m") + draw(0, "6m") + draw(1, "3p")
    stream += [ev.Tsumo(actor=2, pai="1p"), ev.Kakan(actor=2, pai="7m", consumed=["8m", "7m", "7m"])]
    stream += [
        ev.Dora(dora_marker="1s"),
        ev.Tsumo(actor=2, pai="N"),
        ev.Dahai(actor=2, pai="N", tsumogiri=True),
    ]
    checker = feed(stream)
    melds = [a for a in checker.alerts if a.code == "invalid_meld"]
    assert [(a.seat, a.penalty) for a in melds] == [(2, "dead_hand")] and "错碰" in melds[0].message


def _8m_added_after_a_pon_of_7m(
    laid: ev.MeldPlacement, kan_first: str | None = None, other_pon: bool = False
):
    """Seat 2 pons 7m laid as ``laid`` (and then, ``other_pon``, a 1s); a go-round; a kakan of
    ``kan_first`` first if given (7m: on that pon; 1s: on the other) and another go-round; then
    an 8m added (kakan). The checker's (invalid_meld alerts as (code, seat), state errors)."""
    from rules_check.checker import RulesChecker

    stream = start(CHI_HANDS) + draw(0, "7m")
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"], laid=laid)]
    stream += [ev.Dahai(actor=2, pai="W", tsumogiri=False)]
    if other_pon:
        stream += draw(3, "1s") + [ev.Pon(actor=2, target=3, pai="1s", consumed=["1s", "1s"])]
        stream += [ev.Dahai(actor=2, pai="S", tsumogiri=False)]
    round_ = draw(3, "5m") + draw(0, "6m") + draw(1, "3p")
    stream += round_
    if kan_first is not None:
        stream += [
            ev.Tsumo(actor=2, pai=kan_first),
            ev.Kakan(actor=2, pai=kan_first, consumed=[kan_first] * 3),
        ]
        stream += [ev.Dora(dora_marker="2p"), *draw(2, "N"), *round_]
    stream += [ev.Tsumo(actor=2, pai="8m"), ev.Kakan(actor=2, pai="8m", consumed=["7m", "7m", "7m"])]
    checker = RulesChecker(MLEAGUE)
    checker.feed_all(stream)
    return [(a.code, a.seat) for a in checker.alerts if a.code == "invalid_meld"], checker.state_errors


_UNSURE_7M = ev.MeldPlacement(tiles=["?", "7m", "?"], sideways=[1], unsure=[1])


def test_a_kakan_of_another_kind_on_a_pon_whose_faces_were_read_unsurely_is_no_wrong_kan():
    # set 3's t6-chankan 1546: a pon of 6s whose called tile the river read 9p, its faces unread or
    # read unsurely; the 6s added to it (kakan) named no pon: a false 错杠. Read surely as 9p, the
    # pon's faces are evidence: a 6s added to it is one
    assert _8m_added_after_a_pon_of_7m(_UNSURE_7M)[0] == []
    sure = ev.MeldPlacement(tiles=["7m", "7m", "7m"], sideways=[1])
    assert _8m_added_after_a_pon_of_7m(sure)[0] == [("invalid_meld", 2)]
    # (its own kakan of its kind first: it is a pon no more)
    assert _8m_added_after_a_pon_of_7m(_UNSURE_7M, kan_first="7m")[0] == [("invalid_meld", 2)]


def test_a_kakan_on_an_unsure_pon_is_no_wrong_kan_when_another_pon_of_its_seat_was_made_a_kan():
    # a record without frames (every call keyed (seat, None)): the seat's later pon of 1s, made a
    # kakan, is not the unsure pon of 7m; that one is still a pon, so the 8m added names it
    alerts, errors = _8m_added_after_a_pon_of_7m(_UNSURE_7M, kan_first="1s", other_pon=True)
    assert errors == ["kakan: seat 2 adds 8m to a pon it does not have"] and alerts == []


def _reread(kind: str, laid: list[str]) -> list[tuple]:
    """A camera's pon of ``kind`` by seat 1 at frame 40, laid with two tiles unread, read again at
    frame 80 as ``laid``: the alerts, (code, seat, frame)."""
    from rules_check.checker import RulesChecker

    first = ev.MeldPlacement(tiles=[kind, "?", "?"])
    stream = framed(
        seen_opening(kind) + [ev.Pon(actor=1, target=0, pai=kind, consumed=["?", "?"], laid=first)]
    )
    fix = ev.Retract(
        target_type="pon", target_frame=40, actor=1, pai=kind, consumed=[kind, kind],
        laid=ev.MeldPlacement(tiles=laid, sideways=[0]), frame=80,
    )  # fmt: skip
    checker = RulesChecker(MLEAGUE)
    checker.feed_all(stream + [fix])
    return [(a.code, a.seat, a.frame) for a in checker.alerts]


def test_a_call_read_again_is_judged_on_its_tiles_as_laid_pointing_at_the_call():
    assert _reread("7m", ["7m", "4m", "7m"]) == [("invalid_meld", 1, 40)]  # 错碰
    assert _reread("7m", ["7m", "7m", "7m"]) == []
    # honour faces read again are no evidence (the faces a reader confuses most on unseen art)
    assert _reread("F", ["F", "F", "E"]) == []
    # a number tile among them is no such confusion (t6-confusing_nakis_0's staged "3m C C")
    assert _reread("C", ["3m", "C", "C"]) == [("invalid_meld", 1, 40)]
