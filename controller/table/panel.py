"""The panel as the live table serves it: each snapshot with the table's health, and the server.

``web`` knows nothing of the table; this module hands it the hub, the admin controls and the record
(:func:`serve_panel`), and adds the table's health to every snapshot on its way to the hub
(:class:`StatusPanel`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sheshbesh.errors import SheshbeshError


class StatusPanel:
    """A panel sink that adds the table's health (camera, LEDs, analysis) to every snapshot."""

    def __init__(self, hub: Any, status: Callable[[], dict[str, str]]) -> None:
        self.hub = hub
        self.status = status

    def publish(self, state: Any) -> int:
        merged = dict(state)
        merged["status"] = {**dict(state.get("status") or {}), **self.status()}
        return int(self.hub.publish(merged))


class PanelStartError(SheshbeshError, OSError):
    """The panel cannot listen where it was asked to (a port in use, an address not here)."""


def serve_panel(
    hub: Any,
    controls: Any,
    record: Any,
    host: str,
    port: int,
    exports: str | Path,
    panel: Mapping[str, Any] | None = None,
) -> Any:
    """Start the panel (in a thread) over ``record``; returns the running server. ``panel`` is
    the config's ``[panel]`` section (see :func:`web.settings.panel_settings`).

    Raises :class:`PanelStartError` naming the address when it cannot listen there.
    """
    from web import create_app
    from web.server import BackgroundServer
    from web.settings import panel_settings

    exports_dir = Path(exports).resolve()
    exports_dir.mkdir(parents=True, exist_ok=True)
    settings = panel_settings(panel) | {"EXPORTS_DIR": str(exports_dir)}
    app = create_app(settings, hub=hub, controls=controls, store=record)
    try:
        return BackgroundServer(app, host, port)
    except OSError as error:
        raise PanelStartError(
            f"the panel cannot listen on {host}:{port} ({error.strerror or error}); "
            "choose another port"
        ) from error
