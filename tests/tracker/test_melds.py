"""Cutting new meld tiles into melds (``tracker.melds``), right to left, oldest first."""

from __future__ import annotations

import numpy as np

from tracker.melds import completed_run, declared_own_tiles, meld_size, ready_melds, seen_before


def test_a_tile_counts_once_seen_at_the_same_place_on_the_read_before():
    prev = np.array([[100.0, 385.0], [126.0, 385.0]])
    got = seen_before(np.array([101.0, 126.0, 160.0]), np.array([386.0, 385.0, 385.0]), prev, 15.0)
    assert got.tolist() == [True, True, False]
    assert seen_before(np.array([1.0]), np.array([1.0]), np.zeros((0, 2)), 15.0).tolist() == [False]


def test_melds_are_cut_by_what_they_are():
    assert meld_size(["9s"] * 4 + ["2m"], [False] * 5) == 4  # daiminkan
    assert meld_size(["2m", "?", "?", "2m"], [False, True, True, False]) == 4  # ankan, middle down
    assert meld_size(["3m", "4m", "5m", "?"], [False, False, False, True]) == 3  # chi, then an ankan
    assert meld_size(["5p", "5pr", "5p", "6p"], [False] * 4) == 3  # pon of fives, then another meld
    codes = ["9s"] * 4 + ["2m", "?", "?", "2m"]
    backs = [False] * 4 + [False, True, True, False]
    assert ready_melds(codes, backs, [True] * 8) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_only_certain_tiles_from_the_right_make_melds_and_a_kan_being_laid_waits():
    codes = ["C", "C", "C", "9s", "9s", "9s"]
    assert ready_melds(codes, [False] * 6, [True, True, True, True, False, False]) == [[0, 1, 2]]
    # three 9s certain, a fourth 9s just put down: a daiminkan still being laid, not a pon
    assert ready_melds(["9s"] * 4, [False] * 4, [True, True, True, False]) == []
    # two certain tiles alone may be a call with a missed tile; beside uncertain ones they wait
    assert ready_melds(["4p", "5p"], [False] * 2, [True, True]) == [[0, 1]]
    assert ready_melds(["4p", "5p", "6p"], [False] * 3, [True, True, False]) == []


def test_the_sideways_tile_is_told_by_the_wider_gaps_beside_it():
    from tracker.melds import sideways_by_spacing

    upright, beside = 26.0, 30.5  # centre to centre: two upright tiles, an upright and a sideways one
    for size in (3, 4):
        for i in range(size):
            gaps = [beside if j in (i - 1, i) else upright for j in range(size - 1)]
            u = np.concatenate([[100.0], 100.0 + np.cumsum(gaps)])
            jitter = np.random.default_rng(i).uniform(-1.0, 1.0, size)  # a detector's centre error
            assert sideways_by_spacing(u + jitter) == [i], (size, i)
    assert sideways_by_spacing(np.array([0.0, 26.0, 52.0])) == []  # none turned
    assert sideways_by_spacing(np.array([0.0, 30.5, 56.5, 87.0])) == []  # no single tile makes this
    assert sideways_by_spacing(np.array([0.0, 30.5])) == []  # two tiles: not enough to tell


def test_the_sideways_tile_is_told_by_its_centre_lying_nearer_its_player():
    from tracker.melds import sideways_by_depth

    # hanchan-jansou-0 6551: a chi's 6s lying sideways at the left, read upright by the detector
    assert sideways_by_depth(np.array([398.0, 393.0, 392.0])) == [0]
    for size in (3, 4):
        for i in range(size):
            v = np.full(size, 393.0)
            v[(i + 1) % size] += 2.0  # the others as far apart as still level
            v[i] = v.max() + 3.05  # and the sideways one just deep enough
            assert sideways_by_depth(v) == [i], (size, i)
            v[i] = v[(i + 1) % size] + 2.95  # not quite deep enough
            assert sideways_by_depth(v) == [], (size, i)
    assert sideways_by_depth(np.array([398.0, 393.0, 395.1])) == []  # the others not level
    assert sideways_by_depth(np.array([393.0, 394.5, 393.5])) == []  # laid upright: level
    assert sideways_by_depth(np.array([393.0, 397.0, 399.5])) == []  # two deep: no single tile
    assert sideways_by_depth(np.array([398.0, 393.0])) == []  # two tiles: not enough to tell


