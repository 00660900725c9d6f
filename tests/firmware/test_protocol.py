"""The frame format: golden bytes, round trips, payload checks, the decoder on damaged streams."""

from __future__ import annotations

import binascii
import json
from pathlib import Path
from typing import Any

import pytest

from firmware import protocol
from firmware.protocol import Decoder, Frame, FrameError

GOLDEN: dict[str, Any] = json.loads((Path(__file__).parent / "golden.json").read_text())


@pytest.mark.parametrize("vector", GOLDEN["crc16"], ids=lambda v: v["data"] or "empty")
def test_crc16_golden(vector: dict[str, str]) -> None:
    data = bytes.fromhex(vector["data"])
    assert protocol.crc16(data) == int(vector["crc"], 16)
    # An independent implementation of the same CRC (CCITT, initial 0xFFFF) agrees.
    assert binascii.crc_hqx(data, 0xFFFF) == int(vector["crc"], 16)


@pytest.mark.parametrize("vector", GOLDEN["cobs"], ids=lambda v: v["data"] or "empty")
def test_cobs_golden(vector: dict[str, str]) -> None:
    data, encoded = bytes.fromhex(vector["data"]), bytes.fromhex(vector["encoded"])
    assert protocol.cobs_encode(data) == encoded
    assert protocol.cobs_decode(encoded) == data


@pytest.mark.parametrize("vector", GOLDEN["frames"], ids=lambda v: v["name"])
def test_frame_golden(vector: dict[str, Any]) -> None:
    payload = bytes.fromhex(vector["payload"])
    wire = bytes.fromhex(vector["wire"])
    assert protocol.encode_frame(vector["seq"], vector["kind"], payload) == wire
    assert Decoder().feed(wire) == [Frame(vector["seq"], vector["kind"], payload)]


def test_hello_frame_by_hand() -> None:
    # seq 0, kind HELLO, version 1, CRC16 of 00 01 01 = 0xef8c; COBS: 01 | 05 01 01 ef 8c.
    assert protocol.encode_frame(0, protocol.HELLO, b"\x01") == bytes.fromhex("0001050101ef8c00")


def test_cobs_long_runs_round_trip() -> None:
    for size in (253, 254, 255, 508, 509):
        data = bytes(range(1, 256)) * 3
        data = data[:size]
        assert 0 not in protocol.cobs_encode(data)
        assert protocol.cobs_decode(protocol.cobs_encode(data)) == data
        assert protocol.cobs_decode(protocol.cobs_encode(data + b"\x00")) == data + b"\x00"


@pytest.mark.parametrize(
    ("stuffed", "message"),
    [
        (b"\x05\x01", "runs past"),
        (b"\x01\x00\x01", "zero byte"),
        (b"\x03\x01\x02", "shorter than header"),
        (protocol.encode_frame(1, 2, b"abc")[1:-2] + b"\x01", "CRC mismatch"),
    ],
)
def test_decode_frame_names_the_failed_check(stuffed: bytes, message: str) -> None:
    with pytest.raises(FrameError, match=message):
        protocol.decode_frame(stuffed)


def test_encode_frame_rejects_bad_fields() -> None:
    with pytest.raises(FrameError, match="sequence number 256"):
        protocol.encode_frame(256, 1)
    with pytest.raises(FrameError, match="frame kind -1"):
        protocol.encode_frame(0, -1)
    with pytest.raises(FrameError, match="exceeds"):
        protocol.encode_frame(0, 1, bytes(protocol.MAX_PAYLOAD + 1))


