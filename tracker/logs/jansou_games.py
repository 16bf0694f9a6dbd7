"""M-League hanchan played by jansou's bots (jansou is a test dependency), the same game for the
same seed in every process: each bot's tie-breaking RNG is seeded too (unseeded, jansou draws it
from the OS, and about one process in 40 played a game the checker rightly flags: a furiten ron)."""

from __future__ import annotations

import json


def play_mleague(seed: int):
    """(tenhou.net/6 dict, jansou's Environment after the game) of hanchan ``seed``."""
    from jansou.core.rules import preset
    from jansou.game.agents import SmartEfficiencyAgent
    from jansou.game.environment import Environment
    from jansou.io.from_game import paifu_from_game
    from jansou.io.tenhou_json import dump_tenhou_json

    env = Environment(preset("m-league"), seed=seed)
    env.run([SmartEfficiencyAgent(seed=4 * seed + seat) for seat in range(4)])
    return json.loads(json.dumps(dump_tenhou_json(paifu_from_game(env)))), env
