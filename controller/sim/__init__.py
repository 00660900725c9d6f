"""The simulation: a match acted out as camera frames, for ``sheshbesh demo`` and the tests.

:mod:`~controller.sim.director` turns a ``.mat`` match into shots of a still table,
:mod:`~controller.sim.stage` draws them with the synthetic renderer (:mod:`vision.synth.render`),
:mod:`~controller.sim.demo` and :mod:`~controller.sim.sheshbesh_demo` drive the live table's own
parts with those frames; :mod:`~controller.sim.replay` shows a match file to the referee as a
perfectly read board would (``sheshbesh replay`` and the tests). The simulation builds on :mod:`controller.table`; the live table never
imports it (``tests/test_layering.py`` checks both directions), so ``sheshbesh run`` never loads
the renderer or the director.
"""
