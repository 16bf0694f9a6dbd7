"""Reading the meld areas: calls on the last discard (chi / pon / daiminkan), ankan and kakan.
A mixin of ``tracker.tracker.TableTracker`` (its state, config and emitting)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np

from rules_check.checks.invalid_meld import is_set
from tracker import events as ev
from tracker import tiles
from tracker.kyoku import (
    Call,
    ClosedKan,
    Kyoku,
    MeldTile,
    Slot,
    disarm,
    give_back_discard,
    in_turn,
    take_back_discard,
    take_back_draw,
)
from tracker.melds import (
    chi_from,
    declared,
    declared_own_tiles,
    first_sighting,
    ready_melds,
    run_completions,
    seen_before,
    sideways_by_depth,
    sideways_by_place,
    sideways_by_spacing,
    sure_pon,
)
from tracker.read_rivers import next_place
from tracker.readings import TILE_H, TILE_W, one_per_place, pick_code
from tracker.table import layout
from tracker.zones import MELD, RIVER, TableView


class MeldReader:
    def _glimpse_melds(self, view: TableView, k: Kyoku) -> None:
        """Remember when each new meld tile was first in view, on any read (an arm moving there
        too): only to order things that become certain on the same read."""
        for e in range(4):
            obs = view.where(e, MELD)
            if not len(obs):
                continue
            uv = obs.uv
            if k.melds[e]:
                known = _places(k.melds[e])
                uv = uv[~seen_before(uv[:, 0], uv[:, 1], known, self.cfg.match_mm)]
            glimpses = k.meld_glimpses[e]
            if len(glimpses):
                gone = ~seen_before(glimpses[:, 0], glimpses[:, 1], uv, self.cfg.match_mm)
                glimpses = glimpses[~gone]  # became a known meld tile, or was a glimpse of noise
                uv = uv[~seen_before(uv[:, 0], uv[:, 1], glimpses[:, :2], self.cfg.match_mm)]
            fresh = np.column_stack([uv, np.full(len(uv), float(self._frame))])
            k.meld_glimpses[e] = np.concatenate([glimpses.reshape(-1, 3), fresh])

    def _read_melds(self, view: TableView, k: Kyoku, out: list) -> bool:
        """New meld tiles: a call on the last discard, an ankan or a kakan. True if a call was read.
        A new tile counts once seen at the same place on the read before (``tracker.melds``)."""
        called = False
        for e in np.nonzero(self._trusted)[0].tolist():
            obs = one_per_place(view.where(e, MELD))
            known = k.melds[e]
            fresh = np.ones(len(obs), bool)
            sure, near = self._sure_reads(obs), self._near_runner_up(obs)
            if known and len(obs):
                ku, kv = _places(known).T
                d = np.hypot(obs.u[:, None] - ku[None], obs.v[:, None] - kv[None])
                fresh = d.min(axis=1) >= self.cfg.match_mm
                for j in np.nonzero(~fresh)[0].tolist():
                    tile = known[int(d[j].argmin())]
                    code = self._code(int(obs.class_ids[j]))
                    if obs.face_up[j] and code != tiles.UNKNOWN:
                        self._note(tile, code, obs, j, sure, near)
                    tile.sideways_reads += bool(obs.sideways[j] and not obs.tall[j])
                    tile.upright_reads += bool(not obs.sideways[j] and obs.tall[j])
                    tile.angle_turns += 1 if obs.sideways[j] else -1
                    tile.depths.append(float(obs.v[j]))
                self._review_calls(k, e, out)
                self._review_ankans(k, e, out)
            new = obs.select(fresh)
            certain = seen_before(new.u, new.v, k.cand_meld[e], self.cfg.match_mm)
            hidden, back = self._hidden_new_tiles(k, e, view, new, certain)
            k.cand_meld[e] = new.uv
            if not certain.all():
                self.gate.confirm(self.cfg.confirm_frames)
            if not certain.any():
                continue
            sides = [m for m in known if m.sideways] if known else []
            added = _on_a_sideways_tile(known, new.u, new.v, self.cfg.match_mm)
            # a kakan shows its tile's face: a box read face down counts only read as surely as
            # a call's tiles (hanchan-jansou-3 14741: a hand passing over seat 2's pon, boxed as
            # a back at 0.29-0.31 for three reads, was a phantom kakan of the pon's kind)
            floor = np.where(new.face_up, self.cfg.kakan_min_confidence, self.cfg.meld_min_confidence)
            kakans = np.nonzero(added & certain & (new.confidence >= floor))[0]
            first = first_sighting(new.u[kakans], new.v[kakans], k.meld_glimpses[e], self.cfg.match_mm)
            # a kakan's tile is laid after its call: one in view since the call was read is the
            # call's tile boxed twice (hanchan-jansou-2 12276, a sideways tile boxed again 19 mm
            # toward the centre: ``_on_the_row`` leaves it out of the call, not out of later reads)
            later = first > self._laid_at(k, e, sides, new.u[kakans])
            # and before its seat's discard: a tile of its river waiting to be confirmed, in view
            # since before the added one was, is that discard, the "added" box the hand laying it
            # (3 of the 4 phantom kakans left on sets 2-4: set 4's hanchan-jansou-1 14421)
            later &= first < min((c[4] for c in k.cand_river[e]), default=np.inf)
            kakans, first = kakans[later], first[later]
            order = np.nonzero(~added & ~_between_known_tiles(known, new.u, new.v))[0]
            order = order[_on_the_row(new.select(order))]
            order = order[np.argsort(-new.u[order])]  # right to left: the oldest meld first
            if len(order) and certain[order[0]] and self._left_of_last_call(k, e, new, int(order[0])):
                order = order[1:]
            codes = [self._code(int(c)) for c in new.class_ids[order].tolist()]
            twice = _a_pon_boxed_twice(new.select(order), codes)
            if twice is not None and certain[order].all():
                order, codes = np.delete(order, twice), codes[:twice] + codes[twice + 1 :]
            rest = new.select(order)
            groups = ready_melds(codes, rest.back.tolist(), certain[order].tolist())
            if len(rest) == 4 and certain[order].all() and _laid_as_a_kan(k, e, rest, codes):
                groups = [[0, 1, 2, 3]]  # (a kan as laid, whatever its faces read)
            whole = _first_beside(hidden, [rest.select(np.array(g)) for g in groups])
            if whole < len(groups) or back or (len(rest) and _first_beside(hidden, [rest]) == 0):
                # a kakan too, until the tiles hidden are certain again: the record keeps the
                # order things were laid in
                groups, kakans = groups[:whole], kakans[:0]
            # several read at once (two kakans between clean reads, an arm over the area until
            # all were laid): in the order first seen, a call before a kakan seen on the same read
            steps = sorted(
                [
                    (float(f), 1, int(j))
                    for f, j in zip(self._first_seen(k, e, new.u[kakans], new.v[kakans]), kakans)
                ]
                + [
                    (float(self._first_seen(k, e, rest.u[g], rest.v[g]).min()), 0, i)
                    for i, g in enumerate(groups)
                ]
            )
            for _, is_kakan, i in steps:
                if is_kakan:
                    self._kakan(k, e, new.select(np.array([i])), out)
                    continue
                group = groups[i]
                if len(group) == 2 and not self._last_discard_gone(k, e):
                    continue  # two tiles: a call only as the last discard leaves its river
                called |= self._meld(k, e, rest.select(np.array(group)), view, out)
        return called

    def _hidden_new_tiles(
        self, k: Kyoku, e: int, view: TableView, new: TableView, certain: np.ndarray
    ) -> tuple[np.ndarray, bool]:
        """The new tiles of edge ``e``'s meld area seen on its reads within ``meld_hidden_frames``
        and not read into a meld since: (M, 2) u, v of those out of view now (an arm lying still
        over them), and whether one is back in view but not yet certain (not seen on the read
        before). Remembers this read's new tiles."""
        here = view.select(view.edge == e)  # (a tile now boxed in another zone is not hidden)
        match = self.cfg.match_mm
        seen = k.meld_unread[e]
        if k.melds[e] and len(seen):
            known = _places(k.melds[e])
            seen = seen[~seen_before(seen[:, 0], seen[:, 1], known, match)]
        back = bool((seen_before(new.u, new.v, seen[:, :2], match) & ~certain).any())
        in_view = seen_before(seen[:, 0], seen[:, 1], here.uv, match)
        seen[in_view, 2] = self._frame
        recent = self._frame - seen[:, 2] <= self.cfg.meld_hidden_frames
        seen, in_view = seen[recent], in_view[recent]
        fresh = new.uv[~seen_before(new.u, new.v, seen[:, :2], match)]
        now = np.full((len(fresh), 2), float(self._frame))
        k.meld_unread[e] = np.concatenate([seen, np.column_stack([fresh, now])])
        return seen[~in_view, :2], back

    def _first_seen(self, k: Kyoku, e: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """(N,) frame each new meld tile at ``u``, ``v`` was first in view: glimpsed on any read,
        or seen on the edge's reads before an arm hid it (``meld_glimpses`` forgets a tile out of
        view: set 8 t6-suukantsu_0's kakan, hidden between reads, then read after the ankan laid
        under the arm)."""
        unread = k.meld_unread[e]
        return np.minimum(
            first_sighting(u, v, k.meld_glimpses[e], self.cfg.match_mm),
            first_sighting(u, v, unread[:, [0, 1, 3]], self.cfg.match_mm),
        )

    def _sure_reads(self, obs: TableView) -> np.ndarray:
        """(N,) bool: meld tiles read surely, face up at ``meld_min_confidence`` and
        ``meld_sure_ratio`` times the runner-up face's score. On sets 3, 4 and 7 the meld faces
        misread as a call was laid were read at most 9x their runner-up but one (a stray box)."""
        c = obs.confidence
        apart = c >= self.cfg.meld_sure_ratio * _rival_score(obs)
        return obs.face_up & (c >= self.cfg.meld_min_confidence) & apart

    def _near_runner_up(self, obs: TableView) -> np.ndarray:
        """(N,) the runner-up face's class where it scored within ``meld_sure_ratio`` of the face
        read, else -1."""
        close = obs.face_up & (obs.runner_up >= 0)
        close &= obs.confidence < self.cfg.meld_sure_ratio * _rival_score(obs)
        return np.where(close, obs.runner_up, -1)

    def _note(
        self, tile: MeldTile, code: str, obs: TableView, j: int, sure: np.ndarray, near: np.ndarray
    ) -> None:
        """Read ``j`` of ``obs`` (its ``_sure_reads`` and ``_near_runner_up``) noted on ``tile``."""
        runner_up = float(obs.runner_up_confidence[j])
        tile.note(code, float(obs.confidence[j]), bool(sure[j]), self._plain(near[j]), runner_up)

    def _plain(self, class_id: int) -> str | None:
        """A class as a plain face code (red fives as their fives); None for -1."""
        return tiles.deaka(self._code(int(class_id))) if class_id >= 0 else None

    def _laid_at(self, k: Kyoku, e: int, sides: list[MeldTile], u: np.ndarray) -> np.ndarray:
        """(N,) the frame the call owning the sideways tile nearest each ``u`` was read at (-inf
        where no call read with its tiles laid owns it)."""
        out = np.full(len(u), -np.inf)
        if not sides or not len(u):
            return out
        nearest = np.abs(u[:, None] - np.array([m.u for m in sides])[None]).argmin(axis=1)
        frames = {c.group: c.frame for c in k.calls if c.edge == e}
        for i, j in enumerate(nearest.tolist()):
            out[i] = frames.get(sides[j].group, -np.inf)
        return out

    def _left_of_last_call(self, k: Kyoku, e: int, new: TableView, j: int) -> bool:
        """Is new tile ``j`` (the rightmost, certain) a tile of edge ``e``'s last meld the reads
        left over, not the first of a new call? It lies a tile's width left of that meld and
        was in view before another seat's discard read since: a call's tiles are laid after the
        discard it takes (hanchan-jansou-3: a daiminkan read as a pon of three, its fourth tile
        then cut into the next call with two of that call's tiles). It joins that meld as laid."""
        known = k.melds[e]
        if not known:
            return False
        group = max(m.group for m in known)  # (a kakan's tile, added last, may be an older meld's)
        last = [m for m in known if m.group == group]
        step = min(m.u for m in last) - float(new.u[j])
        if not 0 < step < TILE_W + (TILE_W + TILE_H) / 2:
            return False
        seen = first_sighting(new.u[j : j + 1], new.v[j : j + 1], k.meld_glimpses[e], self.cfg.match_mm)[0]
        # (a discard's first read: the one a call takes may be confirmed after its tiles were seen)
        later = [s for x, river in enumerate(k.rivers) if x != e for s in river if s.seen_from > seen]
        if not later:
            return False
        code = self._code(int(new.class_ids[j])) if new.face_up[j] else tiles.UNKNOWN
        known.append(
            MeldTile(
                float(new.u[j]), float(new.v[j]), code, bool(new.sideways[j]), bool(new.face_up[j]), group
            )
        )
        return True

    def _call_source(
        self, k: Kyoku, e: int, lr: TableView, codes: list[str], side: list[int], view: TableView, out: list
    ) -> tuple[int, int] | None:
        """The river slot (edge, index) a call by ``e`` takes, None if there is none: the last
        discard read, after the discards the camera missed are told (one seen once and gone
        before confirmed, ``_discard_called_at_once``; a riichi tile never seen lying,
        ``_declaration_called_unseen``), or the discard of the seat the call's sideways tile
        points to when the last one still lies in its river (``_discard_the_layout_names``), or
        another seat's read on the same frame that the sideways tile points to
        (``_source_named_by_layout``)."""
        self._discard_called_at_once(k, e, out)
        self._declaration_called_unseen(k, e, lr, codes, side, out)
        if k.last_discard is None:
            return None
        named = self._discard_the_layout_names(k, e, lr, codes, side, view, out)
        source = named or _source_named_by_layout(k, e, len(lr), side)
        return None if source[0] == e else source

    def _discard_the_layout_names(
        self, k: Kyoku, e: int, lr: TableView, codes: list[str], side: list[int], view: TableView, out: list
    ) -> tuple[int, int] | None:
        """The slot a call by ``e`` took when its sideways tile names another seat than the last
        discard's and either that discard still lies in its river (seen on its river's last read
        or this one: a call moves the tile it takes) or the call's tiles, read, make a run (a chi
        is called from kamicha only) and name kamicha: that seat's newest discard, gone from its
        river and read before every other seat's newest (the last discard was a tile read late or
        read again: set 4's mleague hanchan 1859 and 10109, 960x540), or, when that seat drew
        after the last discard and no discard of its was read since, the discard the camera
        never saw, told now from the call's sideways tile (set 3's hanchan-jansou-0 6314: a 9s
        called 18 frames after it was discarded). None otherwise."""
        named = _named_seat(e, len(lr), side)
        last_edge, last_index = k.last_discard
        if named is None or named in (e, last_edge):
            return None
        last = k.rivers[last_edge][last_index]
        lies = last.misses == 0 or self._lies_in_river(view, last_edge, last)
        run = tiles.UNKNOWN not in codes and is_set("chi", codes) and chi_from(e, named)
        if not (lies or run):
            return None
        river = k.rivers[named]
        newest = river[-1] if river else None
        if k.drew[named] and k.drew_at[named] >= last.frame and named == (last_edge + 1) % 4:
            place = next_place(river)
            if place is None or (newest is not None and newest.frame >= k.drew_at[named]):
                return None
            j = side[0]
            votes = Counter({codes[j]: float(lr.confidence[j])} if codes[j] != tiles.UNKNOWN else {})
            self._discard(k, named, float(place[0]), float(place[1]), [False], out, votes)
            return named, len(river) - 1
        if newest is None or not (newest.present or newest.lost_at is not None):  # (a call's)
            return None
        others = [s.frame for x, r in enumerate(k.rivers) if x != last_edge for s in r]
        gone = not newest.present or (newest.misses >= 1 and not self._lies_in_river(view, named, newest))
        if newest.frame < max(others) or not gone:
            return None
        if not newest.present and self._frame - newest.lost_at > self.cfg.vanished_frames:
            return None  # (one taken back as gone just now is the call's: ``_meld`` gives it back)
        # the last one, read after the discard taken, goes back until read again (after the call:
        # a discard of the record cannot be moved before another)
        take_back_discard(k, last, last_edge, out, "read after the discard a call took")
        last.present, last.lost_at = False, None
        return named, len(river) - 1

    def _lies_in_river(self, view: TableView, edge: int, slot: Slot) -> bool:
        """Is a face-up tile seen at ``slot``'s place in edge ``edge``'s river on this read (an
        edge not read still is taken to hold it: nothing says it left)?"""
        if not self._trusted[edge]:
            return True
        obs = view.where(edge, RIVER)
        obs = obs.select(obs.face_up)
        return bool((np.hypot(obs.u - slot.u, obs.v - slot.v) < self.cfg.match_mm).any())

    def _discard_called_at_once(self, k: Kyoku, e: int, out: list) -> None:
        """A call whose tile was seen in another river once and gone before it was confirmed
        (the caller's arm was over that river at once): that tile was the discard it called."""
        last = k.rivers[k.last_discard[0]][k.last_discard[1]].frame if k.last_discard else -1
        gone = [x for x in k.vanished if x[0] != e and x[1] > last]
        if not gone:
            return
        src, _, (u, v, votes, sideways, first_seen) = gone[-1]
        k.vanished.remove(gone[-1])
        self._discard(k, src, u, v, [sideways], out, votes, first_seen=first_seen)

    def _declaration_called_unseen(
        self, k: Kyoku, e: int, lr: TableView, codes: list[str], side: list[int], out: list
    ) -> None:
        """A call whose sideways tile names a seat whose riichi was read from its stick after the
        last discard read, with no discard of that seat read since: the call took the riichi
        declaration tile before the camera saw it lie (the stick went down as the call accepted
        it). The riichi read from the stick is taken back and told again in order: the declaration
        discard, sideways, read as the call's sideways tile, then the call that takes it (and the
        seat's next discard lies sideways)."""
        named = _named_seat(e, len(lr), side)
        at = k.stick_riichi_at[named] if named is not None else None
        if named is None or named == e or at is None:
            return
        if k.last_discard is not None and k.last_discard[0] == named:
            return  # its declaration tile was read: the call takes that
        newest = max((slot.frame for river in k.rivers for slot in river), default=-1)
        place = next_place(k.rivers[named])
        if newest >= at or place is None:
            return  # a discard read since the stick: play went on
        for kind in ("reach", "reach_accepted"):
            out.append(
                lambda seat, t=kind: ev.Retract(
                    target_type=t, target_frame=at, actor=seat(named), reason="declaration tile called"
                )
            )
        k.riichi.discard(named)
        k.stick_riichi_at[named] = None
        j = side[0]
        votes = Counter({codes[j]: float(lr.confidence[j])} if codes[j] != tiles.UNKNOWN else {})
        self._discard(k, named, float(place[0]), float(place[1]), [True], out, votes)

    @staticmethod
    def _last_discard_gone(k: Kyoku, e: int) -> bool:
        if k.last_discard is None or k.last_discard[0] == e:
            return False
        return k.rivers[k.last_discard[0]][k.last_discard[1]].misses >= 1

    @staticmethod
    def _own_draw(k: Kyoku, e: int, out: list) -> None:
        """A kan from the hand is made after a draw: the draw the camera did not see goes first."""
        if not k.drew[e] and k.after_call != e and not k.owes_discard[e]:
            out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
            k.pending_count[e] += 1

    def _kakan(self, k: Kyoku, e: int, new: TableView, out: list) -> None:
        u = float(new.u[0])
        base = [m for m in k.melds[e] if m.sideways and abs(m.u - u) < self.cfg.match_mm]
        if not base or not k.started or not in_turn(k, e):
            # a kakan is made on its seat's turn: three of the evaluation sets' five phantom
            # kakans (a box over a call's sideways tile, each then a false dora_not_flipped) were
            # read while another seat held it. Looked at again on the next read: a real one lies
            # there still when its turn comes
            return
        code = self._code(int(new.class_ids[0]))
        group = base[0].group
        call = next((c for c in k.calls if c.edge == e and c.group == group), None)
        unsure = float(new.confidence[0]) < self.cfg.meld_min_confidence
        if call is not None and call.kind == "pon" and unsure:
            # a tile added to a pon read less surely than a call's tiles is unknown, so named by
            # its pon's kind below (t6-suukantsu_1's 9s added to a pon of 9s read 8p at 0.25: a
            # false 错杠); on a call read as a chi the read is kept, it names the pon it was
            code = tiles.UNKNOWN
        if call is not None and call.kind == "chi" and code != tiles.UNKNOWN:
            self._added_to_chi(
                call, [m for m in k.melds[e] if m.group == group][: len(call.codes)], code, out
            )
        elif call is not None and call.kind == "pon":
            call.added_to = True  # a pon of its kind for good: later reads do not make it a chi
        pon = [m.code for m in k.melds[e] if m.group == group]
        kind = (
            tiles.deaka(call.codes[call.pick]) if call is not None and call.codes[call.pick] != "?" else None
        )
        if code == tiles.UNKNOWN and kind is not None:
            code = kind  # a kakan adds the fourth of its pon's kind: an unread one is that
        k.melds[e].append(MeldTile(u, float(new.v[0]), code, True, True, group))
        # the pon's tiles are the added one's kind: ones it left unread are that kind too
        consumed = [tiles.deaka(code) if c == tiles.UNKNOWN and code != tiles.UNKNOWN else c for c in pon]
        consumed = (consumed + [tiles.UNKNOWN] * 3)[:3]
        if call is not None and call.kind == "pon" and call.sure_pon:
            consumed = declared(call.codes[call.pick], consumed)  # as its pon declared them
        self._own_draw(k, e, out)
        out.append(lambda seat: ev.Kakan(actor=seat(e), pai=code, consumed=consumed))
        k.last_kakan = (e, code, self._frame)  # robbable (chankan) until play passes on
        disarm(k, e)
        k.kans += 1
        out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
        k.after_call = e
        k.owes_discard[e] = True
        k.last_actor = e

    def _meld(self, k: Kyoku, e: int, new: TableView, view: TableView, out: list) -> bool:
        if not k.started or not new.face_up.any():
            # (no face shown: an ankan shows two of its faces and a call all three; backs or
            # standing tiles alone in a meld area are a hand or wall seen there: set 8's
            # t6-confusing_nakis_7 66, seat 2's far hand on the noisiest camera, three ankans at once)
            return False
        k.last_kakan = None
        read = [self._code(int(c)) for c in new.class_ids]
        if (
            len(new) == 4
            and new.face_up.all()
            and not _one_kind(read)
            and not _laid_as_a_kan(k, e, new, read)
        ):
            # four face-up tiles of more than one kind are no kan: a call plus a stray detection
            new = new.select(np.argsort(-new.confidence)[:3])
        order = np.argsort(new.u)  # left to right as the owner sees them
        lr = new.select(order)
        # a meld is read once or twice: a code the detector is unsure of stays unknown
        codes = [
            self._code(int(c)) if p >= self.cfg.meld_min_confidence else "?"
            for c, p in zip(lr.class_ids.tolist(), lr.confidence.tolist())
        ]
        side = np.nonzero(lr.sideways)[0].tolist()
        down = np.nonzero(~lr.face_up)[0].tolist()
        if not side and not down:
            # the detector missed the turn (a far camera's small tiles): where it lies tells
            side = sideways_by_place(lr.u, lr.v) or _sideways_by_box_and_spacing(lr)
        group = 1 + max((m.group for m in k.melds[e]), default=-1)
        sure, near = self._sure_reads(lr), self._near_runner_up(lr)
        for j in range(len(lr)):
            raw = self._code(int(lr.class_ids[j])) if lr.face_up[j] else tiles.UNKNOWN
            tile = MeldTile(
                float(lr.u[j]), float(lr.v[j]), codes[j], bool(lr.sideways[j]), bool(lr.face_up[j]), group
            )
            if raw != tiles.UNKNOWN:
                self._note(tile, raw, lr, j, sure, near)
            k.melds[e].append(tile)
        placed = k.melds[e][-len(lr) :]
        laid_codes = list(codes)
        # the face-up tiles' kinds as read (unsure reads too: a misread back beside a chi's two
        # kinds stays the chi's), and no face-up tile seen sideways (only a call lays one so; a
        # back seen sideways is two backs boxed as one, wider than a tile: set 7's mleague
        # hanchan 5606, an ankan of P read as a pon)
        face_up = [self._code(int(c)) for c, up in zip(lr.class_ids.tolist(), lr.face_up.tolist()) if up]
        turned_up = [i for i in side if i not in down or not _two_backs_wide(lr.u, i)]
        alike = len({tiles.deaka(c) for c in face_up}) == 1 and tiles.UNKNOWN not in face_up and not turned_up
        # (or one down where this seat's draw was read this turn: a call is made on a discard,
        # before any draw; hanchan-jansou-1 9151, an ankan of 2p seen as 3 tiles, one back and
        # a face misread 5p, was taken for a pon of the last discard, a 5p)
        drew = k.drew[e] and k.after_call != e
        if len(lr) >= 3 and down and (len(down) >= 2 or len(lr) == 4 or alike or drew):
            # tiles face down are an ankan's, never a call's: three seen, two of them down, or one
            # down between two of a kind, are an ankan with a tile the detector missed or two backs
            # boxed as one (t6-rinshan: read as a pon in riichi, a false illegal call). One down
            # beside two kinds is a chi's tile misread as a back (kuikae-jansou-2-k2). Such a look
            # says nothing of how it lies
            visible = [c for c in codes if c != "?"]
            kind = tiles.deaka(visible[0]) if visible else "?"  # (one red five at most)
            consumed = [kind if c == "?" else c for c in codes] + [kind] * (4 - len(lr))
            unsure = unsure_faces(placed, laid_codes, self.cfg) or None
            laid = (
                ev.MeldPlacement(tiles=laid_codes, sideways=side, face_down=down, unsure=unsure)
                if len(lr) == 4
                else None
            )
            self._own_draw(k, e, out)
            out.append(lambda seat: ev.Ankan(actor=seat(e), consumed=consumed, laid=laid))
            k.ankans.append(ClosedKan(e, group, self._frame, list(consumed), laid))
            disarm(k, e)
            k.kans += 1
            out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
            k.pending_count[e] -= 3
            k.after_call = e
            k.owes_discard[e] = True
            k.last_actor = e
            return False
        source = self._call_source(k, e, lr, codes, side, view, out)
        if source is None:
            return False
        src_edge, src_index = source
        slot = k.rivers[src_edge][src_index]
        if slot.lost_at is not None:  # taken back as gone before the call was read: the call took it
            give_back_discard(k, slot, src_edge, out, "a call took it")
        slot.present, slot.called = False, True
        self._draws_beaten_by_call(k, slot, out)
        called = slot.overruled or pick_code(slot.votes)  # (a fifth copy's read overruled: tracker.copies)
        laid_known = len(lr) >= 3
        codes = _fill_unsure(codes, [self._code(int(c)) for c in lr.class_ids.tolist()], laid_known, called)
        if laid_known:
            # the called tile is the river's: its code was voted on every read it lay there, so it
            # outweighs the one or two reads of the meld being laid. It lies where that code is
            # seen, else at the sideways place (the read there was wrong or unsure)
            pick = _position_of(codes, called, side)
            if (
                pick is not None
                and _called_beside_the_sideways(codes, pick, side)
                and _named_seat(e, len(codes), side) == src_edge
            ):
                pick = None  # the river misread it as a tile the caller laid from its hand
            if pick is None:
                pick = side[0] if side else 0
                # the river's vote, unless the meld's own read there makes a set with the other
                # tiles and the river's does not (then the river misread it: 3s for a 1m pon)
                own = codes[pick]
                if called != tiles.UNKNOWN and not (
                    own != tiles.UNKNOWN
                    and _makes_set(codes, pick, own)
                    and not _makes_set(codes, pick, called)
                ):
                    codes[pick] = called
            codes = _fill_triplet(codes, codes[pick])
        for tile, code in zip(placed, codes, strict=True):
            tile.code = code  # a kakan names its pon by these
        laid_codes = list(codes)
        if not laid_known:  # two seen: the called tile is the river's
            pai, consumed = called, list(codes)
            codes = [called, *codes]
        else:
            pai = codes[pick] if codes[pick] != tiles.UNKNOWN else called
            consumed = [c for i, c in enumerate(codes) if i != pick]
        kinds = {tiles.deaka(c) for c in codes if c != "?"}
        # a set laid wrong (错碰: a pon holding another tile) is still the pon of its called tile:
        # its kakan must find it; the rules checker judges the tiles laid
        called_twice = pai != "?" and sum(tiles.deaka(c) == tiles.deaka(pai) for c in codes) >= 2
        if len(codes) == 4:
            kind_cls = ev.Daiminkan
        elif (
            len(kinds) <= 1
            or called_twice
            or any(tiles.is_honor(c) for c in kinds)
            or not chi_from(e, src_edge)
        ):
            # honours make no runs, and a chi comes from kamicha only: such a call is a pon, read
            # wrong or laid wrong (its tiles as laid go to the layout, which invalid_meld judges)
            kind_cls = ev.Pon
        else:
            kind_cls = ev.Chi
        kind = kind_cls.model_fields["type"].default
        consumed = declared_own_tiles(kind, pai, consumed, sure_pon(codes, pai), chi_from(e, src_edge))
        unsure = unsure_faces(placed, laid_codes, self.cfg) if laid_known else []
        laid = (
            ev.MeldPlacement(tiles=laid_codes, sideways=side, face_down=down, unsure=unsure or None)
            if laid_known
            else None
        )
        if k.reach_pending is not None and k.reach_pending != e:
            out.append(lambda seat, a=k.reach_pending: ev.ReachAccepted(actor=seat(a)))
            k.accepted_at[k.reach_pending] = self._frame
            k.reach_pending = None
        if tiles.UNKNOWN not in (pai, slot.said) and tiles.deaka(pai) != tiles.deaka(slot.said):
            # the call's own tiles outvoted the river's reading of the discard it took (a pon's
            # three S against one E read in the river): the record's discard is corrected first
            slot.said = pai
            out.append(
                lambda seat, p=pai, f=slot.frame: ev.Retract(
                    target_type="dahai",
                    target_frame=f,
                    actor=seat(src_edge),
                    pai=p,
                    reason="called tile reread",
                )
            )
        out.append(
            lambda seat: kind_cls(actor=seat(e), target=seat(src_edge), pai=pai, consumed=consumed, laid=laid)
        )
        if laid_known:
            lie_as_laid(placed, side)
            call = Call(e, group, self._frame, kind, list(codes), pick, kind, src_edge, slot, list(side))
            call.said = _says(pai, consumed, kind, codes, side, unsure)  # what the record says
            k.calls.append(call)
        k.pending_count[e] -= len(consumed)
        if kind_cls is ev.Daiminkan:
            k.kans += 1
            out.append(lambda seat: ev.Tsumo(actor=seat(e), pai="?"))
            k.pending_count[e] += 1
        k.after_call = e
        k.owes_discard[e] = True
        k.last_discard = None
        k.last_actor = e
        return True

    @staticmethod
    def _draws_beaten_by_call(k: Kyoku, called: Slot, out: list) -> None:
        """A call takes a discard before the next draw: a draw read since that discard was landed
        (the next seat's hand, or the caller's own, read one tile long as the call was made) is
        taken back; a tile really drawn goes back to the wall. (On the evaluation set such a draw,
        left standing, made the record refuse the call that followed it: the pon was lost and a
        kakan on it was judged a wrong kan.)"""
        for x in range(4):
            if k.drew[x] and k.drew_at[x] >= called.frame:
                take_back_draw(k, x, out, "a call took the last discard")

    def _review_calls(self, k: Kyoku, e: int, out: list) -> None:
        """Correct a call of edge ``e`` that later reads see otherwise: a call is read from the one
        or two looks as it is laid (a tile read unsure stays ``?``), its tiles then lie in view for
        the rest of the kyoku. Its tiles are read again (``_tiles_read_again``) and which of them
        lies sideways (``_layout_read_again``); when what the record would say changes, a
        ``retract`` names the call with all of it: tiles, type (a pon read from one tile that was
        a chi) and layout (each correction replaces the one before)."""
        for call in (c for c in k.calls if c.edge == e):
            laid = [m for m in k.melds[e] if m.group == call.group][: len(call.codes)]  # (a kakan adds one)
            call.side = self._layout_read_again(call, laid)
            lie_as_laid(laid, call.side)
            codes = self._tiles_read_again(call, laid, out)
            if codes is not None:
                kind = call.kind
                if len(codes) == 3 and tiles.UNKNOWN not in codes:
                    run = is_set("chi", codes) and chi_from(call.edge, call.source_edge)
                    kind = "pon" if is_set("pon", codes) else "chi" if run else kind
                if len(codes) == 3 and sure_pon(codes, codes[call.pick]) and not is_set("chi", codes):
                    kind = "pon"  # its kind read twice: a pon, laid wrong if the third is another
                elif kind == "pon" and _two_of_a_run(codes) and chi_from(call.edge, call.source_edge):
                    # a pon said from one tile read ("5m ? ?"), its next read another kind a run
                    # shares with it: a chi (set 4's mleague hanchan 1859, "1m 3m ?" of a 1-2-3m)
                    kind = "chi"
                if call.added_to:
                    kind = "pon"  # a fourth tile was added to it
                call.codes, call.kind = codes, kind
                for tile, code in zip(laid, codes):
                    tile.code = code  # a kakan names its pon by these
            self._say_again(call, laid, out)

    def _outvoted(self, votes: Counter, best: str, said: str) -> bool:
        """Do later reads' ``votes`` for ``best`` overrule the record's ``said``: ``retract_after``
        / 2 of them, and twice those of ``said`` and of any other kind (as a discard's reading
        changes)? (Said unread, a kind barely ahead of another is no reading: set 7's
        hanchan-jansou-3 15840, a chi's middle tile at 6p 3.3, 4p 2.8, 7p 1.1 made it a pon.)"""
        rival = max((v for c, v in votes.items() if tiles.deaka(c) != tiles.deaka(best)), default=0.0)
        return votes[best] >= self.cfg.retract_after * 0.5 and votes[best] > 2 * max(votes[said], rival)

    def _review_ankans(self, k: Kyoku, e: int, out: list) -> None:
        """Correct the kind of an ankan of edge ``e`` that later reads of its face-up tiles name
        otherwise: an ankan is read from the one look it is laid on (faces read less surely than
        ``meld_min_confidence`` stay ``?``: set 7's mleague hanchan 20017, an ankan of N said as
        four ``?``), its tiles then lie in view for the rest of the kyoku. Its kind changes, as a
        call's tile does, once that kind's votes over its faces reach ``retract_after`` / 2 and
        twice those of the kind it said; a ``retract`` then names it with its tiles."""
        for kan in (x for x in k.ankans if x.edge == e):
            laid = [m for m in k.melds[e] if m.group == kan.group]
            votes: Counter = Counter()
            for tile in laid:
                votes.update({tiles.deaka(c): v for c, v in tile.votes.items()})
            said, best = tiles.deaka(kan.consumed[0]), pick_code(votes)
            if best in (tiles.UNKNOWN, said) or not self._outvoted(votes, best, said):
                continue
            # each face as its reads name it where that is the kind (a red five stays red)
            faces = [pick_code(m.votes) for m in laid]
            faces = [c if c != tiles.UNKNOWN and tiles.deaka(c) == best else best for c in faces]
            kan.consumed = (faces + [best] * 4)[:4]
            if kan.laid is not None and len(kan.laid.tiles) == len(faces):
                shown = [tiles.UNKNOWN if i in kan.laid.face_down else c for i, c in enumerate(faces)]
                kan.laid = kan.laid.model_copy(update={"tiles": shown})
            out.append(
                lambda seat, x=kan, used=list(kan.consumed), lay=kan.laid: ev.Retract(
                    target_type="ankan",
                    target_frame=x.frame,
                    actor=seat(x.edge),
                    consumed=used,
                    laid=lay,
                    reason="meld reread",
                )
            )

    def _say_again(self, call: Call, laid: list[MeldTile], out: list, reason: str = "meld reread") -> None:
        """If what the record would say of ``call`` changed, a ``retract`` correcting it whole
        (also when its tiles, making no set, are now all read surely: the evidence of a tile laid
        wrong is complete)."""
        pai, consumed = call.record()
        unsure = unsure_faces(laid, call.codes, self.cfg)
        now = _says(pai, consumed, call.kind, call.codes, call.side, unsure)
        if now == call.said:
            return
        call.said = now
        placement = ev.MeldPlacement(tiles=list(call.codes), sideways=list(call.side), unsure=unsure or None)
        as_type = call.kind if call.kind in ("chi", "pon") and call.type in ("chi", "pon") else None
        out.append(
            lambda seat, c=call, p=pai, used=consumed, t=as_type, lay=placement: ev.Retract(
                target_type=c.type,
                target_frame=c.frame,
                actor=seat(c.edge),
                pai=p,
                consumed=used,
                as_type=t,
                laid=lay,
                reason=reason,
            )
        )

    @staticmethod
    def _source_reread(call: Call, called: str, out: list) -> None:
        """The river misread the tile ``call`` took from it (``called``): say so there too."""
        call.source.said = called
        out.append(
            lambda seat, c=call, p=called: ev.Retract(
                target_type="dahai",
                target_frame=c.source.frame,
                actor=seat(c.source_edge),
                pai=p,
                reason="called tile reread",
            )
        )

    def _added_to_chi(self, call: Call, laid: list[MeldTile], code: str, out: list) -> None:
        """A tile is added (kakan) only to a pon: a call read as a chi that one is added to was a
        pon of the added tile's kind, and its sideways tile, which the added one lies on, is of
        that kind (the river's reading of it was wrong). Its other two tiles stay as read: where
        they are not that kind, it was laid wrong (错碰), which ``invalid_meld`` judges."""
        kind = tiles.deaka(code)
        if tiles.deaka(call.codes[call.pick]) != kind:
            self._source_reread(call, kind, out)
            call.codes[call.pick] = laid[call.pick].code = kind
        call.kind, call.added_to = "pon", True
        self._say_again(call, laid, out, "tile added to it (kakan): a pon")

    def _tiles_read_again(self, call: Call, laid: list[MeldTile], out: list) -> list[str] | None:
        """The call's laid tiles as later reads see them, or None if they see them as recorded. A
        tile's reading changes, as a discard's does, once its votes reach ``retract_after`` / 2 and
        twice those of what the record says, unless that turns tiles that can make a set (unread
        ones not held against it) into ones that cannot; the called tile keeps the river's reading
        unless that was unknown or makes no set (``_called_again``; the river's discard is then
        corrected too)."""
        codes = list(call.codes)
        for i, tile in enumerate(laid):
            said, best = codes[i], pick_code(tile.votes)
            if (i == call.pick and said != tiles.UNKNOWN) or best in (tiles.UNKNOWN, said):
                continue
            if self._outvoted(tile.votes, best, said):
                codes[i] = best
        if codes == call.codes:
            return None
        codes = _fill_triplet(codes, codes[call.pick])
        # a tile added to it named its kind for good (the called tile's own votes are its misread)
        called = codes[call.pick] if call.added_to else _called_again(codes, call.pick, laid[call.pick].votes)
        trial = [called if i == call.pick else c for i, c in enumerate(codes)]
        if _makes_set(call.codes, call.pick, call.codes[call.pick]) and not (
            _makes_set(codes, call.pick, called)
            or ((call.kind != "chi" or tiles.UNKNOWN in call.codes) and sure_pon(trial, called))
        ):
            # a set read as none: a misread rarely breaks a set, a wrong set is rarer still (a pon
            # sure of its kind, laid with a wrong tile, stays the pon it declares; a chi read whole
            # does not become one: that would take a misread and a wrong set at once, set 4
            # hanchan-jansou-3 15546; one read with a tile unread may: "7m ? 8m" was 7m 7m 8m)
            return None
        if called != codes[call.pick]:  # the river misread the tile taken from it: say so there too
            self._source_reread(call, called, out)
            codes[call.pick] = called
        return codes

    def _layout_read_again(self, call: Call, laid: list[MeldTile]) -> list[int]:
        """Which tile of the call lies sideways: moved once later reads say so by
        ``meld_turn_margin`` (one tile seen sideways that much more often than upright, and the
        one the record names, if any, seen upright that much more often: the first looks at a
        call being laid, a far camera's, turn a tile or miss it); else as recorded."""
        net = [m.sideways_reads - m.upright_reads for m in laid]
        margin = self.cfg.meld_turn_margin
        turned = [i for i, n in enumerate(net) if n >= margin]
        angled = [i for i, m in enumerate(laid) if m.angle_turns >= 2 * margin]
        if not call.side and len(turned) != 1 and len(angled) == 1:
            # none seen turned with its box's shape agreeing: the one tile whose angle alone says
            # sideways on twice as many reads more than upright (set 3's hanchan-jansou-2 14271: a
            # pon's middle P read sideways on 13 of 16 reads, its box tall on 11 of them)
            return angled
        if not call.side and len(turned) != 1 and all(len(m.depths) >= margin for m in laid):
            # none seen turned yet: the tile lying deeper than the others on the later reads (the
            # first read is of a call being laid: t6-confusing_nakis_2 192, its middle tile 3.5 mm
            # deeper then, 5 mm on every read after)
            return sideways_by_depth(np.array([np.median(m.depths) for m in laid]))
        if len(turned) != 1 or turned == call.side or any(net[i] > -margin for i in call.side):
            return call.side
        return turned


def _places(laid: list[MeldTile]) -> np.ndarray:
    """(M, 2) u, v mm of meld tiles."""
    return np.array([(m.u, m.v) for m in laid], float).reshape(-1, 2)


def _first_beside(hidden: np.ndarray, groups: list[TableView]) -> int:
    """Index of the first of ``groups`` (right to left) with a ``hidden`` tile ((M, 2) u, v) on its
    row, among its tiles or a tile's width from its ends; ``len(groups)`` if none. That call is
    read in part, and the calls left of it are cut from the wrong tiles (set 8 t6-suukantsu_0
    2012-2056: an arm lying still across seat 2's melds over two tiles of a daiminkan, read as a
    pon of the two left, then one of them as a chi with the next ankan's tiles): they wait. (A
    tile half a tile or more off the row is none of its: set 7 hanchan-jansou-1 10396, a box gone
    21 mm toward the centre held a chi until its discard was taken back.)"""
    for i, g in enumerate(groups):
        near = (
            (hidden[:, 0] > g.u.min() - TILE_W - TILE_H / 2)
            & (hidden[:, 0] < g.u.max() + TILE_W + TILE_H / 2)
            & (np.abs(hidden[:, 1] - g.v.mean()) < TILE_H / 2)
        )
        if near.any():
            return i
    return len(groups)


@cache
def _plain_kinds() -> np.ndarray:
    """(classes,) each detector class's kind without its red (a red five is its five's kind)."""
    return np.array([tiles.deaka(c) for c in tiles.MODEL_CLASSES], dtype=object)


def _rival_score(obs: TableView) -> np.ndarray:
    """(N,) the runner-up face's score where it is another kind (a five's own red five, a class
    of its own, is no rival), else 0."""
    kinds = _plain_kinds()
    has = obs.runner_up >= 0
    same = has & (kinds[obs.class_ids] == kinds[np.where(has, obs.runner_up, 0)])
    return np.where(same, 0.0, obs.runner_up_confidence)


# centre to centre, the tiles either side of two backs (an ankan's middle) lie 3 tile widths
# apart, of a sideways tile W + H (a box over two backs need not sit centred on them: set 7's
# mleague hanchan 5606 read 42.7 and 33.0 mm to either side)
_TWO_BACKS_SPAN_MM = (3 * TILE_W + TILE_W + TILE_H) / 2


def _two_backs_wide(u: np.ndarray, i: int) -> bool:
    """Does the box at ``i`` (of a meld's boxes left to right at ``u``) lie between two tiles as
    far apart as two backs would hold them, farther than a sideways tile would?"""
    if not 0 < i < len(u) - 1:
        return False  # (an ankan's two backs lie between its face-up tiles)
    return abs(float(u[i + 1] - u[i - 1])) > _TWO_BACKS_SPAN_MM


def unsure_faces(laid: list[MeldTile], codes: list[str], cfg) -> list[int]:
    """Indexes of the faces ``codes`` names (the laid tiles as the record says them) that are no
    evidence of a tile laid wrong. A face is evidence when read surely on ``meld_sure_share`` of
    the reads naming it (``MeldReader._sure_reads``; one misread on every read of a tile lying in
    view all kyoku is now and then read surely too: on sets 4 and 7's hanchan 5 of 14 tiles
    whose reads voted a wrong face had a sure read of it, 1 a quarter), or when settled: read
    ``meld_settled_reads`` times, that face on ``meld_settled_share`` of them, and a runner-up
    that would make the call a set near it on fewer than ``meld_near_share`` (a staged "3m C
    C" read 3m near 7m or 2m on every read, never near C; misread faces had the true kind near
    them), or those runners-up's scores summed under ``meld_near_weight`` of the face's (set 3
    t6-ryukyoku's staged "5m 3m 6m": 3m on 172 of 175 reads, a 7m near it on 100 of them at a
    ninth of its score; the honest calls' misread faces read on 90 % of their reads had the
    true kind near them at 0.44 of theirs). Not evidence: faces read mostly near another that
    scores close to them, or not read at all (a pon's unread tile filled with its kind, the
    called tile named by the river).

    Of a call whose faces make no set, one face off the set (the others would make one without
    it) is what a tile laid wrong looks like; the faces beside it are evidence as well when no
    runner-up near them would make a set with it (an S read near other winds beside a 4m laid
    in a pon of S is no 4m either: set 2 t6-complex_nakis_0's staged "S 4m S" was not judged
    while its S faces were unsure)."""

    def count(votes: Counter, code: str) -> int:
        return sum(n for c, n in votes.items() if tiles.deaka(c) == tiles.deaka(code))

    def evidence(i: int, tile: MeldTile, code: str) -> bool:
        kind = tiles.deaka(code)
        if kind in tile.proven:
            return True  # (once evidence, for good: later unsure reads do not take an alert back)
        named = count(tile.reads, code)
        if count(tile.sure, code) >= max(1.0, cfg.meld_sure_share * named):
            tile.proven.add(kind)
            return True
        if named < cfg.meld_settled_reads or named < cfg.meld_settled_share * sum(tile.reads.values()):
            return False
        completing = [(c, r) for c, r in tile.near if c == kind and _makes_set(codes, i, r)]
        rivals = sum(tile.near[key] for key in completing)
        rival_score = sum(tile.near_votes[key] for key in completing)
        score = sum(v for c, v in tile.votes.items() if tiles.deaka(c) == kind)
        if rivals < cfg.meld_near_share * named or rival_score < cfg.meld_near_weight * score:
            tile.proven.add(kind)
            return True
        return False

    def could_join(i: int, tile: MeldTile, code: str) -> bool:
        """Is a runner-up near face ``i`` a kind that makes a set with a face off it (the call
        could be that face's set, this tile misread)?"""
        kind = tiles.deaka(code)
        joining = sum(
            n
            for (c, r), n in tile.near.items()
            if c == kind and any(is_set("chi", [r, codes[j]]) or is_set("pon", [r, codes[j]]) for j in off)
        )
        return joining >= cfg.meld_near_share * max(1, count(tile.reads, code))

    off = [] if _makes_set(codes, 0, codes[0]) else [i for i in range(len(codes)) if _set_without(codes, i)]
    return [
        i
        for i, (tile, code) in enumerate(zip(laid, codes, strict=True))
        if code != tiles.UNKNOWN
        and not evidence(i, tile, code)
        and (not off or i in off or could_join(i, tile, code))
    ]


def _two_of_a_run(codes: list[str]) -> bool:
    """Three tiles, one unread and two read of two kinds of one suit a run can hold together."""
    known = [c for c in codes if c != tiles.UNKNOWN]
    return len(codes) == 3 and bool(run_completions(known))


def _set_without(codes: list[str], i: int) -> bool:
    """Do the laid ``codes`` but the one at ``i`` make (part of) a run or a triplet?"""
    rest = codes[:i] + codes[i + 1 :]
    return is_set("chi", rest) or is_set("pon", rest)


def _says(
    pai: str, consumed: list[str], kind: str, codes: list[str], side: list[int], unsure: list[int]
) -> tuple:
    """What the record says of a call, to say it again on a change: its tiles, type and layout,
    and whether they are read whole and surely as no set (a tile laid wrong, ``invalid_meld``'s
    evidence; an honest call's tiles growing sure changes nothing said)."""
    made = is_set("chi" if kind == "chi" else "pon", codes)  # (a run laid for a pon is no pon)
    whole = not unsure and tiles.UNKNOWN not in codes and not made
    return (pai, tuple(consumed), kind, tuple(codes), tuple(side), whole)


def _named_seat(e: int, laid: int, side: list[int]) -> int | None:
    """The edge a call by ``e`` of ``laid`` tiles came from by where its one sideways tile lies
    (M-League ch.4 §6); None when that does not say."""
    if len(side) != 1 or laid not in (3, 4):
        return None
    table = layout.PON_SIDEWAYS if laid == 3 else layout.DAIMINKAN_SIDEWAYS
    offset = next((o for o, i in table.items() if i == side[0]), None)
    return None if offset is None else (e + offset) % 4


def _source_named_by_layout(k: Kyoku, e: int, laid: int, side: list[int]) -> tuple[int, int]:
    """The river slot (edge, index) a call by ``e`` took: the last discard, unless another seat's
    discard was read on the same frame (two rivers changed between reads, so play cannot say
    which came last) and that seat is the one the call's sideways tile points to."""
    last_edge, last_index = k.last_discard
    named = _named_seat(e, laid, side)
    if named is None or last_edge == e:
        return last_edge, last_index
    river = k.rivers[named]
    if named == last_edge or not river or not river[-1].present:
        return last_edge, last_index
    if river[-1].frame != k.rivers[last_edge][last_index].frame:
        return last_edge, last_index
    return named, len(river) - 1


def _called_again(codes: list[str], pick: int, votes: Counter) -> str:
    """The called tile of a call whose other tiles were read again (``codes``, the called one at
    ``pick`` as the river read it): as it was, unless with it the three make no set and they do
    with the meld's own reading of it, or, unread, with the kind of the other two when they are
    a pair (a run has no pairs: a pon). A kan's is the kind its other tiles read, all alike."""
    if len(codes) == 4:
        rest = [tiles.deaka(c) for i, c in enumerate(codes) if i != pick and c != tiles.UNKNOWN]
        alike = len(rest) >= 2 and len(set(rest)) == 1 and tiles.deaka(codes[pick]) != rest[0]
        return rest[0] if alike else codes[pick]
    if len(codes) != 3 or tiles.UNKNOWN in codes or _makes_set(codes, pick, codes[pick]):
        return codes[pick]
    own = pick_code(votes)
    if own != tiles.UNKNOWN:
        return own if _makes_set(codes, pick, own) else codes[pick]
    pair = {tiles.deaka(c) for i, c in enumerate(codes) if i != pick}
    return pair.pop() if len(pair) == 1 else codes[pick]


def _fill_unsure(codes: list[str], raw: list[str], laid_known: bool, called: str) -> list[str]:
    """The unsure reads (``?`` in ``codes``; ``raw`` is what the detector said) taken after all
    when, with them, the call's tiles (the river's ``called`` one too when only two were seen)
    make a set: a misread rarely completes a run or a triplet by chance."""
    trial = [r if c == tiles.UNKNOWN else c for c, r in zip(codes, raw, strict=True)]
    whole = trial if laid_known else [called, *trial]
    if trial == codes or not all(c in tiles.GAME_CODES and c != tiles.UNKNOWN for c in whole):
        return codes
    return trial if is_set("chi", whole) or is_set("pon", whole) else codes


def _position_of(codes: list[str], called: str, side: list[int]) -> int | None:
    """Where the ``called`` kind lies among the laid ``codes``: the sideways place if it is seen
    there (a pon's tiles are all alike), else the first place it is seen; None if not seen."""
    if called == tiles.UNKNOWN:
        return None
    at = [i for i, c in enumerate(codes) if c != tiles.UNKNOWN and tiles.deaka(c) == tiles.deaka(called)]
    if side and side[0] in at:
        return side[0]
    return at[0] if at else None


def _called_beside_the_sideways(codes: list[str], pick: int, side: list[int]) -> bool:
    """Is the river's kind, found at ``pick``, one of the caller's own tiles? So when one tile lies
    sideways elsewhere and the tiles as read, all of them, make a set: the sideways one is the
    called tile (t6-suukantsu_0: a chi of 7p laid 7p 5pr 6p, its river read 6p). The caller
    checks that the sideways place points to the seat the tile came from (else it is the
    layout that is wrong, not the river)."""
    if len(side) != 1 or pick == side[0] or tiles.UNKNOWN in codes:
        return False
    return _makes_set(codes, side[0], codes[side[0]])


def _makes_set(codes: list[str], pick: int, code: str) -> bool:
    """Do the laid ``codes`` with ``code`` at ``pick`` make a run or a triplet (unread tiles
    not held against it)?"""
    trial = [code if i == pick else c for i, c in enumerate(codes)]
    return is_set("chi", trial) or is_set("pon", trial)


def _fill_triplet(codes: list[str], pai: str) -> list[str]:
    """A call whose unread tiles can only be of the kind read (the called ``pai``'s, else the one
    kind every read tile shows): an honour (no runs of honours), or a number tile read twice (a
    pon: a run has no pairs). Red fives stay unsaid."""
    read = [c for c in codes if c != tiles.UNKNOWN]
    kinds = {tiles.deaka(c) for c in read}
    if tiles.UNKNOWN not in codes or len(kinds) != 1:
        return codes
    kind = kinds.pop()
    if pai != tiles.UNKNOWN and tiles.deaka(pai) != kind:
        return codes
    if len(read) < 2 and not tiles.is_honor(kind):
        return codes
    return [kind if c == tiles.UNKNOWN else c for c in codes]


KAN_PITCH_MM = 5.0  # how far a laid kan's tiles may lie from a tile's width apart
BOXED_TWICE_MM = 0.7 * TILE_W  # two boxes of one kind closer than this in a meld row: one tile


def _a_pon_boxed_twice(new: TableView, codes: list[str]) -> int | None:
    """The box to drop (an index into ``new``, right to left) when four new boxes of one kind are
    a pon with one tile boxed twice: two of them closer than ``BOXED_TWICE_MM`` (laid tiles lie a
    tile's width apart), and the other three, without the less sure of those two, a tile's width
    apart (30.5 mm beside a sideways tile, however it read). Set 10 hanchan-jansou-2 7435: a pon of
    P (a blank face, boxed loosely) read at 382.7, 399.8, 423.7 and 454.0 mm was a daiminkan, then
    a false dora_not_flipped; the later reads saw three tiles. Boxes of two tiles can lie that
    close too (set 8 hanchan-jansou-0: a pon of P boxed 37 and 16 mm apart), but a kan with one
    box so shifted leaves three that do not lie as a pon."""
    kinds = {tiles.deaka(c) for c in codes} - {tiles.UNKNOWN}
    if len(new) != 4 or len(kinds) != 1:
        return None
    close = np.nonzero(-np.diff(new.u) < BOXED_TWICE_MM)[0]
    if len(close) != 1:
        return None
    pair = (int(close[0]), int(close[0]) + 1)
    drop = min(pair, key=lambda i: float(new.confidence[i]))
    gaps = -np.diff(np.delete(new.u, drop))
    apart = np.minimum(np.abs(gaps - TILE_W), np.abs(gaps - (TILE_W + TILE_H) / 2))
    return drop if bool((apart < KAN_PITCH_MM).all()) else None


def _laid_as_a_kan(k: Kyoku, e: int, new: TableView, codes: list[str]) -> bool:
    """Do four new meld tiles of edge ``e`` lie as a daiminkan on the last discard: one row, a
    tile's width apart, the one sideways tile where a kan from the discarder lays it, read as
    two kinds at most? Then they are a kan whatever their faces read (hanchan-jansou-3 9723: a
    daiminkan of S read C C S C, cut to a pon with its sideways tile at the left, a false
    meld_orientation); a stray box beside a pon does not lie so."""
    faces = {tiles.deaka(c) for c in codes} - {tiles.UNKNOWN}
    if k.last_discard is None or len(faces) > 2:
        return False  # (four kinds read: a call and a tile beside it, e.g. a kan's left over)
    order = np.argsort(new.u)
    side = np.nonzero(new.sideways[order])[0].tolist()
    if _named_seat(e, 4, side) != k.last_discard[0]:
        return False
    wide = np.where(new.sideways[order], TILE_H, TILE_W)
    gaps = np.diff(new.u[order])
    return bool((np.abs(gaps - (wide[1:] + wide[:-1]) / 2) < KAN_PITCH_MM).all())


def lie_as_laid(laid: list[MeldTile], side: list[int]) -> None:
    """A call's tiles lie sideways as its layout says (``side``), not as the look it was read
    from boxed them: a kakan's tile is found on the sideways one (t6-suukantsu_0's pon of 1s,
    its middle tile boxed upright as it was laid and sideways on every read after, took no
    kakan; the added tile, left new, joined the next ankan's tiles as a call that had no
    discard to take, and both went unread)."""
    for i, tile in enumerate(laid):
        tile.sideways = i in side


def _on_a_sideways_tile(known: list[MeldTile], u: np.ndarray, v: np.ndarray, match_mm: float) -> np.ndarray:
    """(N,) bool: boxes at (``u``, ``v``) lying where a kakan's added tile does, on a known
    sideways meld tile: along the row within ``match_mm`` of it, and toward the centre of it and
    of its meld's row by half a tile's width at least. A box on the row beside it is a tile of
    the meld boxed again (set 3's hanchan-jansou-3 16816, 17502 and 18972: 4-5 mm off the row,
    read as kakans, each then a false dora_not_flipped; a real one there lay 23 mm in)."""
    sides = [m for m in known if m.sideways]
    if not sides:
        return np.zeros(len(u), bool)
    row_v = {g: float(np.median([m.v for m in known if m.group == g])) for g in {m.group for m in sides}}
    side_u = np.array([m.u for m in sides])
    side_v = np.array([min(m.v, row_v[m.group]) for m in sides])
    along = np.abs(u[:, None] - side_u[None]) < match_mm
    inward = side_v[None] - v[:, None] > TILE_W / 2
    return (along & inward).any(axis=1)


def _sideways_by_box_and_spacing(laid: TableView) -> list[int]:
    """The sideways tile of a call whose angles all read upright: the one tile whose box is not
    an upright tile's shape, where the gaps beside it are the wider ones (``sideways_by_spacing``).
    A call laid all upright (the fault) shows upright-shaped boxes. (Set 8 t6-double_kakan_then_
    chankan 2130, overhead: a pon of 6p from shimocha, its right tile sideways 36 mm from the next,
    the others 25 mm apart, level with them and its box never upright-shaped: "no tile sideways",
    a false meld_orientation.)"""
    unshaped = np.nonzero(~laid.tall)[0].tolist()
    if len(unshaped) != 1:
        return []
    wide = sideways_by_spacing(laid.u)
    return wide if wide == unshaped else []


def _between_known_tiles(known: list[MeldTile], u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """(N,) bool: boxes whose centres lie between two neighbouring tiles of one known meld, on
    its row: a box over both (a new call is laid beside the melds, never inside one; set 8's
    hanchan-jansou-1 1150: a box between a chi's 2s and 4s taken as a pon's third tile, which put
    the pon's sideways tile in its middle, a false meld_orientation). A kakan's tile, on the
    sideways one, is taken before this is asked."""
    if len(known) < 2 or not len(u):
        return np.zeros(len(u), bool)
    group = np.array([m.group for m in known])
    ku, kv = _places(known).T
    order = np.lexsort((ku, group))  # each meld's tiles left to right, meld after meld
    group, ku, kv = group[order], ku[order], kv[order]
    pair = group[:-1] == group[1:]  # neighbours within one meld
    left, right = ku[:-1][pair], ku[1:][pair]
    row_v = ((kv[:-1] + kv[1:]) / 2)[pair]  # (the meld's row, at the pair)
    inside = (u[:, None] > left) & (u[:, None] < right) & (np.abs(v[:, None] - row_v) < TILE_H / 2)
    return inside.any(axis=1)


def _on_the_row(new: TableView) -> np.ndarray:
    """(N,) bool: the new meld tiles kept, one a place along their row. Of two boxes over the
    same place (less than half a tile apart along ``u``), the one nearer the centre (lower
    ``v``) is a tile boxed twice (hanchan-jansou-2 12276: a pon's sideways tile also boxed as a
    back 19 mm toward the centre, four tiles with one face down: a false ankan). A meld row lies
    as near its player as the table lets it; only a kakan's tile lies toward the centre, and a
    new call has none yet (``_read_melds`` takes those beside known sideways tiles first)."""
    u, v = new.u.astype(np.float64), new.v.astype(np.float64)
    same = np.abs(u[:, None] - u[None]) < TILE_W / 2
    np.fill_diagonal(same, False)
    # (of two at one place and one depth, the first kept)
    inward = (v[:, None] < v[None]) | (
        (v[:, None] == v[None]) & (np.arange(len(new))[:, None] > np.arange(len(new))[None])
    )
    return ~(same & inward).any(axis=1)


def _one_kind(codes: list[str]) -> bool:
    return len({tiles.deaka(c) for c in codes if c != "?"}) <= 1
