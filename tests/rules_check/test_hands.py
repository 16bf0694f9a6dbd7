from rules_check.hands import fifth_copy
from tests.builders import start_unseen, turn
from tracker import events as ev
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


def test_a_fifth_copy_anywhere_on_the_table_makes_its_reading_no_evidence():
    # the dora indicator E and three E in the rivers; three 4m
    table = _table(["E", "E", "E", "4m", "4m", "4m"])
    assert fifth_copy(table, ["4m", "7m"]) is None
    assert fifth_copy(table, ["4m", "0m", "4m"]) == "4m"  # (a red five is a five, not a 4m)
    # a fourth E in the rivers: five E, and a meld of 4m and 7m read now is no evidence either
    table = _table(["E", "E", "E", "4m", "4m", "4m", "E"])
    assert fifth_copy(table, ["4m", "7m"]) == "E"


def test_a_discard_the_tracker_overruled_as_a_fifth_copy_is_no_fifth_copy_once_read_as_four():
    # the camera read a fifth E and the tracker recorded it as W: the table as read now holds four
    # E, and a judgement later in the kyoku is not silenced by that old misreading
    table = _table(["E", "E", "E", "4m"])
    table.update(ev.Retract(target_type="dahai", target_frame=0, actor=3, pai="W", fifth_copy="E"))
    assert fifth_copy(table, []) is None  # the dora E and three in the rivers: four
    assert fifth_copy(table, ["E"]) == "E"
