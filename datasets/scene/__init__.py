"""The table scene: where every tile lies (table plane, mm), how it is painted, how the camera sees it."""
