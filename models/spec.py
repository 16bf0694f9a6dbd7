"""Constants the training code and the runtime detector share (no torch here)."""

from __future__ import annotations

from tracker.tiles import MODEL_CLASSES

#: a tile's box is rescaled to this width (px) before the net sees it
NATIVE_TILE_PX = 20.0
#: output grid stride in input px
STRIDE = 4
NUM_CLASSES = len(MODEL_CLASSES)
#: orientation classes: index k means the tile is turned k * 90 degrees counterclockwise
NUM_ORIENTATIONS = 4
ANGLES = (0, 90, 180, 270)
#: the reader (second look at each face-up tile) sees a square of READER_MARGIN x the box's longer
#: side, scaled to READER_PX x READER_PX
READER_PX = 48
READER_MARGIN = 1.25
