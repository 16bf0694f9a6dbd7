"""Evaluation scripts' output: their figures as JSON on stdout, and in a file when asked."""

from __future__ import annotations

import json
from pathlib import Path


def emit_figures(figures: dict, path: Path | None) -> None:
    """Print ``figures`` as indented JSON; also write them to ``path`` when one is given."""
    text = json.dumps(figures, indent=1)
    print(text)
    if path:
        Path(path).write_text(text + "\n")
