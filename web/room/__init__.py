"""The room's pages: every table of a café or tournament room, one table's board, a stream overlay.

``sheshbesh hub`` builds this app over the hub's mirror; like the table's panel, the pages never
import the controller: the hub is passed in as a :class:`RoomSource` (plain dicts in and out).

Pages and endpoints:

- ``/`` — every table live: players, score, match length, cube, whose turn, pips, online or not,
  the last play; a card links to the table's page.
- ``/tables/NAME`` — one table: its board as the table's panel draws it, and its games.
- ``/overlay/NAME`` — for streaming software: 1280 x 720, transparent, names, score, length, cube,
  pips, dice and the last play; ``?board=1`` adds the board.
- ``/api/tables`` — ``{"room", "tables": [{"name", "players", "length", "score", "events",
  "online", ...}]}``; ``/api/tables/NAME`` one table with its snapshot.
- ``/events`` — server-sent events: ``event: tables`` with ``{"version", "tables": [changed]}``.
- ``/director/`` — behind the PIN: assign a table its next match (players, length, rules), the
  results, round robin standings, a knockout draw (seeded, byes, winners advanced from the
  recorded results; each ready match sent to a table in one click), and the day's matches as
  .mat files in one zip archive.

>>> class Empty:
...     def tables(self): return []
...     def table(self, name): return None
...     def wait_for_change(self, since, timeout): return 0, []
...     def status(self): return {"room": "room", "connected": False}
>>> create_room_app(Empty(), {"TESTING": True}).test_client().get("/api/tables").json
{'room': 'room', 'tables': []}
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    send_from_directory,
)
from markupsafe import Markup
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response as BaseResponse

from web import i18n
from web.board_svg import board_svg, dice_svg
from web.errors import PanelStateError
from web.pin import read_pin_file
from web.room import director
from web.room.source import EXTENSION, RoomSource
from web.room.source import current_room as _room
from web.security import PIN_LIMITS, PinGuard, check_csrf, csrf_token, install_pin_limits
from web.state import LOW_TIME_SECONDS, check_state

__all__ = ["RoomSource", "create_room_app"]

STREAMS = "sheshbesh_room_streams"
PANEL_STATIC = Path(__file__).resolve().parent.parent / "static"

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'"
)


bp = Blueprint(
    "room",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/room-static",
)


def _board(summary: Mapping[str, Any]) -> Markup | None:
    """The table's board as SVG, or None when its snapshot is missing or not the panel's form."""
    snapshot = summary.get("snapshot")
    if not isinstance(snapshot, dict):
        return None
    try:
        return board_svg(check_state(snapshot))
    except (PanelStateError, KeyError, TypeError, ValueError):
        return None


def _clock(snapshot: Any) -> dict[str, Any] | None:
    """The match clock in a table's retained snapshot, or None: the match has no clock, or the
    snapshot is not in the panel's form (a page then draws no clock rather than fail)."""
    if not isinstance(snapshot, dict) or snapshot.get("clock") is None:
        return None
    try:
        clock = check_state(snapshot).get("clock")
    except (PanelStateError, KeyError, TypeError, ValueError):
        return None
    return None if clock is None else dict(clock)


def _with_clock(summary: Mapping[str, Any], snapshot: Any) -> dict[str, Any]:
    """The table's summary with ``"clock"`` for the pages (the hub's summary leaves it out)."""
    return {**summary, "clock": _clock(snapshot)}


def _cards_of(room: RoomSource, wanted: set[str] | None = None) -> list[dict[str, Any]]:
    """The room's tables (those in ``wanted``, when given) with their clocks, for the cards."""
    tables = []
    for summary in room.tables():
        if wanted and summary["name"] not in wanted:
            continue
        full = room.table(summary["name"])
        tables.append(_with_clock(summary, full.get("snapshot") if full else None))
    return tables


def _found(name: str) -> dict[str, Any]:
    table = _room().table(name)
    if table is None:
        abort(404, description=i18n._("No table named %(name)s in this room.", name=repr(name)))
    return table


def _shown(name: str) -> dict[str, Any]:
    """The table for its page and the overlay: as ``/api/tables/NAME`` gives it, with its clock."""
    table = _found(name)
    return _with_clock(table, table.get("snapshot"))


@bp.get("/")
def index() -> str:
    room = _room()
    return render_template("room.html", tables=_cards_of(room), status=room.status())


@bp.get("/fragments/cards")
def cards() -> str:
    """The cards of the tables named in ``?names=a,b`` (the room page swaps them in)."""
    wanted = {name for name in request.args.get("names", "").split(",") if name}
    return render_template("_cards.html", tables=_cards_of(_room(), wanted))


@bp.get("/tables/<name>")
def table_page(name: str) -> str:
    table = _shown(name)
    return render_template("table.html", table=table, board=_board(table))


@bp.get("/tables/<name>/fragment")
def table_fragment(name: str) -> str:
    table = _shown(name)
    return render_template("_table.html", table=table, board=_board(table))


@bp.get("/overlay/<name>")
def overlay(name: str) -> str:
    table = _shown(name)
    with_board = request.args.get("board", "") in ("1", "true", "yes")
    return render_template(
        "overlay.html",
        table=table,
        board=_board(table) if with_board else None,
        with_board=with_board,
    )


@bp.get("/overlay/<name>/fragment")
def overlay_fragment(name: str) -> str:
    table = _shown(name)
    with_board = request.args.get("board", "") in ("1", "true", "yes")
    return render_template(
        "_overlay.html", table=table, board=_board(table) if with_board else None
    )


