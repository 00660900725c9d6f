"""The referee's questions to the rules engine, in the shapes the referee needs them.

Every rules judgement (why a play is illegal, who may double, take or beaver, how a game scores,
Crawford, the Match ID) is the engine's (:mod:`controller.rules`); this module only translates:
the referee's state to the engine's :class:`MatchState`, points to board locations, results to
event data.
"""

from __future__ import annotations

from controller.lights.scene import mover_location
from controller.rules.explain import explain_illegal
from controller.rules.game import Resignation, game_result
from controller.rules.match import (
    KIND_NAMES,
    MatchState,
    Verdict,
    dead_cube_warning,
    finish_game,
    game_points,
    judge_beaver,
    judge_double,
    judge_pass,
    judge_take,
)
from controller.rules.position import Dice, Position

__all__ = [
    "KIND_NAMES",
    "MatchState",
    "Verdict",
    "change_notation",
    "cube_is_dead",
    "explain_illegal_play",
    "finished_game",
    "judge_beaver",
    "judge_double",
    "judge_pass",
    "judge_take",
    "match_id_of",
    "next_game_is_crawford",
    "resignation_points",
]


def explain_illegal_play(
    position: Position, dice: tuple[int, int], result: Position
) -> tuple[str, list[str]]:
    """Why ``result`` is no legal play of ``dice`` from ``position``, and the locations to light."""
    explanation = explain_illegal(position, Dice(dice[0], dice[1]), result)
    text = explanation.text
    text = text[0].upper() + text[1:] if text else "That is not a legal play"
    return text, [mover_location(point, position.turn) for point in explanation.points]


def finished_game(position: Position, state: MatchState) -> tuple[int, int, str] | None:
    """(winner, points, kind name) once a side has borne off all 15; None while the game goes on."""
    result = game_result(position)
    if result is None:
        return None
    return result.winner, game_points(state, result.kind), result.kind_name


def resignation_points(player: int, level: int, state: MatchState) -> int:
    """What the opponent scores when ``player``'s resignation of ``level`` (1..3) is accepted."""
    return Resignation(player, level).points(state)


def next_game_is_crawford(state: MatchState, winner: int, points: int) -> bool:
    """Whether the game after one won by ``winner`` for ``points`` is the Crawford game."""
    return finish_game(state, winner, points).is_crawford_game


def cube_is_dead(state: MatchState) -> bool:
    """True in match play when turning the cube can no longer change the match for either side."""
    return any(dead_cube_warning(state, player) for player in (0, 1))


def match_id_of(
    state: MatchState,
    player_on_roll: int,
    dice: tuple[int, int] | None,
    resigned: int = 0,
    resigner: int | None = None,
) -> str:
    """GNU Backgammon's Match ID for this moment (the player to act's view, as gnubg gives it).

    The fields come from :meth:`MatchState.to_match_info`, the one builder; ``resigned`` is the
    level of a pending resignation (0 for none) and ``resigner`` who offered it (by default the
    player who was to act).

    >>> match_id_of(MatchState.new_match(7), 0, (3, 1))
    'MIHlAAAAAAAE'
    >>> match_id_of(MatchState.new_match(7), 0, (3, 1), resigned=1)
    'MKnlAAAAAAAE'
    """
    info = state.to_match_info(player_on_roll, dice or (0, 0), resigned=resigned, resigner=resigner)
    return info.to_match_id()


def change_notation(before: Position, after: Position) -> str:
    """Notation for what the mover did between two boards, legal or not (``13/7 8/7*``).

    Sources and destinations are paired from the back of the board forward; a destination where an
    opposing blot went to the bar is marked ``*``. Used for a condoned illegal play, which the record
    keeps as it was played.

    >>> start = Position.initial()
    >>> after = Position.from_players([0] * 4 + [2, 4] + [0, 2] + [0] * 4 + [5] + [0] * 10 + [2, 0],
    ...                               start.side(1), 0)
    >>> change_notation(start, after)
    '8/5 6/5'
    """
    sources: list[int] = []
    destinations: list[int] = []
    for index in range(25):
        point = 25 if index == 24 else index + 1
        change = after.mover[index] - before.mover[index]
        if change < 0:
            sources.extend([point] * -change)
        elif change > 0:
            destinations.extend([point] * change)
    destinations.extend([0] * (sum(before.mover) - sum(after.mover)))
    sources.sort(reverse=True)
    destinations.sort(reverse=True)
    hit = after.opponent[24] > before.opponent[24]
    hit_points = {
        24 - index for index in range(24) if hit and after.opponent[index] < before.opponent[index]
    }
    words = []
    for source, destination in zip(sources, destinations, strict=False):
        star = "*" if destination in hit_points else ""
        hit_points.discard(destination)
        words.append(f"{_text(source)}/{_text(destination)}{star}")
    return " ".join(words)


def _text(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)
