"""The bare board's picture brought to a frame's light, band by band down each column."""

from __future__ import annotations

import numpy as np
import pytest

from vision.field_board import COLUMN_CELLS, LIGHT_BANDS, _middles, _relit

ROWS = 30


def _board(seed: int) -> np.ndarray:
    """A bare board's picture: 13 columns (the bar last) of ROWS x COLUMN_CELLS Lab cells."""
    return np.random.default_rng(seed).uniform(40, 220, (13, ROWS, COLUMN_CELLS, 3))


@pytest.mark.parametrize("seed", range(5))
def test_middles_are_numpy_s_medians_of_the_rows_not_left_out(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.normal(0, 10, (9, 7, 3))
    left_out = rng.random((9, 7)) < 0.4
    left_out[0] = True  # a row of places with nothing in it
    values[left_out] = np.nan
    middles, seen = _middles(values)
    for row in range(len(values)):
        kept = values[row][~left_out[row]]
        assert seen[row] == len(kept)
        if len(kept):
            assert np.array_equal(middles[row], np.median(kept, axis=0))


def test_one_light_over_the_whole_board_shifts_every_cell_alike() -> None:
    board = _board(1)
    shift = np.array([12.0, -3.0, 5.0])
    hidden = np.zeros(board.shape[:3], bool)
    hidden[4, 10:20] = True  # checkers over part of a column
    assert np.allclose(_relit(board + shift, board, hidden), board + shift)


def test_a_sleeve_over_one_column_is_no_change_of_light() -> None:
    board = _board(2)
    frame = board + np.array([10.0, 0.0, 0.0])
    frame[5] += np.array([60.0, 30.0, -20.0])  # something over the whole of column 5
    relit = _relit(frame, board, np.zeros(board.shape[:3], bool))
    # its neighbours outvote it: every column keeps the board's own light
    assert np.allclose(relit, board + np.array([10.0, 0.0, 0.0]))


def test_a_lamp_at_one_end_lights_that_end_s_bands_alone() -> None:
    board = _board(3)
    frame = board.copy()
    lit_rows = ROWS // LIGHT_BANDS  # the first band of every column
    frame[:, :lit_rows] += np.array([25.0, 0.0, 8.0])
    relit = _relit(frame, board, np.zeros(board.shape[:3], bool))
    assert np.allclose(relit[:, :lit_rows], board[:, :lit_rows] + np.array([25.0, 0.0, 8.0]))
    assert np.allclose(relit[:, lit_rows:], board[:, lit_rows:])


def test_a_column_hidden_all_over_takes_its_neighbours_light() -> None:
    board = _board(4)
    shift = np.array([-15.0, 2.0, 2.0])
    hidden = np.zeros(board.shape[:3], bool)
    hidden[3] = True  # a column full of checkers: nothing of its own to go by
    frame = board + shift
    frame[3] += 80.0  # what lies over it says nothing of the light
    assert np.allclose(_relit(frame, board, hidden)[3], board[3] + shift)
