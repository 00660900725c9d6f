"""The wire protocol between the Pi and the LED controller: COBS frames checked by CRC16-CCITT.

This module is plain Python that runs unchanged under CPython (the host driver) and MicroPython
(the Raspberry Pi Pico): no typing imports at run time, no dataclasses, only ``bytes``/``bytearray``
and ints. The format is written down in ``firmware/PROTOCOL.md``; the golden vectors in
``tests/firmware/golden.json`` pin it on both sides.

A decoded frame is ``seq | kind | payload | crc16``; on the wire it is COBS-encoded and wrapped in
zero bytes (``00 <cobs> 00``), so a receiver finds the next frame after any garbage.

>>> frame = encode_frame(1, PING, b"\\x00\\x00\\x00\\x07")
>>> Decoder().feed(frame)
[Frame(1, 0x20, b'\\x00\\x00\\x00\\x07')]
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy reads this; MicroPython never imports typing
    from collections.abc import Sequence

PROTOCOL_VERSION = 1
#: Largest decoded frame (seq, kind, payload, crc) a receiver accepts.
MAX_FRAME = 512
#: Largest payload: MAX_FRAME less the two header bytes and the CRC.
MAX_PAYLOAD = MAX_FRAME - 4

# Frame kinds. Reliable kinds carry a sequence number 1..255 and are acknowledged; the others
# carry sequence number 0.
HELLO = 0x01  # host -> controller: protocol version; starts a session
WELCOME = 0x02  # controller -> host: version, LED count, firmware name, button names
BOOT = 0x03  # controller -> host: sent once after power-up or reset
SCENE = 0x10  # host -> controller, reliable: 4 bytes (r, g, b, effect) per LED
ACK = 0x11  # either way: payload = the acknowledged sequence number
PING = 0x20  # host -> controller: 4-byte token
PONG = 0x21  # controller -> host: token, uptime ms, frames rejected, state
BUTTON = 0x30  # controller -> host, reliable: button index, press kind, duration ms
ERROR = 0x7F  # controller -> host: error code, text

KIND_NAMES = {
    HELLO: "HELLO",
    WELCOME: "WELCOME",
    BOOT: "BOOT",
    SCENE: "SCENE",
    ACK: "ACK",
    PING: "PING",
    PONG: "PONG",
    BUTTON: "BUTTON",
    ERROR: "ERROR",
}

# Per-LED effects in a SCENE payload.
STEADY = 0
BLINK = 1  # 500 ms on, 500 ms off
PULSE = 2  # brightness breathes over 2 s
FLASH = 3  # 120 ms on, 120 ms off
EFFECTS = (STEADY, BLINK, PULSE, FLASH)

# Button press kinds in a BUTTON payload.
PRESS = 1  # released before the hold time
HOLD = 2  # held down for the hold time (sent once, while still held)

# Error codes in an ERROR payload.
ERROR_VERSION = 1  # HELLO asked for a protocol version the controller does not speak
ERROR_NO_SESSION = 2  # a SCENE arrived before any HELLO (the controller restarted)
ERROR_BAD_PAYLOAD = 3  # a frame's payload had the wrong length or values
ERROR_UNKNOWN_KIND = 4  # a frame kind the controller does not know

# Controller states reported in PONG.
STATE_WAITING = 0  # powered up, no session yet
STATE_LINKED = 1  # session established, showing the host's scene
STATE_LOST = 2  # session established, but the host went silent: link-lost pattern
STATE_MISMATCH = 3  # the host speaks another protocol version
STATE_NAMES = ("waiting", "linked", "lost", "mismatch")

#: MicroPython's ``time.ticks_ms()`` wraps at this period; the host fakes the same clock.
TICKS_PERIOD = 1 << 30
_TICKS_HALF = TICKS_PERIOD >> 1


class FrameError(ValueError):
    """A frame could not be decoded; the message says which check failed."""


def ticks_diff(later: int, earlier: int) -> int:
    """Signed difference of two wrapping millisecond tick counts, as MicroPython's ``ticks_diff``.

    >>> ticks_diff(5, TICKS_PERIOD - 5)
    10
    """
    return ((later - earlier + _TICKS_HALF) & (TICKS_PERIOD - 1)) - _TICKS_HALF


def ticks_add(ticks: int, delta: int) -> int:
    """``ticks + delta`` on the wrapping tick clock."""
    return (ticks + delta) & (TICKS_PERIOD - 1)


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
        table.append(crc)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC16-CCITT (polynomial 0x1021, initial 0xFFFF, no reflection, no final xor).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes | bytearray) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte.

    >>> cobs_encode(b"\\x11\\x00\\x22")
    b'\\x02\\x11\\x02"'
    """
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes:
    """Undo :func:`cobs_encode`; raises :class:`FrameError` on a zero byte or a cut-short block."""
    out = bytearray()
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        if code == 0:
            raise FrameError(f"zero byte inside a COBS block at offset {index}")
        end = index + code
        if end > size:
            raise FrameError(f"COBS block at offset {index} runs past the frame's end")
        out.extend(data[index + 1 : end])
        index = end
        if code != 0xFF and index < size:
            out.append(0)
    return bytes(out)


