"""The physical wall: which stacks are still there, which tile of them lies face up.

Stacks are numbered clockwise as seen from above, starting at seat 0's right end (seat 0's wall,
then seat 3's, 2's, 1's). The dice pick the break; the deal and the draws take tiles clockwise from
the break, replacement draws take them from the other end (the dead wall's end at the break), and
dora indicators are the top tiles of the dead wall's third, fourth, ... stacks from the break.
"""

from __future__ import annotations

import numpy as np

from tracker.table.layout import TableRules

CLOCKWISE_SEATS = (0, 3, 2, 1)


class WallModel:
    def __init__(self, rules: TableRules, oya: int, dice: int):
        if not 2 <= dice <= 12:
            raise ValueError(f"dice sum {dice} outside 2..12")
        self.per_side = rules.stacks_per_side
        self.total = self.per_side * 4
        owner = (oya + dice - 1) % 4
        self.start = CLOCKWISE_SEATS.index(owner) * self.per_side + dice  # first stack of the live wall
        self.dead_stacks = rules.dead_wall // 2
        self.top = np.ones(self.total, bool)  # tile present, upper level
        self.bottom = np.ones(self.total, bool)
        self.face_up_top = np.zeros(self.total, bool)
        self.taken_live = 0
        self.taken_replacement = 0

    def stack_position(self, index: int) -> tuple[int, int]:
        """(seat whose wall holds the stack, slot 0..per_side-1 counted from that player's right)."""
        index %= self.total
        return CLOCKWISE_SEATS[index // self.per_side], index % self.per_side

    def _take(self, stack: int) -> None:
        stack %= self.total
        if self.top[stack]:
            self.top[stack] = False
        elif self.bottom[stack]:
            self.bottom[stack] = False
        else:
            raise ValueError("drawing from an empty stack")

    def deal(self) -> None:
        for _ in range(52):
            self.draw_live()

    def draw_live(self) -> int:
        stack = self.start + self.taken_live // 2
        self._take(stack)
        self.taken_live += 1
        return stack % self.total

    def draw_replacement(self) -> int:
        stack = self.start - 1 - self.taken_replacement // 2
        self._take(stack)
        self.taken_replacement += 1
        return stack % self.total

    def indicator_stack(self, k: int) -> int:
        """Stack whose top shows the k-th dora indicator (0 = the first)."""
        return (self.start - 3 - k) % self.total

    def flip_indicator(self, k: int) -> None:
        self.face_up_top[self.indicator_stack(k)] = True

    def is_dead(self, stack: int) -> bool:
        back = (self.start - 1 - stack) % self.total
        return back < self.dead_stacks
