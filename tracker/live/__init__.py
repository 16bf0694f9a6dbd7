"""The live monitor (``mjmon live``): a video source fed through a FrameAnalyzer, alerts made
durable in SQLite before anyone sees them, and a small web server for the broadcast overlay
(``/overlay``), the referee's alert feed (``/referee``) and their JSON stream (``/ws``)."""
