"""The table's health as the panel's status line shows it: the camera, the LEDs, the analysis, the room.

Every snapshot the panel gets carries it (:class:`~controller.table.panel.StatusPanel` adds it); a
device that changes between two events is shown at once, not only with the next event, because a
lost camera or LED strip is what the players must see while nothing else happens.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("sheshbesh")


class Health:
    """Each device's state by name ("ok", "lost", "none", "off", ...), published when one changes.

    >>> health = Health(camera="none", leds="ok", analysis="off")
    >>> health.set("camera", "lost")
    >>> health()
    {'camera': 'lost', 'leds': 'ok', 'analysis': 'off'}
    """

    def __init__(self, **devices: str) -> None:
        self._devices = dict(devices)
        #: the panel's hub (``web.hub.PanelHub``), once the panel is served; None without a panel
        self.hub: Any = None

    def __call__(self) -> dict[str, str]:
        """The states now (a copy: the caller may keep it)."""
        return dict(self._devices)

    def set(self, device: str, value: str, *, publish: bool = True) -> None:
        """Record ``device``'s state; a change is logged and, with ``publish``, shown at once."""
        if self._devices.get(device) == value:
            return
        self._devices[device] = value
        log.info("%s: %s", device, value)
        if publish and self.hub is not None:
            _, state = self.hub.snapshot()
            state["status"] = {**dict(state.get("status") or {}), **self._devices}
            self.hub.publish(state)


def leds_health(lights: Any, kind: str) -> str:
    """The LEDs for the panel's status: "none" when there are none, else "ok" or "lost"."""
    if kind == "none":
        return "none"
    return "ok" if getattr(lights, "is_connected", True) else "lost"
