"""Reading the rivers: discards (slot, sideways, the riichi declaration, tsumogiri from the hand
looks), their retraction, the kyoku's start and round; riichi sticks.
A mixin of ``tracker.tracker.TableTracker`` (its state, config and emitting)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from tracker import events as ev
from tracker import tiles
from tracker.copies import Look, within_four
from tracker.kyoku import EventFactory, Kyoku, Slot, at_frame, disarm, give_back_discard, take_back_discard
from tracker.melds import WIDE_GAP_MM, seen_before
from tracker.readings import TILE_H, TILE_W, one_per_tile, pick_code
from tracker.table.layout import RIVER_ROW
from tracker.zones import RIVER, TableView


class RiverReader:
    def _read_rivers(self, view: TableView, k: Kyoku, out: list) -> None:
        for e in np.nonzero(self._trusted)[0].tolist():
            obs = view.where(e, RIVER)
            obs = obs.select(obs.face_up)  # discards lie face up: a back or standing tile here is noise
            obs, doubled = one_per_tile(obs)
            turns = self._turns(obs, doubled)
            river = k.rivers[e]
            present = [i for i, s in enumerate(river) if s.present]
            fresh = np.ones(len(obs), bool)
            if present and len(obs):
                su = np.array([river[i].u for i in present])
                sv = np.array([river[i].v for i in present])
                d = np.hypot(obs.u[:, None] - su[None], obs.v[:, None] - sv[None])
                near = d.min(axis=1) < self.cfg.match_mm
                fresh = ~near
                for j in np.nonzero(near)[0]:
                    slot = river[present[int(d[j].argmin())]]
                    # votes weigh by the detector's confidence: low-confidence codes are often wrong
                    slot.votes[self._code(int(obs.class_ids[j]))] += float(obs.confidence[j])
                    slot.looks.add(self._look(obs, int(j)))
                    # its place: the mean of the box it was confirmed at and every read's since
                    # (boxes wander from read to read: 3-6 mm on a far river, t6-four_reach)
                    sightings = slot.looks.n + 1
                    slot.u += (float(obs.u[j]) - slot.u) / sightings
                    slot.v += (float(obs.v[j]) - slot.v) / sightings
                    if turns[j] is True:
                        slot.sideways_reads += 1
                    elif turns[j] is False:
                        slot.upright_reads += 1
                # a box lying on a tile, off its centre, is a sighting of it (no vote: a look
                # that far off may be half the tile beside it)
                on = self._overlapping(river, obs, d) & fresh
                seen = {present[int(i)] for i in d.argmin(axis=1)[near | on]}
            else:
                on = np.zeros(len(obs), bool)
                seen = set()
            self._review(k, e, [i for i in present if i not in seen], [i for i in present if i in seen], out)
            if len(k.river_ghosts[e]):
                # (judged on every box not on a known tile: a ghost boxed onto its tile is still seen)
                fresh &= ~self._ghostly(k, e, obs, fresh)
            fresh &= ~on
            new = obs.select(fresh)
            new_turns = [t for t, f in zip(turns, fresh.tolist()) if f]
            confirmed, waiting = [], []
            for j in range(len(new)):
                u, v = float(new.u[j]), float(new.v[j])
                code = self._code(int(new.class_ids[j]))
                hit = next(
                    (
                        c
                        for c in k.cand_river[e]
                        if abs(c[0] - u) < self.cfg.match_mm and abs(c[1] - v) < self.cfg.match_mm
                    ),
                    None,
                )
                weight = float(new.confidence[j])
                if hit is None:
                    waiting.append((u, v, Counter({code: weight}), new_turns[j], self._frame))
                else:
                    hit[2][code] += weight
                    confirmed.append((j, hit))
            # a tile seen once that left before it could be confirmed: a discard called at once
            hits = {id(c[2]) for j, c in confirmed}
            gone = [c for c in k.cand_river[e] if id(c[2]) not in hits]
            k.vanished = [x for x in k.vanished if self._frame - x[1] <= self.cfg.vanished_frames]
            k.vanished += [(e, self._frame, c) for c in gone]
            k.cand_river[e] = waiting
            if waiting:
                self.gate.confirm(self.cfg.confirm_frames)
            if not confirmed:
                continue
            # tiles taken back as gone and seen again first (rows from the player, left to right)
            confirmed.sort(key=lambda c: (-round(float(new.v[c[0]]) / TILE_H), float(new.u[c[0]])))
            confirmed = [
                (j, cand)
                for j, cand in confirmed
                if not self._seen_again(k, e, float(new.u[j]), float(new.v[j]), cand[2], out)
            ]
            if len(confirmed) > 1:
                # a seat discards once a turn and others play between: several new tiles in one
                # river on one read are its discard and boxes of tiles beside it (every such read
                # of the evaluation set held at most one discard). The discard lies where the
                # river goes on; the others are ghosts while their boxes last
                place = next_place(k.rivers[e])
                at = np.array([[new.u[j], new.v[j]] for j, _ in confirmed], np.float64)
                best = (
                    int(np.hypot(*(at - place).T).argmin())
                    if place is not None
                    else 0  # a river's first discard: its first place
                )
                boxes = np.delete(at, best, axis=0)
                born = np.full((len(boxes), 1), float(self._frame))
                k.river_ghosts[e] = np.concatenate([k.river_ghosts[e], np.hstack([boxes, born])])
                confirmed = [confirmed[best]]
            for j, cand in confirmed:
                u, v = float(new.u[j]), float(new.v[j])
                self._discard(k, e, u, v, [cand[3], new_turns[j]], out, cand[2], first_seen=cand[4])
        self._four_copies(k, out)

    def _look(self, obs: TableView, j: int) -> Look:
        return Look(
            self._code(int(obs.class_ids[j])),
            float(obs.confidence[j]),
            self._code(int(obs.runner_up[j])) if obs.runner_up[j] >= 0 else tiles.UNKNOWN,
            float(obs.runner_up_confidence[j]),
        )

    def _four_copies(self, k: Kyoku, out: list) -> None:
        """River reads that put a fifth copy of a kind on the table read as their runner-up
        (``tracker.copies``), corrected in the record; a read no longer overruled goes back to
        its votes' face."""
        placed = [(e, slot) for e in range(4) for slot in k.rivers[e] if slot.present]
        if not placed:
            return
        elsewhere = Counter(m.code for melds in k.melds for m in melds)
        elsewhere.update(k.dora)
        picks = [pick_code(slot.votes) for _, slot in placed]
        read = within_four(
            picks,
            [slot.looks for _, slot in placed],
            elsewhere,
            self.cfg.copies_max_loss,
            held=[slot.overruled for _, slot in placed],
        )
        for (e, slot), pick, now in zip(placed, picks, read, strict=True):
            was, slot.overruled = slot.overruled, (now if now != pick else None)
            if slot.overruled is not None:
                say, fifth, reason = now, tiles.deaka(pick), "a fifth copy on the table"
            elif was is not None and slot.said == was:
                say, fifth, reason = pick, None, "no fifth copy on the table"  # (else ``_review`` decides)
            else:
                continue
            if say != slot.said:
                out.append(
                    lambda seat, s=slot, c=say, x=fifth, r=reason, a=e: ev.Retract(
                        target_type="dahai",
                        target_frame=s.frame,
                        actor=seat(a),
                        pai=c,
                        fifth_copy=x,
                        reason=r,
                    )
                )
                slot.said = say

    def _overlapping(self, river: list[Slot], obs: TableView, d: np.ndarray) -> np.ndarray:
        """Which boxes lie on a tile of the river (``d``: their distances to its present tiles),
        closer than ``OVERLAP`` of a tile's width, away from where the river goes on: that
        tile boxed off-centre, not a new discard (t6-ranked_game 1985: a tile's box 15 mm off,
        taken for a discard a call then took from the wrong seat). Where the river goes on a
        new discard may be boxed toward its neighbour, and a tile taken back as gone may be seen
        again off its centre: never one of these."""
        at_place = _where_river_goes_on(river, obs, self.cfg.match_mm)
        lost = np.array([(s.u, s.v) for s in river if not s.present and s.lost_at is not None]).reshape(-1, 2)
        at_lost = seen_before(obs.u, obs.v, lost, self.cfg.match_mm)
        return (d.min(axis=1) < OVERLAP * TILE_W) & ~at_place & ~at_lost

    def _ghostly(self, k: Kyoku, e: int, obs: TableView, fresh: np.ndarray) -> np.ndarray:
        """Which of a river's new tiles (``fresh``) are ghosts' boxes seen again; keeps the ghosts
        still seen so (for ``ghost_frames`` at most). A tile where the river goes on (within half
        of ``match_mm``: discards land a tile's width apart) is never a ghost's: a discard may
        land beside one."""
        ghosts = k.river_ghosts[e]
        ghosts = ghosts[self._frame - ghosts[:, 2] <= self.cfg.ghost_frames]
        at_place = _where_river_goes_on(k.rivers[e], obs, self.cfg.match_mm / 2)
        boxes = fresh & ~at_place
        near = seen_before(obs.u, obs.v, ghosts[:, :2], self.cfg.match_mm) & boxes
        kept = seen_before(ghosts[:, 0], ghosts[:, 1], obs.select(boxes).uv, self.cfg.match_mm)
        k.river_ghosts[e] = ghosts[kept]  # a ghost lasts while its box does
        return near

    def _seen_again(self, k: Kyoku, e: int, u: float, v: float, votes: Counter, out: list) -> bool:
        """A tile confirmed where a discard taken back as gone lay, read as the same kind, within
        ``seen_again_frames``: that discard, missed for a while (a far river's tile the detector
        loses on some reads), not a new one. Its retraction is taken back; no turn is read from
        it. (A tile taken back with the riichi it made is read anew: a new discard.)"""
        code = tiles.deaka(pick_code(votes))
        for slot in k.rivers[e]:
            if (
                slot.lost_at is not None
                and self._frame - slot.lost_at <= self.cfg.seen_again_frames
                and abs(slot.u - u) < self.cfg.match_mm
                and abs(slot.v - v) < self.cfg.match_mm
                and code != tiles.UNKNOWN
                and _read_as_before(slot.votes, code)
                # (a retraction is named by its read and seat: two taken back on one read are not
                # told apart, so neither is restored)
                and sum(s.lost_at == slot.lost_at for s in k.rivers[e]) == 1
            ):
                slot.present, slot.misses, slot.votes = True, 0, slot.votes + votes
                give_back_discard(k, slot, e, out, "tile seen again")
                return True
        return False

    def _turns(self, obs: TableView, doubled: np.ndarray) -> list[bool | None]:
        """How each river tile lies on this read: True sideways (its angle says so and its box
        has no upright tile's shape), False upright (its angle says so, its box has an upright
        tile's shape and its face was read with confidence: a sideways tile the detector struggles
        with is read upright at low confidence, and the angle of a face that looks the same turned,
        1p or 4p, is a guess the box's shape can veto), None unknown (seen twice, or the looks
        disagree)."""
        sure = obs.confidence >= self.cfg.orientation_confidence
        seen_once = ~np.asarray(doubled, bool)
        turns = np.full(len(obs), None, dtype=object)
        turns[seen_once & obs.sideways & ~obs.tall] = True
        turns[seen_once & ~obs.sideways & obs.tall & sure] = False
        return turns.tolist()

    def _review(self, k: Kyoku, e: int, missed: list[int], seen: list[int], out: list) -> None:
        """Retract what later reads contradict: a discard whose tile left the river with no call
        taking it, or whose tile reads differently on most later looks."""
        river = k.rivers[e]
        for i in seen:
            slot = river[i]
            slot.misses = 0
            self._recant_reach(k, e, slot, out)
            best = pick_code(slot.votes)
            if (
                slot.overruled is None  # (``_four_copies`` decides an overruled read)
                and best != slot.said
                and slot.votes[best] >= self.cfg.retract_after * 0.5
                and slot.votes[best] > 2 * slot.votes[slot.said]
            ):
                out.append(
                    lambda seat, s=slot, c=best: ev.Retract(
                        target_type="dahai", target_frame=s.frame, actor=seat(e), pai=c, reason="tile reread"
                    )
                )
                slot.said = best
        if len(missed) >= _SWEPT_TILES and len(missed) >= _SWEPT_SHARE * (len(missed) + len(seen)):
            # the river gone at once (but a stray box on a tile or two) is the table cleared at
            # the kyoku's end (a draw nobody showed a hand at), not misreads: left for
            # ``_cleared`` to end the kyoku on the whole table (set 8 hanchan-jansou-2 17942:
            # every discard of the kyoku taken back as gone, the next kyoku's read as its own)
            return
        for i in missed:
            slot = river[i]
            slot.misses += 1
            # the last discard may be on its way into a meld: give the call time to be read
            patience = self.cfg.retract_after * (3 if k.last_discard == (e, i) else 1)
            if slot.misses >= patience:
                slot.present = False
                take_back_discard(k, slot, e, out, "no such tile in the river")
                # a riichi read from a tile that was never there (a stray sideways box): none,
                # unless a stick was seen at the seat
                if slot.declared and not k.stick_seen[e]:
                    self._unwind_reach(k, e, slot, out, "declaration tile gone")
                else:  # (a riichi taken back with it is not restored: seen again, it is read anew)
                    slot.lost_at = self._frame

    def _recant_reach(self, k: Kyoku, e: int, slot: Slot, out: list) -> None:
        """A riichi read from a sideways discard, taken back: later reads see that tile upright by
        ``reach_recant_margin`` and no riichi stick has been seen at the seat (a far camera turns
        a tile on a read or two; a real riichi puts its stick down)."""
        if not slot.declared or k.stick_seen[e]:
            return
        if slot.upright_reads < slot.sideways_reads + self.cfg.reach_recant_margin:
            return
        self._unwind_reach(k, e, slot, out, "declaration tile reread upright")

    def _unwind_reach(self, k: Kyoku, e: int, slot: Slot, out: list, reason: str) -> None:
        """Take back the riichi ``slot``'s sideways read made, and its acceptance if read."""
        slot.declared = False
        k.riichi.discard(e)
        out.append(
            lambda seat, f=slot.frame: ev.Retract(
                target_type="reach", target_frame=f, actor=seat(e), reason=reason
            )
        )
        if k.reach_pending == e:
            k.reach_pending = None
        elif k.accepted_at[e] is not None:
            out.append(
                lambda seat, f=k.accepted_at[e]: ev.Retract(
                    target_type="reach_accepted", target_frame=f, actor=seat(e), reason="no riichi"
                )
            )
        k.accepted_at[e] = None

    def _discard(
        self,
        k: Kyoku,
        e: int,
        u: float,
        v: float,
        turns: list[bool | None],
        out: list,
        votes: Counter,
        first_seen: int | None = None,
    ) -> None:
        """A discard at (u, v) mm, read ``turns`` (lying sideways on each read so far; None: not
        known on that read): sideways only when every read saw it so (a lone sideways read is
        the detector's, and a sideways tile names a riichi). ``first_seen``: the read it was first
        seen on, when known (an early draw must be seen before it)."""
        code = pick_code(votes)
        sideways = all(t is True for t in turns)
        river = k.rivers[e]
        row = river_row(river, v)
        same_row = [s for s in river if s.present and river_row(river, s.v) == row]
        col = sum(1 for s in same_row if s.u < u)
        river.append(
            Slot(
                u,
                v,
                votes,
                sideways,
                self._frame,
                code,
                upright_reads=turns.count(False),
                sideways_reads=turns.count(True),
                first_seen=first_seen,
            )
        )
        if (
            sideways
            and e in k.riichi
            and not _owed_sideways(river[:-1])
            and _lies_upright(river, river[-1], level=False)
        ):
            # a seat in riichi lays its tiles upright (unless a call took its declaration tile):
            # one read sideways that lies an upright tile's width on is the detector's
            # (hanchan-jansou-mleague-hanchan 10134, a far camera: a false river_layout; its row's
            # centres read 6 mm apart in depth, so how level it lies says nothing there)
            sideways = river[-1].sideways = False
        if (
            not sideways
            and turns
            and e in k.riichi
            and _owed_sideways(river[:-1])
            and _was_declaration(k, e, river[-2])
            and (
                (all(t is None for t in turns) and not _lies_upright(river, river[-1]))
                or _lies_sideways(river, river[-1])
            )
        ):
            # the tile owed sideways after a call took the declaration tile, its turn unknown on
            # every read (box flat, angle upright): it lies sideways, as the rules lay it, unless
            # its place says upright (hanchan-jansou-1 12846, overhead: taken as upright, a false
            # riichi_not_sideways; set 8 hanchan-jansou-0 5592, far: 27.4 mm on, a sideways
            # tile's pitch read short, but 4.8 mm deeper than its row, so not level). Read
            # upright where a sideways tile lies, it lies sideways too, as a declaration tile so
            # read is not judged upright (set 10 hanchan-jansou-2 6240, tilted, the far seat: an N
            # read upright on every read, 30 mm on and 4.0 mm deeper than its row)
            sideways = river[-1].sideways = True
        if not k.started:
            if self.seat0_edge is None:
                self.seat0_edge = e  # the first discard names the first dealer
            if not self.game_started:  # mjai readers expect the game to open first
                self.game_started = True
                out.append(lambda seat, f=k.frame, t=k.t: at_frame(ev.StartGame(), f, t))
            out.append(self._start_factory(k, e))
            self.deal_counts(k, e, out)
            k.started = True
        if k.reach_pending is not None and k.reach_pending != e:
            out.append(lambda seat, a=k.reach_pending: ev.ReachAccepted(actor=seat(a)))
            k.accepted_at[k.reach_pending] = self._frame
            k.reach_pending = None
        riichi = sideways and e not in k.riichi
        if k.after_call != e and not k.owes_discard[e]:  # (after a call or kan it closes no draw)
            if not k.drew[e]:
                out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
                k.pending_count[e] += 1
            river[-1].draw = k.drew_at[e] if k.drew[e] else self._frame
        k.owes_discard[e] = False
        early = self._early_draw(k, e, first_seen)
        if early is not None:
            out.append(lambda seat, n=early: ev.WallTake(actor=seat(n)))
        k.after_call = None
        k.last_kakan = None
        k.drew[e] = False
        k.pending_count[e] -= 1
        if riichi:
            k.riichi.add(e)
            river[-1].declared = True
            k.reach_pending = e
            out.append(lambda seat: ev.Reach(actor=seat(e)))
        river[-1].place = (row, col)
        slot = ev.RiverPlacement(row=row, col=col, sideways=sideways)
        # tsumogiri: the hand as watched while the tile was in the air (read_hands._tsumogiri)
        tsumogiri = self._tsumogiri(k, e)
        disarm(k, e)
        out.append(
            lambda seat, c=code, s=slot, g=tsumogiri: ev.Dahai(actor=seat(e), pai=c, tsumogiri=g, slot=s)
        )
        k.last_discard = (e, len(river) - 1)
        k.last_actor = e
        if early is not None:  # the draw itself follows the discard in the record
            out.append(lambda seat, n=early: ev.Tsumo(actor=seat(n), pai="?"))
            k.drew[early], k.drew_at[early] = True, self._frame
            k.pending_count[early] += 1

    def _start_factory(self, k: Kyoku, dealer_edge: int) -> EventFactory:
        dora = k.dora[0] if k.dora else "?"
        k.round = self._next_round(dealer_edge)
        wind, number, honba, sticks = k.round

        def make(seat: Callable[[int], int]) -> ev.StartKyoku:
            return ev.StartKyoku(
                bakaze=("E", "S", "W", "N")[wind % 4],
                dora_marker=dora,
                kyoku=number,
                honba=honba,
                kyotaku=sticks,
                oya=seat(dealer_edge),
                scores=[25000] * 4,  # not on camera: the point sticks are not read
                tehais=[["?"] * 13 for _ in range(4)],
            )

        return lambda seat: at_frame(make(seat), k.frame, k.t)

    def _next_round(self, dealer_edge: int) -> tuple[int, int, int, int]:
        """(wind, kyoku number, honba, riichi sticks on the table) of the kyoku whose dealer sits
        at ``dealer_edge``, from what the camera saw of the kyoku before: the dealer kept (連荘)
        or a draw adds a honba; the deal passing from the last seat back to seat 0 starts the next
        wind; riichi sticks stay on the table after a draw. The video's first kyoku cannot be
        known from the table (no round marker is read): it is taken as East 1, no honba."""
        prev = self.last_round
        number = self._seat(dealer_edge) + 1
        if prev is None:
            return 0, number, 0, 0
        wind, prev_number, honba, sticks, drawn, riichi = prev
        wind += number < prev_number  # the deal went round past seat 3
        honba = honba + 1 if (number == prev_number or drawn) else 0
        sticks = sticks + riichi if drawn else 0
        return wind, number, honba, sticks

    def _close_round(self, k: Kyoku) -> None:
        """Remember how the kyoku went, for the next one's start_kyoku."""
        if k.round is not None:
            wind, number, honba, sticks = k.round
            self.last_round = (wind, number, honba, sticks, k.result != "hora", len(k.riichi))

    def _read_sticks(self, k: Kyoku, out: list) -> None:
        """A riichi stick newly put down where no sideways tile announced a riichi: the seat
        declared with its tile upright. The stick lies there once the riichi is accepted, so
        both follow its discard (the rules checker judges that discard). A stick must be seen
        on ``stick_reads`` reads in a row, at a seat seen without one earlier in the kyoku."""
        present = self._sticks_now.present
        for e in np.nonzero(self._trusted)[0].tolist():
            if not present[e]:
                k.stick_clear[e] = True
                k.stick_run[e] = 0
                continue
            k.stick_seen[e] = True
            k.stick_run[e] += 1
            if (
                k.stick_run[e] < self.cfg.stick_reads
                or not k.stick_clear[e]
                or e in k.riichi
                or not k.started
                or not k.rivers[e]
            ):
                continue
            in_view = _declaration_in_view(k, e, self.cfg.declaration_after)
            upright = self._declaration_upright(k.rivers[e]) if in_view else None
            if upright is None and in_view and _unjudged(k.rivers[e], self.cfg.orientation_reads):
                if k.stick_run[e] < self.cfg.stick_reads + self.cfg.orientation_reads:
                    continue  # the declaration tile, read late, gets a few more reads first
            if upright is None and in_view:
                # its reads said nothing, even given the time: where it lies may
                upright = _placed_upright(k.rivers[e]) or None
            if in_view and upright is not True:
                self._declared_sideways(k.rivers[e][-1], e, out)
            k.riichi.add(e)
            k.stick_riichi_at[e] = self._frame
            out.append(lambda seat, e=e, up=upright: ev.Reach(actor=seat(e), declaration_upright=up))
            out.append(lambda seat, e=e: ev.ReachAccepted(actor=seat(e)))

    @staticmethod
    def _declared_sideways(slot: Slot, e: int, out: list) -> None:
        """A riichi read from its stick whose declaration tile (``slot``, in view) was not seen
        upright: that tile lies sideways, as the riichi has it laid (M-League ch.4 §4), though
        not every read saw it so when it landed (a discard is sideways only when all its reads
        agree). Its place is corrected in the record. (Set 4, kuikae-jansou-0-k4 2184: the 9p
        declaring a riichi read upright, the riichi read from the stick 35 frames later.) A tile a
        call took before the stick was read was the declaration tile too (set 7 hanchan-jansou-0
        9341, a 6p ponned): the record lays it sideways, its seat's next discard owes the turn."""
        if slot.sideways or not (slot.present or _called_away(slot)):
            return
        slot.sideways = True
        row, col = slot.place
        out.append(
            lambda seat, f=slot.frame, r=row, c=col: ev.Retract(
                target_type="dahai",
                target_frame=f,
                actor=seat(e),
                slot=ev.RiverPlacement(row=r, col=c, sideways=True),
                reason="riichi declaration tile (riichi read from its stick)",
            )
        )

    def _declaration_upright(self, river: list[Slot]) -> bool | None:
        """Did the declaration tile (the river's last discard) lie upright? Claimed only on
        ``orientation_reads`` reads that saw it upright and none that saw it sideways: a sideways
        tile the detector read upright once or twice is the usual case, an upright one the rare
        irregularity. Sideways when most reads saw it so; else unknown (``_read_sticks`` then
        waits for more reads, and after them asks where it lies: ``_placed_upright``). Reads of
        it upright against a place that says sideways (``_lies_sideways``: a sideways tile's
        width on from the tile before it and deeper than its row) claim nothing: set 4's hanchan
        at 1280x720 had three declaration tiles laid sideways read upright on every read, false
        riichi_not_sideways; two lay so (hanchan-jansou-0 4049, a 4p). A tile laid upright, as
        a staged fault lays it, lies level and a tile's width on."""
        slot = river[-1] if river else None
        if slot is None or not (slot.present or _called_away(slot)):
            return None  # the last discard was taken back: which tile declared is unclear
        # (one a call took was read as it lay before: seen upright, it stays so in the record,
        # and the rules checker judges it; the table state owes the next discard sideways)
        if slot.sideways_reads == 0 and slot.upright_reads >= self.cfg.orientation_reads:
            return None if _lies_sideways(river, slot) else True
        if slot.sideways_reads > slot.upright_reads:
            return False
        return None


