"""What the renderer lays open at the end of a kyoku: a kyuushu kyuuhai shows the hand that
declared it (the camera's only evidence of that draw)."""

from __future__ import annotations

import json

from datasets.synth.pipeline import SynthRequest, prepare
from tracker.logs.mjai import read_mjai

_HANDS = [
    "1m 9m 1p 9p 1s 9s E S W N P F 5m",  # nine kinds of terminals and honours (and more)
    "2m 3m 4m 5m 6m 7m 2p 3p 4p 5p 6p 7p 8p",
    "2s 3s 4s 5s 6s 7s 8s 2m 3m 4m 6p 7p 8p",
    "3m 4m 5m 6m 7m 8m 3p 4p 5p 6s 7s 8s 8m",
]


def _kyuushu_log() -> list:
    lines = [
        {"type": "start_game"},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "dora_marker": "2s",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "scores": [25000] * 4,
            "tehais": [h.split() for h in _HANDS],
        },
        {"type": "tsumo", "actor": 0, "pai": "C"},
        {"type": "ryukyoku", "reason": "九種九牌"},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    return read_mjai("\n".join(json.dumps(x, ensure_ascii=False) for x in lines))


def test_a_kyuushu_kyuuhai_lays_the_declaring_hand_open():
    request = SynthRequest(seed=3, camera="overhead", size=(640, 360), pace=8)
    scenes = list(prepare(_kyuushu_log(), [], request).scene_truth())
    down = ("standing", "back")
    open_tiles = [[t for t in s["tiles"] if t["zone"] == "hand" and t["code"] not in down] for s in scenes]
    shown = [tiles for tiles in open_tiles if tiles]
    assert shown, "the declaring hand was never laid open"
    assert {t["seat"] for t in shown[-1]} == {0} and len(shown[-1]) == 14
    assert sorted(t["code"] for t in shown[-1]) == sorted(_HANDS[0].split() + ["C"])
