"""The real firmware and the real host driver over a real pseudo-terminal.

Waits poll for a state with generous deadlines; nothing asserts on how long anything took.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from controller.lights import (
    DEFAULT_PALETTE,
    Light,
    Scene,
    illegal_scene,
    legal_scene,
)
from controller.lights.serial_link import SerialButtons, SerialLights, SerialLink
from firmware import protocol
from firmware.ledcontroller import effect_level, limit_current
from sheshbesh.locations import LED_INDEX

Eventually = Callable[..., Any]


def expected_strip(scene: Scene, now: int = 0) -> list[tuple[int, int, int]]:
    """What the firmware should put on the strip for a scene of steady lights."""
    pixels = []
    for red, green, blue, effect in DEFAULT_PALETTE.strip_pixels(scene):
        level = effect_level(effect, now)
        pixels.append((red * level // 255, green * level // 255, blue * level // 255))
    return limit_current(pixels, 400, 20)


def host(bench: Any, **options: Any) -> SerialLink:
    settings: dict[str, Any] = dict(
        retransmit_s=0.05,
        heartbeat_s=0.1,
        silence_s=0.5,
        handshake_s=0.2,
        reconnect_s=0.05,
        mismatch_retry_s=0.2,
    )
    settings.update(options)
    return SerialLink(str(bench.path), **settings)


#: Steady lights only, so the strip's picture does not depend on when it is looked at.
STEADY_SCENE = Scene({"p13": Light.SOURCE, "p10": Light.LEGAL, "p8": Light.LEGAL})


@pytest.fixture
def linked(bench: Any, eventually: Eventually) -> Any:
    bench.plug()
    bench.start_firmware()
    link = host(bench)
    lights = SerialLights(link)
    assert link.wait_for_connection(10), link.status()
    yield bench, link, lights
    lights.close()


def shows(bench: Any, scene: Scene) -> Callable[[], bool]:
    expected = expected_strip(scene)
    return lambda: bench.strip.shown == expected


def test_handshake_and_scene_reach_the_strip(linked: Any, eventually: Eventually) -> None:
    bench, link, lights = linked
    lights.show(STEADY_SCENE)
    assert link.wait_for_sync(10)
    eventually(shows(bench, STEADY_SCENE), what="the scene on the strip")
    status = lights.link_status()
    assert status["state"] == "connected"
    assert status["firmware"].startswith("sheshbesh-leds")
    assert status["led_count"] == 28
    assert status["buttons"] == ["done", "double", "take", "pass", "undo", "resign"]
    assert status["scene_synced"] is True
    assert status["controller_state"] in ("", "linked")
    p10 = bench.strip.shown[LED_INDEX["p10"]]
    assert p10[1] > 0 and p10[0] == 0  # green


def test_scene_changes_follow_in_order(linked: Any, eventually: Eventually) -> None:
    bench, link, lights = linked
    for point in range(1, 13):
        lights.show(legal_scene([], [f"p{point}"], mover=1))
        lights.show(illegal_scene([f"p{point + 12}"]))
    final = Scene({"p7": Light.LEGAL, "bar-black": Light.SOURCE})
    lights.show(final)
    assert link.wait_for_sync(10)
    eventually(shows(bench, final), what="the last scene")
    assert lights.scene == final


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(
            lambda data: bytes([data[0] ^ 0x40]) + data[1:] if data else data, id="flipped"
        ),
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data + data, id="doubled"),
        pytest.param(lambda data: b"\x13\x37garbage\xff" + data, id="garbage-before"),
        pytest.param(lambda data: data[:3] + b"\x00\x55\xaa" + data[3:], id="garbage-inside"),
    ],
)
@pytest.mark.parametrize("direction", ["to-controller", "to-host"])
def test_damaged_frames_are_retransmitted(
    linked: Any, eventually: Eventually, damage: Callable[[bytes], bytes], direction: str
) -> None:
    bench, link, lights = linked
    wire = bench.link
    left = [3]  # damage the next three chunks of bytes, then let the line heal

    def mangle(data: bytes) -> bytes:
        if left[0] > 0 and data:
            left[0] -= 1
            return damage(data)
        return data

    if direction == "to-controller":
        wire.mangle_in = mangle
    else:
        wire.mangle_out = mangle
    lights.show(STEADY_SCENE)
    assert link.wait_for_sync(10), link.status()
    eventually(shows(bench, STEADY_SCENE), what="the scene despite damage")
    assert left[0] < 3, "the damage was never applied"
    assert bench.controller.scenes_applied >= 1


def test_damage_is_counted(linked: Any, eventually: Eventually) -> None:
    bench, link, lights = linked
    flips = [2]

    def flip(data: bytes) -> bytes:
        if flips[0] and len(data) > 4:
            flips[0] -= 1
            return data[:4] + bytes([data[4] ^ 0xFF]) + data[5:]
        return data

    bench.link.mangle_out = flip
    lights.show(STEADY_SCENE)
    assert link.wait_for_sync(10)
    eventually(lambda: link.status()["frames_rejected"] >= 1, what="rejected frames counted")
    bench.link.mangle_in = lambda data: b"\x00\x09\x09\x09\x00" + data  # a bad frame inwards
    eventually(
        lambda: link.status()["controller_frames_rejected"] >= 1, what="the controller's count"
    )


def test_unplug_and_replug_restore_the_scene(linked: Any, eventually: Eventually) -> None:
    bench, link, lights = linked
    lights.show(STEADY_SCENE)
    assert link.wait_for_sync(10)
    bench.unplug()
    eventually(lambda: not link.is_connected, what="the host noticing the pulled cable")
    assert link.status()["last_error"]
    other = Scene({"p1": Light.SOURCE, "p2": Light.LEGAL})
    lights.show(other)  # the referee carries on while the cable is out
    assert not link.status()["scene_synced"]
    bench.plug()
    bench.start_firmware()  # a replugged Pico powers up afresh
    assert link.wait_for_connection(10), link.status()
    assert link.wait_for_sync(10)
    eventually(shows(bench, other), what="the current scene restored after replugging")
    assert link.status()["connects"] >= 2


def test_firmware_restart_on_the_same_port_restores_the_scene(
    linked: Any, eventually: Eventually
) -> None:
    bench, link, lights = linked
    lights.show(STEADY_SCENE)
    assert link.wait_for_sync(10)
    connects = link.status()["connects"]
    bench.stop_firmware()
    bench.start_firmware()  # sends BOOT: the host shakes hands again and resends the scene
    eventually(lambda: link.status()["connects"] > connects, what="a new handshake")
    assert link.wait_for_sync(10)
    eventually(shows(bench, STEADY_SCENE), what="the scene after the restart")


def test_restart_with_lost_boot_frame_is_noticed(linked: Any, eventually: Eventually) -> None:
    bench, link, lights = linked
    lights.show(STEADY_SCENE)
    assert link.wait_for_sync(10)
    connects = link.status()["connects"]
    bench.stop_firmware()
    drop_boot = [True]

    def lose_boot(data: bytes) -> bytes:
        if drop_boot[0] and data == protocol.encode_frame(0, protocol.BOOT):
            drop_boot[0] = False
            return b""
        return data

    bench.link.mangle_out = lose_boot
    bench.start_firmware()
    eventually(lambda: not drop_boot[0], what="the BOOT frame to be dropped")
    # The next PING finds the controller without a session; the host shakes hands again.
    eventually(lambda: link.status()["connects"] > connects, what="a new handshake")
    assert link.wait_for_sync(10)
    eventually(shows(bench, STEADY_SCENE), what="the scene after the silent restart")


def test_silence_shows_link_lost_and_recovers(bench: Any, eventually: Eventually) -> None:
    bench.plug()
    bench.start_firmware()
    link = host(bench)
    lights = SerialLights(link)
    try:
        lights.show(STEADY_SCENE)
        assert link.wait_for_sync(10)
        link.close()  # the Pi stops talking (its program died); the cable stays in
        eventually(
            lambda: (
                bench.controller.state == protocol.STATE_LOST
                and bench.strip.shown[LED_INDEX["p1"]][2] == 0
                and bench.strip.shown[LED_INDEX["p1"]][0] > 0
            ),
            what="the amber link-lost pattern",
        )
        link = host(bench)
        lights = SerialLights(link)
        lights.show(STEADY_SCENE)
        assert link.wait_for_sync(10)
        eventually(shows(bench, STEADY_SCENE), what="the scene back after the silence")
        assert bench.controller.state == protocol.STATE_LINKED
    finally:
        lights.close()


def test_version_mismatch_is_reported(bench: Any, eventually: Eventually, monkeypatch: Any) -> None:
    bench.plug()
    bench.start_firmware()
    monkeypatch.setattr(protocol, "hello_payload", lambda version=2: bytes((2,)))
    link = host(bench)
    try:
        eventually(lambda: link.status()["state"] == "version-mismatch", what="version mismatch")
        assert bench.controller.state == protocol.STATE_MISMATCH
        assert "protocol 1" in link.status()["last_error"]
        assert not link.is_connected
        eventually(
            lambda: bench.strip.shown[0][0] > 0 and bench.strip.shown[0][2] > 0,
            what="the magenta mismatch pattern",
        )
    finally:
        link.close()


def test_buttons_on_the_controller_reach_the_host(linked: Any, eventually: Eventually) -> None:
    bench, link, _lights = linked
    presses: list[str] = []
    buttons = SerialButtons(link, presses.append)
    assert buttons.names == ("done", "double", "take", "pass", "undo", "resign")
    bench.press("take")
    time.sleep(0.08)  # longer than the 20 ms debounce, shorter than the hold time
    bench.release("take")
    eventually(lambda: presses == ["take"], what="the take press")
    bench.press("undo")
    eventually(lambda: presses == ["take", "undo-hold"], timeout=10, what="the undo hold")
    bench.release("undo")
    buttons.close()


def test_a_lost_ack_does_not_double_a_press(linked: Any, eventually: Eventually) -> None:
    bench, link, _lights = linked
    presses: list[str] = []
    SerialButtons(link, presses.append)
    lost = [True]

    def lose_first_ack(data: bytes) -> bytes:
        frames = protocol.Decoder().feed(data)
        if lost[0] and any(frame.kind == protocol.ACK for frame in frames):
            lost[0] = False
            return b""
        return data

    bench.link.mangle_in = lose_first_ack
    bench.press("done")
    time.sleep(0.08)
    bench.release("done")
    eventually(lambda: not lost[0], what="an ACK to be lost")
    eventually(lambda: link.status()["button_presses"] >= 1, what="the press")
    time.sleep(0.3)  # several retransmit periods: a repeat would show up as a second press
    assert presses == ["done"]


def test_candidate_ports_are_tried_in_order(bench: Any, tmp_path: Any) -> None:
    bench.plug()
    bench.start_firmware()
    link = SerialLink(
        [str(tmp_path / "not-plugged"), str(tmp_path / "tty*")], reconnect_s=0.05, handshake_s=0.2
    )
    try:
        assert link.wait_for_connection(10), link.status()
        assert link.status()["device"] == str(bench.path)
        assert "not-plugged" in link.status()["port"]
    finally:
        link.close()


def test_bring_up_check_over_the_pty(bench: Any, capsys: Any) -> None:
    from controller.lights.check import main

    bench.plug()
    bench.start_firmware()
    assert main(["--kind", "serial", "--port", str(bench.path), "--step", "0", "--wait", "10"]) == 0
    out = capsys.readouterr().out
    assert '"state": "connected"' in out
    assert "buttons: done, double, take, pass, undo, resign" in out
