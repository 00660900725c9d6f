"""Lights and buttons without hardware: for tests, the demo, and the panel's drawing of the board."""

from __future__ import annotations

import threading
from typing import Any

from controller.lights.base import BUTTON_NAMES, PressCallback, check_button, hold_name
from controller.lights.palette import DEFAULT_PALETTE, Palette
from controller.lights.scene import DARK, Scene
from sheshbesh.closing import Closing


class FakeLights(Closing):
    """Records the scenes it is shown; ``history`` keeps them in order.

    >>> from controller.lights.scene import turn_scene
    >>> lights = FakeLights()
    >>> lights.show(turn_scene(0))
    >>> lights.scene == turn_scene(0), len(lights.history)
    (True, 1)
    """

    def __init__(self, palette: Palette = DEFAULT_PALETTE, history_limit: int = 1000) -> None:
        self.palette = palette
        self.history: list[Scene] = []
        self.history_limit = history_limit
        self.connected = True
        self.closed = False
        self._scene = DARK
        self._lock = threading.Lock()

    @property
    def scene(self) -> Scene:
        return self._scene

    @property
    def is_connected(self) -> bool:
        return self.connected and not self.closed

    def show(self, scene: Scene) -> None:
        with self._lock:
            self._scene = scene
            self.history.append(scene)
            del self.history[: -self.history_limit]

    def pixels(self) -> list[tuple[int, int, int, int]]:
        """What a strip would show now: ``(r, g, b, effect)`` per location in LED order."""
        return self.palette.strip_pixels(self._scene)

    def describe(self) -> dict[str, dict[str, str]]:
        """The lit locations with colour and effect, for the panel's drawing of the board."""
        return self.palette.describe(self._scene)

    def link_status(self) -> dict[str, Any]:
        return {
            "kind": "fake",
            "state": "connected" if self.is_connected else "disconnected",
            "scenes_shown": len(self.history),
        }

    def close(self) -> None:
        self.closed = True


class FakeButtons:
    """Buttons pressed from code: :meth:`press` and :meth:`hold` call ``on_press`` like real ones."""

    def __init__(
        self, on_press: PressCallback | None = None, names: tuple[str, ...] = BUTTON_NAMES
    ) -> None:
        self.on_press = on_press
        self._names = names
        self.presses: list[str] = []
        self.closed = False

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def press(self, name: str) -> None:
        """A short press of ``name``; raises :class:`ButtonError` for a button this build lacks."""
        self._report(check_button(name, self._names))

    def hold(self, name: str) -> None:
        """A long hold of ``name`` (reported as ``"<name>-hold"``)."""
        self._report(hold_name(check_button(name, self._names)))

    def _report(self, name: str) -> None:
        if self.closed:
            return
        self.presses.append(name)
        if self.on_press is not None:
            self.on_press(name)

    def close(self) -> None:
        self.closed = True
