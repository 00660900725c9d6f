"""The score panel: Flask app factory, pages, live updates and the JSON API.

>>> app = create_app({"TESTING": True, "SECRET_KEY": "test"})
>>> app.test_client().get("/api/state").json["id"]
0
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from web.hub import PanelHub
from web.i18n import _
from web.interfaces import Controls, MatchStore
from web.pin import default_pin_file, read_pin_file
from web.security import (
    PIN_LIMITS,
    AdminSessions,
    PinGuard,
    check_csrf,
    csrf_token,
    install_pin_limits,
)
from web.server import BackgroundServer, make_server, serve
from web.services import EXTENSION, EmptyMatchStore, NoControls, PanelServices
from web.settings import CONTENT_SECURITY_POLICY

__all__ = ["BackgroundServer", "create_app", "make_server", "serve"]


def _default_exports_dir() -> str:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "sheshbesh" / "exports")


def create_app(
    test_config: Mapping[str, Any] | None = None,
    *,
    hub: PanelHub | None = None,
    controls: Controls | None = None,
    store: MatchStore | None = None,
    clock: Callable[[], float] | None = None,
) -> Flask:
    """Build the panel app.

    Settings (defaults in brackets; without ``test_config`` they are read from the instance
    folder's ``config.py`` and from ``SHESHBESH_PANEL_*`` environment variables):
    ``PORT`` [8080], ``HOST`` [127.0.0.1], ``PIN_HASH`` [read from ``PIN_FILE``],
    ``PIN_FILE`` [``~/.config/sheshbesh/panel-pin``], ``EXPORTS_DIR``
    [``~/.local/share/sheshbesh/exports``], ``SECRET_KEY`` [random per start], ``KEEPALIVE``
    [15 s between keep-alive comments], ``MAX_LISTENERS`` [512 open event streams in all],
    ``MAX_LISTENERS_PER_CLIENT`` [16 from one address],
    ``PIN_LIMITS`` [wrong PINs one client may make: 5 a minute, 20 an hour, 50 a day, in
    moving windows], ``TRUSTED_NETWORKS`` [none: networks whose clients are never limited; the
    Pi itself never is], ``PROXIES`` [0: how many reverse proxies in front to believe for the
    client's address and scheme], ``SESSION_COOKIE_SECURE`` [false: true behind HTTPS],
    ``ADMIN_SESSION_SECONDS`` [8 h]. ``clock`` times admin sessions (tests pass a fake one).
    :func:`web.settings.panel_settings` gathers these from the TOML file and the environment
    for ``sheshbesh run``, ``sheshbesh demo`` and ``python -m web`` alike.

    Raises :class:`web.errors.PinError` when the PIN file holds something that is not a hash,
    ``ValueError`` for a bad ``TRUSTED_NETWORKS`` entry.
    """
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        PORT=8080,
        HOST="127.0.0.1",
        PIN_HASH=None,
        PIN_FILE=str(default_pin_file()),
        EXPORTS_DIR=_default_exports_dir(),
        SECRET_KEY=None,
        KEEPALIVE=15.0,
        SSE_RETRY_MS=2000,
        MAX_LISTENERS=512,
        MAX_LISTENERS_PER_CLIENT=16,
        PIN_LIMITS=PIN_LIMITS,
        TRUSTED_NETWORKS="",
        PROXIES=0,
        ADMIN_SESSION_SECONDS=8 * 3600,
        SESSION_COOKIE_SECURE=False,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("SHESHBESH_PANEL")
    else:
        app.config.from_mapping(test_config)
    if not app.config["SECRET_KEY"]:
        # Sessions (admin logins) then last until the next start, which is acceptable on a Pi.
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    pin_hash = app.config["PIN_HASH"] or read_pin_file(Path(app.config["PIN_FILE"]))
    guard = PinGuard(pin_hash, base=0.0)  # no delay for all: wrong PINs are limited per client
    app.extensions["sheshbesh_admin_sessions"] = AdminSessions(
        float(app.config["ADMIN_SESSION_SECONDS"]), clock=clock or time.monotonic
    )
    proxies = int(app.config["PROXIES"])
    if proxies > 0:
        # Behind a reverse proxy (e.g. for HTTPS): the client's address and scheme as it tells.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    app.extensions[EXTENSION] = PanelServices(
        hub=hub if hub is not None else PanelHub(),
        controls=controls if controls is not None else NoControls(),
        store=store if store is not None else EmptyMatchStore(),
        pin_guard=guard,
    )

    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    from web import admin, analysis, api, board, events, i18n, matches, scoreboard, views

    i18n.init_app(app)
    views.register_template_helpers(app)
    for blueprint in (
        scoreboard.bp,
        board.bp,
        api.bp,
        matches.bp,
        analysis.bp,
        admin.bp,
        events.bp,
    ):
        app.register_blueprint(blueprint)
    install_pin_limits(app)

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        # Everything the panel needs comes from itself: it must work with no internet.
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.errorhandler(HTTPException)
    def handle_http_error(error: HTTPException) -> Response | tuple[str, int]:
        code = error.code or 500
        if code == 429 and request.endpoint == "admin.login":
            retry = error.get_response().headers.get("Retry-After") or "60"
            message = _(
                "Too many wrong PINs from this device: try again in %(seconds)s s.", seconds=retry
            )
            page = render_template("login.html", pin_set=True, problem=message)
            return page, 429, {"Retry-After": retry}  # type: ignore[return-value]
        if request.path.startswith(("/api/", "/events")):
            response = jsonify(error=error.name, description=error.description, status=code)
            response.status_code = code
            for name, value in (error.get_response().headers or {}).items():
                if name.lower() == "retry-after":
                    response.headers[name] = value
            return response
        return render_template("error.html", error=error, code=code), code

    return app
