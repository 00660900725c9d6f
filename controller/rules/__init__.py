"""The rules engine: positions, dice, plays, legal-play generation, match and cube, variants.

Standard library only (a test proves it). Sides count from their own 1-point as in GNU Backgammon;
``Position.mover`` is the side on roll and ``Position.turn`` says which player (0 White, 1 Black)
that is. Where things live:

* :mod:`~controller.rules.position` -- ``Position``, ``Dice``, ``Step``, ``Play``, Position ID.
* :mod:`~controller.rules.movegen` -- ``legal_plays`` (a mapping result -> plays) and
  ``partial_positions`` (every board on the way through a legal play).
* :mod:`~controller.rules.notation` -- ``24/18 13/10*`` both ways (``Play.from_notation``).
* :mod:`~controller.rules.explain` -- ``explain_illegal``: why a result is not legal, in words.
* :mod:`~controller.rules.ids` -- Match ID (``MatchInfo``) and XGID (``Xgid``).
* :mod:`~controller.rules.match` -- ``MatchState``, cube verdicts, scoring, Crawford, money.
* :mod:`~controller.rules.game` -- roll-off, ``game_result``, resignations, ``Game`` turn by turn.
* :mod:`~controller.rules.sheshbesh` -- the Arabic Shesh Besh variant and historical options.

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
    Game,
    GameResult,
    Resignation,
    game_result,
    opening_roll,
    roll_off,
    score_game,
)
from controller.rules.ids import MatchInfo, Xgid
from controller.rules.match import (
    KIND_NAMES,
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
    "KIND_NAMES",
    "OFF_POINT",
    "CubeActionError",
    "Dice",
    "DiceError",
    "Explanation",
    "Game",
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
