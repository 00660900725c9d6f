"""Serving the panel with waitress: in the foreground (``serve``) or beside the referee (a thread).

Each open event stream holds one of waitress's worker threads for as long as its page stays open,
so the thread count is the app's ``MAX_LISTENERS`` plus a few for ordinary requests; the event
endpoint refuses streams beyond ``MAX_LISTENERS`` so pages and the API always have threads left.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask

from web.services import EXTENSION, PanelServices

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


def serve(app: Flask, host: str | None = None, port: int | None = None) -> None:
    """Serve ``app`` with waitress until interrupted (``HOST`` and ``PORT`` from its config)."""
    server = make_server(
        app,
        host if host is not None else str(app.config["HOST"]),
        port if port is not None else int(app.config["PORT"]),
    )
    try:
        server.run()
    finally:
        _services(app).hub.close()


def _services(app: Flask) -> PanelServices:
    services: PanelServices = app.extensions[EXTENSION]
    return services


class BackgroundServer:
    """The panel served from a daemon thread, e.g. beside the referee loop or in browser tests.

    >>> from web import create_app
    >>> with BackgroundServer(create_app({"SECRET_KEY": "x"}), "127.0.0.1", 0) as server:
    ...     server.url.startswith("http://127.0.0.1:")
    True
    """

    def __init__(
        self, app: Flask, host: str = "127.0.0.1", port: int = 0, *, threads: int | None = None
    ) -> None:
        self.app = app
        self._server = make_server(app, host, port, threads=threads)
        self.host = host
        self.port = int(self._server.effective_port)
        self._thread = threading.Thread(target=self._server.run, name="panel-server", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        """End every event stream, let the workers finish, then close every connection."""
        _services(self.app).hub.close()
        server = self._server
        server.task_dispatcher.shutdown(timeout=timeout)

        def close_everything() -> None:
            # Runs in the server's own loop thread, which owns the sockets.
            for dispatcher in list(server._map.values()):
                if dispatcher is not server and dispatcher is not server.trigger:
                    dispatcher.close()
            server.close()

        server.trigger.pull_trigger(close_everything)
        self._thread.join(timeout)

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