OVERLAP = 0.75  # of a tile's width: a box whose centre is this close to a tile's lies on it
# this many of a river's tiles, and this share of them, unseen on one read: it was swept off (a
# call takes one tile; two gone at once may be a call and a tile under the caller's arm)
_SWEPT_TILES, _SWEPT_SHARE = 3, 0.8

# a river tile's centre within this of its row's: level with upright neighbours (a sideways tile,
# aligned on the row's player-side line, lies 2.3-7.2 mm deeper on the second evaluation set)
_LEVEL_IN_ROW_MM = 1.5


# a tile seen again where a discard taken back lay is that discard when read as its kind, or as
# a kind that took at least this share of its votes (set 10 hanchan-jansou-0 5301, low camera: a
# 7s declaration, read 7s 59 % and 9s 41 %, unseen four reads, came back read 9s: a new discard,
# sideways with no riichi, a false river_layout)
_SEEN_AGAIN_SHARE = 0.25


def _read_as_before(votes: Counter, code: str) -> bool:
    """Was a tile with ``votes`` read as ``code``'s kind: its pick, or a good share of its reads?"""
    if tiles.deaka(pick_code(votes)) == code:
        return True
    total = sum(w for c, w in votes.items() if c != tiles.UNKNOWN)
    share = sum(w for c, w in votes.items() if c != tiles.UNKNOWN and tiles.deaka(c) == code)
    return total > 0 and share >= _SEEN_AGAIN_SHARE * total


