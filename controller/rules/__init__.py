"""The rules engine: positions, dice, plays, legal-play generation, match and cube, variants.

Standard library only (a test proves it). Sides count from their own 1-point as in GNU Backgammon.

>>> from controller.rules import Position, legal_plays
>>> plays = legal_plays(Position.initial(), '31')
>>> len(plays), sorted(str(p[0]) for p in plays.values())[0]
(16, '13/10 6/5')
"""

from controller.rules.errors import (
    CubeActionError,
    DiceError,
    GameStateError,
    IllegalPlayError,
    MatchIdError,
    NotationError,
    PositionError,
    PositionIdError,
    RulesError,
    XgidError,
)
from controller.rules.explain import Explanation, explain_illegal
from controller.rules.game import (
    GameResult,
    Resignation,
    game_result,
    opening_roll,
    roll_off,
    score_game,
)
from controller.rules.ids import MatchInfo, Xgid
from controller.rules.match import (
    MatchState,
    MoneySession,
    Verdict,
    beaver,
    dead_cube_warning,
    finish_game,
    game_points,
    judge_beaver,
    judge_double,
    judge_pass,
    judge_redouble,
    judge_take,
    match_winner,
    offer_double,
    pass_double,
    take,
)
from controller.rules.movegen import LegalPlays, legal_plays, partial_positions
from controller.rules.position import (
    BAR_POINT,
    CHECKERS,
    OFF_POINT,
    Dice,
    Play,
    Position,
    Step,
    decode_position_id,
    encode_position_id,
)
from controller.rules.sheshbesh import SheshBeshAction, SheshBeshGame, SheshBeshSide, SheshBeshTurn

__all__ = [
    "BAR_POINT",
    "CHECKERS",
    "OFF_POINT",
    "CubeActionError",
    "Dice",
    "DiceError",
    "Explanation",
    "GameResult",
    "GameStateError",
    "IllegalPlayError",
    "LegalPlays",
    "MatchIdError",
    "MatchInfo",
    "MatchState",
    "MoneySession",
    "NotationError",
    "Play",
    "Position",
    "PositionError",
    "PositionIdError",
    "Resignation",
    "RulesError",
    "SheshBeshAction",
    "SheshBeshGame",
    "SheshBeshSide",
    "SheshBeshTurn",
    "Step",
    "Verdict",
    "Xgid",
    "XgidError",
    "beaver",
    "dead_cube_warning",
    "decode_position_id",
    "encode_position_id",
    "explain_illegal",
    "finish_game",
    "game_points",
    "game_result",
    "judge_beaver",
    "judge_double",
    "judge_pass",
    "judge_redouble",
    "judge_take",
    "legal_plays",
    "match_winner",
    "offer_double",
    "opening_roll",
    "partial_positions",
    "pass_double",
    "roll_off",
    "score_game",
    "take",
]
