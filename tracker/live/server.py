"""Assemble and run a live monitor: source + analyzer + store here, the web server in a child."""

from __future__ import annotations

import secrets
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from tracker.analysis import FrameAnalyzer
from tracker.live.pipeline import LivePipeline
from tracker.live.source import VideoSource
from tracker.live.store import AlertStore
from tracker.live.webproc import WebProcess, WebSettings


@dataclass
class LiveConfig:
    source: str
    db: str = "mjmon-live.sqlite"
    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None  # None: a fresh random token, printed at start-up
    table: str = "1"
    speed: float = 1.0
    paced: bool = True
    session: str | None = None
    queue_size: int = 64


class LiveMonitor:
    """Everything ``mjmon live`` runs: the analysis (source, analyzer, store) in this process and
    the web server in a child (``WebProcess``). ``serve()`` blocks until interrupted; ``start()``
    returns once the server listens (tests, the load script) and ``close()`` stops both."""

    def __init__(self, config: LiveConfig, analyzer_factory: Callable[[], FrameAnalyzer]):
        self.config = config
        self.token = config.token or secrets.token_urlsafe(18)
        self.store = AlertStore(config.db)  # creates the schema before the web process opens it
        self.source = VideoSource(config.source, speed=config.speed, paced=config.paced)
        self.source.check()
        settings = WebSettings(
            config.host, config.port, str(config.db), self.token, config.table, config.queue_size
        )
        self.web = WebProcess(settings, lambda: self.pipeline.snapshot())
        self.pipeline = LivePipeline(
            self.source, analyzer_factory, self.store, self.web.publish, config.table, config.session
        )

    def start(self, start_pipeline: bool = True) -> None:
        self.web.start()
        if start_pipeline:
            self.pipeline.start()

    def serve(self, on_ready: Callable[[], None] = lambda: None) -> None:
        """Run until Ctrl-C / SIGTERM or until the web server exits; the pages keep the last
        state after the source ends. ``on_ready`` runs once the server listens."""
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            self.start()
            on_ready()
            while self.web.alive():
                time.sleep(0.2)
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            self.close()

    def close(self) -> None:
        self.pipeline.stop.set()
        self.pipeline.join(5)
        self.web.stop()
        self.store.close()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
