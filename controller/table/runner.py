"""The thin runner: feeds inputs to the referee and carries out its effects, the record first.

For each input the referee returns effects in order. Every :class:`RecordEvent` effect is appended
to the event log and committed before anything after it is done; lights, the panel and speech
follow. If the log cannot be written, the runner rebuilds the referee from the log (dropping what
was not recorded) and re-raises: the board is never told about an event the log does not hold.

On start, :meth:`Runner.resume` rebuilds the referee from the log's current match and sends it a
clock tick, which completes anything a crash cut short (a game won but not yet scored, the next game
not yet started).

>>> from controller.record.store import Record
>>> from controller.referee import MatchSettings, NewMatch
>>> with Record(":memory:") as record:
...     runner = Runner.resume(record, clock=lambda: 0.0)
...     events = runner.feed(NewMatch(MatchSettings(("Alice", "Bob"), length=1, match_id="m1")))
...     [event.type for event in record.events("m1")]
['match_started', 'game_started']
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from controller.events import Event
from controller.lights.scene import Scene
from controller.record.store import Record, RecordError
from controller.referee import (
    ButtonPressed,
    ClockSettings,
    Input,
    MatchSettings,
    NewMatch,
    PanelState,
    PauseClock,
    RecordEvent,
    Referee,
    Resign,
    Say,
    ShowLights,
    Tick,
)
from sheshbesh.language import translations
from sheshbesh.phrases import translate_sentence

Clock = Callable[[], float]
log = logging.getLogger("sheshbesh")


class LightsSink(Protocol):
    """Anything that shows a scene on the board (``controller.lights`` drivers fit)."""

    def show(self, scene: Scene) -> None: ...


class PanelSink(Protocol):
    """Anything that takes the panel's snapshots (``web.hub.PanelHub`` fits)."""

    def publish(self, state: Any) -> int: ...


