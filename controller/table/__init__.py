"""The live table: frames in, a refereed, lit, recorded and published match out.

:mod:`~controller.table.table` (the :class:`~controller.table.table.Table` that takes each frame),
:mod:`~controller.table.reader` (vision with settle detection), :mod:`~controller.table.controls`
(the panel's admin actions). ``sheshbesh run`` is made of these alone: nothing here imports the
simulation (:mod:`controller.sim`), which ``tests/test_layering.py`` checks.
"""
