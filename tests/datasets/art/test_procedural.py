"""Procedural art sets: every face the renderer needs, drawn with the right number of elements."""

from __future__ import annotations

import dataclasses
from pathlib import Path

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
    plain = dict(
        corner_index=False, stroke=0, line=0, honour_size=1.0, honour_hollow=False, bonus_layout="centre"
    )
    return dataclasses.replace(style, **(plain | changes))


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


# --- the variety unseen art asked for: built 1s birds, monoline weights, small and hollow honours ---


def _ink_mass(face: np.ndarray, ground: tuple[int, int, int]) -> float:
    """How much ink a face carries: summed distance from the ground colour, in fully inked pixels
    (counts a faint hairline's anti-aliased pixels in proportion, where a threshold would drop them)."""
    return float(np.abs(face[..., :3].astype(int) - np.array(ground[::-1])).sum() / (3 * 255))


def _ink_box(face: np.ndarray, ground: tuple[int, int, int]) -> tuple[int, int, int, int]:
    diff = np.abs(face[..., :3].astype(int) - np.array(ground[::-1])).sum(axis=2)
    ys, xs = np.nonzero(diff > 60)
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _built(kind: str, **changes) -> procedural.Bird:
    """One build of each kind, in a fixed pose and place, so that only the silhouette differs."""
    bird = procedural.random_bird(np.random.default_rng(0), kind)
    fixed = dict(tail=procedural.BIRD_KINDS[kind]["tail"], tilt=-15.0, render="filled", scale=1.0,
                 at=(0.5, 0.52), perch=False, crest=False)  # fmt: skip
    return dataclasses.replace(bird, **(fixed | changes))


def _bird_face(bird: procedural.Bird | None, kind: str = "built") -> tuple[np.ndarray, procedural.Style]:
    style = _style(bird=kind, bird_flip=False, bird_build=bird)
    return procedural.FacePainter(style, np.random.default_rng(0)).face("1s"), style


def _ink_mask(face: np.ndarray, style: procedural.Style) -> np.ndarray:
    return np.abs(face[..., :3].astype(int) - np.array(style.ground[::-1])).sum(axis=2) > 120


@needs_font
def test_built_birds_of_each_kind_draw_different_silhouettes():
    """Sparrow, crane, peacock, long tail, dove: each a shape of its own and none the old perched bird."""
    masks = {k: _ink_mask(*_bird_face(_built(k))) for k in procedural.BIRD_KINDS}
    masks["old perched bird"] = _ink_mask(*_bird_face(None, kind="bird"))
    for k, m in masks.items():
        assert m.sum() > 400, k  # a real emblem, not a speck
    names = sorted(masks)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            overlap = (masks[a] & masks[b]).sum() / (masks[a] | masks[b]).sum()
            assert overlap < 0.7, (a, b, round(float(overlap), 2))  # sparrow and dove: closest, 0.61


@needs_font
def test_a_crane_stands_taller_than_a_sparrow():
    def height(kind):
        face, style = _bird_face(_built(kind))
        x0, y0, x1, y1 = _ink_box(face, style.ground)
        return y1 - y0

    assert height("crane") > 1.3 * height("sparrow")


@needs_font
@pytest.mark.parametrize("render", ["filled", "outline", "strokes", "blobs"])
def test_every_bird_rendering_inks_the_face(render):
    face, style = _bird_face(_built("sparrow", render=render))
    assert _ink_mass(face, style.ground) > 150


