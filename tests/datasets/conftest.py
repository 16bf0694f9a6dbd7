"""A short rendered clip shared by the renderer tests (rendered once per session)."""

from __future__ import annotations

import json

import pytest

from datasets.synth.faults import parse_faults
from datasets.synth.pipeline import SynthRequest, select_kyoku, synthesize
from tests.conftest import SAMPLE_LOG
from tracker.logs import load_log

CLIP_KYOKU = 5  # seat 0 calls pon and chi, a riichi, a win
CLIP_FAULTS = [
    {"kind": "meld_orientation", "kyoku": CLIP_KYOKU, "seat": 0, "call": 0, "place": "none"},
    {"kind": "river_row", "kyoku": CLIP_KYOKU, "seat": 1, "turn": 6},
    {"kind": "hand_count", "kyoku": CLIP_KYOKU, "seat": 3, "delta": 1, "turn": 3},
]


@pytest.fixture(scope="session")
def sample_events() -> list:
    return load_log(SAMPLE_LOG)


@pytest.fixture(scope="session")
def clip(tmp_path_factory, sample_events) -> dict:
    """640x360 clip of one kyoku at 8x pace with two staged faults: {dir, truth, events}."""
    out = tmp_path_factory.mktemp("clip")
    request = SynthRequest(seed=11, camera="tilted", kyoku=(CLIP_KYOKU, CLIP_KYOKU), size=(640, 360), pace=8)
    truth = synthesize(sample_events, parse_faults(CLIP_FAULTS), request, out)
    assert json.loads((out / "truth.json").read_text()) == truth
    return {"dir": out, "truth": truth, "events": select_kyoku(sample_events, CLIP_KYOKU, CLIP_KYOKU)}
