"""The match clock: a tournament delay clock that runs itself from the referee's events.

Rated over-the-board play uses a delay clock: each player has a reserve for the whole match and,
every time their clock starts, a delay during which the reserve does not fall. The referee already
knows whose time is running, so nobody has to press anything:

* the mover's time runs from the moment their turn begins (the opening roll seen, or the
  opponent's play recorded when the dice are picked up) until their own play is recorded;
* while a double (or a resignation) waits for an answer, the answering player's time runs; after a
  take the doubler's time runs again, with a fresh delay;
* before a game's opening roll, between games and after the match, nobody's time runs;
* a director may pause and resume the clock; a paused clock charges nobody.

Delay kinds, for a turn that used ``t`` seconds with a delay of ``d``:

* ``simple`` (US delay): the reserve stands still for the first ``d`` seconds, then falls;
* ``bronstein``: the reserve falls at once, and ``min(t, d)`` is given back when the turn ends.

Both charge a finished turn ``max(0, t - d)``; they differ in what the display shows during the
turn and in when a flag falls: with Bronstein a player whose reserve is shorter than the turn runs
out during the turn even though the delay would have covered it.

Time is an input like any other. This module never reads the wall clock: every function takes the
time (the recorded time of the event being folded, or the referee's injected clock), so a record
replays to exactly the same remaining times, and tests run instantly. Stdlib only.

>>> rules = ClockSettings(reserve="fixed", reserve_seconds=60, delay_seconds=10)
>>> clock = start_clock(rules, length=1, time=0.0)
>>> clock = switch(clock, 0, time=100.0)     # White's turn begins
>>> clock.remaining(125.0)                   # 25 s used: 10 s of delay, 15 s of reserve
(45.0, 60.0)
>>> clock = switch(clock, 1, time=125.0)     # White's play is recorded: Black's turn
>>> clock.reserve
(45.0, 60.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from sheshbesh.match import (
    DELAY_KINDS,
    MAX_DELAY_SECONDS,
    MAX_RESERVE_SECONDS,
    ON_FLAG,
    RESERVE_KINDS,
    ClockSettings,
    ClockSettingsError,
    as_player_or_none,
)
from sheshbesh.snapshot import ClockView

__all__ = [
    "CLOCK_SOURCES",
    "DELAY_KINDS",
    "MAX_DELAY_SECONDS",
    "MAX_RESERVE_SECONDS",
    "ON_FLAG",
    "RESERVE_KINDS",
    "ClockSettings",
    "ClockSettingsError",
    "ClockState",
    "PauseClock",
    "clock_view",
    "flag",
    "pause",
    "resume",
    "settings_from_config",
    "start_clock",
    "switch",
]

#: Who may pause or resume the clock (recorded in the event): the panel's admin page (behind the
#: PIN), the ``pause`` button on the board, or the program itself when it resumes after a restart.
CLOCK_SOURCES: Final[tuple[str, ...]] = ("director", "button", "restart")


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock after the events folded so far.

    ``reserve`` is each player's reserve before the turn now running; ``running`` is whose time
    runs (None: nobody's); ``total`` is the reserve each had at the start; ``used`` is how long that turn has run up to ``since``, the recorded
    time the clock was last brought up to date. ``flagged`` players have run out of reserve.
    """

    settings: ClockSettings
    reserve: tuple[float, float]
    total: float = 0.0
    running: int | None = None
    since: float = 0.0
    used: float = 0.0
    paused: bool = False
    flagged: tuple[bool, bool] = (False, False)

    def turn_used(self, now: float) -> float:
        """Seconds the running turn has used by ``now`` (0 when nobody's time runs)."""
        if self.running is None:
            return 0.0
        if self.paused:
            return self.used
        return self.used + max(0.0, now - self.since)

    def remaining(self, now: float) -> tuple[float, float]:
        """Each player's reserve as a clock would show it at ``now`` (never below 0)."""
        values = list(self.reserve)
        if self.running is not None:
            used = self.turn_used(now)
            delay = self.settings.delay_seconds
            fall = used if self.settings.delay == "bronstein" else max(0.0, used - delay)
            values[self.running] = max(0.0, values[self.running] - fall)
        return values[0], values[1]

    def delay_left(self, now: float) -> float:
        """What is left of the running turn's delay at ``now`` (0 when nobody's time runs)."""
        if self.running is None:
            return 0.0
        return max(0.0, self.settings.delay_seconds - self.turn_used(now))

    def flag_due(self, now: float) -> int | None:
        """The running player if their reserve has run out by ``now`` and is not yet flagged."""
        player = self.running
        if player is None or self.paused or self.flagged[player]:
            return None
        return player if self.remaining(now)[player] <= 0.0 else None

    def flag_time(self) -> float | None:
        """The recorded time at which the running player's reserve runs out, if nothing changes."""
        player = self.running
        if player is None or self.paused or self.flagged[player]:
            return None
        allowance = self.reserve[player] - self.used
        if self.settings.delay == "simple":
            allowance += self.settings.delay_seconds
        return self.since + max(0.0, allowance)


