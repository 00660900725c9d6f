"""The board page: the position as SVG, the LEDs, the last play, the moves and the referee's words."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from web.board_svg import board_svg
from web.services import services

bp = Blueprint("board", __name__)


@bp.get("/board")
def index() -> str:
    event_id, state = services().hub.snapshot()
    return render_template("board.html", state=state, event_id=event_id)


@bp.get("/board/fragment")
def fragment() -> str:
    """The live part of the page, fetched again after each state event."""
    event_id, state = services().hub.snapshot()
    return render_template("_board.html", state=state, event_id=event_id)


@bp.get("/board.svg")
def svg() -> Response:
    """The current position alone, as an SVG image."""
    _, state = services().hub.snapshot()
    body = '<?xml version="1.0" encoding="UTF-8"?>\n' + str(board_svg(state))
    response = Response(body, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response
