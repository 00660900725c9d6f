"""The panel's error family, under the project's root :class:`sheshbesh.errors.SheshbeshError`."""

from __future__ import annotations

from sheshbesh.errors import SheshbeshError


class PanelError(SheshbeshError):
    """Root of every error the score panel raises on purpose."""


class PanelStateError(PanelError, ValueError):
    """A published state snapshot is malformed; the message names the field and what was wrong."""


class PinError(PanelError, ValueError):
    """A PIN that cannot be set (too short, blank) or a PIN file that cannot be read."""


class ExportPathError(PanelError, ValueError):
    """A match id or file name that would lead outside the exports folder."""
