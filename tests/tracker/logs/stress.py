"""Stress the log round trip on many freshly played jansou hanchan (a script, not a test).

    python -m tests.tracker.logs.stress [N]     (needs the test extra: jansou, riichienv)

For N games (seeds 100..): tenhou.net/6 -> mjai -> tenhou.net/6 identical (jansou's daiminkan
string normalised as in test_tenhou6), TableState.validate() after every event, and riichienv's
engine replays every kyoku except those with an M-League-only late riichi. Prints the counts.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests.tracker.logs.test_mjai import _late_riichi_kyoku
from tests.tracker.logs.test_tenhou6 import _tenhou_daiminkan_position, round_trip
from tracker.logs import read_log_text, write_mjai
from tracker.table.state import TableState


def main(argv: list[str] | None = None) -> int:
    import riichienv

    from tracker.logs.jansou_games import play_mleague

    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 100
    bad = kyoku = replayed = skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.mjai.jsonl"
        for seed in range(100, 100 + games):
            data, _ = play_mleague(seed)
            try:
                if round_trip(data) != _tenhou_daiminkan_position(data):
                    bad += 1
                    print(f"seed {seed}: round trip differs")
                events = read_log_text(json.dumps(data), f"seed {seed}")
                state = TableState()
                for e in events:
                    state.update(e)
                    state.validate()
            except ValueError as err:
                bad += 1
                print(f"seed {seed}: {err}")
                continue
            kyoku += len(data["log"])
            late = _late_riichi_kyoku(events)
            path.write_text(write_mjai(events))
            for i, k in enumerate(riichienv.MjaiReplay.from_jsonl(str(path)).take_kyokus()):
                if i in late:
                    skipped += 1
                    continue
                try:
                    sum(1 for _ in k.steps())
                    replayed += 1
                except ValueError as err:
                    bad += 1
                    print(f"seed {seed} kyoku {i}: riichienv: {str(err)[:200]}")
    print(
        f"games {games}, kyoku {kyoku}, failures {bad}, riichienv replayed {replayed}, "
        f"skipped (late riichi) {skipped}"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
