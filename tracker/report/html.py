"""``report.html``: the game record per kyoku, a timeline of events and alerts (inline SVG), the
alerts with their evidence thumbnails, per-seat turn times and the value of every win.

Everything is inlined (styles, SVG, base64 images: tile faces from the bundled default art and the
evidence crops), so the file can be mailed or archived alone.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from rules_check.alert import Alert
from rules_check.value import HandValue
from tracker import tiles
from tracker.report import stats

SEAT_COLOURS = ("#3b82f6", "#22c55e", "#f59e0b", "#a855f7")
CALLS = ("chi", "pon", "daiminkan", "kakan", "ankan")


@dataclass
class ReportInput:
    """What a report is made of. ``crops`` maps an alert id to JPEG/PNG bytes or a file path;
    ``values`` are the wins' hand values (computed from the events when None)."""

    events: list
    alerts: list[Alert] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    crops: Mapping[str, bytes | str | Path] = field(default_factory=dict)
    values: list[HandValue] | None = None
    title: str = "mjmon analysis"
    source: str = ""
    rules: str = "mleague"


def write_report(out: str | Path, data: ReportInput) -> Path:
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_report(data), encoding="utf-8")
    return out


def render_report(data: ReportInput) -> str:
    values = data.values if data.values is not None else _values(data.events, data.rules)
    kyoku = stats.split_kyoku(data.events)
    faces = _Faces()
    body = [
        _header(data, kyoku),
        _timeline(data.events, data.alerts, kyoku),
        _alerts(data.alerts, data.crops),
        _turn_times(data.events),
        _wins(values, kyoku),
        _record(kyoku, faces),
    ]
    return _PAGE.format(
        title=html.escape(data.title),
        style=resources.files("tracker.report").joinpath("report.css").read_text(encoding="utf-8")
        + faces.css(),
        body="\n".join(body),
    )


# --- inputs from files ----------------------------------------------------------------------


def report_from_outputs(out_dir: str | Path, rules: str = "mleague", source: str = "") -> Path:
    """Write ``out_dir/report.html`` from the analysis outputs beside it: ``events.mjai.jsonl``,
    ``alerts.jsonl`` (evidence ``image`` paths relative to ``out_dir``) and ``state.jsonl``.
    ``source`` is the analysed video: alerts without a crop get one cut from it at their frame."""
    from rules_check.alert import read_alerts_jsonl
    from tracker.logs import read_mjai

    out_dir = Path(out_dir)
    events = read_mjai((out_dir / "events.mjai.jsonl").read_text(encoding="utf-8"))
    alerts_path = out_dir / "alerts.jsonl"
    alerts = read_alerts_jsonl(alerts_path) if alerts_path.exists() else []
    states_path = out_dir / "state.jsonl"
    states = (
        [json.loads(line) for line in states_path.read_text(encoding="utf-8").splitlines() if line.strip()]
        if states_path.exists()
        else []
    )
    crops: dict[str, bytes | Path] = {a.id: out_dir / a.evidence.image for a in alerts if a.evidence.image}
    video = Path(source) if source else None
    missing = [a for a in alerts if a.id not in crops]
    if missing and video is not None and video.is_file():  # no crop written: cut one from the video
        crops.update(_crops_from_video(video, missing))
    data = ReportInput(events, alerts, states, crops, title="mjmon analysis", source=source, rules=rules)
    return write_report(out_dir / "report.html", data)


def report_from_truth(truth_path: str | Path, out: str | Path, rules: str = "mleague") -> Path:
    """A report of a rendered clip's truth as an ideal camera reports it (the live replay's
    events and alerts), with each alert's evidence cut from the clip's video when it is there."""
    from rules_check.ruleset import ruleset_by_name
    from tracker.live.replay import TruthReplayAnalyzer

    truth_path = Path(truth_path)
    analyzer = TruthReplayAnalyzer.from_file(truth_path, ruleset_by_name(rules))
    result = analyzer.finish()
    video = truth_path.parent / "video.mp4"
    crops = _crops_from_video(video, result.alerts) if video.exists() else {}
    data = ReportInput(
        events=list(result.events),
        alerts=list(result.alerts),
        crops=crops,
        values=list(analyzer.values),
        title=f"mjmon analysis — {truth_path.parent.name}",
        source=str(truth_path),
        rules=rules,
    )
    return write_report(out, data)


