"""The scoreboard: the match at a glance, for a TV across the room."""

from __future__ import annotations

from flask import Blueprint, render_template

from web.services import services

bp = Blueprint("scoreboard", __name__)


@bp.get("/")
def index() -> str:
    event_id, state = services().hub.snapshot()
    return render_template("scoreboard.html", state=state, event_id=event_id)


@bp.get("/scoreboard/fragment")
def fragment() -> str:
    """The live part of the page, fetched again after each state event."""
    event_id, state = services().hub.snapshot()
    return render_template("_scoreboard.html", state=state, event_id=event_id)
