"""The LED controller on USB serial: the host side of ``firmware/PROTOCOL.md``.

:class:`SerialLink` owns the port and one background thread. It opens the port (a path, a glob such
as ``/dev/serial/by-id/usb-MicroPython*``, or a pyserial URL), shakes hands (HELLO -> WELCOME),
sends the newest scene reliably (sequence number, ACK, retransmit), pings while idle, acknowledges
and de-duplicates button frames, and when the cable is pulled, the controller restarts or falls
silent, it closes the port, reopens it, shakes hands again and restores the scene. Nothing here
raises into the referee: :meth:`SerialLink.status` says how the link is doing.

:class:`SerialLights` and :class:`SerialButtons` are the :class:`~controller.lights.base.Lights` and
:class:`~controller.lights.base.Buttons` faces of one link.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import serial

from controller.lights.base import PressCallback, hold_name
from controller.lights.errors import LinkError
from controller.lights.palette import DEFAULT_PALETTE, Palette
from controller.lights.scene import DARK, Scene
from firmware import protocol
from firmware.protocol import Decoder, Frame, FrameError, encode_frame
from sheshbesh.closing import Closing

log = logging.getLogger(__name__)

Pixels = tuple[tuple[int, int, int, int], ...]
Opener = Callable[[str, int], Any]


def open_port(url: str, baudrate: int) -> Any:
    """Open a serial port (path or pyserial URL) with a short read timeout."""
    return serial.serial_for_url(url, baudrate=baudrate, timeout=0.02, write_timeout=1.0)


class SerialLink(Closing):
    """A self-healing session with the LED controller; see the module docstring.

    ``port`` is a device path, a glob (the first match) or a pyserial URL, or a list of them tried
    in order; they are looked up again at every reconnect. Timings are in seconds; ``clock`` must
    be monotonic.
    """

    def __init__(
        self,
        port: str | Sequence[str],
        baudrate: int = 115200,
        *,
        on_button: Callable[[str], None] | None = None,
        retransmit_s: float = 0.1,
        max_retries: int = 5,
        heartbeat_s: float = 0.5,
        silence_s: float = 2.0,
        handshake_s: float = 0.3,
        reconnect_s: float = 0.5,
        mismatch_retry_s: float = 5.0,
        opener: Opener = open_port,
        clock: Callable[[], float] = time.monotonic,
        start: bool = True,
    ) -> None:
        self.ports = (port,) if isinstance(port, str) else tuple(port)
        if not self.ports or not all(self.ports):
            raise LinkError(f"no serial port given for the LED controller: {port!r}")
        self.port_spec = " | ".join(self.ports)
        self.baudrate = baudrate
        self.on_button = on_button
        self.retransmit_s = retransmit_s
        self.max_retries = max_retries
        self.heartbeat_s = heartbeat_s
        self.silence_s = silence_s
        self.handshake_s = handshake_s
        self.reconnect_s = reconnect_s
        self.mismatch_retry_s = mismatch_retry_s
        self._opener = opener
        self._clock = clock
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._closing = threading.Event()
        self._port: Any = None
        self._decoder = Decoder()
        # What the host wants shown, and how far the controller has confirmed it.
        self._wanted: Pixels | None = None
        self._wanted_version = 0
        self._wanted_at = 0.0
        self._acked_version = 0
        self._outstanding: tuple[int, int, bytes] | None = None  # seq, version, payload
        self._sent_at = 0.0
        self._tries = 0
        self._seq = 0
        self._last_button_seq: int | None = None
        self._last_received = 0.0
        self._last_sent = 0.0
        self._ping_token = 0
        self._ping_sent: dict[int, float] = {}
        self._needs_handshake = False
        # Health, reported by status().
        self.state = "connecting"
        self.device = ""
        self.firmware = ""
        self.led_count = 0
        self.button_names: list[str] = []
        self.connects = 0
        self.connected_since: float | None = None
        self.last_error: str | None = None
        self.frames_sent = 0
        self.frames_received = 0
        self.retransmits = 0
        self.rejected_before = 0
        self.controller_rejected = 0
        self.controller_state = ""
        self.rtt_ms: float | None = None
        self.scene_latency_ms: float | None = None
        self.presses = 0
        self._thread: threading.Thread | None = None
        if start:
            self.start()

    # -- public face ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the background thread (done by the constructor unless ``start=False``)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="serial-link", daemon=True)
            self._thread.start()

    @property
    def is_connected(self) -> bool:
        return self.state == "connected"

    def send_scene(self, pixels: Sequence[tuple[int, int, int, int]]) -> None:
        """Make ``pixels`` (r, g, b, effect per LED) the picture to show; returns at once."""
        payload_check = protocol.scene_payload(pixels)  # raises FrameError on a bad effect
        if len(payload_check) > protocol.MAX_PAYLOAD:
            raise LinkError(f"{len(pixels)} LEDs do not fit in one SCENE frame")
        with self._lock:
            self._wanted = tuple(tuple(pixel) for pixel in pixels)  # type: ignore[misc]
            self._wanted_version += 1
            self._wanted_at = self._clock()
        self._wake()

    def wait_for_connection(self, timeout: float | None = None) -> bool:
        """Block until the handshake is done (True) or ``timeout`` passes (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.state == "connected", timeout)

    def wait_for_sync(self, timeout: float | None = None) -> bool:
        """Block until the controller has acknowledged the newest scene (True) or ``timeout``."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self.state == "connected" and self._acked_version == self._wanted_version,
                timeout,
            )

    def status(self) -> dict[str, Any]:
        """The link's health as plain JSON, for the panel."""
        now = self._clock()
        with self._lock:
            synced = self.state == "connected" and self._acked_version == self._wanted_version
            return {
                "kind": "serial",
                "state": self.state,
                "port": self.port_spec,
                "device": self.device,
                "firmware": self.firmware,
                "protocol": protocol.PROTOCOL_VERSION,
                "led_count": self.led_count,
                "buttons": list(self.button_names),
                "connects": self.connects,
                "connected_for_s": None
                if self.connected_since is None
                else round(now - self.connected_since, 1),
                "scene_synced": synced,
                "frames_sent": self.frames_sent,
                "frames_received": self.frames_received,
                "retransmits": self.retransmits,
                "frames_rejected": self.rejected_before + self._decoder.rejected,
                "controller_frames_rejected": self.controller_rejected,
                "controller_state": self.controller_state,
                "rtt_ms": None if self.rtt_ms is None else round(self.rtt_ms, 2),
                "scene_latency_ms": None
                if self.scene_latency_ms is None
                else round(self.scene_latency_ms, 2),
                "button_presses": self.presses,
                "last_error": self.last_error,
            }

    def close(self) -> None:
        """Stop the thread and close the port."""
        self._closing.set()
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._close_port()
        self._set_state("closed")

    # -- the thread -----------------------------------------------------------------------------

    def _wake(self) -> None:
        port = self._port
        cancel = getattr(port, "cancel_read", None)
        if cancel is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                cancel()

    def _set_state(self, state: str, error: str | None = None) -> None:
        with self._changed:
            if error is not None:
                self.last_error = error
            if state != self.state:
                log.info(
                    "LED controller link %s -> %s%s",
                    self.state,
                    state,
                    f": {error}" if error else "",
                )
                self.state = state
                if state == "connected":
                    self.connected_since = self._clock()
                    self.connects += 1
                elif state != "connected":
                    self.connected_since = None
            self._changed.notify_all()

    def _run(self) -> None:
        while not self._closing.is_set():
            if self._port is None:
                wait = self._connect()
                if wait:
                    self._closing.wait(wait)
                continue
            try:
                self._service()
            except LinkError as error:  # before OSError: LinkError is a ConnectionError
                self._drop(str(error))
            except (serial.SerialException, OSError) as error:
                self._drop(f"serial port failed: {error}")

    def _resolve(self) -> str:
        """The first candidate port that exists now (a URL is taken as it is)."""
        for spec in self.ports:
            if "://" in spec:
                return spec
            matches = sorted(glob.glob(spec)) if glob.has_magic(spec) else [spec]
            for match in matches:
                if os.path.exists(match):
                    return match
        raise LinkError(f"no serial device at {self.port_spec}")

    def _connect(self) -> float:
        """Open and shake hands; returns 0 on success, else how long to wait before trying again."""
        try:
            device = self._resolve()
            self._port = self._opener(device, self.baudrate)
            self.device = device
        except (LinkError, serial.SerialException, OSError, ValueError) as error:
            self._set_state("disconnected", f"cannot open {self.port_spec}: {error}")
            self._port = None
            return self.reconnect_s
        self._fresh_decoder()
        try:
            self._handshake()
        except LinkError as error:  # before OSError: LinkError is a ConnectionError
            mismatch = self.state == "version-mismatch"
            self._close_port()
            if not mismatch:
                self._set_state("disconnected", str(error))
            return self.mismatch_retry_s if mismatch else self.reconnect_s
        except (serial.SerialException, OSError) as error:
            self._drop(f"serial port failed during handshake: {error}")
            return self.reconnect_s
        return 0.0

    def _fresh_decoder(self) -> None:
        self.rejected_before += self._decoder.rejected
        self._decoder = Decoder()

    def _handshake(self) -> None:
        """HELLO until WELCOME; raises LinkError on a version mismatch or silence."""
        self._needs_handshake = False
        for _attempt in range(3):
            self._send(0, protocol.HELLO, protocol.hello_payload())
            deadline = self._clock() + self.handshake_s
            while self._clock() < deadline and not self._closing.is_set():
                for frame in self._read():
                    if frame.kind == protocol.WELCOME:
                        self._welcome(frame)
                        return
                    if frame.kind == protocol.ERROR:
                        code, text = protocol.parse_error(frame.payload)
                        if code == protocol.ERROR_VERSION:
                            self._set_state("version-mismatch", f"LED controller: {text}")
                            raise LinkError(text)
                    elif frame.kind == protocol.BUTTON:  # from an earlier session: just ACK it
                        self._send(0, protocol.ACK, protocol.ack_payload(frame.seq))
        raise LinkError(f"no WELCOME from the LED controller on {self.device}")

    def _welcome(self, frame: Frame) -> None:
        try:
            version, led_count, firmware, buttons = protocol.parse_welcome(frame.payload)
        except FrameError as error:
            raise LinkError(f"bad WELCOME from the LED controller: {error}") from error
        if version != protocol.PROTOCOL_VERSION:
            text = f"controller speaks protocol {version}, host {protocol.PROTOCOL_VERSION}"
            self._set_state("version-mismatch", text)
            raise LinkError(text)
        now = self._clock()
        with self._lock:
            self.firmware, self.led_count, self.button_names = firmware, led_count, buttons
            self._last_button_seq = None
            self._outstanding = None
            self._acked_version = -1  # whatever it showed before, send the scene again
            self._last_received = now
        self._set_state("connected")

    def _drop(self, reason: str) -> None:
        self._close_port()
        if not self._closing.is_set() and self.state != "version-mismatch":
            self._set_state("disconnected", reason)

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _read(self) -> list[Frame]:
        port = self._port
        if port is None:
            raise LinkError("serial port closed")
        waiting = port.in_waiting
        data = port.read(waiting if waiting else 1)
        if not data:
            return []
        frames = self._decoder.feed(data)
        if frames:
            self.frames_received += len(frames)
            self._last_received = self._clock()
        return frames

    def _send(self, seq: int, kind: int, payload: bytes = b"") -> None:
        port = self._port
        if port is None:
            raise LinkError("serial port closed")
        port.write(encode_frame(seq, kind, payload))
        self.frames_sent += 1
        self._last_sent = self._clock()

    def _service(self) -> None:
        if self._needs_handshake:
            self._set_state("connecting", "LED controller lost its session (restarted?)")
            self._handshake()
        for frame in self._read():
            self._handle(frame)
        now = self._clock()
        with self._lock:
            outstanding = self._outstanding
            wanted, version = self._wanted, self._wanted_version
        if outstanding is not None:
            if now - self._sent_at >= self.retransmit_s:
                if self._tries > self.max_retries:
                    raise LinkError(f"no ACK for SCENE after {self._tries} tries")
                self._tries += 1
                self.retransmits += 1
                self._send(outstanding[0], protocol.SCENE, outstanding[2])
                self._sent_at = now
        elif wanted is not None and version != self._acked_version:
            self._seq = protocol.next_seq(self._seq)
            payload = protocol.scene_payload(wanted)
            with self._lock:
                self._outstanding = (self._seq, version, payload)
            self._tries = 1
            self._send(self._seq, protocol.SCENE, payload)
            self._sent_at = now
        if now - self._last_sent >= self.heartbeat_s:
            self._ping_token = (self._ping_token + 1) & 0xFFFFFFFF
            self._ping_sent = {self._ping_token: now}
            self._send(0, protocol.PING, protocol.ping_payload(self._ping_token))
        if now - self._last_received > self.silence_s:
            raise LinkError(f"LED controller silent for {now - self._last_received:.1f} s")

    def _handle(self, frame: Frame) -> None:
        kind = frame.kind
        try:
            if kind == protocol.ACK:
                seq = protocol.parse_ack(frame.payload)
                with self._changed:
                    if self._outstanding is not None and self._outstanding[0] == seq:
                        self._acked_version = self._outstanding[1]
                        self._outstanding = None
                        if self._acked_version == self._wanted_version:
                            self.scene_latency_ms = (self._clock() - self._wanted_at) * 1000
                        self._changed.notify_all()
            elif kind == protocol.PONG:
                token, _uptime, rejected, state = protocol.parse_pong(frame.payload)
                sent = self._ping_sent.pop(token, None)
                if sent is not None:
                    self.rtt_ms = (self._clock() - sent) * 1000
                self.controller_rejected = rejected
                if 0 <= state < len(protocol.STATE_NAMES):
                    self.controller_state = protocol.STATE_NAMES[state]
                if state == protocol.STATE_WAITING:
                    self._needs_handshake = True
            elif kind == protocol.BUTTON:
                index, press, _duration = protocol.parse_button(frame.payload)
                self._send(0, protocol.ACK, protocol.ack_payload(frame.seq))
                if frame.seq != self._last_button_seq:  # a repeat means our ACK was lost
                    self._last_button_seq = frame.seq
                    self._button(index, press)
            elif kind == protocol.BOOT:
                self._needs_handshake = True
            elif kind == protocol.ERROR:
                code, text = protocol.parse_error(frame.payload)
                if code == protocol.ERROR_NO_SESSION:
                    self._needs_handshake = True
                else:
                    self.last_error = f"LED controller error {code}: {text}"
        except FrameError as error:
            self.last_error = f"bad {protocol.KIND_NAMES.get(kind, hex(kind))} frame: {error}"

    def _button(self, index: int, press: int) -> None:
        if not 0 <= index < len(self.button_names):
            self.last_error = (
                f"LED controller reported button {index}, it has {len(self.button_names)}"
            )
            return
        name = self.button_names[index]
        if press == protocol.HOLD:
            name = hold_name(name)
        self.presses += 1
        callback = self.on_button
        if callback is not None:
            try:
                callback(name)
            except Exception:
                log.exception("button callback failed for %s", name)


class SerialLights(Closing):
    """The strip on the LED controller, through a :class:`SerialLink` (one LED per location)."""

    def __init__(self, link: SerialLink, palette: Palette = DEFAULT_PALETTE) -> None:
        self.link = link
        self.palette = palette
        self._scene = DARK
        self.show(DARK)

    @property
    def scene(self) -> Scene:
        return self._scene

    @property
    def is_connected(self) -> bool:
        return self.link.is_connected

    def show(self, scene: Scene) -> None:
        self._scene = scene
        self.link.send_scene(self.palette.strip_pixels(scene))

    def link_status(self) -> dict[str, Any]:
        return self.link.status()

    def close(self) -> None:
        self.link.close()


class SerialButtons:
    """Buttons wired to the LED controller, reported over its :class:`SerialLink`."""

    def __init__(self, link: SerialLink, on_press: PressCallback | None = None) -> None:
        self.link = link
        self.on_press = on_press
        link.on_button = self._deliver

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.link.button_names)

    def _deliver(self, name: str) -> None:
        if self.on_press is not None:
            self.on_press(name)

    def close(self) -> None:
        self.link.on_button = None
