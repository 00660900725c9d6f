"""The variants the referee follows, one class each, behind one small protocol.

In the style of python-chess's variant boards: the referee is written once, and where the rules
of a variant differ it asks the variant's class (chosen once, from ``MatchSettings.variant``, when
``match_started`` is folded). Flags say what a variant leaves out (the cube, the illegal-play
policies) and which way the camera's counts are judged; methods answer the rules' questions: the
position after the roll-off, a recorded play applied, what the camera should see, the one outcome
of a roll where there is only one, the end of a game, why a play is illegal, and the lights that
guide a move.

Every method is pure: the variant answers, the referee records (:mod:`.referee`) and folds
(:mod:`.fold`). :class:`SheshBesh` is :class:`Backgammon` where no Shesh Besh game is set up yet
(before the roll-off), as the standard board is the base of python-chess's variants.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar, Final, Protocol

from controller.lights.scene import mover_location
from controller.referee.judge import MatchState, explain_illegal_play, finished_game
from controller.referee.reading import Board
from controller.referee.state import GameState
from controller.referee.turn import TurnPlays, board_of
from controller.rules.position import Dice, Position
from controller.rules.sheshbesh import SheshBeshAction, SheshBeshGame
from sheshbesh.events import Play
from sheshbesh.locations import LOCATIONS
from sheshbesh.match import Variant

#: Location -> (white, black): what the camera counts, or should count.
Counts = dict[str, tuple[int, int]]
#: (winner, points, kind name) of a finished game.
Finish = tuple[int, int, str]
#: (sources, destinations): the lights that guide the checkers still to move.
Guide = tuple[Collection[str], Collection[str]]

NAMES: Final = ("White", "Black")
_TRAYS: Final = ("off-white", "off-black")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The one thing a roll does (a variant without choices): the play to record, as the referee
    records it, and what the camera should count once it is made."""

    player: int
    notation: str
    position_id: str
    result_id: str
    moved_from: list[str]
    moved_to: list[str]
    counts: Counts
    rolls_again: bool


class RefereeVariant(Protocol):
    """What the referee asks of a variant's rules."""

    #: The variant's word in the match settings and the record.
    name: ClassVar[Variant]
    #: The doubling cube is played (its readings and buttons mean something).
    uses_cube: ClassVar[bool]
    #: The match's illegal-play policy (teaching, tournament, condone) governs an illegal play.
    follows_policy: ClassVar[bool]
    #: Every roll has one outcome, and the camera's counts are compared with it as they are
    #: (standing stacks look like one checker); otherwise the counts are read as a whole board of
    #: fifteen a side and judged against the turn's legal plays.
    one_outcome: ClassVar[bool]

    def after_roll_off(self, game: GameState, first: int, dice: tuple[int, int]) -> GameState:
        """The game once ``first`` has won the opening roll with ``dice`` (white die first)."""
        ...

    def after_play(self, game: GameState, play: Play) -> GameState:
        """The board after a recorded play: ``position`` (and the variant's own game) only."""
        ...

    def visible(self, game: GameState) -> Counts:
        """What the camera should count on the board now."""
        ...

    def outcome(self, game: GameState) -> Outcome | None:
        """The one outcome of the roll on the board (None: no roll, or a choice of plays)."""
        ...

    def result(self, game: GameState, match: MatchState) -> Finish | None:
        """Who has won the game, for how many points and how; None while it goes on."""
        ...

    def explain_illegal(self, game: GameState, seen: Mapping[str, tuple[int, int]]) -> Explained:
        """Why the board ``seen`` after the roll is no legal play, and the locations to light."""
        ...

    def guide(
        self, game: GameState, board: Board | None, plays: Callable[[], TurnPlays]
    ) -> Guide | None:
        """The lights for the checkers still to move from ``board`` (None: no hint to give)."""
        ...


#: (the reason in words, the locations to light).
Explained = tuple[str, list[str]]


