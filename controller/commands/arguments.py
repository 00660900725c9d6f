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
import socket
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


def port_problem(host: str, port: int) -> str | None:
    """Why the panel could not listen on ``host:port``, or None when it can (port 0: any free one).

    Asked before anything is recorded, so a busy port never leaves a new match behind it.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        return f"the panel cannot listen on {host}:{port} ({error})"
    family, kind, protocol, _, address = infos[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return (
                f"the panel cannot listen on {host}:{port} ({error.strerror or error});"
                " choose another port"
            )
    return None
