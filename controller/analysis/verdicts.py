"""Verdicts: how much equity each decision gave away, and how the field would mark it.

Marks follow GNU Backgammon's default analysis thresholds on normalised equity lost per decision
(``set analysis threshold``): *doubtful* from 0.040, *error* (gnubg: "bad") from 0.080, *blunder*
(gnubg: "very bad") from 0.160. Other programs mark more strictly; pass your own
:class:`Thresholds` to change them.

Cube decisions are judged the way GNU Backgammon does: doubling is worth ``min(double/take,
double/pass[, double/beaver])`` to the doubler, because the opponent picks the answer that is best
for them; the doubler loses ``best - chosen``; the opponent, once doubled, loses the difference
between the answer they gave and the best answer, seen from their side.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from controller.analysis.board import Sides
from controller.analysis.engine import CubeEquities, RankedPlay, Response
from controller.analysis.errors import AnalysisInputError, UnknownPlayError

RESPONSES: Final[tuple[str, ...]] = ("take", "pass", "beaver")


class Skill(StrEnum):
    """How a decision is marked."""

    OK = "ok"
    DOUBTFUL = "doubtful"
    ERROR = "error"
    BLUNDER = "blunder"


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Equity lost (normalised) from which a decision is doubtful, an error, a blunder.

    Raises :class:`AnalysisInputError` unless ``0 < doubtful <= error <= blunder``.

    >>> Thresholds().classify(0.05)
    <Skill.DOUBTFUL: 'doubtful'>
    """

    doubtful: float = 0.04
    error: float = 0.08
    blunder: float = 0.16

    def __post_init__(self) -> None:
        if not 0 < self.doubtful <= self.error <= self.blunder:
            raise AnalysisInputError(
                f"thresholds must rise from above zero: doubtful {self.doubtful},"
                f" error {self.error}, blunder {self.blunder}"
            )

    def classify(self, loss: float) -> Skill:
        if loss >= self.blunder:
            return Skill.BLUNDER
        if loss >= self.error:
            return Skill.ERROR
        if loss >= self.doubtful:
            return Skill.DOUBTFUL
        return Skill.OK


GNUBG_THRESHOLDS: Final[Thresholds] = Thresholds()
#: A cube decision nobody doubled counts towards the error rate only when doubling was this close
#: (or when not doubling was itself a mistake): most turns offer no real cube decision.
CLOSE_CUBE: Final[float] = 0.16
# Equities from engines carry float noise; a loss smaller than this is no loss.
_EPSILON: Final[float] = 1e-6


def _loss(best: float, chosen: float) -> float:
    loss = best - chosen
    return loss if loss > _EPSILON else 0.0


@dataclass(frozen=True, slots=True)
class DecisionPlace:
    """Where a decision happened: game, move number, who decided, and the position."""

    game: int
    move: int
    player: int
    sides: Sides
    position_id: str = ""
    match_id: str = ""
    context_text: str = ""


@dataclass(frozen=True, slots=True)
class CubeVerdict:
    """A cube decision: the doubler's (``place.player``) choice and, after a double, the answer.

    ``doubler_loss`` is what the player on roll gave away by doubling or not; ``response_loss``
    what the opponent gave away by the answer (``None`` when there was no double).
    """

    place: DecisionPlace
    equities: CubeEquities
    doubled: bool
    response: Response | None
    proper_action: str
    proper_response: Response
    doubler_loss: float
    response_loss: float | None
    doubler_skill: Skill
    response_skill: Skill | None

    @property
    def responder(self) -> int:
        return 1 - self.place.player

    @property
    def is_close(self) -> bool:
        """Whether this was a real decision for the doubler (see :data:`CLOSE_CUBE`)."""
        return (
            self.doubled
            or self.doubler_loss > 0
            or abs(self.equities.no_double - self.equities.double) < CLOSE_CUBE
        )

    @property
    def action_text(self) -> str:
        """What the players did, in the field's words (``"no double"``, ``"double, take"``)."""
        if not self.doubled:
            return "no double"
        return f"double, {self.response}" if self.response else "double"


