"""The analysis report: one self-contained ``report.html`` (inline SVG, base64 images, no scripts
or files it needs beside it). ``write_report`` takes events, alerts, state snapshots and evidence
crops; ``report_from_outputs`` reads an analysis ``--out`` directory; ``python -m tracker.report``
runs either on a directory or on a rendered clip's ``truth.json``."""

from tracker.report.html import (
    ReportInput,
    render_report,
    report_from_outputs,
    report_from_truth,
    write_report,
)

__all__ = ["ReportInput", "render_report", "report_from_outputs", "report_from_truth", "write_report"]
