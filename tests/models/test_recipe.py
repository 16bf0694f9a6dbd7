"""models/recipe.sh, dry: a stand-in python records each step; a step that fails stops the recipe."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

RECIPE = Path(__file__).resolve().parents[2] / "models" / "recipe.sh"
VIDEO_RECIPE = RECIPE.with_name("recipe_video.sh")
FAKE_PYTHON = """#!/bin/sh
echo "$*" >> "$CALLS"
case "$*" in *"$FAIL"*) exit 3;; esac
case "$*" in *" synth "*) shift $(($# - 1)); mkdir -p "$1";; esac  # a clip's folder, as synth makes it
exit 0
"""

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _run(
    tmp_path: Path, fail: str, recipe: Path = RECIPE, *extra: str
) -> tuple[subprocess.CompletedProcess, list[str]]:
    fake = tmp_path / "python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    calls = tmp_path / "calls.txt"
    calls.touch()
    env = os.environ | {"PYTHON": str(fake), "CALLS": str(calls), "FAIL": fail}
    done = subprocess.run(
        ["bash", str(recipe), str(tmp_path / "work"), *extra],
        cwd=RECIPE.parents[1],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, [line.split()[1] for line in calls.read_text().splitlines()]


def test_every_step_runs_in_order(tmp_path):
    done, modules = _run(tmp_path, fail="no step matches this")
    assert done.returncode == 0, done.stderr
    assert modules[:2] == ["datasets.art.procedural"] * 2
    assert modules[2:5] == ["tracker.cli"] * 3
    assert sorted(modules[5:7]) == ["models.train", "models.train_reader"]  # first stage
    assert modules[7] == "models.train"  # the detector's second stage
    assert modules[8:] == ["models.quantize", "models.quantize"]


def test_the_committed_detector_can_start_the_first_stage(tmp_path):
    done, _ = _run(tmp_path, "no step matches this", RECIPE, "models/tiles.onnx")
    assert done.returncode == 0, done.stderr
    trains = [
        c for c in (tmp_path / "calls.txt").read_text().splitlines() if c.startswith("-m models.train ")
    ]
    assert "--init models/tiles.onnx" in trains[0]  # the first stage starts from it
    assert "--init models/tiles.onnx" not in trains[1]  # the second from the first's weights


@pytest.mark.parametrize(
    "fail, not_run",
    [
        ("stills/w2", {"models.train", "models.train_reader", "models.quantize"}),  # a stills worker
        ("models.train_reader", {"models.quantize"}),  # the reader's training
        ("tilenet2", {"models.quantize"}),  # the detector's second stage (in the foreground)
    ],
)
def test_a_failed_background_step_stops_the_recipe(tmp_path, fail, not_run):
    # a bare `wait` returns 0 whatever its jobs did: the recipe must not carry on past a failure
    done, modules = _run(tmp_path, fail)
    assert done.returncode != 0
    assert "failed" in done.stderr.splitlines()[-1]
    assert not not_run & set(modules)


def test_the_video_stage_renders_cuts_trains_and_quantizes_in_order(tmp_path):
    done, modules = _run(tmp_path, fail="no step matches this", recipe=VIDEO_RECIPE)
    assert done.returncode == 0, done.stderr
    assert modules[:2] == ["datasets.train_clips"] * 2  # two workers
    assert modules[2:4] == ["tracker.cli", "datasets.clip_stills"]
    assert sorted(modules[4:6]) == ["models.train", "models.train_reader"]
    assert modules[6:] == ["models.quantize", "models.quantize"]


@pytest.mark.parametrize("fail", ["worker 1/2", "clip-stills --every", "reader3"])
def test_a_failed_step_of_the_video_stage_stops_it(tmp_path, fail):
    done, modules = _run(tmp_path, fail, recipe=VIDEO_RECIPE)
    assert done.returncode != 0
    assert "models.quantize" not in modules


VENUE_RECIPE = RECIPE.with_name("recipe_venue.sh")


def test_the_venue_recipe_plays_renders_cuts_tunes_and_quantizes_in_order(tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    done, modules = _run(tmp_path, "no step matches this", VENUE_RECIPE, str(art))
    assert done.returncode == 0, done.stderr
    assert modules[0] == "tracker.logs.jansou_games"
    assert sorted(modules[1:9]) == ["tracker.cli"] * 8  # six clips, two stills folders
    assert modules[9] == "datasets.clip_stills"
    assert sorted(modules[10:12]) == ["models.train", "models.train_reader"]
    assert modules[12:] == ["models.quantize", "models.quantize"]
    calls = (tmp_path / "calls.txt").read_text().splitlines()
    clips = [c for c in calls if " synth " in c]
    assert len(clips) == 6 and sum("--camera low" in c for c in clips) == 4
    (cut,) = [c for c in calls if c.startswith("-m datasets.clip_stills")]
    assert sorted(Path(a).name for a in cut.split() if "/clips/" in a) == sorted(
        c.split()[-1].split("/")[-1] for c in clips
    )
    stills = [c for c in calls if " stills " in c]
    assert len(stills) == 2 and all("venue.mjai.jsonl" in c for c in stills)  # never an evaluation game
    trains = [c for c in calls if c.startswith("-m models.train")]
    assert all("--init models/" in c for c in trains)  # from the committed files


@pytest.mark.parametrize("fail", ["--camera overhead", "--seed 777", "models.train_reader"])
def test_a_failed_step_of_the_venue_recipe_stops_it(tmp_path, fail):
    art = tmp_path / "art"
    art.mkdir()
    done, modules = _run(tmp_path, fail, VENUE_RECIPE, str(art))
    assert done.returncode != 0
    assert "models.quantize" not in modules


def test_the_venue_recipe_wants_a_tileset_directory(tmp_path):
    done, modules = _run(tmp_path, "no step matches this", VENUE_RECIPE, str(tmp_path / "no-art"))
    assert done.returncode == 2 and "no-art" in done.stderr and modules == []


def test_the_venue_recipe_runs_from_the_repository_root_only(tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    fake = tmp_path / "python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    (tmp_path / "calls.txt").touch()
    env = os.environ | {"PYTHON": str(fake), "CALLS": str(tmp_path / "calls.txt"), "FAIL": "none"}
    done = subprocess.run(
        ["bash", str(VENUE_RECIPE), str(tmp_path / "work"), str(art)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "repository root" in done.stderr
    assert (tmp_path / "calls.txt").read_text() == ""
