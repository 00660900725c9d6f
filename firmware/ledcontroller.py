"""The LED controller's logic: protocol sessions, the strip's picture, button events.

Hardware-free and clock-free: :class:`Controller` is handed a strip (anything with ``n``,
``__setitem__`` and ``write()``, as MicroPython's ``neopixel.NeoPixel``), a ``write(bytes)`` for the
serial line, and the current tick (ms, MicroPython's wrapping ``ticks_ms``) on every call. ``pico``
wires it to real pins; the host tests wire it to a pseudo-terminal and a fake strip.

States: ``waiting`` (power-up, no session: a blue dot walks the strip), ``linked`` (showing the
host's scene), ``lost`` (session open but no frame for ``silence_ms``: the whole strip breathes
amber, the scene is kept and comes back with the next frame), ``mismatch`` (the host asked for
another protocol version: the strip flashes magenta).
"""

from firmware.protocol import (
    ACK,
    BLINK,
    BOOT,
    BUTTON,
    ERROR,
    ERROR_BAD_PAYLOAD,
    ERROR_NO_SESSION,
    ERROR_UNKNOWN_KIND,
    ERROR_VERSION,
    FLASH,
    HELLO,
    PING,
    PONG,
    PROTOCOL_VERSION,
    PULSE,
    SCENE,
    STATE_LINKED,
    STATE_LOST,
    STATE_MISMATCH,
    STATE_WAITING,
    WELCOME,
    Decoder,
    Frame,
    FrameError,
    button_payload,
    encode_frame,
    error_payload,
    next_seq,
    parse_ack,
    parse_hello,
    parse_ping,
    parse_scene,
    pong_payload,
    ticks_diff,
    welcome_payload,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

FIRMWARE_NAME = "sheshbesh-leds 1.0"
#: How often animated scenes and patterns are redrawn (ms).
FRAME_MS = 20
_WAITING_COLOUR = (0, 0, 40)
_LOST_COLOUR = (60, 30, 0)
_MISMATCH_COLOUR = (60, 0, 60)


def effect_level(effect: int, now: int) -> int:
    """Brightness 0..255 of an LED with ``effect`` at tick ``now``.

    >>> effect_level(BLINK, 0), effect_level(BLINK, 600)
    (255, 0)
    """
    if effect == BLINK:
        return 255 if now % 1000 < 500 else 0
    if effect == FLASH:
        return 255 if now % 240 < 120 else 0
    if effect == PULSE:
        phase = now % 2000
        ramp = phase if phase < 1000 else 2000 - phase
        return 40 + ramp * 215 // 1000
    return 255


def limit_current(
    pixels: "list[tuple[int, int, int]]", limit_ma: int, channel_ma: int
) -> "list[tuple[int, int, int]]":
    """Dim ``pixels`` evenly so the strip draws at most ``limit_ma`` (0 means no limit).

    >>> limit_current([(255, 255, 255)] * 2, 60, 20)
    [(127, 127, 127), (127, 127, 127)]
    """
    if limit_ma <= 0:
        return pixels
    total = 0
    for red, green, blue in pixels:
        total += red + green + blue
    budget = limit_ma * 255 // channel_ma
    if total <= budget:
        return pixels
    return [(r * budget // total, g * budget // total, b * budget // total) for r, g, b in pixels]


class Controller:
    """One LED controller: feed it received bytes and ticks; it answers, animates and reports buttons."""

    def __init__(
        self,
        strip: "Any",
        write: "Callable[[bytes], Any]",
        buttons: "Sequence[str]" = (),
        now: int = 0,
        silence_ms: int = 2000,
        retransmit_ms: int = 100,
        current_limit_ma: int = 0,
        channel_ma: int = 20,
        firmware: str = FIRMWARE_NAME,
        max_pending: int = 8,
    ) -> None:
        self.strip = strip
        self.led_count = strip.n
        self._write = write
        self.buttons = list(buttons)
        self.silence_ms = silence_ms
        self.retransmit_ms = retransmit_ms
        self.current_limit_ma = current_limit_ma
        self.channel_ma = channel_ma
        self.firmware = firmware
        self.max_pending = max_pending
        self.state = STATE_WAITING
        self.decoder = Decoder()
        self.started = now
        self.last_received = now
        self.scene = [(0, 0, 0, 0)] * self.led_count
        self.scenes_applied = 0
        self._scene_seq = 0  # sequence number of the last SCENE applied this session; 0 = none
        self._seq = 0  # our own reliable sequence number
        self._pending: list[bytes] = []  # BUTTON payloads waiting for their ACK, oldest first
        self._pending_seq = 0
        self._pending_sent = now
        self.dropped_presses = 0
        self._shown: list[tuple[int, int, int]] | None = None
        self._drawn_at = now
        self._dirty = True
        self.send(0, BOOT)
        self.draw(now)

    # -- the serial side ------------------------------------------------------------------------

    def send(self, seq: int, kind: int, payload: bytes = b"") -> None:
        self._write(encode_frame(seq, kind, payload))

    def receive(self, data: bytes, now: int) -> None:
        """Bytes read from the serial line at tick ``now``."""
        for frame in self.decoder.feed(data):
            self.handle(frame, now)
        if self._dirty:  # show a new scene at once rather than at the next tick
            self.draw(now)

    def handle(self, frame: Frame, now: int) -> None:
        """Act on one checked frame from the host."""
        self.last_received = now
        if self.state == STATE_LOST:  # the session is still open: show the scene again
            self._set_state(STATE_LINKED)
        kind = frame.kind
        try:
            if kind == HELLO:
                self._hello(parse_hello(frame.payload))
            elif kind == PING:
                token = parse_ping(frame.payload)
                uptime = ticks_diff(now, self.started)
                self.send(0, PONG, pong_payload(token, uptime, self.decoder.rejected, self.state))
            elif kind == SCENE:
                if self.state in (STATE_WAITING, STATE_MISMATCH):
                    self.send(0, ERROR, error_payload(ERROR_NO_SESSION, "SCENE before HELLO"))
                    return
                pixels = parse_scene(frame.payload)
                if frame.seq != self._scene_seq:  # a repeat (our ACK was lost) is only acknowledged
                    self._scene_seq = frame.seq
                    count = min(len(pixels), self.led_count)
                    self.scene = pixels[:count] + [(0, 0, 0, 0)] * (self.led_count - count)
                    self.scenes_applied += 1
                    self._dirty = True
                self.send(0, ACK, bytes((frame.seq,)))
            elif kind == ACK:
                if self._pending and parse_ack(frame.payload) == self._pending_seq:
                    self._pending.pop(0)
                    self._send_pending(now)
            else:
                self.send(0, ERROR, error_payload(ERROR_UNKNOWN_KIND, f"unknown frame kind {kind}"))
        except FrameError as error:
            self.send(0, ERROR, error_payload(ERROR_BAD_PAYLOAD, str(error)))

    def _hello(self, version: int) -> None:
        if version != PROTOCOL_VERSION:
            self._set_state(STATE_MISMATCH)
            text = f"controller speaks protocol {PROTOCOL_VERSION}, host asked for {version}"
            self.send(0, ERROR, error_payload(ERROR_VERSION, text))
            return
        self._scene_seq = 0
        self._pending = []
        self._set_state(STATE_LINKED)
        payload = welcome_payload(PROTOCOL_VERSION, self.led_count, self.firmware, self.buttons)
        self.send(0, WELCOME, payload)

    def _set_state(self, state: int) -> None:
        if state != self.state:
            self.state = state
            self._dirty = True

    # -- buttons --------------------------------------------------------------------------------

    def button(self, index: int, kind: int, duration_ms: int, now: int) -> None:
        """Report a debounced PRESS or HOLD of button ``index``; dropped unless linked."""
        if self.state != STATE_LINKED:
            self.dropped_presses += 1
            return
        if len(self._pending) >= self.max_pending:
            self._pending.pop(0)
            self.dropped_presses += 1
        self._pending.append(button_payload(index, kind, duration_ms))
        if len(self._pending) == 1:
            self._send_pending(now)

    def _send_pending(self, now: int) -> None:
        if self._pending:
            self._seq = next_seq(self._seq)
            self._pending_seq = self._seq
            self._pending_sent = now
            self.send(self._pending_seq, BUTTON, self._pending[0])

    # -- time -----------------------------------------------------------------------------------

    def tick(self, now: int) -> None:
        """Advance to tick ``now``: notice silence, retransmit, redraw."""
        if self.state == STATE_LINKED and ticks_diff(now, self.last_received) > self.silence_ms:
            self._set_state(STATE_LOST)
        if (
            self._pending
            and self.state == STATE_LINKED
            and ticks_diff(now, self._pending_sent) >= self.retransmit_ms
        ):
            self._pending_sent = now
            self.send(self._pending_seq, BUTTON, self._pending[0])
        self.draw(now)

    def picture(self, now: int) -> "list[tuple[int, int, int]]":
        """What the strip should show at tick ``now``, before the current limit."""
        count = self.led_count
        if self.state == STATE_WAITING:
            dot = (now // 150) % count if count else 0
            return [_WAITING_COLOUR if i == dot else (0, 0, 0) for i in range(count)]
        if self.state == STATE_LOST:
            level = effect_level(PULSE, now)
            r, g, b = _LOST_COLOUR
            return [(r * level // 255, g * level // 255, b * level // 255)] * count
        if self.state == STATE_MISMATCH:
            return [_MISMATCH_COLOUR if effect_level(FLASH, now) else (0, 0, 0)] * count
        pixels = []
        for red, green, blue, effect in self.scene:
            level = effect_level(effect, now)
            pixels.append((red * level // 255, green * level // 255, blue * level // 255))
        return pixels

    def is_animated(self) -> bool:
        if self.state != STATE_LINKED:
            return True
        return any(pixel[3] for pixel in self.scene)

    def draw(self, now: int) -> None:
        """Write the picture to the strip if it changed (at most every FRAME_MS when animated)."""
        if not self._dirty and not (
            ticks_diff(now, self._drawn_at) >= FRAME_MS and self.is_animated()
        ):
            return
        self._dirty = False
        self._drawn_at = now
        pixels = limit_current(self.picture(now), self.current_limit_ma, self.channel_ma)
        if pixels == self._shown:
            return
        strip = self.strip
        for index in range(self.led_count):
            strip[index] = pixels[index]
        strip.write()
        self._shown = pixels