class Frame:
    """One decoded frame: sequence number, kind and payload (the CRC has been checked)."""

    def __init__(self, seq: int, kind: int, payload: bytes = b"") -> None:
        self.seq = seq
        self.kind = kind
        self.payload = payload

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frame):
            return NotImplemented
        return (self.seq, self.kind, self.payload) == (other.seq, other.kind, other.payload)

    def __hash__(self) -> int:
        return hash((self.seq, self.kind, self.payload))

    def __repr__(self) -> str:
        return f"Frame({self.seq}, 0x{self.kind:02x}, {self.payload!r})"

    def encode(self) -> bytes:
        """The frame's wire bytes."""
        return encode_frame(self.seq, self.kind, self.payload)


def encode_frame(seq: int, kind: int, payload: bytes | bytearray = b"") -> bytes:
    """Wire bytes of one frame: ``00 cobs(seq kind payload crc16) 00``.

    Raises :class:`FrameError` when the sequence number or kind is not a byte or the payload is
    longer than :data:`MAX_PAYLOAD`.
    """
    if not 0 <= seq <= 255:
        raise FrameError(f"sequence number {seq!r} is not 0..255")
    if not 0 <= kind <= 255:
        raise FrameError(f"frame kind {kind!r} is not 0..255")
    if len(payload) > MAX_PAYLOAD:
        raise FrameError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytearray((seq, kind))
    body.extend(payload)
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_frame(stuffed: bytes | bytearray) -> Frame:
    """Decode the bytes between two zero delimiters; raises :class:`FrameError` naming the check."""
    body = cobs_decode(stuffed)
    if len(body) < 4:
        raise FrameError(f"frame of {len(body)} bytes is shorter than header and CRC")
    expected = (body[-2] << 8) | body[-1]
    actual = crc16(memoryview(body)[:-2])
    if actual != expected:
        raise FrameError(f"CRC mismatch: frame says 0x{expected:04x}, bytes give 0x{actual:04x}")
    return Frame(body[0], body[1], bytes(body[2:-2]))


