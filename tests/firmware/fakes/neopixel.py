"""A stand-in for MicroPython's ``neopixel`` module: records what the strip was told to show."""


class NeoPixel:
    #: Every strip created, newest last.
    instances = []  # noqa: RUF012 (MicroPython has no typing.ClassVar)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buffer = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n
        self.writes = 0
        #: Called with the shown pixels after every write().
        self.listeners = []
        NeoPixel.instances.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        self.buffer[index] = (colour[0], colour[1], colour[2])

    def __getitem__(self, index):
        return self.buffer[index]

    def fill(self, colour):
        for index in range(self.n):
            self[index] = colour

    def write(self):
        self.shown = list(self.buffer)
        self.writes += 1
        for listener in self.listeners:
            listener(self.shown)
