"""The panel snapshot's one description (sheshbesh.snapshot) and its check at run time."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from controller.referee import MatchSettings, NewMatch, Referee
from sheshbesh.snapshot import CubeView, PanelSnapshot, SnapshotError, check_snapshot
from web.state import empty_state, example_clock, example_state


def test_the_referees_snapshot_and_the_panels_examples_fit() -> None:
    referee = Referee(clock=lambda: 0.0)
    assert check_snapshot(referee.snapshot())["match"]["id"] is None
    referee.handle(NewMatch(MatchSettings(("Ada", "Boris"), length=0, beavers=True)))
    snapshot: PanelSnapshot = referee.snapshot()
    assert check_snapshot(snapshot) is snapshot
    assert snapshot["status"] == {"phase": "roll_off"}
    for state in (empty_state(), example_state()):
        check_snapshot(state)
    clocked = example_state()
    clocked["clock"] = example_clock()
    check_snapshot(clocked)
    clocked["clock"] = None  # a table without a clock may say so
    check_snapshot(clocked)


def _with(path: str, value: Any) -> dict[str, Any]:
    state: dict[str, Any] = copy.deepcopy(dict(example_state()))
    *parents, leaf = path.split(".")
    target: Any = state
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    target[leaf] = value
    return state


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        ("moves.0.action", "redouble", "moves.0.action: must be one of double, take, pass"),
        ("games.0.score", "1-0", "games.0.score: must be a list"),
        ("last_play.from", ["p6", "p0"], "last_play.from: must be a list of board location names"),
        ("message.locations", ["nowhere"], "message.locations"),
        ("status.phase", "dancing", "status.phase: must be one of idle, roll_off"),
        ("match.policy", "lenient", "match.policy: must be one of teaching, tournament, condone"),
        ("cube.dead", 0, "cube.dead: must be true or false"),
        ("position_id", None, "position_id: must be a string (got None)"),
    ],
)
def test_a_wrong_field_is_named_with_what_it_must_be(path: str, value: Any, words: str) -> None:
    with pytest.raises(SnapshotError, match=words.replace("(", r"\(").replace(")", r"\)")):
        check_snapshot(_with(path, value))


def test_optional_keys_may_be_left_out_and_extra_keys_are_let_through() -> None:
    state: dict[str, Any] = copy.deepcopy(dict(example_state()))
    del state["last_play"]["from"], state["message"]["locations"], state["match"]["id"]
    state["status"]["phase"] = "moving"
    state["lights"] = {}
    state["extra"] = "a newer table's field"
    check_snapshot(state)
    with pytest.raises(SnapshotError, match=r"state field last_play\.play is missing"):
        del state["last_play"]["play"]
        check_snapshot(state)


def test_a_part_is_checked_under_its_own_name() -> None:
    cube = {"value": 4, "owner": 1, "offered_by": None, "dead": False}
    assert check_snapshot(cube, CubeView, "cube") is cube
    with pytest.raises(SnapshotError, match=r"state field cube.owner: must be null, 0 or 1"):
        check_snapshot(cube | {"owner": True}, CubeView, "cube")
