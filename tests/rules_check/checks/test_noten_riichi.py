from rules_check.ruleset import MCR, MLEAGUE
from tests.builders import t
from tests.rules_check.kit import draw, feed, found, start
from tracker import events as ev


def riichi_then_draw(shown: str | None, reason: str = "流局") -> list:
    stream = start() + [
        ev.Tsumo(actor=0, pai="N"),
        ev.Reach(actor=0),
        ev.Dahai(actor=0, pai="N", tsumogiri=True),
    ]
    stream += [ev.ReachAccepted(actor=0)] + draw(1, "P")
    hands = None if shown is None else [t(shown), None, None, None]
    return stream + [ev.Ryukyoku(reason=reason, hands=hands)]


def test_tenpai_riichi_at_the_draw_is_fine():
    assert found(feed(riichi_then_draw(None))) == []  # the state knows seat 0's hand: tenpai on 1s/4s
    assert found(feed(riichi_then_draw("234m456p678s23s55p"))) == []


def test_noten_riichi_is_chombo():
    checker = feed(riichi_then_draw("234m456p678s29s55p"))
    assert found(checker) == [("noten_riichi", 0, "chombo")]
    assert found(feed(riichi_then_draw("234m456p678s29s55p"), MCR)) == []


def test_abortive_draw_is_not_judged():
    assert found(feed(riichi_then_draw("234m456p678s29s55p", reason="九種九牌"), MLEAGUE)) == []


def test_a_shown_hand_that_makes_a_fifth_tile_is_misread_not_judged():
    # seat 0 shows a noten hand holding a 9s; the dora indicator is a 9s, and seat 1 discards 9s
    def with_nines(n: int) -> list:
        stream = riichi_then_draw("234m456p678s29s55p")
        nines = [ev.Tsumo(actor=1, pai="9s"), ev.Dahai(actor=1, pai="9s", tsumogiri=True)] * n
        return stream[:-1] + nines + stream[-1:]

    assert found(feed(with_nines(2))) == [("noten_riichi", 0, "chombo")]  # four 9s: possible
    assert found(feed(with_nines(3))) == []  # a fifth: the hand (or the table) is misread


def test_a_hand_the_camera_read_unsurely_is_not_judged():
    # set 3 hanchan-jansou-mleague-hanchan: a riichi hand at a draw, 13 tiles counted right, three
    # read unsurely and more misread, was a false noten riichi; a camera marks the unsure tiles
    def shown_with_unsure(unsure: list[int]) -> list:
        stream = riichi_then_draw("234m456p678s29s55p")  # 2m 3m 4m 4p 5p 6p 6s 7s 8s 2s 9s 5p 5p
        last = stream[-1].model_copy(update={"hands_unsure": [unsure, None, None, None]})
        return stream[:-1] + [last]

    assert found(feed(shown_with_unsure([0]))) == []
    assert found(feed(shown_with_unsure([]))) == [("noten_riichi", 0, "chombo")]  # read surely
