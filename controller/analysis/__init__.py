"""The analysis service: judge every cube action and checker play of a match.

The engine sits behind the small :class:`Analyser` protocol; the one implementation runs on
bgsage, the optional ``sheshbesh[analysis]`` extra, imported only when an analyser is made. Without
it everything here still imports and :func:`make_analyser` raises
:class:`AnalysisNotInstalledError` ("analysis is not installed ...").

Typical use::

    source = turns_from_mat_text(Path("match.mat").read_text())
    analysis = analyse_turns(make_analyser("0ply"), source.turns, source.players, source.length)
    print(report.to_text(analysis))
"""

from __future__ import annotations

from controller.analysis.bgsage_engine import (
    DEFAULT_LEVEL,
    LEVELS,
    NOT_INSTALLED,
    BgsageAnalyser,
    availability,
    is_installed,
)
from controller.analysis.context import MatchContext, MoverView, crawford_flags
from controller.analysis.engine import Analyser, CubeEquities, RankedPlay
from controller.analysis.errors import (
    AnalysisError,
    AnalysisInputError,
    AnalysisNotInstalledError,
    UnknownPlayError,
)
from controller.analysis.match import MatchAnalysis, PlayerTotals, Turn, analyse_turn, analyse_turns
from controller.analysis.verdicts import (
    GNUBG_THRESHOLDS,
    CubeVerdict,
    PlayVerdict,
    Skill,
    Thresholds,
)
from controller.analysis.worker import AnalysisWorker

__all__ = [
    "DEFAULT_LEVEL",
    "GNUBG_THRESHOLDS",
    "LEVELS",
    "NOT_INSTALLED",
    "Analyser",
    "AnalysisError",
    "AnalysisInputError",
    "AnalysisNotInstalledError",
    "AnalysisWorker",
    "BgsageAnalyser",
    "CubeEquities",
    "CubeVerdict",
    "MatchAnalysis",
    "MatchContext",
    "MoverView",
    "PlayVerdict",
    "PlayerTotals",
    "RankedPlay",
    "Skill",
    "Thresholds",
    "Turn",
    "UnknownPlayError",
    "analyse_turn",
    "analyse_turns",
    "availability",
    "crawford_flags",
    "is_installed",
    "make_analyser",
]


def make_analyser(level: str = DEFAULT_LEVEL, threads: int = 1) -> Analyser:
    """The engine at ``level`` (``0ply``, ``1ply``, ``2ply``: GNU Backgammon's ply count).

    Raises :class:`AnalysisNotInstalledError` without the extra, :class:`AnalysisInputError` for an
    unknown level.
    """
    return BgsageAnalyser(level, threads)
