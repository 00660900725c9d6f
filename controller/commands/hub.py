"""``sheshbesh hub --broker URL [--port N]``: the room's hub, mirror and pages.

Subscribes to every table of the room on the broker, keeps a mirror of their events in its own
SQLite file (``--db``; after a restart it rebuilds the room from that file, the broker's retained
messages and what the tables re-send), and serves the room's pages and ``GET /api/tables``.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from types import FrameType

log = logging.getLogger("sheshbesh")

DEFAULT_PORT = 8088


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0 to 65535)")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--broker",
        required=True,
        metavar="URL",
        help="the room's broker: mqtt://[USER:PASS@]HOST[:PORT] or mqtts://...[/?ca=CA.pem]",
    )
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"pages port (default {DEFAULT_PORT})"
    )
    parser.add_argument("--host", default="127.0.0.1", help="pages address (default 127.0.0.1)")
    parser.add_argument(
        "--db", metavar="FILE", default="var/hub.sqlite", help="the mirror (default var/hub.sqlite)"
    )
    parser.add_argument(
        "--room", default="room", help="the room's name on the broker (default room)"
    )
    parser.add_argument("--title", default="", help="the room's title on its pages")
    parser.add_argument("--log", metavar="FILE", help="log file (default: beside the mirror)")
    parser.add_argument(
        "--pin-file",
        metavar="FILE",
        help="the director's PIN hash (sheshbesh set-pin --pin-file FILE); without it the "
        "director's pages stay locked",
    )
    parser.add_argument(
        "--password-file",
        metavar="FILE",
        help="file whose first line is the hub's broker password (user: the URL's, else 'hub')",
    )


def _first_line(path: str) -> str:
    from controller.network.address import NetworkError

    try:
        with open(path, encoding="utf-8") as handle:
            return handle.readline().strip()
    except OSError as error:
        raise NetworkError(f"--password-file {path!r} cannot be read: {error.strerror}") from None


class _Stop(KeyboardInterrupt):
    """SIGTERM: leave the server loop as Ctrl-C would.

    It is a KeyboardInterrupt because the signal's handler raises it wherever the main thread
    happens to be, often inside the web server's handling of a connection, and the server lets
    only KeyboardInterrupt and SystemExit through there (anything else closes that connection
    and the hub would go on serving).
    """


def _on_term(signum: int, frame: FrameType | None) -> None:
    raise _Stop


def run(args: argparse.Namespace) -> int:
    import sqlite3

    from controller.network.address import BrokerAddress, NetworkError
    from controller.network.hub import Hub
    from controller.network.mirror import Mirror
    from web.errors import PinError
    from web.room import create_room_app
    from web.server import make_server

    database = Path(args.db)
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
        mirror = Mirror(str(database))
    except (OSError, sqlite3.Error) as error:
        print(f"sheshbesh hub: cannot use the mirror {str(database)!r}: {error}", file=sys.stderr)
        return 2
    log_path = Path(args.log) if args.log else database.with_suffix(".log")
    handler = logging.FileHandler(log_path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        address = BrokerAddress.from_url(args.broker)
        if args.password_file:
            address = address.with_credentials(
                address.username or "hub", _first_line(args.password_file)
            )
        hub = Hub(address, mirror, room=args.room)
        app = create_room_app(hub, {"ROOM_TITLE": args.title, "PIN_FILE": args.pin_file})
        try:
            server = make_server(app, args.host, args.port)
        except OSError as error:
            print(
                f"sheshbesh hub: cannot listen on {args.host}:{args.port} "
                f"({error.strerror or error}); choose another --port",
                file=sys.stderr,
            )
            return 2
        hub.start()
    except (NetworkError, PinError) as error:
        print(f"sheshbesh hub: {error}", file=sys.stderr)
        return 2
    print(f"hub: http://{args.host}:{server.effective_port}/", flush=True)
    print(f"broker: {hub.address}", flush=True)
    print(f"mirror: {database}", flush=True)
    signal.signal(signal.SIGTERM, _on_term)
    try:
        server.run()
    except (KeyboardInterrupt, _Stop):
        pass
    finally:
        hub.close()
        server.close()
        mirror.close()
    return 0
