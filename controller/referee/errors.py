"""The referee's exception family."""

from __future__ import annotations

from sheshbesh.errors import SheshbeshError


class RefereeError(SheshbeshError):
    """Root of the errors the referee raises on purpose."""


class RefereeInputError(RefereeError, ValueError):
    """An input (settings, button, admin request) that makes no sense; the message names it."""


class ReplayError(RefereeError, ValueError):
    """Recorded events that cannot be folded into a state (a damaged or foreign log)."""
