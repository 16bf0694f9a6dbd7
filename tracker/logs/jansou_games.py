"""M-League hanchan played by jansou's bots (jansou is a test dependency), the same game for the
same seed in every process: each bot's tie-breaking RNG is seeded too (unseeded, jansou draws it
from the OS, and about one process in 40 played a game the checker rightly flags: a furiten ron).

    python -m tracker.logs.jansou_games --seed N --out GAME.mjai.jsonl

writes one as mjai (a game no evaluation set plays, for clips of a venue's tiles: models/recipe_venue.sh).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tracker.logs.jansou_games", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True, help="mjai JSONL file to write")
    args = ap.parse_args(argv)
    try:
        import jansou  # noqa: F401
    except ImportError:
        print("jansou_games: jansou is not installed (pip install -e '.[test]')", file=sys.stderr)
        return 2
    from tracker.logs import tenhou6_to_events, write_mjai

    game, _ = play_mleague(args.seed)
    events = tenhou6_to_events(game)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(write_mjai(events))
    kyoku = sum(e.type == "start_kyoku" for e in events)
    print(f"wrote {args.out}: hanchan {args.seed}, {kyoku} kyoku")
    return 0


if __name__ == "__main__":
    sys.exit(main())
