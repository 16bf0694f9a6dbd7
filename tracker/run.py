"""Offline analysis of one video: decode, track, write the outputs (``mjmon analyze`` / ``demo``).

Outputs in the out dir: ``events.mjai.jsonl`` (every event with ``t`` / ``frame``, vision events
included), ``state.jsonl`` (the TableState after each event), ``alerts.jsonl`` (each alert boxed
where its seat's table shows it and pictured in ``evidence/<alert id>.jpg``), ``game.tenhou6.json``
only when every tile of the record is known, ``summary.json`` (counts, timing, what is missing).
Everything seen up to a break in the video is written.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tracker.table.state import StateError, TableState

EVIDENCE_DIR = "evidence"  # alerts' pictures, beside alerts.jsonl


@dataclass
class AnalysisResult:
    events: list = field(default_factory=list)
    alerts: list = field(default_factory=list)
    frames: int = 0
    seconds: float = 0.0
    reads: int = 0
    video_error: str | None = None
    state_errors: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    wrote_tenhou6: bool = False
    seat0_edge: str | None = None  # image edge of seat 0 (the first dealer) as the tracker decided
    pictures: dict[str, bytes] = field(default_factory=dict)  # alert id -> evidence JPEG


def analyze_video(video, tracker, progress: bool = True) -> AnalysisResult:
    """Feed every frame of ``video`` (a ``VideoSource``) to ``tracker``; collect what it says."""
    from tqdm import tqdm

    from rules_check.checker import LONGEST_HOLD
    from tracker.evidence import EventFrames

    out = AnalysisResult()
    start = time.perf_counter()
    frames = EventFrames(2 * LONGEST_HOLD)
    bar = tqdm(total=video.info.frames, unit="frame", desc="analyze", file=sys.stderr, disable=not progress)
    image = None
    for frame, t, image in video:
        result = tracker.process(image, frame, t)
        if result.events:
            frames.add(frame, image)
        _collect(out, result, frames, image)
        out.frames += 1
        bar.update(1)
    bar.close()
    _collect(out, tracker.finish(), frames, image)
    out.seconds = time.perf_counter() - start
    out.reads = getattr(tracker, "reads", 0)
    out.video_error = video.error
    out.state_errors = list(getattr(tracker, "state_errors", []))
    edge = getattr(tracker, "seat0_edge", None)
    out.seat0_edge = ("bottom", "right", "top", "left")[edge] if edge is not None else None
    return out


def _collect(out: AnalysisResult, result, frames, image) -> None:
    """Keep a frame's events and alerts, each alert's evidence pictured from its frame."""
    out.events.extend(result.events)
    out.alerts.extend(result.alerts)
    for alert in result.alerts:
        picture = frames.picture(alert, image)
        if picture:
            out.pictures[alert.id] = picture


def write_evidence(result: AnalysisResult, out_dir: Path) -> None:
    """Each alert's picture as ``evidence/<alert id>.jpg`` next to alerts.jsonl, named in its
    ``evidence.image``; pictures of an earlier run in the same directory are removed."""
    folder = out_dir / EVIDENCE_DIR
    for old in folder.glob("*.jpg") if folder.is_dir() else []:
        old.unlink()
    named = []
    for alert in result.alerts:
        picture = result.pictures.get(alert.id)
        if picture:
            folder.mkdir(exist_ok=True)
            (folder / f"{alert.id}.jpg").write_bytes(picture)
            evidence = alert.evidence.model_copy(update={"image": f"{EVIDENCE_DIR}/{alert.id}.jpg"})
            alert = alert.model_copy(update={"evidence": evidence})
        named.append(alert)
    result.alerts = named


def unknown_tiles(events: list) -> list[str]:
    """What keeps the record from being complete: the kinds of tile nobody could see."""
    counts: dict[str, int] = {}
    for e in events:
        if e.type == "start_kyoku":
            n = sum(c == "?" for hand in e.tehais for c in hand)
            if n:
                counts["dealt hand tiles"] = counts.get("dealt hand tiles", 0) + n
        elif e.type in ("tsumo", "dahai") and e.pai == "?":
            counts[f"{e.type} tiles"] = counts.get(f"{e.type} tiles", 0) + 1
        elif e.type in ("chi", "pon", "daiminkan", "kakan", "ankan"):
            n = sum(c == "?" for c in getattr(e, "consumed", [])) + (getattr(e, "pai", "") == "?")
            if n:
                counts["meld tiles"] = counts.get("meld tiles", 0) + n
    return [f"{n} {what}" for what, n in counts.items()]


def write_outputs(result: AnalysisResult, out_dir: Path, rules_name: str, extra: dict) -> None:
    from rules_check.alert import write_alerts_jsonl
    from tracker.events import apply_retractions
    from tracker.logs import events_to_tenhou6, write_mjai
    from tracker.table.layout import RULES_BY_NAME

    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "events.mjai.jsonl").write_text(write_mjai(result.events, vision=True))
    state = TableState(RULES_BY_NAME[rules_name])
    with open(out_dir / "state.jsonl", "w") as f:
        for index, e in enumerate(result.events):
            try:
                state.update(e)
            except StateError as err:
                f.write(json.dumps({"index": index, "frame": e.frame, "error": str(err)}) + "\n")
                continue
            f.write(
                json.dumps(
                    {"index": index, "frame": e.frame, "t": e.t, "type": e.type, "state": state.to_json()}
                )
                + "\n"
            )
    write_evidence(result, out_dir)
    write_alerts_jsonl(result.alerts, out_dir / "alerts.jsonl")
    record = apply_retractions(result.events)  # the game as finally read: corrections applied
    result.missing = unknown_tiles(record)
    tenhou = out_dir / "game.tenhou6.json"
    if not result.missing and record:
        try:
            tenhou.write_text(json.dumps(events_to_tenhou6(record), ensure_ascii=False) + "\n")
            result.wrote_tenhou6 = True
        except Exception as err:  # the converter rejects a record it cannot express
            result.missing.append(f"tenhou.net/6 conversion failed: {err}")
    elif tenhou.exists():
        tenhou.unlink()  # a stale record from an earlier run must not pass for this one
    counts: dict[str, int] = {}
    for e in result.events:
        counts[e.type] = counts.get(e.type, 0) + 1
    summary = {
        "frames": result.frames,
        "seconds": round(result.seconds, 3),
        "fps": round(result.frames / result.seconds, 2) if result.seconds else None,
        "reads": result.reads,
        "seat0_edge": result.seat0_edge,
        "events": counts,
        "alerts": [{"code": a.code, "seat": a.seat, "frame": a.frame} for a in result.alerts],
        "game_tenhou6": result.wrote_tenhou6,
        "missing": result.missing,
        "video_error": result.video_error,
        "state_errors": result.state_errors,
        **extra,
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")


def summary_text(result: AnalysisResult, out_dir: Path) -> str:
    kinds = {}
    for e in result.events:
        kinds[e.type] = kinds.get(e.type, 0) + 1
    fps = result.frames / result.seconds if result.seconds else 0.0
    lines = [
        f"analysed {result.frames} frames in {result.seconds:.1f} s ({fps:.1f} frames/s), "
        f"{result.reads} table readings",
        "events: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) if kinds else "events: none",
        f"alerts: {len(result.alerts)}"
        + (" (" + ", ".join(f"{a.code} seat {a.seat}" for a in result.alerts) + ")" if result.alerts else ""),
    ]
    if result.wrote_tenhou6:
        lines.append("game.tenhou6.json written: every tile of the record is known")
    else:
        lines.append(
            "no game.tenhou6.json: unknown tiles (" + ", ".join(result.missing or ["no events"]) + ")"
        )
    lines.append(f"outputs in {out_dir}")
    return "\n".join(lines)
