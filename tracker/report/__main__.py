"""``python -m tracker.report SOURCE --out report.html``: SOURCE is an analysis output directory
(events.mjai.jsonl, alerts.jsonl, state.jsonl) or a rendered clip's truth.json."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.report import report_from_outputs, report_from_truth


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tracker.report", description=__doc__)
    parser.add_argument("source", help="an analysis --out directory, or a truth.json")
    parser.add_argument("--out", help="report.html to write (default: beside the source)")
    parser.add_argument("--rules", choices=("mleague", "riichi", "mcr"), default="mleague")
    args = parser.parse_args(argv)
    source = Path(args.source)
    if source.is_dir():
        path = report_from_outputs(source, rules=args.rules, source=str(source))
        if args.out:
            Path(args.out).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
            path = Path(args.out)
    elif source.is_file():
        path = report_from_truth(source, args.out or source.with_name("report.html"), rules=args.rules)
    else:
        print(f"{source}: no such file or directory", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
