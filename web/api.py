"""The JSON API: the same state the pages draw, and the recorded matches."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, request

from web.matches import PAGE_SIZE
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
    """``{"matches": [...], "total": N, "offset": O, "limit": L}``, newest first; ``?offset=`` and
    ``?limit=`` (at most :data:`web.matches.PAGE_SIZE`) page through a long record."""
    store = services().store
    offset = _whole(request.args.get("offset"), 0)
    limit = min(_whole(request.args.get("limit"), PAGE_SIZE), PAGE_SIZE)
    return jsonify(
        matches=store.list_matches(offset=offset, limit=limit),
        total=store.match_count(),
        offset=offset,
        limit=limit,
    )


def _whole(raw: str | None, default: int) -> int:
    if raw is None or not raw.isdigit() or len(raw) > 9:
        return default
    return int(raw)


@bp.get("/matches/<match_id>")
def match(match_id: str) -> Response:
    summary = services().store.match(match_id)
    if summary is None:
        abort(404, description=f"no recorded match has the id {match_id!r}")
    return jsonify(match=summary)