class Decoder:
    """Splits a byte stream into checked frames, skipping garbage and counting what it rejected.

    ``rejected`` counts chunks between delimiters that failed a check; ``last_error`` says why the
    latest one failed.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        # COBS adds one byte per 254, plus one.
        self._limit = max_frame + max_frame // 254 + 1
        self._chunk = bytearray()
        self._overflow = False
        self.accepted = 0
        self.rejected = 0
        self.last_error = ""

    def reset(self) -> None:
        """Forget a partly received frame."""
        self._chunk = bytearray()
        self._overflow = False

    def _take(self, data: bytes | bytearray | memoryview) -> None:
        if self._overflow:
            return
        if len(self._chunk) + len(data) > self._limit:
            self._overflow = True
            self._chunk = bytearray()
        else:
            self._chunk.extend(data)

    def _finish(self, frames: list[Frame]) -> None:
        if self._overflow:
            self._overflow = False
            self.rejected += 1
            self.last_error = f"frame longer than {self._limit} bytes"
            return
        if not self._chunk:
            return
        chunk = self._chunk
        self._chunk = bytearray()
        try:
            frame = decode_frame(chunk)
        except FrameError as error:
            self.rejected += 1
            self.last_error = str(error)
            return
        self.accepted += 1
        frames.append(frame)

    def feed(self, data: bytes | bytearray) -> list[Frame]:
        """Add received bytes; return the frames they complete, in order."""
        frames: list[Frame] = []
        start = 0
        size = len(data)
        while start < size:
            zero = data.find(b"\x00", start)
            if zero < 0:
                self._take(data[start:])
                break
            if zero > start:
                self._take(data[start:zero])
            self._finish(frames)
            start = zero + 1
        return frames


# Payloads. Each ``*_payload`` builds one; each ``parse_*`` checks and unpacks one, raising
# FrameError naming what was wrong.


def _u16(value: int) -> bytes:
    return bytes(((value >> 8) & 0xFF, value & 0xFF))


def _u32(value: int) -> bytes:
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def _read_u16(data: bytes, at: int) -> int:
    return (data[at] << 8) | data[at + 1]


def _read_u32(data: bytes, at: int) -> int:
    return (data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3]


def hello_payload(version: int = PROTOCOL_VERSION) -> bytes:
    return bytes((version,))


def parse_hello(payload: bytes) -> int:
    """The protocol version a HELLO asks for."""
    if len(payload) != 1:
        raise FrameError(f"HELLO payload must be 1 byte, got {len(payload)}")
    return payload[0]


def welcome_payload(version: int, led_count: int, firmware: str, buttons: "Sequence[str]") -> bytes:
    """WELCOME: version, LED count (u16), firmware name (length-prefixed), button names (comma list)."""
    name = firmware.encode()[:255]
    return (
        bytes((version,))
        + _u16(led_count)
        + bytes((len(name),))
        + name
        + ",".join(buttons).encode()
    )


def parse_welcome(payload: bytes) -> tuple[int, int, str, list[str]]:
    """(version, LED count, firmware name, button names) from a WELCOME payload."""
    if len(payload) < 4:
        raise FrameError(f"WELCOME payload of {len(payload)} bytes is shorter than 4")
    name_end = 4 + payload[3]
    if name_end > len(payload):
        raise FrameError("WELCOME firmware name runs past the payload")
    try:
        firmware = payload[4:name_end].decode()
        rest = payload[name_end:].decode()
    except UnicodeError:
        raise FrameError("WELCOME text is not UTF-8") from None
    buttons = [name for name in rest.split(",") if name]
    return payload[0], _read_u16(payload, 1), firmware, buttons


def scene_payload(pixels: "Sequence[tuple[int, int, int, int]]") -> bytes:
    """SCENE: for each LED in strip order, red, green, blue (0..255) and an effect code."""
    out = bytearray()
    for pixel in pixels:
        red, green, blue, effect = pixel
        if effect not in EFFECTS:
            raise FrameError(f"unknown LED effect {effect!r}")
        out.extend(bytes((red, green, blue, effect)))
    return bytes(out)


def parse_scene(payload: bytes) -> list[tuple[int, int, int, int]]:
    """The (r, g, b, effect) of each LED in a SCENE payload."""
    if len(payload) % 4:
        raise FrameError(f"SCENE payload of {len(payload)} bytes is not a multiple of 4")
    pixels = []
    for at in range(0, len(payload), 4):
        effect = payload[at + 3]
        if effect not in EFFECTS:
            raise FrameError(f"SCENE LED {at // 4} has unknown effect {effect}")
        pixels.append((payload[at], payload[at + 1], payload[at + 2], effect))
    return pixels


def ack_payload(seq: int) -> bytes:
    return bytes((seq,))


def parse_ack(payload: bytes) -> int:
    if len(payload) != 1:
        raise FrameError(f"ACK payload must be 1 byte, got {len(payload)}")
    return payload[0]


def ping_payload(token: int) -> bytes:
    return _u32(token & 0xFFFFFFFF)


def parse_ping(payload: bytes) -> int:
    if len(payload) != 4:
        raise FrameError(f"PING payload must be 4 bytes, got {len(payload)}")
    return _read_u32(payload, 0)


def pong_payload(token: int, uptime_ms: int, rejected: int, state: int) -> bytes:
    """PONG: the PING's token, uptime (ms, u32), frames rejected (u16, saturating), state."""
    return (
        _u32(token) + _u32(uptime_ms & 0xFFFFFFFF) + _u16(min(rejected, 0xFFFF)) + bytes((state,))
    )


def parse_pong(payload: bytes) -> tuple[int, int, int, int]:
    """(token, uptime ms, frames rejected, state) from a PONG payload."""
    if len(payload) != 11:
        raise FrameError(f"PONG payload must be 11 bytes, got {len(payload)}")
    return _read_u32(payload, 0), _read_u32(payload, 4), _read_u16(payload, 8), payload[10]


def button_payload(index: int, kind: int, duration_ms: int) -> bytes:
    return bytes((index, kind)) + _u16(min(duration_ms, 0xFFFF))


def parse_button(payload: bytes) -> tuple[int, int, int]:
    """(button index, PRESS or HOLD, duration ms) from a BUTTON payload."""
    if len(payload) != 4:
        raise FrameError(f"BUTTON payload must be 4 bytes, got {len(payload)}")
    if payload[1] not in (PRESS, HOLD):
        raise FrameError(f"BUTTON press kind {payload[1]} is neither PRESS nor HOLD")
    return payload[0], payload[1], _read_u16(payload, 2)


def error_payload(code: int, text: str) -> bytes:
    return bytes((code,)) + text.encode()[:200]


def parse_error(payload: bytes) -> tuple[int, str]:
    if len(payload) < 1:
        raise FrameError("ERROR payload is empty")
    try:
        text = payload[1:].decode()
    except UnicodeError:
        text = repr(payload[1:])
    return payload[0], text


def next_seq(seq: int) -> int:
    """The sequence number after ``seq``: 1..255, skipping 0 (kept for unreliable frames)."""
    return 1 if seq >= 255 else seq + 1
