"""tracker.evaluate: standing-hand counts at the truth's stable moments; the record's turn order."""

from __future__ import annotations

import numpy as np

from tracker import events as ev
from tracker.evaluate import score_stable_counts, stable_moments, turn_order_defects


def _scene(frame: int, standing: list[int]) -> dict:
    tiles = [{"code": "standing", "seat": s, "zone": "hand"} for s in range(4) for _ in range(standing[s])]
    tiles.append({"code": "1m", "seat": 0, "zone": "river"})
    return {"frame": frame, "tiles": tiles}


def test_a_stable_moment_is_each_second_of_a_table_where_nothing_moved_for_a_second():
    # changes at 0, 10 (a carry: 4 frames), 14, then 100; at 10 frames a second of play
    scenes = [
        _scene(0, [13] * 4),
        _scene(10, [12, 13, 13, 13]),
        _scene(14, [13, 13, 13, 13]),
        _scene(100, [14, 13, 13, 13]),
    ]
    frames, standing = stable_moments(scenes, fps=10.0, end_frame=125)
    assert frames.tolist() == [24, 34, 44, 54, 64, 74, 84, 94, 110, 120]
    assert standing[0].tolist() == [13, 13, 13, 13] and standing[-1].tolist() == [14, 13, 13, 13]


def test_stable_counts_score_the_latest_report_of_the_kyoku_with_coverage_apart():
    frames = np.array([50, 60, 200])
    standing = np.array([[13, 13, 13, 13], [14, 13, 13, 13], [13, 13, 13, 13]])
    reports = [
        ev.HandCount(actor=0, count=13, frame=40),
        ev.HandCount(actor=1, count=13, frame=45),
        ev.HandCount(actor=1, count=12, frame=55),  # wrong from 55 on
        ev.HandCount(actor=2, count=13, frame=10),  # before the second kyoku: stale at 200
    ]
    got = score_stable_counts(frames, standing, [0, 150], reports, lambda s: s)
    # seat 0: 13 at 50 right, 13 at 60 wrong (14 held), none in kyoku 2; seat 1: 13 right, 12 wrong;
    # seat 2: right, right, stale; seat 3: nothing reported
    assert (got["moments"], got["reported"], got["right"]) == (12, 6, 4)
    assert got["coverage"] == 0.5 and got["right_of_reported"] == 0.6667 and got["right_of_moments"] == 0.3333


def test_a_wrong_result_is_named_by_what_it_was_read_as():
    from tracker.evaluate import _result_error

    ron = {"type": "hora", "actor": 1, "target": 3}
    assert _result_error({"type": "ryukyoku"}, ron) == "ron read as ryukyoku"
    assert _result_error({"type": "hora", "actor": 1, "target": 1}, ron) == "ron read as tsumo"
    assert _result_error(ron, {"type": "hora", "actor": 2, "target": 2}) == "tsumo read as ron"
    assert _result_error({"type": "hora", "actor": 0, "target": 3}, ron) == "ron: other seat"


def _discards(tiles: str, sideways: int | None = None) -> list[dict]:
    """A seat's discards from a tile string (``sideways``: the index lying sideways)."""
    from tracker.tiles import parse

    return [{"code": c, "sideways": i == sideways} for i, c in enumerate(parse(tiles))]


def test_discard_errors_align_by_code_and_name_each_misread():
    from collections import Counter

    from tracker.evaluate import _discard_errors

    errors, confusions = Counter(), Counter()
    truth = _discards("1s4m7z2p3p9s", sideways=3)
    # 1s read as S, 7z (C) missed, 2p's sideways flag lost, a stray 5m, 9s read right
    read = _discards("2z4m2p3p5m9s")
    _discard_errors(truth, read, errors, confusions)
    assert dict(errors) == {"misread": 1, "missing": 1, "sideways": 1, "extra": 1}
    assert dict(confusions) == {"1s -> S": 1}


