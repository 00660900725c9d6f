"""Arabic Shesh Besh ("Doublets"): a race with no contact and no decisions.

Each side starts in its own home board: stacks of 3 on points 6, 5, 4 and of 2 on 3, 2, 1; the bottom
checker of a stack counts as already down. Stage one lays checkers down: a number ``n`` lays one
checker from the stack on point ``n`` beside it (nothing left there: the number is wasted). Once all
9 are down the player bears off: a number ``n`` bears off one checker from point ``n`` (none: wasted).
On the turn laying down completes, the numbers left over are wasted. Doubles are played four times
and the same player rolls again. First to bear off 15 wins 1 point, or 2 (gammon) when the opponent
has not finished laying down. Every roll has exactly one outcome: :meth:`SheshBeshGame.play`.

Historical rules named in the seed are options (``rules=``): ``"english"`` (English Doublets: a
double lays down or bears off as many checkers as its two dice add up to, then the player rolls
again), ``"french"`` (French/Icelandic: a double is played as two numbers and gives another roll)
and ``"old-english"`` (a number the roller cannot use goes to the opponent, who uses it if they can).
The default, ``"arabic"``, is the variant above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from controller.rules.errors import GameStateError
from controller.rules.game import GameResult, roll_off
from controller.rules.position import CHECKERS, PLAYER_NAMES, Dice, Position

#: Checkers still to lay down at the start, on points 1..6.
SETUP_TO_LAY: Final = (1, 1, 1, 2, 2, 2)
#: Checkers already down at the start (the bottom of each stack), on points 1..6.
SETUP_DOWN: Final = (1, 1, 1, 1, 1, 1)

ActionKind = Literal["lay down", "bear off", "wasted"]
SheshBeshRules = Literal["arabic", "english", "french", "old-english"]
RULES: Final[tuple[str, ...]] = ("arabic", "english", "french", "old-english")


@dataclass(frozen=True, slots=True)
class SheshBeshSide:
    """One player's checkers on points 1..6: still stacked to lay down, and down (visible)."""

    to_lay: tuple[int, ...] = SETUP_TO_LAY
    down: tuple[int, ...] = SETUP_DOWN

    def __post_init__(self) -> None:
        if len(self.to_lay) != 6 or len(self.down) != 6:
            raise GameStateError(f"a Shesh Besh side has 6 points: {self.to_lay!r} {self.down!r}")
        if (
            min(self.to_lay) < 0
            or min(self.down) < 0
            or sum(self.to_lay) + sum(self.down) > CHECKERS
        ):
            raise GameStateError(
                f"impossible Shesh Besh side: to lay {self.to_lay!r}, down {self.down!r}"
            )

    @property
    def off(self) -> int:
        return CHECKERS - sum(self.to_lay) - sum(self.down)

    @property
    def is_laying_done(self) -> bool:
        """True once every checker is down: the player is bearing off."""
        return not any(self.to_lay)

    def visible(self) -> tuple[int, ...]:
        """Checkers the camera sees on points 1..6: a standing stack looks like one checker."""
        return self.down

    def counts(self) -> tuple[int, ...]:
        """All checkers on points 1..6, stacked or down."""
        return tuple(a + b for a, b in zip(self.to_lay, self.down, strict=True))


@dataclass(frozen=True, slots=True)
class SheshBeshAction:
    """What one number did: laid a checker down, bore one off, or was wasted, on ``point``."""

    number: int
    kind: ActionKind
    point: int
    #: Old English rules: the roller could not use the number and the opponent did.
    by_opponent: bool = False

    def __str__(self) -> str:
        if self.kind == "wasted":
            return f"{self.number}: wasted"
        who = " for the opponent" if self.by_opponent else ""
        return f"{self.number}: {self.kind} on {self.point}{who}"


@dataclass(frozen=True, slots=True)
class SheshBeshTurn:
    """The single forced outcome of a roll: the actions and the game after it."""

    dice: Dice
    player: int
    actions: tuple[SheshBeshAction, ...]
    after: SheshBeshGame

    @property
    def rolls_again(self) -> bool:
        """Doubles: the same player rolls again (unless the game is over)."""
        return self.dice.is_double and self.after.result is None


