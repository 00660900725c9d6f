"""The state snapshot: its checker, and the empty, starting and example states."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sheshbesh.locations import LOCATIONS
from web.errors import PanelError, PanelStateError
from web.state import (
    check_state,
    empty_state,
    example_state,
    position_from_counts,
    starting_state,
)


@pytest.mark.parametrize("make", [empty_state, starting_state, example_state])
def test_built_in_states_pass_the_check(make: Any) -> None:
    state = make()
    assert check_state(state) is state
    assert set(state["position"]) == set(LOCATIONS)


@pytest.mark.parametrize("make", [starting_state, example_state])
def test_built_in_positions_hold_fifteen_checkers_a_side(make: Any) -> None:
    position = make()["position"]
    assert sum(white for white, _ in position.values()) == 15
    assert sum(black for _, black in position.values()) == 15


def test_example_pip_counts_match_its_position() -> None:
    state = example_state()
    white = sum(
        int(name[1:]) * counts[0]
        for name, counts in state["position"].items()
        if name.startswith("p")
    )
    black = sum(
        (25 - int(name[1:])) * counts[1]
        for name, counts in state["position"].items()
        if name.startswith("p")
    )
    assert state["pips"] == [white, black]


def _broken(path: str, value: Any) -> dict[str, Any]:
    state = example_state()
    *parents, leaf = path.split(".")
    target: Any = state
    for key in parents:
        target = target[key]
    if value is KeyError:
        del target[leaf]
    else:
        target[leaf] = value
    return state


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        ("match", KeyError, "match is missing"),
        ("match.score", KeyError, "match.score is missing"),
        ("match.score", [1], "match.score"),
        ("match.length", -1, "match.length"),
        ("match.players", ["only one"], "match.players"),
        ("match.variant", "chess", "match.variant"),
        ("match.winner", 2, "match.winner"),
        ("match.winner", True, "match.winner"),
        ("match.crawford_game", "yes", "match.crawford_game"),
        ("cube.value", 3, "cube.value"),
        ("cube.owner", 5, "cube.owner"),
        ("turn", "white", "turn"),
        ("dice", [0, 7], "dice"),
        ("pips", None, "pips"),
        ("position.p25", [1, 0], "unknown location 'p25'"),
        ("position.p6", [16, 0], "position.p6"),
        ("position.p7", [9, 0], "more than 15"),
        ("last_play.play", 42, "last_play.play"),
        ("last_play.to", ["p26"], "last_play.to"),
        ("message", {"kind": "shout", "text": "x"}, "message.kind"),
        ("lights.p99", "legal", "unknown location 'p99'"),
        ("status.camera", "broken", "status.camera"),
        ("moves", "8/5 6/5", "moves"),
    ],
)
def test_check_names_the_wrong_field(path: str, value: Any, words: str) -> None:
    with pytest.raises(PanelStateError, match=words.replace(".", r"\.").replace("(", r"\(")):
        check_state(_broken(path, value))


def test_state_errors_belong_to_the_panel_family_and_value_error() -> None:
    with pytest.raises(PanelError):
        check_state([])
    with pytest.raises(ValueError):
        check_state({"match": 1})


def test_position_from_counts_fills_every_location_and_refuses_unknown_names() -> None:
    position = position_from_counts({"p6": (5, 0), "off-black": (0, 3)})
    assert position["p6"] == [5, 0] and position["off-black"] == [0, 3]
    assert position["p1"] == [0, 0]
    with pytest.raises(PanelStateError, match="p0"):
        position_from_counts({"p0": (1, 0)})


def test_example_state_is_a_fresh_copy_each_time() -> None:
    first = example_state()
    first["match"]["players"][0] = "changed"
    assert example_state()["match"]["players"][0] == "Ada"
    assert copy.deepcopy(example_state()) == example_state()