def _crops_from_video(video: Path, alerts: list[Alert]) -> dict[str, bytes]:
    import cv2

    from tracker.evidence import evidence_jpeg

    wanted = {a.frame: a for a in alerts if a.frame is not None}
    crops: dict[str, bytes] = {}
    cap = cv2.VideoCapture(str(video))
    try:
        for frame in sorted(wanted):
            cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
            ok, image = cap.read()
            if ok:
                for alert in (a for a in alerts if a.frame == frame):
                    thumb = evidence_jpeg(image, alert.evidence.box)
                    if thumb:
                        crops[alert.id] = thumb
    finally:
        cap.release()
    return crops


def _values(events: list, rules: str) -> list[HandValue]:
    from rules_check.checker import RulesChecker
    from rules_check.ruleset import ruleset_by_name

    checker = RulesChecker(ruleset_by_name(rules))
    checker.feed_all(events)
    return list(checker.values)


# --- sections -----------------------------------------------------------------------------


def _esc(value: object) -> str:
    return html.escape(str(value))


def _head(*names: str) -> str:
    return "<tr>" + "".join(f"<th>{_esc(n)}</th>" for n in names) + "</tr>"


def _dot(seat: int) -> str:
    return f"<span class='dot' style='background:{SEAT_COLOURS[seat]}'></span>"


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


def _header(data: ReportInput, kyoku: list[stats.Kyoku]) -> str:
    times = [e.t for e in data.events if e.t is not None]
    span = (max(times) - min(times)) if times else 0.0
    discards = sum(1 for e in data.events if e.type == "dahai")
    calls = sum(1 for e in data.events if e.type in CALLS)
    wins = sum(1 for e in data.events if e.type == "hora")
    cards = [
        ("kyoku", len(kyoku)),
        ("duration", _clock(span)),
        ("discards", discards),
        ("calls", calls),
        ("wins", wins),
        ("alerts", len(data.alerts)),
    ]
    tiles_html = "".join(f'<div class="stat"><b>{_esc(v)}</b><span>{_esc(k)}</span></div>' for k, v in cards)
    source = f'<p class="muted">{_esc(data.source)} · rules: {_esc(data.rules)}</p>' if data.source else ""
    return f"<header><h1>{_esc(data.title)}</h1>{source}<div class='stats'>{tiles_html}</div></header>"


