"""Match events: what happened, in order. The event log is the truth; everything else is a view.

The referee emits events; the record (SQLite) appends them before the referee acts on them; the panel,
the LEDs and the exports are derived from them. ``data`` is plain JSON (str keys, JSON values), as
stored; :attr:`Event.payload` is the same data as its type's frozen dataclass
(:mod:`sheshbesh.events`), read once and checked.

Event types and their ``data`` (players are 0 = White, the left-hand player of a .mat file, 1 = Black):

=====================  =================================================================================
``match_started``      id (the match's id in the record), players [name0, name1], length (0 = money),
                       crawford, jacoby, beavers, variant ("backgammon" | "sheshbesh"), policy
                       ("teaching" | "tournament" | "condone"), hints (bool); optional: clock
                       {reserve ("per-point" | "fixed"), reserve_seconds, delay_seconds, delay
                       ("simple" | "bronstein"), on_flag ("flag" | "lose")}, only when the match
                       has a clock
``game_started``       game (1-based), score [s0, s1], crawford_game (bool)
``roll_off``           dice [white_die, black_die], first (player or null on a tie)
``dice_rolled``        player, dice [d1, d2]
``play``               player, dice, play (notation), position_id, match_id (before the play,
                       player on roll's view), result_id (after); from, to (locations the mover's
                       checkers left and reached); optional: dice_left (done pressed with the dice
                       still down), condoned + reason (an illegal play the opponent accepted, kept
                       as played)
``illegal_play``       player, dice, reason (plain words), locations (to light), position_id,
                       result_id (the board seen, mover's view; Shesh Besh: counts {location:
                       [white, black]} instead), dice_left
``board_mismatch``     reason, locations
``board_restored``     position_id
``cube_offered``       player, cube (value after the double)
``cube_taken``         player, cube
``cube_passed``        player, cube (value before the double)
``cube_beavered``      player, cube
``cube_refused``       player, action ("double" | "take" | "pass" | "beaver"), reason (an action the
                       rules do not allow)
``resign_offered``     player, points (1, 2 or 3 times the cube)
``resign_accepted``    player
``resign_refused``     player
``undo``               to_sequence (the event whose position is restored), position_id
``game_won``           game, winner, points, kind ("single" | "gammon" | "backgammon" | "pass" |
                       "resign" | "time": the loser ran out of time and lost the match), score
                       [s0, s1] after the game
``match_won``          winner, score [s0, s1]
``clock_paused``       by ("director" | "button")
``clock_resumed``      by ("director" | "button" | "restart": the referee resumed from the record;
                       the time between the last event before it and this one is nobody's)
``clock_flag``         player (whose reserve ran out), on_flag ("flag" | "lose"), at (the time it
                       ran out, by the event times before it)
=====================  =================================================================================

The ``clock_*`` events exist only in a match with a clock (see :mod:`controller.referee.clock`):
the clock itself is folded from every event's ``time``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from sheshbesh.events import EVENT_CLASSES, EventDataError, EventPayload, event_payload

__all__ = ["EVENT_TYPES", "Event", "EventDataError", "EventPayload"]

#: The event types, by name (each has its typed value in :mod:`sheshbesh.events`).
EVENT_TYPES: Final[frozenset[str]] = frozenset(EVENT_CLASSES)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``sequence`` is 0 until the record assigns it."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    time: float = 0.0
    sequence: int = 0
    _payload: EventPayload | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {self.type!r}")

    @property
    def payload(self) -> EventPayload:
        """The data as its type's frozen dataclass, read on first use and kept: every reader of
        this event (the fold, the export, the analysis) gets the same checked value.

        Raises :class:`EventDataError` naming the key that does not fit.
        """
        if self._payload is None:
            # The event is frozen; the typed value is a cache of ``data``, never a change of it.
            object.__setattr__(self, "_payload", event_payload(self.type, self.data))
        assert self._payload is not None
        return self._payload

    @classmethod
    def of(cls, payload: EventPayload, time: float = 0.0, sequence: int = 0) -> Event:
        """The event holding ``payload`` (its data written by ``to_dict``)."""
        event = cls(payload.type, payload.to_dict(), time, sequence)
        object.__setattr__(event, "_payload", payload)
        return event

    def to_json(self) -> str:
        return json.dumps(
            {"type": self.type, "data": self.data, "time": self.time, "sequence": self.sequence},
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> Event:
        raw = json.loads(text)
        return cls(
            raw["type"],
            dict(raw.get("data", {})),
            float(raw.get("time", 0.0)),
            int(raw.get("sequence", 0)),
        )
