"""``mjmon check LOG``: run the rules checker over a game record; alerts and hand values."""

from __future__ import annotations

import argparse


def _cmd_check(args: argparse.Namespace) -> int:
    from rules_check.alert import write_alerts_jsonl
    from rules_check.checker import RulesChecker
    from rules_check.ruleset import ruleset_by_name
    from tracker.logs import load_log

    events = load_log(args.log)
    checker = RulesChecker(ruleset_by_name(args.rules))
    kyoku = -1
    for event in events:
        if event.type == "start_kyoku":
            kyoku += 1
        _print_alerts(checker.feed(event), kyoku)
        if event.type == "hora" and checker.values and args.values:
            v = checker.values[-1]
            how = "tsumo" if v.tsumo else f"ron from seat {v.target}"
            size = f"{v.fan} fan" if v.fan is not None else f"{v.han} han {v.fu} fu"
            names = ", ".join(f"{y.name} {y.value}" for y in v.yaku)
            print(f"kyoku {kyoku} seat {v.seat} wins ({how}): {size}, {v.points} points, deltas {v.deltas}")
            print(f"    {names}")
    _print_alerts(checker.release(), kyoku)  # (a camera's face readings wait to settle)
    if args.alerts:
        write_alerts_jsonl(checker.alerts, args.alerts)
    print(f"{len(checker.alerts)} alerts under {args.rules} rules, {len(checker.values)} wins valued")
    for problem in checker.state_errors:
        print(f"note: the record does not fold: {problem}")
    return 0


def _print_alerts(alerts: list, kyoku: int) -> None:
    for alert in alerts:
        seat = "-" if alert.seat is None else alert.seat
        print(f"kyoku {kyoku} seat {seat} {alert.code} [{alert.penalty}]: {alert.message}")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("check", help="check a game record against a ruleset (alerts, hand values)")
    p.add_argument("log", help="mjai JSONL or tenhou.net/6 JSON")
    p.add_argument("--rules", choices=("mleague", "riichi", "mcr"), default="mleague")
    p.add_argument("--alerts", help="write alerts.jsonl here")
    p.add_argument("--values", action="store_true", help="print the value of every win")
    p.set_defaults(func=_cmd_check)
