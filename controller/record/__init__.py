"""The record: the SQLite event log and the match files made from it or read beside it.

- :mod:`controller.record.store`: the append-only event log in SQLite (``Record``), the truth the
  referee is rebuilt from; everything else is a view of it.
- :mod:`controller.record.matfile`: the ``.mat`` text format, read and written.
- :mod:`controller.record.export`: a recorded match written as a ``.mat`` file.
- :mod:`controller.record.walk`: one walk over a match file that calls a visitor's methods; the
  rules replay (:mod:`controller.record.rules_replay`), the referee's inputs for ``sheshbesh
  replay`` and the demo director's shots (both in ``controller.sim``) are its visitors.

Nothing is imported here: ``sheshbesh run`` loads the store alone, never the match-file modules.
"""
