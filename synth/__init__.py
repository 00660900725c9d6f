"""Photoreal development set: backgammon boards rendered in 3D with Blender, with exact labels.

A development tool only, never part of the installed product. The pieces:

* :mod:`synth.scene` — pure Python: a seed and a style family -> a complete scene description
  (board make, checkers and their 3D places, dice, cube, hands, clutter, lights, camera, post effects).
  Everything random is chosen here, so the labels never depend on Blender.
* :mod:`synth.projection` — the pinhole camera and lens distortion shared by labels and post effects.
* :mod:`synth.labels` — the label of a scene (one JSON per image) and its consistency check.
* :mod:`synth.post` — the camera's own faults applied to the rendered linear image (numpy/OpenCV).
* :mod:`synth.blender` — builds the scene in ``bpy`` and renders it with Cycles on the CPU.
* :mod:`synth.sheets` — contact sheets and labels drawn back onto images for people to check.
* ``python -m synth render|contact-sheet|check-labels`` — the command line (:mod:`synth.cli`).
"""

from __future__ import annotations


class SynthError(Exception):
    """Root of the development renderer's errors."""


class SynthInputError(SynthError, ValueError):
    """A family, a folder or a label file the renderer was given is not usable."""
