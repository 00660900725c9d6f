"""Boards: GNU Backgammon's two sides to the engine's signed array and back, and drawings."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.analysis.board import (
    START,
    Sides,
    from_signed_board,
    pip_counts,
    sides_from,
    swap,
    to_signed_board,
)
from controller.analysis.drawing import to_svg, to_text
from controller.analysis.errors import AnalysisInputError
from controller.rules import Position
from tests.shared_data import ID_VECTORS

VECTORS = ID_VECTORS


def test_the_start_matches_the_engines_own_starting_board() -> None:
    # bgsage.STARTING_BOARD, written out so this runs without the extra.
    board = to_signed_board(START)
    assert board[:20] == [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5]
    assert board[20:] == [0, 0, 0, 0, 2, 0]


def test_bars_sit_at_the_ends_as_positive_counts() -> None:
    opponent = [0] * 25
    mover = [0] * 25
    opponent[24], mover[24] = 2, 1
    opponent[0] = 3  # the opponent's 1-point is the mover's 24-point
    mover[0] = 4
    board = to_signed_board((tuple(opponent), tuple(mover)))
    assert (board[0], board[25], board[24], board[1]) == (2, 1, -3, 4)


@st.composite
def positions(draw: st.DrawFn) -> Sides:
    mover = [0] * 25
    opponent = [0] * 25
    for _ in range(draw(st.integers(0, 15))):
        mover[draw(st.integers(0, 24))] += 1
    for _ in range(draw(st.integers(0, 15))):
        index = draw(st.integers(0, 24))
        if index == 24 or mover[23 - index] == 0:
            opponent[index] += 1
    return (tuple(opponent), tuple(mover))


@given(positions())
def test_signed_boards_round_trip_and_keep_every_checker(sides: Sides) -> None:
    board = to_signed_board(sides)
    assert from_signed_board(board) == sides
    assert sum(v for v in board[1:25] if v > 0) + board[25] == sum(sides[1])
    assert -sum(v for v in board[1:25] if v < 0) + board[0] == sum(sides[0])
    assert sides_from([list(sides[0]), list(sides[1])]) == sides


def test_the_rules_engine_and_the_analysis_agree_on_gnubg_boards() -> None:
    for vector in json.loads(VECTORS.read_text())["positions"]:
        sides = sides_from(vector["board"])
        position = Position(sides[1], sides[0])
        assert position.to_position_id() == vector["position_id"]
        assert from_signed_board(to_signed_board(sides)) == sides


BAD_BOARDS = [
    ([[0] * 25], "two sides"),
    ([[0] * 24, [0] * 25], "24 counts"),
    ([[0] * 25, [-1] + [0] * 24], "negative"),
    ([[0] * 25, [16] + [0] * 24], "over 15"),
    ([[1] + [0] * 24, [0] * 23 + [1, 0]], "both sides"),
]


@pytest.mark.parametrize(("board", "message"), BAD_BOARDS)
def test_impossible_boards_are_refused(board: list[list[int]], message: str) -> None:
    with pytest.raises(AnalysisInputError, match=message):
        sides_from(board)


def test_engine_boards_of_the_wrong_size_are_refused() -> None:
    with pytest.raises(AnalysisInputError, match="26 counts"):
        from_signed_board([0] * 25)


def test_pip_counts_and_swap() -> None:
    assert pip_counts(START) == (167, 167)
    position = Position.from_position_id("lLcBgDxmuyEFQA")
    sides: Sides = (position.opponent, position.mover)
    assert pip_counts(swap(sides)) == pip_counts(sides)[::-1]


def test_the_text_diagram_shows_every_checker() -> None:
    position = Position.from_position_id("lLcBgDxmuyEFQA")  # a checker of each side on the bar
    sides: Sides = (position.opponent, position.mover)
    text = to_text(sides)
    lines = text.splitlines()
    assert len(lines) == 14
    on_board_x = sum(sides[1])
    on_board_o = sum(sides[0])
    assert "".join(lines[1:13]).count("X") == on_board_x  # no stack above five here
    assert "".join(lines[1:13]).count("O") == on_board_o
    assert lines[-1].strip() == f"off: O {15 - on_board_o}, X {15 - on_board_x}"


def test_tall_stacks_show_their_count() -> None:
    mover = [0] * 25
    mover[5] = 9
    text = to_text(((0,) * 25, tuple(mover)))
    assert " 9" in text.splitlines()[7]  # the top row of the bottom half
    assert "".join(text.splitlines()[1:13]).count("X") == 4


def test_the_svg_draws_one_circle_per_visible_checker() -> None:
    svg = to_svg(START, "start")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    # 5 checkers drawn at most per point: 2+5+3+5 per side
    assert svg.count("<circle") == 30
    assert 'aria-label="start"' in svg
