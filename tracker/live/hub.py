"""Fan-out of JSON messages to WebSocket clients that never slows the publisher.

Each client has a bounded queue. ``publish`` (any thread) hands one already-serialised message to
the event loop; a client whose queue is full loses its backlog and gets a fresh snapshot in its
place (``resync``), so a stalled or dead client costs one queue of memory and nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Client:
    def __init__(self, size: int):
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)
        self.dropped = 0  # messages dropped from this client's backlog
        self.closed = False

    def close(self) -> None:
        """The socket closed: wake the sender waiting on the queue so it can finish."""
        self.closed = True
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait("")


class Hub:
    def __init__(self, snapshot: Callable[[], str], queue_size: int = 64):
        self.snapshot = snapshot  # the current state as a ``{"type": "snapshot", ...}`` message
        self.queue_size = queue_size
        self.clients: set[Client] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dropped = 0

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def add(self) -> Client:
        client = Client(self.queue_size)
        client.queue.put_nowait(self.snapshot())
        self.clients.add(client)
        return client

    def remove(self, client: Client) -> None:
        self.clients.discard(client)

    def publish(self, text: str) -> None:
        """Thread-safe and non-blocking; a no-op before the server loop runs."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._fanout, text)
        except RuntimeError:  # loop closing at shutdown
            pass

    def _fanout(self, text: str) -> None:
        for client in list(self.clients):
            queue = client.queue
            if queue.full():
                lost = queue.qsize()
                while not queue.empty():
                    queue.get_nowait()
                client.dropped += lost
                self.dropped += lost
                queue.put_nowait(self.snapshot())  # the snapshot already holds what ``text`` says
                continue
            queue.put_nowait(text)
