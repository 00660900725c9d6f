"""Serving the panel: in the foreground (:func:`serve`) or beside the referee (a thread).

A café's worth of phones, and a hostile one, must not knock the TV's page over. So every
connection lives on one asyncio event loop (uvicorn with its pure-Python h11 protocol, which runs
on a Pi): an idle connection costs a socket and a few kB, never a thread. The event streams
(``/events``) are served on that loop too, each a coroutine woken by the hub, so hundreds of open
pages take no threads either. Only the pages and the API run Flask, on a small pool of threads
(a2wsgi), which the streams can never fill. Streams are limited in all (``MAX_LISTENERS``) and per
client address (``MAX_LISTENERS_PER_CLIENT``); a page that stops reading is dropped by the hub
when its queue fills, while uvicorn's flow control keeps its unsent bytes bounded. Connections
of any kind, idle ones included, are limited per client address too
(``MAX_CONNECTIONS_PER_CLIENT``, :class:`ConnectionLimits`): one phone with a script cannot fill
the process's file limit with sockets that never send a byte.

:func:`make_server` still builds the former waitress server (a thread per stream), which the
room page's tests use.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask

from web.events import KEEPALIVE_COMMENT
from web.security import address_key
from web.services import EXTENSION, PanelServices
from web.settings import CONTENT_SECURITY_POLICY

SPARE_THREADS = 8
OUTBUF_HIGH_WATERMARK = 256 * 1024


def make_server(app: Flask, host: str, port: int, *, threads: int | None = None) -> Any:
    """A waitress server for ``app``, not yet running: ``.run()``, ``.close()``, ``.effective_port``.

    ``port`` 0 picks a free port. Raises ``OSError`` when the address cannot be bound.
    """
    from waitress import create_server

    listeners = int(app.config["MAX_LISTENERS"])
    return create_server(
        app,
        host=host,
        port=port,
        threads=threads if threads is not None else listeners + SPARE_THREADS,
        connection_limit=max(100, listeners + 4 * SPARE_THREADS),
        channel_timeout=max(120, int(float(app.config["KEEPALIVE"]) * 4)),
        # A page that stops reading blocks its worker after this much unsent output; its queue
        # in the hub then fills and the hub drops it (waitress's default would buffer 16 MB).
        outbuf_high_watermark=OUTBUF_HIGH_WATERMARK,
        ident="sheshbesh",
    )


#: Flask's threads for pages and the API (the streams need none): a Pi has four cores, and
#: fewer threads drawing pages at once leave the referee's thread more of the interpreter.
PAGE_THREADS = 4
#: Seconds an idle keep-alive connection is kept after its last response.
IDLE_SECONDS = 5
#: Pending connections the listening socket queues while the loop is busy.
BACKLOG = 2048
#: Open connections (idle, pages or streams) one client address may hold; more are closed as
#: soon as they are accepted. A browser opens at most six at a time to one server, plus one per
#: open page's stream (at most ``MAX_LISTENERS_PER_CLIENT``, 16), so a phone never meets it.
#: ``MAX_CONNECTIONS_PER_CLIENT`` in the app's config overrides it (0: no limit).
MAX_CONNECTIONS_PER_CLIENT = 32
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class PanelASGI:
    """The panel as an ASGI application: ``GET /events`` on the event loop, all else to Flask.

    >>> from web import create_app
    >>> PanelASGI(create_app({"SECRET_KEY": "x"})).streams_of("192.168.1.5")
    0
    """

    def __init__(self, app: Flask, *, threads: int = PAGE_THREADS) -> None:
        from a2wsgi import WSGIMiddleware

        self.app = app
        self.pages = WSGIMiddleware(app, workers=threads)  # type: ignore[arg-type]
        self._streams: dict[str, int] = {}

    def streams_of(self, client: str) -> int:
        """How many event streams ``client`` (an address) holds open now."""
        return self._streams.get(client, 0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/events" and scope["method"] == "GET":
            await self.events(scope, receive, send)
        elif scope["type"] == "http":
            await self.pages(scope, receive, send)  # type: ignore[arg-type]

    async def events(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One page's event stream, as :mod:`web.events` describes it, without a thread."""
        config = self.app.config
        hub = _services(self.app).hub
        client = str((scope.get("client") or ("",))[0])
        if hub.listener_count >= int(config["MAX_LISTENERS"]):
            await _refuse(send, "too many open event streams; retrying shortly")
            return
        if self.streams_of(client) >= int(config["MAX_LISTENERS_PER_CLIENT"]):
            await _refuse(send, "too many open event streams from this device")
            return
        headers = {key.decode("latin-1").lower(): value for key, value in scope["headers"]}
        listener = hub.subscribe(_last_id(headers, scope.get("query_string", b"")))
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()

        def wake() -> None:
            # RuntimeError: the loop has closed (the server stopped), so nobody is waiting.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(ready.set)

        listener.wake_with(wake)
        self._streams[client] = self.streams_of(client) + 1
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (b"content-type", b"text/event-stream; charset=utf-8"),
                        (b"cache-control", b"no-cache"),
                        (b"x-accel-buffering", b"no"),
                        *SECURITY_HEADERS,
                    ],
                }
            )
            retry = f"retry: {int(config['SSE_RETRY_MS'])}\n\n".encode()
            await send({"type": "http.response.body", "body": retry, "more_body": True})
            keepalive = float(config["KEEPALIVE"])
            while not listener.is_closed:
                event = listener.get(0)
                if event is not None:
                    body = event.to_sse()
                else:
                    ready.clear()
                    if listener.has_events or listener.is_closed:
                        continue
                    woken = asyncio.ensure_future(ready.wait())
                    done, _ = await asyncio.wait(
                        {woken, gone}, timeout=keepalive, return_when=asyncio.FIRST_COMPLETED
                    )
                    woken.cancel()
                    if gone in done:
                        return
                    if woken in done:
                        continue
                    body = KEEPALIVE_COMMENT
                await send({"type": "http.response.body", "body": body, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            return  # the page went away mid-write
        finally:
            gone.cancel()
            listener.close()
            left = self.streams_of(client) - 1
            if left > 0:
                self._streams[client] = left
            else:
                self._streams.pop(client, None)


class ConnectionLimits:
    """Counts the open connections of each client and says whether one more may stay.

    A client is its address, an IPv6 client its /64 network (a phone may take any address in
    it, as :func:`web.security.client_key` says for PINs). The Pi itself (127.0.0.1, ::1: its
    own screen, a local reverse proxy) is never limited. Used only on the server's event loop,
    so it needs no lock.

    >>> limits = ConnectionLimits(2)
    >>> [limits.enter("192.168.1.9") for _ in range(3)], limits.open_from("192.168.1.9")
    ([True, True, False], 2)
    >>> limits.enter("127.0.0.1"), limits.enter("fd00::1"), limits.enter("fd00::2")
    (True, True, True)
    >>> limits.enter("fd00::3"), limits.key("fd00::3")
    (False, 'fd00::/64')
    """

    UNLIMITED = frozenset({"127.0.0.1", "::1"})

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._open: dict[str, int] = {}

    @staticmethod
    def key(address: str) -> str:
        """The client that ``address`` belongs to (:func:`web.security.address_key`)."""
        return address_key(address)

    def open_from(self, address: str) -> int:
        """How many connections the client of ``address`` holds now (counted ones)."""
        return self._open.get(self.key(address), 0)

    def enter(self, address: str) -> bool:
        """Count a new connection from ``address``; False (not counted) when it is one too many."""
        if self.per_client <= 0 or address in self.UNLIMITED:
            return True
        key = self.key(address)
        held = self._open.get(key, 0)
        if held >= self.per_client:
            return False
        self._open[key] = held + 1
        return True

    def leave(self, address: str) -> None:
        """A connection that :meth:`enter` counted has closed."""
        if self.per_client <= 0 or address in self.UNLIMITED:
            return
        key = self.key(address)
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)


def _limited_protocol(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, closing a connection at once when its client holds too many."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class LimitedH11Protocol(H11Protocol):
        _counted_address: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = str(self.client[0]) if self.client else ""
            if limits.enter(address):
                self._counted_address = address
            else:
                transport.close()  # one too many from this client: closed before any request

        def connection_lost(self, exc: Exception | None) -> None:
            if self._counted_address is not None:
                limits.leave(self._counted_address)
                self._counted_address = None
            super().connection_lost(exc)

    return LimitedH11Protocol


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _refuse(send: Send, text: str) -> None:
    """503 with a hint to come back (EventSource retries by itself)."""
    body = json.dumps({"error": "Service Unavailable", "description": text, "status": 503}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", b"10"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _last_id(headers: dict[str, bytes], query: bytes) -> int | None:
    """The ``Last-Event-ID`` header, else ``?last_id=``, as :func:`web.events.requested_last_id`."""
    values = parse_qs(query.decode("latin-1")).get("last_id", [])
    for raw in (headers.get("last-event-id", b"").decode("latin-1"), *values):
        if raw.strip().isdigit() and len(raw.strip()) < 19:
            return int(raw.strip())
    return None


def _raise_open_files_limit(wanted: int = 8192) -> None:
    """Let the process hold many sockets (the usual soft limit is 1024), up to the hard one."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass  # not permitted here: the default limit still serves a house's worth of phones


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; raises ``OSError`` when it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except UnicodeError as error:
        raise OSError(f"bad address {host!r}: {error}") from None
    family, kind, protocol, _, address = infos[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def _services(app: Flask) -> PanelServices:
    services: PanelServices = app.extensions[EXTENSION]
    return services


class BackgroundServer:
    """The panel served from a thread (beside the referee, or in tests) on its own event loop.

    ``port`` 0 picks a free port. Raises ``OSError`` when the address cannot be bound.

    >>> from web import create_app
    >>> with BackgroundServer(create_app({"SECRET_KEY": "x"}), "127.0.0.1", 0) as server:
    ...     server.url.startswith("http://127.0.0.1:")
    True
    """

    def __init__(
        self, app: Flask, host: str = "127.0.0.1", port: int = 0, *, threads: int | None = None
    ) -> None:
        import uvicorn

        _raise_open_files_limit()
        self.app = app
        self.asgi = PanelASGI(app, threads=threads or PAGE_THREADS)
        self._socket = _listen(host, port)
        self.host = host
        self.port = int(self._socket.getsockname()[1])
        # Behind a reverse proxy every client comes from the proxy's address: the proxy limits.
        per_client = int(app.config.get("MAX_CONNECTIONS_PER_CLIENT", MAX_CONNECTIONS_PER_CLIENT))
        self.connections = ConnectionLimits(
            0 if int(app.config.get("PROXIES", 0)) > 0 else per_client
        )
        config = uvicorn.Config(
            self.asgi,
            http=_limited_protocol(self.connections),
            ws="none",
            lifespan="off",
            loop="asyncio",
            interface="asgi3",
            log_config=None,
            log_level="warning",
            access_log=False,
            server_header=False,
            timeout_keep_alive=IDLE_SECONDS,
            timeout_graceful_shutdown=5,
            backlog=BACKLOG,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, name="panel-server"
        )
        self._thread.daemon = True
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def wait(self) -> None:
        """Block until the server stops (Ctrl-C stops it: the caller's ``KeyboardInterrupt``)."""
        while self._thread.is_alive():
            self._thread.join(0.5)

    def stop(self, timeout: float = 5.0) -> None:
        """End every event stream, let pages being served finish, then close every connection."""
        _services(self.app).hub.close()
        self._server.should_exit = True
        self._thread.join(timeout)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(timeout)
        self.asgi.pages.executor.shutdown(wait=False)
        self._socket.close()

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def serve(app: Flask, host: str | None = None, port: int | None = None) -> None:
    """Serve ``app`` until interrupted (``HOST`` and ``PORT`` from its config)."""
    server = BackgroundServer(
        app,
        host if host is not None else str(app.config["HOST"]),
        port if port is not None else int(app.config["PORT"]),
    )
    try:
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
