"""tracker.read_melds: composing a call from its laid tiles (tile strings, ``?`` unread; the called
tile as an mjai code)."""

from __future__ import annotations

from tracker.read_melds import _fill_triplet, _position_of
from tracker.tiles import parse


def _codes(text: str) -> list[str]:
    """'?' placeholders among tile strings: "?|?|7z" -> ['?', '?', 'C']."""
    return ["?" if part == "?" else parse(part)[0] for part in text.split("|")]


def test_an_honour_call_is_a_pon_of_the_one_kind_read_even_with_the_called_tile_unread():
    assert _fill_triplet(_codes("?|?|3z"), "?") == _codes("3z|3z|3z")
    assert _fill_triplet(_codes("?|3z|?"), "W") == _codes("3z|3z|3z")
    assert _fill_triplet(_codes("?|3z|?|?"), "W") == _codes("3z|3z|3z|3z")  # a daiminkan


def test_number_tiles_are_filled_only_when_read_twice_and_never_against_the_called_kind():
    assert _fill_triplet(_codes("?|6p|6p"), "6p") == _codes("6p|6p|6p")
    assert _fill_triplet(_codes("?|?|6p"), "6p") == _codes("?|?|6p")  # pon or one of three runs
    assert _fill_triplet(_codes("?|5p|6p"), "6p") == _codes("?|5p|6p")  # a run: 4p or 7p
    assert _fill_triplet(_codes("?|3z|3z"), "F") == _codes("?|3z|3z")  # the river says otherwise
    assert _fill_triplet(_codes("?|0p|5p"), "5p") == _codes("5p|0p|5p")  # a red five is not guessed


def test_the_called_tile_lies_where_its_kind_is_seen_preferring_the_sideways_place():
    assert _position_of(_codes("4p|6p|5p"), "6p", side=[0]) == 1  # laid wrong: found where it lies
    assert _position_of(_codes("3z|3z|3z"), "W", side=[2]) == 2
    assert _position_of(_codes("3z|3z|3z"), "W", side=[]) == 0
    assert _position_of(_codes("1z|?|2z"), "W", side=[1]) is None
    assert _position_of(_codes("1z|?|2z"), "?", side=[1]) is None


def test_the_called_tile_is_read_again_only_when_the_river_reading_makes_no_set():
    from collections import Counter

    from tracker.read_melds import _called_again

    assert _called_again(_codes("1m|3m|3m"), 0, Counter()) == "3m"  # a pair: a pon of 3m
    assert _called_again(_codes("1m|3m|3m"), 0, Counter({"1m": 2.0})) == "1m"  # laid wrong (错碰)
    # a kan is four of a kind: its called tile is the kind the others read (hanchan-jansou-3 9724)
    assert _called_again(_codes("S|1s|S|S"), 1, Counter({"1s": 2.0})) == "S"
    assert _called_again(_codes("5m|5mr|5m|?"), 1, Counter()) == "5mr"  # (a red five stays red)
    assert _called_again(_codes("S|1s|C|S"), 1, Counter()) == "1s"  # (the others disagree)
    assert _called_again(_codes("1m|3m|4m"), 0, Counter({"2m": 2.0})) == "2m"  # the meld's own read
    assert _called_again(_codes("1m|3m|4m"), 0, Counter()) == "1m"  # 2m or 5m: not guessed
    assert _called_again(_codes("2m|3m|4m"), 0, Counter({"5m": 9.0})) == "2m"  # a set: the river's
    assert _called_again(_codes("?|3m|3m"), 0, Counter()) == "?"  # (filled by _fill_triplet, not here)


def test_a_tile_out_of_view_holds_only_the_call_whose_row_it_lies_on():
    import numpy as np

    from tests.tracker.test_readings import _meld_row
    from tracker.read_melds import _first_beside

    pon = _meld_row([(356.5, 389.5, "9s", True, 0.9), (274.0, 385.0, "9s", False, 0.9)])
    chi = _meld_row([(243.0, 385.0, "2m", False, 0.9), (217.0, 385.0, "3m", False, 0.9)])
    # two tiles of a kan under an arm, between the two seen: that call waits, and the next with it
    assert _first_beside(np.array([[300.0, 385.0], [326.0, 385.0]]), [pon, chi]) == 0
    # a tile gone beside the second call only
    assert _first_beside(np.array([[191.0, 385.0]]), [pon, chi]) == 1
    # set 7 hanchan-jansou-1 10396: a box gone 21 mm toward the centre is no tile of the row
    assert _first_beside(np.array([[400.0, 365.0]]), [pon, chi]) == 2
    assert _first_beside(np.zeros((0, 2)), [pon, chi]) == 2
