"""The real firmware on one end of a pseudo-terminal, the real host driver on the other.

The firmware side imports ``firmware.pico`` with the fake ``machine`` and ``neopixel`` modules of
``tests/firmware/fakes`` and runs :func:`firmware.pico.run` in a thread, reading and writing the
pty's master end. The host opens the slave end by a stable symlink (as udev's
``/dev/serial/by-id/...`` links are), so unplugging is closing the master and replugging is a new
pty behind the same link. :class:`WireLink` can mangle bytes on their way in or out, like noise on
the cable.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import os
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

FAKES = Path(__file__).parent / "fakes"
Mangler = Callable[[bytes], bytes]


def _load_fake(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, FAKES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def fake_hardware() -> Iterator[tuple[ModuleType, ModuleType, ModuleType]]:
    """(machine, neopixel, firmware.pico) with the fakes installed as MicroPython's modules."""
    saved = {name: sys.modules.get(name) for name in ("machine", "neopixel", "firmware.pico")}
    machine, neopixel = _load_fake("machine"), _load_fake("neopixel")
    sys.modules["machine"], sys.modules["neopixel"] = machine, neopixel
    sys.modules.pop("firmware.pico", None)
    import firmware.pico as pico

    yield machine, neopixel, pico
    for name, module in saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


class WireLink:
    """The firmware's end of the pty: non-blocking reads, writes dropped while nobody listens."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.mangle_in: Mangler | None = None  # applied to bytes the firmware reads
        self.mangle_out: Mangler | None = None  # applied to bytes the firmware writes
        self.received = bytearray()
        self.sent = bytearray()

    def read(self) -> bytes:
        try:
            data = os.read(self.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as error:  # EIO: no host has the slave open (the cable is out)
            if error.errno in (errno.EIO, errno.EBADF):
                return b""
            raise
        if self.mangle_in is not None:
            data = self.mangle_in(data)
        self.received.extend(data)
        return data

    def write(self, data: bytes) -> None:
        if self.mangle_out is not None:
            data = self.mangle_out(data)
        self.sent.extend(data)
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.master, view)
            except (BlockingIOError, OSError):
                return  # like USB CDC with no host reading: the bytes are lost
            view = view[written:]


class Bench:
    """A pty, the firmware thread on its master end, and a symlink the host opens."""

    def __init__(self, fake_hardware: tuple[ModuleType, ModuleType, ModuleType], tmp: Path) -> None:
        self.machine, self.neopixel, self.pico = fake_hardware
        self.path = tmp / "ttyLEDS"
        self.master: int | None = None
        self.link: WireLink | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.controller: Any = None
        self.silence_ms = 600
        self.machine.Pin.levels.clear()

    # -- the cable ------------------------------------------------------------------------------

    def plug(self) -> WireLink:
        """A new pty behind the symlink, as when the controller's USB cable goes in."""
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        os.set_blocking(master, False)
        slave_name = os.ttyname(slave)
        os.close(slave)  # the host opens it by name
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self.path.symlink_to(slave_name)
        self.master = master
        self.link = WireLink(master)
        return self.link

    def unplug(self) -> None:
        """Stop the firmware and close the pty's master: the host's port fails."""
        self.stop_firmware()
        if self.master is not None:
            os.close(self.master)
            self.master = None

    # -- the firmware ---------------------------------------------------------------------------

    def start_firmware(self) -> None:
        """Power up the controller (run firmware.pico.run in a thread) on the current pty."""
        assert self.link is not None, "plug() first"
        self._stop = threading.Event()
        started = threading.Event()
        link = self.link

        def running(controller: Any) -> None:
            self.controller = controller
            started.set()

        def target() -> None:
            self.pico.run(
                link=link,
                stop=self._stop.is_set,
                silence_ms=self.silence_ms,
                retransmit_ms=50,
                started=running,
            )

        self._thread = threading.Thread(target=target, name="firmware", daemon=True)
        self._thread.start()
        assert started.wait(5), "the firmware did not start"

    def stop_firmware(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            assert not self._thread.is_alive(), "firmware thread did not stop"
            self._thread = None

    @property
    def strip(self) -> Any:
        return self.neopixel.NeoPixel.instances[-1]

    def press(self, name: str) -> None:
        from firmware import config

        self.machine.Pin.levels[dict(config.BUTTONS)[name]] = 0

    def release(self, name: str) -> None:
        from firmware import config

        self.machine.Pin.levels[dict(config.BUTTONS)[name]] = 1

    def close(self) -> None:
        self.unplug()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


@pytest.fixture
def bench(
    fake_hardware: tuple[ModuleType, ModuleType, ModuleType], tmp_path: Path
) -> Iterator[Bench]:
    test_bench = Bench(fake_hardware, tmp_path)
    yield test_bench
    test_bench.close()


def eventually(condition: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    """Poll ``condition`` until it is truthy; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.005)


@pytest.fixture(name="eventually")
def eventually_fixture() -> Callable[..., Any]:
    return eventually