def _placed_upright(river: list[Slot]) -> bool:
    """Does the river's last discard, never read sideways, lie where an upright tile does
    (``_lies_upright``)? For a declaration tile whose reads said nothing (a far camera's boxes
    shaped like neither), or too little: one a call took is judged where its reads placed it (set
    8 t6-confusing_nakis_2 553: a staged upright 8m, read upright once, level and 27.8 mm on,
    ponned before the stick was read, was laid sideways in the record)."""
    slot = river[-1] if river else None
    if slot is None or not (slot.present or _called_away(slot)):
        return False
    return slot.sideways_reads == 0 and _lies_upright(river, slot)


def _where_river_goes_on(river: list[Slot], obs: TableView, within: float) -> np.ndarray:
    """Which boxes lie within ``within`` mm of where the river's next discard lands."""
    place = next_place(river)
    if place is None:
        return np.zeros(len(obs), bool)
    return np.hypot(obs.u - place[0], obs.v - place[1]) < within


def _called_away(slot: Slot) -> bool:
    """Gone from its river because a call took it (not taken back as gone, or as read after
    the discard a call took)."""
    return slot.called and not slot.present


def _owed_sideways(river: list[Slot]) -> bool:
    """May the river's next discard lie sideways, its last tile taken by a call? (That tile may
    have been the riichi declaration tile, read sideways or not: a riichi read from the stick
    names no tile.)"""
    return bool(river) and _called_away(river[-1])


