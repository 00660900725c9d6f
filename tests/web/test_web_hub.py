"""The hub: ids, snapshots, history catch-up, bounded queues and dropping slow listeners."""

from __future__ import annotations

import json
import threading

import pytest

from web.errors import PanelStateError
from web.hub import PanelEvent, PanelHub
from web.state import State, empty_state, example_state


def _state(turn: int, score: tuple[int, int] = (0, 0)) -> State:
    state = example_state()
    state["turn"] = turn
    state["match"]["score"] = list(score)
    return state


def test_publish_assigns_increasing_ids_and_keeps_the_latest_snapshot() -> None:
    hub = PanelHub()
    assert hub.snapshot() == (0, empty_state())
    assert [hub.publish(_state(0, (n, 0))) for n in range(3)] == [1, 2, 3]
    event_id, state = hub.snapshot()
    assert event_id == 3 and state["match"]["score"] == [2, 0]


def test_snapshot_is_a_private_copy() -> None:
    hub = PanelHub()
    published = _state(0)
    hub.publish(published)
    published["turn"] = 1
    _, first = hub.snapshot()
    first["turn"] = None
    assert hub.snapshot()[1]["turn"] == 0


def test_malformed_state_is_refused_and_changes_nothing() -> None:
    hub = PanelHub()
    hub.publish(_state(0))
    broken = _state(1)
    del broken["cube"]
    with pytest.raises(PanelStateError, match="cube is missing"):
        hub.publish(broken)
    assert hub.snapshot()[0] == 1


def test_new_listener_starts_with_the_current_snapshot_then_live_events() -> None:
    hub = PanelHub()
    hub.publish(_state(0))
    hub.publish(_state(1))
    listener = hub.subscribe(None)
    first = listener.get(0)
    assert first is not None and first.id == 2
    assert listener.get(0) is None
    hub.publish(_state(0, (1, 0)))
    live = listener.get(1)
    assert live is not None and live.id == 3
    assert json.loads(live.data)["match"]["score"] == [1, 0]


def test_listener_catches_up_with_missed_events_in_order() -> None:
    hub = PanelHub(history=10)
    for n in range(5):
        hub.publish(_state(n % 2, (n, 0)))
    listener = hub.subscribe(2)
    ids = [event.id for event in (listener.get(0), listener.get(0), listener.get(0)) if event]
    assert ids == [3, 4, 5]
    assert listener.get(0) is None


def test_up_to_date_listener_gets_nothing_until_the_next_publish() -> None:
    hub = PanelHub()
    hub.publish(_state(0))
    listener = hub.subscribe(1)
    assert listener.get(0) is None


@pytest.mark.parametrize("last_id", [1, 99])
def test_gap_or_unknown_id_yields_the_snapshot(last_id: int) -> None:
    hub = PanelHub(history=3)
    for n in range(8):
        hub.publish(_state(n % 2, (n, 0)))
    listener = hub.subscribe(last_id)
    event = listener.get(0)
    assert event is not None and event.id == 8
    assert listener.get(0) is None


def test_slow_listener_is_dropped_and_others_keep_receiving() -> None:
    hub = PanelHub(queue_size=2)
    slow = hub.subscribe(0)
    fast = hub.subscribe(0)
    received = []
    for n in range(5):
        hub.publish(_state(0, (n, 0)))
        event = fast.get(0)
        assert event is not None
        received.append(event.id)
    assert received == [1, 2, 3, 4, 5]
    assert slow.is_closed and slow.was_dropped
    assert slow.get(0) is None
    assert hub.dropped == 1 and hub.listener_count == 1


def test_close_ends_iteration_and_later_subscribers() -> None:
    hub = PanelHub()
    listener = hub.subscribe(0)
    collected: list[int] = []
    reader = threading.Thread(target=lambda: collected.extend(e.id for e in listener))
    reader.start()
    hub.publish(_state(0))
    hub.publish(_state(1))
    hub.close()
    reader.join(5)
    assert not reader.is_alive()
    assert collected in ([1, 2], [1], [])  # closing discards what was not yet read
    late = hub.subscribe(None)
    assert late.is_closed and not late.was_dropped


def test_listener_as_context_manager_unsubscribes() -> None:
    hub = PanelHub()
    with hub.subscribe(None) as listener:
        assert hub.listener_count == 1
    assert hub.listener_count == 0 and listener.is_closed


def test_concurrent_publishers_give_unique_ids_seen_in_order() -> None:
    hub = PanelHub(history=512, queue_size=512)
    listener = hub.subscribe(0)

    def publish_many() -> None:
        for _ in range(50):
            hub.publish(_state(0))

    threads = [threading.Thread(target=publish_many) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ids = []
    while (event := listener.get(0)) is not None:
        ids.append(event.id)
    assert ids == list(range(1, 201))


def test_sse_framing_splits_multi_line_data() -> None:
    framed = PanelEvent(7, "state", "one\ntwo").to_sse()
    assert framed == b"id: 7\nevent: state\ndata: one\ndata: two\n\n"


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="queue_size"):
        PanelHub(queue_size=0)


def test_disconnect_all_ends_current_streams_but_not_the_hub() -> None:
    hub = PanelHub()
    first, second = hub.subscribe(None), hub.subscribe(None)
    assert hub.disconnect_all() == 2
    assert first.is_closed and second.is_closed and hub.listener_count == 0
    later = hub.subscribe(0)
    hub.publish(_state(0))
    event = later.get(1)
    assert event is not None and event.id == 1
