"""The small interfaces the referee talks to: :class:`Lights` and :class:`Buttons`.

Buttons report presses by name through ``on_press(name)``. A short press (released before the hold
time, 1.5 s by default) reports the button's name, e.g. ``"done"``; holding a button for the hold
time reports ``"<name>-hold"`` once, while it is still held (``"resign-hold"``), and its release
then reports nothing. The referee decides what a hold means: it resigns only on ``resign-hold``
(a short ``resign`` press only says so), so that no single knock on a button ends a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol, runtime_checkable

from controller.lights.errors import ButtonError
from controller.lights.scene import Scene

#: ``clock`` ends the turn as ``done`` does (for rooms used to pressing a clock); ``pause`` pauses
#: or resumes the match clock (a director's call).
BUTTON_NAMES: Final[tuple[str, ...]] = (
    "done",
    "double",
    "take",
    "pass",
    "undo",
    "resign",
    "clock",
    "pause",
)
HOLD_SUFFIX: Final[str] = "-hold"

PressCallback = Callable[[str], None]


def hold_name(name: str) -> str:
    """The name a long hold of ``name`` is reported under.

    >>> hold_name("undo")
    'undo-hold'
    """
    return name + HOLD_SUFFIX


def check_button(name: str, names: tuple[str, ...] = BUTTON_NAMES) -> str:
    """``name`` if it is a button (or a button's hold) of ``names``; else :class:`ButtonError`."""
    base = name.removesuffix(HOLD_SUFFIX)
    if base not in names:
        raise ButtonError(f"unknown button {name!r}; known: {', '.join(names)}")
    return name


@runtime_checkable
class Lights(Protocol):
    """Something that shows a :class:`Scene` on the board."""

    @property
    def scene(self) -> Scene:
        """The scene shown last (or being restored after a reconnect)."""
        ...

    @property
    def is_connected(self) -> bool:
        """True when the lights can show what they are told right now."""
        ...

    def show(self, scene: Scene) -> None:
        """Show ``scene``; never blocks on hardware and never raises for a lost link."""
        ...

    def link_status(self) -> dict[str, Any]:
        """Health of the lights' connection, as plain JSON for the panel."""
        ...

    def close(self) -> None:
        """Turn the lights off where possible and release the hardware."""
        ...


@runtime_checkable
class Buttons(Protocol):
    """Push buttons that report presses to ``on_press(name)``."""

    on_press: PressCallback | None

    @property
    def names(self) -> tuple[str, ...]:
        """The buttons this build has."""
        ...

    def close(self) -> None:
        """Stop reporting and release the hardware."""
        ...