@bp.get("/api/tables")
def api_tables() -> Response:
    room = _room()
    return jsonify(room=room.status().get("room", ""), tables=room.tables())


@bp.get("/api/tables/<name>")
def api_table(name: str) -> Response:
    return jsonify(_found(name))


def _stream(room: RoomSource, since: int, keepalive: float) -> Iterator[bytes]:
    import json

    yield b"retry: 2000\n\n"
    while True:
        version, changed = room.wait_for_change(since, keepalive)
        if not changed:
            yield b": keep-alive\n\n"
            continue
        since = version
        data = json.dumps({"version": version, "tables": changed}, separators=(",", ":"))
        yield f"id: {version}\nevent: tables\ndata: {data}\n\n".encode()


class _Streams:
    """Counts open event streams: each holds a server thread, so beyond ``MAX_LISTENERS`` new
    ones are refused (503, retry later) and pages and the API always have threads left."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0

    def enter(self, limit: int) -> bool:
        with self._lock:
            if self.open >= limit:
                return False
            self.open += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self.open -= 1


def _counted(streams: _Streams, chunks: Iterator[bytes]) -> Iterator[bytes]:
    try:
        yield from chunks
    finally:
        streams.leave()


@bp.get("/events")
def events() -> Response:
    raw = request.headers.get("Last-Event-ID") or request.args.get("since") or "0"
    since = int(raw) if raw.strip().isdigit() else 0
    streams: _Streams = current_app.extensions[STREAMS]
    if not streams.enter(int(current_app.config["MAX_LISTENERS"])):
        abort(
            Response(
                "too many open event streams; retrying shortly\n",
                status=503,
                headers={"Retry-After": "10"},
                mimetype="text/plain",
            )
        )
    response = Response(
        _counted(streams, _stream(_room(), since, float(current_app.config["KEEPALIVE"]))),
        mimetype="text/event-stream",
    )
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/panel-static/<path:filename>")
def panel_static(filename: str) -> Response:
    """The table panel's stylesheet and icon, so boards look the same in the room."""
    return send_from_directory(PANEL_STATIC, filename)


def _turn_name(table: Mapping[str, Any]) -> str:
    turn = table.get("turn")
    players = table.get("players") or ["", ""]
    if turn in (0, 1) and not isinstance(turn, bool):
        return str(players[turn] or (i18n._("White") if turn == 0 else i18n._("Black")))
    return ""


#: Headers of an HTTP error's own answer that its page keeps.
ERROR_HEADERS = ("allow", "retry-after", "www-authenticate")


def _error_page(error: HTTPException) -> BaseResponse | tuple[str, int, dict[str, str]]:
    """An error as a room page in the viewer's language; the API, the event stream, redirects
    and errors that carry their own answer keep werkzeug's."""
    code = error.code or 500
    answer = error.get_response()
    if error.response is not None or code < 400 or request.path.startswith(("/api/", "/events")):
        return answer
    headers = {name: value for name, value in answer.headers if name.lower() in ERROR_HEADERS}
    return render_template("room_error.html", error=error, code=code), code, headers


def create_room_app(room: RoomSource, test_config: Mapping[str, Any] | None = None) -> Flask:
    """The room's Flask app over ``room``.

    Settings: ``KEEPALIVE`` [15 s], ``MAX_LISTENERS`` [64 open event streams], ``ROOM_TITLE``
    [the room's name], ``PIN_HASH`` [read from ``PIN_FILE`` when set] for the director's pages,
    ``SECRET_KEY`` [random per start], ``DIRECTOR_SESSION_SECONDS`` [8 h], and as on the
    table's panel (:func:`web.create_app`): ``PIN_LIMITS`` [wrong PINs one client may make: 5 a
    minute, 20 an hour, 50 a day, in moving windows], ``TRUSTED_NETWORKS`` [none: networks
    whose clients are never limited; the hub's own machine never is], ``PROXIES`` [0].

    Raises :class:`web.errors.PinError` when the PIN file holds something that is not a hash,
    ``ValueError`` for a bad ``TRUSTED_NETWORKS`` entry.
    """
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(
        KEEPALIVE=15.0,
        MAX_LISTENERS=64,
        ROOM_TITLE="",
        PIN_HASH=None,
        PIN_FILE=None,
        SECRET_KEY=None,
        DIRECTOR_SESSION_SECONDS=8 * 3600,
        PIN_LIMITS=PIN_LIMITS,
        TRUSTED_NETWORKS="",
        PROXIES=0,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    pin_hash = app.config["PIN_HASH"]
    if not pin_hash and app.config["PIN_FILE"]:
        pin_hash = read_pin_file(Path(app.config["PIN_FILE"]))
    app.extensions[EXTENSION] = room
    app.extensions[STREAMS] = _Streams()
    # No delay shared by every client (a stranger's guesses would lock the director out):
    # wrong PINs are limited per client, as on the table's panel.
    app.extensions[director.GUARD] = PinGuard(pin_hash, base=0.0)
    proxies = int(app.config["PROXIES"])
    if proxies > 0:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals.update(
        dice_svg=dice_svg,
        turn_name=_turn_name,
        cube_words=i18n.room_cube_words,
        room_low_time=LOW_TIME_SECONDS,
    )
    i18n.init_app(app)  # the room's pages in each viewer's language, as the table's panel
    app.register_blueprint(bp)
    app.register_blueprint(director.bp)
    install_pin_limits(app, "director.login")
    app.register_error_handler(429, director.too_many_pins)
    app.register_error_handler(HTTPException, _error_page)

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    return app
