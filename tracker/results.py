"""How a kyoku ended, judged from the hands laid open: who won, or a draw.

A hand's tile count alone (14 counting each meld as 3 for a winner, 13 for a tenpai hand shown at
a draw) is one misread tile away from the wrong answer, so the wall says first: hands opened
while the wall still holds tiles are a win (one winner, or two on one discard), unless three or
more open (four riichi, three rons: abortive draws) or one shows nine kinds of terminals and
honours on the first go-around (kyuushu kyuuhai). Only at an empty wall, where a draw is the
rule and a win on the last tile the exception, does the hand decide: one hand shown whose count
(melds as 3) is a winner's 14 or more is the win, fewer a tenpai hand's. The count is of one
detection a tile (``read_hands._open_hand``): read with tiles boxed twice as they were laid
down, tenpai hands counted 15-16 and wins 16-19 (hence, until 2026-12-01, "14, or 16 and more");
counted once a tile, sets 3 and 4's tenpai hands at exhaustive draws all read 13 (melds as 3)
and their wins on the last tiles 13-15.
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker import tiles

# the wall is empty when the record has this few live tiles left, or the camera sees this few
# backs (the dead wall's top row of 7 stacks, less its flipped indicators)
EMPTY_LIVE_WALL = 4
EXHAUSTIVE = "exhaustive"  # a draw's reason when the live wall ran out
EMPTY_WALL_BACKS = 7
WINNING_COUNT = 14  # a winning hand's tiles, each meld counted as 3
FIRST_GO_AROUND = 4  # discards in the kyoku up to which a kyuushu kyuuhai can be shown
_TERMINALS_HONOURS = {c for c in tiles.KINDS34 if tiles.is_honor(c) or tiles.number(c) in (1, 9)}


@dataclass(frozen=True)
class Result:
    kind: str  # "hora" or "ryukyoku"
    winners: tuple[int, ...] = ()
    reason: str = EXHAUSTIVE  # a draw's: exhaustive, or the abortive draw's tenhou name


def shown_count(codes: list[str], melds: int) -> int:
    """A hand laid open, counted as a winner's 14 is: its face-up tiles, each meld as 3."""
    return len(codes) + 3 * melds


def nine_kinds(codes: list[str]) -> bool:
    """Nine or more kinds of terminals and honours: a hand that may end the kyoku at its first draw."""
    return len({tiles.deaka(c) for c in codes if c != tiles.UNKNOWN} & _TERMINALS_HONOURS) >= 9


def judge_result(
    opened: dict[int, list[str]],
    melds: list[int],
    live_wall: int,
    wall_backs: int,
    discards: int,
) -> Result:
    """``opened``: per edge, the face-up codes of each hand laid open; ``melds``: melds per edge;
    ``live_wall``: live tiles left in the record; ``wall_backs``: wall backs seen now;
    ``discards``: discards in the kyoku so far."""
    empty = live_wall <= EMPTY_LIVE_WALL or wall_backs <= EMPTY_WALL_BACKS
    if empty:
        # two or more hands shown at the last tile: tenpai hands at a draw
        if len(opened) == 1:
            ((edge, codes),) = opened.items()
            n = shown_count(codes, melds[edge])
            if n >= WINNING_COUNT:
                return Result("hora", (edge,))
        return Result("ryukyoku")
    if discards <= FIRST_GO_AROUND and len(opened) == 1 and not any(melds):
        (codes,) = opened.values()
        # fourteen tiles shown before any call are a first-draw win or the abortive draw, and a
        # win's tiles make a winning hand: read as none, the nine kinds are misread (t6-kyushukyuhai:
        # 1m and W read N), so the far likelier draw (a tenhou is one hand in ~330,000)
        if nine_kinds(codes) or _fourteen_read_as_no_win(codes):
            return Result("ryukyoku", reason="九種九牌")
    if len(opened) >= 3:  # four riichi hands shown, or three rons on one discard
        return Result("ryukyoku", reason="四家立直" if len(opened) == 4 else "三家和了")
    return Result("hora", tuple(sorted(opened)))  # one winner, or two on one discard


def _fourteen_read_as_no_win(codes: list[str]) -> bool:
    """Fourteen tiles, every one read, that make no winning hand."""
    from rules_check.hands import is_complete  # (the mahjong package's shapes)

    read = [c for c in codes if c != tiles.UNKNOWN]
    return len(codes) == WINNING_COUNT and len(read) == len(codes) and not is_complete(read)
