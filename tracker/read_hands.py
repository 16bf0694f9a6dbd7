"""Reading the hands: standing rows (counts at still moments, the looks mid-discard that tell
tsumogiri, a draw taken early) and hands laid open (hora, ryukyoku; chankan, double ron).
A mixin of ``tracker.tracker.TableTracker`` (its state, config and emitting)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tracker import events as ev
from tracker.kyoku import EventFactory, Kyoku, at_frame, in_turn, next_to_draw
from tracker.lift_model import LiftEvidence, LiftModel, lift_features, lift_step
from tracker.readings import drawn_apart, one_per_place, pick_code, row_holes, standing_row
from tracker.results import WINNING_COUNT, judge_result, shown_count
from tracker.zones import HAND, WALL, TableView, assign
from vision.hand_rows import NOMINAL_PITCH_MM, PITCH_RANGE, HandRows, pitch_for

# a row in play calibrates an edge only from this many tiles (a short row's measure
# is mostly the bar's overhang), and within this share of the table's pitch
MIN_CALIBRATION_TILES = 7
IN_PLAY_PITCH_SPREAD = 0.03
# an edge's pitch is the median of its last this many calibrations (deals' and in play)
ROW_PITCHES_KEPT = 9


class RowEvidence(NamedTuple):
    """One read of a standing row: tiles (the one apart included), a drawn tile apart, holes (tiles
    missed inside the row), the least confidence of its tiles."""

    count: int
    apart: bool
    holes: int
    confidence: float


class OpenHand(NamedTuple):
    """A hand laid open (a win or a draw), left to right; ``unsure``: indexes of its tiles read
    below ``open_hand_confidence`` (where a misreading most likely is)."""

    codes: list[str]
    unsure: list[int]


class HandReader:
    _deal_draw: tuple[Kyoku, int, int] | None = None  # (kyoku, edge, reads) of a first draw seen
    _row_pitches: list[list[float]]  # per edge: mm a standing tile, measured at deals and in play
    lift_model: LiftModel | None = None  # tsumogiri learned from the lift (None: by rules)
    lift_log: list | None = None  # (frame, edge, features, rules' decision) of each discard judged

    def _init_hand_rows(self) -> None:
        self._row_pitches = [[], [], [], []]

    def _watch_lift(self, image: np.ndarray, frame: int, activity: np.ndarray) -> None:
        """While an arm moves over a hand that holds a drawn tile (or the hand of the seat whose
        draw comes next: a quick player draws and discards with no still moment between), read
        that hand now and then: the moment one tile is gone tells tsumogiri (the set-apart tile
        left) from tedashi (it stayed)."""
        k = self.kyoku
        if k is None:
            return
        self._trace_row_ends(k, image)
        drawing = (k.last_actor + 1) % 4 if k.last_actor is not None and k.after_call is None else None
        for e in range(4):
            if activity[e] <= self.cfg.motion_threshold or len(k.lift_gap[e]) >= self.cfg.lift_votes:
                continue  # still, or its discard already judged (only the first looks count)
            # armed: every frame (the tile is in the air for a few); the next to draw: now and then,
            # to see its drawn tile arrive
            stride = self.cfg.lift_stride if k.armed[e] is not None else self.cfg.draw_stride
            if (k.armed[e] is None and e != drawing) or frame % stride:
                continue
            found = self._detect(image, self._hand_boxes[e])
            self.hand_looks += 1
            if not len(found):
                continue
            hand = assign(found, self.cal, self.cfg.bands).where(e, HAND)
            standing = standing_row(hand)
            # the first look of this motion (the arm still reaching) is a second baseline: the same
            # crop and scale each time, so a detector's misses (and the arm's cover) stay alike
            if k.lift_base[e] is None:
                k.lift_base[e] = len(standing)
            self._look_at_hand(k, e, standing.u, frame)

    def _trace_row_ends(self, k: Kyoku, image: np.ndarray) -> None:
        """On a moving frame, the right end of the row of each hand that holds (or is about to
        take) a drawn tile, measured from the pixels (one remap for the four: the detector
        boxes too few of a far camera's standing tiles to tell one gone at the row's end). A
        hand not seen holding its draw on a still read (a quick player) is seen so here: its
        row ending a tile and a gap right of where it ended before the draw, on two frames."""
        watched = [e for e in range(4) if not np.isnan(k.row_hold_end[e]) or self._may_hold(k, e)]
        if not watched:
            return
        rows = self.rows.measure(image)
        ends = rows.end
        for e in watched:
            trace = k.row_trace[e]
            trace.append((float(ends[e]), float(rows.right[e]), float(rows.drawn_right[e])))
            if not np.isnan(k.row_hold_end[e]):
                del trace[: -self.cfg.row_trace_frames]
                continue
            del trace[:-2]
            over = np.array([x[0] for x in trace]) - k.row_plain_end[e] - self._row_pitch(e)
            if len(over) == 2 and np.all((over > self.cfg.hold_gap_mm[0]) & (over < self.cfg.hold_gap_mm[1])):
                if abs(over[1] - over[0]) <= self.cfg.row_end_mm:
                    k.row_hold_end[e] = trace[-1][0]
                    k.row_trace[e] = []

    def _may_hold(self, k: Kyoku, e: int) -> bool:
        """Edge ``e``'s row measured before its draw, and the draw (or a call's discard) is its
        own to make: the hand holds, or will hold, a tile apart."""
        if np.isnan(k.row_plain_end[e]):
            return False
        return in_turn(k, e)

    def _note_row_end(self, k: Kyoku, e: int) -> None:
        """A still read of edge ``e``'s row measured from the pixels: its right end as the record
        has the hand before a draw (the row a tsumogiri leaves), or holding its draw (the moving
        frames from here on are the discard's lift). A seat out of its turn holds no draw, so
        its row's end is the plain one even where the measure miscounts it (a far camera's
        short row after calls); in its turn, a row a tile and a gap longer than that holds one."""
        end = float(self._rows_now.end[e])
        if not k.started or np.isnan(end):
            return
        measured = int(self._rows_now.count(self._row_pitch(e))[e])
        held = self._held(k, e)
        plain = held - 1 if held % 3 == 2 else held
        if plain % 3 != 1:
            return
        turn = in_turn(k, e)
        if not turn and held == plain:
            k.row_plain_end[e] = end
            return
        if measured == plain and held == plain and not k.drew[e]:
            k.row_plain_end[e] = end
            return
        over = end - k.row_plain_end[e] - self._row_pitch(e)  # (NaN: no plain end yet)
        longer = self.cfg.hold_gap_mm[0] < over < self.cfg.hold_gap_mm[1]
        if turn and (measured == plain + 1 or longer):
            if k.cand_river[e]:
                return  # its discard seen landing, to be confirmed: the lift is over, keep its trace
            k.row_hold_end[e] = end
            k.row_trace[e] = []

    def _tsumogiri(self, k: Kyoku, e: int) -> bool:
        """Was edge ``e``'s discard its drawn tile? With a lift model (``tracker.lift_model``),
        as it weighs the lift's evidence; else by rules: the row's end measured over the lift
        says so where it saw it (``_row_tsumogiri``); else the detector's first ``lift_votes``
        looks mid-discard, all at a row with no tile apart (no evidence is tedashi). Two such
        looks outweigh one frame of a tile apart (an arm sweeping past the row's end)."""
        first = k.lift_gap[e][: self.cfg.lift_votes]
        looked_plain = len(first) == self.cfg.lift_votes and not any(first)
        rows = self._row_tsumogiri(k, e)
        by_rules = looked_plain if rows is None else rows[0] or (looked_plain and not rows[1])
        if self.lift_model is None and self.lift_log is None:
            return by_rules
        features = lift_features(self._lift_evidence(k, e, rows), self._lift_step())
        if self.lift_log is not None:  # (models.lift_data: the model's training rows)
            self.lift_log.append((self._frame, e, features, by_rules))
        return by_rules if self.lift_model is None else self.lift_model.tsumogiri(features) >= 0.5

    def _lift_step(self) -> int:
        """Moving frames between the lift model's samples, from the video's frame times and the
        game's pace (``TrackerConfig.pace``)."""
        if self._frame <= 0 or self._t <= 0:
            return 1
        return lift_step(self._t / self._frame, self.cfg.pace)

    def _lift_evidence(self, k: Kyoku, e: int, rows: tuple[bool, bool] | None) -> LiftEvidence:
        trace = np.array(k.row_trace[e], float).reshape(-1, 3)
        return LiftEvidence(
            right=trace[:, 1],
            drawn_right=trace[:, 2],
            hold=float(k.row_hold_end[e]),
            plain=float(k.row_plain_end[e]),
            pitch=self._row_pitch(e),
            rules=rows,
            looks=tuple(k.lift_gap[e]),
        )

    def _row_tsumogiri(self, k: Kyoku, e: int) -> tuple[bool, bool] | None:
        """(tsumogiri, sure) as the row's end measured over the lift tells it; None where it
        does not. Seen holding its draw the row ended at ``hold``; a tsumogiri leaves it ending
        where it ended before the draw (``plain``: the drawn tile and its gap gone), a tedashi
        leaves the drawn tile standing apart, the end right of that. The drawn tile seen apart
        on two frames in a row is tedashi, whatever came before (an arm over the row's end
        shows anything). Else the first frame off the held end that shows either decides
        (one frame of a tile apart not surely), if it comes within ``early_frames``: the drawn
        tile leaves at once in a tsumogiri, while a tedashi hand takes its drawn tile in only
        once the discard has landed, ending then where a tsumogiri one does. Where an arm hid
        the lift, where the reach went says it, not surely: a hand reaching for the drawn tile
        at the row's end covers well past it (``reach_mm``), one reaching into the row little;
        so does it against one frame of a tile apart (an arm sweeping past the row's end)."""
        hold, plain = k.row_hold_end[e], k.row_plain_end[e]
        trace = np.array([x[0] for x in k.row_trace[e]])
        if np.isnan(hold) or len(trace) < 2:
            return None
        pitch = self._row_pitch(e)
        gap = hold - pitch - plain
        if np.isnan(plain) or not 0 < gap < pitch:
            plain, gap = hold - pitch - self.cfg.drawn_gap_mm, self.cfg.drawn_gap_mm
        apart = (trace > plain + gap / 2) & (trace < hold - pitch / 2)  # (NaN: neither)
        gone = np.abs(trace - plain) < gap / 2
        moved = np.nonzero(~(np.abs(trace - hold) <= self.cfg.row_end_mm))[0]
        told = np.nonzero(apart | gone)[0]
        steady = np.abs(np.diff(trace)) <= self.cfg.row_end_mm
        # the drawn tile gone on the first two frames that tell, as the lift begins: tsumogiri,
        # whatever an arm shows after (the demo clip 2631: the arm drawn back over the row's
        # end read as a tile apart on two frames)
        if len(told) and told[0] + 1 < len(trace) and told[0] - moved[0] <= self.cfg.early_frames:
            if gone[told[0]] and gone[told[0] + 1] and steady[told[0]]:
                return True, True
        if np.any(apart[1:] & apart[:-1] & steady):
            return False, True
        reach = trace[moved[0] : moved[0] + 2] if len(moved) else trace[:0]
        far = bool(np.nanmax(reach) - hold > self.cfg.reach_mm) if np.any(~np.isnan(reach)) else None
        if len(told) and told[0] - moved[0] <= self.cfg.early_frames:
            if gone[told[0]]:
                return True, True
            return bool(far), False  # one frame apart: an arm sweeping past, if it reached far
        return None if far is None else (far, False)

    def _look_at_hand(self, k: Kyoku, e: int, u: np.ndarray, frame: int | None = None) -> bool:
        """One look at a hand's standing tiles (``u`` mm, still or mid-motion). Returns whether a
        drawn tile sits apart at the right. Arms the hand when it does (remembering where the
        row's right end stood); once armed, a look with one tile fewer is the discard in the air:
        a tile still set apart means the tile left from the row (tedashi); an unbroken row still
        ending where it ended means the drawn tile left (tsumogiri). Anything else (a hole, the
        row's end missing: tiles the detector or an arm hid) is no evidence either way."""
        n = len(u)
        apart = drawn_apart(u)
        armed = k.armed[e]
        # an empty row (an arm over all of it) is no look at all
        one_gone = (
            n > 0
            and armed is not None
            and (n == armed - 1 or (k.lift_base[e] is not None and n == k.lift_base[e] - 1))
        )
        if one_gone:
            if apart:
                k.lift_gap[e].append(True)
            elif not row_holes(u, False) and abs(float(u.max()) - k.armed_u[e]) < self.cfg.place_mm:
                k.lift_gap[e].append(False)
        elif apart and (armed is None or n >= armed):
            # (plain on an earlier read: this read's pixel measure may call the row plain where
            # the detections see a tile apart, which must not renew it on every look)
            if armed is None:  # (``frame``: a moving frame's look, dated to itself, not the last read)
                # (not anew after a plain row: set-4 hanchan-jansou-1 14762, a tsumo whose drawn
                # tile merged into the row, then stood apart again as the hand was laid down)
                k.apart_since[e] = self._frame if frame is None else frame
            if n != armed or k.armed_at[e] < k.plain_seen[e] < self._frame:
                # since when it holds this tile apart: not its last look (a gap the detector keeps
                # seeing stays as old as it is), but anew once the row was seen plain between
                k.armed_at[e] = self._frame
            k.armed[e] = n
            k.armed_u[e] = float(np.sort(u)[-2])
        return apart

    def _hand_shapes(self, view: TableView) -> list[tuple[int, bool] | None]:
        """Per edge (None where not trusted): standing tiles seen and whether one sits apart. In
        play, the row's evidence (``_row_evidence``: the pixels' measure where the detections
        leave holes), so a far camera's rows can show a draw taken early too."""
        out: list[tuple[int, bool] | None] = [None] * 4
        k = self.kyoku
        for e in np.nonzero(self._trusted)[0].tolist():
            standing = standing_row(view.where(e, HAND))
            u = standing.u
            apart = drawn_apart(u)
            if k is not None and k.started:
                row = self._row_evidence(k, e, standing, apart)
                out[e] = (row.count, row.apart)
            else:
                out[e] = (len(u), apart)
        return out

    def _note_plain_hands(self, k: Kyoku) -> None:
        """Remember when each hand was last seen just as the record has it (no tile apart)."""
        if self.seat0_edge is None or not k.started:
            return
        for e, shape in enumerate(k.hand_now):
            if shape is None:
                continue
            expected = self._held(k, e)
            if shape == (expected, False):
                k.plain_seen[e] = self._frame

    def _early_draw(self, k: Kyoku, e: int, first_seen: int | None = None) -> int | None:
        """The edge after ``e`` if, as ``e``'s discard is read, that seat already holds a drawn tile
        set apart (one over its record, on this read and the one before, or on the last read that
        saw its hand, its arm over the edge since): its arm took from the wall while the discard
        was still in the air (先摸). A normal draw starts only after the discarder's arm has gone
        back, well after the discard is read. The hand must also have
        been seen as the record has it during this turn (after the discard before): a detector's
        stray tile beside a hand is there before as well. With ``first_seen`` (the read the
        discard was first seen on), the tile must have been held from before that read: first
        seen on the same read, the camera cannot tell which came first. The turn began with the
        discard before, or, for a discard after a call, with the discard the call took
        (t6-suukantsu_0 1850: a hand seen holding one over since before the call, taken for a
        take this turn)."""
        n = (e + 1) % 4
        if self.seat0_edge is None or k.drew[n] or k.after_call == n:
            return None
        if k.last_discard is not None:
            before = k.rivers[k.last_discard[0]][k.last_discard[1]].frame
        else:  # (a call took it: the latest discard read before this one)
            before = max(
                (s.frame for x, river in enumerate(k.rivers) for s in river[: -1 if x == e else None]),
                default=-1,
            )
        if k.plain_seen[n] <= before:
            return None
        expected = self._held(k, n)
        if expected % 3 != 1:
            return None  # not waiting for a draw
        shapes = (k.hand_now[n], k.hand_prev[n])
        # (a drawn tile is usually set apart, but an early one may be held against the row)
        held = all(sh is not None and sh[0] == expected + 1 for sh in shapes)
        # or seen so on its last look, the arm over it since: the drawer's arm still moving as
        # the discard lands (kuikae-jansou-3-k4 406: 14 seen once, then the edge unseen)
        last_look = shapes[0] is None and k.hand_last[n] is not None and k.hand_last[n][0] == expected + 1
        if not (held or last_look):
            return None
        return n if first_seen is None or k.shape_since[n] < first_seen else None

    def _count_hand(self, k: Kyoku, e: int, row: RowEvidence, out: list) -> None:
        """Standing-tile counts for ``hand_count``, at stable moments only: the hand's own edge
        still (the caller reads trusted edges only; any arm reaching for a tile, a draw from
        another side of the wall included, starts at its player's edge and moves it), a row
        without holes (a hole is a tile the detector missed), the same count on ``hand_agree``
        such reads (one, for a row just as the record has it; ``draw_agree`` for the draw of
        the seat whose turn it is). A count the record contradicts needs more: one off only
        (大相公 / 小相公), every tile read with confidence (or the row's measure from the pixels
        agreeing), and the same count over ``hand_contra_frames``. (Whole-table stillness and
        ``hand_agree`` reads for a draw left the draws unreported: a turn at three seconds of play
        a second has one or two such reads.)"""
        count, apart = row.count, row.apart
        expected = self._held(k, e)
        # one standing tile alone is a stray detection, unless the record has one (four melds)
        if row.holes or count < min(2, expected):
            k.hand_run[e], k.hand_seen[e] = 0, None
            return
        may_draw = expected % 3 == 1 and not k.drew[e] and next_to_draw(k, e)
        # a row of 13 and the same with a tile apart differ at the seat waiting to draw; elsewhere
        # a tile apart is a gap in the row and the run of its count goes on (t6-confusing_nakis_2:
        # a staged 小相公's 9, one read with a gap measured in it, started its run again and was
        # said 6 s late)
        seen = k.hand_seen[e]
        if seen == (count, apart) or (seen is not None and seen[0] == count and not may_draw):
            k.hand_run[e] += 1
            k.hand_seen[e] = (count, apart)
        else:
            k.hand_run[e], k.hand_seen[e], k.hand_since[e] = 1, (count, apart), self._frame
        # a tile apart at the right of the hand whose turn it is to draw, or a whole row one tile
        # longer than the record's (the drawn tile set down against the row): the draw, seen as
        # it happens. Only the seat whose turn it is: a take out of turn (先摸, a dead hand) is
        # claimed on firmer evidence, at the discard it beat (``_early_draw``); a count one up
        # now and then beside another seat's turn is a stray detection at the row's end. Not a
        # longer row where this hand's last count said contradicted the record: a hand that kept
        # 14 through its discard (大相公) shows 14 again as its turn comes, and a row counted one
        # long (the detector's noise) would refute a 小相公 being confirmed (the evaluation set's
        # two staged ones were found late so). The row beside a tile apart may be a tile short (a
        # staged 小相公 holding its draw, or a tile the detector missed at the row's left end):
        # still the draw, and the count is then judged against the record after it
        # (a hand said one short, 小相公, shows its draw as a whole row of the record's count:
        # kuikae-jansou-1-k4 1959, 12 said, then 13 at its turn, then its tsumo laid open)
        short_drew = _said_short(k, e) and k.hand_said[e][1] == expected and count == expected
        draw = (
            (apart or (count == expected + 1 and not _said_off_record(k, e)) or short_drew)
            and not k.drew[e]
            and expected % 3 == 1
            and count in (expected, expected + 1)
            and next_to_draw(k, e)
            and not _seen_before_last_discard(k, k.hand_since[e], e)
        )
        # a row as the record has it (no drawn tile apart: no draw to read from it) cannot raise
        # an alert: one still read reports it; a draw needs ``draw_agree`` reads (if more than one,
        # the next is asked for at once: a quick player discards within a second of play of
        # drawing, and the count is wanted while the drawn tile stands); a count off the record
        # ``hand_agree``. A tile apart is a draw only at the seat waiting to draw; elsewhere it is
        # a gap: the drawn tile kept apart through a discard from the row, the place a called
        # pair left (the count after a discard or a pon went unsaid for three reads, the caller's
        # until its discard, on the evaluation set)
        as_record = count == expected and (not (apart or short_drew) or not may_draw)
        # one short again after its discard, as it was said to be before its draw: said at once
        # (t6-double_ron: the 12 after each discard came 1-2 s late, on the 相公's contra reads)
        still_short = _said_short(k, e) and count == expected - 1 and not apart
        need = 1 if as_record or still_short else self.cfg.draw_agree if draw else self.cfg.hand_agree
        if k.hand_run[e] < need:
            if draw:
                self.gate.confirm(self.cfg.confirm_frames)
            return
        if draw:
            k.drew[e], k.drew_at[e] = True, self._frame
            k.pending_count[e] += 1
            expected += 1
            out.append(lambda seat, e=e: ev.WallTake(actor=seat(e)))
            out.append(lambda seat, e=e: ev.Tsumo(actor=seat(e), pai="?"))
        if count != expected and not (draw and short_drew) and not still_short:  # (known short)
            sure = (
                abs(count - expected) == 1
                and row.confidence >= self.cfg.hand_contra_confidence
                and self._frame - k.hand_since[e] >= self.cfg.hand_contra_frames
            )
            if not sure:
                return
        # said again when the record moved under an unchanged row: a hand that keeps 14 through
        # its discard (大相公) had its 14 said while it held its draw
        if k.hand_said[e] != (count, expected):
            k.hand_said[e] = (count, expected)
            out.append(lambda seat, e=e, n=count: ev.HandCount(actor=seat(e), count=min(n, 18)))

    def _row_evidence(
        self, k: Kyoku, e: int, standing: TableView, apart: bool, calibrate: bool = True
    ) -> RowEvidence:
        """Edge ``e``'s standing row on this read: the detections' (``standing``, a tile
        ``apart``), or the row measured from the pixels (``vision.hand_rows``) where the
        detections leave holes or disagree with it: a far camera shows a row as one bar whose
        tiles a detector boxes only a few of. A whole, confident row of detections one tile off
        the measure is kept (the measure's rounding is the likelier slip); a measure more than
        one tile off what the record allows is not used (an arm at rest, a meld beside the row).
        At a fresh deal (every hand 13 until the dealer draws) the measure calibrates its pitch."""
        count = len(standing)
        det = RowEvidence(
            count,
            apart,
            row_holes(standing.u, apart),
            float(standing.confidence.min()) if count else 0.0,
        )
        rows = self._rows_now
        if calibrate and not k.started and not rows.apart[e] and not rows.clipped[e]:
            pitch = pitch_for(float(rows.length[e]), 13)
            if PITCH_RANGE[0] < pitch < PITCH_RANGE[1] and _with_the_others(rows, e):
                self._row_pitches[e] = (self._row_pitches[e] + [pitch])[-ROW_PITCHES_KEPT:]
        elif calibrate and k.started:
            self._calibrate_in_play(k, e, det)
        measured = int(rows.count(self._row_pitch(e))[e])
        if measured < 1:
            return det
        whole = not det.holes and count >= 1  # (a lone tile too: a hand after four melds)
        if whole and count == measured:
            # the boxes and the pixels, two readings apart, count the same: as sure as a row read
            # confidently (t6-rinshan: a staged 小相公's 12, one box at 0.42, waited 6 s for it)
            return det._replace(confidence=1.0)
        if whole and abs(count - measured) == 1 and det.confidence >= 0.9:
            return det
        expected = self._held(k, e) if k.started else 13 + bool(rows.apart[e])
        if abs(measured - expected) > 1 + (expected % 3 == 2):  # (in turn: the drawn tile in the fingers)
            return det
        return RowEvidence(measured, bool(rows.apart[e]), 0, 1.0)

    def _calibrate_in_play(self, k: Kyoku, e: int, det: RowEvidence) -> None:
        """Edge ``e``'s row measured in play at the count the record gives it calibrates its pitch
        where that is within ``IN_PLAY_PITCH_SPREAD`` of the table's (a count off the record,
        小相公 or 大相公, is a tile's pitch off: 7 % over 13).
        - An edge no deal calibrated takes it on the record's word (t6-confusing_nakis_0: the
          dealer, its kyoku started on the draw's first read, had no still read of 13 before
          play; the others' pitch counted its row of 11 as 12 with a tile apart, and every later
          draw of that seat went unread).
        - An edge a deal calibrated takes it where its measure miscounts a row its detections, a
          whole row, count as the record does: a deal's pitch from one or two reads can be a
          tile off (kuikae-jansou-3-k5: the dealer's 14, its draw merged, read once as a row of
          13 at 28.69 mm a tile, counted its 13 in play as 12 and its 10 as 9, a false 小相公;
          hanchan-jansou-1: 25.08 and 27.23, its 13 counted 14, a false 大相公). Only then: a
          pitch that counts right is left alone (calibrating on every agreeing read moved set 7
          t6-ryukyoku's from 26.85 to 26.69 mm, and its 14s with the drawn tile's gap merged,
          14.4 tiles long, counted 15: ten draws unread)."""
        rows = self._rows_now
        expected = self._held(k, e)
        if expected < MIN_CALIBRATION_TILES or expected % 3 != 1 or rows.apart[e] or rows.clipped[e]:
            return
        own = self._row_pitches[e]
        if own and (det.count != expected or det.holes or rows.count(self._row_pitch(e))[e] == expected):
            return
        pitch = pitch_for(float(rows.length[e]), expected)
        table = self._table_pitch()
        if PITCH_RANGE[0] < pitch < PITCH_RANGE[1] and abs(pitch / table - 1) < IN_PLAY_PITCH_SPREAD:
            self._row_pitches[e] = (own + [pitch])[-ROW_PITCHES_KEPT:]

    def _table_pitch(self) -> float:
        """The median of every edge's calibrated pitches (nominal before any)."""
        pooled = [p for ps in self._row_pitches for p in ps]
        return float(np.median(pooled)) if pooled else NOMINAL_PITCH_MM

    def _row_pitch(self, e: int) -> float:
        """mm a standing tile along edge ``e``'s measured row (the median of its calibrations, at
        deals and in play); an edge not calibrated yet takes the other edges' median: a camera
        that stretches rows (by 1-8 % at the evaluation set's tilted and low presets, more at
        the near edges) stretches them all more than the nominal pitch guesses (13.6 nominal
        pitches is a row of 13 there)."""
        own = self._row_pitches[e]
        return float(np.median(own)) if own else self._table_pitch()

    def _note_deal(self, k: Kyoku, rows: dict[int, RowEvidence]) -> None:
        """Each edge's first read of the deal with its row whole at 13 (edge by edge: one row
        misread, a stray tile beside it, on a deal's reads left all four seats unreported
        until the dealer's draw, 145 of set 4's wrong stable moments)."""
        for e, r in rows.items():
            if e not in k.deal_rows and (r.count, r.holes) == (13, 0):
                k.deal_rows[e] = (self._frame, self._t, r.apart)
            elif (r.count, r.holes) == (14, 0):
                k.deal_drew.setdefault(e, self._frame)

    def note_fresh_deal(self, view: TableView, k: Kyoku) -> None:
        """The read that found the fresh deal (every edge still): its rows, for ``deal_counts``
        (the next still read often comes after the dealer drew)."""
        rows = {}
        for e in range(4):
            standing = standing_row(view.where(e, HAND))
            apart = drawn_apart(standing.u)
            rows[e] = self._row_evidence(k, e, standing, apart, calibrate=False)
        self._note_deal(k, rows)

    def deal_counts(self, k: Kyoku, dealer: int, out: list) -> None:
        """At the kyoku's start (its dealer now known): the 13 standing tiles a seat the deal was
        read with, dated to that read (the counts from the deal to the dealer's first draw or
        discard went unreported: 4 % of the evaluation sets' stable moments)."""
        for e, (f, t, apart) in sorted(k.deal_rows.items()):
            if e == dealer and (apart or f > k.deal_drew.get(e, f)):
                continue  # the dealer's 13 with a tile apart, or after its 14: its draw, a tile missed
            out.append(lambda seat, e=e, f=f, t=t: at_frame(ev.HandCount(actor=seat(e), count=13), f, t))

    def _start_on_first_draw(self, k: Kyoku, rows: dict[int, RowEvidence], out: list) -> None:
        """A fresh deal whose first draw is seen: one hand of 14 with its drawn tile apart, three
        of 13, every row whole, on ``deal_draw_agree`` whole-table reads in a row. Only the dealer
        draws before the first discard, so that hand names the dealer: the kyoku starts there
        (its first discard would name the same seat a turn later, and the hands stay uncounted
        until then). A whole row of 14, the drawn tile set down against it, is the draw too
        where the record allows that seat the deal (``_may_deal``): on the evaluation set half
        the dealers' first draws lay so on the one still read before the discard, and every
        whole 14 of a deal's reads was its dealer's."""
        shapes = {e: (r.count, r.apart, r.holes) for e, r in rows.items()}
        set_down = [e for e, sh in shapes.items() if sh == (14, False, 0) and self._may_deal(e)]
        drawn = [e for e, sh in shapes.items() if sh == (14, True, 0)] + set_down
        plain = [e for e, sh in shapes.items() if sh == (13, False, 0)]
        if len(drawn) != 1 or len(plain) != 3:
            self._deal_draw = None
            return
        dealer = drawn[0]
        seen = self._deal_draw if self._deal_draw is not None and self._deal_draw[0] is k else None
        run = seen[2] + 1 if seen is not None and seen[1] == dealer else 1
        self._deal_draw = (k, dealer, run)
        if run < self.cfg.deal_draw_agree:
            self.gate.confirm(self.cfg.confirm_frames)
            return
        if self.seat0_edge is None:
            self.seat0_edge = dealer  # the first dealer is seat 0
        if not self.game_started:  # mjai readers expect the game to open first
            self.game_started = True
            out.append(lambda seat, f=k.frame, t=k.t: at_frame(ev.StartGame(), f, t))
        out.append(self._start_factory(k, dealer))
        self.deal_counts(k, dealer, out)
        k.started = True
        k.drew[dealer], k.drew_at[dealer] = True, self._frame
        k.pending_count[dealer] += 1
        out.append(lambda seat, e=dealer: ev.WallTake(actor=seat(e)))
        out.append(lambda seat, e=dealer: ev.Tsumo(actor=seat(e), pai="?"))
        # the hands as the deal has them (the state learns of this kyoku only once these events
        # are emitted, so ``_count_hand`` cannot judge them on this read)
        for e in range(4):
            n = 14 if e == dealer else 13
            k.hand_said[e] = (n, n)
            out.append(lambda seat, e=e, n=n: ev.HandCount(actor=seat(e), count=n))

    def _held(self, k: Kyoku, e: int) -> int:
        """Standing tiles the record gives edge ``e`` now: the state's count and the change of the
        events this read has made but not yet applied."""
        return self.state.seats[self._seat(e)].hand_count + k.pending_count[e]

    def _may_deal(self, e: int) -> bool:
        """Edge ``e`` may deal this kyoku: its seat kept the deal or is the next to take it; any
        seat at the video's first (no kyoku seen before it)."""
        if self.seat0_edge is None or self.last_round is None:
            return True
        number = self.last_round[1]  # the last kyoku's dealer is seat number - 1
        return self._seat(e) in (number - 1, number % 4)

    def _read_hands(self, view: TableView, k: Kyoku, out: list) -> None:
        opened = {}
        rows: dict[int, RowEvidence] = {}
        for e in np.nonzero(self._trusted)[0].tolist():
            hand = view.where(e, HAND)
            up = hand.select(hand.face_up)
            if len(up) >= self.cfg.open_hand_min:
                opened[e] = self._open_hand(up)
                continue
            standing = standing_row(hand)
            apart = self._look_at_hand(k, e, standing.u)
            rows[e] = self._row_evidence(k, e, standing, apart)
            self._note_row_end(k, e)
        if not k.started:
            if not opened:
                self._note_deal(k, rows)
            if not opened and len(rows) == 4:
                self._start_on_first_draw(k, rows, out)
        elif k.started:
            for e, row in rows.items():
                self._count_hand(k, e, row, out)
        if not opened or not k.started:
            return
        k.ended = True
        # an indicator turned for a kan not read yet still belongs to this kyoku (set 8
        # t6-suukantsu_0: the fourth kan's, turned 107 frames before the win, waited for a kan
        # read as a pon)
        self._flush_dora(k, out, ending=True)
        groups = [len({m.group for m in k.melds[e]}) for e in range(4)]
        discards = sum(len(river) for river in k.rivers)
        wall_backs = int(view.select(view.zone == WALL).back.sum())
        codes_by_edge = {e: hand.codes for e, hand in opened.items()}
        result = judge_result(codes_by_edge, groups, self.state.live_wall, wall_backs, discards)
        if result.kind == "ryukyoku":

            def draw(seat, reason=result.reason):
                by_seat: list = [None] * 4
                unsure: list = [None] * 4
                for edge, hand in opened.items():
                    by_seat[seat(edge)], unsure[seat(edge)] = hand.codes, hand.unsure
                return ev.Ryukyoku(reason=reason, hands=by_seat, hands_unsure=unsure)

            out.append(draw)
            k.result = "ryukyoku"
            return
        k.result = "hora"
        for e in result.winners:
            self._win(k, e, opened[e], out)

    def _open_hand(self, up: TableView) -> OpenHand:
        """A hand laid open, read left to right, one detection a place (a hand read as it is laid
        down boxes tiles twice: t6-confusing_nakis_6's tenpai 13 at a draw read 16 and 19, a win):
        its codes and which of them were read unsurely."""
        up = one_per_place(up)
        ordered = up.select(np.argsort(up.u))
        codes = [self._code(int(c)) for c in ordered.class_ids.tolist()]
        unsure = np.nonzero(ordered.confidence < self.cfg.open_hand_confidence)[0].tolist()
        return OpenHand(codes, unsure)

    def _win(self, k: Kyoku, e: int, hand: OpenHand, out: list) -> None:
        """Edge ``e`` won with ``hand`` laid open: on another's kakan (chankan: the kan's
        replacement draw never came), on the last discard (ron), or on its own draw (tsumo,
        rinshan kaihou after its own kan included)."""
        k.winners.add(e)
        # a drawn tile seen in the winner's hand (its draw read, or a tile set apart in the hand
        # of the seat whose turn it is to draw) makes it tsumo; a gap in another seat's short
        # hand is the detector's, not a draw
        drew = self._holds_draw(k, e)
        if k.drew[e] and not drew:
            # a draw said, but it was the hand being laid down (``_holds_draw``): taken back
            k.drew[e] = False
            out.append(
                lambda seat, e=e, f=k.drew_at[e]: ev.Retract(
                    target_type="tsumo", target_frame=f, actor=seat(e), reason="the hand laid down, no draw"
                )
            )
        if k.last_kakan is not None and k.last_kakan[0] != e and not drew:
            src, pai, frame = k.last_kakan
            if k.ron_on is None:  # (a second winner on the same kakan: retracted once)
                out.append(self._no_replacement(src, frame))
            k.ron_on, k.ron_at = (src, pai), self._frame
            out.append(
                lambda seat, e=e, s=src, p=pai, h=hand: ev.Hora(
                    actor=seat(e), target=seat(s), pai=p, hand=h.codes, hand_unsure=h.unsure
                )
            )
            return
        ron = k.last_discard is not None and k.last_discard[0] != e and k.last_actor != e and not drew
        if ron:
            src_edge, src_index = k.last_discard
            pai = pick_code(k.rivers[src_edge][src_index].votes)
            k.ron_on, k.ron_at = (src_edge, pai), self._frame
            out.append(
                lambda seat, e=e, s=src_edge, p=pai, h=hand: ev.Hora(
                    actor=seat(e), target=seat(s), pai=p, hand=h.codes, hand_unsure=h.unsure
                )
            )
        elif _discarded_last(k, e) and not drew:
            # its discard was the last play read and it drew nothing since: no tsumo, and no ron
            # on its own tile. It won on what the next seat did that the camera missed (a kakan
            # robbed, a discard), the tile unknown. (After its own kan, a win on the replacement
            # tile is a tsumo: rinshan kaihou.)
            out.append(
                lambda seat, e=e, h=hand: ev.Hora(
                    actor=seat(e), target=seat((e + 1) % 4), hand=h.codes, hand_unsure=h.unsure
                )
            )
        else:
            out.append(
                lambda seat, e=e, h=hand: ev.Hora(
                    actor=seat(e), target=seat(e), hand=h.codes, hand_unsure=h.unsure
                )
            )

    @staticmethod
    def _armed_before_last_discard(k: Kyoku, e: int) -> bool:
        """A tile seen apart in ``e``'s row before the last discard was read is no draw of this
        turn: a draw starts after the discard lands. (A ron by the next seat was read as tsumo on
        such a look: a stray detection at the row's end, or a row mid-motion, armed it earlier.)"""
        return _seen_before_last_discard(k, k.armed_at[e], e)

    def _holds_draw(self, k: Kyoku, e: int) -> bool:
        """Does edge ``e`` hold a tile it drew (its draw read, or a tile set apart in its row when
        it is its turn to play: to draw, or to discard after its call)? Asked as its hand lies
        open: a tile apart first seen just before, or a draw said on the read that said the
        discard before it (``_draw_read_as_laid_down``), is the hand being laid down."""
        if k.drew[e]:
            return not self._draw_read_as_laid_down(k, e)
        return (
            k.armed[e] is not None
            and in_turn(k, e)
            and not self._armed_before_last_discard(k, e)
            and not _seen_plain_since_armed(k, e)
            and self._frame - k.apart_since[e] > self.cfg.hand_opening_frames
        )

    def _draw_read_as_laid_down(self, k: Kyoku, e: int) -> bool:
        """Was ``e``'s draw said on the very read that said the discard before it, and its hand
        laid open at most ``hand_opening_frames`` later? A draw takes an arm to the wall and back
        after the discard lands; a tile apart that soon is the hand being laid down to win on
        that discard. (Time alone does not tell: t6-ranked_game's ron showed its "draw" 4 frames
        before the hand lay open, a tsumo of the same clip 5, 12 frames after its discard.)"""
        if not k.drew[e] or k.last_discard is None or k.last_discard[0] == e:
            return False
        discard = k.rivers[k.last_discard[0]][k.last_discard[1]]
        return k.drew_at[e] <= discard.frame and self._frame - k.drew_at[e] <= self.cfg.hand_opening_frames

    @staticmethod
    def _no_replacement(src: int, frame: int) -> EventFactory:
        return lambda seat: ev.Retract(
            target_type="tsumo",
            target_frame=frame,
            actor=seat(src),
            reason="kakan robbed (chankan): no replacement draw",
        )

    def _read_more_rons(self, view: TableView, k: Kyoku, out: list) -> None:
        """After a ron, another hand laid open as a winning one (double ron) within
        ``second_ron_frames`` won on the same tile."""
        src, pai = k.ron_on
        if self._frame - k.ron_at > self.cfg.second_ron_frames:
            return  # (hands shown later are the others' at the table's clearing)
        for e in np.nonzero(self._trusted)[0].tolist():
            if e in k.winners or e == src:
                continue
            hand = view.where(e, HAND)
            up = hand.select(hand.face_up)
            groups = len({m.group for m in k.melds[e]})
            if len(up) < self.cfg.open_hand_min:
                continue
            laid = self._open_hand(up)
            if shown_count(laid.codes, groups) < WINNING_COUNT:
                # (a winner's 14 read long, 18 on t6-suukantsu_1, still is one; a tenpai hand of
                # 13 shown by a loser is not)
                continue
            k.winners.add(e)
            out.append(
                lambda seat, e=e, h=laid: ev.Hora(
                    actor=seat(e), target=seat(src), pai=pai, hand=h.codes, hand_unsure=h.unsure
                )
            )


def _with_the_others(rows: HandRows, e: int, spread: float = 0.06) -> bool:
    """Is edge ``e``'s row as long as the others' on this deal read, within ``spread``? Where
    three or more rows are measured whole, a row much longer is the dealer's 14 with its drawn
    tile merged into the bar (7 % and more over a row of 13), not a row of 13 to calibrate on;
    rows nearer a tilted camera measured up to 3 % over the median on the evaluation set."""
    whole = ~rows.clipped & ~rows.apart & np.isfinite(rows.length)
    if whole.sum() < 3:
        return True
    return bool(rows.length[e] <= (1 + spread) * float(np.median(rows.length[whole])))


def _said_off_record(k: Kyoku, e: int) -> bool:
    """Did the last count said of edge ``e``'s hand contradict the record (大相公 / 小相公 being
    confirmed by the checker)?"""
    said = k.hand_said[e]
    return said is not None and said[0] != said[1]


def _said_short(k: Kyoku, e: int) -> bool:
    """Was the last count said of edge ``e``'s hand one short of the record (小相公)?"""
    said = k.hand_said[e]
    return said is not None and said[0] == said[1] - 1


def _discarded_last(k: Kyoku, e: int) -> bool:
    """Was edge ``e``'s discard the last play read (no call, kan or other discard since)?"""
    return k.last_actor == e and k.after_call != e and k.last_discard is not None and k.last_discard[0] == e


def _seen_plain_since_armed(k: Kyoku, e: int) -> bool:
    """Was edge ``e``'s row seen plain (as the record has it, no tile apart) after it was last
    seen holding a tile apart? Then that tile apart was a gap, not a draw it holds (set 8
    kuikae-jansou-1-k0 1263, low camera: a tile apart since 1204 through two discards, re-armed
    by a count change on the read of the 3m, plain on the next read, the hand laid open on that
    3m: a ron read as a tsumo)."""
    return k.plain_seen[e] > k.armed_at[e]


def _seen_before_last_discard(k: Kyoku, frame: int | None, e: int) -> bool:
    """Was a look at edge ``e``'s row taken at ``frame`` before the last discard (another
    seat's) was read? A tile apart seen then is no draw of the turn that discard began: a gap
    the detector keeps seeing in a row, or a row mid-motion (hanchan-jansou-0: a row of 7 showed
    a tile apart for 35 frames before its kamicha's discard, then laid its ron open; the draw
    read on the discard's read made it a tsumo). A tile apart first seen on the very read that
    confirms the discard still counts as a draw: on the evaluation set that was a real one once
    (kuikae-jansou-2-k7, the discard read 14 frames late) and a ron's hand once
    (t6-confusing_nakis_7); measured both ways, 77 of 85 results either way. So does one first
    seen on the read the discard was first seen on: which came first cannot be told, and the
    early draw (先摸) is not claimed then either (``_early_draw``)."""
    if frame is None or k.last_discard is None or k.last_discard[0] == e:
        return False
    slot = k.rivers[k.last_discard[0]][k.last_discard[1]]
    return frame < slot.seen_from