def _lies_upright(river: list[Slot], slot: Slot, level: bool = True) -> bool:
    """Does ``slot``'s place say it lies upright, where the detector's reads of its turn said
    nothing: level with the other tiles of its row (unless ``level`` is False) and an upright
    tile's width right of the one before it (a sideways one lies deeper and farther). On the
    second evaluation set 0 of the 8 tiles read sideways lay so, 420 of the 955 read upright did."""
    place = _place_in_row(river, slot)
    if place is None:
        return _starts_row_upright(river, slot)
    gap, depth, wide = place
    return (abs(depth) <= _LEVEL_IN_ROW_MM or not level) and gap < wide


# a row's first tile lies under the first of the row before: upright, as far along the row and a
# tile's height on; sideways (aligned on the row's start and its player's side) its centre lies
# (35 - 26) / 2 mm farther along and as much nearer the player. Halfway between the two:
_ROW_START_ALONG_MM = (TILE_H - TILE_W) / 4
_ROW_PITCH_UPRIGHT_MM = TILE_H - (TILE_H - TILE_W) / 4


def _starts_row_upright(river: list[Slot], slot: Slot) -> bool:
    """Does ``slot``, the first tile of a row past the player's, lie as an upright one does under
    the first tile of the row before (itself upright)? Where ``_place_in_row`` has no tile before
    it. On set 7 (30 clips, 2026-12-03) 208 of 309 upright row starts lay so and none of the 16
    sideways ones; kuikae-jansou-mleague-hanchan-k0's staged upright declaration tile started a
    row, its low-camera reads sure of no turn, and was taken as sideways."""
    row = river_row(river, slot.v)
    same = [s for s in river if s is not slot and s.present and river_row(river, s.v) == row]
    above = [s for s in river if (s.present or s.called) and river_row(river, s.v) == row - 1]
    if row == 0 or not above or any(s.u < slot.u for s in same):
        return False
    start = min(above, key=lambda s: s.u)
    return (
        not start.sideways
        and abs(slot.u - start.u) <= _ROW_START_ALONG_MM
        and start.v - slot.v >= _ROW_PITCH_UPRIGHT_MM
    )


