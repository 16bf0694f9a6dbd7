"""``mjmon demo`` with the committed models, scored against the sample clip's truth: the one test
that runs detector, reader, tracker and rules checker together on video. (Every other tracker test
reads truth or hand-made detections, so a detector that went blind on some CPU passed them all.)"""

from __future__ import annotations

import json

import pytest

from tracker.cli import main
from tracker.commands.analyze import SAMPLE_CLIP
from tracker.evaluate import evaluate
from tracker.evaluate_set import score_clip_alerts
from tracker.events import parse_event
from vision.detector import DEFAULT_MODEL

pytestmark = pytest.mark.skipif(
    not (DEFAULT_MODEL.is_file() and SAMPLE_CLIP.is_file()), reason="the committed model and sample clip"
)


def test_the_demo_reads_the_sample_kyoku_and_finds_its_staged_faults(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out)]) == 0
    figures = evaluate(SAMPLE_CLIP.parent, out)
    # measured 38/38 discards, 3/3 melds, the result right (2026-11-30, AVX2-only CPU, U8U8 models);
    # the int8-weight models on that CPU read 5/38 and 1/3
    assert figures["discards"]["right"] >= 34
    assert figures["melds"]["right"] >= 2
    assert figures["results"]["right"] == 1
    truth = json.loads((SAMPLE_CLIP.parent / "truth.json").read_text())
    summary = json.loads((out / "summary.json").read_text())
    text = (out / "events.mjai.jsonl").read_text()
    events = [parse_event(json.loads(line)) for line in text.splitlines() if line.strip()]
    scored = score_clip_alerts(truth, summary, events)
    assert [s["code"] for s in scored["staged"] if s["found"]] == ["meld_orientation", "early_draw"]
    assert [a for a in scored["reported"] if a["kind"] == "false"] == []
    # each alert boxed where the seat's tiles of its rule lie, pictured beside alerts.jsonl
    alerts = [json.loads(line) for line in (out / "alerts.jsonl").read_text().splitlines()]
    zone = {"meld_orientation": "meld", "early_draw": "hand"}
    for a in alerts:
        x1, y1, x2, y2 = a["evidence"]["box"]
        late = [k for k in truth["keyframes"] if k["frame"] >= a["frame"]][0]
        tiles = [t["box"] for t in late["tiles"] if t["seat"] == a["seat"] and t["zone"] == zone[a["code"]]]
        assert tiles and all(x1 <= (t[0] + t[2]) / 2 <= x2 and y1 <= (t[1] + t[3]) / 2 <= y2 for t in tiles)
        assert (out / a["evidence"]["image"]).read_bytes()[:2] == b"\xff\xd8"  # a JPEG
