"""The event stream through Flask's test client: framing, catch-up, keep-alive, limits."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from web.hub import PanelHub
from web.state import example_state


@contextmanager
def _stream(
    client: FlaskClient, path: str = "/events", **headers: str
) -> Iterator[tuple[TestResponse, Iterator[bytes]]]:
    response = client.get(path, headers=headers, buffered=False)
    try:
        yield response, iter(cast(Iterable[bytes], response.response))
    finally:
        response.close()


def _event(chunk: bytes) -> tuple[int, str, dict[str, Any]]:
    lines = chunk.decode().rstrip("\n").split("\n")
    fields = dict(line.split(": ", 1) for line in lines)
    return int(fields["id"]), fields["event"], json.loads(fields["data"])


def _published(hub: PanelHub, score: tuple[int, int]) -> int:
    state = example_state()
    state["match"]["score"] = list(score)
    return hub.publish(state)


def test_stream_starts_with_a_retry_hint_and_the_current_state(client: FlaskClient) -> None:
    with _stream(client) as (response, chunks):
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-cache"
        assert next(chunks) == b"retry: 2000\n\n"
        assert _event(next(chunks)) == (1, "state", example_state())


def test_live_events_follow_in_order(client: FlaskClient, hub: PanelHub) -> None:
    with _stream(client) as (_, chunks):
        next(chunks), next(chunks)
        _published(hub, (4, 4))
        _published(hub, (5, 4))
        received = [_event(next(chunks)) for _ in range(2)]
    assert [(event_id, state["match"]["score"]) for event_id, _, state in received] == [
        (2, [4, 4]),
        (3, [5, 4]),
    ]


def test_reconnect_with_last_event_id_catches_up_on_what_was_missed(
    client: FlaskClient, hub: PanelHub
) -> None:
    _published(hub, (4, 4))
    _published(hub, (5, 4))
    with _stream(client, **{"Last-Event-ID": "1"}) as (_, chunks):
        next(chunks)
        assert [_event(next(chunks))[0] for _ in range(2)] == [2, 3]
        assert next(chunks) == b": keep-alive\n\n"


def test_header_wins_over_the_query_and_the_query_serves_a_first_connection(
    client: FlaskClient, hub: PanelHub
) -> None:
    _published(hub, (4, 4))
    _published(hub, (5, 4))
    with _stream(client, "/events?last_id=2") as (_, chunks):
        next(chunks)
        assert _event(next(chunks))[0] == 3
    with _stream(client, "/events?last_id=2", **{"Last-Event-ID": "1"}) as (_, chunks):
        next(chunks)
        assert [_event(next(chunks))[0] for _ in range(2)] == [2, 3]


def test_garbled_last_event_id_gets_the_snapshot(client: FlaskClient, hub: PanelHub) -> None:
    _published(hub, (4, 4))
    with _stream(client, **{"Last-Event-ID": "yesterday"}) as (_, chunks):
        next(chunks)
        assert _event(next(chunks))[0] == 2


def test_idle_stream_sends_keep_alive_comments(client: FlaskClient) -> None:
    with _stream(client, **{"Last-Event-ID": "1"}) as (_, chunks):
        next(chunks)
        assert [next(chunks) for _ in range(3)] == [b": keep-alive\n\n"] * 3


def test_closing_the_stream_unsubscribes(client: FlaskClient, hub: PanelHub) -> None:
    with _stream(client) as (_, chunks):
        next(chunks)
        assert hub.listener_count == 1
    assert hub.listener_count == 0


def test_too_many_streams_are_refused_with_retry_after(client: FlaskClient, hub: PanelHub) -> None:
    responses = [client.get("/events", buffered=False) for _ in range(4)]
    try:
        assert hub.listener_count == 4
        refused = client.get("/events")
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "10"
    finally:
        for response in responses:
            response.close()
    assert client.get("/events", buffered=False).status_code == 200


def test_stream_ends_when_the_hub_closes(client: FlaskClient, hub: PanelHub) -> None:
    with _stream(client) as (_, chunks):
        next(chunks), next(chunks)
        hub.close()
        assert list(chunks) == []
