import pytest

from rules_check.ruleset import MLEAGUE, RIICHI
from tests.rules_check.kit import HANDS, draw, feed, found, start
from tracker import events as ev

# seat 2 holds 77m: a pon of seat 0's 7m comes from toimen (sideways in the middle)
PON_HANDS = ["234m456p678s23s55p", "111999m111999p4z", "77m111999s888m23z", "1112223336667z"]


def pon_stream(sideways: list[int]) -> list:
    laid = ev.MeldPlacement(tiles=["7m", "7m", "7m"], sideways=sideways)
    return (
        start(PON_HANDS)
        + draw(0, "7m")
        + [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"], laid=laid)]
        + [ev.Dahai(actor=2, pai="W", tsumogiri=False)]
    )


def test_pon_from_toimen_sideways_in_the_middle_is_fine():
    assert found(feed(pon_stream([1]))) == []


@pytest.mark.parametrize(
    "sideways, seen", [([0], "sideways at left"), ([], "no tile sideways"), ([2], "right")]
)
def test_pon_from_toimen_placed_wrong(sideways, seen):
    checker = feed(pon_stream(sideways))
    assert found(checker) == [("meld_orientation", 2, "warning")]
    assert "toimen" in checker.alerts[0].message and seen in checker.alerts[0].message


def test_chi_called_tile_at_the_left():
    ok = ev.MeldPlacement(tiles=["4s", "2s", "3s"], sideways=[0])
    wrong = ev.MeldPlacement(tiles=["2s", "3s", "4s"], sideways=[2])
    hands = ["234m456p678s23s55p", "23s111999m111p44z", *HANDS[2:]]
    for laid, want in ((ok, []), (wrong, [("meld_orientation", 1, "warning")])):
        stream = start(hands) + draw(0, "4s")
        stream += [ev.Chi(actor=1, target=0, pai="4s", consumed=["2s", "3s"], laid=laid)]
        stream += [ev.Dahai(actor=1, pai="N", tsumogiri=False)]
        assert found(feed(stream)) == want


def kakan_stream(sideways: list[int]) -> list:
    stream = pon_stream([1]) + draw(3, "N") + draw(0, "P")
    stream += draw(1, "N") + [ev.Tsumo(actor=2, pai="7m")]
    laid = ev.MeldPlacement(tiles=["7m", "7m", "7m", "7m"], sideways=sideways)
    stream += [ev.Kakan(actor=2, pai="7m", consumed=["7m"] * 3, laid=laid), ev.Tsumo(actor=2, pai="C")]
    stream += [ev.Dahai(actor=2, pai="C", tsumogiri=True), ev.Dora(dora_marker="1p")]
    return stream


def test_kakan_after_pon_laid_on_the_sideways_tile_is_fine():
    assert found(feed(kakan_stream([1, 1]))) == []
    assert found(feed(kakan_stream([1]))) == []


def test_kakan_added_on_the_wrong_tile():
    assert found(feed(kakan_stream([2]))) == [("meld_orientation", 2, "warning")]


def ankan_stream(face_down: list[int]) -> list:
    hands = ["2222m456p678s23s5p", *HANDS[1:]]
    laid = ev.MeldPlacement(
        tiles=["2m", "back", "back", "2m"] if face_down == [1, 2] else ["back", "2m", "2m", "back"],
        face_down=face_down,
    )
    stream = start(hands) + [ev.Tsumo(actor=0, pai="5p"), ev.Ankan(actor=0, consumed=["2m"] * 4, laid=laid)]
    return stream + [
        ev.Dora(dora_marker="1s"),
        ev.Tsumo(actor=0, pai="N"),
        ev.Dahai(actor=0, pai="N", tsumogiri=True),
    ]


def test_ankan_face_down_tiles_per_ruleset():
    assert found(feed(ankan_stream([1, 2]), MLEAGUE)) == []
    assert found(feed(ankan_stream([0, 3]), MLEAGUE)) == [("meld_orientation", 0, "warning")]
    assert found(feed(ankan_stream([0, 3]), RIICHI)) == []


def test_layouts_only_a_misreading_shows_are_not_judged():
    # two tiles sideways is no layout anyone lays; "none sideways" on a meld whose faces were not
    # all read is too poor a look (the sideways tile is the one most often missed)
    two = ev.MeldPlacement(tiles=["7m", "7m", "7m"], sideways=[0, 1])
    unread = ev.MeldPlacement(tiles=["7m", "?", "7m"], sideways=[])
    for laid in (two, unread):
        stream = start(PON_HANDS) + draw(0, "7m")
        stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"], laid=laid)]
        assert found(feed(stream)) == []
    # a sideways tile at the wrong place is judged even with an unread face
    wrong = ev.MeldPlacement(tiles=["?", "7m", "7m"], sideways=[2])
    stream = start(PON_HANDS) + draw(0, "7m")
    stream += [ev.Pon(actor=2, target=0, pai="7m", consumed=["7m", "7m"], laid=wrong)]
    assert found(feed(stream)) == [("meld_orientation", 2, "warning")]
