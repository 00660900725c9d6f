"""A stand-in for MicroPython's ``machine`` module: pins whose levels the tests set.

Plain Python for CPython and MicroPython alike (the WebAssembly test writes it into MicroPython's
file system).
"""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    #: Level of every pin by number; tests write here to press buttons (0 = pressed to ground).
    levels = {}  # noqa: RUF012 (MicroPython has no typing.ClassVar)

    def __init__(self, pin, mode=-1, pull=-1):
        self.pin = pin
        self.mode = mode
        self.pull = pull
        if pin not in Pin.levels:
            Pin.levels[pin] = 1 if pull == Pin.PULL_UP else 0

    def value(self, level=None):
        if level is None:
            return Pin.levels[self.pin]
        Pin.levels[self.pin] = 1 if level else 0
        return None


resets = []


def reset():
    resets.append(1)