class Runner:
    """Carries out a referee's effects against the event log, the lights and the panel.

    ``speak`` receives the referee's sentences (the panel shows them in ``snapshot["message"]``
    already; a speaker or a console may want them too), in ``language`` (the table's, ``[panel]
    language`` of the config; empty or ``"en"``: English). Only what is spoken is translated: the
    referee, the record and the panel's snapshot keep the English sentence, which each viewer's
    page translates for itself.

    Raises :class:`sheshbesh.language.LanguageError` for a language that is not one of
    :data:`sheshbesh.language.LANGUAGES`.
    """

    def __init__(
        self,
        referee: Referee,
        record: Record,
        lights: Iterable[LightsSink] = (),
        panels: Iterable[PanelSink] = (),
        speak: Callable[[str], None] | None = None,
        language: str = "",
    ) -> None:
        self.referee = referee
        self.record = record
        self.lights = list(lights)
        self.panels = list(panels)
        self.speak = speak
        self.language = language
        # Read once: a catalogue is a file read, and every spoken sentence uses it.
        self._catalogue = translations(language) if language else None
        #: the clock a new match gets when its settings name none (``[clock]`` of the config)
        self.match_clock: ClockSettings | None = None
        # The camera loop, the buttons and the panel's admin page feed from different threads.
        self._lock = threading.RLock()

    @classmethod
    def resume(
        cls,
        record: Record,
        clock: Clock = time.time,
        lights: Iterable[LightsSink] = (),
        panels: Iterable[PanelSink] = (),
        speak: Callable[[str], None] | None = None,
        match_clock: ClockSettings | None = None,
        language: str = "",
    ) -> Runner:
        """A runner whose referee is where the log's current match left off.

        ``match_clock``: the clock new matches get unless their settings say otherwise. A match
        in progress keeps the clock its own ``match_started`` event recorded. ``language``: what
        ``speak`` hears (see the class).

        Raises :class:`controller.referee.ReplayError` for a log that cannot be folded,
        :class:`sheshbesh.language.LanguageError` for an unknown language.
        """
        runner = cls(_rebuild(record, clock), record, lights, panels, speak, language)
        runner.match_clock = match_clock
        runner.feed(Tick(float(clock())))
        return runner

    def feed(self, item: Input) -> list[Event]:
        """Hand ``item`` to the referee and carry out the effects; returns the events recorded.

        Raises what the referee raises for a senseless admin input, and :class:`RecordError`
        when the log cannot be written (the referee is then rebuilt from the log).
        """
        with self._lock:
            return self._feed(item)

    def _feed(self, item: Input) -> list[Event]:
        effects = self.referee.handle(item)
        recorded: list[Event] = []
        for effect in effects:
            if isinstance(effect, RecordEvent):
                try:
                    self.record.append(effect.event)
                except RecordError:
                    self.referee = _rebuild(self.record, self.referee.clock)
                    raise
                recorded.append(effect.event)
            elif isinstance(effect, ShowLights):
                for lights in self.lights:
                    self._safely(lights.show, effect.scene)
            elif isinstance(effect, PanelState):
                for panel in self.panels:
                    self._safely(panel.publish, _plain(effect.snapshot))
            elif isinstance(effect, Say) and self.speak is not None:
                self._safely(self._say, effect.text)
        return recorded

    def _say(self, text: str) -> None:
        """Speak ``text`` in the runner's language (a sentence with no template stays English)."""
        if self.speak is None:
            return
        if self._catalogue is not None:
            text = translate_sentence(text, self._catalogue)
        self.speak(text)

    def _safely(self, action: Callable[[Any], Any], argument: Any) -> None:
        # The event is already committed: a failing view (an unplugged LED board, a panel error)
        # is logged, never allowed to stop the referee.
        try:
            action(argument)
        except Exception as error:
            log.warning("a view failed (%s): %s", type(error).__name__, error)

    # The panel's admin actions (``web.interfaces.Controls``) in the referee's terms.

    def new_match(self, settings: MatchSettings | Mapping[str, Any]) -> None:
        """Start a new match: the admin page's :class:`MatchSettings`, or ``match_started`` keys
        (the room director's assignment). A match without a clock gets the table's clock.

        Raises :class:`sheshbesh.match.MatchSettingsError` naming a bad setting.
        """
        if not isinstance(settings, MatchSettings):
            settings = MatchSettings.from_data(
                {"clock": None if self.match_clock is None else self.match_clock.to_data()}
                | dict(settings)
            )
        elif self.match_clock is not None and settings.clock is None:
            settings = replace(settings, clock=self.match_clock)
        self.feed(NewMatch(settings))

    def resign(self, player: int, points: int) -> None:
        """``player`` offers to resign a single (1), gammon (2) or backgammon (3)."""
        self.feed(Resign(player, points))

    def undo(self) -> None:
        """Take back the last play of the game in progress."""
        self.feed(ButtonPressed("undo"))

    def pause_clock(self, paused: bool) -> None:
        """The director pauses (True) or resumes (False) the match clock.

        Raises :class:`controller.referee.RefereeInputError` when the match has no clock or the
        clock is already so.
        """
        self.feed(PauseClock(paused, "director"))

    def feed_all(self, items: Iterable[Input]) -> list[Event]:
        """Feed many inputs in order; returns every event recorded."""
        events: list[Event] = []
        for item in items:
            events.extend(self.feed(item))
        return events


#: Seconds a thread may hold the interpreter before another that waits gets it (Python's default
#: is 0.005). See :func:`favour_the_referee`.
REFEREE_SWITCH_INTERVAL = 0.0005


def favour_the_referee() -> None:
    """Hand the interpreter over sooner between threads, in a process where the referee shares
    it with the panel's page threads.

    A commit waits for its fsync outside the interpreter, then must get the interpreter back
    before the referee can act. With pages being drawn on several threads, each hand-over can
    cost the default 5 ms, several times over; at 0.5 ms the referee's commits stay quick while
    the panel is busy (``benchmarks/bench_record_readers.py`` measures it), for a little more
    switching overhead.
    """
    sys.setswitchinterval(REFEREE_SWITCH_INTERVAL)


def _rebuild(record: Record, clock: Clock) -> Referee:
    match = record.current_match
    if match is None:
        return Referee(clock=clock, last_sequence=record.last_sequence())
    referee = Referee.from_events(record.events(match), clock=clock)
    referee.last_sequence = max(referee.last_sequence, record.last_sequence())
    return referee


def _plain(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    return dict(snapshot)
