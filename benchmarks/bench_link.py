"""How fast the LED link is over a pseudo-terminal: frames per second and scene-to-strip latency.

The real firmware (``firmware.pico.run`` with the fake ``machine``/``neopixel`` of
``tests/firmware/fakes``) runs in a thread on the master end of a pty; the real host driver
(``SerialLights`` over ``SerialLink``) opens the slave end. Three figures:

1. reliable scenes per second: ``show(scene)`` then wait for the controller's ACK, in a loop
   (each scene is one SCENE frame and one ACK frame);
2. latency from ``show(scene)`` to the fake strip's ``write()`` of that picture;
3. raw frames per second: PING frames written back to back by a plain pyserial port, counting the
   PONGs (one decoded, checked and answered frame each way).

Run: ``.venv/bin/python benchmarks/bench_link.py [--scenes 500] [--pings 2000]``. On a Pico the
firmware runs far slower than under CPython; these figures measure the protocol and host driver.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=500, help="scenes to send (default 500)")
    parser.add_argument("--pings", type=int, default=2000, help="raw PING frames (default 2000)")
    args = parser.parse_args(argv)

    fakes = ROOT / "tests" / "firmware" / "fakes"
    _load("machine", fakes / "machine.py")
    neopixel = _load("neopixel", fakes / "neopixel.py")
    import serial

    import firmware.pico as pico
    from controller.lights import DEFAULT_PALETTE, Light, Scene
    from controller.lights.serial_link import SerialLights, SerialLink
    from firmware import protocol
    from sheshbesh.locations import LOCATIONS

    bench_module = _load("firmware_bench", ROOT / "tests" / "firmware" / "conftest.py")
    with tempfile.TemporaryDirectory() as tmp:
        bench = bench_module.Bench((sys.modules["machine"], neopixel, pico), Path(tmp))
        bench.plug()
        bench.start_firmware()
        link = SerialLink(str(bench.path), retransmit_s=0.05, heartbeat_s=0.5)
        lights = SerialLights(link)
        if not link.wait_for_connection(10):
            print("no connection:", link.status())
            return 1
        strip = neopixel.NeoPixel.instances[-1]

        # Scenes of steady lights, each a different picture (the bits of its number), so that the
        # strip's picture tells which scene it is.
        scenes = [
            Scene({name: Light.LEGAL for bit, name in enumerate(LOCATIONS) if (i + 1) >> bit & 1})
            for i in range(args.scenes)
        ]
        wanted = {
            tuple(pixel[:3] for pixel in DEFAULT_PALETTE.strip_pixels(scene)): index
            for index, scene in enumerate(scenes)
        }
        shown_at: dict[int, float] = {}
        seen = threading.Event()

        def on_write(pixels: list[tuple[int, int, int]]) -> None:
            index = wanted.get(tuple(pixels))
            if index is not None and index not in shown_at:
                shown_at[index] = time.perf_counter()
                seen.set()

        strip.listeners.append(on_write)
        latencies = []
        started = time.perf_counter()
        for index, scene in enumerate(scenes):
            seen.clear()
            sent = time.perf_counter()
            lights.show(scene)
            if not link.wait_for_sync(5):
                print("scene not acknowledged:", link.status())
                return 1
            if index in shown_at or seen.wait(5):
                latencies.append(shown_at[index] - sent)
        elapsed = time.perf_counter() - started
        status = link.status()
        lights.close()

        # Raw frames: PINGs back to back from a plain port, PONGs counted.
        port = serial.serial_for_url(str(bench.path), timeout=0.1)
        decoder = protocol.Decoder()
        pings = b"".join(
            protocol.encode_frame(0, protocol.PING, protocol.ping_payload(n))
            for n in range(args.pings)
        )
        received = 0
        raw_started = time.perf_counter()
        writer = threading.Thread(target=port.write, args=(pings,))
        writer.start()
        deadline = raw_started + 30
        while received < args.pings and time.perf_counter() < deadline:
            received += sum(frame.kind == protocol.PONG for frame in decoder.feed(port.read(4096)))
        raw_elapsed = time.perf_counter() - raw_started
        writer.join()
        port.close()
        bench.close()

    latencies_ms = sorted(value * 1000 for value in latencies)
    frame_bytes = len(
        protocol.encode_frame(
            1, protocol.SCENE, protocol.scene_payload(DEFAULT_PALETTE.strip_pixels(scenes[0]))
        )
    )
    print(
        f"reliable scenes: {len(scenes)} in {elapsed:.2f} s = {len(scenes) / elapsed:.0f} scenes/s "
        f"({2 * len(scenes) / elapsed:.0f} frames/s counting ACKs); SCENE frame = {frame_bytes} bytes"
    )
    print(f"retransmits: {status['retransmits']}, frames rejected: {status['frames_rejected']}")
    if latencies_ms:
        p95 = latencies_ms[int(0.95 * (len(latencies_ms) - 1))]
        print(
            f"show() -> strip write: median {statistics.median(latencies_ms):.2f} ms, "
            f"p95 {p95:.2f} ms, max {latencies_ms[-1]:.2f} ms ({len(latencies_ms)} scenes)"
        )
    print(
        f"raw PING/PONG: {received} of {args.pings} answered in {raw_elapsed:.2f} s = "
        f"{received / raw_elapsed:.0f} round trips/s ({2 * received / raw_elapsed:.0f} frames/s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
