"""The firmware's logic with a fake strip and a made-up clock: sessions, pictures, buttons."""

from __future__ import annotations

import pytest

from firmware import protocol
from firmware.buttons import Debouncer
from firmware.ledcontroller import Controller, effect_level, limit_current
from firmware.protocol import Decoder, Frame


class Strip:
    def __init__(self, n: int) -> None:
        self.n = n
        self.buffer = [(0, 0, 0)] * n
        self.shown: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self.buffer[index] = colour

    def write(self) -> None:
        self.shown = list(self.buffer)
        self.writes += 1


class Wire:
    """Collects what the controller sends, decoded."""

    def __init__(self) -> None:
        self.decoder = Decoder()
        self.frames: list[Frame] = []

    def write(self, data: bytes) -> None:
        self.frames.extend(self.decoder.feed(data))

    def take(self) -> list[Frame]:
        frames, self.frames = self.frames, []
        return frames


def make(n: int = 4, **options: int) -> tuple[Controller, Strip, Wire]:
    strip, wire = Strip(n), Wire()
    controller = Controller(strip, wire.write, ["done", "take"], now=0, **options)  # type: ignore[arg-type]
    return controller, strip, wire


def send(controller: Controller, seq: int, kind: int, payload: bytes, now: int) -> None:
    controller.receive(protocol.encode_frame(seq, kind, payload), now)


def hello(controller: Controller, now: int = 0) -> None:
    send(controller, 0, protocol.HELLO, protocol.hello_payload(), now)


def scene(pixels: list[tuple[int, int, int, int]]) -> bytes:
    return protocol.scene_payload(pixels)


RED = [(200, 0, 0, protocol.STEADY)] * 4


def test_boot_frame_then_waiting_pattern() -> None:
    controller, strip, wire = make()
    assert wire.take() == [Frame(0, protocol.BOOT)]
    assert controller.state == protocol.STATE_WAITING
    assert sum(1 for pixel in strip.shown if pixel != (0, 0, 0)) == 1  # the walking dot
    controller.tick(150)
    assert strip.shown[1] != (0, 0, 0) and strip.shown[0] == (0, 0, 0)


def test_handshake_answers_welcome() -> None:
    controller, _strip, wire = make()
    wire.take()
    hello(controller)
    [frame] = wire.take()
    assert frame.kind == protocol.WELCOME
    version, leds, firmware, buttons = protocol.parse_welcome(frame.payload)
    assert (version, leds, buttons) == (protocol.PROTOCOL_VERSION, 4, ["done", "take"])
    assert firmware.startswith("sheshbesh-leds")
    assert controller.state == protocol.STATE_LINKED


def test_scene_is_applied_once_and_acknowledged_every_time() -> None:
    controller, strip, wire = make()
    hello(controller)
    wire.take()
    send(controller, 5, protocol.SCENE, scene(RED), 10)
    send(controller, 5, protocol.SCENE, scene(RED), 20)  # a retransmission
    assert [f for f in wire.take() if f.kind == protocol.ACK] == [
        Frame(0, protocol.ACK, b"\x05"),
        Frame(0, protocol.ACK, b"\x05"),
    ]
    assert controller.scenes_applied == 1
    assert strip.shown == [(200, 0, 0)] * 4


def test_short_scene_pads_and_long_scene_is_cut() -> None:
    controller, strip, _wire = make()
    hello(controller)
    send(controller, 1, protocol.SCENE, scene([(9, 9, 9, 0)]), 1)
    assert strip.shown == [(9, 9, 9)] + [(0, 0, 0)] * 3
    send(controller, 2, protocol.SCENE, scene([(1, 1, 1, 0)] * 9), 2)
    assert strip.shown == [(1, 1, 1)] * 4


def test_scene_without_session_is_refused() -> None:
    controller, _strip, wire = make()
    wire.take()
    send(controller, 1, protocol.SCENE, scene(RED), 1)
    [frame] = wire.take()
    assert frame.kind == protocol.ERROR
    assert protocol.parse_error(frame.payload)[0] == protocol.ERROR_NO_SESSION
    assert controller.scenes_applied == 0


def test_bad_payload_and_unknown_kind_get_errors() -> None:
    controller, _strip, wire = make()
    hello(controller)
    wire.take()
    send(controller, 1, protocol.SCENE, b"\x01\x02\x03", 1)
    send(controller, 0, 0x55, b"", 2)
    codes = [protocol.parse_error(f.payload)[0] for f in wire.take()]
    assert codes == [protocol.ERROR_BAD_PAYLOAD, protocol.ERROR_UNKNOWN_KIND]


def test_version_mismatch_flashes_magenta() -> None:
    controller, strip, wire = make()
    wire.take()
    send(controller, 0, protocol.HELLO, b"\x02", 0)
    [frame] = wire.take()
    code, text = protocol.parse_error(frame.payload)
    assert code == protocol.ERROR_VERSION and "asked for 2" in text
    assert controller.state == protocol.STATE_MISMATCH
    assert strip.shown[0][0] > 0 and strip.shown[0][2] > 0 and strip.shown[0][1] == 0
    send(controller, 1, protocol.SCENE, scene(RED), 5)
    assert controller.scenes_applied == 0


