"""The checker: ``rules.check(event, state) -> list[Alert]`` and a live feeder owning its state.

``Rules.check`` takes the TableState *before* the event (the caller applies the event after),
runs every check (``rules_check.checks.CHECKS``), prices each finding under the ruleset, drops
the ones the ruleset does not check, reports each ``once`` finding once per kyoku, and marks a
seat dead (和了放棄 / 相公) after a penalty that kills the hand, so its later calls and wins are
illegal (from a camera, not after a finding judged on readings, ``READINGS``: a count, tile
faces; see ``Rules._alert``).
``RulesChecker`` is the live form: ``feed(event)`` one event at a time, no look-ahead. From a
camera it holds the alerts judged on how tiles were first read (``SETTLING``) for
``settle_frames`` and drops one whose check no longer finds it on the readings the camera
corrects meanwhile (each such check's ``still_found``); ``release`` at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules_check.alert import Alert
from rules_check.checks import CHECKS, MODULES
from rules_check.ruleset import DEAD_PENALTIES, RuleSet
from rules_check.situation import Finding, Situation
from rules_check.value import HandValue, hand_value
from tracker.events import as_corrected, corrected, event_key, named_event
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
#: findings on a discard's or a call's tiles as first read (faces, or how they lie); the tracker
#: keeps reading those tiles and corrects a misread with a ``retract`` (most within a few
#: seconds), so from a camera such an alert waits for its readings to settle. Each of their check
#: modules has ``still_found(evidence)``: the finding on the events as read again.
SETTLING = frozenset(
    {
        "invalid_meld",
        "kuikae",
        "meld_orientation",
        ("illegal_call", "chi_not_kamicha"),
        ("river_layout", "sideways"),
        ("river_layout", "seventh"),
    }
)
STILL_FOUND = {m.CODE: m.still_found for m in MODULES if hasattr(m, "still_found")}
#: a held alert may also rest on earlier events of the kyoku: its module's ``rests_on(before,
#: event, case)`` names them (as first emitted; ``case``: the finding's), and a correction or
#: taking back of one judges the alert again
RESTS_ON = {m.CODE: m.rests_on for m in MODULES if hasattr(m, "rests_on")}
#: frames (3 s at 30 fps) a face-reading alert is held (DESIGN.md matches alerts by their evidence
#: frame, which the hold keeps; the referee sees it this much later)
SETTLE_FRAMES = 90
#: codes held twice as long: a discard's face read as it lands and a meld's faces read as it is
#: laid, corrected once the later reads outvote them. On sets 3 and 4 (960x540) four false alerts
#: were corrected 134-154 frames after their evidence (two kuikae on a discard read as the
#: pon's kind, two 错碰 with one tile misread), after a 90-frame hold had let them out
LONGER_SETTLING = {"invalid_meld": 2, "kuikae": 2}
#: the longest a camera's alert is held after its evidence frame (what its picture must outlive)
LONGEST_HOLD = SETTLE_FRAMES * max(LONGER_SETTLING.values())


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
        # ids of a camera's alerts on first readings (SETTLING) -> the case of each one's finding
        self.settling: dict[str, str | None] = {}
        self._once_keys: dict[str, tuple] = {}  # alert id -> its once-per-kyoku key

    def forget(self, alert_id: str) -> None:
        """An alert dropped before it was said: what it found may be found again (on a later
        reading of the same tiles)."""
        self._reported.discard(self._once_keys.pop(alert_id, None))

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
        key = None
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
        alert_id = f"k{self._kyoku:02d}-a{self._count:04d}"
        if key is not None:
            self._once_keys[alert_id] = key
        if self._camera and _among(finding, SETTLING):
            self.settling[alert_id] = finding.case
        return Alert(
            id=alert_id,
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
    ``settle_frames``: how long a camera's face-reading alert waits (0: none waits), times
    ``LONGER_SETTLING``'s factor for its code."""

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
        self._due: dict[str, int] = {}  # held alert id -> the frame it is said at
        # held alert id -> {key of an event it rests on (as first emitted): that event as judged}
        self._evidence: dict[str, dict[tuple, object]] = {}

    def feed(self, event) -> list[Alert]:
        """The alerts this event raises, and the held ones whose time has come (``event.frame``)."""
        # the kyoku before this event (a copy: the state appends the event to its own list)
        before = list(self.state.kyoku_events) if event.type in ("dahai", "retract") else []
        found = self.rules.check(event, self.state)
        if event.type == "hora":
            value = hand_value(event, self.state, self.ruleset)
            if value is not None:
                self.values.append(value)
        try:
            self.state.update(event)
        except StateError as err:  # an observed event the record cannot hold: keep watching
            self.state_errors.append(f"{event.type}: {err}")
        if event.type == "retract":
            self._withdraw(event)  # (a retraction taken back too: a kuikae may rest on it)
        alerts = [a for a in found if not self._waits(a)]
        for alert in (a for a in found if self._waits(a)):
            self.held.append(alert)
            # from when it is raised: one judged on a call read again points back at the call
            hold = self.settle_frames * LONGER_SETTLING.get(alert.code, 1)
            self._due[alert.id] = max(alert.frame, event.frame or alert.frame) + hold
            case = self.rules.settling[alert.id]
            self._evidence[alert.id] = _evidence(event, alert, case, self.state, before)
        self.alerts.extend(alerts)
        return alerts + (self.release(event.frame) if event.frame is not None else [])

    def release(self, frame: int | None = None) -> list[Alert]:
        """Held alerts that waited ``settle_frames`` by ``frame`` (every one without a frame: at the
        end of the stream)."""
        due = [a for a in self.held if frame is None or self._due[a.id] <= frame]
        self.held = [a for a in self.held if frame is not None and self._due[a.id] > frame]
        for alert in due:
            self._evidence.pop(alert.id, None)
        self.alerts.extend(due)
        return due

    def feed_all(self, events: Iterable) -> list[Alert]:
        out = []
        for event in events:
            out.extend(self.feed(event))
        return out + self.release()

    def _waits(self, alert: Alert) -> bool:
        return self.settle_frames > 0 and alert.id in self.rules.settling and alert.frame is not None

    def _withdraw(self, fix) -> None:
        """Drop the held alerts whose evidence this retraction corrects so that the finding no
        longer holds: an event it rests on (a kuikae's discard and the call before it) taken
        back, or read again so that the check would not find it (``_still_found``). A dropped
        alert's finding may be found again on a later reading."""
        named = fix.names
        keep = []
        for alert in self.held:
            evidence = self._evidence[alert.id]
            if named in evidence and not self._still_found(alert, evidence, named, fix):
                self.withdrawn.append(alert)
                self._evidence.pop(alert.id)
                self.rules.forget(alert.id)
            else:
                if named in evidence:
                    evidence[named] = corrected(evidence[named], fix)  # judged on that from now
                keep.append(alert)
        self.held = keep

    @staticmethod
    def _still_found(alert: Alert, evidence: dict, named: tuple, fix) -> bool:
        if not fix.corrects:
            return False
        now = [corrected(e, fix) if key == named else e for key, e in evidence.items()]
        still_found = STILL_FOUND.get(alert.code)
        return still_found is None or still_found(now)


def _evidence(event, alert: Alert, case: str | None, state: TableState, before: list) -> dict:
    """The events ``alert`` rests on, by their key as first emitted, as the check judged them:
    ``event``, or for a correction the event it names, corrected; and the earlier events its
    check module says it rests on (``RESTS_ON``: a kuikae's call, a stray sideways tile's
    declaration reading, a seventh tile's row)."""
    out = {}
    if event.type == "retract":
        target = named_event(event, state.kyoku_events)
        if target is not None:
            out[event.names] = corrected(target, event)
    else:
        out[event_key(event)] = event
    rests_on = RESTS_ON.get(alert.code)
    for earlier in rests_on(before, event, case) if rests_on is not None else []:
        out[event_key(earlier)] = as_corrected(earlier, before)  # keyed as first emitted
    return out
