"""tracker.run's outputs: the tenhou.net/6 record is the game as finally read."""

from __future__ import annotations

import json

from tests.conftest import SAMPLE_LOG
from tracker import events as ev
from tracker.logs import events_to_tenhou6, load_log
from tracker.run import AnalysisResult, write_outputs


def test_the_tenhou6_record_applies_the_cameras_corrections(tmp_path):
    events = load_log(SAMPLE_LOG)
    events = [e.model_copy(update={"frame": i}) for i, e in enumerate(events)]
    first = next(i for i, e in enumerate(events) if e.type == "dahai")
    read = list(events)
    read[first] = events[first].model_copy(update={"pai": "?"})  # unsure as it landed ...
    fix = ev.Retract(
        target_type="dahai", target_frame=first, actor=events[first].actor, pai=events[first].pai
    )
    read.insert(first + 5, fix)  # ... read on later looks
    result = AnalysisResult(events=read)
    write_outputs(result, tmp_path, "mleague", {})
    assert result.missing == [] and result.wrote_tenhou6
    assert json.loads((tmp_path / "game.tenhou6.json").read_text()) == events_to_tenhou6(events)
    assert sum(1 for _ in open(tmp_path / "events.mjai.jsonl")) == len(read)  # the raw stream, as said