def test_silence_shows_link_lost_and_a_frame_restores_the_scene() -> None:
    controller, strip, wire = make(silence_ms=1000)
    hello(controller)
    send(controller, 1, protocol.SCENE, scene(RED), 0)
    controller.tick(900)
    assert controller.state == protocol.STATE_LINKED
    controller.tick(1001)
    assert controller.state == protocol.STATE_LOST
    assert strip.shown[0][0] > 0 and strip.shown[0][1] > 0 and strip.shown[0][2] == 0  # amber
    wire.take()
    send(controller, 0, protocol.PING, protocol.ping_payload(42), 1500)
    [pong] = wire.take()
    token, uptime, rejected, state = protocol.parse_pong(pong.payload)
    assert (token, uptime, rejected, state) == (42, 1500, 0, protocol.STATE_LINKED)
    assert strip.shown == [(200, 0, 0)] * 4


def test_rejected_frames_are_reported_in_pong() -> None:
    controller, _strip, wire = make()
    hello(controller)
    controller.receive(b"\x00\x05\x01\x02\x03\x04\x05\x00", 1)
    wire.take()
    send(controller, 0, protocol.PING, protocol.ping_payload(1), 2)
    [pong] = wire.take()
    assert protocol.parse_pong(pong.payload)[2] == 1


def test_button_events_are_retransmitted_until_acknowledged() -> None:
    controller, _strip, wire = make(retransmit_ms=100)
    hello(controller)
    wire.take()
    controller.button(1, protocol.PRESS, 80, 0)
    controller.button(0, protocol.HOLD, 1500, 1)
    [first] = wire.take()
    assert first.kind == protocol.BUTTON
    assert protocol.parse_button(first.payload) == (1, protocol.PRESS, 80)
    controller.tick(50)
    assert wire.take() == []
    controller.tick(101)
    assert wire.take() == [first]  # same sequence number: the host can tell a repeat
    send(controller, 0, protocol.ACK, bytes((first.seq,)), 110)
    [second] = wire.take()
    assert protocol.parse_button(second.payload) == (0, protocol.HOLD, 1500)
    assert second.seq == protocol.next_seq(first.seq)
    send(controller, 0, protocol.ACK, bytes((second.seq,)), 120)
    controller.tick(400)
    assert wire.take() == []


def test_presses_without_a_session_are_dropped() -> None:
    controller, _strip, wire = make()
    wire.take()
    controller.button(0, protocol.PRESS, 50, 0)
    assert wire.take() == []
    assert controller.dropped_presses == 1


def test_animated_leds_follow_the_clock() -> None:
    controller, strip, _wire = make(n=1)
    hello(controller)
    send(controller, 1, protocol.SCENE, scene([(100, 0, 0, protocol.BLINK)]), 0)
    assert strip.shown == [(100, 0, 0)]
    controller.tick(600)
    assert strip.shown == [(0, 0, 0)]
    controller.tick(1100)
    assert strip.shown == [(100, 0, 0)]


def test_current_limit_dims_the_whole_strip() -> None:
    controller, strip, _wire = make(current_limit_ma=60, channel_ma=20)
    hello(controller)
    send(controller, 1, protocol.SCENE, scene([(255, 255, 255, 0)] * 4), 0)
    total = sum(sum(pixel) for pixel in strip.shown)
    assert 0 < total <= 60 * 255 // 20


def test_effect_levels_and_limit() -> None:
    assert effect_level(protocol.STEADY, 12345) == 255
    assert {effect_level(protocol.FLASH, t) for t in (0, 130)} == {0, 255}
    assert 40 <= effect_level(protocol.PULSE, 0) < effect_level(protocol.PULSE, 1000) == 255
    assert limit_current([(10, 10, 10)], 0, 20) == [(10, 10, 10)]


# -- debouncing --------------------------------------------------------------------------------


def feed(button: Debouncer, samples: list[tuple[int, bool]]) -> list[tuple[int, int]]:
    events = []
    for now, level in samples:
        event = button.sample(level, now)
        if event is not None:
            events.append(event)
    return events


def test_a_clean_press_is_reported_at_release() -> None:
    button = Debouncer(debounce_ms=20, hold_ms=1500)
    samples = [(t, 40 <= t < 200) for t in range(0, 300, 5)]
    assert feed(button, samples) == [(protocol.PRESS, 160)]


def test_bounces_shorter_than_the_debounce_time_are_ignored() -> None:
    button = Debouncer(debounce_ms=20, hold_ms=1500)
    bouncy = [(0, True), (3, False), (6, True), (9, False), (12, False), (40, False)]
    assert feed(button, bouncy) == []
    assert not button.is_pressed
    # A press with contact bounce on the way down and up still counts once.
    press = [(100, True), (102, False), (104, True)] + [(t, True) for t in range(110, 200, 5)]
    release = [(200, False), (202, True), (204, False)] + [(t, False) for t in range(210, 260, 5)]
    assert feed(button, press + release) == [(protocol.PRESS, 100)]


def test_a_long_hold_is_reported_once_while_held() -> None:
    button = Debouncer(debounce_ms=20, hold_ms=1500)
    held = [(t, True) for t in range(0, 2000, 10)]
    events = feed(button, held)
    assert events == [(protocol.HOLD, 1500)]
    assert button.is_held
    assert feed(button, [(t, False) for t in range(2000, 2100, 10)]) == []


def test_debounce_across_the_tick_wrap() -> None:
    start = protocol.TICKS_PERIOD - 50
    button = Debouncer(debounce_ms=20, hold_ms=1500, now=start)
    times = [protocol.ticks_add(start, d) for d in range(0, 200, 5)]
    samples = [(t, 10 <= d < 120) for t, d in zip(times, range(0, 200, 5), strict=True)]
    assert feed(button, samples) == [(protocol.PRESS, 110)]


def test_debouncer_rejects_nonsense_timing() -> None:
    with pytest.raises(ValueError, match="debounce_ms"):
        Debouncer(debounce_ms=50, hold_ms=20)
