"""Assemble and run a live monitor: store + pipeline + hub + web app under uvicorn."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass

from tracker.analysis import FrameAnalyzer
from tracker.live.app import create_app
from tracker.live.hub import Hub
from tracker.live.pipeline import LivePipeline
from tracker.live.source import VideoSource
from tracker.live.store import AlertStore


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
    """Everything ``mjmon live`` runs. ``serve()`` blocks; ``start()`` runs it in a thread
    (tests, the load script) and ``close()`` stops it."""

    def __init__(self, config: LiveConfig, analyzer_factory: Callable[[], FrameAnalyzer]):
        self.config = config
        self.token = config.token or secrets.token_urlsafe(18)
        self.store = AlertStore(config.db)
        self.source = VideoSource(config.source, speed=config.speed, paced=config.paced)
        self.source.check()
        self.hub = Hub(lambda: self.pipeline.snapshot(), config.queue_size)
        self.pipeline = LivePipeline(
            self.source, analyzer_factory, self.store, self.hub.publish, config.table, config.session
        )
        self.app = create_app(self.hub, self.store, self.token)
        self._server = None
        self._thread: threading.Thread | None = None

    def _uvicorn(self):
        import uvicorn

        config = uvicorn.Config(
            self.app,
            host=self.config.host,
            port=self.config.port,
            log_level="warning",
            ws="websockets-sansio",
            lifespan="on",
            ws_max_queue=4,
        )
        self._server = uvicorn.Server(config)
        return self._server

    def serve(self, start_pipeline: bool = True) -> None:
        server = self._uvicorn()
        if start_pipeline:
            self._start_pipeline_when_up(server)
        server.run()
        self.pipeline.stop.set()
        self.pipeline.join(5)
        self.store.close()

    def start(self, start_pipeline: bool = True) -> None:
        server = self._uvicorn()
        server.install_signal_handlers = lambda: None  # not the main thread
        self._thread = threading.Thread(target=server.run, name="mjmon-live-server", daemon=True)
        self._thread.start()
        self._wait_started(server)
        if start_pipeline:
            self.pipeline.start()

    def _wait_started(self, server) -> None:
        import time

        for _ in range(400):
            if server.started:
                return
            time.sleep(0.025)
        raise OSError(f"the server did not start on {self.config.host}:{self.config.port}")

    def _start_pipeline_when_up(self, server) -> None:
        def wait_then_run():
            import time

            while not server.started and not server.should_exit:
                time.sleep(0.02)
            if server.started:
                self.pipeline.start()

        threading.Thread(target=wait_then_run, daemon=True).start()

    def close(self) -> None:
        self.pipeline.stop.set()
        self.pipeline.join(5)
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5)
        self.store.close()
