"""The synthetic renderers: boards and dice drawn from a seed, for the demo, the tests and tuning.

* :mod:`vision.synth.render` — the synthetic camera: a board drawn from a :class:`DrawnScene` (a
  position, dice, cube, a hand) in a random :class:`Style`, with a camera's flaws; ``sheshbesh
  demo`` acts a match out with it and the tests draw their frames with it.
* :mod:`vision.synth.dice_devset` — the dice reader's development families, made reproducibly.
* :mod:`vision.synth.photoreal` — the photoreal renders' labelled dice on the rectified field, as
  the board reader crops them (for training the die-face model and measuring it).

They are simulation, kept apart from the readers so that the live table never loads them (checked
by ``tests/test_layering.py``): no module of :mod:`vision` outside this package imports them when
it loads. The doubling cube's face, which both the renderer draws and the marker reader matches
against, lives outside in :mod:`vision.cube_face` for that reason. This package imports nothing
itself.
"""
