"""An alert's evidence: where in the frame to look (the part of the offending seat's table its
rule judges) and the picture of it a referee reads, a JPEG cut from the alert's frame.

The rules checker judges events and knows no pixels; the tracker knows which image edge each
seat sits at and where that seat's river, melds, wall and hand lie (``tracker.zones``), so it
boxes the alert there. Written next to ``alerts.jsonl`` by ``mjmon analyze`` and served by
``mjmon live``.
"""

from __future__ import annotations

import numpy as np

from tracker.zones import ZONES, ZoneBands, to_table
from vision.calibration import Calibration

THUMB_WIDTH = 480  # px: a crop wider than this is scaled down (a seat's meld row stays legible)
EVENT_IMAGES = 24  # frames kept at most (~2.7 MB each at 1280x720)
MARGIN_MM = 20.0  # around a zone band (tile centres): the tiles' own extent

#: the zones of the alerting seat that hold each rule's evidence (other codes: the whole frame)
EVIDENCE_ZONES: dict[str, tuple[str, ...]] = {
    "river_layout": ("river",),
    "riichi_not_sideways": ("river",),
    "time_limit": ("river",),
    "kuikae": ("river", "meld"),  # the discard and the call it swaps with
    "meld_orientation": ("meld",),
    "invalid_meld": ("meld",),
    "illegal_call": ("meld",),
    "dora_not_flipped": ("meld",),  # the kan (the indicators lie on whichever wall is dead)
    "tile_count_excess": ("hand",),
    "tile_count_short": ("hand",),
    "noten_riichi": ("hand",),
    "exposed_tiles": ("hand",),
    "false_win": ("hand", "meld"),
    "early_draw": ("hand", "wall"),  # the tile taken and the wall it came from
}


def zone_boxes(cal: Calibration, bands: ZoneBands) -> np.ndarray:
    """(4 edges, 4 zones in ``ZONES`` order, 4) image boxes x0 y0 x1 y1 of each edge's zone bands,
    ``MARGIN_MM`` around them, clipped to the image."""
    out = np.zeros((4, len(ZONES), 4), np.float64)
    m = MARGIN_MM
    for edge in range(4):
        for z, (u0, u1, v0, v1) in enumerate(bands.array()):
            local = [(u0 - m, v0 - m), (u1 + m, v0 - m), (u1 + m, v1 + m), (u0 - m, v1 + m)]
            px = cal.table_to_image(np.array([to_table(edge, u, v) for u, v in local]))
            lo = np.maximum(px.min(axis=0), 0.0)
            hi = np.minimum(px.max(axis=0), [cal.width, cal.height])
            out[edge, z] = [*lo, *hi]
    return out


def evidence_box(code: str, edge: int, boxes: np.ndarray) -> list[float] | None:
    """The image box holding ``code``'s evidence at seat edge ``edge`` (``zone_boxes``), or None
    when the rule's evidence is not one seat's (the whole frame)."""
    zones = EVIDENCE_ZONES.get(code)
    if not zones:
        return None
    sel = boxes[edge, [ZONES.index(z) for z in zones]]
    box = np.concatenate([sel[:, :2].min(axis=0), sel[:, 2:].max(axis=0)])
    if box[2] <= box[0] or box[3] <= box[1]:
        return None  # the zone lies outside the picture
    return [round(float(x), 1) for x in box]


def evidence_jpeg(image: np.ndarray, box: list[float] | None) -> bytes | None:
    """A JPEG of the evidence: ``box`` with a margin, or the whole frame; at most THUMB_WIDTH wide."""
    import cv2

    h, w = image.shape[:2]
    crop = image
    if box is not None:
        x1, y1, x2, y2 = box
        m = max(0.15 * max(x2 - x1, y2 - y1), 40.0)  # a tile's box: its neighbours in view too
        x1, y1 = int(max(x1 - m, 0)), int(max(y1 - m, 0))
        x2, y2 = int(min(x2 + m, w)), int(min(y2 + m, h))
        if x2 > x1 and y2 > y1:
            crop = image[y1:y2, x1:x2]
    scale = THUMB_WIDTH / crop.shape[1]
    if scale < 1:
        crop = cv2.resize(
            crop, (THUMB_WIDTH, max(int(crop.shape[0] * scale), 1)), interpolation=cv2.INTER_AREA
        )
    ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return data.tobytes() if ok else None


class EventFrames:
    """The frames events were read on, kept while an alert may still point back at one (a held
    alert is said up to the checker's settle time after its evidence frame): at most
    ``EVENT_IMAGES``, none older than ``keep_frames``, so memory stays flat over a hanchan."""

    def __init__(self, keep_frames: int, most: int = EVENT_IMAGES) -> None:
        self.keep_frames, self.most = keep_frames, most
        self._images: dict[int, np.ndarray] = {}

    def add(self, frame: int, image: np.ndarray) -> None:
        self._images[frame] = image
        old = [i for i in self._images if i < frame - self.keep_frames]
        for index in old + list(self._images)[: max(0, len(self._images) - self.most)]:
            self._images.pop(index, None)

    def picture(self, alert, now: np.ndarray | None) -> bytes | None:
        """``alert``'s evidence JPEG, from its own frame if kept, else from ``now``."""
        image = self._images.get(alert.frame, now) if alert.frame is not None else now
        return evidence_jpeg(image, alert.evidence.box) if image is not None else None
