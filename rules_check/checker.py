"""The checker: ``rules.check(event, state) -> list[Alert]`` and a live feeder owning its state.

``Rules.check`` takes the TableState *before* the event (the caller applies the event after),
runs every check (``rules_check.checks.CHECKS``), prices each finding under the ruleset, drops
the ones the ruleset does not check, reports each ``once`` finding once per kyoku, and marks a
seat dead (和了放棄 / 相公) after a penalty that kills the hand, so its later calls and wins are
illegal (from a camera, not after a finding judged on readings, ``READINGS``: a count, tile
faces; see ``Rules._alert``).
``RulesChecker`` is the live form: ``feed(event)`` one event at a time, no look-ahead. From a
camera it holds the alerts judged on tile faces (``FACE_READINGS``) or on how a call's tiles lie
(``LAYOUT_READINGS``) for ``settle_frames`` and drops one whose readings the camera corrects
meanwhile (``release``; call it at the end).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules_check.alert import Alert
from rules_check.checks import CHECKS
from rules_check.checks.invalid_meld import laid_as_declared
from rules_check.checks.meld_orientation import laid_as_the_rules_want
from rules_check.ruleset import DEAD_PENALTIES, RuleSet
from rules_check.situation import Finding, Situation
from rules_check.value import HandValue, hand_value
from tracker.events import corrected
from tracker.table.state import StateError, TableState

Check = Callable[[object, Situation], list[Finding]]
#: findings (code, or (code, case)) judged on one camera reading of tiles: a hand's count (an
#: early draw too: a tile seen apart in the next hand while the discard was read), a meld's faces,
#: a kuikae on the faces of the discard and the meld before it, a chi from the wrong seat (a call
#: is a chi or a pon by its faces). On the evaluation set, a false early draw and both false
#: kuikae (a discard read as the called kind) each made their seat's later calls and win alerts too
READINGS = frozenset(
    {
        "tile_count_excess",
        "tile_count_short",
        "invalid_meld",
        "kuikae",
        "early_draw",
        ("illegal_call", "chi_not_kamicha"),
    }
)
#: findings on the faces of a discard or a meld as first read; the tracker keeps reading those
#: tiles and corrects a misread with a ``retract`` (a discard's median 88 frames later, a call's 58
#: on the evaluation set), so from a camera such an alert waits for its readings to settle
FACE_READINGS = frozenset({"invalid_meld", "kuikae", ("illegal_call", "chi_not_kamicha")})
#: findings on how a call's tiles were first seen to lie, which the tracker reads again too
LAYOUT_READINGS = frozenset({"meld_orientation"})
#: frames (3 s at 30 fps) a face-reading alert is held (DESIGN.md matches alerts by their evidence
#: frame, which the hold keeps; the referee sees it this much later)
SETTLE_FRAMES = 90


def _among(finding: Finding, kinds: frozenset) -> bool:
    return finding.code in kinds or (finding.code, finding.case) in kinds


class Rules:
    """Stateless about the table (passed in); remembers dead seats and what it already reported."""

    def __init__(self, ruleset: RuleSet, checks: Iterable[Check] = CHECKS):
        self.ruleset = ruleset
        self.checks = tuple(checks)
        self._dead: dict[int, str] = {}  # seat -> the code of the finding that made it dead
        self._notes: dict = {}
        self._camera = False  # the stream comes from a camera (discards carry their river slot)
        self._reported: set[tuple] = set()
        self._count = 0
        self._kyoku = 0
        self.on_faces: set[str] = set()  # ids of a camera's alerts judged on tile faces (FACE_READINGS)
        self.on_layout: set[str] = set()  # ... on how a call's tiles lie (LAYOUT_READINGS)

    @property
    def camera(self) -> bool:
        """The stream comes from a camera (its discards carry their river slot)."""
        return self._camera

    @property
    def dead(self) -> frozenset[int]:
        refuted = self._notes.get("refuted", set())
        return frozenset(s for s, code in self._dead.items() if (code, s) not in refuted)

    def check(self, event, state: TableState) -> list[Alert]:
        if event.type == "start_kyoku":
            self._dead.clear()
            self._notes = {}
            self._reported.clear()
            self._kyoku += 1
        if event.type == "dahai" and getattr(event, "slot", None) is not None:
            self._camera = True
        situation = Situation(state, self.ruleset, self.dead, self._notes)
        alerts = []
        for check in self.checks:
            for finding in check(event, situation):
                alert = self._alert(finding, event)
                if alert is not None:
                    alerts.append(alert)
        return alerts

    def _alert(self, finding: Finding, event) -> Alert | None:
        penalty = self.ruleset.penalty(finding.code, finding.case)
        if penalty is None:
            return None
        if finding.once is not None:
            key = (finding.code, finding.seat, finding.once)
            if key in self._reported:
                return None
            self._reported.add(key)
        # from a camera a count or a meld's faces are one reading: a misreading that kills a hand
        # would turn each later call and the win of that seat into chombo alerts too, so there
        # such an alert stands alone for the referee (no dead-hand cascade)
        alone = self._camera and _among(finding, READINGS)
        dies = penalty in DEAD_PENALTIES and finding.seat is not None and not alone
        if dies and finding.seat not in self.dead:
            self._dead[finding.seat] = finding.code
        self._count += 1
        if self._camera and _among(finding, FACE_READINGS):
            self.on_faces.add(f"k{self._kyoku:02d}-a{self._count:04d}")
        if self._camera and _among(finding, LAYOUT_READINGS):
            self.on_layout.add(f"k{self._kyoku:02d}-a{self._count:04d}")
        return Alert(
            id=f"k{self._kyoku:02d}-a{self._count:04d}",
            code=finding.code,
            seat=finding.seat,
            rules=self.ruleset.name,
            penalty=penalty,
            t=event.t if finding.frame is None else finding.t,
            frame=event.frame if finding.frame is None else finding.frame,
            message=finding.message,
        )


class RulesChecker:
    """Feed events live; holds its own TableState, the alerts so far and each win's hand value.
    ``settle_frames``: how long a camera's face-reading alert waits (0: none waits)."""

    def __init__(self, ruleset: RuleSet, settle_frames: int = SETTLE_FRAMES):
        self.ruleset = ruleset
        self.rules = Rules(ruleset)
        self.state = TableState(ruleset.table)
        self.settle_frames = settle_frames
        self.alerts: list[Alert] = []
        self.values: list[HandValue] = []
        self.state_errors: list[str] = []
        self.held: list[Alert] = []
        self.withdrawn: list[Alert] = []  # held alerts whose readings the camera corrected
        self._evidence: dict[str, list] = {}  # held alert id -> the events it rests on

    def feed(self, event) -> list[Alert]:
        """The alerts this event raises, and the held ones whose time has come (``event.frame``)."""
        before = self.state.kyoku_events if event.type == "dahai" else []  # (a kuikae's call)
        found = self.rules.check(event, self.state)
        if event.type == "hora":
            value = hand_value(event, self.state, self.ruleset)
            if value is not None:
                self.values.append(value)
        try:
            self.state.update(event)
        except StateError as err:  # an observed event the record cannot hold: keep watching
            self.state_errors.append(f"{event.type}: {err}")
        if event.type == "retract" and event.target_type != "retract":
            self._withdraw(event)
        alerts = [a for a in found if not self._waits(a)]
        for alert in (a for a in found if self._waits(a)):
            self.held.append(alert)
            self._evidence[alert.id] = [_as_corrected(event, self.state), *_call_before(before, alert)]
        self.alerts.extend(alerts)
        return alerts + (self.release(event.frame) if event.frame is not None else [])

    def release(self, frame: int | None = None) -> list[Alert]:
        """Held alerts that waited ``settle_frames`` by ``frame`` (every one without a frame: at the
        end of the stream)."""
        due = [a for a in self.held if frame is None or a.frame + self.settle_frames <= frame]
        self.held = [a for a in self.held if frame is not None and a.frame + self.settle_frames > frame]
        self.alerts.extend(due)
        return due

    def feed_all(self, events: Iterable) -> list[Alert]:
        out = []
        for event in events:
            out.extend(self.feed(event))
        return out + self.release()

    def _waits(self, alert: Alert) -> bool:
        on_readings = alert.id in self.rules.on_faces or alert.id in self.rules.on_layout
        return self.settle_frames > 0 and on_readings and alert.frame is not None

    def _withdraw(self, fix) -> None:
        """Drop the held alerts whose evidence this retraction corrects: the event an alert was
        raised on (a kuikae's discard, and the call before it) taken back, or read again with
        other tiles (an alert on faces) or with its tiles lying as the rules want (an alert on
        the layout)."""
        named = (fix.target_type, fix.target_frame, fix.actor)
        keep = []
        for alert in self.held:
            evidence = [e for e in self._evidence.get(alert.id, []) if _key(e) == named]
            if any(self._refuted(alert, e, fix) for e in evidence):
                self.withdrawn.append(alert)
            else:
                keep.append(alert)
        self.held = keep

    def _refuted(self, alert: Alert, event, fix) -> bool:
        if not fix.corrects:
            return True
        now = corrected(event, fix)
        if alert.id in self.rules.on_layout:
            return laid_as_the_rules_want(now)
        if alert.code == "invalid_meld":
            return laid_as_declared(now)  # (a wrong tile read as another wrong one stays a 错碰)
        return _faces(now) != _faces(event)


def _call_before(history: list, alert: Alert) -> list:
    """The call a kuikae alert's discard followed (the last chi or pon of its seat), if any."""
    if alert.code != "kuikae":
        return []
    calls = [e for e in history if e.type in ("chi", "pon") and e.actor == alert.seat]
    return calls[-1:]


def _as_corrected(event, state: TableState):
    """The event an alert rests on: ``event``, or for a correction the event it names, corrected."""
    if event.type != "retract":
        return event
    named = (event.target_type, event.target_frame, event.actor)
    target = next((e for e in reversed(state.kyoku_events) if _key(e) == named), None)
    return corrected(target, event) if target is not None else event


def _key(event) -> tuple:
    return (event.type, event.frame, getattr(event, "actor", None))


def _faces(event) -> tuple:
    return (event.type, getattr(event, "pai", None), tuple(getattr(event, "consumed", None) or ()))
