"""Recorded matches: the list, each match's games and results, and the .mat download.

Downloads are written into ``EXPORTS_DIR`` and served from there; a match id or file name that
would lead anywhere else is refused.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
    send_from_directory,
)
from werkzeug.security import safe_join

from web.errors import ExportPathError
from web.i18n import _
from web.services import services

bp = Blueprint("matches", __name__)

MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")


def exports_dir() -> Path:
    return Path(current_app.config["EXPORTS_DIR"]).resolve()


def export_path(folder: Path, match_id: str) -> Path:
    """Where the .mat file of ``match_id`` goes inside ``folder``.

    Raises :class:`ExportPathError` for an id that is not plain letters, digits, ``-`` and ``_``
    or whose file would fall outside ``folder``.

    >>> export_path(Path("/srv/exports"), "m-1").name
    'm-1.mat'
    """
    if not MATCH_ID.fullmatch(match_id):
        raise ExportPathError(f"match id {match_id!r} is not letters, digits, '-' and '_'")
    joined = safe_join(str(folder), f"{match_id}.mat")
    if joined is None:
        raise ExportPathError(f"match id {match_id!r} leads outside the exports folder")
    path = Path(joined).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise ExportPathError(f"match id {match_id!r} leads outside the exports folder")
    return path


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".export-", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


#: Matches on one page of the list (and the most ``/api/matches`` gives at once).
PAGE_SIZE = 50


def page_number(raw: str | None) -> int:
    """The ``?page=`` asked for: 1 when absent or not a sensible page number."""
    if raw is None or not raw.isdigit() or len(raw) > 9:
        return 1
    return max(1, int(raw))


@bp.get("/matches")
def index() -> str:
    store = services().store
    total = store.match_count()
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(page_number(request.args.get("page")), pages)
    matches = store.list_matches(offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    return render_template("matches.html", matches=matches, page=page, pages=pages, total=total)


@bp.get("/matches/<match_id>")
def detail(match_id: str) -> str:
    summary = services().store.match(match_id)
    if summary is None:
        abort(404, description=_("no recorded match has the id %(id)s", id=repr(match_id)))
    return render_template("match.html", match=summary)


@bp.get("/matches/<match_id>.mat")
def download(match_id: str) -> Response:
    """Export the match as GNU Backgammon's .mat text and send it as a download."""
    folder = exports_dir()
    try:
        path = export_path(folder, match_id)
    except ExportPathError as error:
        abort(404, description=str(error))
    try:
        text = services().store.export_mat(match_id)
    except KeyError:
        abort(404, description=_("no recorded match has the id %(id)s", id=repr(match_id)))
    _write_atomically(path, text)
    return send_from_directory(
        folder, path.name, as_attachment=True, mimetype="text/plain", max_age=0
    )


@bp.get("/exports/<path:filename>")
def exported(filename: str) -> Response:
    """A file already in the exports folder (e.g. written by ``sheshbesh export``)."""
    return send_from_directory(exports_dir(), filename, as_attachment=True, max_age=0)
