"""The director's pages, behind the room's PIN: assign matches, results, standings, the archive.

The PIN is the panel's (a werkzeug hash in ``PIN_HASH`` or the file ``PIN_FILE``; ``sheshbesh
set-pin --pin-file FILE`` writes one); wrong PINs are limited per client as on the table's
panel (:func:`web.security.install_pin_limits`: a stranger's guesses never lock the director
out), and every form carries the session's CSRF token. The hub does the work
(:class:`Director`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_translations
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from sheshbesh.language import error_text
from web.i18n import _, ngettext
from web.room.source import EXTENSION, current_room
from web.security import PinGuard

bp = Blueprint("director", __name__, url_prefix="/director", template_folder="templates")

GUARD = "sheshbesh_room_pin"
F = TypeVar("F", bound=Callable[..., Any])


def _reason(error: Exception) -> str:
    """The hub's words for a refusal, in the page's language.

    The hub raises its refusals as templates with named values
    (:class:`sheshbesh.language.TemplatedError`): the template is translated and the values
    (a name, a number, a form value) are put in as they are.
    """
    return error_text(error, get_translations())


class Director(Protocol):
    """What the director's pages ask of the hub (``controller.network.hub.Hub`` fits)."""

    def assign(self, table: str, settings: dict[str, Any]) -> str:
        """Send the table its next match; returns the assignment's id. Raises ``ValueError``
        (or a project error) with words for the director."""

    def results(self) -> list[dict[str, Any]]:
        """Every match, newest first: table, match, players, length, score, winner, started."""

    def standings(self) -> list[dict[str, Any]]:
        """Round robin rows: player, played, won, lost, for, against."""

    def archive(self, day: str | None = None) -> bytes:
        """The day's matches as .mat files in a zip archive."""


class Knockout(Protocol):
    """A director that also runs a knockout draw (``controller.network.hub.Hub`` fits)."""

    def draw_knockout(self, players: list[str], length: int | str) -> dict[str, Any]:
        """Make the draw from ``players`` in seeding order; raises ``ValueError`` with words
        for the director."""

    def knockout(self) -> dict[str, Any] | None:
        """The bracket with the recorded results applied, or None before a draw."""


def _director() -> Director:
    room = current_app.extensions[EXTENSION]
    if not all(hasattr(room, name) for name in ("assign", "results", "standings", "archive")):
        abort(404, description=_("This room has no director."))
    return cast(Director, room)


def _guard() -> PinGuard:
    guard: PinGuard = current_app.extensions[GUARD]
    return guard


def is_director() -> bool:
    since = session.get("director_since")
    if not isinstance(since, int | float):
        return False
    return time.time() - since < float(current_app.config["DIRECTOR_SESSION_SECONDS"])


def director_required(view: F) -> F:
    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_director():
            if request.method == "POST":
                abort(403, description=_("Log in with the director's PIN first."))
            return redirect(url_for("director.login"))
        return view(*args, **kwargs)

    return cast(F, wrapped)


@bp.route("/login", methods=["GET", "POST"])
def login() -> str | BaseResponse | tuple[str, int]:
    """The PIN form. A wrong PIN is answered 401, which is what counts against the client's
    limit (a right one never does)."""
    guard = _guard()
    if request.method == "POST":
        if not guard.is_set:
            flash(_("No PIN is set: run sheshbesh set-pin."), "error")
            return render_template("director_login.html", pin_set=False), 403
        if guard.attempt(request.form.get("pin", "")):
            session.clear()
            session["director_since"] = time.time()
            return redirect(url_for("director.index"))
        flash(_("Wrong PIN."), "error")
        return render_template("director_login.html", pin_set=True), 401
    return render_template("director_login.html", pin_set=guard.is_set)


def too_many_pins(error: HTTPException) -> BaseResponse | tuple[str, int, dict[str, str]]:
    """429 from the PIN limits: the login form again, saying how long this device must wait."""
    response = error.get_response()
    if request.endpoint != "director.login":
        return response
    retry = response.headers.get("Retry-After") or "60"
    flash(
        _("Too many wrong PINs from this device: try again in %(seconds)s s.", seconds=retry),
        "error",
    )
    return render_template("director_login.html", pin_set=True), 429, {"Retry-After": retry}


@bp.post("/logout")
def logout() -> BaseResponse:
    session.pop("director_since", None)
    return redirect(url_for("room.index"))


@bp.get("/")
@director_required
def index() -> str:
    director = _director()
    knockout = _knockout()
    return render_template(
        "director.html",
        tables=current_room().tables(),
        results=director.results(),
        standings=director.standings(),
        knockout_enabled=knockout is not None,
        bracket=knockout.knockout() if knockout is not None else None,
        today=time.strftime("%Y-%m-%d"),
    )


def _knockout() -> Knockout | None:
    director = _director()
    if hasattr(director, "draw_knockout") and hasattr(director, "knockout"):
        return cast(Knockout, director)
    return None


@bp.post("/knockout")
@director_required
def knockout_draw() -> BaseResponse:
    """Make the room's knockout draw: one player a line, top seed first."""
    knockout = _knockout()
    if knockout is None:
        abort(404, description=_("This room has no knockout draw."))
    players = request.form.get("players", "").splitlines()
    try:
        drawn = knockout.draw_knockout(players, request.form.get("length", "7"))
    except ValueError as error:
        flash(_("Knockout draw: %(reason)s", reason=_reason(error)), "error")
    else:
        count = len(drawn.get("players") or [])
        flash(
            ngettext(
                "Knockout draw made: %(num)s player.", "Knockout draw made: %(num)s players.", count
            ),
            "ok",
        )
    return redirect(url_for("director.index"))


@bp.post("/assign")
@director_required
def assign() -> BaseResponse:
    form = request.form
    table = form.get("table", "")
    settings = {
        "players": [form.get("white", ""), form.get("black", "")],
        "length": form.get("length", "7"),
        "crawford": "crawford" in form,
        "jacoby": "jacoby" in form,
        "beavers": "beavers" in form,
        "variant": form.get("variant", "backgammon"),
        "policy": form.get("policy", "tournament"),
    }
    try:
        identifier = _director().assign(table, settings)
    except Exception as error:  # bad settings, the hub not connected: words for the director
        flash(_("%(table)s: %(reason)s", table=table, reason=_reason(error)), "error")
    else:
        flash(
            _(
                "%(table)s: match %(match)s sent; it starts when the board is free.",
                table=table,
                match=identifier,
            ),
            "ok",
        )
    return redirect(url_for("director.index"))


@bp.get("/archive.zip")
@director_required
def archive() -> Response:
    day = request.args.get("day") or time.strftime("%Y-%m-%d")
    if len(day) != 10 or not day.replace("-", "").isdigit():
        abort(400, description=_("day %(day)s must be YYYY-MM-DD", day=repr(day)))
    data = _director().archive(day)
    return Response(
        data,
        mimetype="application/zip",
        headers={"Content-Disposition": f'attachment; filename="sheshbesh-{day}.zip"'},
    )
