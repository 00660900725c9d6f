"""One place that gathers the panel's settings, for ``sheshbesh run``, ``sheshbesh demo`` and
``python -m web`` alike: the ``[panel]`` section of the TOML file first, then the
``SHESHBESH_PANEL_*`` environment variables over it (``SHESHBESH_PANEL_SESSION_COOKIE_SECURE=true``
behind HTTPS, ``SHESHBESH_PANEL_PIN_HASH=...``), as :func:`web.create_app` names them.

>>> settings = panel_settings({"pin_hash": "", "secure_cookies": True}, environ={})
>>> settings["SESSION_COOKIE_SECURE"], "PIN_HASH" in settings
(True, False)
>>> panel_settings({}, environ={"SHESHBESH_PANEL_PROXIES": "1"})["PROXIES"]
1
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

PREFIX = "SHESHBESH_PANEL_"

#: Everything the panel needs comes from itself: it must work with no internet.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
)

#: ``[panel]`` key in the TOML file -> the app's setting. Keys not listed (``enabled``, ``host``,
#: ``port``) are the caller's: where to listen, whether to serve at all.
TOML_KEYS: dict[str, str] = {
    "pin_hash": "PIN_HASH",
    "secure_cookies": "SESSION_COOKIE_SECURE",
    "trusted_networks": "TRUSTED_NETWORKS",
    "proxies": "PROXIES",
    "language": "LANGUAGE",
}


def panel_settings(
    section: Mapping[str, Any] | None = None, *, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The app settings from the TOML ``[panel]`` ``section`` (empty values left out, so an empty
    ``pin_hash`` falls back to the PIN file) and the environment (which wins)."""
    settings: dict[str, Any] = {}
    for key, value in (section or {}).items():
        name = TOML_KEYS.get(key)
        if name is not None and value not in ("", None):
            settings[name] = value
    for key, raw in sorted((os.environ if environ is None else environ).items()):
        if not key.startswith(PREFIX) or key == PREFIX:
            continue
        try:
            value = json.loads(raw)  # numbers and true/false typed, as Flask's own reading does
        except ValueError:
            value = raw
        settings[key.removeprefix(PREFIX)] = value
    return settings
