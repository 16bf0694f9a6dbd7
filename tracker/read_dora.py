"""Reading the dora indicators: face-up tiles in the walls, the first at the deal, a new one after
each kan (kept back until its kan is read, so the record keeps kan, then dora).

Every read votes on each indicator's face (weighted by the detector's confidence), for the whole
kyoku: an indicator at the far edge of a low camera is a dozen pixels wide and its first reads
are often wrong while later ones are right. A face the votes later overturn is corrected with a
``retract`` naming the start_kyoku or dora event (``events.apply_retractions`` sets its
``dora_marker``). A face-up tile counts as an indicator only once seen so on reads in a row
(a wall tile misread face up once is none).
A mixin of ``tracker.tracker.TableTracker`` (its state, config and emitting)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from tracker import events as ev
from tracker.kyoku import DoraPlace, Kyoku
from tracker.readings import pick_code
from tracker.zones import WALL, TableView


class DoraReader:
    def _read_dora(self, view: TableView, k: Kyoku, out: list | None = None) -> None:
        self._vote_dora(view, k)
        if not k.started:
            self._first_indicator(k)
            return
        start = next((p for p in k.dora_places if p.event == "start_kyoku"), None)
        for place in k.dora_places:
            if not place.indicator or place.event is not None or any(p is place for p, _ in k.dora_waiting):
                continue
            if start is None and out is not None:
                # no indicator was seen before the first discard: this one is the kyoku's own
                self._name(place, "start_kyoku", k.frame)
                out.append(self._correction(place, pick_code(place.votes)))
                start = place
            else:
                k.dora_waiting.append((place, self._frame))
        if out is not None:
            self._flush_dora(k, out)
            self._review_dora(k, out)

    def _vote_dora(self, view: TableView, k: Kyoku) -> None:
        """Face-up wall tiles of the trusted edges vote at their place (a new place where none is
        near); a back seen at a place ends its run of face-up reads. A face read below
        ``dora_min_confidence`` is not a read (a back beside an indicator boxed again as a face:
        0.05-0.08 on the evaluation clips, where indicators' reads had medians of 0.24 or more),
        nor is a face boxed sideways: an indicator is turned over where it lay, as the wall's
        tiles lie (set 10 hanchan-jansou-0 1944, low camera: the far wall's end boxed as a
        sideways 3m at 0.17 on seven reads was let go as a dora with no kan; of the 262 indicators
        named on sets 7 and 8 and six clips of set 10, none had been read sideways once)."""
        wall = view.select((view.zone == WALL) & self._trusted[np.clip(view.edge, 0, 3)])
        up = wall.select(wall.face_up & ~wall.sideways & (wall.confidence >= self.cfg.dora_min_confidence))
        down = wall.select(wall.back)
        seen: set[int] = set()
        for e, u, cid, conf in zip(
            up.edge.tolist(), up.u.tolist(), up.class_ids.tolist(), up.confidence.tolist()
        ):
            place = self._dora_place(k, e, u)
            if place is None:
                place = DoraPlace(e, u, Counter())
                k.dora_places.append(place)
            if id(place) in seen:
                continue  # one tile boxed twice votes once
            seen.add(id(place))
            place.votes[self._code(cid)] += conf
            place.run += 1
            place.indicator = place.indicator or (place.run >= self.cfg.dora_reads and not place.barred)
        places = k.dora_places
        if not len(down) or not places:
            return
        # each back resets the first place it lies at (the wall's backs, all at once)
        near = (down.edge[:, None] == np.array([p.edge for p in places])[None]) & (
            np.abs(down.u[:, None] - np.array([p.u for p in places])[None]) < self.cfg.match_mm
        )
        hit = np.zeros(len(places), bool)
        hit[near.argmax(axis=1)[near.any(axis=1)]] = True
        for place in (p for p, h in zip(places, hit.tolist(), strict=True) if h and id(p) not in seen):
            place.run, place.barred = 0, False

    def _dora_place(self, k: Kyoku, edge: int, u: float) -> DoraPlace | None:
        return next((p for p in k.dora_places if p.edge == edge and abs(p.u - u) < self.cfg.match_mm), None)

    def _first_indicator(self, k: Kyoku) -> None:
        """Before the first discard (start_kyoku, emitted with it, takes ``k.dora[0]``): the place
        seen face up on most reads in a row, then on the surest reads, is the kyoku's indicator."""
        seen = [p for p in k.dora_places if p.run > 0 or p.indicator or p.event is not None]
        best = max(seen, key=lambda p: (p.run, sum(p.votes.values())), default=None)
        for p in seen:  # the others are not indicators (one a deal)
            p.event, p.indicator, p.barred = None, False, True
        if best is None:
            k.dora = []
            return
        best.barred = False
        self._name(best, "start_kyoku", k.frame)
        k.dora = [best.said]

    def _name(self, place: DoraPlace, event: str, frame: int) -> None:
        place.indicator = True
        place.said, place.event, place.frame = pick_code(place.votes), event, frame

    def _correction(self, place: DoraPlace, code: str):
        return lambda seat, p=place, c=code: ev.Retract(
            target_type=p.event, target_frame=p.frame, pai=c, reason="tile reread"
        )

    def _flush_dora(self, k: Kyoku, out: list, ending: bool = False) -> None:
        """A new indicator follows a kan: one turned before the kan is read (the kan maker's arm
        still over its meld) waits for it, so the record keeps kan, then dora; not forever (a kan
        the camera missed must not cost the indicator), and not past the kyoku's result
        (``ending``: the indicator was turned before the hands were laid open). One let go for a
        kan not read is not counted against the kans read: the next kan read still has its own."""
        while k.dora_waiting and (
            ending or k.kans > k.doras or self._frame - k.dora_waiting[0][1] > self.cfg.dora_wait_frames
        ):
            place, _ = k.dora_waiting.pop(0)
            if k.kans > k.doras:
                k.doras += 1
            self._name(place, "dora", self._frame)
            out.append(lambda seat, c=place.said: ev.Dora(dora_marker=c))

    def _review_dora(self, k: Kyoku, out: list) -> None:
        """An indicator whose face later reads overturn (clearly, on enough of them) is corrected;
        one named unknown (``?``: a face the rules do not have) takes the first known face read."""
        for place in k.dora_places:
            if place.event is None:
                continue
            best = pick_code(place.votes)
            if best != place.said and (
                place.said == "?"
                or (
                    place.votes[best] >= self.cfg.dora_reread
                    and place.votes[best] > 2 * place.votes.get(place.said, 0.0)
                )
            ):
                out.append(self._correction(place, best))
                place.said = best
