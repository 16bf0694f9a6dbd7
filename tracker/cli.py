"""The ``mjmon`` command. The only place that reads arguments; subcommands live in their packages.

Each module in ``COMMAND_MODULES`` has ``register(subparsers)``; a command's heavy imports happen
inside its handler, so ``mjmon --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from tracker.commands import CommandError
from tracker.logs import LogError

COMMAND_MODULES = (
    "tracker.commands.logs",
    "vision.detect_command",
    "vision.enroll_command",
    "datasets.commands",
    "rules_check.commands",
    "tracker.commands.analyze",
    "tracker.live.command",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mjmon", description="Computer-vision monitor for mahjong tables.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (LogError, CommandError) as err:
        print(f"mjmon: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
