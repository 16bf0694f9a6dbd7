"""Two scorings of one evaluation set side by side (``python -m tracker.evaluate_set compare``).

A change is judged by what it moves: the set's figures before and after, and alert by alert which
false alerts it added or removed and which staged faults it found or lost. Both are read from the
``results-KEY.json`` files ``score`` writes, so a comparison needs no analysis run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tracker.evaluate_set import SHARES, _pct

# the figures of issue 5 a change is judged by, per clip group
_TRACKER_FIGURES = ("discards", "melds", "dora_indicators", "tsumogiri_on_right_discards", "results")
_FIGURE_LABEL = dict(SHARES)


class ResultsError(ValueError):
    """A results file that cannot be compared (missing, not JSON, not a scoring)."""


def load_results(path: Path) -> dict:
    try:
        result = json.loads(Path(path).read_text())
    except OSError as err:
        raise ResultsError(f"{path}: cannot read: {err.strerror}") from None
    except json.JSONDecodeError as err:
        raise ResultsError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from None
    if not isinstance(result, dict) or not {"aggregate", "clips"} <= result.keys():
        raise ResultsError(f"{path}: not a results file of tracker.evaluate_set score")
    aggregate = result["aggregate"]
    if not isinstance(aggregate, dict) or "all" not in (aggregate.get("tracker") or {}):
        raise ResultsError(f"{path}: no clip scored (every analysis failed, or none ran)")
    return result


def _scored(result: dict) -> list[dict]:
    """The clips the figures hold: a clip whose analysis failed is listed apart."""
    return [c for c in result["clips"] if not c.get("failed")]


def _share(figure: dict | None) -> str:
    """A figure as ``score``'s tables write it ("right/total = x %"), "-" where no clip gave it."""
    return _pct(figure["right"], figure["total"]) if figure else "-"


def _defects(totals: dict) -> str:
    return " / ".join(str(n) for n in totals.get("turn_order_defects", {}).values()) or "-"


def figure_rows(a: dict, b: dict) -> list[tuple[str, str, str]]:
    """(figure, A, B) rows: issue 5's figures for every clip group both hold, then the alerts."""
    rows = []
    ta, tb = a["aggregate"]["tracker"], b["aggregate"]["tracker"]
    for group in [g for g in ta if g in tb]:
        for key in _TRACKER_FIGURES:
            rows.append(
                (f"{group}: {_FIGURE_LABEL[key]}", _share(ta[group].get(key)), _share(tb[group].get(key)))
            )
    key = "hand_counts_stable"
    rows.append((f"all: {_FIGURE_LABEL[key]}", _share(ta["all"].get(key)), _share(tb["all"].get(key))))
    rows.append(
        (
            "all: spurious events (per 10 kyoku)",
            *(f"{t['all']['spurious_events']} ({t['all']['spurious_per_10_kyoku']})" for t in (ta, tb)),
        )
    )
    rows.append(
        (
            "all: double draws / discards without a draw",
            *(_defects(t["all"]) for t in (ta, tb)),
        )
    )
    aa, ab = a["aggregate"]["alerts"], b["aggregate"]["alerts"]
    rows += [
        ("alerts: staged faults found", *(f"{x['found']}/{x['staged']}" for x in (aa, ab))),
        ("alerts: false", *(str(x["false"]) for x in (aa, ab))),
        ("alerts: precision", *(str(x["precision"]) for x in (aa, ab))),
        ("alerts: false per 10 clean hanchan", *(str(x["false_per_10_clean_hanchan"]) for x in (aa, ab))),
        (
            "alerts: latency median / p95 s",
            *(f"{x['latency_s']['median']} / {x['latency_s']['p95']}" for x in (aa, ab)),
        ),
    ]
    return rows


def false_alerts(result: dict) -> set[tuple]:
    """(clip, code, seat, frame, message) of every false or late alert (both false by the protocol)."""
    return {
        (c["name"], a["code"], a["seat"], a["frame"], a["message"])
        for c in _scored(result)
        for a in c["alerts"]["reported"]
        if a["kind"] in ("false", "late")
    }


def missed_faults(result: dict) -> set[tuple]:
    """(clip, code, seat, n) of every staged fault not found within 2 s (n: its place in the
    clip's staged list, which two scorings of one set share)."""
    return {
        (c["name"], s["code"], s["seat"], n)
        for c in _scored(result)
        for n, s in enumerate(c["alerts"]["staged"])
        if not s["found"]
    }


def _alert_line(alert: tuple) -> str:
    clip, code, seat, frame, message = alert
    return f"{clip} {code} seat {seat} frame {frame}: {message}"


def _fault_line(fault: tuple) -> str:
    clip, code, seat, _ = fault
    return f"{clip} {code} seat {seat}"


def markdown(a: dict, b: dict, name_a: str, name_b: str) -> str:
    lines = [f"| figure | {name_a} | {name_b} |", "|---|---|---|"]
    lines += [f"| {label} | {x} | {y} |" for label, x, y in figure_rows(a, b)]
    only = {c["name"] for c in _scored(a)} ^ {c["name"] for c in _scored(b)}
    if only:
        lines += ["", "Clips scored in one only (their figures differ for that): " + ", ".join(sorted(only))]
    for name, result in ((name_a, a), (name_b, b)):
        failed = sorted(c["name"] for c in result["clips"] if c.get("failed"))
        if failed:
            lines += [
                "",
                f"Analyses failed in {name} (left out of its figures and lists): " + ", ".join(failed),
            ]
    fa, fb = false_alerts(a), false_alerts(b)
    ma, mb = missed_faults(a), missed_faults(b)
    sections = (
        (f"False alerts only in {name_b}", sorted(fb - fa, key=str), _alert_line),
        (f"False alerts only in {name_a}", sorted(fa - fb, key=str), _alert_line),
        (f"Staged faults missed only in {name_b}", sorted(mb - ma, key=str), _fault_line),
        (f"Staged faults missed only in {name_a}", sorted(ma - mb, key=str), _fault_line),
        (f"False alerts in both ({len(fa & fb)})", sorted(fa & fb, key=str), _alert_line),
        (f"Staged faults missed in both ({len(ma & mb)})", sorted(ma & mb, key=str), _fault_line),
    )
    for title, items, line in sections:
        lines += ["", f"{title}:" + ("" if items else " none")]
        lines += [f"- {line(item)}" for item in items]
    return "\n".join(lines) + "\n"


def cmd_compare(args) -> int:
    try:
        a, b = load_results(args.a), load_results(args.b)
    except ResultsError as err:
        print(f"evaluate_set compare: {err}", file=sys.stderr)
        return 2
    print(markdown(a, b, args.a.stem.removeprefix("results-"), args.b.stem.removeprefix("results-")), end="")
    return 0
