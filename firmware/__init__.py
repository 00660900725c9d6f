"""MicroPython firmware of the LED controller (a Raspberry Pi Pico driving a WS2812 strip).

``protocol`` is shared with the host driver (``controller.lights.serial``); ``buttons`` and
``ledcontroller`` are the firmware's hardware-free logic; ``pico`` binds them to the Pico's pins and
USB serial; ``main.py`` starts it at power-up. See ``PROTOCOL.md``.
"""