def _place_in_row(river: list[Slot], slot: Slot) -> tuple[float, float, float] | None:
    """Where ``slot`` lies in its row: (mm on from the tile before it, mm deeper than the row's
    median, the gap past which a tile lies sideways), or None when it is its row's first."""
    row = river_row(river, slot.v)
    same = [s for s in river if s is not slot and s.present and river_row(river, s.v) == row]
    left = [s for s in same if s.u < slot.u]
    if not left:
        return None
    before = max(left, key=lambda s: s.u)
    depth = slot.v - float(np.median([s.v for s in same]))
    # (beside a sideways tile every gap is half the difference of its width wider)
    wide = WIDE_GAP_MM + ((TILE_H - TILE_W) / 2 if before.sideways else 0.0)
    return slot.u - before.u, depth, wide


def _was_declaration(k: Kyoku, e: int, slot: Slot) -> bool:
    """Was ``slot`` edge ``e``'s riichi declaration tile: read sideways, the tile its riichi was
    read from, or its last discard when the riichi was read from the stick? (A call on a later
    upright discard owes no sideways tile: review helper-36.)"""
    stick = k.stick_riichi_at[e]
    return slot.sideways or slot.declared or (stick is not None and stick >= slot.frame)


# deeper than this, a river tile lies sideways wherever its box's centre puts it along the row:
# on set 7 (2026-12-02, 12 clips) 9 of 509 upright tiles lay 5 mm or more deeper than their row's
# median at the kyoku's end (the deepest 6.8), 6 of the 8 sideways ones 5.2-7.1 mm (the others
# 0.6, 4.1); sideways declaration tiles as their riichi was read 3.8-9.6 mm, staged upright ones
# -1.2 to 0.1 mm
_DEEP_AS_SIDEWAYS_MM = 5.0


