"""Many tables in one room: each table publishes its record to an MQTT broker, the hub mirrors them.

- :mod:`controller.network.address` — the broker's URL (``mqtt://`` or ``mqtts://``, credentials,
  CA file) and the MQTT client made from it.
- :mod:`controller.network.topics` — the topic names and the JSON messages on them.
- :mod:`controller.network.link` — the table's side: :class:`~controller.network.link.TableLink`
  publishes the state snapshot, every recorded event (read back from the record, never from the
  referee's hands) and the table's presence; it re-sends whatever the hub has not acknowledged.
- :mod:`controller.network.mirror` — the hub's SQLite copy of every table's events; an event is
  stored once, in order, or not at all.
- :mod:`controller.network.hub` — the hub's side: subscribes, feeds the mirror, acknowledges, and
  answers the room's pages (:class:`web.room.RoomSource`).

The single-board product needs none of this: nothing here is imported unless ``--broker`` is given.
"""
