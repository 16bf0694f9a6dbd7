"""tracker.results: a win or a draw, judged with the wall before the hands' tile counts."""

from __future__ import annotations

from tracker.results import EMPTY_LIVE_WALL, EMPTY_WALL_BACKS, judge_result, nine_kinds
from tracker.tiles import parse

WINNING = parse("123m456p789s11z555z")  # 14
TENPAI = parse("123m456p789s11z55z")  # 13
MID = {"live_wall": 30, "wall_backs": 20, "discards": 30}
END = {"live_wall": 0, "wall_backs": 6, "discards": 70}


def test_a_hand_opened_mid_kyoku_wins_even_read_a_tile_short_or_long():
    for hand in (WINNING, WINNING[:-1], WINNING + parse("9p")):
        result = judge_result({2: hand}, [0, 0, 0, 0], **MID)
        assert (result.kind, result.winners) == ("hora", (2,))
    # with two melds the hand shows 8 tiles; read as 9 it is still the win
    assert judge_result({3: parse("11z555z789s9s")}, [0, 0, 0, 2], **MID).winners == (3,)


def test_two_hands_opened_on_one_discard_both_win_three_or_four_are_abortive_draws():
    assert judge_result({1: WINNING, 3: WINNING[:-1]}, [0] * 4, **MID).winners == (1, 3)
    three = judge_result({0: WINNING, 1: WINNING, 3: WINNING}, [0] * 4, **MID)
    assert (three.kind, three.reason) == ("ryukyoku", "三家和了")
    four = judge_result({e: TENPAI for e in range(4)}, [0] * 4, **MID)
    assert (four.kind, four.reason) == ("ryukyoku", "四家立直")


def test_at_an_empty_wall_the_count_decides_and_two_hands_shown_are_a_draw():
    for wall in (
        {"live_wall": EMPTY_LIVE_WALL, "wall_backs": 20},
        {"live_wall": 20, "wall_backs": EMPTY_WALL_BACKS},
    ):
        assert judge_result({1: TENPAI}, [0] * 4, discards=70, **wall).kind == "ryukyoku"
        assert judge_result({1: WINNING}, [0] * 4, discards=70, **wall).winners == (1,)  # haitei / houtei
    # one hand counted 14 or more, once a tile (15, 16; 4 tiles and 4 melds) is a winner's: so
    # counted, no tenpai hand at a draw read over 13 on sets 3 and 4, and set 4's
    # hanchan-jansou-3 houtei ron, read 15, was taken for a draw
    for hand, melds in ((WINNING + parse("9p"), 0), (WINNING + parse("9p9p"), 0), (parse("4444s"), 4)):
        assert judge_result({1: hand}, [0, melds, 0, 0], **END).winners == (1,)
    # 13 and fewer: the draw
    for hand, melds in ((parse("4s"), 4), (TENPAI, 0), (TENPAI[:-1], 0), (TENPAI[:-2], 0)):
        assert judge_result({1: hand}, [0, melds, 0, 0], **END).kind == "ryukyoku"
    # two tenpai hands, one read a tile long: still the draw
    assert judge_result({0: TENPAI, 1: WINNING}, [0] * 4, **END).kind == "ryukyoku"


def test_nine_kinds_of_terminals_shown_at_the_first_draw_is_kyuushu_kyuuhai():
    hand = parse("19m19p1s1234567z5m")
    assert nine_kinds(hand) and not nine_kinds(parse("19m19p1s123z2345m5p"))
    first = judge_result({0: hand}, [0] * 4, live_wall=65, wall_backs=30, discards=0)
    assert (first.kind, first.reason) == ("ryukyoku", "九種九牌")
    # later in the kyoku the same tiles laid open are a win (kokushi)
    assert judge_result({0: hand}, [0] * 4, **MID).kind == "hora"


def test_fourteen_tiles_shown_in_the_first_go_around_that_are_no_win_are_kyuushu_kyuuhai():
    """t6-kyushukyuhai (set 7, low camera): the hand shown at the first draw read with 1m and W
    as N, eight kinds of terminals and honours: judged a win on a hand that is none. Fourteen
    tiles shown before any call can only be a first-draw win or the abortive draw; a win's
    tiles make a winning hand."""
    misread = parse("5m33p89p79s124z4567z")  # N twice: eight kinds
    assert not nine_kinds(misread) and len(misread) == 14
    first = judge_result({1: misread}, [0] * 4, live_wall=68, wall_backs=30, discards=1)
    assert (first.kind, first.reason) == ("ryukyoku", "九種九牌")
    # a first-draw win (chiihou) stays one, and so does a ron on the first discards (13 shown)
    assert judge_result({1: WINNING}, [0] * 4, live_wall=68, wall_backs=30, discards=1).winners == (1,)
    ron = parse("19m19p5s1234z3356p")  # eight kinds, 13 tiles: a ron on a discard, not the draw
    assert judge_result({2: ron}, [0] * 4, live_wall=66, wall_backs=30, discards=2).winners == (2,)
    # after a call the go-around is broken: no abortive draw
    assert judge_result({1: misread}, [0, 0, 1, 0], live_wall=68, wall_backs=30, discards=1).kind == "hora"
    # a hand with a tile not read cannot be judged no win: as before, by its kinds
    unread = misread[:-1] + ["?"]
    assert judge_result({1: unread}, [0] * 4, live_wall=68, wall_backs=30, discards=1).kind == "hora"
