"""``--broker URL --table NAME`` for ``sheshbesh run`` and ``sheshbesh demo``: one place for both.

The commands call :func:`add_arguments` on their parser, :func:`open_link` once the record is open
(it returns None when the table is not in a room), add the link to the runner's panel sinks, and
:func:`finish` at the end: a demo waits there, a bounded time, until the hub holds every event.
``sheshbesh run`` also calls :func:`follow_director`, so the room's director can assign the table
its next match; ``sheshbesh demo`` calls :func:`demo_assignment` and plays the match the director
assigned it, when one is waiting for it as it joins the room.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from controller.network.address import BrokerAddress, NetworkError, check_name

#: seconds a finished demo waits for the hub to acknowledge its last events
DEFAULT_LINGER = 60.0
#: seconds a demo waits to join the room before it starts (an absent broker: its own match)
JOIN_WAIT = 10.0
#: seconds a demo that joined waits for the director's retained assignment to come through
ASSIGNMENT_WAIT = 1.0


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
    on_command: Callable[[dict[str, Any]], None] | None = None,
) -> Any:
    """A started :class:`~controller.network.link.TableLink`, or None when no broker is set.

    ``network`` is the config's ``[network]`` section (``broker``, ``table``, ``room``,
    ``username``, ``password_file``); ``on_command`` takes the director's commands from the
    first connection on (a retained one arrives at once). Exits (status 2) with a one-line
    error naming the bad value.
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

        link = TableLink(record_path, address, table, room=room, on_command=on_command)
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


def report_health(link: Any, set_health: Callable[[str, str], None]) -> None:
    """Show the room link's health on the table's panel, as the camera's and the LEDs' are:
    ``set_health("room", "ok" | "lost")`` (connected to the broker or not) and
    ``set_health("room_queued", N)`` (recorded events the hub does not hold yet), whenever
    either changes. Nothing without a link."""
    if link is None:
        return

    def said(status: str, queued: int) -> None:
        set_health("room", status)
        set_health("room_queued", str(queued))

    link.on_health = said
    link.notify()  # a first report at once


def demo_assignment(
    link: Any,
    inbox: Any,
    record: Any,
    match_length: int,
    *,
    join_wait: float = JOIN_WAIT,
    assignment_wait: float = ASSIGNMENT_WAIT,
) -> Any:
    """For ``sheshbesh demo`` in a room: the :class:`~controller.referee.MatchSettings` of the
    match the director assigned this table, or None to play the match file's own.

    Waits up to ``join_wait`` s to join the room, then ``assignment_wait`` s for the director's
    retained assignment (``inbox``: a :class:`~controller.network.director.DirectorInbox` given
    to :func:`open_link`). An assignment the record already holds was played before. The demo
    acts out its match file, so an assignment it cannot act out (another match length, another
    variant) is refused with one line on stderr, and the file's own match is played.
    """
    if link is None or inbox is None:
        return None
    if not link.wait_until_subscribed(join_wait):
        print(
            f"sheshbesh demo: the room's broker did not answer within {join_wait:g} s: playing "
            "the match file's own match (the record keeps it for the hub)",
            file=sys.stderr,
        )
        return None
    known = {str(entry["id"]) for entry in record.matches()}
    assignment = inbox.take(known, assignment_wait)
    if assignment is None:
        return None
    problem = ""
    if assignment["variant"] != "backgammon":
        problem = f"a {assignment['variant']} match"
    elif assignment["length"] != match_length:
        problem = (
            f"a {assignment['length']}-point match, and the match file is {match_length}-point"
        )
    if problem:
        print(
            f"sheshbesh demo: the director's assignment {assignment['id']} is {problem}: the demo"
            " cannot act it out, so it plays the match file's own match",
            file=sys.stderr,
        )
        return None
    from controller.referee import MatchSettings

    return MatchSettings.from_data(assignment)


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