def _lies_sideways(river: list[Slot], slot: Slot) -> bool:
    """Does ``slot``'s place say it lies sideways: a sideways tile's width on from the one before
    it in its row and deeper than the row (aligned on the player's side of the row, a sideways
    tile's centre lies (35 - 26) / 2 mm nearer the player), or so much deeper that upright tiles
    rarely lie there (``_DEEP_AS_SIDEWAYS_MM``: set 7 hanchan-jansou-0 1127, a 6s declaring riichi
    read upright on every read, boxed at an upright tile's pitch but 6.2 mm deep)?"""
    place = _place_in_row(river, slot)
    if place is None:
        return False
    gap, depth, wide = place
    return (gap >= wide and depth > _LEVEL_IN_ROW_MM) or depth >= _DEEP_AS_SIDEWAYS_MM


def river_row(river: list[Slot], v: float) -> int:
    """The row (0: the player's) a tile at ``v`` mm lies in: rows are counted from the river's
    first discard, a tile's height apart toward the centre."""
    v0 = river[0].v if river else v
    return max(0, int(round((v0 - v) / TILE_H)))


def next_place(river: list[Slot]) -> np.ndarray | None:
    """(u, v) mm where the river's next discard lies: a tile's width right of the last row's last
    tile (wider beside a sideways one), or the start of the next row once six lie there. None for
    a river with no tile lying in it."""
    present = [s for s in river if s.present]
    if not present:
        return None
    rows = np.array([river_row(river, s.v) for s in present])
    last = [s for s, r in zip(present, rows) if r == rows.max()]
    end = max(last, key=lambda s: s.u)
    if len(last) < RIVER_ROW:
        step = (TILE_W + TILE_H) / 2 if end.sideways else TILE_W
        return np.array([end.u + step, end.v])
    start = min((s for s, r in zip(present, rows) if r == 0), key=lambda s: s.u, default=end)
    return np.array([start.u, end.v - TILE_H])


def _declaration_in_view(k: Kyoku, e: int, after: int) -> bool:
    """Can edge ``e``'s last discard be its riichi declaration? Yes while the others have made
    at most ``after`` discards since it: the stick goes down as the riichi is accepted and is
    read within a turn or two; with more, the declaration itself was missed and that tile is an
    older one."""
    river = k.rivers[e]
    if not river:
        return False
    since = river[-1].frame
    return sum(s.present and s.frame > since for x, r in enumerate(k.rivers) if x != e for s in r) <= after


def _unjudged(river: list[Slot], reads: int) -> bool:
    """The river's last tile has been seen too few times to tell how it lies."""
    slot = river[-1] if river else None
    return slot is not None and slot.present and slot.sideways_reads == 0 and slot.upright_reads < reads
