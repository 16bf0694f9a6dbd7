from rules_check.checks.invalid_meld import called_tile_misread
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


def test_the_sideways_tile_read_as_another_face_than_the_discard_it_is_no_wrong_set():
    # set 3 t6-confusing_nakis_4 897 (overhead): a pon of 6m laid "5m 6m 6m", the 5m the sideways
    # tile, which is the 6m taken from the river (read there many times, upright). A wrong set
    # holds a wrong tile of the caller's own; the sideways one is the discard itself
    wrong = [("invalid_meld", 2, "dead_hand")]
    assert found(feed(_pon_of_7m_laid(["7m", "8m", "7m"]))) == []  # (sideways: index 1)
    assert found(feed(_pon_of_7m_laid(["8m", "7m", "7m"]))) == wrong  # one of its own is the 8m
    assert found(feed(chi(["5s", "2s", "3s"]))) == []  # the called 4s read 5s (sideways: index 0)
    assert found(feed(chi(["4s", "2s", "5s"]))) == [("invalid_meld", 1, "dead_hand")]


def test_a_sideways_misread_excuses_neither_a_wrong_size_nor_an_unknown_called_tile():
    # (review helper-37) four tiles laid for a pon are wrong whatever its sideways tile reads; a
    # called tile never read (``?``) is no river reading to hold the sideways one against
    wrong = [("invalid_meld", 2, "dead_hand")]
    assert found(feed(_pon_of_7m_laid(["7m", "7m", "7m", "7m"]))) == wrong
    assert found(feed(_pon_of_7m_laid(["7m", "8m", "7m", "7m"]))) == wrong
    laid = ev.MeldPlacement(tiles=["7m", "8m", "7m"], sideways=[1])
    pon = ev.Pon(actor=2, target=0, pai="?", consumed=["7m", "7m"], laid=laid)
    assert not called_tile_misread(pon, ["7m", "8m", "7m"])
    assert called_tile_misread(pon.model_copy(update={"pai": "7m"}), ["7m", "8m", "7m"])


def test_a_call_read_whole_as_its_set_once_is_not_made_wrong_by_a_later_reading():
    # set 3 hanchan-jansou-2 14471: a pon of 5m read "? ? 5m", then "5mr 5m 5m", then "5mr 6m 5m":
    # tiles laid do not change, the third reading is the camera's. Read wrong from the first
    # whole reading on, it is a 错碰 as before
    from rules_check.checker import RulesChecker

    def alerts(readings: list[list[str]]) -> list[tuple]:
        first = ev.MeldPlacement(tiles=["5m", "?", "?"], sideways=[0])  # (from kamicha: left)
        stream = framed(
            seen_opening("5m") + [ev.Pon(actor=1, target=0, pai="5m", consumed=["?", "?"], laid=first)]
        )
        fixes = [
            ev.Retract(
                target_type="pon",
                target_frame=40,
                actor=1,
                pai="5m",
                consumed=["5m", "5m"],
                laid=ev.MeldPlacement(tiles=tiles, sideways=[0]),
                frame=80 + 20 * i,
            )  # fmt: skip
            for i, tiles in enumerate(readings)
        ]
        checker = RulesChecker(MLEAGUE)
        checker.feed_all(stream + fixes)
        return [(a.code, a.seat, a.frame) for a in checker.alerts]

    assert alerts([["5m", "5mr", "5m"], ["5m", "5mr", "6m"]]) == []
    assert alerts([["5m", "5mr", "6m"]]) == [("invalid_meld", 1, 40)]
    assert alerts([["5m", "5mr", "6m"], ["5m", "5mr", "6m"]]) == [("invalid_meld", 1, 40)]
