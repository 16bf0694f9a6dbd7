from rules_check.hands import fifth_copy
from tests.builders import start_unseen, turn
from tracker.table.state import TableState


def _table(discards: list[str]) -> TableState:
    """A camera's kyoku (hands unseen) in which the seats discarded ``discards`` in turn."""
    state = TableState()
    for event in start_unseen(dora="E"):
        state.update(event)
    for i, pai in enumerate(discards):
        for event in turn(i % 4, "?", pai):
            state.update(event)
    return state


def test_a_fifth_copy_is_judged_on_the_kinds_of_the_tiles_judged():
    # the dora indicator E and four E in the rivers: five E, one of them misread
    table = _table(["E", "E", "E", "E", "4m", "4m", "4m"])
    assert fifth_copy(table, ["E", "2s"]) == "E"
    assert fifth_copy(table, ["4m", "0m"]) is None  # four 4m and a red five: no fifth
    assert fifth_copy(table, ["4m", "4m"]) == "4m"
    # a misreading elsewhere on the table (the five E) says nothing of a meld of 4m and 7m
    assert fifth_copy(table, ["4m", "7m"]) is None
