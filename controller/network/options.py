"""``--broker URL --table NAME`` for ``sheshbesh run`` and ``sheshbesh demo``: one place for both.

The commands call :func:`add_arguments` on their parser, :func:`open_link` once the record is open
(it returns None when the table is not in a room), add the link to the runner's panel sinks, and
:func:`finish` at the end: a demo waits there, a bounded time, until the hub holds every event.
``sheshbesh run`` also calls :func:`follow_director`, so the room's director can assign the table
its next match.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn

from controller.network.address import BrokerAddress, NetworkError, check_name

#: seconds a finished demo waits for the hub to acknowledge its last events
DEFAULT_LINGER = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("room (many tables on one MQTT broker)")
    group.add_argument(
        "--broker",
        metavar="URL",
        help="publish this table to the room's broker: mqtt://[USER:PASS@]HOST[:PORT] or "
        "mqtts://...[/?ca=CA.pem] (overrides [network] broker)",
    )
    group.add_argument(
        "--table", metavar="NAME", help="this table's name in the room (overrides [network] table)"
    )


def open_link(
    args: argparse.Namespace,
    record_path: str | os.PathLike[str],
    *,
    command: str,
    network: Any = None,
) -> Any:
    """A started :class:`~controller.network.link.TableLink`, or None when no broker is set.

    ``network`` is the config's ``[network]`` section (``broker``, ``table``, ``room``,
    ``username``, ``password_file``). Exits (status 2) with a one-line error naming the bad value.
    """
    broker = args.broker or (network.broker if network is not None else "")
    table = args.table or (network.table if network is not None else "")
    if not broker:
        if args.table:
            _refuse(command, "--table needs --broker URL (the room's broker)")
        return None
    if not table:
        _refuse(command, "--broker needs --table NAME (this table's name)")
    try:
        address = BrokerAddress.from_url(broker)
        check_name(table, "table")
        room = network.room if network is not None else "room"
        if network is not None and (network.username or network.password_file):
            address = address.with_credentials(network.username or table, _password(network))
        from controller.network.link import TableLink

        link = TableLink(record_path, address, table, room=room)
        return link.start()
    except NetworkError as error:
        _refuse(command, str(error))


def _refuse(command: str, problem: str) -> NoReturn:
    """One line on stderr and exit status 2, as argparse does for a bad argument."""
    print(f"sheshbesh {command}: {problem}", file=sys.stderr)
    raise SystemExit(2)


def _password(network: Any) -> str | None:
    if not network.password_file:
        return None
    try:
        with open(network.password_file, encoding="utf-8") as handle:
            return handle.readline().strip()
    except OSError as error:
        raise NetworkError(
            f"[network] password_file {network.password_file!r} cannot be read: {error.strerror}"
        ) from None


def follow_director(link: Any, runner: Any) -> None:
    """Let the hub's director assign this table its next match (nothing without a link)."""
    if link is None:
        return
    from controller.network.director import FollowDirector

    FollowDirector(runner).attach(link)


def finish(link: Any, *, linger: float, command: str) -> None:
    """Wait up to ``linger`` s for the hub to hold every event, then say goodbye and close."""
    if link is None:
        return
    if linger > 0 and not link.wait_until_acknowledged(linger):
        print(
            f"sheshbesh {command}: the hub has not acknowledged {link.unacknowledged()} event(s) "
            f"after {linger:g} s; the record keeps them and the table re-sends them when it "
            "next joins the room",
            file=sys.stderr,
        )
    link.close()
