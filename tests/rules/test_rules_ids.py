"""Position ID, Match ID and XGID: gnubg's vectors, round trips, and bad input."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rules_testkit import random_game_positions

from controller.rules import (
    MatchIdError,
    MatchInfo,
    Position,
    PositionError,
    PositionIdError,
    Xgid,
    XgidError,
)
from tests.shared_data import ID_VECTORS

VECTORS = json.loads(ID_VECTORS.read_text())


@pytest.mark.parametrize("vector", VECTORS["positions"], ids=lambda v: v["position_id"])
def test_position_ids_match_gnubg_vectors(vector: dict[str, object]) -> None:
    position = Position.from_gnubg_board(vector["board"])  # type: ignore[arg-type]
    assert position.to_position_id() == vector["position_id"]
    assert Position.from_position_id(str(vector["position_id"])) == position
    assert position.to_gnubg_board() == vector["board"]


def _match_info(vector: dict[str, object]) -> MatchInfo:
    owner = int(vector["cube_owner"])  # type: ignore[call-overload]
    return MatchInfo(
        cube_value=int(vector["cube_value"]),  # type: ignore[call-overload]
        cube_owner=None if owner < 0 else owner,
        player_on_roll=int(vector["on_move"]),  # type: ignore[call-overload]
        crawford=bool(vector["crawford"]),
        game_state=int(vector["game_state"]),  # type: ignore[call-overload]
        turn=int(vector["turn"]),  # type: ignore[call-overload]
        doubled=bool(vector["doubled"]),
        resigned=int(vector["resigned"]),  # type: ignore[call-overload]
        dice=tuple(vector["dice"]),  # type: ignore[arg-type]
        match_length=int(vector["match_length"]),  # type: ignore[call-overload]
        score=tuple(vector["score"]),  # type: ignore[arg-type]
        jacoby=bool(vector["jacoby"]),
    )


@pytest.mark.parametrize("vector", VECTORS["matches"], ids=lambda v: v["match_id"])
def test_match_ids_match_gnubg_vectors(vector: dict[str, object]) -> None:
    info = _match_info(vector)
    assert info.to_match_id() == vector["match_id"]
    decoded = MatchInfo.from_match_id(str(vector["match_id"]))
    # A reader ignores the bits above 65, so the Jacoby flag is not read back.
    assert decoded == replace(info, jacoby=False)


def test_match_id_writes_the_higher_die_first() -> None:
    assert (
        MatchInfo(dice=(2, 5), match_length=5).to_match_id()
        == MatchInfo(dice=(5, 2), match_length=5).to_match_id()
    )
    assert MatchInfo.from_match_id(MatchInfo(dice=(2, 5)).to_match_id()).dice == (5, 2)


@pytest.mark.gnubg
def test_position_ids_equal_gnubg_on_random_games() -> None:
    gnubg = pytest.importorskip(
        "gnubg", reason="gnubg is the reference for Position IDs (pip install gnubg, x86-64)"
    )
    checked = 0
    for position in random_game_positions(seed=21, games=10):
        board = (position.opponent, position.mover)
        assert gnubg.positionid(board) == position.to_position_id()
        checked += 1
    assert checked > 300


@given(
    st.lists(st.integers(0, 3), min_size=24, max_size=24),
    st.lists(st.integers(0, 3), min_size=24, max_size=24),
    st.integers(0, 2),
    st.integers(0, 2),
    st.integers(0, 1),
)
def test_position_id_round_trips(
    mover_points: list[int],
    opponent_points: list[int],
    mover_bar: int,
    opponent_bar: int,
    turn: int,
) -> None:
    mover = [0] * 25
    opponent = [0] * 25
    for index in range(24):
        if sum(mover) + mover_points[index] <= 15 - mover_bar:
            mover[index] = mover_points[index]
        if not mover[index] and sum(opponent) + opponent_points[23 - index] <= 15 - opponent_bar:
            opponent[23 - index] = opponent_points[23 - index]
    mover[24] = mover_bar
    opponent[24] = opponent_bar
    position = Position(mover, opponent, turn)
    assert Position.from_position_id(position.to_position_id(), turn) == position
    assert eval(repr(position), {"Position": Position}) == position  # repr pastes back in
    assert Position.from_gnubg_board(position.to_gnubg_board(), turn) == position
    white, black = position.by_player()
    assert Position.from_players(white, black, turn) == position
    assert position.swap().swap() == position


@given(
    st.sampled_from([1, 2, 4, 8, 16, 64]),
    st.sampled_from([None, 0, 1]),
    st.integers(0, 1),
    st.booleans(),
    st.integers(0, 4),
    st.integers(0, 1),
    st.booleans(),
    st.integers(0, 3),
    st.sampled_from([(0, 0), (6, 6), (5, 2), (1, 1)]),
    st.integers(0, 25),
    st.tuples(st.integers(0, 30), st.integers(0, 30)),
)
def test_match_id_round_trips(
    cube: int,
    owner: int | None,
    on_roll: int,
    crawford: bool,
    state: int,
    turn: int,
    doubled: bool,
    resigned: int,
    dice: tuple[int, int],
    length: int,
    score: tuple[int, int],
) -> None:
    info = MatchInfo(
        cube, owner, on_roll, crawford, state, turn, doubled, resigned, dice, length, score
    )
    text = info.to_match_id()
    assert len(text) == 12
    assert MatchInfo.from_match_id(text) == info


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("4HPwATDgc/AB", "14 characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("//////////////", "ends before"),
    ],
)
def test_bad_position_ids_are_named(text: str, fragment: str) -> None:
    with pytest.raises(PositionIdError, match=fragment) as raised:
        Position.from_position_id(text)
    assert repr(text) in str(raised.value)


def test_position_validation_names_the_problem() -> None:
    with pytest.raises(PositionError, match="more than 15"):
        Position([16] + [0] * 24, [0] * 25)
    with pytest.raises(PositionError, match="negative"):
        Position([-1] + [0] * 24, [0] * 25)
    with pytest.raises(PositionError, match="held by both"):
        Position([1] + [0] * 24, [0] * 23 + [1, 0])
    with pytest.raises(PositionError, match="25 counts"):
        Position([0] * 24, [0] * 25)
    with pytest.raises(PositionError, match="turn"):
        Position([0] * 25, [0] * 25, turn=2)


def test_bad_match_ids_are_named() -> None:
    with pytest.raises(MatchIdError, match="12 base64"):
        MatchInfo.from_match_id("short")
    with pytest.raises(MatchIdError, match="base64"):
        MatchInfo.from_match_id("MAHgAAAAAA!E")
    with pytest.raises(MatchIdError, match="power of two"):
        MatchInfo(cube_value=3)


def test_xgid_round_trip_and_fields() -> None:
    start = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    xgid = Xgid.from_xgid(start)
    assert xgid.position == Position.initial(turn=0)
    assert xgid.to_xgid() == start
    match_text = "XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8"
    parsed = Xgid.from_xgid(match_text)
    assert parsed.position.turn == 1
    assert parsed.match.cube_value == 2 and parsed.match.cube_owner == 0
    assert parsed.match.dice == (6, 3) and parsed.match.match_length == 3
    assert parsed.to_xgid() == match_text
    white, black = parsed.position.by_player()
    assert sum(white) == 15 and white[2] == 2  # 'B' on White's 3-point
    assert black[23] == 1  # 'a' at index 1: Black's 24-point
    offered = Xgid.from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:3:0:10")
    assert (
        offered.match.doubled
        and offered.match.turn == 1
        and offered.beavers
        and offered.match.jacoby
    )


@pytest.mark.parametrize(
    "text",
    [
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:5:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10",
    ],
)
def test_bad_xgids_are_named(text: str) -> None:
    with pytest.raises(XgidError) as raised:
        Xgid.from_xgid(text)
    assert repr(text) in str(raised.value)


def test_match_state_gives_gnubg_match_ids() -> None:
    from controller.rules import MatchState

    owned = MatchState(length=7, score=(2, 4), cube_value=2, cube_owner=1, jacoby=False)
    assert owned.to_match_info(0, (3, 1)).to_match_id() == "EYHlACAAIAAE"
    crawford = MatchState(
        length=5, score=(4, 2), is_crawford_game=True, crawford_done=True, jacoby=False
    )
    assert crawford.to_match_info(0, (4, 2)).to_match_id() == "sAGqAEAAEAAE"
    assert MatchState.new_money().to_match_info(0, (2, 1)).to_match_id() == "MAEFAAAAAAAA"
    offered = MatchState(length=7, score=(1, 1), offered_by=1, jacoby=False).to_match_info(1)
    assert offered.doubled and offered.turn == 0 and offered.player_on_roll == 1
