"""Analyse a match turn by turn: what the engine says about each decision, totals per player.

The input is a sequence of :class:`Turn` records (see :mod:`controller.analysis.source` for making
them from a ``.mat`` file or the record); the output a :class:`MatchAnalysis`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from controller.analysis.board import Sides
from controller.analysis.context import MatchContext
from controller.analysis.engine import Analyser, Response
from controller.analysis.errors import AnalysisInputError
from controller.analysis.verdicts import (
    GNUBG_THRESHOLDS,
    CubeVerdict,
    DecisionPlace,
    PlayVerdict,
    Skill,
    Thresholds,
    judge_cube,
    judge_play,
)

#: ``progress(done, total)`` after each turn.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as the record has it, seen from the player on roll (``player``).

    ``sides`` is the position before the roll (``(opponent, mover)``), ``context`` the match before
    any cube action this turn. ``may_double`` is false where the player had no cube decision the
    context cannot tell (the opening roll). A turn that ends in a pass has no ``dice``; a roll that
    could not be played has ``played == sides``.
    """

    game: int
    move: int
    player: int
    sides: Sides
    context: MatchContext
    may_double: bool = True
    doubled: bool = False
    response: Response | None = None
    dice: tuple[int, int] | None = None
    played: Sides | None = None
    played_notation: str = ""
    position_id: str = ""

    def __post_init__(self) -> None:
        if (self.dice is None) != (self.played is None):
            raise AnalysisInputError(
                f"game {self.game}, move {self.move}: dice and the position played come together"
            )
        if self.response == "pass" and self.dice is not None:
            raise AnalysisInputError(f"game {self.game}, move {self.move}: a roll after a pass")

    @property
    def play_context(self) -> MatchContext:
        """The match when the checkers move: after a take or beaver the cube has changed."""
        if self.response == "take":
            return self.context.after_take(1 - self.player)
        if self.response == "beaver":
            return self.context.after_take(1 - self.player).after_take(1 - self.player)
        return self.context

    def place(self, for_play: bool = False) -> DecisionPlace:
        """Where the cube decision (before the roll) or, ``for_play``, the checker play happened."""
        context = self.play_context if for_play else self.context
        return DecisionPlace(
            game=self.game,
            move=self.move,
            player=self.player,
            sides=self.sides,
            position_id=self.position_id,
            match_id=context.to_match_id(self.player, self.dice if for_play else None),
            context_text=describe_context(context, self.player),
        )


def describe_context(context: MatchContext, player: int) -> str:
    """A short description of the match for a report line, from ``player``'s side."""
    if context.is_money:
        rules = [
            name for name, on in (("Jacoby", context.jacoby), ("beavers", context.beavers)) if on
        ]
        text = "money" + (f" ({', '.join(rules)})" if rules else "")
    else:
        view = context.for_player(player)
        text = f"{view.away_self}-away/{view.away_opponent}-away"
        if context.crawford_game:
            text += ", Crawford"
        elif view.is_post_crawford:
            text += ", post-Crawford"
    owner = {None: "centred", player: "own", 1 - player: "opponent's"}[context.cube_owner]
    return f"{text}, cube {context.cube_value} {owner}"


@dataclass(slots=True)
class PlayerTotals:
    """One player's decisions, equity given away (normalised), and marks."""

    plays: int = 0
    unforced_plays: int = 0
    play_loss: float = 0.0
    cube_decisions: int = 0
    cube_loss: float = 0.0
    marks: dict[str, int] = field(
        default_factory=lambda: {skill.value: 0 for skill in Skill if skill is not Skill.OK}
    )

    @property
    def decisions(self) -> int:
        """Decisions that count towards the error rate: unforced plays and close cube decisions."""
        return self.unforced_plays + self.cube_decisions

    @property
    def total_loss(self) -> float:
        return self.play_loss + self.cube_loss

    @property
    def error_rate(self) -> float:
        """Thousandths of normalised equity lost per counted decision: GNU Backgammon's "error
        rate per move" in mEMG (equity in money-game terms, per unit cube in money play)."""
        return 1000 * self.total_loss / self.decisions if self.decisions else 0.0

    @property
    def play_error_rate(self) -> float:
        return 1000 * self.play_loss / self.unforced_plays if self.unforced_plays else 0.0

    @property
    def cube_error_rate(self) -> float:
        return 1000 * self.cube_loss / self.cube_decisions if self.cube_decisions else 0.0

    def mark(self, skill: Skill) -> None:
        if skill is not Skill.OK:
            self.marks[skill.value] += 1

    def to_dict(self) -> dict[str, object]:
        return {
            "plays": self.plays,
            "unforced_plays": self.unforced_plays,
            "play_loss": round(self.play_loss, 4),
            "cube_decisions": self.cube_decisions,
            "cube_loss": round(self.cube_loss, 4),
            "decisions": self.decisions,
            "total_loss": round(self.total_loss, 4),
            "error_rate": round(self.error_rate, 1),
            "play_error_rate": round(self.play_error_rate, 1),
            "cube_error_rate": round(self.cube_error_rate, 1),
            "marks": dict(self.marks),
        }


