"""Reading the dora indicators: face-up tiles in the dead wall, the first at the deal, a new one after
each kan (kept back until its kan is read, so the record keeps kan, then dora).
A mixin of ``tracker.tracker.TableTracker`` (its state, config and emitting)."""

from __future__ import annotations

import numpy as np

from tracker import events as ev
from tracker.kyoku import Kyoku
from tracker.zones import WALL, TableView


class DoraReader:
    def _read_dora(self, view: TableView, k: Kyoku, initial: bool = False, out: list | None = None) -> None:
        up = view.select((view.zone == WALL) & view.face_up & self._trusted[np.clip(view.edge, 0, 3)])
        for e, u, cid in zip(up.edge.tolist(), up.u.tolist(), up.class_ids.tolist()):
            if any(ke == e and abs(ku - u) < self.cfg.match_mm for ke, ku in k.dora_u):
                continue
            code = self._code(cid)
            k.dora_u.append((e, u))
            k.dora.append(code)
            if not initial and out is not None and k.started:
                k.dora_waiting.append((code, self._frame))
        if out is not None:
            self._flush_dora(k, out)

    def _flush_dora(self, k: Kyoku, out: list) -> None:
        """A new indicator follows a kan: one turned before the kan is read (the kan maker's arm
        still over its meld) waits for it, so the record keeps kan, then dora; not forever (a kan
        the camera missed must not cost the indicator)."""
        while k.dora_waiting and (
            k.kans > k.doras or self._frame - k.dora_waiting[0][1] > self.cfg.dora_wait_frames
        ):
            code, _ = k.dora_waiting.pop(0)
            k.doras += 1
            out.append(lambda seat, c=code: ev.Dora(dora_marker=c))