def _timeline(events: list, alerts: list[Alert], kyoku: list[stats.Kyoku]) -> str:
    times = [e.t for e in events if e.t is not None] + [a.t for a in alerts if a.t is not None]
    if not times:
        return "<section><h2>Timeline</h2><p class='muted'>No timed events.</p></section>"
    t0, t1 = min(times), max(times)
    width, left, lane, top = 1000, 70, 26, 24
    height = top + lane * 5 + 30
    scale = (width - left - 20) / max(t1 - t0, 1e-6)

    def x(t: float) -> float:
        return left + (t - t0) * scale

    parts = [f'<svg class="timeline" viewBox="0 0 {width} {height}" role="img" aria-label="timeline">']
    for k in kyoku:
        if k.t0 is not None:
            parts.append(
                f'<line x1="{x(k.t0):.1f}" y1="{top - 8}" x2="{x(k.t0):.1f}" y2="{top + lane * 5}"'
                ' class="kyoku"/>'
                f'<text x="{x(k.t0) + 3:.1f}" y="{top - 10}" class="label">{_esc(k.title)}</text>'
            )
    for s in range(4):
        y = top + lane * s + lane / 2
        parts.append(f'<text x="8" y="{y + 4:.1f}" class="label">seat {s}</text>')
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 20}" y2="{y:.1f}" class="lane"/>')
    y_alert = top + lane * 4 + lane / 2
    parts.append(f'<text x="8" y="{y_alert + 4:.1f}" class="label alert-label">alerts</text>')
    parts.append(f'<line x1="{left}" y1="{y_alert:.1f}" x2="{width - 20}" y2="{y_alert:.1f}" class="lane"/>')
    for e in events:
        actor = getattr(e, "actor", None)
        if e.t is None or actor is None or e.type in ("hand_count", "wall_take", "tile_exposed"):
            continue
        y = top + lane * actor + lane / 2
        colour = SEAT_COLOURS[actor]
        tip = _esc(f"{_clock(e.t)} seat {actor} {e.type} {getattr(e, 'pai', '') or ''}")
        cx = x(e.t)
        if e.type == "dahai":
            shape = f'circle cx="{cx:.1f}" cy="{y:.1f}" r="3" fill="{colour}"'
        elif e.type == "tsumo":
            shape = f'circle cx="{cx:.1f}" cy="{y:.1f}" r="1.6" fill="{colour}" opacity=".5"'
        elif e.type in CALLS:
            shape = f'rect x="{cx - 5:.1f}" y="{y - 5:.1f}" width="10" height="10" fill="{colour}"'
        elif e.type == "reach":
            shape = f'rect x="{cx - 9:.1f}" y="{y - 2:.1f}" width="18" height="4" rx="2" class="stick"'
        elif e.type == "hora":
            parts.append(f'<text x="{cx:.1f}" y="{y + 6:.1f}" class="win">★<title>{tip}</title></text>')
            continue
        else:
            continue
        tag = shape.split(" ", 1)[0]
        parts.append(f"<{shape}><title>{tip}</title></{tag}>")
    for a in alerts:
        if a.t is None:
            continue
        tip = _esc(f"{_clock(a.t)} {a.code} seat {a.seat} ({a.penalty})")
        cx = x(a.t)
        parts.append(
            f'<path d="M{cx:.1f},{y_alert - 8:.1f} L{cx + 7:.1f},{y_alert + 6:.1f} '
            f'L{cx - 7:.1f},{y_alert + 6:.1f} Z"'
            f' class="alert-mark"><title>{tip}</title></path>'
        )
        if a.seat is not None:
            ys = top + lane * a.seat + lane / 2
            parts.append(
                f'<line x1="{cx:.1f}" y1="{ys:.1f}" x2="{cx:.1f}" y2="{y_alert - 8:.1f}" class="alert-link"/>'
            )
    ticks = max(int((t1 - t0) // 30), 1)
    for i in range(ticks + 1):
        t = t0 + (t1 - t0) * i / ticks
        parts.append(
            f'<text x="{x(t):.1f}" y="{height - 8}" class="label" text-anchor="middle">{_clock(t)}</text>'
        )
    parts.append("</svg>")
    legend = (
        "<p class='legend'><span>● discard</span><span>· draw</span><span>■ call</span>"
        "<span>▭ riichi</span><span>★ win</span><span class='alert-label'>▲ alert</span></p>"
    )
    return f"<section><h2>Timeline</h2>{''.join(parts)}{legend}</section>"


def _image_uri(item: bytes | str | Path | None) -> str | None:
    if item is None:
        return None
    data = item if isinstance(item, bytes) else Path(item).read_bytes() if Path(item).is_file() else None
    if not data:
        return None
    kind = "png" if data[:4] == b"\x89PNG" else "jpeg"
    return f"data:image/{kind};base64,{base64.b64encode(data).decode()}"


def _alerts(alerts: list[Alert], crops: Mapping[str, bytes | str | Path]) -> str:
    if not alerts:
        return "<section><h2>Alerts</h2><p class='muted'>No alerts.</p></section>"
    rows = []
    for a in sorted(alerts, key=lambda a: (a.t is None, a.t or 0.0)):
        uri = _image_uri(crops.get(a.id))
        thumb = (
            f'<img src="{uri}" alt="evidence of {_esc(a.code)}">'
            if uri
            else "<div class='noimg'>no image</div>"
        )
        seat = "table" if a.seat is None else f"seat {a.seat}"
        rows.append(
            f"<tr><td>{thumb}</td><td><b>{_esc(a.code)}</b><br>"
            f"<span class='pen' data-penalty='{_esc(a.penalty)}'>"
            f"{_esc(a.penalty)}</span></td><td>{seat}</td><td>{_clock(a.t)}<br><span class='muted'>frame "
            f"{_esc(a.frame if a.frame is not None else '–')}</span></td><td>{_esc(a.message)}</td></tr>"
        )
    head = _head("evidence", "rule", "seat", "time", "what")
    table = f"<table class='alerts'>{head}{''.join(rows)}</table>"
    return f"<section><h2>Alerts ({len(alerts)})</h2>{table}</section>"


def _turn_times(events: list) -> str:
    per_seat = stats.turn_times(events)
    summaries = {s: stats.summarise(v) for s, v in per_seat.items()}
    longest = max((v.max() for v in per_seat.values() if v.size), default=1.0) or 1.0
    rows = []
    for s in range(4):
        sm = summaries[s]

        def f(key: str, sm=sm) -> str:
            return "–" if sm[key] is None else f"{sm[key]:.1f} s"

        bars = "".join(
            f'<rect x="{i * 7}" y="{30 - 30 * v / longest:.1f}" width="5" height="{30 * v / longest:.1f}" '
            f'fill="{SEAT_COLOURS[s]}"><title>{v:.1f} s</title></rect>'
            for i, v in enumerate(per_seat[s])
        )
        box = f"0 0 {max(7 * per_seat[s].size, 7)} 30"
        spark = f'<svg class="spark" viewBox="{box}" preserveAspectRatio="none">{bars}</svg>'
        rows.append(
            f"<tr><td>{_dot(s)}seat {s}</td><td>{sm['turns']}</td>"
            f"<td>{f('median')}</td><td>{f('mean')}</td><td>{f('p90')}</td><td>{f('max')}</td><td>{spark}</td></tr>"
        )
    head = _head("seat", "turns", "median", "mean", "90th pct", "longest", "each turn")
    note = "<p class='muted'>From the previous discard (or the seat's own call) to the seat's discard.</p>"
    return f"<section><h2>Turn times</h2>{note}<table class='turns'>{head}{''.join(rows)}</table></section>"


def _wins(values: list[HandValue], kyoku: list[stats.Kyoku]) -> str:
    """One row per win of the record, with its value when the winning hand is known (a camera
    sees the hand only if it is laid open and read: otherwise the row says so)."""
    unpaired = list(values)
    rows = []
    for k in kyoku:
        for hora in k.of("hora"):
            value = next((v for v in unpaired if (v.seat, v.target) == (hora.actor, hora.target)), None)
            if value is not None:
                unpaired.remove(value)
            rows.append(_win_row(k.title, hora.actor, hora.target, value, hora.deltas))
    rows += [_win_row("", v.seat, v.target, v, None) for v in unpaired]
    if not rows:
        return "<section><h2>Wins</h2><p class='muted'>No win in the record.</p></section>"
    head = _head("hand", "winner", "how", "value", "points", "yaku / fan", "score changes")
    return f"<section><h2>Wins</h2><table class='wins'>{head}{''.join(rows)}</table></section>"


def _win_row(title: str, seat: int, target: int, v: HandValue | None, recorded: list[int] | None) -> str:
    how = "tsumo" if seat == target else f"ron from seat {target}"
    if v is None:
        size, points, yaku = "not known: the winning hand was not read", "–", ""
    else:
        size = (
            f"{v.fan} fan"
            if v.fan is not None
            else f"{v.han} han {v.fu} fu" + (f" ({v.limit})" if v.limit else "")
        )
        points, yaku = str(v.points), ", ".join(f"{y.name} {y.value}" for y in v.yaku)
    deltas = v.deltas if v is not None else recorded
    changes = " ".join(f"{d:+d}" for d in deltas) if deltas else "–"
    return (
        f"<tr><td>{_esc(title)}</td><td>seat {seat}</td><td>{_esc(how)}</td><td>{_esc(size)}</td>"
        f"<td><b>{_esc(points)}</b></td><td>{_esc(yaku)}</td><td class='mono'>{_esc(changes)}</td></tr>"
    )


class _Faces:
    """Tile faces used by the record, inlined once each as small base64 PNG CSS classes."""

    def __init__(self):
        self.used: set[str] = set()

    def tile(self, code: str, sideways: bool = False, called: bool = False, tsumogiri: bool = False) -> str:
        cls = ["t"]
        if code in tiles.ALL_CODES and code not in (tiles.UNKNOWN, tiles.BACK, tiles.STANDING):
            self.used.add(code)
            cls.append(f"f-{_css_name(code)}")
        else:
            cls.append("unk")
        if sideways:
            cls.append("side")
        if called:
            cls.append("called")
        if tsumogiri:
            cls.append("tg")
        return f'<i class="{" ".join(cls)}" title="{_esc(code)}"></i>'

    def css(self) -> str:
        import cv2
        import numpy as np

        rules = []
        art = resources.files("datasets.art").joinpath("default")
        for code in sorted(self.used):
            raw = art.joinpath(f"{code}.png").read_bytes()
            image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_UNCHANGED)
            small = cv2.resize(image, (30, 40), interpolation=cv2.INTER_AREA)
            ok, png = cv2.imencode(".png", small)
            uri = base64.b64encode(png.tobytes() if ok else raw).decode()
            rules.append(f".f-{_css_name(code)}{{background-image:url(data:image/png;base64,{uri})}}")
        return "\n".join(rules)


def _css_name(code: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in code)


def _record(kyoku: list[stats.Kyoku], faces: _Faces) -> str:
    out = ["<section><h2>Game record</h2>"]
    for number, k in enumerate(kyoku):
        s = k.start
        dora = "".join(faces.tile(c) for c in [s.dora_marker] + [e.dora_marker for e in k.of("dora")])
        rows = []
        riichi_next = [False] * 4
        discards: dict[int, list] = {i: [] for i in range(4)}
        melds: dict[int, list[str]] = {i: [] for i in range(4)}
        last: tuple[int, int] | None = None
        for e in k.events:
            if e.type == "reach":
                riichi_next[e.actor] = True
            elif e.type == "dahai":
                discards[e.actor].append([e.pai, riichi_next[e.actor], False, bool(e.tsumogiri)])
                riichi_next[e.actor] = False
                last = (e.actor, len(discards[e.actor]) - 1)
            elif e.type in ("chi", "pon", "daiminkan"):
                if last is not None:
                    discards[last[0]][last[1]][2] = True
                    if discards[last[0]][last[1]][1]:
                        riichi_next[last[0]] = True  # the riichi tile was called: the next lies sideways
                melds[e.actor].append(
                    "".join(
                        faces.tile(c, sideways=(c == e.pai and i == 0))
                        for i, c in enumerate([e.pai, *e.consumed])
                    )
                )
            elif e.type in ("kakan", "ankan"):
                shown = [e.pai] if e.type == "kakan" else list(e.consumed)
                melds[e.actor].append(
                    f"<span class='kan'>{e.type}</span>" + "".join(faces.tile(c) for c in shown)
                )
        for seat in range(4):
            river = "".join(
                faces.tile(c, sideways=side, called=cut, tsumogiri=tg) for c, side, cut, tg in discards[seat]
            )
            meld_html = " ".join(f"<span class='meld'>{m}</span>" for m in melds[seat])
            rows.append(
                f"<tr><td>{_dot(seat)}seat {seat}"
                f"{' (dealer)' if seat == s.oya else ''}<br>"
                f"<span class='muted'>{s.scores[seat]:,}</span></td>"
                f"<td class='river'>{river}</td><td>{meld_html}</td></tr>"
            )
        result = _result_text(k)
        out.append(
            f"<div class='kyoku'><h3>{number + 1}. {_esc(k.title)} <span class='muted'>"
            f"{_clock(k.t0)}–{_clock(k.t1)}</span></h3><p>dora indicator {dora} · {_esc(result)}</p>"
            f"<table class='record'>{_head('seat', 'discards (in order)', 'calls')}{''.join(rows)}"
            f"</table></div>"
        )
    if not kyoku:
        out.append("<p class='muted'>No kyoku in the record.</p>")
    out.append("</section>")
    return "".join(out)


def _result_text(k: stats.Kyoku) -> str:
    parts = []
    for e in k.of("hora", "ryukyoku"):
        deltas = f" ({' '.join(f'{d:+d}' for d in e.deltas)})" if e.deltas else ""
        if e.type == "hora":
            how = "tsumo" if e.actor == e.target else f"ron on seat {e.target}"
            parts.append(f"seat {e.actor} wins by {how}{deltas}")
        else:
            parts.append(f"draw{': ' + e.reason if e.reason else ''}{deltas}")
    return "; ".join(parts) or "unfinished"


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{style}</style></head>
<body>{body}
<footer>Made by mjmon. Tile faces: the project's default set.</footer>
</body></html>
"""
