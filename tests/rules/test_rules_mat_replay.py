"""Replay GNU Backgammon's own matches through the engine: every play, cube action and score.

The .mat files in ``shared/data/matches`` were written by gnubg playing itself. Every play must parse
as legal notation, every cube action must be allowed by our judges, every game must end with the
points gnubg wrote, and each game must start at the score gnubg shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.rules import (
    Dice,
    MatchState,
    Play,
    Position,
    finish_game,
    game_result,
    judge_double,
    judge_pass,
    judge_take,
    match_winner,
    offer_double,
    pass_double,
    score_game,
    take,
)
from tests.shared_data import MATCHES_DIR

MATCHES = MATCHES_DIR
ACTION = re.compile(
    r"(?P<dice>[1-6]{2}):(?P<play>(?:\s+(?:bar|\d+)/\S+)*)"
    r"|Doubles => (?P<cube>\d+)|(?P<take>Takes)|(?P<drop>Drops)|Wins (?P<wins>\d+) points?"
)
MOVE_LINE = re.compile(r"^\s*\d+\)(?P<rest>.*)$")


def _actions(rest: str) -> list[tuple[int, re.Match[str]]]:
    """(player, action) pairs of one numbered line: left column White (0), right column Black (1)."""
    found = list(ACTION.finditer(rest))
    left_empty = rest[: min(20, len(rest))].strip() == ""
    first = 1 if left_empty else 0
    return [(first + index, match) for index, match in enumerate(found)]


def replay(path: Path) -> tuple[MatchState, int]:
    lines = path.read_text().splitlines()
    length = int(next(line for line in lines if "point match" in line).split()[0])
    state = MatchState.new_match(length)
    position = Position.initial()
    plays = 0
    game_over = True
    for number, line in enumerate(lines, 1):
        where = f"{path.name}:{number}: {line.strip()!r}"
        header = re.match(r"^\s*\S+ : (\d+)\s+\S+ : (\d+)", line)
        if header:
            assert game_over, where
            assert state.score == (int(header.group(1)), int(header.group(2))), where
            game_over = False
            position = Position.initial()
            continue
        move = MOVE_LINE.match(line)
        if move:
            pairs = _actions(move.group("rest"))
        elif line.strip().startswith("Wins"):
            winner = 0 if len(line) - len(line.lstrip()) < 20 else 1
            pairs = [(winner, next(ACTION.finditer(line)))]
        else:
            continue
        for player, action in pairs:
            if action.group("dice"):
                if position.turn != player:
                    position = position.swap()
                dice = Dice(int(action.group("dice")[0]), int(action.group("dice")[1]))
                play = Play.from_notation(action.group("play").strip(), position, dice)
                position = position.apply(play)
                plays += 1
            elif action.group("cube"):
                assert judge_double(state, player, player_on_roll=player).allowed, where
                state = offer_double(state, player, player_on_roll=player)
                assert state.cube_value * 2 == int(action.group("cube")), where
            elif action.group("take"):
                assert judge_take(state, player).allowed, where
                state = take(state, player)
            elif action.group("drop"):
                assert judge_pass(state, player).allowed, where
                state, winner, points = pass_double(state, player)
                game_over = True
            elif action.group("wins"):
                points = int(action.group("wins"))
                if game_over:  # after a drop: the pass already scored it
                    assert state.history[-1] == (player, points), where
                    continue
                result = game_result(position)
                if result is None:  # ended by a resignation
                    state = finish_game(state, player, points)
                else:
                    state, result, scored = score_game(state, position)
                    assert (result.winner, scored) == (player, points), where
                game_over = True
    return state, plays


@pytest.mark.parametrize("path", sorted(MATCHES.glob("*.mat")), ids=lambda p: p.name)
def test_gnubg_matches_replay(path: Path) -> None:
    state, plays = replay(path)
    assert plays > 10
    assert match_winner(state) is not None, f"{path.name}: nobody reached {state.length}"
