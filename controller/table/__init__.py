"""The live table: frames in, a refereed, lit, recorded and published match out.

:mod:`~controller.table.assembly` (:class:`~controller.table.assembly.LiveTable`, the one place that
opens a table's parts and closes them), :mod:`~controller.table.table` (the
:class:`~controller.table.table.Table` that takes each frame), :mod:`~controller.table.runner` (the
referee's effects carried out, the record first), :mod:`~controller.table.reader` (vision with settle
detection), :mod:`~controller.table.panel` and :mod:`~controller.table.controls` (the panel and its
admin actions), :mod:`~controller.table.health`, :mod:`~controller.table.capture` and
:mod:`~controller.table.config`. ``sheshbesh run`` is made of these alone: nothing here imports the
simulation (:mod:`controller.sim`), which ``tests/test_layering.py`` checks.
"""
