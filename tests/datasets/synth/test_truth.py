"""truth.json is exact: its events are the log's, its boxes sit on the tiles in the video."""

import json

import cv2
import numpy as np
import pytest

from datasets.synth.pipeline import SynthRequest, synthesize
from tests.conftest import SAMPLE_LOG
from tracker.logs import load_log


def decode(path, frames: set[int]) -> dict[int, np.ndarray]:
    cap = cv2.VideoCapture(str(path))
    out, index = {}, 0
    while len(out) < len(frames):
        ok, img = cap.read()
        if not ok:
            break
        if index in frames:
            out[index] = img
        index += 1
    cap.release()
    return out


def test_video_has_the_frames_size_and_rate_truth_says(clip):
    truth = clip["truth"]
    cap = cv2.VideoCapture(str(clip["dir"] / "video.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["frames"]
    assert (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))) == (640, 360)
    assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(30.0)


def test_truth_events_are_the_log_events_in_order(clip):
    truth = clip["truth"]
    got = [dict(item["event"]) for item in truth["events"]]
    for g, item in zip(got, truth["events"]):
        assert g.pop("frame") == item["frame"] and g.pop("t") == pytest.approx(
            item["frame"] / truth["fps"], abs=1e-3
        )
    assert got == [e.to_json() for e in clip["events"]]


def test_event_frames_follow_play_order(clip):
    frames = [item["frame"] for item in clip["truth"]["events"]]
    assert frames == sorted(frames)  # no early_draw staged here, so play order is time order
    assert frames[-1] < clip["truth"]["frames"]


def _box_stats(img: np.ndarray, box: list[int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    inner = img[y0 + h // 4 : y1 - h // 4, x0 + w // 4 : x1 - w // 4]
    return inner.reshape(-1, 3).astype(np.float32).mean(0)


def _check_keyframes(truth, frames, shift=(0, 0)) -> tuple[float, float]:
    """Share of face-up tiles brighter than the felt, and of backs closer to the back colour."""
    felt = np.array(truth["style"]["felt"], np.float32)
    back = np.array(truth["style"]["back"], np.float32)
    bright_ok = back_ok = bright_n = back_n = 0
    for kf in truth["keyframes"]:
        if kf["frame"] not in frames:
            continue
        img = frames[kf["frame"]]
        for tile in kf["tiles"]:
            x0, y0, x1, y1 = tile["box"]
            box = [x0 + shift[0], y0 + shift[1], x1 + shift[0], y1 + shift[1]]
            if min(box) < 0 or box[2] > img.shape[1] or box[3] > img.shape[0]:
                continue
            mean = _box_stats(img, box)
            if tile["face_up"]:
                bright_n += 1
                bright_ok += mean.sum() > felt.sum() + 150
            elif tile["code"] == "back":
                back_n += 1
                back_ok += np.linalg.norm(mean - back) < np.linalg.norm(mean - felt)
    return bright_ok / max(bright_n, 1), back_ok / max(back_n, 1)


def test_keyframe_boxes_sit_on_the_tiles_in_the_video(clip):
    truth = clip["truth"]
    chosen = {kf["frame"] for kf in truth["keyframes"][:: max(1, len(truth["keyframes"]) // 8)]}
    frames = decode(clip["dir"] / "video.mp4", chosen)
    assert len(frames) == len(chosen) >= 5
    faces, backs = _check_keyframes(truth, frames)
    assert faces > 0.97 and backs > 0.97
    # the same statistics with every box moved by about two tile widths fail: the check has teeth
    w = np.median([t["box"][2] - t["box"][0] for t in truth["keyframes"][0]["tiles"]])
    faces_off, backs_off = _check_keyframes(truth, frames, shift=(int(2.2 * w), int(2.2 * w)))
    assert faces_off < 0.6


def test_keyframes_list_every_zone_and_plausible_tile_sizes(clip):
    tiles_ = clip["truth"]["keyframes"][len(clip["truth"]["keyframes"]) // 2]["tiles"]
    zones = {t["zone"] for t in tiles_}
    assert {"hand", "wall", "river", "dora"} <= zones
    widths = [
        min(t["box"][2] - t["box"][0], t["box"][3] - t["box"][1]) for t in tiles_ if t["zone"] == "river"
    ]
    assert 6 <= np.median(widths) <= 20  # 640x360 of a 1.1 m table: about 13 px a tile
    hands = [t for t in tiles_ if t["zone"] == "hand"]
    assert all(t["code"] == "standing" and not t["face_up"] and "tile" in t for t in hands)
    seats = {t["seat"] for t in tiles_ if t["zone"] == "hand"}
    assert seats == {0, 1, 2, 3}


def test_staged_faults_are_listed_as_alerts(clip):
    alerts = clip["truth"]["alerts"]
    assert [(a["code"], a["seat"]) for a in alerts] == [
        ("meld_orientation", 0),
        ("river_layout", 1),
        ("tile_count_excess", 3),
    ]
    assert all(0 <= a["frame_start"] <= a["frame_end"] < clip["truth"]["frames"] for a in alerts)


def test_meld_fault_shows_no_sideways_tile(clip):
    truth = clip["truth"]
    start = truth["alerts"][0]["frame_start"]
    kf = next(k for k in truth["keyframes"] if k["frame"] > start)
    melds = [t for t in kf["tiles"] if t["zone"] == "meld" and t["seat"] == 0]
    assert len(melds) == 3
    angles = {round(t["angle"]) % 90 for t in melds}
    # all three lie the same way: no tile turned by 90 degrees relative to the others
    spans = [(t["box"][2] - t["box"][0]) for t in melds]
    assert max(spans) - min(spans) <= 2, (spans, angles)


def test_hand_count_fault_shows_an_extra_standing_tile(clip):
    truth = clip["truth"]
    start = truth["alerts"][2]["frame_start"]
    counts = {}
    for kf in truth["keyframes"]:
        if kf["frame"] <= start:
            continue
        hand = [t for t in kf["tiles"] if t["seat"] == 3 and t["zone"] == "hand"]
        melds = [t for t in kf["tiles"] if t["seat"] == 3 and t["zone"] == "meld"]
        if hand and hand[0]["code"] == "standing":
            counts[kf["frame"]] = len(hand) + len(melds)
    # quiet moments come after a discard: 13 tiles is right, the staged hand shows 14
    assert counts and set(counts.values()) == {14}


def test_same_seed_same_truth(tmp_path, clip):
    events = load_log(SAMPLE_LOG)
    request = SynthRequest(seed=11, camera="tilted", kyoku=(5, 5), size=(640, 360), pace=8)
    from datasets.synth.faults import parse_faults
    from tests.datasets.conftest import CLIP_FAULTS

    truth = synthesize(events, parse_faults(CLIP_FAULTS), request, tmp_path)
    assert json.dumps(truth, sort_keys=True) == json.dumps(clip["truth"], sort_keys=True)
    other = synthesize(events, [], request.model_copy(update={"seed": 12, "kyoku": (5, 5)}), tmp_path / "b")
    assert other["style"] != truth["style"]