def start_clock(settings: ClockSettings, length: int, time: float) -> ClockState:
    """The clock at the start of a match of ``length`` points: full reserves, nobody running."""
    reserve = settings.reserve_for(length)
    return ClockState(settings, (reserve, reserve), total=reserve, since=time)


def settle(state: ClockState, time: float) -> ClockState:
    """Bring the running turn's time used up to ``time`` (an event's recorded time)."""
    if state.running is None or state.paused:
        return replace(state, since=max(state.since, time))
    return replace(state, used=state.turn_used(time), since=max(state.since, time))


def switch(state: ClockState, to: int | None, time: float) -> ClockState:
    """Start ``to``'s time (None: nobody's) at ``time``; the running turn, if another's, ends.

    A turn that ends is charged ``max(0, used - delay)``; the next one starts with a fresh delay.
    """
    state = settle(state, time)
    if to == state.running:
        return state
    reserve = list(state.reserve)
    if state.running is not None:
        reserve[state.running] = _remaining_after_turn(state)
    return replace(state, reserve=(reserve[0], reserve[1]), running=to, used=0.0, since=time)


def _remaining_after_turn(state: ClockState) -> float:
    assert state.running is not None
    charge = max(0.0, state.used - state.settings.delay_seconds)
    return max(0.0, state.reserve[state.running] - charge)


def pause(state: ClockState, time: float) -> ClockState:
    """Stop charging anyone from ``time`` on (whose turn it is stays known)."""
    return replace(settle(state, time), paused=True)


def resume(state: ClockState, time: float) -> ClockState:
    """Charge the running turn again from ``time``; the time in between is nobody's."""
    return replace(state, paused=False, since=time)


def flag(state: ClockState, player: int, time: float) -> ClockState:
    """``player``'s reserve has run out: it shows 0 from now on."""
    state = settle(state, time)
    reserve = list(state.reserve)
    reserve[player] = 0.0
    flagged = list(state.flagged)
    flagged[player] = True
    used = state.used
    if state.running == player and state.settings.delay == "bronstein":
        used = 0.0  # the reserve is already 0; nothing more to charge this turn
    return replace(
        state, reserve=(reserve[0], reserve[1]), flagged=(flagged[0], flagged[1]), used=used
    )


def clock_view(state: ClockState, now: float) -> ClockView:
    """The clock as the panel draws it, at ``now`` (plain JSON; see ``sheshbesh.snapshot``)."""
    remaining = state.remaining(now)
    settings = state.settings
    return {
        "remaining": [round(remaining[0], 3), round(remaining[1], 3)],
        "running": as_player_or_none(state.running),
        "paused": state.paused,
        "flagged": list(state.flagged),
        "delay_left": round(state.delay_left(now), 3),
        "delay_seconds": float(settings.delay_seconds),
        "delay_kind": settings.delay,
        "reserve": state.total,
        "on_flag": settings.on_flag,
    }


@dataclass(frozen=True, slots=True)
class PauseClock:
    """Input for the referee: pause (``paused=True``) or resume the match clock.

    ``by`` says who asked (one of :data:`CLOCK_SOURCES` but ``"restart"``, which only the referee
    itself records); it is kept in the event so a dispute can be settled from the record.
    """

    paused: bool
    by: str = "director"

    def __post_init__(self) -> None:
        if self.by not in ("director", "button"):
            raise ClockSettingsError(
                f"a clock pause comes from the director or a button, not {self.by!r}"
            )


def settings_from_config(section: Any) -> ClockSettings | None:
    """The config's ``[clock]`` section (``controller.table.config.ClockConfig``) as the settings new
    matches get, or None when the clock is off. Raises :class:`ClockSettingsError`."""
    if not section.enabled:
        return None
    return ClockSettings(
        reserve=section.reserve,
        reserve_seconds=section.reserve_seconds,
        delay_seconds=section.delay_seconds,
        delay=section.delay,
        on_flag=section.on_flag,
    )
