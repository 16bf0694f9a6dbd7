"""Score an analysis against a rendered clip's truth: ``python -m tracker.evaluate CLIPDIR ANALYSISDIR``.

Figures (DESIGN.md "How we measure", issue 5): discards right (code, sideways flag, order), melds
right (type, tiles, source seat), dora indicators, tsumogiri flag, win/draw results, spurious
events per 10 kyoku, standing-hand counts at the moments the tracker reported them and at the
truth's stable moments (each second of play, at the clip's pace, of a table where no tile had
moved for a second: the tracker's latest count per seat against the standing tiles there, with
the share of moments it had reported one), event
latency (analysis frame minus truth frame), staged alerts found (code and seat within 2 s).
Seats are aligned through the calibration: the truth's seat 0 sits at the image bottom; the
analysis names its seat-0 edge in ``summary.json``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from tracker.events import apply_retractions, parse_event
from tracker.figures import emit_figures
from tracker.logs import read_mjai
from tracker.table.state import StateError, TableState

EDGES = ("bottom", "right", "top", "left")
GAME = ("dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "dora", "reach", "hora", "ryukyoku")
MELDS = ("chi", "pon", "daiminkan", "kakan", "ankan")
KYOKU_MARKS = ("start_kyoku", "hora", "ryukyoku")


def _by_kyoku(events: list, seat_map) -> dict:
    """Per kyoku index: discards / melds per seat, dora list, results, reaches, with frames."""
    out: dict = defaultdict(
        lambda: {
            "discards": defaultdict(list),
            "melds": defaultdict(list),
            "dora": [],
            "results": [],
            "reach": [],
        }
    )
    k = -1
    state = TableState()
    for e in events:
        if e.type == "start_kyoku":
            k += 1
            out[k]["dora"].append((e.dora_marker, e.frame))
        if k < 0:
            continue
        try:
            state.update(e)
        except StateError:
            pass
        kk = out[k]
        if e.type == "dahai":
            s = seat_map(e.actor)
            if e.slot is not None:
                sideways = e.slot.sideways
            else:  # truth: the layout rules decide (riichi tile, or the next after it was called)
                river = state.seats[e.actor].river
                sideways = river[-1].sideways if river else False
            kk["discards"][s].append(
                {"code": e.pai, "sideways": sideways, "tsumogiri": e.tsumogiri, "frame": e.frame}
            )
        elif e.type in MELDS:
            s = seat_map(e.actor)
            tiles_ = sorted(([e.pai] if e.type not in ("ankan",) else []) + list(e.consumed))
            if e.type == "kakan":
                tiles_ = sorted([e.pai] + list(e.consumed))
            source = seat_map(e.target) if e.type in ("chi", "pon", "daiminkan") else None
            kk["melds"][s].append({"type": e.type, "tiles": tiles_, "source": source, "frame": e.frame})
        elif e.type == "dora":
            kk["dora"].append((e.dora_marker, e.frame))
        elif e.type == "hora":
            kk["results"].append(
                {"type": "hora", "actor": seat_map(e.actor), "target": seat_map(e.target), "frame": e.frame}
            )
        elif e.type == "ryukyoku":
            kk["results"].append({"type": "ryukyoku", "frame": e.frame})
        elif e.type == "reach":
            kk["reach"].append({"actor": seat_map(e.actor), "frame": e.frame})
    return out


def _lay_staged_upright(t_by: dict, staged: list[dict]) -> None:
    """The truth's discards as they lay: a riichi declaration tile a staged fault laid upright
    (``riichi_not_sideways``, staged at its dahai's frame) is upright, though the log's layout
    rules lay it sideways; a camera that reads it upright reads it right."""
    upright = {(a["seat"], a["frame_start"]) for a in staged if a["code"] == "riichi_not_sideways"}
    for kyoku in t_by.values():
        for seat, discards in kyoku["discards"].items():
            for d in discards:
                if (seat, d["frame"]) in upright:
                    d["sideways"] = False


#: how a record breaks the draw-discard order of a seat (``turn_order_defects``)
TURN_DEFECTS = ("double_draws", "discards_without_draw")


def turn_order_defects(events: list) -> dict[str, int]:
    """Where the record (retractions applied) breaks a seat's turn: a draw while it still holds
    a tile to play (drawn or called, no discard since) or a discard with none. A replay viewer
    or an AI reviewer stops on either; each is a draw or discard taken back without its pair."""
    out = dict.fromkeys(TURN_DEFECTS, 0)
    holding = [False] * 4
    for e in events:
        if e.type in KYOKU_MARKS:
            holding = [False] * 4
        elif e.type == "tsumo":
            out["double_draws"] += holding[e.actor]
            holding[e.actor] = True
        elif e.type in ("chi", "pon"):
            holding[e.actor] = True
        elif e.type in ("daiminkan", "kakan", "ankan"):
            holding[e.actor] = False  # (its replacement draw follows)
        elif e.type == "dahai":
            out["discards_without_draw"] += not holding[e.actor]
            holding[e.actor] = False
    return out


#: how a seat's read discards differ from the truth's, aligned by code (``_discard_errors``)
DISCARD_ERRORS = ("misread", "sideways", "missing", "extra")


def _discard_errors(truth: list[dict], read: list[dict], errors: Counter, confusions: Counter) -> None:
    """Add one seat's discard differences, the two sequences aligned by code: a code read as
    another (``confusions["W -> ?"]``), a sideways flag wrong on a tile read right, a discard
    missing, one extra."""
    sm = difflib.SequenceMatcher(a=[d["code"] for d in truth], b=[d["code"] for d in read], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            errors["sideways"] += sum(
                t["sideways"] != r["sideways"] for t, r in zip(truth[i1:i2], read[j1:j2], strict=True)
            )
            continue
        n = min(i2 - i1, j2 - j1)
        errors["misread"] += n
        for t, r in zip(truth[i1 : i1 + n], read[j1 : j1 + n], strict=True):
            confusions[f"{t['code']} -> {r['code']}"] += 1
        errors["missing"] += (i2 - i1) - n
        errors["extra"] += (j2 - j1) - n


def _result_text(result: dict) -> str:
    """'ryukyoku', 'tsumo by 2' or 'ron by 2 on 3' (seats as in the truth)."""
    if result["type"] != "hora":
        return result["type"]
    if result["actor"] == result["target"]:
        return f"tsumo by {result['actor']}"
    return f"ron by {result['actor']} on {result['target']}"


def _result_error(got: dict, want: dict) -> str:
    """What kind of wrong a result is: 'ron read as draw', 'tsumo read as ron', 'ron: other seat'."""
    kind = [_result_text(r).split()[0] for r in (want, got)]
    return f"{kind[0]} read as {kind[1]}" if kind[0] != kind[1] else f"{kind[0]}: other seat"


def _truth_hand_counts(events: list) -> list[tuple[int, list[int]]]:
    """(frame, hand count per seat) after each truth event."""
    state = TableState()
    out = []
    for e in events:
        try:
            state.update(e)
        except StateError:
            continue
        if state.in_kyoku:
            out.append((e.frame, [s.hand_count for s in state.seats]))
    return out


def clip_pace(clip_dir: Path) -> float:
    """A rendered clip's pace (play seconds a video second) from its ``synth.json``; 1 without."""
    from datasets.synth.pipeline import SPEC_NAME

    try:
        return float(json.loads((Path(clip_dir) / SPEC_NAME).read_text())["request"].get("pace") or 1.0)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 1.0


def truth_scenes(clip_dir: Path) -> tuple[list[dict], float] | None:
    """The table at every moment a tile changed (the renderer's own scene steps replayed from
    ``synth.json``) and the clip's pace (play seconds per video second), or None for a clip
    without one."""
    try:
        from datasets.synth.pipeline import replay_renderer

        renderer = replay_renderer(clip_dir)
        pace = clip_pace(clip_dir)
    except Exception:  # noqa: BLE001 - an old or foreign clip: the figure is left out, not guessed
        return None
    return None if renderer is None else (list(renderer.scene_truth()), pace)


def stable_moments(scenes: list[dict], fps: float, end_frame: int, still_s: float = 1.0):
    """Stable moments of the truth: one per ``still_s`` of stillness, from ``still_s`` after a
    change on the table (no tile picked up or put down anywhere) until the next (a tile carried
    from a pick to its place is in the air for a fraction of a second: never a moment). ``fps``
    is video frames per second of play (a clip rendered at pace P plays P seconds a second).

    Returns ``frames`` (M,) int and ``standing`` (M, 4) int: standing tiles per truth seat."""
    frames = np.array([s["frame"] for s in scenes], np.int64)
    standing = np.zeros((len(scenes), 4), np.int64)
    for i, scene in enumerate(scenes):
        for tile in scene["tiles"]:
            if tile["code"] == "standing" and tile.get("seat") is not None:
                standing[i, tile["seat"]] += 1
    if not len(frames):
        return np.zeros(0, np.int64), np.zeros((0, 4), np.int64)
    step = lag = max(1, int(round(still_s * fps)))
    nexts = np.append(frames[1:], end_frame)
    out_f, out_s = [], []
    for i in range(len(frames)):
        for f in range(int(frames[i]) + lag, int(nexts[i]), step):
            out_f.append(f)
            out_s.append(standing[i])
    if not out_f:
        return np.zeros(0, np.int64), np.zeros((0, 4), np.int64)
    return np.array(out_f, np.int64), np.stack(out_s)


def score_stable_counts(
    moment_frames: np.ndarray, standing: np.ndarray, kyoku_starts: list[int], reports: list, seat_map
) -> dict:
    """At each stable moment and seat: the tracker's latest ``hand_count`` of that seat in the
    current kyoku (``reports``: analysis events) against the standing tiles truly there.
    ``moments`` counts seat-moments; ``reported`` those with a report; ``right`` the right ones."""
    by_seat: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for s in range(4):
        mine = [(e.frame, e.count) for e in reports if e.type == "hand_count" and seat_map(e.actor) == s]
        mine.sort()
        by_seat[s] = (np.array([f for f, _ in mine], np.int64), np.array([c for _, c in mine], np.int64))
    starts = np.array(sorted(kyoku_starts), np.int64)
    # the kyoku each moment lies in starts at this frame (reports before it are stale)
    since = starts[np.searchsorted(starts, moment_frames, side="right") - 1] if len(starts) else None
    moments = reported = right = 0
    for s in range(4):
        rf, rc = by_seat[s]
        n = len(moment_frames)
        moments += n
        if not n or not len(rf):
            continue
        i = np.searchsorted(rf, moment_frames, side="right") - 1
        has = i >= 0
        if since is not None:
            has &= np.where(has, rf[np.clip(i, 0, None)] >= since, False)
        reported += int(has.sum())
        right += int((has & (rc[np.clip(i, 0, None)] == standing[:, s])).sum())
    return {
        "moments": moments,
        "reported": reported,
        "right": right,
        "coverage": round(reported / moments, 4) if moments else None,
        "right_of_moments": round(right / moments, 4) if moments else None,
        "right_of_reported": round(right / reported, 4) if reported else None,
    }


def _share(ok: int, total: int) -> dict:
    return {"right": ok, "total": total, "share": round(ok / total, 4) if total else None}


def match_alerts(expected: list[dict], reported: list[dict], fps: float, seat_map) -> list[int | None]:
    """For each expected alert ({code, seat, frame_start, frame_end}, truth seats), the index of the
    reported alert (analysis seats, mapped by ``seat_map``) that finds it, or None: same code and
    seat, its frame within 2 s of the expected span (DESIGN.md), each reported alert used once,
    the earliest first."""
    used: set[int] = set()
    out: list[int | None] = []
    for want in expected:
        hit = None
        for j, al in enumerate(reported):
            if j in used or al.get("code") != want["code"] or al.get("frame") is None:
                continue
            seat = seat_map(al["seat"]) if al.get("seat") is not None else None
            near = want["frame_start"] - 2 * fps <= al["frame"] <= want["frame_end"] + 2 * fps
            if seat == want["seat"] and near and (hit is None or al["frame"] < reported[hit]["frame"]):
                hit = j
        if hit is not None:
            used.add(hit)
        out.append(hit)
    return out


def truth_seat_at(truth: dict, edge: int) -> int:
    """The truth's seat at image edge ``edge``: (edge - the truth's seat-0 edge)."""
    return (edge - EDGES.index(truth.get("calibration", {}).get("seat0_edge", "bottom"))) % 4


def seat_mapper(truth: dict, summary: dict):
    """analysis seat -> truth seat. The analysis seat s sits at edge (s + offset)."""
    edge = summary.get("seat0_edge")
    offset = EDGES.index(edge) if edge in EDGES else 0
    return lambda s: truth_seat_at(truth, s + offset)


def evaluate(clip_dir: Path, analysis_dir: Path) -> dict:
    truth = json.loads((clip_dir / "truth.json").read_text())
    fps = float(truth["fps"])
    t_events = [
        parse_event(item["event"]).model_copy(update={"frame": item["frame"]}) for item in truth["events"]
    ]
    text = (analysis_dir / "events.mjai.jsonl").read_text()
    a_raw = read_mjai(text, str(analysis_dir)) if text.strip() else []
    a_events = apply_retractions(a_raw)
    summary_path = analysis_dir / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    a_map = seat_mapper(truth, summary)
    t_by = _by_kyoku(t_events, lambda s: s)
    _lay_staged_upright(t_by, truth.get("alerts", []))
    a_by = _by_kyoku(a_events, a_map)

    disc_ok = disc_total = tsumo_ok = tsumo_total = aligned = 0
    disc_errors: Counter = Counter()
    confusions: Counter = Counter()
    result_errors: Counter = Counter()
    meld_ok = meld_total = dora_ok = dora_total = res_ok = res_total = 0
    spurious = 0
    latency: list[float] = []
    wrong: list[str] = []
    for k in sorted(set(t_by) | set(a_by)):
        t, a = t_by[k], a_by[k]
        for s in range(4):
            td, ad = t["discards"][s], a["discards"][s]
            # order-tolerant view: discards matched after aligning the two sequences (a missed or
            # extra discard shifts every later index in the strict figure)
            key = lambda d: (d["code"], d["sideways"])  # noqa: E731
            sm = difflib.SequenceMatcher(a=[key(d) for d in td], b=[key(d) for d in ad], autojunk=False)
            aligned += sum(block.size for block in sm.get_matching_blocks())
            _discard_errors(td, ad, disc_errors, confusions)
            for i, want in enumerate(td):
                disc_total += 1
                got = ad[i] if i < len(ad) else None
                if got is None:
                    wrong.append(f"kyoku {k} seat {s} discard {i}: missing (truth {want['code']})")
                    continue
                if got["code"] == want["code"] and got["sideways"] == want["sideways"]:
                    latency.append((got["frame"] - want["frame"]) / fps)  # right events only
                    disc_ok += 1
                    tsumo_total += 1
                    tsumo_ok += got["tsumogiri"] == want["tsumogiri"]
                else:
                    wrong.append(
                        f"kyoku {k} seat {s} discard {i}: {got['code']}{'/side' if got['sideways'] else ''} "
                        f"vs truth {want['code']}{'/side' if want['sideways'] else ''}"
                    )
            spurious += max(0, len(ad) - len(td))
            tm, am = t["melds"][s], a["melds"][s]
            for i, want in enumerate(tm):
                meld_total += 1
                got = am[i] if i < len(am) else None
                if got is None:
                    wrong.append(f"kyoku {k} seat {s} meld {i}: missing ({want['type']})")
                    continue
                same = (got["type"], got["tiles"], got["source"]) == (
                    want["type"],
                    want["tiles"],
                    want["source"],
                )
                meld_ok += same
                if same:
                    latency.append((got["frame"] - want["frame"]) / fps)
                if not same:
                    wrong.append(f"kyoku {k} seat {s} meld {i}: {got} vs truth {want}")
            spurious += max(0, len(am) - len(tm))
        for i, (code, _f) in enumerate(t["dora"]):
            dora_total += 1
            dora_ok += i < len(a["dora"]) and a["dora"][i][0] == code
        spurious += max(0, len(a["dora"]) - len(t["dora"]))
        for i, want in enumerate(t["results"]):
            res_total += 1
            got = a["results"][i] if i < len(a["results"]) else None
            keys = ("type", "actor", "target") if want["type"] == "hora" else ("type",)
            said = {x: want.get(x) for x in keys}
            if got is None:
                wrong.append(f"kyoku {k} result {i}: missing (truth {said})")
                result_errors["missing"] += 1
                continue
            right = all(got.get(x) == want.get(x) for x in keys)
            res_ok += right
            if right:
                latency.append((got["frame"] - want["frame"]) / fps)
            else:
                wrong.append(f"kyoku {k} result {i}: {_result_text(got)} vs truth {_result_text(want)}")
                result_errors[_result_error(got, want)] += 1
        spurious += max(0, len(a["results"]) - len(t["results"]))
        spurious += max(0, len(a["reach"]) - len(t["reach"]))
    kyoku_count = max(1, len(t_by))

    # standing-hand counts the tracker reported, against the record at that frame
    counts = _truth_hand_counts(t_events)
    frames = np.array([f for f, _ in counts]) if counts else np.zeros(0)
    hc_ok = hc_total = 0
    for e in a_events:
        if e.type != "hand_count" or not len(frames):
            continue
        i = int(np.searchsorted(frames, e.frame, side="right")) - 1
        if i < 0:
            continue
        hc_total += 1
        hc_ok += counts[i][1][a_map(e.actor)] == e.count

    # standing-hand counts at the truth's stable moments (the acceptance's wording)
    replay = truth_scenes(clip_dir)
    stable = None
    if replay is not None:
        scenes, pace = replay
        m_frames, m_standing = stable_moments(scenes, fps / pace, int(truth["frames"]))
        starts = [e.frame for e in t_events if e.type == "start_kyoku"]
        # in play only: from a deal to its result (then hands lie open, the table is cleared)
        marks = sorted((e.frame, e.type == "start_kyoku") for e in t_events if e.type in KYOKU_MARKS)
        mark_frames = np.array([f for f, _ in marks], np.int64)
        in_play = np.array([is_start for _, is_start in marks] or [False], bool)
        last = np.searchsorted(mark_frames, m_frames, side="right") - 1
        keep = (last >= 0) & in_play[np.clip(last, 0, None)]
        stable = score_stable_counts(m_frames[keep], m_standing[keep], starts, a_events, a_map)

    # staged alerts vs reported ones: code and seat within 2 s
    alerts_path = analysis_dir / "alerts.jsonl"
    got_alerts = (
        [json.loads(x) for x in alerts_path.read_text().splitlines() if x.strip()]
        if alerts_path.exists()
        else []
    )
    staged = truth.get("alerts", [])
    pairs = match_alerts(staged, got_alerts, fps, a_map)
    found = sum(j is not None for j in pairs)
    lat = np.array(latency) if latency else np.zeros(0)
    return {
        "clip": str(clip_dir),
        "analysis": str(analysis_dir),
        "kyoku": len(t_by),
        "discards": _share(disc_ok, disc_total),
        "discards_aligned": _share(aligned, disc_total),
        "discard_errors": {k: disc_errors[k] for k in DISCARD_ERRORS},
        "discard_confusions": dict(confusions.most_common()),
        "melds": _share(meld_ok, meld_total),
        "dora_indicators": _share(dora_ok, dora_total),
        "tsumogiri_on_right_discards": _share(tsumo_ok, tsumo_total),
        "results": _share(res_ok, res_total),
        "result_errors": dict(sorted(result_errors.items())),
        "spurious_events": spurious,
        "spurious_per_10_kyoku": round(10 * spurious / kyoku_count, 2),
        "turn_order_defects": turn_order_defects(a_events),
        "hand_counts_reported": _share(hc_ok, hc_total),
        # at every stable moment (a second of play on a still table) and seat: the latest count
        # reported right (``right`` of ``total`` moments) and whether there was one (``reported``)
        "hand_counts_stable": None
        if stable is None
        else {**_share(stable["right"], stable["moments"]), **stable},
        "hand_counts_stable_coverage": None
        if stable is None
        else _share(stable["reported"], stable["moments"]),
        "latency_s": {
            "median": round(float(np.median(lat)), 3) if len(lat) else None,
            "p95": round(float(np.percentile(lat, 95)), 3) if len(lat) else None,
        },
        "latencies_s": [round(float(x), 3) for x in lat],
        "alerts": {
            "staged": len(staged),
            "found": found,
            "reported": len(got_alerts),
            "recall": round(found / len(staged), 4) if staged else None,
            "precision": round(found / len(got_alerts), 4) if got_alerts else None,
        },
        "retractions": sum(e.type == "retract" for e in a_raw),
        "speed_fps": summary.get("fps"),
        "wrong": wrong[:40],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tracker.evaluate", description=__doc__.splitlines()[0])
    parser.add_argument("clip_dir", type=Path, help="mjmon synth output (video.mp4, truth.json)")
    parser.add_argument("analysis_dir", type=Path, help="mjmon analyze output")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    for need in (args.clip_dir / "truth.json", args.analysis_dir / "events.mjai.jsonl"):
        if not need.exists():
            print(f"evaluate: missing {need}", file=sys.stderr)
            return 2
    result = evaluate(args.clip_dir, args.analysis_dir)
    return 0 if emit_figures(result, args.json, "evaluate") else 2


if __name__ == "__main__":
    sys.exit(main())