class Backgammon:
    """Standard backgammon: the cube, the policies, a choice of plays judged by the engine."""

    name: ClassVar[Variant] = "backgammon"
    uses_cube: ClassVar[bool] = True
    follows_policy: ClassVar[bool] = True
    one_outcome: ClassVar[bool] = False

    def after_roll_off(self, game: GameState, first: int, dice: tuple[int, int]) -> GameState:
        """The winner plays both opening dice at once."""
        start = Position.initial(turn=first)
        return replace(game, position=start, phase="moving", dice=(max(dice), min(dice)))

    def after_play(self, game: GameState, play: Play) -> GameState:
        if play.result_id is None:
            raise ValueError("play: result_id is missing")
        following = Position.from_position_id(play.result_id, play.player).swap()
        return replace(game, position=following)

    def visible(self, game: GameState) -> Counts:
        return board_of(game.position).counts()

    def outcome(self, game: GameState) -> Outcome | None:
        return None

    def result(self, game: GameState, match: MatchState) -> Finish | None:
        return finished_game(game.position, match)

    def explain_illegal(self, game: GameState, seen: Mapping[str, tuple[int, int]]) -> Explained:
        assert game.dice is not None
        board = Board.from_counts(seen)
        result = Position.from_players(board.white, board.black, game.turn)
        return explain_illegal_play(game.position, game.dice, result)

    def guide(
        self, game: GameState, board: Board | None, plays: Callable[[], TurnPlays]
    ) -> Guide | None:
        hint = plays().hint(board or board_of(game.position))
        return None if hint is None else (hint.sources, hint.destinations)


class SheshBesh(Backgammon):
    """Arabic Shesh Besh (:mod:`controller.rules.sheshbesh`): no cube, no choices, one outcome
    a roll, and an illegal play always put right; the camera sees a standing stack as one."""

    name: ClassVar[Variant] = "sheshbesh"
    uses_cube: ClassVar[bool] = False
    follows_policy: ClassVar[bool] = False
    one_outcome: ClassVar[bool] = True

    def after_roll_off(self, game: GameState, first: int, dice: tuple[int, int]) -> GameState:
        """The winner then rolls both dice; the opening dice stay on the board until picked up."""
        sheshbesh = SheshBeshGame.initial(first)
        return replace(
            game,
            position=sheshbesh.to_position(),
            sheshbesh=sheshbesh,
            phase="rolling",
            stale_dice=dice,
        )

    def after_play(self, game: GameState, play: Play) -> GameState:
        if game.sheshbesh is None:
            return Backgammon.after_play(self, game, play)
        sheshbesh = game.sheshbesh.play(Dice(*play.dice)).after
        return replace(game, position=sheshbesh.to_position(), sheshbesh=sheshbesh)

    def visible(self, game: GameState) -> Counts:
        return sheshbesh_counts(game.sheshbesh or SheshBeshGame.initial(0))

    def outcome(self, game: GameState) -> Outcome | None:
        if game.dice is None:
            return None
        sheshbesh = game.sheshbesh or SheshBeshGame.initial(0)
        turn = sheshbesh.play(Dice(*game.dice))
        before, after = sheshbesh_counts(sheshbesh), sheshbesh_counts(turn.after)
        index = sheshbesh.player_on_roll
        return Outcome(
            player=sheshbesh.player_on_roll,
            notation=", ".join(str(action) for action in turn.actions),
            position_id=sheshbesh.to_position().to_position_id(),
            result_id=turn.after.to_position().to_position_id(),
            moved_from=[n for n in before if after[n][index] < before[n][index]],
            moved_to=[n for n in before if after[n][index] > before[n][index]],
            counts=after,
            rolls_again=turn.rolls_again,
        )

    def result(self, game: GameState, match: MatchState) -> Finish | None:
        if game.sheshbesh is None:
            return Backgammon.result(self, game, match)
        result = game.sheshbesh.result
        if result is None:
            return None
        return result.winner, result.kind * game.cube, result.kind_name

    def explain_illegal(self, game: GameState, seen: Mapping[str, tuple[int, int]]) -> Explained:
        """What the roll makes the player do, in words; the locations that differ from it."""
        outcome = self.outcome(game)
        assert outcome is not None and game.dice is not None
        sheshbesh = game.sheshbesh or SheshBeshGame.initial(0)
        actions = sheshbesh.play(Dice(*game.dice)).actions
        reason = _duty(game.dice, NAMES[game.turn], actions)
        return reason, differing(seen, outcome.counts)

    def guide(
        self, game: GameState, board: Board | None, plays: Callable[[], TurnPlays]
    ) -> Guide | None:
        """Where the roll's checkers are laid down or borne off from, and where they go."""
        if game.sheshbesh is None:
            return Backgammon.guide(self, game, board, plays)
        assert game.dice is not None
        actions = game.sheshbesh.play(Dice(*game.dice)).actions
        sources = [mover_location(a.point, game.turn) for a in actions if a.kind != "wasted"]
        destinations = [
            mover_location(0 if a.kind == "bear off" else a.point, game.turn)
            for a in actions
            if a.kind != "wasted"
        ]
        return sources, destinations


