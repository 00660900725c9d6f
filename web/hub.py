"""The panel's publisher: the latest state, a bounded history and one bounded queue per listener.

The referee side calls :meth:`PanelHub.publish` with each new full state; every open page holds a
:class:`Listener` from :meth:`PanelHub.subscribe`. A listener whose queue is full is dropped (its
stream ends, the browser reconnects and catches up from its last event id), so one slow phone never
holds up the publisher or the other pages.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from web.state import State, check_state, empty_state

#: The SSE event name of a full state snapshot.
STATE_EVENT = "state"


@dataclass(frozen=True, slots=True)
class PanelEvent:
    """One event on the stream: its id, its SSE event name and its data (JSON text)."""

    id: int
    event: str
    data: str

    def to_sse(self) -> bytes:
        """The event in server-sent-events framing (``id:``, ``event:``, ``data:``, blank line).

        >>> PanelEvent(3, "state", '{"turn": 0}').to_sse()
        b'id: 3\\nevent: state\\ndata: {"turn": 0}\\n\\n'
        """
        lines = [f"id: {self.id}", f"event: {self.event}"]
        lines.extend(f"data: {line}" for line in self.data.split("\n"))
        return ("\n".join(lines) + "\n\n").encode("utf-8")


class Listener:
    """One subscriber's view of the hub: missed events first, then live ones, in order.

    Iterating blocks until the next event and stops when the listener is closed (dropped for
    falling behind, unsubscribed, or the hub closed). :meth:`get` waits at most ``timeout``.
    """

    def __init__(self, hub: PanelHub, backlog: list[PanelEvent], capacity: int) -> None:
        self._hub = hub
        self._capacity = capacity
        self._events: deque[PanelEvent] = deque(backlog)
        self._ready = threading.Condition(threading.Lock())
        self._closed = False
        self.was_dropped = False
        self._wake: Callable[[], None] | None = None

    @property
    def is_closed(self) -> bool:
        return self._closed

    @property
    def has_events(self) -> bool:
        """Whether an event waits to be taken."""
        with self._ready:
            return bool(self._events)

    def wake_with(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` (from the publisher's thread) whenever an event arrives or the listener
        closes: an event loop serving the stream then waits without a thread of its own.
        ``wake`` must be quick and must not block (e.g. ``loop.call_soon_threadsafe(...)``)."""
        with self._ready:
            self._wake = wake
            ready = bool(self._events) or self._closed
        if ready:
            wake()

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        """The next event, or None if none came within ``timeout`` seconds or the listener closed."""
        with self._ready:
            if not self._events and not self._closed:
                self._ready.wait(timeout)
            if self._closed or not self._events:
                return None
            return self._events.popleft()

    def __iter__(self) -> Iterator[PanelEvent]:
        while True:
            event = self.get(None)
            if event is None:
                if self._closed:
                    return
                continue
            yield event

    def close(self) -> None:
        """Stop listening; the hub forgets this listener. Safe to call more than once."""
        self._hub._forget(self)
        self._shut(dropped=False)

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Called by the hub, under the hub's lock.
    def _offer(self, event: PanelEvent) -> bool:
        with self._ready:
            if self._closed:
                return False
            if len(self._events) >= self._capacity:
                return False
            self._events.append(event)
            self._ready.notify()
            wake = self._wake
        if wake is not None:
            wake()
        return True

    def _shut(self, *, dropped: bool) -> None:
        with self._ready:
            if not self._closed:
                self.was_dropped = dropped
            self._closed = True
            self._events.clear()
            self._ready.notify_all()
            wake = self._wake
        if wake is not None:
            wake()


class PanelHub:
    """Thread-safe publisher of full state snapshots to any number of listeners.

    ``history`` events are kept for listeners that reconnect; ``queue_size`` bounds each
    listener's queue. Before the first publish the snapshot is :func:`web.state.empty_state` with
    id 0.

    >>> hub = PanelHub()
    >>> hub.publish(empty_state())
    1
    >>> hub.snapshot()[0]
    1
    """

    def __init__(
        self, *, history: int = 128, queue_size: int = 32, initial: State | None = None
    ) -> None:
        if history < 1 or queue_size < 1:
            raise ValueError(f"history ({history}) and queue_size ({queue_size}) must be >= 1")
        self._lock = threading.Lock()
        self._queue_size = queue_size
        self._history: deque[PanelEvent] = deque(maxlen=history)
        self._listeners: set[Listener] = set()
        self._closed = False
        self.dropped = 0
        state = empty_state() if initial is None else check_state(initial)
        self._last = PanelEvent(0, STATE_EVENT, json.dumps(state, separators=(",", ":")))

    def publish(self, state: State) -> int:
        """Store ``state`` as the new snapshot, push it to every listener; returns its event id.

        Raises :class:`web.errors.PanelStateError` (naming the field) for a malformed state, and
        ``TypeError`` for values JSON cannot hold.
        """
        check_state(state)
        data = json.dumps(state, separators=(",", ":"))
        with self._lock:
            event = PanelEvent(self._last.id + 1, STATE_EVENT, data)
            self._last = event
            self._history.append(event)
            slow = [listener for listener in self._listeners if not listener._offer(event)]
            for listener in slow:
                self._listeners.discard(listener)
                listener._shut(dropped=True)
            self.dropped += len(slow)
        return event.id

    def snapshot(self) -> tuple[int, State]:
        """The latest event id and a private copy of the latest state."""
        with self._lock:
            last = self._last
        state: State = json.loads(last.data)
        return last.id, state

    def subscribe(self, last_id: int | None = None) -> Listener:
        """A listener that first yields what came after ``last_id``, then every new event.

        With no ``last_id``, an id the hub never gave, or one older than the kept history, the
        listener starts with the current snapshot instead (each event is a full state, so the
        latest one is a complete catch-up).
        """
        with self._lock:
            current = self._last
            oldest = self._history[0].id if self._history else current.id + 1
            if last_id is None or last_id > current.id or last_id < oldest - 1:
                backlog = [current]
            else:
                backlog = [event for event in self._history if event.id > last_id]
            listener = Listener(self, backlog, self._queue_size + len(backlog))
            if self._closed:
                listener._shut(dropped=False)
            else:
                self._listeners.add(listener)
            return listener

    @property
    def listener_count(self) -> int:
        with self._lock:
            return len(self._listeners)

    @property
    def last_id(self) -> int:
        with self._lock:
            return self._last.id

    def close(self) -> None:
        """End every listener's stream (server shutdown); later subscribers end at once."""
        with self._lock:
            self._closed = True
            listeners = list(self._listeners)
            self._listeners.clear()
        for listener in listeners:
            listener._shut(dropped=False)

    def disconnect_all(self) -> int:
        """End every open stream now (pages reconnect and catch up); returns how many ended."""
        with self._lock:
            listeners = list(self._listeners)
            self._listeners.clear()
        for listener in listeners:
            listener._shut(dropped=False)
        return len(listeners)

    def _forget(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.discard(listener)
