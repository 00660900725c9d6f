"""gpiozero's mock pins for the lights tests (PWM-capable, so PWMLED works)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("GPIOZERO_MOCK_REVISION", "c03111")  # a Raspberry Pi 4


@pytest.fixture
def mock_factory() -> Iterator[object]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = saved
