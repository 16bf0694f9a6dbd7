"""``mjmon synth``: a game log rendered as an overhead-camera video with exact ground truth."""
