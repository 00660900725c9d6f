"""The analysis engine on bgsage (the optional ``sheshbesh[analysis]`` extra).

bgsage is imported only when an analyser is made, so everything else works without it; then
:class:`AnalysisNotInstalledError` says so.

Levels are named as GNU Backgammon counts plies, the project's reference: ``0ply`` is the neural
network alone, ``1ply`` looks one roll ahead, ``2ply`` two. bgsage counts one more (its ``1ply`` is
the bare network), so ``0ply`` here runs bgsage's ``1ply``.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any, Final

from controller.analysis.board import Sides, from_signed_board, to_signed_board
from controller.analysis.context import MoverView
from controller.analysis.engine import CubeEquities, RankedPlay
from controller.analysis.errors import AnalysisInputError, AnalysisNotInstalledError

#: Our level name (GNU Backgammon's ply count) -> bgsage's ``eval_level``.
LEVELS: Final[dict[str, str]] = {"0ply": "1ply", "1ply": "2ply", "2ply": "3ply"}
DEFAULT_LEVEL: Final[str] = "0ply"
NOT_INSTALLED: Final[str] = (
    "analysis is not installed: install the sheshbesh[analysis] extra (the bgsage engine)"
)


def is_installed() -> bool:
    """Whether the bgsage engine can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("bgsage") is not None
    except (ImportError, ValueError):
        return False


def availability() -> str:
    """A word for the panel's status line: ``"available"`` or ``"not installed"``."""
    return "available" if is_installed() else "not installed"


def _import(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise AnalysisNotInstalledError(f"{NOT_INSTALLED} ({error})") from error


class BgsageAnalyser:
    """Judges cube decisions and checker plays with bgsage.

    Raises :class:`AnalysisNotInstalledError` when bgsage is missing and
    :class:`AnalysisInputError` for an unknown level. Example::

        analyser = BgsageAnalyser("0ply")
        equities = analyser.cube_equities(START, MatchContext(7, (4, 2)).for_player(0))
        equities.no_double, equities.double_take  # about +0.03 and -0.50: no double, take
    """

    def __init__(self, level: str = DEFAULT_LEVEL, threads: int = 1) -> None:
        if level not in LEVELS:
            raise AnalysisInputError(
                f"unknown analysis level {level!r}: choose one of {', '.join(LEVELS)}"
            )
        if threads < 1:
            raise AnalysisInputError(f"threads must be at least 1, got {threads}")
        bgsage = _import("bgsage")
        self._notation: Any = _import("bgsage.text_export").compute_move_notation
        self.level = level
        self._engine: Any = bgsage.BgBotAnalyzer(eval_level=LEVELS[level], parallel_threads=threads)

    @property
    def name(self) -> str:
        return f"bgsage {self.level}"

    @staticmethod
    def _match_arguments(view: MoverView) -> dict[str, Any]:
        return {
            "away1": view.away_self,
            "away2": view.away_opponent,
            "is_crawford": view.is_crawford,
            "jacoby": view.jacoby,
            "beaver": view.beaver,
        }

    def cube_equities(self, sides: Sides, view: MoverView) -> CubeEquities:
        result = self._engine.cube_action(
            to_signed_board(sides), view.cube_value, view.cube_owner, **self._match_arguments(view)
        )
        take = float(result.equity_dt)
        beaver: float | None = None
        if view.beaver:
            # bgsage reports double/beaver in place of double/take when the beaver is right.
            # Money equities scale with the cube, so a beaver (cube twice as high, still on the
            # taker's side) is worth exactly twice the take to either side.
            if result.is_beaver:
                beaver, take = take, take / 2
            else:
                beaver = take * 2
        probabilities = tuple(float(p) for p in result.probs.to_list())
        return CubeEquities(
            no_double=float(result.equity_nd),
            double_take=take,
            double_pass=float(result.equity_dp),
            double_beaver=beaver,
            probabilities=(
                probabilities[0],
                probabilities[1],
                probabilities[2],
                probabilities[3],
                probabilities[4],
            ),
            level=self.name,
        )

    def ranked_plays(
        self, sides: Sides, dice: tuple[int, int], view: MoverView, played: Sides | None = None
    ) -> list[RankedPlay]:
        before = to_signed_board(sides)
        force = [to_signed_board(played)] if played is not None else None
        result = self._engine.checker_play(
            before,
            dice[0],
            dice[1],
            view.cube_value,
            view.cube_owner,
            force_boards=force,
            **self._match_arguments(view),
        )
        return [
            RankedPlay(
                result=from_signed_board(move.board),
                notation=str(self._notation(before, list(move.board), dice[0], dice[1])),
                equity=float(move.equity),
            )
            for move in result.moves
        ]
