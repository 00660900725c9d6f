"""The JSON API: the same state the pages draw, and the recorded matches."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify

from web.services import services

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/state")
def state() -> Response:
    """``{"id": last event id, "state": the snapshot}``."""
    event_id, snapshot = services().hub.snapshot()
    response = jsonify(id=event_id, state=snapshot)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/matches")
def matches() -> Response:
    return jsonify(matches=services().store.list_matches())


@bp.get("/matches/<match_id>")
def match(match_id: str) -> Response:
    summary = services().store.match(match_id)
    if summary is None:
        abort(404, description=f"no recorded match has the id {match_id!r}")
    return jsonify(match=summary)
