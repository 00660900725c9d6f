"""Shared helpers for the development renderer's tests."""

from __future__ import annotations

import importlib.util

import pytest

HAS_BPY = importlib.util.find_spec("bpy") is not None
needs_bpy = pytest.mark.skipif(
    not HAS_BPY, reason="bpy (Blender as a Python module, the 'synth' extra) is not installed"
)