@dataclass(frozen=True, slots=True)
class Mistake:
    """One player's costly decision, for "the decisions that cost the most"."""

    player: int
    kind: str  # "play", "double" (the doubler's choice) or "response"
    loss: float
    skill: Skill
    verdict: CubeVerdict | PlayVerdict


@dataclass(slots=True)
class MatchAnalysis:
    """Every verdict of a match (or game) and what they add up to."""

    players: tuple[str, str]
    length: int
    engine: str
    thresholds: Thresholds = GNUBG_THRESHOLDS
    source: str = ""
    cube: list[CubeVerdict] = field(default_factory=list)
    plays: list[PlayVerdict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def totals(self) -> tuple[PlayerTotals, PlayerTotals]:
        result = (PlayerTotals(), PlayerTotals())
        for play in self.plays:
            totals = result[play.place.player]
            totals.plays += 1
            if not play.is_forced:
                totals.unforced_plays += 1
                totals.play_loss += play.loss
                totals.mark(play.skill)
        for cube in self.cube:
            if cube.is_close:
                doubler = result[cube.place.player]
                doubler.cube_decisions += 1
                doubler.cube_loss += cube.doubler_loss
                doubler.mark(cube.doubler_skill)
            if cube.response_loss is not None and cube.response_skill is not None:
                responder = result[cube.responder]
                responder.cube_decisions += 1
                responder.cube_loss += cube.response_loss
                responder.mark(cube.response_skill)
        return result

    def mistakes(self, limit: int | None = None, minimum: float = 0.0) -> list[Mistake]:
        """Decisions that lost more than ``minimum``, costliest first."""
        found: list[Mistake] = []
        for play in self.plays:
            if play.loss > minimum:
                found.append(Mistake(play.place.player, "play", play.loss, play.skill, play))
        for cube in self.cube:
            if cube.doubler_loss > minimum:
                found.append(
                    Mistake(
                        cube.place.player, "double", cube.doubler_loss, cube.doubler_skill, cube
                    )
                )
            if cube.response_loss is not None and cube.response_loss > minimum:
                assert cube.response_skill is not None
                found.append(
                    Mistake(
                        cube.responder, "response", cube.response_loss, cube.response_skill, cube
                    )
                )
        found.sort(key=lambda mistake: -mistake.loss)
        return found if limit is None else found[:limit]


def analyse_turn(
    analyser: Analyser, turn: Turn, thresholds: Thresholds = GNUBG_THRESHOLDS
) -> tuple[CubeVerdict | None, PlayVerdict | None]:
    """The cube verdict (if the player had a cube decision) and the play verdict (if they rolled).

    Raises :class:`AnalysisInputError` (or its leaf ``UnknownPlayError``) for a turn that does
    not fit the engine's idea of the legal plays.
    """
    cube: CubeVerdict | None = None
    view = turn.context.for_player(turn.player)
    if turn.may_double and view.may_double:
        equities = analyser.cube_equities(turn.sides, view)
        cube = judge_cube(turn.place(), equities, turn.doubled, turn.response, thresholds)
    play: PlayVerdict | None = None
    if turn.dice is not None and turn.played is not None:
        play_view = turn.play_context.for_player(turn.player)
        ranked = analyser.ranked_plays(turn.sides, turn.dice, play_view, played=turn.played)
        play = judge_play(
            turn.place(for_play=True),
            turn.dice,
            ranked,
            turn.played,
            turn.played_notation,
            thresholds,
        )
    return cube, play


#: Judges one turn: the cube verdict (if any) and the play verdict (if any).
Judge = Callable[[Turn], tuple[CubeVerdict | None, PlayVerdict | None]]


def analyse_turns(
    analyser: Analyser,
    turns: Sequence[Turn],
    players: tuple[str, str] = ("White", "Black"),
    length: int = 0,
    thresholds: Thresholds = GNUBG_THRESHOLDS,
    progress: Progress | None = None,
    source: str = "",
) -> MatchAnalysis:
    """Analyse every turn in order; ``progress(done, total)`` is called after each.

    A double the engine cannot judge (one with a dead cube, say) is skipped with a note rather
    than ending the analysis.
    """

    def judge(turn: Turn) -> tuple[CubeVerdict | None, PlayVerdict | None]:
        return analyse_turn(analyser, turn, thresholds)

    analysis = MatchAnalysis(players, length, analyser.name, thresholds, source)
    return collect_verdicts(analysis, judge, turns, progress)


def collect_verdicts(
    analysis: MatchAnalysis,
    judge: Judge,
    turns: Sequence[Turn],
    progress: Progress | None = None,
) -> MatchAnalysis:
    """Run ``judge`` on each turn in order and gather the verdicts into ``analysis``."""
    total = len(turns)
    for done, turn in enumerate(turns, start=1):
        if turn.doubled and not (
            turn.may_double and turn.context.for_player(turn.player).may_double
        ):
            analysis.notes.append(
                f"game {turn.game}, move {turn.move}: a double the engine cannot judge"
                f" ({describe_context(turn.context, turn.player)})"
            )
        cube, play = judge(turn)
        if cube is not None:
            analysis.cube.append(cube)
        if play is not None:
            analysis.plays.append(play)
        if progress is not None:
            progress(done, total)
    return analysis
