"""Reading a board from vision's counts: plausible boards, confident corrections, plain mismatches."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from referee_testkit import observe

from controller.referee import Board, Mismatch, read_board
from controller.referee.turn import board_of
from controller.rules import Dice, Position, legal_plays

START = Position.initial()


def _random_positions(count: int, seed: int) -> list[Position]:
    """Positions from random games (each side plays a random legal play in turn)."""
    rng = random.Random(seed)
    positions = []
    position = START
    while len(positions) < count:
        plays = legal_plays(position, Dice(rng.randint(1, 6), rng.randint(1, 6)))
        position = rng.choice(list(plays)).swap()
        positions.append(position)
        if position.off(0) == 15 or position.off(1) == 15:
            position = START
    return positions


POSITIONS = _random_positions(120, seed=5)


def test_a_clean_reading_is_the_board() -> None:
    board = read_board(observe(START))
    assert board == board_of(START)
    assert isinstance(board, Board) and board.off == (0, 0)


def test_mismatches_say_what_is_wrong_in_plain_words() -> None:
    counts = board_of(START).counts()
    counts["p6"] = (5, 1)
    counts["p1"] = (0, 1)
    both = read_board(observe(START, counts=counts))
    assert isinstance(both, Mismatch)
    assert both.reason.startswith("p6 shows White and Black checkers together")
    counts = board_of(START).counts()
    counts["off-white"] = (0, 1)
    counts["p1"] = (0, 1)
    tray = read_board(observe(START, counts=counts))
    assert isinstance(tray, Mismatch) and "Black checker lies in White's tray" in tray.reason
    counts = board_of(START).counts()
    counts["p13"] = (7, 0)
    extra = read_board(observe(START, counts=counts))
    assert isinstance(extra, Mismatch)
    assert "White has 17 checkers on the board, bar and trays: 2 too many seen" in extra.reason


def test_an_unsure_count_is_corrected_only_towards_a_plausible_board() -> None:
    counts = board_of(START).counts()
    counts["p8"] = (2, 0)
    corrected = read_board(observe(START, counts=counts, confidence={"p8": (0.6, 0.99)}))
    assert corrected == board_of(START)
    # Sure of every count: the same reading is a mismatch, never a guess.
    unsure_nowhere = read_board(observe(START, counts=counts))
    assert (
        isinstance(unsure_nowhere, Mismatch)
        and "one is missing or misread" in unsure_nowhere.reason
    )


def test_equally_likely_corrections_are_settled_by_what_the_rules_expect() -> None:
    counts = board_of(START).counts()
    counts["p8"] = (2, 0)
    unsure = {"p8": (0.6, 0.99), "p7": (0.6, 0.99)}
    ambiguous = read_board(observe(START, counts=counts, confidence=unsure))
    assert isinstance(ambiguous, Mismatch) and "more than one way" in ambiguous.reason
    expected = board_of(START)
    settled = read_board(
        observe(START, counts=counts, confidence=unsure), is_expected=lambda b: b == expected
    )
    assert settled == expected


@settings(max_examples=60, deadline=None)
@given(
    index=st.integers(0, len(POSITIONS) - 1),
    location=st.integers(0, 27),
    colour=st.integers(0, 1),
    change=st.sampled_from((-1, 1)),
)
def test_one_unsure_miscount_reads_back_as_the_true_board(
    index: int, location: int, colour: int, change: int
) -> None:
    position = POSITIONS[index]
    truth = board_of(position)
    counts = truth.counts()
    name = list(counts)[location]
    pair = list(counts[name])
    if pair[colour] + change < 0:
        return
    pair[colour] += change
    counts[name] = (pair[0], pair[1])
    sure = [0.99, 0.99]
    sure[colour] = 0.6
    reading = read_board(observe(position, counts=counts, confidence={name: (sure[0], sure[1])}))
    assert reading == truth
