"""Devices that close themselves: the one context-manager mixin of the project.

Lights, buttons, serial links and frame sources all hold something to release; each defines
``close()`` and inherits ``with`` support from :class:`Closing`.

>>> class Lamp(Closing):
...     def close(self) -> None:
...         print("closed")
>>> with Lamp():
...     pass
closed
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """A context manager that calls ``self.close()`` on exit (override ``close``)."""

    def close(self) -> None:
        """Release what the object holds (nothing, unless overridden)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
