"""Argument types shared by the subcommands: each refuses a bad value at the edge, in one line.

argparse turns the ``ArgumentTypeError`` into ``sheshbesh CMD: error: argument --port: ...`` and
exit status 2, so a value that would wrap, divide by zero or sleep for ever never reaches the code.

>>> port("8080"), port("0")
(8080, 0)
>>> positive_number(1000.0)("2.5")
2.5
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

#: The highest TCP port.
MAX_PORT = 65535


def _integer(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number ({what})") from None


def port(text: str) -> int:
    """A TCP port, 0 (pick a free one) to 65535."""
    value = _integer(text, f"a port from 0 to {MAX_PORT}")
    if not 0 <= value <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"{value} is not a port: choose 0 to {MAX_PORT}")
    return value


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = _integer(text, f"{low} to {high}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range: choose {low} to {high}")
        return value

    parse.__name__ = "whole number"
    return parse


def _number(text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def positive_number(high: float, low: float = 0.0) -> Callable[[str], float]:
    """A finite number above ``low`` (and at least 0.001) and at most ``high``."""

    def parse(text: str) -> float:
        value = _number(text)
        floor = max(low, 0.001)
        if not floor <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: choose {floor:g} to {high:g}"
            )
        return value

    parse.__name__ = "number"
    return parse


def non_negative_number(high: float) -> Callable[[str], float]:
    """A finite number from 0 to ``high``."""

    def parse(text: str) -> float:
        value = _number(text)
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is out of range: choose 0 to {high:g}")
        return value

    parse.__name__ = "number"
    return parse
