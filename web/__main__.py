"""Run the panel on its own with stand-ins for the referee: ``python -m web --fake --pin 1234``.

For trying the pages without a board; the real program wires the referee and the record instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from web import create_app, serve
from web.errors import PinError
from web.fakes import FakeControls, MemoryMatchStore, synthetic_frame
from web.hub import PanelHub
from web.pin import hash_pin
from web.settings import panel_settings
from web.state import example_state


def port(text: str) -> int:
    """A TCP port from 0 (pick a free one) to 65535, refused in one line otherwise."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: choose 0 to 65535")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=port, default=8080, help="port to listen on")
    parser.add_argument("--fake", action="store_true", help="show an example match and matches")
    parser.add_argument("--pin", help="admin PIN for this run only (kept hashed in memory)")
    args = parser.parse_args(argv)
    hub = PanelHub()
    config = panel_settings()  # the environment's SHESHBESH_PANEL_* settings, as run and demo
    if args.pin:
        try:
            config["PIN_HASH"] = hash_pin(args.pin)
        except PinError as error:
            parser.error(f"--pin: {error}")
    controls = None
    store = None
    if args.fake:
        hub.publish(example_state())
        controls = FakeControls(
            hub=hub, frame=synthetic_frame(), overlay=synthetic_frame(overlay=True)
        )
        store = MemoryMatchStore()
    try:
        app = create_app(config, hub=hub, controls=controls, store=store)
    except (PinError, ValueError) as error:
        parser.error(str(error))
    print(f"panel on http://{args.host}:{args.port}/", file=sys.stderr)
    serve(app, args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