@dataclass(frozen=True, slots=True)
class SheshBeshGame:
    """A Shesh Besh game: both sides and the player on roll.

    >>> game = SheshBeshGame.initial(first_player=0)
    >>> turn = game.play(Dice(6, 1))
    >>> [str(a) for a in turn.actions], turn.after.player_on_roll
    (['6: lay down on 6', '1: lay down on 1'], 1)
    """

    sides: tuple[SheshBeshSide, SheshBeshSide] = (SheshBeshSide(), SheshBeshSide())
    player_on_roll: int = 0
    rules: SheshBeshRules = "arabic"

    def __post_init__(self) -> None:
        if self.rules not in RULES:
            raise GameStateError(
                f"unknown Shesh Besh rules {self.rules!r}; known: {', '.join(RULES)}"
            )
        if self.player_on_roll not in (0, 1):
            raise GameStateError(f"player on roll must be 0 or 1, got {self.player_on_roll!r}")

    @classmethod
    def initial(cls, first_player: int, rules: SheshBeshRules = "arabic") -> SheshBeshGame:
        """The setup, with ``first_player`` (the roll-off winner) to roll both dice."""
        if first_player not in (0, 1):
            raise GameStateError(f"first player must be 0 or 1, got {first_player!r}")
        return cls((SheshBeshSide(), SheshBeshSide()), first_player, rules)

    @staticmethod
    def roll_off(white_die: int, black_die: int) -> int | None:
        """Who starts: the higher single die; None on a tie (roll again)."""
        return roll_off(white_die, black_die)

    @property
    def result(self) -> GameResult | None:
        """The winner and kind (1, or 2 if the loser had not finished laying down); None if going on."""
        for player in (0, 1):
            if self.sides[player].off == CHECKERS:
                loser = self.sides[1 - player]
                return GameResult(player, 1 if loser.is_laying_done else 2)
        return None

    def numbers(self, dice: Dice) -> tuple[int, ...]:
        """The numbers a roll gives under these rules (a double: 4 Arabic, 2 French, sum English)."""
        if not dice.is_double:
            return (dice.first, dice.second)
        if self.rules == "french":
            return (dice.first, dice.first)
        if self.rules == "english":
            return (dice.first,) * (2 * dice.first)
        return (dice.first,) * 4

    def play(self, dice: Dice | tuple[int, int] | str) -> SheshBeshTurn:
        """Play the roll for the player on roll: the one outcome the rules allow.

        Raises :class:`GameStateError` once the game is over.
        """
        if self.result is not None:
            raise GameStateError(f"the game is over: {PLAYER_NAMES[self.result.winner]} has won")
        rolled = Dice.coerce(dice)
        player = self.player_on_roll
        states = [
            [list(self.sides[0].to_lay), list(self.sides[0].down)],
            [list(self.sides[1].to_lay), list(self.sides[1].down)],
        ]
        # The stage is fixed at the start of the turn: numbers left after laying down completes
        # are wasted, not borne off.
        bearing_off = [self.sides[0].is_laying_done, self.sides[1].is_laying_done]
        actions: list[SheshBeshAction] = []
        for number in self.numbers(rolled):
            kind = _use(states[player], bearing_off[player], number)
            if kind == "wasted" and self.rules == "old-english" and not _finished(states[player]):
                other = 1 - player
                given = _use(states[other], bearing_off[other], number)
                if given != "wasted":
                    actions.append(SheshBeshAction(number, given, number, by_opponent=True))
                    continue
            actions.append(SheshBeshAction(number, kind, number))
        new_sides = (
            SheshBeshSide(tuple(states[0][0]), tuple(states[0][1])),
            SheshBeshSide(tuple(states[1][0]), tuple(states[1][1])),
        )
        finished = any(side.off == CHECKERS for side in new_sides)
        next_player = player if rolled.is_double or finished else 1 - player
        after = SheshBeshGame(new_sides, next_player, self.rules)
        return SheshBeshTurn(rolled, player, tuple(actions), after)

    def to_position(self) -> Position:
        """The checkers as a backgammon :class:`Position` (stacks counted in full), mover on roll."""
        white = list(self.sides[0].counts()) + [0] * 19
        black = list(self.sides[1].counts()) + [0] * 19
        return Position.from_players(white, black, self.player_on_roll)

    def visible_position(self) -> Position:
        """What the camera sees: standing stacks count as one checker each."""
        white = list(self.sides[0].visible()) + [0] * 19
        black = list(self.sides[1].visible()) + [0] * 19
        return Position.from_players(white, black, self.player_on_roll)


def _finished(state: list[list[int]]) -> bool:
    return not any(state[0]) and not any(state[1])


def _use(state: list[list[int]], bearing_off: bool, number: int) -> ActionKind:
    """Apply one number to a side's (to lay, down) lists; what it did."""
    to_lay, down = state
    index = number - 1
    if not bearing_off:
        if to_lay[index]:
            to_lay[index] -= 1
            down[index] += 1
            return "lay down"
        return "wasted"
    if down[index]:
        down[index] -= 1
        return "bear off"
    return "wasted"
