"""``mjmon convert`` and ``mjmon replay``: game records without video."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.logs import LogError


def _cmd_convert(args: argparse.Namespace) -> int:
    import json

    from tracker.logs import events_to_tenhou6, load_log, write_mjai

    events = load_log(args.log)
    if args.to == "mjai":
        text = write_mjai(events)
    else:
        text = json.dumps(events_to_tenhou6(events), ensure_ascii=False, separators=(",", ":")) + "\n"
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out} ({args.to}, {len(events)} events)")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from tracker.logs import load_log
    from tracker.table.layout import RULES_BY_NAME
    from tracker.table.state import StateError, TableState
    from tracker.table.text import LEGEND, format_state

    events = load_log(args.log)
    state = TableState(RULES_BY_NAME[args.rules])
    kyoku_index = -1
    shown = 0
    for number, event in enumerate(events):
        if event.type == "start_kyoku":
            kyoku_index += 1
        wanted = args.kyoku is None or args.kyoku == kyoku_index
        try:
            state.update(event)
        except StateError as err:
            raise LogError(args.log, f"event {number} ({event.type})", str(err)) from None
        if not wanted:
            continue
        if args.verbose and kyoku_index >= 0 and event.type != "start_game":
            print(f"-- {number}: {_describe(event)}")
            print(format_state(state))
            shown += 1
        elif not args.verbose and event.type in ("hora", "ryukyoku"):
            print(f"== kyoku {kyoku_index}: {_describe(event)}")
            print(format_state(state))
            print()
            shown += 1
    if args.kyoku is not None and shown == 0:
        print(f"mjmon: {args.log}: no kyoku {args.kyoku} (the log has {kyoku_index + 1})", file=sys.stderr)
        return 2
    print(LEGEND)
    return 0


def _describe(event) -> str:
    data = event.to_json()
    data.pop("type")
    keys = ("actor", "target", "pai", "consumed", "dora_marker", "deltas", "reason", "tsumogiri")
    return event.type + " " + " ".join(f"{k}={data[k]}" for k in keys if k in data)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("convert", help="convert a game log between mjai JSONL and tenhou.net/6 JSON")
    p.add_argument("log", help="mjai JSONL or tenhou.net/6 JSON (detected by content)")
    p.add_argument("--to", choices=("mjai", "tenhou6"), required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=_cmd_convert)

    p = sub.add_parser("replay", help="print the table state a game log describes")
    p.add_argument("log")
    p.add_argument("--kyoku", type=int, help="only this kyoku (0-based)")
    p.add_argument("--rules", choices=("mleague", "riichi", "mcr"), default="mleague")
    p.add_argument("-v", "--verbose", action="store_true", help="the table after every event")
    p.set_defaults(func=_cmd_replay)