@dataclass(frozen=True, slots=True)
class PlayVerdict:
    """A checker play: the best play, the player's play, and the equity lost."""

    place: DecisionPlace
    dice: tuple[int, int]
    played: str
    played_equity: float
    best: str
    best_equity: float
    loss: float
    skill: Skill
    choices: int
    alternatives: tuple[RankedPlay, ...]

    @property
    def is_forced(self) -> bool:
        """Only one legal play (or none): nothing to decide."""
        return self.choices <= 1


def proper_response(equities: CubeEquities) -> Response:
    """The opponent's best answer to a double: the one worth least to the doubler."""
    return min(equities.answers(), key=lambda pair: pair[0])[1]


def proper_action(equities: CubeEquities) -> str:
    """The proper cube action in the field's words.

    >>> from controller.analysis.engine import CubeEquities
    >>> proper_action(CubeEquities(0.5, 0.7, 1.0, None, (0.7, 0.1, 0, 0.05, 0), "test"))
    'double, take'
    """
    answer = proper_response(equities)
    # On a tie GNU Backgammon doubles (when the game is as good as won, say): so do we.
    if equities.no_double > equities.double:
        return "too good, pass" if answer == "pass" else f"no double, {answer}"
    return f"double, {answer}"


def judge_cube(
    place: DecisionPlace,
    equities: CubeEquities,
    doubled: bool,
    response: Response | None,
    thresholds: Thresholds = GNUBG_THRESHOLDS,
) -> CubeVerdict:
    """Judge the doubler's choice and the opponent's answer.

    Raises :class:`AnalysisInputError` for an answer without a double, an unknown answer, or a
    beaver where beavers are not allowed.
    """
    if response is not None and response not in RESPONSES:
        raise AnalysisInputError(f"unknown answer to a double: {response!r}")
    if response is not None and not doubled:
        raise AnalysisInputError(f"{response!r} without a double at game {place.game}")
    if response == "beaver" and equities.double_beaver is None:
        raise AnalysisInputError(
            f"a beaver at game {place.game}, move {place.move}, where beavers are not allowed"
        )
    double = equities.double
    doubler_loss = _loss(equities.best, double if doubled else equities.no_double)
    response_loss: float | None = None
    if response is not None:
        chosen = {
            "take": equities.double_take,
            "pass": equities.double_pass,
            "beaver": equities.double_beaver,
        }[response]
        assert chosen is not None
        # Seen from the answering side, the best answer is worth -double and theirs -chosen.
        response_loss = _loss(chosen, double)
    return CubeVerdict(
        place=place,
        equities=equities,
        doubled=doubled,
        response=response,
        proper_action=proper_action(equities),
        proper_response=proper_response(equities),
        doubler_loss=doubler_loss,
        response_loss=response_loss,
        doubler_skill=thresholds.classify(doubler_loss),
        response_skill=None if response_loss is None else thresholds.classify(response_loss),
    )


def judge_play(
    place: DecisionPlace,
    dice: tuple[int, int],
    ranked: list[RankedPlay],
    played: Sides,
    played_notation: str = "",
    thresholds: Thresholds = GNUBG_THRESHOLDS,
    keep: int = 3,
) -> PlayVerdict:
    """Judge a checker play against the engine's ranking (best first).

    ``played`` is the position the player reached (mover's view). With no legal play the ranking
    is empty and ``played`` must be the position before. Raises :class:`UnknownPlayError` when the
    played position is not among the legal plays.
    """
    if not ranked:
        if played != place.sides:
            raise UnknownPlayError(
                f"game {place.game}, move {place.move}: {dice[0]}{dice[1]} cannot be played,"
                f" yet the position changed ({played_notation or 'no notation'})"
            )
        return PlayVerdict(place, dice, "", 0.0, "", 0.0, 0.0, Skill.OK, 0, ())
    for candidate in ranked:
        if candidate.result == played:
            mine = candidate
            break
    else:
        raise UnknownPlayError(
            f"game {place.game}, move {place.move}: the play {played_notation or '?'!s} with"
            f" {dice[0]}{dice[1]} is not among the {len(ranked)} legal plays"
        )
    best = ranked[0]
    loss = _loss(best.equity, mine.equity)
    return PlayVerdict(
        place=place,
        dice=dice,
        played=played_notation or mine.notation,
        played_equity=mine.equity,
        best=best.notation,
        best_equity=best.equity,
        loss=loss,
        skill=thresholds.classify(loss),
        choices=len(ranked),
        alternatives=tuple(ranked[:keep]),
    )
