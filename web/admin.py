"""Admin pages behind the PIN: new match, resign, undo and the camera calibration."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Protocol, cast, runtime_checkable

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from sheshbesh.errors import SheshbeshError
from sheshbesh.match import MAX_LENGTH, MAX_NAME, POLICIES, VARIANTS, MatchSettings, Policy, Variant
from web.i18n import _, referee_text
from web.security import ADMIN_TOKEN, admin_required, admin_sessions, csrf_token
from web.services import services

bp = Blueprint("admin", __name__, url_prefix="/admin")

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")


class FormError(ValueError):
    """A form with wrong fields; ``problems`` lists each in plain words."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _flag(form: Mapping[str, str], name: str) -> bool:
    return form.get(name, "").lower() in ("on", "true", "1", "yes")


def parse_match_settings(form: Mapping[str, str]) -> MatchSettings:
    """The new-match form as :class:`MatchSettings`; raises :class:`FormError` listing problems.

    >>> parse_match_settings({"player0": "Ada", "player1": "Boris", "length": "7",
    ...     "policy": "teaching", "variant": "backgammon", "crawford": "on"}).length
    7
    """
    problems: list[str] = []
    players = []
    for index, colour in enumerate(("White", "Black")):
        name = " ".join(form.get(f"player{index}", "").split())
        if not name:
            name = colour
        if len(name) > MAX_NAME:
            problems.append(
                _("White's name is longer than %(most)s characters", most=MAX_NAME)
                if index == 0
                else _("Black's name is longer than %(most)s characters", most=MAX_NAME)
            )
        players.append(name)
    raw_length = form.get("length", "").strip()
    length = 0
    if not raw_length.isdigit() or int(raw_length) > MAX_LENGTH:
        problems.append(
            _(
                "match length %(length)s is not a number from 0 (money) to %(most)s",
                length=repr(raw_length),
                most=MAX_LENGTH,
            )
        )
    else:
        length = int(raw_length)
    policy = form.get("policy", "")
    if policy not in POLICIES:
        problems.append(
            _(
                "illegal-play policy %(policy)s is not one of %(policies)s",
                policy=repr(policy),
                policies=", ".join(POLICIES),
            )
        )
    variant = form.get("variant", "")
    if variant not in VARIANTS:
        problems.append(
            _(
                "variant %(variant)s is not one of %(variants)s",
                variant=repr(variant),
                variants=", ".join(VARIANTS),
            )
        )
    if problems:
        raise FormError(problems)
    # The form's choices, not the settings' defaults: a box left unticked is off.
    return MatchSettings(
        players=(players[0], players[1]),
        length=length,
        crawford=_flag(form, "crawford") and length > 0,
        jacoby=_flag(form, "jacoby") and length == 0,
        beavers=_flag(form, "beavers") and length == 0,
        policy=cast(Policy, policy),
        hints=_flag(form, "hints"),
        variant=cast(Variant, variant),
    )


def parse_corners(form: Mapping[str, str]) -> list[tuple[float, float]]:
    """The four clicked corners (``x1``, ``y1`` ... ``x4``, ``y4``, frame pixels).

    Raises :class:`FormError` for a missing, negative or non-numeric coordinate, or repeated corners.
    """
    problems: list[str] = []
    corners: list[tuple[float, float]] = []
    for index, name in enumerate(CORNER_NAMES, start=1):
        values = []
        for axis in ("x", "y"):
            raw = form.get(f"{axis}{index}", "").strip()
            try:
                value = float(raw)
            except ValueError:
                problems.append(
                    _(
                        "%(corner)s corner: %(axis)s %(value)s is not a number",
                        corner=name,
                        axis=axis,
                        value=repr(raw),
                    )
                )
                continue
            if not math.isfinite(value) or value < 0:
                problems.append(
                    _(
                        "%(corner)s corner: %(axis)s %(value)s is not a pixel position",
                        corner=name,
                        axis=axis,
                        value=repr(raw),
                    )
                )
                continue
            values.append(value)
        if len(values) == 2:
            corners.append((values[0], values[1]))
    if not problems and len(set(corners)) != 4:
        problems.append(_("the four corners must be four different points"))
    if problems:
        raise FormError(problems)
    return corners


def _act(action: Callable[[], None], success: str) -> BaseResponse | tuple[str, int]:
    """Run a referee action; a refusal is shown on the admin page with its own words."""
    try:
        action()
    except (ValueError, SheshbeshError) as error:
        flash(_("Refused: %(reason)s", reason=referee_text(str(error))), "error")
        return _dashboard(), 409
    flash(success, "ok")
    return redirect(url_for("admin.index"))


def _dashboard(problems: list[str] | None = None, form: Mapping[str, str] | None = None) -> str:
    _, state = services().hub.snapshot()
    return render_template(
        "admin.html",
        state=state,
        problems=problems or [],
        form=form or {},
        policies=POLICIES,
        variants=VARIANTS,
    )


@bp.get("/")
@admin_required
def index() -> str:
    return _dashboard()


