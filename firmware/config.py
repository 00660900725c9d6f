"""Pins and limits of the LED controller; keep in step with the ``[pico]`` table of hardware/pinmap.toml.

MicroPython cannot read TOML, so the values live here too; a host test checks both files agree.
"""

#: GPIO driving the strip's data line (through a 330 ohm resistor).
STRIP_PIN = 0
#: LEDs on the strip: one per board location, in sheshbesh.locations.LOCATIONS order.
LED_COUNT = 28
#: Optional buttons wired from a GPIO to ground (internal pull-ups); unconnected pins read released.
BUTTONS = (("done", 10), ("double", 11), ("take", 12), ("pass", 13), ("undo", 14), ("resign", 15))
#: Holding this button while the Pico powers up skips the firmware and leaves the REPL free.
SAFE_BOOT_BUTTON = "done"
#: A press counts once the pin has been steady this long.
DEBOUNCE_MS = 20
#: A press held this long is reported as a HOLD (while still held) instead of a PRESS.
HOLD_MS = 1500
#: With no frame from the host for this long the strip shows the link-lost pattern.
SILENCE_MS = 2000
#: An unacknowledged BUTTON frame is sent again after this long.
RETRANSMIT_MS = 100
#: Budget for the strip's current (mA); scenes that would draw more are dimmed to fit.
#: 400 mA keeps a strip powered from the Pico's USB within what a Pi's USB port gives.
CURRENT_LIMIT_MA = 400
#: Current one colour channel of one WS2812 draws at full brightness (mA).
CHANNEL_MA = 20
