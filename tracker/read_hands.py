"""Reading the hands: standing rows (counts at still moments, the looks mid-discard that tell
tsumogiri, a draw taken early) and hands laid open (hora, ryukyoku; chankan, double ron).
A mixin of ``tracker.tracker.TableTracker`` (its state, config and emitting)."""

from __future__ import annotations

import numpy as np

from tracker import events as ev
from tracker.kyoku import EventFactory, Kyoku
from tracker.readings import drawn_apart, pick_code, row_holes, standing_row
from tracker.zones import HAND, TableView, assign


class HandReader:
    def _watch_lift(self, image: np.ndarray, frame: int, activity: np.ndarray) -> None:
        """While an arm moves over a hand that holds a drawn tile (or the hand of the seat whose
        draw comes next: a quick player draws and discards with no still moment between), read
        that hand now and then: the moment one tile is gone tells tsumogiri (the set-apart tile
        left) from tedashi (it stayed)."""
        k = self.kyoku
        if k is None:
            return
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
            self._look_at_hand(k, e, standing.u)

    def _look_at_hand(self, k: Kyoku, e: int, u: np.ndarray) -> bool:
        """One look at a hand's standing tiles (``u`` mm, still or mid-motion). Returns whether a
        drawn tile sits apart at the right. Arms the hand when it does (remembering where the
        row's right end stood); once armed, a look with one tile fewer is the discard in the air:
        a tile still set apart means the tile left from the row (tedashi); an unbroken row still
        ending where it ended means the drawn tile left (tsumogiri). Anything else (a hole, the
        row's end missing: tiles the detector or an arm hid) is no evidence either way."""
        n = len(u)
        apart = n >= 2 and drawn_apart(u)
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
            k.armed[e] = n
            k.armed_u[e] = float(np.sort(u)[-2])
        return apart

    def _hand_shapes(self, view: TableView) -> list[tuple[int, bool] | None]:
        """Per edge (None where not trusted): standing tiles seen and whether one sits apart."""
        out: list[tuple[int, bool] | None] = [None] * 4
        for e in np.nonzero(self._trusted)[0].tolist():
            hand = view.where(e, HAND)
            u = standing_row(hand).u
            out[e] = (len(u), len(u) >= 2 and drawn_apart(u))
        return out

    def _note_plain_hands(self, k: Kyoku) -> None:
        """Remember when each hand was last seen just as the record has it (no tile apart)."""
        if self.seat0_edge is None or not k.started:
            return
        for e, shape in enumerate(k.hand_now):
            if shape is None:
                continue
            expected = self.state.seats[self._seat(e)].hand_count + k.pending_count[e]
            if shape == (expected, False):
                k.plain_seen[e] = self._frame

    def _early_draw(self, k: Kyoku, e: int) -> int | None:
        """The edge after ``e`` if, as ``e``'s discard is read, that seat already holds a drawn tile
        set apart (one over its record, on this read and the one before): its arm took from the
        wall while the discard was still in the air (先摸). A normal draw starts only after the
        discarder's arm has gone back, well after the discard is read. The hand must also have
        been seen as the record has it during this turn (after the discard before): a detector's
        stray tile beside a hand is there before as well."""
        n = (e + 1) % 4
        if self.seat0_edge is None or k.drew[n] or k.after_call == n:
            return None
        before = k.rivers[k.last_discard[0]][k.last_discard[1]].frame if k.last_discard else -1
        if k.plain_seen[n] <= before:
            return None
        expected = self.state.seats[self._seat(n)].hand_count + k.pending_count[n]
        if expected % 3 != 1:
            return None  # not waiting for a draw
        shapes = (k.hand_now[n], k.hand_prev[n])
        if all(sh is not None and sh == (expected + 1, True) for sh in shapes):
            return n
        return None

    def _count_hand(self, k: Kyoku, e: int, standing: TableView, apart: bool, out: list) -> None:
        """Standing-tile counts for ``hand_count``, at genuinely stable moments only: the whole
        table still (no arm anywhere: a draw from another side of the wall is an arm too), a row
        without holes (a hole is a tile the detector missed), the same count on ``hand_agree``
        such reads (one, for a row just as the record has it). A count the record contradicts
        needs more: one off only (大相公 / 小相公), every tile read with confidence, and the same
        count over ``hand_contra_frames``."""
        count = len(standing)
        if not self._trusted.all():
            return  # not a stable moment: neither evidence for nor against
        if row_holes(standing.u, apart) or count < 2:
            k.hand_run[e], k.hand_seen[e] = 0, None
            return
        if k.hand_seen[e] == count:
            k.hand_run[e] += 1
        else:
            k.hand_run[e], k.hand_seen[e], k.hand_since[e] = 1, count, self._frame
        expected = self.state.seats[self._seat(e)].hand_count + k.pending_count[e]
        # a row as the record has it (no drawn tile apart: no draw to read from it) cannot raise
        # an alert: one still read reports it; a draw seen or a count off the record needs
        # ``hand_agree`` of them
        if k.hand_run[e] < (1 if count == expected and not apart else self.cfg.hand_agree):
            return
        if count == expected + 1 and apart and not k.drew[e] and k.after_call != e and expected % 3 == 1:
            # a tile came into the hand from the wall and sits apart at the right: the draw,
            # seen as it happens (a count one up alone is too often the detector's noise)
            k.drew[e] = True
            k.pending_count[e] += 1
            expected += 1
            out.append(lambda seat, e=e: ev.WallTake(actor=seat(e)))
            out.append(lambda seat, e=e: ev.Tsumo(actor=seat(e), pai="?"))
        if count != expected:
            sure = (
                abs(count - expected) == 1
                and float(standing.confidence.min()) >= self.cfg.hand_contra_confidence
                and self._frame - k.hand_since[e] >= self.cfg.hand_contra_frames
            )
            if not sure:
                return
        if k.hand_said[e] != count:
            k.hand_said[e] = count
            out.append(lambda seat, e=e, n=count: ev.HandCount(actor=seat(e), count=min(n, 18)))

    def _read_hands(self, view: TableView, k: Kyoku, out: list) -> None:
        opened = {}
        for e in np.nonzero(self._trusted)[0].tolist():
            hand = view.where(e, HAND)
            up = hand.select(hand.face_up)
            if len(up) >= self.cfg.open_hand_min:
                opened[e] = [self._code(int(c)) for c in up.select(np.argsort(up.u)).class_ids.tolist()]
                continue
            standing = standing_row(hand)
            apart = self._look_at_hand(k, e, standing.u)
            if k.started:
                self._count_hand(k, e, standing, apart, out)
        if not opened or not k.started:
            return
        k.ended = True
        # a winning hand laid open holds 14 tiles counting each meld as 3 (the ron tile included);
        # a tenpai hand shown at a draw holds 13
        groups = [len({m.group for m in k.melds[e]}) for e in range(4)]
        winners = {e: c for e, c in opened.items() if (len(c) + 3 * groups[e]) % 3 == 2}
        if not winners:
            hands: list = [None] * 4
            for e, codes in opened.items():
                hands[e] = codes

            def draw(seat, hands=hands):
                by_seat: list = [None] * 4
                for edge, codes in enumerate(hands):
                    if codes is not None:
                        by_seat[seat(edge)] = codes
                return ev.Ryukyoku(reason="exhaustive", hands=by_seat)

            out.append(draw)
            k.result = "ryukyoku"
            return
        k.result = "hora"
        for e, codes in winners.items():
            self._win(k, e, codes, out)

    def _win(self, k: Kyoku, e: int, codes: list[str], out: list) -> None:
        """Edge ``e`` won with ``codes`` laid open: on another's kakan (chankan: the kan's
        replacement draw never came), on the last discard (ron), or on its own draw (tsumo,
        rinshan kaihou after its own kan included)."""
        k.winners.add(e)
        # a drawn tile seen in the winner's hand (set apart, or its draw read) makes it tsumo
        drew = k.drew[e] or k.armed[e] is not None
        if k.last_kakan is not None and k.last_kakan[0] != e and not drew:
            src, pai, frame = k.last_kakan
            if k.ron_on is None:  # (a second winner on the same kakan: retracted once)
                out.append(self._no_replacement(src, frame))
            k.ron_on = (src, pai)
            out.append(
                lambda seat, e=e, s=src, p=pai, h=codes: ev.Hora(actor=seat(e), target=seat(s), pai=p, hand=h)
            )
            return
        ron = k.last_discard is not None and k.last_discard[0] != e and k.last_actor != e and not drew
        if ron:
            src_edge, src_index = k.last_discard
            pai = pick_code(k.rivers[src_edge][src_index].votes)
            k.ron_on = (src_edge, pai)
            out.append(
                lambda seat, e=e, s=src_edge, p=pai, h=codes: ev.Hora(
                    actor=seat(e), target=seat(s), pai=p, hand=h
                )
            )
        else:
            out.append(lambda seat, e=e, h=codes: ev.Hora(actor=seat(e), target=seat(e), hand=h))

    @staticmethod
    def _no_replacement(src: int, frame: int) -> EventFactory:
        return lambda seat: ev.Retract(
            target_type="tsumo",
            target_frame=frame,
            actor=seat(src),
            reason="kakan robbed (chankan): no replacement draw",
        )

    def _read_more_rons(self, view: TableView, k: Kyoku, out: list) -> None:
        """After a ron, another hand laid open as a winning one (double ron) won on the same tile."""
        src, pai = k.ron_on
        for e in np.nonzero(self._trusted)[0].tolist():
            if e in k.winners or e == src:
                continue
            hand = view.where(e, HAND)
            up = hand.select(hand.face_up)
            groups = len({m.group for m in k.melds[e]})
            if len(up) < self.cfg.open_hand_min or (len(up) + 3 * groups) % 3 != 2:
                continue
            codes = [self._code(int(c)) for c in up.select(np.argsort(up.u)).class_ids.tolist()]
            k.winners.add(e)
            out.append(lambda seat, e=e, h=codes: ev.Hora(actor=seat(e), target=seat(src), pai=pai, hand=h))
