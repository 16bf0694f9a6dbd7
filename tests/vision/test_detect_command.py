import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from tests.conftest import REPO
from vision.detector import DEFAULT_MODEL


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tracker.cli", *args], capture_output=True, text=True, cwd=REPO, timeout=120
    )


@pytest.fixture
def image(tmp_path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.random.default_rng(0).integers(0, 255, (200, 260, 3), dtype=np.uint8))
    return path


def _one_line_error(proc: subprocess.CompletedProcess, name: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0
    assert name in proc.stderr


needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason=f"{DEFAULT_MODEL} not built yet")


@needs_model
def test_unreadable_image_is_one_line_error(tmp_path, image):
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not an image")
    _one_line_error(run_cli("detect", str(image), str(junk), "--json", str(tmp_path / "o.json")), "junk.jpg")
    _one_line_error(
        run_cli("detect", str(tmp_path / "gone.png"), "--json", str(tmp_path / "o.json")), "gone.png"
    )


def test_missing_or_corrupt_model_is_one_line_error(tmp_path, image):
    out = str(tmp_path / "o.json")
    _one_line_error(
        run_cli("detect", str(image), "--json", out, "--model", str(tmp_path / "m.onnx")), "m.onnx"
    )
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x00garbage")
    _one_line_error(run_cli("detect", str(image), "--json", out, "--model", str(bad)), "bad.onnx")


@needs_model
def test_writes_records_per_image(tmp_path, image):
    out = tmp_path / "o.json"
    proc = run_cli("detect", str(image), "--tile-px", "30", "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    assert list(doc) == [str(image)]
    for row in doc[str(image)]:
        assert set(row) == {"code", "box", "angle", "face_up", "confidence"}
        assert len(row["box"]) == 4 and row["angle"] in (0, 90, 180, 270)