BACKGAMMON: Final = Backgammon()
SHESHBESH: Final = SheshBesh()
#: The variants by their word in the settings; a variant's class is shared (it holds no state).
VARIANTS: Final[Mapping[Variant, RefereeVariant]] = {
    "backgammon": BACKGAMMON,
    "sheshbesh": SHESHBESH,
}


def variant_rules(name: Variant) -> RefereeVariant:
    """The rules of the variant ``name`` (one of ``sheshbesh.match.VARIANTS``)."""
    return VARIANTS[name]


def sheshbesh_counts(game: SheshBeshGame) -> Counts:
    """What the camera should see of a Shesh Besh game: stacks count as one, trays in full."""
    counts = dict.fromkeys(LOCATIONS, (0, 0))
    for player, side in enumerate(game.sides):
        for point, down in enumerate(side.down, start=1):
            name = mover_location(point, player)
            white, black = counts[name]
            counts[name] = (white + down, black) if player == 0 else (white, black + down)
        tray = _TRAYS[player]
        counts[tray] = (side.off, 0) if player == 0 else (0, side.off)
    return counts


def trays_from_points(seen: Counts, current: Counts) -> Counts:
    """``seen`` with its trays counted from its points, for a game whose checkers leave a point
    only for their side's tray (Shesh Besh): each checker fewer on a side's points than
    ``current`` (the board as it stands) shows went to that side's tray. For a camera that sees
    the points but not the trays, and cannot count them from fifteen a side (stacks hide
    checkers)."""
    out = dict(seen)
    for side, tray in enumerate(_TRAYS):
        gone = sum(
            max(0, current.get(name, (0, 0))[side] - seen.get(name, (0, 0))[side])
            for name in LOCATIONS
            if name not in _TRAYS
        )
        off = current.get(tray, (0, 0))[side] + gone
        out[tray] = (off, 0) if side == 0 else (0, off)
    return out


def differing(
    seen: Mapping[str, tuple[int, int]], wanted: Mapping[str, tuple[int, int]]
) -> list[str]:
    """The locations where two countings differ, in location order."""
    return [name for name in LOCATIONS if seen.get(name, (0, 0)) != wanted.get(name, (0, 0))]


def _duty(dice: tuple[int, int], name: str, actions: Iterable[SheshBeshAction]) -> str:
    """What a Shesh Besh roll makes the player do, in words."""
    words = []
    for action in actions:
        if action.kind == "lay down":
            words.append(f"lay down a checker on point {action.point}")
        elif action.kind == "bear off":
            words.append(f"bear off a checker from point {action.point}")
    duty = " and ".join(words) if words else "leave the board as it is (every number is wasted)"
    return f"With {dice[0]}-{dice[1]} {name} must {duty}"
