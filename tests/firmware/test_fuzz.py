"""Property tests of the frame decoder: any bytes are safe, and only CRC-checked frames come out."""

from __future__ import annotations

import binascii

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import protocol
from firmware.protocol import Decoder, Frame


def crc_ok(frame: Frame) -> bool:
    """Check a decoded frame against an independent CRC16-CCITT (binascii.crc_hqx)."""
    body = bytes((frame.seq, frame.kind)) + frame.payload
    wire_crc = protocol.cobs_decode(frame.encode()[1:-1])[-2:]
    return binascii.crc_hqx(body, 0xFFFF) == int.from_bytes(wire_crc, "big")


def chunks_with_good_crc(stream: bytes) -> list[bytes]:
    """Every zero-delimited chunk that is valid COBS with a matching CRC, by an independent check."""
    good = []
    for chunk in stream.split(b"\x00"):
        if not chunk or len(chunk) > Decoder()._limit:
            continue
        try:
            body = protocol.cobs_decode(chunk)
        except protocol.FrameError:
            continue
        if len(body) >= 4 and binascii.crc_hqx(body[:-2], 0xFFFF) == int.from_bytes(
            body[-2:], "big"
        ):
            good.append(body[:-2])
    return good


@settings(max_examples=300, derandomize=True)
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_arbitrary_bytes_never_crash_or_yield_a_bad_frame(pieces: list[bytes]) -> None:
    decoder = Decoder()
    frames = []
    for piece in pieces:
        frames.extend(decoder.feed(piece))
    assert all(crc_ok(frame) for frame in frames)
    stream = b"".join(pieces)
    # Exactly the delimited chunks that pass an independent check come out (a final chunk with
    # no closing zero is still pending).
    complete = stream[: stream.rfind(b"\x00") + 1] if b"\x00" in stream else b""
    expected = chunks_with_good_crc(complete)
    assert [bytes((f.seq, f.kind)) + f.payload for f in frames] == expected
    assert decoder.accepted == len(frames)


frames_strategy = st.builds(
    Frame,
    st.integers(0, 255),
    st.integers(0, 255),
    st.binary(max_size=120),
)


@settings(max_examples=200, derandomize=True)
@given(st.lists(st.tuples(st.binary(max_size=40), frames_strategy), max_size=6))
def test_frames_survive_garbage_between_them(items: list[tuple[bytes, Frame]]) -> None:
    stream = b"".join(garbage + frame.encode() for garbage, frame in items)
    assert Decoder().feed(stream) == [frame for _, frame in items]


@settings(max_examples=200, derandomize=True)
@given(st.data())
def test_a_damaged_stream_yields_only_sent_frames(data: st.DataObject) -> None:
    sent = data.draw(st.lists(frames_strategy, min_size=1, max_size=5))
    stream = bytearray(b"".join(frame.encode() for frame in sent))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(stream) - 1))
        stream[at] ^= data.draw(st.integers(1, 255))
    received = Decoder().feed(bytes(stream))
    assert all(crc_ok(frame) for frame in received)
    assert all(frame in sent for frame in received)


@settings(max_examples=200, derandomize=True)
@given(st.binary(max_size=600))
def test_cobs_round_trip(data: bytes) -> None:
    encoded = protocol.cobs_encode(data)
    assert 0 not in encoded
    assert protocol.cobs_decode(encoded) == data