def _play(*steps: str) -> list:
    """Events from steps "T0" (seat 0 draws), "D0 5m" (seat 0 discards 5m), "P1 5m" (seat 1
    pons 5m from seat 0), "K2" (seat 2's ankan, its replacement draw read next), "R" (ryukyoku)."""
    out = []
    for step in steps:
        kind, seat, tile = step[0], int(step[1]) if len(step) > 1 else 0, step[3:] or "?"
        if kind == "T":
            out.append(ev.Tsumo(actor=seat, pai="?"))
        elif kind == "D":
            out.append(ev.Dahai(actor=seat, pai=tile, tsumogiri=False))
        elif kind == "P":
            out.append(ev.Pon(actor=seat, target=(seat + 3) % 4, pai=tile, consumed=[tile, tile]))
        elif kind == "K":
            out.append(ev.Ankan(actor=seat, consumed=["?"] * 4))
        else:
            out.append(ev.Ryukyoku())
    return out


def test_turn_order_defects_count_a_draw_over_a_held_tile_and_a_discard_without_one():
    good = _play("T0", "D0 5m", "P1 5m", "D1 9s", "T2", "K2", "T2", "D2 E", "T3", "R", "T0", "D0 1p")
    assert turn_order_defects(good) == {"double_draws": 0, "discards_without_draw": 0}
    # seat 0's discard taken back and not its draw; seat 1 draws after its own pon; seat 2
    # discards twice (its second tile's draw taken back)
    bad = _play("T0", "T1", "D1 2m", "T0", "D0 5m", "P1 5m", "T1", "D1 3s", "T2", "D2 E", "D2 W")
    assert turn_order_defects(bad) == {"double_draws": 2, "discards_without_draw": 1}


def test_a_declaration_tile_a_staged_fault_laid_upright_is_upright_in_the_truth():
    from tests.rules_check.kit import start
    from tracker.evaluate import _by_kyoku, _lay_staged_upright

    record = start() + [
        ev.Tsumo(actor=0, pai="N"),
        ev.Reach(actor=0),
        ev.Dahai(actor=0, pai="N", tsumogiri=True),
    ]
    record += [ev.ReachAccepted(actor=0), ev.Tsumo(actor=1, pai="P"), ev.Reach(actor=1)]
    record += [ev.Dahai(actor=1, pai="P", tsumogiri=True)]
    record = [e.model_copy(update={"frame": 10 * i}) for i, e in enumerate(record)]
    frames = {e.actor: e.frame for e in record if e.type == "dahai"}
    by = _by_kyoku(record, lambda s: s)
    assert [by[0]["discards"][s][0]["sideways"] for s in (0, 1)] == [True, True]  # the log's layout
    staged = [
        {"code": "riichi_not_sideways", "seat": 1, "frame_start": frames[1], "frame_end": frames[1] + 30},
        {"code": "riichi_not_sideways", "seat": 0, "frame_start": frames[1], "frame_end": frames[1] + 30},
        {"code": "river_layout", "seat": 0, "frame_start": frames[0], "frame_end": frames[0] + 30},
    ]
    _lay_staged_upright(by, staged)
    assert [by[0]["discards"][s][0]["sideways"] for s in (0, 1)] == [True, False]


def test_figures_that_cannot_be_written_are_one_line_and_exit_2(tmp_path, capsys):
    import json
    from pathlib import Path

    from tracker.evaluate import main

    clip = Path(__file__).resolve().parents[2] / "tracker" / "samples" / "demo-kyoku"
    (tmp_path / "events.mjai.jsonl").write_text("")  # an analysis that read nothing
    assert main([str(clip), str(tmp_path), "--json", str(tmp_path / "out.json")]) == 0
    assert json.loads((tmp_path / "out.json").read_text())["discards"]["right"] == 0
    capsys.readouterr()
    target = tmp_path / "gone" / "out.json"
    assert main([str(clip), str(tmp_path), "--json", str(target)]) == 2
    printed = capsys.readouterr()
    assert json.loads(printed.out)["discards"]["right"] == 0  # printed before the write failed
    assert printed.err == f"evaluate: cannot write {target}: No such file or directory\n"
