"""Fan-out of JSON messages to WebSocket clients that never slows the publisher.

Each client has a bounded queue. ``publish`` (any thread) hands one already-serialised message to
the event loop; a client whose queue is full loses its backlog and gets a fresh snapshot in its
place (``resync``), so a stalled or dead client costs one queue of memory and nothing else.
"""

from __future__ import annotations

import asyncio
import json
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
        self.messages = 0  # messages fanned out

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
            loop.call_soon_threadsafe(self.fanout, text)
        except RuntimeError:  # loop closing at shutdown
            pass

    def fanout(self, text: str) -> None:
        """On the event loop: queue ``text`` for every client."""
        self.messages += 1
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


class Snapshot:
    """The latest table picture, kept by the web process from the messages it fans out (the
    analysis process never serialises it): what a new or resynchronised client starts from."""

    FIELDS = {
        "update": ("frame", "t", "turn", "state"),
        "tick": ("frame", "t", "turn"),
        "source": ("source",),
    }

    def __init__(self, table: str = "1"):
        self._latest = {"type": "snapshot", "table": table, "frame": None, "t": None}
        self._latest |= {"state": None, "turn": None, "source": "starting"}
        self._text: str | None = None

    def merge(self, message: dict) -> None:
        if message.get("type") == "snapshot":
            self._latest = dict(message)
        else:
            fields = self.FIELDS.get(message.get("type"), ())
            changes = {
                k: message[k] for k in fields if k in message and (k != "state" or message[k] is not None)
            }
            if not changes:
                return
            self._latest = {**self._latest, **changes}
        self._text = None

    def text(self) -> str:
        text = self._text
        if text is None:
            text = self._text = json.dumps(self._latest, ensure_ascii=False)
        return text