def test_the_wider_gaps_name_the_sideways_tile_only_where_it_also_lies_deepest():
    from tracker.melds import sideways_by_place

    # first reads the detector saw no tile turned in (the second evaluation set)
    assert sideways_by_place(np.array([395.4, 423.9, 452.8]), np.array([387.8, 387.9, 393.9])) == [2]
    assert sideways_by_place(np.array([400.3, 426.5, 456.8]), np.array([396.0, 392.1, 396.6])) == [2]
    # the gaps name the left tile, the middle one lies deepest: no answer rather than a wrong one
    assert sideways_by_place(np.array([392.7, 423.4, 450.4]), np.array([395.5, 399.0, 392.5])) == []
    assert sideways_by_place(np.array([335.4, 355.7, 377.5]), np.array([391.1, 391.6, 392.4])) == []


def test_a_chi_comes_from_the_seat_before_in_turn_only():
    from tracker.melds import chi_from

    # edges go round in turn order: edge 3 plays before edge 0, edge 0 before edge 1
    assert chi_from(0, 3) and chi_from(1, 0) and chi_from(3, 2)
    assert not chi_from(0, 1) and not chi_from(0, 2) and not chi_from(0, 0)


def test_a_chis_unread_tile_is_named_where_one_tile_only_completes_the_run():
    assert completed_run("1m", ["3m", "?"]) == ["3m", "2m"]  # the middle
    assert completed_run("9s", ["?", "8s"]) == ["7s", "8s"]  # 8-9: 7 only
    assert completed_run("2p", ["?", "1p"]) == ["3p", "1p"]
    assert completed_run("5p", ["6p", "?"]) == ["6p", "?"]  # 4p or 7p
    for pai, consumed in (("1m", ["?", "?"]), ("?", ["3m", "?"]), ("?", ["2m", "4m"]), ("5m", ["5p", "?"])):
        assert completed_run(pai, consumed) == consumed  # one tile read, or two of no run
    assert completed_run("E", ["S", "?"]) == ["S", "?"] and completed_run("1m", ["4m", "?"]) == ["4m", "?"]


def test_a_call_that_can_only_be_a_pon_or_a_kan_declares_its_unread_tiles_the_called_kind():
    assert declared_own_tiles("pon", "7m", ["?", "?"], sure_pon=False, chi_possible=False) == ["7m", "7m"]
    assert declared_own_tiles("pon", "5mr", ["?", "?"], sure_pon=False, chi_possible=False) == ["5m", "5m"]
    assert declared_own_tiles("daiminkan", "S", ["?", "?", "?"], sure_pon=False) == ["S", "S", "S"]
    # one read as another kind: a tile unread beside one misread or laid wrong stays unread
    # (review helper-46: "? 7m 8m" filled to 7m 7m 8m was judged a wrong pon on an unread tile)
    assert declared_own_tiles("pon", "7m", ["?", "8m"], sure_pon=False, chi_possible=False) == ["?", "8m"]
    assert declared_own_tiles("daiminkan", "S", ["8m", "?", "?"], sure_pon=False) == ["8m", "?", "?"]
    # from kamicha "7m ? ?" may be a chi too; a called tile unread names nothing
    assert declared_own_tiles("pon", "7m", ["?", "?"], sure_pon=False, chi_possible=True) == ["?", "?"]
    assert declared_own_tiles("pon", "?", ["?", "3m"], sure_pon=False, chi_possible=False) == ["?", "3m"]
    # every own tile read and none alike: misread or laid wrong, the record's tiles are the kind
    # (t6-double_kakan_then_chankan: a pon of 2m from shimocha read 1m 2m 3m); two alike of
    # another kind, or from kamicha (a chi read as a pon), stay as read
    assert declared_own_tiles("pon", "2m", ["1m", "3m"], sure_pon=False, chi_possible=False) == ["2m", "2m"]
    assert declared_own_tiles("pon", "5m", ["5mr", "6m"], sure_pon=False, chi_possible=False) == ["5mr", "5m"]
    assert declared_own_tiles("daiminkan", "S", ["8m", "W", "S"], sure_pon=False) == ["S", "S", "S"]
    assert declared_own_tiles("pon", "7m", ["8m", "8m"], sure_pon=False, chi_possible=False) == ["8m", "8m"]
    assert declared_own_tiles("pon", "2m", ["1m", "3m"], sure_pon=False, chi_possible=True) == ["1m", "3m"]
