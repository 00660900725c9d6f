"""Live updates: the state events as a server-sent-events stream.

Each page opens ``/events?last_id=N`` (N: the event its HTML was drawn from). The browser
reconnects by itself after a drop and sends ``Last-Event-ID``; the stream then starts with what
the page missed. A comment line every ``KEEPALIVE`` seconds keeps proxies and idle timers from
closing a quiet stream.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, abort, current_app, request

from web.hub import Listener
from web.services import services

bp = Blueprint("events", __name__)

KEEPALIVE_COMMENT = b": keep-alive\n\n"


def requested_last_id() -> int | None:
    """The last event id the client has: the ``Last-Event-ID`` header, else ``?last_id=``."""
    for raw in (request.headers.get("Last-Event-ID"), request.args.get("last_id")):
        if raw is not None and raw.strip().isdigit():
            return int(raw.strip())
    return None


def event_stream(listener: Listener, keepalive: float, retry_ms: int) -> Iterator[bytes]:
    """The SSE byte stream of ``listener``: a retry hint, then events and keep-alive comments."""
    try:
        yield f"retry: {retry_ms}\n\n".encode()
        while True:
            event = listener.get(keepalive)
            if listener.is_closed:
                return
            yield KEEPALIVE_COMMENT if event is None else event.to_sse()
    finally:
        listener.close()


@bp.get("/events")
def stream() -> Response:
    hub = services().hub
    config = current_app.config
    if hub.listener_count >= int(config["MAX_LISTENERS"]):
        abort(
            Response(
                "too many open event streams; retrying shortly\n",
                status=503,
                headers={"Retry-After": "10"},
                mimetype="text/plain",
            )
        )
    listener = hub.subscribe(requested_last_id())
    response = Response(
        event_stream(listener, float(config["KEEPALIVE"]), int(config["SSE_RETRY_MS"])),
        mimetype="text/event-stream",
    )
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
