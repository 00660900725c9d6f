"""Bring-up check for a new build: walk the LEDs in index order, show each Light, echo presses.

Run on the Pi with the build's settings::

    python -m controller.lights.check --kind serial            # strip on the Pico (pin map's port)
    python -m controller.lights.check --kind pins --buttons pins

Each location lights in turn with its name printed, so a wrongly placed LED is seen at once; then
every kind of Light is shown on the whole board; button presses are printed as they come. The exit
status is 0 when the lights were connected at the end, 1 when not, 2 for bad settings.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence

from controller.lights.errors import LightsError
from controller.lights.factory import KINDS, LightsConfig, open_buttons, open_lights
from controller.lights.scene import Light, Scene
from sheshbesh.locations import LOCATIONS


def walk_leds(
    show: Callable[[Scene], None],
    step_s: float,
    say: Callable[[str], None],
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Light each location alone (LEGAL), then the whole board in each Light; returns scenes shown."""
    shown = 0
    for index, name in enumerate(LOCATIONS):
        say(f"LED {index:2d}: {name}")
        show(Scene({name: Light.LEGAL}))
        shown += 1
        sleep(step_s)
    for light in Light:
        if light is Light.OFF:
            continue
        say(f"all locations: {light.value}")
        show(Scene(dict.fromkeys(LOCATIONS, light)))
        shown += 1
        sleep(step_s * 4)
    show(Scene())
    return shown + 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m controller.lights.check", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--kind", choices=KINDS, default="serial", help="lights to check")
    parser.add_argument("--buttons", choices=KINDS, default=None, help="buttons (default: --kind)")
    parser.add_argument("--port", default=None, help="serial port (default: the pin map's)")
    parser.add_argument(
        "--pinmap", default=None, help="pin map file (default: hardware/pinmap.toml)"
    )
    parser.add_argument("--brightness", type=float, default=1.0, help="0..1 (default 1)")
    parser.add_argument("--step", type=float, default=0.4, help="seconds per LED (default 0.4)")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for the link")
    args = parser.parse_args(argv)

    def say(text: str) -> None:
        print(text, flush=True)

    try:
        config = LightsConfig(args.kind, args.pinmap, args.port, None, args.brightness)
        button_config = LightsConfig(args.buttons or args.kind, args.pinmap, args.port)
        lights = open_lights(config)
    except LightsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    link = getattr(lights, "link", None)
    if link is not None and not link.wait_for_connection(args.wait):
        say(f"no LED controller yet: {json.dumps(lights.link_status())}")
    buttons = open_buttons(button_config, lambda name: say(f"button: {name}"), lights=lights)
    try:
        say(f"lights: {json.dumps(lights.link_status())}")
        say(f"buttons: {', '.join(buttons.names) or '(none reported yet)'}")
        walk_leds(lights.show, args.step, say)
        say(f"lights: {json.dumps(lights.link_status())}")
        return 0 if lights.is_connected else 1
    except KeyboardInterrupt:
        return 130
    finally:
        buttons.close()
        lights.close()


if __name__ == "__main__":
    sys.exit(main())
