from rules_check.ruleset import RIICHI
from tests.rules_check.kit import draw, feed, found, start
from tracker import events as ev


def test_one_tile_carries_no_mleague_penalty_two_a_yellow_card_once():
    one = start() + [ev.TileExposed(actor=1, pai="9m")] + draw(0, "N")
    assert found(feed(one)) == []
    assert found(feed(one, RIICHI)) == [("exposed_tiles", 1, "warning")]
    three = start() + [ev.TileExposed(actor=1, pai=p) for p in ("9m", "1p", "N")] + draw(0, "N")
    checker = feed(three)
    assert found(checker) == [("exposed_tiles", 1, "yellow_card")]
    assert "exposed 2 tile(s): 9m 1p" in checker.alerts[0].message


def test_separate_incidents_are_separate():
    stream = start() + [ev.TileExposed(actor=1, pai="9m"), ev.TileExposed(actor=1, pai="1p")]
    stream += draw(0, "N") + [ev.TileExposed(actor=1, pai="9m"), ev.TileExposed(actor=1, pai="1m")]
    assert found(feed(stream)) == [("exposed_tiles", 1, "yellow_card")] * 2
