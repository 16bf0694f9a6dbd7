"""Game logs: mjai JSONL and tenhou.net/6 JSON, read and written both ways."""

from __future__ import annotations

import json
from pathlib import Path

from tracker.logs.errors import LogError
from tracker.logs.mjai import read_mjai, write_mjai
from tracker.logs.tenhou6 import events_to_tenhou6, tenhou6_to_events

__all__ = [
    "LogError",
    "detect_format",
    "events_to_tenhou6",
    "load_log",
    "read_log_text",
    "read_mjai",
    "tenhou6_to_events",
    "write_mjai",
]


def detect_format(text: str) -> str:
    """``"tenhou6"`` for a JSON object with a ``log`` array, ``"mjai"`` for event lines."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError:
            return "mjai"  # a JSONL file also starts with "{"; its own reader reports errors
        if isinstance(data, dict) and "log" in data:
            return "tenhou6"
    return "mjai"


def read_log_text(text: str, source: str) -> list:
    """Events from log text in either format (detected by content)."""
    if detect_format(text) == "tenhou6":
        return tenhou6_to_events(json.loads(text), source)
    return read_mjai(text, source)


def load_log(path: str | Path) -> list:
    """Events from a log file in either format; ``LogError`` names the file on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LogError(str(path), "", "no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise LogError(str(path), "", f"cannot read ({err.__class__.__name__})") from None
    return read_log_text(text, str(path))
