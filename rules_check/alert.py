"""Alerts: one irregularity for the referee, and the alerts.jsonl sink."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from pydantic import BaseModel, ConfigDict

from rules_check.ruleset import Penalty


class Evidence(BaseModel):
    """Where to look: a box in the frame (x1, y1, x2, y2 image pixels) and a crop written next to
    alerts.jsonl. Both come from the tracker and the video; a pure event stream has neither."""

    model_config = ConfigDict(frozen=True)

    box: list[float] | None = None
    image: str | None = None


class Alert(BaseModel):
    """DESIGN.md's alert: ``{id, code, seat, rules, penalty, t, frame, message, evidence}``.

    ``rules`` is the ruleset name the penalty was judged under; ``message`` names the rule article.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    code: str
    seat: int | None
    rules: str
    penalty: Penalty
    t: float | None = None
    frame: int | None = None
    message: str
    evidence: Evidence = Evidence()


def write_alerts_jsonl(alerts: Iterable[Alert], out: str | Path | IO[str]) -> int:
    """Write one JSON object a line; ``out`` is a path or an open text file. Returns the count."""
    lines = [json.dumps(a.model_dump(), ensure_ascii=False) + "\n" for a in alerts]
    if isinstance(out, (str, Path)):
        with open(out, "w", encoding="utf-8") as fh:
            fh.writelines(lines)
    else:
        out.writelines(lines)
    return len(lines)


def read_alerts_jsonl(path: str | Path) -> list[Alert]:
    text = Path(path).read_text(encoding="utf-8")
    return [Alert.model_validate_json(line) for line in text.splitlines() if line.strip()]
