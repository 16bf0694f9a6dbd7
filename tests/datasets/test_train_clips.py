"""The training clips' plan: reproducible, only the art sets given, seeds clear of the evaluation set's."""

from __future__ import annotations

from datasets.train_clips import CAMERAS, plan
from tests.conftest import SAMPLE_LOG


def test_plan_is_reproducible_and_uses_only_the_given_art():
    a = plan(12, ["/art/a", "/art/b"], [str(SAMPLE_LOG)], seed=20000)
    assert a == plan(12, ["/art/a", "/art/b"], [str(SAMPLE_LOG)], seed=20000)
    assert {c["request"]["tileset"] for c in a} <= {"/art/a", "/art/b"}
    assert {c["request"]["camera"] for c in a} <= set(CAMERAS)
    # the evaluation set's seeds start at 1000, one per clip
    assert min(c["request"]["seed"] for c in a) == 20000
    assert len({c["name"] for c in a}) == 12
    for c in a:
        first, last = c["request"]["kyoku"]
        assert first == last >= 0