@needs_font
def test_blob_birds_use_more_than_one_ink_and_line_birds_less_ink_than_filled():
    plain, style = _bird_face(_built("dove", render="filled"))
    blobs, _ = _bird_face(_built("dove", render="blobs"))
    line, _ = _bird_face(_built("dove", render="outline", line=2))
    inked = _ink_mask(blobs, style)
    colours = {tuple(int(v) // 40 for v in px) for px in blobs[..., :3][inked]}
    assert len(colours) > len(
        {tuple(int(v) // 40 for v in px) for px in plain[..., :3][_ink_mask(plain, style)]}
    )
    assert _ink_mass(line, style.ground) < 0.5 * _ink_mass(plain, style.ground)


@needs_font
def test_a_small_bird_leaves_a_large_field():
    big, style = _bird_face(_built("dove"))
    small, _ = _bird_face(_built("dove", scale=0.5, at=(0.35, 0.6)))
    bx0, by0, bx1, by1 = _ink_box(big, style.ground)
    sx0, sy0, sx1, sy1 = _ink_box(small, style.ground)
    assert (sx1 - sx0) * (sy1 - sy0) < 0.4 * (bx1 - bx0) * (by1 - by0)
    assert _ink_mass(small, style.ground) < 0.4 * _ink_mass(big, style.ground)


def test_thinning_leaves_a_one_pixel_line():
    bar = np.zeros((60, 120), np.uint8)
    bar[20:36, 10:110] = 255  # a 16 px thick stroke
    bone = procedural.thin(bar) > 0
    per_column = bone[:, 30:90].sum(axis=0)
    assert per_column.min() >= 1 and per_column.max() <= 2  # unbroken, and a hairline
    assert not bone[:20].any() and not bone[36:].any()  # inside the stroke


@needs_font
@pytest.mark.parametrize("code", ["E", "S", "W", "N", "C", "1m"])
def test_monoline_weights_thin_the_characters_without_losing_them(code):
    def mass(line):
        style = _style(line=line, bird="stick")
        return _ink_mass(procedural.FacePainter(style, np.random.default_rng(0)).face(code), style.ground)

    regular, thin, hairline = mass(0), mass(7), mass(3)
    assert hairline < thin < regular
    assert hairline > 0.1 * regular  # every stroke still drawn, only finer


@needs_font
def test_monoline_winds_stay_apart():
    """Hairline winds differ from each other as much as a regular font's do (the thinning keeps
    each stroke: no wind collapses into another's skeleton)."""
    style = _style(line=3)
    painter = procedural.FacePainter(style, np.random.default_rng(0))
    faces = {c: _ink_mask(painter.face(c), style) for c in procedural.WINDS}
    for a in faces:
        for b in faces:
            if a < b:
                assert (faces[a] ^ faces[b]).sum() > 0.5 * min(faces[a].sum(), faces[b].sum()), (a, b)


@needs_font
@pytest.mark.parametrize("code", ["E", "N", "F", "C"])
def test_smaller_honours_leave_a_wider_margin(code):
    def box(size):
        style = _style(honour_size=size)
        return _ink_box(procedural.FacePainter(style, np.random.default_rng(0)).face(code), style.ground)

    fx0, fy0, fx1, fy1 = box(1.0)
    sx0, sy0, sx1, sy1 = box(0.62)
    assert (sx1 - sx0) < 0.75 * (fx1 - fx0) and (sy1 - sy0) < 0.75 * (fy1 - fy0)
    # still centred on the face
    assert abs((sx0 + sx1) / 2 - procedural.W / 2) < 6 and abs((sy0 + sy1) / 2 - procedural.H / 2) < 8


@needs_font
@pytest.mark.parametrize("code", ["E", "W", "C"])
def test_hollow_honours_are_outlines_of_the_same_character(code):
    def draw(hollow):
        style = _style(honour_hollow=hollow)
        return procedural.FacePainter(style, np.random.default_rng(0)).face(code), style

    solid, style = draw(False)
    hollow, _ = draw(True)
    assert _ink_mass(hollow, style.ground) < 0.9 * _ink_mass(solid, style.ground)
    # ground shows through where the solid character's strokes are thickest
    core = cv2.erode(_ink_mask(solid, style).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    assert core.sum() > 50 and _ink_mask(hollow, style)[core].mean() < 0.7
    sx0, sy0, sx1, sy1 = _ink_box(solid, style.ground)
    hx0, hy0, hx1, hy1 = _ink_box(hollow, style.ground)
    assert abs((hx1 - hx0) - (sx1 - sx0)) <= 4 and abs((hy1 - hy0) - (sy1 - sy0)) <= 4


@needs_font
def test_sprig_flowers_name_themselves_in_the_corner():
    style = _style(bonus_layout="sprig")
    painter = procedural.FacePainter(style, np.random.default_rng(0))
    faces = {c: painter.face(c) for c in procedural.BONUS_CHARS}
    for code, face in faces.items():
        corner = _ink_mask(face[: procedural.H // 4, : procedural.W // 3], style)
        assert corner.sum() > 20, code  # the character, small, top left
        assert _ink_mask(face[procedural.H // 3 :], style).sum() > 200, code  # the sprig below it
    # the corner characters tell the eight apart
    corners = {c: f[: procedural.H // 4, : procedural.W // 3, :3].astype(int) for c, f in faces.items()}
    names = sorted(corners)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert np.abs(corners[a] - corners[b]).mean() > 3, (a, b)


@needs_font
@pytest.mark.parametrize("seed", [1, 2])
def test_a_set_with_every_new_option_is_complete_and_unambiguous(tmp_path, seed):
    style = dataclasses.replace(
        procedural.random_style(np.random.default_rng(seed), FONTS),
        bird="built", line=3, honour_size=0.62, honour_hollow=True, bonus_layout="sprig",
    )  # fmt: skip
    painter = procedural.FacePainter(style, np.random.default_rng(seed))
    out = tmp_path / "s"
    out.mkdir()
    for code in FACE_CODES:
        assert cv2.imwrite(str(out / f"{code}.png"), painter.face(code))
    ts = Tileset(out)
    assert set(ts.faces) == set(FACE_CODES)
    flat = {c: ts.faces[c][..., :3].astype(int) for c in FACE_CODES}
    for a in FACE_CODES:
        for b in FACE_CODES:
            if a < b:
                assert np.abs(flat[a] - flat[b]).mean() > 0.5, (a, b)


def test_variety_1_draws_the_committed_models_styles_from_the_same_stream():
    # models/recipe.sh makes its art with --variety 1: the styles (and the random stream after
    # them) must stay what they were before the built birds and thin honours were added
    fonts = [Path("a.ttf"), Path("b.ttf"), Path("c.ttf")]  # (never opened: only picked)
    rng = np.random.default_rng(1)
    got = []
    for _ in range(3):
        st = procedural.random_style(rng, fonts, variety=1)
        got.append((st.font.name, st.bird, st.pin_style, st.stroke, round(st.squash, 6)))
        assert (st.bird_build, st.line, st.honour_size, st.honour_hollow, st.bonus_layout) == (
            None, 0, 1.0, False, "centre",
        )  # fmt: skip
    assert got == [
        ("a.ttf", "char", "hatched", -1, 0.903617),
        ("b.ttf", "bird", "disc", -2, 1.160673),
        ("b.ttf", "fan", "disc", -2, 1.123315),
    ]
    assert round(float(rng.random()), 12) == 0.787096941555
