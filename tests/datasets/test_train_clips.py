"""The training clips' plan: reproducible, only the art sets given, seeds clear of the evaluation set's."""

from __future__ import annotations

import pytest

from datasets.train_clips import CAMERAS, main, plan
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


def test_bad_arguments_fail_in_one_line_before_anything_is_written(tmp_path, capsys):
    out = tmp_path / "out"
    base = ["--count", "2", "--out", str(out), "--log", str(SAMPLE_LOG)]
    assert main([*base, "--tileset", str(tmp_path / "no-art")]) == 2
    assert "no such tileset directory" in capsys.readouterr().err
    assert main(["--count", "2", "--out", str(out), "--tileset", str(tmp_path), "--log", "/no.json"]) == 2
    err = capsys.readouterr().err.strip()
    assert "/no.json" in err and len(err.splitlines()) == 1
    with pytest.raises(SystemExit):
        main([*base, "--tileset", str(tmp_path), "--worker", "2/2"])
    assert "expected i/n" in capsys.readouterr().err
    assert not out.exists()
