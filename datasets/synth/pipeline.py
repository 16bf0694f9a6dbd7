"""From a log and a request to a rendered clip: select kyoku, stage faults, render."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from datasets.synth.faults import FaultError, parse_faults, stage_faults
from datasets.synth.render import ClipRenderer, RenderOptions
from datasets.tileset import load_tileset
from tracker.table.layout import RULES_BY_NAME


class SynthRequest(BaseModel):
    model_config = ConfigDict(frozen=True)

    tileset: str | None = None
    seed: int = 0
    camera: str = "tilted"
    kyoku: tuple[int, int] | None = None
    fps: float = Field(30.0, gt=0, le=120)
    size: tuple[int, int] | None = None
    pace: float = Field(1.0, gt=0, le=50)
    rules: str = "mleague"
    keyframe_every: int = Field(1, ge=1)


def select_kyoku(events: list, first: int, last: int) -> list:
    """start_game, kyoku first..last (0-based, inclusive), end_game."""
    starts = [i for i, e in enumerate(events) if e.type == "start_kyoku"]
    if first >= len(starts):
        raise ValueError(f"the log has {len(starts)} kyoku, no kyoku {first}")
    last = min(last, len(starts) - 1)
    end = (
        starts[last + 1]
        if last + 1 < len(starts)
        else next((i for i, e in enumerate(events) if e.type == "end_game"), len(events))
    )
    head = [e for e in events[: starts[0]] if e.type == "start_game"]
    tail = [e for e in events[end:] if e.type == "end_game"]
    return head + events[starts[first] : end] + tail


def prepare(events: list, faults: list, request: SynthRequest) -> ClipRenderer:
    """Everything that can fail on bad input happens here, before any file is written."""
    rules = RULES_BY_NAME[request.rules]
    if request.kyoku is not None:
        first, last = request.kyoku
        events = select_kyoku(events, first, last)
        moved = []
        for n, f in enumerate(faults):
            if not first <= f.kyoku <= last:
                raise FaultError(
                    f"fault {n} ({f.kind}) is in kyoku {f.kyoku}, outside the rendered {first}-{last}"
                )
            moved.append(f.model_copy(update={"kyoku": f.kyoku - first}))
        faults = moved
    events, staged = stage_faults(events, faults, rules)
    tileset = load_tileset(request.tileset)
    options = RenderOptions(
        camera=request.camera,
        fps=request.fps,
        size=request.size,
        pace=request.pace,
        seed=request.seed,
        rules=rules,
        keyframe_every=request.keyframe_every,
    )
    return ClipRenderer(events, tileset, options, staged)


def synthesize(
    events: list,
    faults: list,
    request: SynthRequest,
    out_dir: str | Path,
    progress: Callable[..., None] | None = None,
) -> dict:
    renderer = prepare(events, faults, request)
    if progress is not None:
        progress(0, renderer.total_frames)
    truth = renderer.render(out_dir, progress)
    write_spec(out_dir, faults, request, events=events)
    return truth


SPEC_NAME = "synth.json"  # beside truth.json: what it takes to replay the clip's scene


def write_spec(
    out_dir: str | Path,
    faults: list,
    request: SynthRequest,
    log: str | Path | None = None,
    events: list | None = None,
) -> None:
    """Record how a clip was made (the log's path, or its events; faults; request), so that its
    scene can be replayed later (``replay_renderer``)."""
    spec: dict = {"faults": [f.model_dump() for f in faults], "request": request.model_dump(mode="json")}
    if log is not None:
        spec["log"] = str(Path(log).resolve())
    else:
        spec["events"] = [e.to_json() for e in events or []]
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    (Path(out_dir) / SPEC_NAME).write_text(json.dumps(spec, separators=(",", ":")) + "\n")


def replay_renderer(clip_dir: str | Path) -> ClipRenderer | None:
    """A renderer rebuilt from a clip's ``synth.json`` (None without one) for ``scene_truth``.
    A relative log path is taken from the repository root (the bundled sample's is). The faces
    are not needed to know where tiles lie, so the bundled tileset stands in for any other."""
    from tracker.events import parse_event
    from tracker.logs import load_log

    path = Path(clip_dir) / SPEC_NAME
    if not path.exists():
        return None
    spec = json.loads(path.read_text())
    if "events" in spec:
        events = [parse_event(e) for e in spec["events"]]
    else:
        log = Path(spec["log"])
        if not log.is_absolute():
            log = Path(__file__).resolve().parents[2] / log
        events = load_log(log)
    request = SynthRequest.model_validate({**spec["request"], "tileset": None})
    return prepare(events, parse_faults(spec["faults"], str(path)), request)
