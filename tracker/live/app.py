"""The web server: pages, tile faces, the alert API and the ``/ws`` stream (Starlette).

Read-only for everyone except acknowledging/dismissing, which needs the token. Files served are
a fixed list of package resources and the bundled tile faces looked up by tile code: no request
names a path of the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import time
from importlib import resources
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tracker import tiles
from tracker.live.hub import Hub
from tracker.live.store import AlertStore

STATIC = {  # name -> media type; the only files /static serves
    "live.css": "text/css",
    "overlay.js": "text/javascript",
    "referee.js": "text/javascript",
    "common.js": "text/javascript",
}
PAGES = {"overlay": "overlay.html", "referee": "referee.html"}
FACE_CODES = frozenset(tiles.GAME_CODES) - {tiles.UNKNOWN}
BATCH = 32  # messages sent in one WebSocket frame at most, when a client is behind
HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}


def _resource(package: str, *parts: str) -> bytes:
    return resources.files(package).joinpath(*parts).read_bytes()


def create_app(hub: Hub, store: AlertStore, token: str, snapshot=None) -> Starlette:
    """``hub`` fans out the pipeline's messages; ``snapshot()`` returns the current state text."""
    snapshot = snapshot or hub.snapshot
    faces: dict[str, bytes] = {}

    def authorised(request: Request) -> bool:
        given = request.headers.get("authorization", "")
        given = given[7:] if given.lower().startswith("bearer ") else request.headers.get("x-token", "")
        return bool(given) and hmac.compare_digest(given.encode(), token.encode())

    async def index(request: Request) -> Response:
        return RedirectResponse("/referee")

    async def page(request: Request) -> Response:
        name = PAGES[request.url.path.strip("/")]
        return HTMLResponse(_resource("tracker.live", "static", name), headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", 404)
        return Response(_resource("tracker.live", "static", name), media_type=STATIC[name], headers=HEADERS)

    async def tile_face(request: Request) -> Response:
        code = request.path_params["code"]
        if code not in FACE_CODES:
            return Response("not a tile code", 404)
        if code not in faces:
            faces[code] = _resource("datasets.art", "default", f"{code}.png")
        return Response(faces[code], media_type="image/png", headers={"Cache-Control": "max-age=86400"})

    async def state(request: Request) -> Response:
        return Response(snapshot(), media_type="application/json", headers=HEADERS)

    async def stats(request: Request) -> Response:
        """For operators and the load script: who is connected and what the web process costs."""
        clients = [{"queued": c.queue.qsize(), "dropped": c.dropped} for c in hub.clients]
        body = {"clients": clients, "messages": hub.messages, "dropped": hub.dropped}
        return JSONResponse(body | {"cpu_s": time.process_time()}, headers=HEADERS)

    async def list_alerts(request: Request) -> Response:
        q = request.query_params
        try:
            seat = int(q["seat"]) if q.get("seat") not in (None, "") else None
            limit = min(int(q.get("limit", 500)), 5000)
        except ValueError:
            return JSONResponse({"error": "seat and limit are integers"}, 400)
        rows = await asyncio.to_thread(
            store.list, q.get("table") or None, seat, q.get("code") or None, q.get("status") or None, limit
        )
        return JSONResponse({"alerts": rows}, headers=HEADERS)

    async def thumb(request: Request) -> Response:
        data = await asyncio.to_thread(store.thumb, request.path_params["alert_id"])
        if not data:
            return Response("no evidence image", 404)
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "max-age=86400"})

    async def set_status(request: Request) -> Response:
        if not authorised(request):
            return JSONResponse({"error": "token required"}, 401, headers={"WWW-Authenticate": "Bearer"})
        action = request.path_params["action"]
        status = {"ack": "acknowledged", "dismiss": "dismissed"}.get(action)
        if status is None:
            return JSONResponse({"error": "unknown action"}, 404)
        who = "referee"
        with contextlib.suppress(ValueError, json.JSONDecodeError):
            body = await request.json()
            if isinstance(body, dict) and str(body.get("who", "")).strip():
                who = str(body["who"]).strip()[:80]
        record = await asyncio.to_thread(store.set_status, request.path_params["alert_id"], status, who)
        if record is None:
            return JSONResponse({"error": "no such alert"}, 404)
        hub.publish(json.dumps({"type": "alert_status", "alert": record}, ensure_ascii=False))
        return JSONResponse(record)

    async def stream(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != ws.headers.get("host"):
            await ws.close(code=1008)  # another site's page in the operator's browser: no feed
            return
        await ws.accept()
        client = hub.add()
        reader = asyncio.create_task(_drain(ws, client))  # notices a closed socket while idle
        try:
            while not client.closed:
                batch = [await client.queue.get()]
                while len(batch) < BATCH and not client.queue.empty():
                    batch.append(client.queue.get_nowait())
                if client.closed:
                    break
                # what piled up while the last send was on its way goes out as one JSON array
                await ws.send_text(batch[0] if len(batch) == 1 else "[" + ",".join(batch) + "]")
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            hub.remove(client)
            reader.cancel()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.bind(asyncio.get_running_loop())
        yield

    routes = [
        Route("/", index),
        Route("/overlay", page),
        Route("/referee", page),
        Route("/static/{name}", static),
        Route("/tiles/{code}.png", tile_face),
        Route("/api/state", state),
        Route("/api/alerts", list_alerts),
        Route("/api/stats", stats),
        Route("/api/alerts/{alert_id}/thumb.jpg", thumb),
        Route("/api/alerts/{alert_id}/{action}", set_status, methods=["POST"]),
        WebSocketRoute("/ws", stream),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _drain(ws: WebSocket, client) -> None:
    """Read and ignore what a client sends; on disconnect, wake its sender to finish."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
    client.close()
