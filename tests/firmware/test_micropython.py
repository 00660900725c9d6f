"""The firmware under a real MicroPython interpreter (the WebAssembly port, run by Node).

Needs ``node`` and the npm package ``@micropython/micropython-webassembly-pyscript`` installed
under ``tests/firmware`` (``npm install --prefix tests/firmware``); skips, saying so, without them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.micropython

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware"
PACKAGE = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

SCRIPT = r"""
import sys
sys.path.insert(0, "/")
import json
from binascii import unhexlify
print(sys.implementation.name, sys.version)
assert sys.implementation.name == "micropython"

from firmware import protocol
from firmware.protocol import Decoder, Frame, encode_frame

golden = json.load(open("/golden.json"))
for vector in golden["crc16"]:
    assert protocol.crc16(unhexlify(vector["data"])) == int(vector["crc"], 16), vector
for vector in golden["cobs"]:
    assert protocol.cobs_encode(unhexlify(vector["data"])) == unhexlify(vector["encoded"]), vector
for vector in golden["frames"]:
    payload = unhexlify(vector["payload"])
    wire = encode_frame(vector["seq"], vector["kind"], payload)
    assert wire == unhexlify(vector["wire"]), vector["name"]
    assert Decoder().feed(b"junk" + wire) == [Frame(vector["seq"], vector["kind"], payload)]
print("golden vectors ok")

import machine, neopixel
from firmware import pico, config
from firmware.ledcontroller import Controller


class Link:
    def __init__(self, chunks):
        self.chunks = list(chunks)
        self.out = Decoder()
        self.frames = []

    def read(self):
        return self.chunks.pop(0) if self.chunks else b""

    def write(self, data):
        self.frames.extend(self.out.feed(data))


pixels = [(0, 160, 0, protocol.STEADY)] * 3 + [(255, 0, 0, protocol.FLASH)]
chunks = [
    encode_frame(0, protocol.HELLO, protocol.hello_payload()),
    b"\x00\x07garbage\x00",
    encode_frame(1, protocol.SCENE, protocol.scene_payload(pixels)),
    encode_frame(0, protocol.PING, protocol.ping_payload(99)),
]
link = Link(chunks)
loops = [0]


def stop():
    loops[0] += 1
    if loops[0] == 10:
        machine.Pin.levels[dict(config.BUTTONS)["done"]] = 0   # press "done"
    if loops[0] == 60:
        machine.Pin.levels[dict(config.BUTTONS)["done"]] = 1
    return loops[0] > 120


controller = pico.run(link=link, stop=stop, loop_ms=1)
kinds = [frame.kind for frame in link.frames]
print("frames", kinds)
assert kinds[0] == protocol.BOOT
assert protocol.WELCOME in kinds and protocol.ACK in kinds and protocol.PONG in kinds
welcome = [f for f in link.frames if f.kind == protocol.WELCOME][0]
assert protocol.parse_welcome(welcome.payload)[1] == config.LED_COUNT
strip = neopixel.NeoPixel.instances[-1]
assert strip.shown[0] == (0, 160, 0), strip.shown[:4]
assert strip.shown[4] == (0, 0, 0)
assert controller.decoder.rejected == 1
presses = [protocol.parse_button(f.payload) for f in link.frames if f.kind == protocol.BUTTON]
assert presses and presses[0][0] == 0 and presses[0][1] == protocol.PRESS, presses
print("firmware ok")
"""


def test_firmware_under_micropython(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs npm)")
    if not (PACKAGE / "micropython.mjs").exists():
        pytest.skip(
            "@micropython/micropython-webassembly-pyscript is not installed: "
            "npm install --prefix tests/firmware"
        )
    files = {f"/firmware/{path.name}": path.read_text() for path in FIRMWARE.glob("*.py")}
    files.pop("/firmware/main.py")  # it would start the firmware on import
    for fake in ("machine", "neopixel"):
        files[f"/{fake}.py"] = (HERE / "fakes" / f"{fake}.py").read_text()
    files["/golden.json"] = (HERE / "golden.json").read_text()
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"files": files, "script": SCRIPT}))
    result = subprocess.run(
        [node, str(HERE / "micropython_runner.mjs"), str(spec)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=HERE,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "micropython" in result.stdout
    assert "golden vectors ok" in result.stdout
    assert "firmware ok" in result.stdout
