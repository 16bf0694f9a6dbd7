"""The durable alert store: SQLite in WAL mode, one row per alert, acknowledgements with who/when.

``add`` commits (synchronous=FULL) before it returns, and the pipeline broadcasts an alert only
after ``add`` returned: an alert any client has seen survives a SIGKILL of the process. Evidence
thumbnails live in the database too (JPEG bytes), so the server never serves a path of the disk.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from rules_check.alert import Alert

STATUSES = ("new", "acknowledged", "dismissed")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS alerts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    table_name TEXT NOT NULL,
    code TEXT NOT NULL,
    seat INTEGER,
    body TEXT NOT NULL,
    thumb BLOB,
    created REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'new',
    status_by TEXT,
    status_at REAL
);
CREATE TABLE IF NOT EXISTS actions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    alert_id TEXT NOT NULL REFERENCES alerts(id),
    action TEXT NOT NULL,
    who TEXT NOT NULL,
    at REAL NOT NULL
);
"""


class AlertStore:
    """Thread-safe (one connection behind a lock): the pipeline thread writes alerts, the server
    thread reads the feed and writes acknowledgements."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add(self, alert: Alert, table: str = "1", thumb: bytes | None = None) -> dict[str, Any]:
        """Store one alert and commit. An id already stored (a restart replaying the same clip)
        is kept as it was, acknowledgement included. Returns the stored record."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO alerts (id, table_name, code, seat, body, thumb, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (alert.id, table, alert.code, alert.seat, alert.model_dump_json(), thumb, time.time()),
            )
            row = self._db.execute(f"SELECT {_COLUMNS} FROM alerts WHERE id = ?", (alert.id,)).fetchone()
        return _record(row)

    def set_status(self, alert_id: str, status: str, who: str) -> dict[str, Any] | None:
        """Acknowledge or dismiss; returns the updated record, None for an unknown id."""
        if status not in STATUSES[1:]:
            raise ValueError(f"unknown status {status!r}")
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "UPDATE alerts SET status = ?, status_by = ?, status_at = ? WHERE id = ?",
                    (status, who, now, alert_id),
                )
                if cur.rowcount == 0:
                    self._db.execute("ROLLBACK")
                    return None
                self._db.execute(
                    "INSERT INTO actions (alert_id, action, who, at) VALUES (?, ?, ?, ?)",
                    (alert_id, status, who, now),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            row = self._db.execute(f"SELECT {_COLUMNS} FROM alerts WHERE id = ?", (alert_id,)).fetchone()
        return _record(row)

    def list(
        self,
        table: str | None = None,
        seat: int | None = None,
        code: str | None = None,
        status: str | None = None,
        limit: int = 500,
    ) -> list[dict[str, Any]]:
        """Stored alerts, newest first, filtered by any of table / seat / code / status."""
        where, args = [], []
        for column, value in (("table_name", table), ("seat", seat), ("code", code), ("status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        sql = f"SELECT {_COLUMNS} FROM alerts"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY seq DESC LIMIT ?"
        with self._lock:
            rows = self._db.execute(sql, (*args, limit)).fetchall()
        return [_record(r) for r in rows]

    def thumb(self, alert_id: str) -> bytes | None:
        with self._lock:
            row = self._db.execute("SELECT thumb FROM alerts WHERE id = ?", (alert_id,)).fetchone()
        return row[0] if row else None

    def actions(self, alert_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT action, who, at FROM actions WHERE alert_id = ? ORDER BY seq", (alert_id,)
            ).fetchall()
        return [{"action": a, "who": w, "at": t} for a, w, t in rows]


_COLUMNS = "id, table_name, body, thumb IS NOT NULL, created, status, status_by, status_at"


def _record(row) -> dict[str, Any]:
    alert_id, table, body, has_thumb, created, status, by, at = row
    return {
        "alert": json.loads(body),
        "id": alert_id,
        "table": table,
        "thumb": f"/api/alerts/{alert_id}/thumb.jpg" if has_thumb else None,
        "created": created,
        "status": status,
        "status_by": by,
        "status_at": at,
    }