@bp.route("/login", methods=["GET", "POST"])
def login() -> BaseResponse | str | tuple[str, int, dict[str, str]]:
    guard = services().pin_guard
    if request.method == "GET":
        return render_template("login.html", pin_set=guard.is_set)
    if not guard.is_set:
        abort(403, description=_("No admin PIN has been set: run `sheshbesh set-pin` on the Pi."))
    if not guard.attempt(request.form.get("pin", "")):
        return render_template("login.html", pin_set=True, problem=_("Wrong PIN.")), 401, {}
    target = request.args.get("next", "")
    admin_sessions().close(session.get(ADMIN_TOKEN))
    session.clear()
    session[ADMIN_TOKEN] = admin_sessions().open()
    csrf_token()
    if not target.startswith("/admin/") or target.startswith("//"):
        target = url_for("admin.index")
    return redirect(target)


@bp.post("/logout")
def logout() -> BaseResponse:
    """End the admin session on the server too: the cookie, even copied, no longer works."""
    admin_sessions().close(session.get(ADMIN_TOKEN))
    session.clear()
    return redirect(url_for("scoreboard.index"))


@bp.post("/new-match")
@admin_required
def new_match() -> BaseResponse | tuple[str, int]:
    try:
        settings = parse_match_settings(request.form)
    except FormError as error:
        return _dashboard(error.problems, request.form), 400
    names = " – ".join(settings.players)
    started = (
        _(
            "Started a %(length)s-point match: %(players)s.",
            length=settings.length,
            players=names,
        )
        if settings.length
        else _("Started a money session: %(players)s.", players=names)
    )
    return _act(lambda: services().controls.new_match(settings), started)


@bp.post("/resign")
@admin_required
def resign() -> BaseResponse | tuple[str, int]:
    player, points = request.form.get("player", ""), request.form.get("points", "")
    if player not in ("0", "1") or points not in ("1", "2", "3"):
        problem = _(
            "resign needs player 0 or 1 and points 1, 2 or 3 (got %(player)s, %(points)s)",
            player=repr(player),
            points=repr(points),
        )
        return _dashboard([problem]), 400
    who, value = int(player), int(points)
    done = {
        1: _("Resigned a single game."),
        2: _("Resigned a gammon."),
        3: _("Resigned a backgammon."),
    }[value]
    return _act(lambda: services().controls.resign(who, value), done)


@bp.post("/undo")
@admin_required
def undo() -> BaseResponse | tuple[str, int]:
    return _act(services().controls.undo, _("Undone."))


@runtime_checkable
class ClockControls(Protocol):
    """Controls of a table whose referee keeps a match clock (``controller.table.runner``)."""

    def pause_clock(self, paused: bool) -> None:
        """Pause (True) or resume (False) the match clock; refuses with ``ValueError``."""


@bp.post("/clock")
@admin_required
def clock() -> BaseResponse | tuple[str, int]:
    """The director's call: pause or resume the match clock (recorded as an event)."""
    action = request.form.get("action", "")
    if action not in ("pause", "resume"):
        return _dashboard(
            [_("The clock action must be pause or resume, not %(action)s.", action=repr(action))]
        ), 400
    controls = services().controls
    if not isinstance(controls, ClockControls):
        return _dashboard([_("This table has no match clock.")]), 409
    paused = action == "pause"
    done = _("Clock paused.") if paused else _("Clock running again.")
    return _act(lambda: controls.pause_clock(paused), done)


@bp.route("/calibration", methods=["GET", "POST"])
@admin_required
def calibration() -> BaseResponse | str | tuple[str, int]:
    controls = services().controls
    has_frame = controls.latest_frame() is not None
    has_overlay = controls.calibration_overlay() is not None
    problems: list[str] = []
    if request.method == "POST":
        try:
            corners = parse_corners(request.form)
        except FormError as error:
            problems = error.problems
        else:
            try:
                controls.set_corners(corners)
            except (ValueError, SheshbeshError) as error:
                problems = [_("Refused: %(reason)s", reason=referee_text(str(error)))]
            else:
                flash(_("Corners saved; the overlay shows the new regions."), "ok")
                return redirect(url_for("admin.calibration"))
    page = render_template(
        "calibration.html",
        has_frame=has_frame,
        has_overlay=has_overlay,
        problems=problems,
        corner_names=CORNER_NAMES,
        form=request.form if problems else {},
    )
    return (page, 400) if problems else page


def _jpeg(data: bytes | None, missing: str) -> Response:
    """The JPEG, or 404 saying ``missing`` (what is not there yet, in the page's language)."""
    if data is None:
        abort(404, description=missing)
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/calibration/frame.jpg")
@admin_required
def frame() -> Response:
    return _jpeg(
        services().controls.latest_frame(), _("no camera frame yet: is the camera connected?")
    )


@bp.get("/calibration/overlay.jpg")
@admin_required
def overlay() -> Response:
    return _jpeg(
        services().controls.calibration_overlay(),
        _("no calibration overlay yet: is the camera connected?"),
    )
