"""The web server in a process of its own, so serving never competes with the analysis.

The analysis process (decode, analyzer, alert store) hands each message, serialised once, to
``WebProcess.publish``: a non-blocking put on a bounded queue that a writer thread drains into a
pipe. The child process (``_serve``) reads the pipe, keeps the latest snapshot and fans every
message out to the WebSocket clients (``Hub``), and answers the pages and the alert API from its
own connection to the same SQLite store. Each side's Python interpreter lock, event loop and
socket work stay on its side: fifty clients cost the child CPU, never the analysis thread's lock.

The child exits when the pipe closes, so a killed parent takes its web server down with it.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

BACKLOG = 512  # messages waiting for the pipe before the publisher drops and resyncs


@dataclass(frozen=True)
class WebSettings:
    host: str
    port: int
    db: str
    token: str
    table: str = "1"
    queue_size: int = 64  # per WebSocket client


class WebProcess:
    """Parent side: ``start()`` spawns the server and waits until it listens (``OSError`` if it
    cannot); ``publish(text)`` never blocks; ``stop()`` closes the pipe and reaps the child.

    ``snapshot()`` (the analysis side's current picture) replaces the backlog when the child falls
    ``BACKLOG`` messages behind, as ``Hub`` does for a slow WebSocket client.
    """

    def __init__(self, settings: WebSettings, snapshot: Callable[[], str]):
        self.settings = settings
        self.snapshot = snapshot
        self.dropped = 0
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._conn = None
        self._process: mp.process.BaseProcess | None = None
        self._writer: threading.Thread | None = None

    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def start(self, timeout: float = 60.0) -> None:
        ctx = mp.get_context("spawn")  # never fork a process that holds decoder/onnxruntime threads
        inbox, self._conn = ctx.Pipe(duplex=False)
        ready_in, ready_out = ctx.Pipe(duplex=False)
        self._process = ctx.Process(
            target=_serve, args=(self.settings, inbox, ready_out), name="mjmon-live-web", daemon=True
        )
        self._process.start()
        inbox.close()
        ready_out.close()
        status = "the web server did not start in time"
        if ready_in.poll(timeout):
            try:
                status = ready_in.recv()
            except EOFError:
                status = "the web server exited while starting"
        ready_in.close()
        if status != "ok":
            self.stop()
            raise OSError(status)
        self._writer = threading.Thread(target=self._write, name="mjmon-live-pipe", daemon=True)
        self._writer.start()

    def publish(self, text: str) -> None:
        if self._queue.qsize() >= BACKLOG:  # the child is stuck: its backlog goes, the picture replaces it
            with contextlib.suppress(queue.Empty):
                while True:
                    self._queue.get_nowait()
                    self.dropped += 1
            self._queue.put(self.snapshot())
        self._queue.put(text)

    def _write(self) -> None:
        try:
            while (text := self._queue.get()) is not None:
                self._conn.send_bytes(text.encode())
        except OSError:  # the child is gone; the analysis goes on without pages
            pass

    def stop(self, timeout: float = 10.0) -> None:
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(timeout)
            self._writer = None
        if self._conn is not None:
            self._conn.close()  # end of file: the child shuts its server down
            self._conn = None
        if self._process is not None:
            self._process.join(timeout)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(timeout)
            self._process = None


def _serve(settings: WebSettings, inbox, ready) -> None:
    """Child process: the Starlette app under uvicorn, fed from ``inbox``."""
    import asyncio
    import contextlib
    import socket

    import uvicorn

    from tracker.live.app import create_app
    from tracker.live.hub import Hub, Snapshot
    from tracker.live.store import AlertStore

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            settings.host, settings.port, type=socket.SOCK_STREAM
        )[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as err:
        ready.send(err.strerror or str(err))
        return
    store = AlertStore(settings.db)
    snapshot = Snapshot(settings.table)
    hub = Hub(snapshot.text, settings.queue_size)
    app = create_app(hub, store, settings.token)
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws="websockets-sansio",
        lifespan="on",
        ws_max_queue=4,
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)

    def deliver(text: str, message: dict) -> None:  # on the event loop
        snapshot.merge(message)
        hub.fanout(text)

    def read_pipe() -> None:
        while hub.loop is None and not server.should_exit:
            time.sleep(0.01)  # messages wait in the pipe until the loop runs
        try:
            while True:
                data = inbox.recv_bytes()
                text = data.decode()
                with contextlib.suppress(ValueError):
                    hub.loop.call_soon_threadsafe(deliver, text, json.loads(text))
        except (EOFError, OSError):
            pass
        server.should_exit = True  # the analysis process ended or died

    def report_ready() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.01)
        with contextlib.suppress(OSError):
            ready.send("ok" if server.started else "the web server stopped while starting")
            ready.close()

    threading.Thread(target=read_pipe, name="mjmon-live-inbox", daemon=True).start()
    threading.Thread(target=report_ready, daemon=True).start()
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it shut down for
        pass
    finally:
        store.close()
