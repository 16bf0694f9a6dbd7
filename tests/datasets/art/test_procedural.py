"""Procedural art sets: every face the renderer needs, drawn with the right number of elements."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from datasets.art import procedural
from datasets.tileset import FACE_CODES, Tileset

pytest.importorskip("PIL", reason="procedural art needs Pillow (pip install -e '.[train]')")
FONTS = procedural.cjk_fonts()
needs_font = pytest.mark.skipif(not FONTS, reason="no CJK font with 萬東發 installed (fonts-wqy-microhei)")


def _style(**changes) -> procedural.Style:
    style = procedural.random_style(np.random.default_rng(0), FONTS)
    return dataclasses.replace(style, corner_index=False, stroke=0, **changes)


def _blobs(face: np.ndarray, ground: tuple[int, int, int]) -> int:
    """Outermost ink shapes (pixels far from the ground colour; shapes inside a ring not counted)."""
    diff = np.abs(face[..., :3].astype(int) - np.array(ground[::-1])).sum(axis=2)
    contours, _ = cv2.findContours((diff > 120).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return sum(cv2.contourArea(c) > 15 for c in contours)


@needs_font
def test_a_set_is_a_complete_loadable_tileset(tmp_path):
    procedural.make_set(tmp_path / "s", np.random.default_rng(3), FONTS)
    ts = Tileset(tmp_path / "s")
    assert set(ts.faces) == set(FACE_CODES)
    assert all(f.shape == (procedural.H, procedural.W, 4) for f in ts.faces.values())
    # every code looks different from every other (no silent blank faces except at most haku)
    flat = {c: ts.faces[c][..., :3].astype(int) for c in FACE_CODES}
    for a in FACE_CODES:
        for b in FACE_CODES:
            if a < b:
                assert np.abs(flat[a] - flat[b]).mean() > 1.0, (a, b)


@needs_font
@pytest.mark.parametrize("n", range(2, 10))
def test_pins_show_n_dots(n):
    style = _style(pin_style="disc", pin_mono=True)
    face = procedural.FacePainter(style, np.random.default_rng(0)).face(f"{n}p")
    assert _blobs(face, style.ground) == n


@needs_font
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 9])
def test_sou_show_n_sticks(n):
    style = _style(sou_style="bar", sou_mono=True)
    face = procedural.FacePainter(style, np.random.default_rng(0)).face(f"{n}s")
    # a plain bar is cut once across its middle node: two pieces per stick
    assert _blobs(face, style.ground) == 2 * n


@needs_font
@pytest.mark.parametrize("code", ["5m", "5p", "5s"])
def test_red_five_is_red_where_the_five_is_not(code):
    painter = procedural.FacePainter(_style(), np.random.default_rng(0))
    plain, red = painter.face(code)[..., :3].astype(int), painter.face(code + "r")[..., :3].astype(int)
    reddish = lambda img: ((img[..., 2] - img[..., 1]) > 90).sum()  # noqa: E731  (BGR)
    assert reddish(red) > reddish(plain) + 100


def test_symbol_fonts_are_never_used(monkeypatch):
    """The bundled default set is drawn from Noto Sans Symbols 2: it must stay unseen art."""

    class Done:
        stdout = "/f/NotoSansSymbols2-Regular.ttf: x\n/f/ukai.ttc: y\n"

    monkeypatch.setattr(procedural.subprocess, "run", lambda *a, **k: Done())
    assert [f.name for f in procedural.cjk_fonts()] == ["ukai.ttc"]


def test_fonts_are_asked_for_every_character_a_face_draws(monkeypatch):
    """A font missing one (a Japanese font without 萬's simplified 万, say) would draw a blank box."""
    asked = []

    class Done:
        stdout = ""

    monkeypatch.setattr(procedural.subprocess, "run", lambda args, **k: asked.append(args) or Done())
    procedural.cjk_fonts()
    query = asked[0][1]
    wanted = set(procedural.NEEDED) | set("".join(procedural.WINDS.values()))
    assert {f"{ord(c):x}" for c in wanted} <= set(query.removeprefix(":charset=").split())


@needs_font
def test_an_unwritable_folder_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the sets' folder should go")
    assert procedural.main(["--count", "1", "--out", str(blocker / "sets")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("procedural art:") and "\n" not in err