def test_decoder_survives_damage_and_counts_it() -> None:
    good = [Frame(n, protocol.SCENE, bytes([n, 1, 2, 0])) for n in range(1, 6)]
    wire = [frame.encode() for frame in good]
    stream = (
        b"noise\xff\xfe"  # garbage before anything
        + wire[0]
        + wire[1][: len(wire[1]) // 2]  # truncated: merged with nothing, rejected
        + wire[2]
        + wire[3]
        + wire[3]  # doubled
        + bytes([wire[4][0]])
        + bytes([wire[4][1] ^ 0x10])
        + wire[4][2:]  # flipped byte
    )
    decoder = Decoder()
    frames = decoder.feed(stream)
    assert frames == [good[0], good[2], good[3], good[3]]
    assert decoder.rejected == 3
    assert decoder.accepted == 4


def test_decoder_takes_bytes_one_at_a_time() -> None:
    frame = Frame(9, protocol.PING, b"\x00\x00\x00\x01")
    decoder = Decoder()
    found = []
    for byte in frame.encode() * 2:
        found.extend(decoder.feed(bytes([byte])))
    assert found == [frame, frame]


def test_decoder_drops_overlong_frames_and_recovers() -> None:
    decoder = Decoder(max_frame=16)
    long_frame = protocol.encode_frame(1, protocol.SCENE, bytes(40))
    short = Frame(2, protocol.ACK, b"\x01")
    assert decoder.feed(long_frame + short.encode()) == [short]
    assert decoder.rejected == 1
    assert "longer than" in decoder.last_error


def test_payloads_round_trip() -> None:
    assert protocol.parse_hello(protocol.hello_payload()) == protocol.PROTOCOL_VERSION
    welcome = protocol.welcome_payload(1, 28, "fw 1.0", ["done", "take"])
    assert protocol.parse_welcome(welcome) == (1, 28, "fw 1.0", ["done", "take"])
    pixels = [(1, 2, 3, protocol.BLINK), (255, 0, 0, protocol.STEADY)]
    assert protocol.parse_scene(protocol.scene_payload(pixels)) == pixels
    assert protocol.parse_ack(protocol.ack_payload(200)) == 200
    assert protocol.parse_ping(protocol.ping_payload(0xDEADBEEF)) == 0xDEADBEEF
    pong = protocol.pong_payload(7, 123456, 70000, protocol.STATE_LOST)
    assert protocol.parse_pong(pong) == (7, 123456, 0xFFFF, protocol.STATE_LOST)
    assert protocol.parse_button(protocol.button_payload(3, protocol.HOLD, 1600)) == (
        3,
        protocol.HOLD,
        1600,
    )
    assert protocol.parse_error(protocol.error_payload(2, "no session")) == (2, "no session")


@pytest.mark.parametrize(
    ("parse", "payload", "message"),
    [
        (protocol.parse_hello, b"", "HELLO payload must be 1 byte"),
        (protocol.parse_welcome, b"\x01\x00", "shorter than 4"),
        (protocol.parse_welcome, b"\x01\x00\x1c\x09ab", "runs past"),
        (protocol.parse_scene, b"\x01\x02\x03", "not a multiple of 4"),
        (protocol.parse_scene, b"\x01\x02\x03\x09", "unknown effect 9"),
        (protocol.parse_ack, b"\x01\x02", "ACK payload"),
        (protocol.parse_ping, b"\x01", "PING payload"),
        (protocol.parse_pong, b"\x01", "PONG payload"),
        (protocol.parse_button, b"\x01\x01", "BUTTON payload"),
        (protocol.parse_button, b"\x01\x07\x00\x00", "neither PRESS nor HOLD"),
        (protocol.parse_error, b"", "ERROR payload is empty"),
    ],
)
def test_bad_payloads_are_named(parse: Any, payload: bytes, message: str) -> None:
    with pytest.raises(FrameError, match=message):
        parse(payload)


def test_scene_payload_rejects_unknown_effect() -> None:
    with pytest.raises(FrameError, match="unknown LED effect 7"):
        protocol.scene_payload([(0, 0, 0, 7)])


def test_ticks_wrap_like_micropython() -> None:
    top = protocol.TICKS_PERIOD - 1
    assert protocol.ticks_diff(3, top) == 4
    assert protocol.ticks_diff(top, 3) == -4
    assert protocol.ticks_add(top, 5) == 4
    assert protocol.ticks_diff(protocol.ticks_add(1000, 250), 1000) == 250


def test_sequence_numbers_skip_zero() -> None:
    assert protocol.next_seq(0) == 1
    assert protocol.next_seq(254) == 255
    assert protocol.next_seq(255) == 1
