"""mjai JSONL: one event per line, as Mortal's libriichi reads and writes it."""

from __future__ import annotations

import json
from collections.abc import Iterable

from tracker.events import VISION_TYPES, parse_event
from tracker.logs.errors import LogError


def read_mjai(text: str, source: str = "<mjai>") -> list:
    """Parse mjai JSONL text into events; blank lines are skipped."""
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            raise LogError(source, f"line {number}", f"not JSON ({err.msg})") from None
        try:
            events.append(parse_event(data))
        except ValueError as err:
            raise LogError(source, f"line {number}", str(err)) from None
    if not events:
        raise LogError(source, "", "no events")
    return events


def write_mjai(events: Iterable, vision: bool = True) -> str:
    """Events as mjai JSONL text (compact, one per line, trailing newline).

    ``vision=False`` leaves out the camera-only event types, for strict mjai readers.
    """
    return "".join(
        json.dumps(e.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"
        for e in events
        if vision or e.type not in VISION_TYPES
    )
