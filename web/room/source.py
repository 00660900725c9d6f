"""What the room's pages ask of the hub, and where a page finds it: apart from the package, so that
the director's pages and the room's own reach it without importing each other.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from flask import current_app

#: the key under which :func:`web.room.create_room_app` keeps the hub in ``app.extensions``
EXTENSION = "sheshbesh_room"


@runtime_checkable
class RoomSource(Protocol):
    """What the room's pages ask of the hub."""

    def tables(self) -> list[dict[str, Any]]:
        """Every table's summary, sorted by name."""

    def table(self, name: str) -> dict[str, Any] | None:
        """One table's summary plus ``"snapshot"`` (the table panel's state), or None."""

    def wait_for_change(self, since: int, timeout: float) -> tuple[int, list[dict[str, Any]]]:
        """Wait up to ``timeout`` s for a change after version ``since``: (version, changed)."""

    def status(self) -> dict[str, Any]:
        """``{"room", "connected", ...}``: the hub's own health."""


def current_room() -> RoomSource:
    """The hub of the app serving this request."""
    room: RoomSource = current_app.extensions[EXTENSION]
    return room
