"""Positions, dice, checker steps and plays: the engine's small immutable value types.

A side is 25 counts seen from that side's own 1-point: index ``i`` holds point ``i + 1`` and index 24
is the bar; checkers borne off are ``15 - sum(side)``. A :class:`Position` holds the side on roll
(``mover``) and the other side (``opponent``), plus ``turn``: which player (0 White, 1 Black) the mover
is. This is GNU Backgammon's ``board[2][25]`` with ``board[1]`` the player on roll.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from controller.rules.errors import DiceError, IllegalPlayError, PositionError, PositionIdError

if TYPE_CHECKING:
    from controller.rules.movegen import LegalPlays

#: Checkers per side.
CHECKERS: Final = 15
#: Index of the bar in a side array; in step numbering the bar is point 25 and off is point 0.
BAR: Final = 24
BAR_POINT: Final = 25
OFF_POINT: Final = 0
PLAYER_NAMES: Final = ("White", "Black")

Side = tuple[int, ...]

_INITIAL_SIDE: Final[Side] = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)


def _check_side(side: object, label: str) -> Side:
    if not isinstance(side, Sequence) or isinstance(side, str | bytes):
        raise PositionError(f"{label} side must be a sequence of 25 counts, got {side!r}")
    values = tuple(side)
    if len(values) != 25:
        raise PositionError(
            f"{label} side must have 25 counts (24 points and the bar), got {len(values)}: {values!r}"
        )
    for index, count in enumerate(values):
        if not isinstance(count, int) or isinstance(count, bool):
            raise PositionError(
                f"{label} side: count at index {index} is not an integer: {count!r}"
            )
        if count < 0:
            raise PositionError(
                f"{label} side: negative count {count} at index {index}: {values!r}"
            )
    total = sum(values)
    if total > CHECKERS:
        raise PositionError(f"{label} side has {total} checkers, more than {CHECKERS}: {values!r}")
    return values


class Position:
    """Both sides' checkers with one of them on roll; immutable and hashable.

    Raises :class:`PositionError` for more than 15 checkers a side, negative counts, a point held by
    both sides, or a ``turn`` other than 0 or 1.

    >>> start = Position.initial()
    >>> start.to_position_id()
    '4HPwATDgc/ABMA'
    >>> start.pip_count(0), start.off(1)
    (167, 0)
    """

    __slots__ = ("_hash", "mover", "opponent", "turn")

    mover: Side
    opponent: Side
    turn: int
    _hash: int

    def __init__(self, mover: Sequence[int], opponent: Sequence[int], turn: int = 0) -> None:
        me = _check_side(mover, "mover")
        them = _check_side(opponent, "opponent")
        if turn not in (0, 1) or isinstance(turn, bool):
            raise PositionError(f"turn must be 0 (White) or 1 (Black), got {turn!r}")
        for index in range(24):
            if me[index] and them[23 - index]:
                raise PositionError(
                    f"point {index + 1} (mover's numbering) is held by both sides: "
                    f"{me[index]} mover and {them[23 - index]} opponent checkers"
                )
        object.__setattr__(self, "mover", me)
        object.__setattr__(self, "opponent", them)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "_hash", hash((me, them, turn)))

    @classmethod
    def _trusted(cls, mover: Side, opponent: Side, turn: int) -> Position:
        """Build without validation: for sides the engine itself produced."""
        position = object.__new__(cls)
        object.__setattr__(position, "mover", mover)
        object.__setattr__(position, "opponent", opponent)
        object.__setattr__(position, "turn", turn)
        object.__setattr__(position, "_hash", hash((mover, opponent, turn)))
        return position

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Position is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Position is immutable; cannot delete {name!r}")

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.mover == other.mover
            and self.opponent == other.opponent
            and self.turn == other.turn
        )

    def __lt__(self, other: Position) -> bool:
        return (self.turn, self.mover, self.opponent) < (other.turn, other.mover, other.opponent)

    def __repr__(self) -> str:
        turn = ", turn=1" if self.turn else ""
        return f"Position.from_position_id({self.to_position_id()!r}{turn})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position, (self.mover, self.opponent, self.turn))

    # construction -----------------------------------------------------------------------------

    @classmethod
    def initial(cls, turn: int = 0) -> Position:
        """The starting position with player ``turn`` on roll.

        >>> Position.initial().mover[5], Position.initial().mover[23]
        (5, 2)
        """
        return cls(_INITIAL_SIDE, _INITIAL_SIDE, turn)

    @classmethod
    def from_players(cls, side0: Sequence[int], side1: Sequence[int], turn: int) -> Position:
        """Build from White's and Black's sides (each in its own numbering) and who is on roll.

        >>> p = Position.from_players([0] * 5 + [15] + [0] * 19, [0] * 24 + [1], turn=1)
        >>> p.mover[24], p.opponent[5]
        (1, 15)
        """
        if turn == 0:
            return cls(side0, side1, 0)
        if turn == 1:
            return cls(side1, side0, 1)
        raise PositionError(f"turn must be 0 (White) or 1 (Black), got {turn!r}")

    def by_player(self) -> tuple[Side, Side]:
        """White's side and Black's side, each counted from its own 1-point."""
        if self.turn == 0:
            return (self.mover, self.opponent)
        return (self.opponent, self.mover)

    def side(self, player: int) -> Side:
        """The side of ``player`` (0 White, 1 Black)."""
        return self.by_player()[_check_player(player)]

    def swap(self) -> Position:
        """The same checkers with the other player on roll.

        >>> Position.initial().swap().turn
        1
        """
        return Position._trusted(self.opponent, self.mover, 1 - self.turn)

    # counts -----------------------------------------------------------------------------------

    def off(self, player: int) -> int:
        """How many checkers ``player`` (0 White, 1 Black) has borne off."""
        return CHECKERS - sum(self.side(player))

    def pip_count(self, player: int) -> int:
        """``player``'s pip count: the sum over checkers of the distance to bear off (bar = 25)."""
        return sum(count * (index + 1) for index, count in enumerate(self.side(player)))

    @property
    def mover_off(self) -> int:
        """Checkers the player on roll has borne off."""
        return CHECKERS - sum(self.mover)

    @property
    def opponent_off(self) -> int:
        """Checkers the player not on roll has borne off."""
        return CHECKERS - sum(self.opponent)

    def can_bear_off(self) -> bool:
        """True when every checker the mover has left is in the home board (points 1..6)."""
        return not any(self.mover[6:])

    def is_race(self) -> bool:
        """True when the two sides can no longer hit each other (no contact)."""
        mover_back = max((i for i in range(25) if self.mover[i]), default=-1)
        opponent_back = max((i for i in range(25) if self.opponent[i]), default=-1)
        return mover_back + opponent_back < 23

    # plays ------------------------------------------------------------------------------------

    def apply(self, play: Play | Iterable[Step]) -> Position:
        """The position after the mover makes ``play`` (the same side stays the mover).

        Checks each step against the board (a checker on the source, an open destination, the hit
        flag matching a blot, bar first, bearing off only from home) but not the dice: use
        :func:`controller.rules.legal_plays` or :meth:`Play.from_notation` for full legality.
        Raises :class:`IllegalPlayError`.

        >>> start = Position.initial()
        >>> start.apply(Play((Step(8, 5, False), Step(6, 5, False)))).mover[4]
        2
        """
        steps = play.steps if isinstance(play, Play) else tuple(play)
        me = list(self.mover)
        them = list(self.opponent)
        for step in steps:
            _apply_step(me, them, step, self)
        return Position._trusted(tuple(me), tuple(them), self.turn)

    def undo(self, play: Play | Iterable[Step]) -> Position:
        """The position before ``play`` was made: the inverse of :meth:`apply`.

        Raises :class:`IllegalPlayError` when ``play`` cannot have led to this position.
        """
        steps = play.steps if isinstance(play, Play) else tuple(play)
        me = list(self.mover)
        them = list(self.opponent)
        for step in reversed(steps):
            source, destination = step.source, step.destination
            if destination != OFF_POINT:
                if me[destination - 1] < 1:
                    raise IllegalPlayError(
                        f"cannot undo {step} in {self!r}: no checker on point {destination}"
                    )
                me[destination - 1] -= 1
            elif sum(me) >= CHECKERS:
                raise IllegalPlayError(f"cannot undo {step} in {self!r}: no checker is off")
            if step.hit:
                if them[BAR] < 1 or me[destination - 1]:
                    raise IllegalPlayError(
                        f"cannot undo {step} in {self!r}: no hit checker on the bar to put back"
                    )
                them[BAR] -= 1
                them[24 - destination] += 1
            me[source - 1] += 1
        return Position(tuple(me), tuple(them), self.turn)

    def legal_plays(self, dice: Dice | tuple[int, int] | str) -> LegalPlays:
        """Shortcut for :func:`controller.rules.legal_plays`."""
        from controller.rules.movegen import legal_plays

        return legal_plays(self, dice)

    # formats ----------------------------------------------------------------------------------

    def to_position_id(self) -> str:
        """GNU Backgammon Position ID, with the mover on roll.

        >>> Position.initial().to_position_id()
        '4HPwATDgc/ABMA'
        """
        return encode_position_id(self.opponent, self.mover)

    @classmethod
    def from_position_id(cls, text: str, turn: int = 0) -> Position:
        """Decode a GNU Backgammon Position ID; ``turn`` says which player is on roll.

        Raises :class:`PositionIdError`.

        >>> Position.from_position_id('4HPwATDgc/ABMA') == Position.initial()
        True
        """
        opponent, mover = decode_position_id(text)
        try:
            return cls(mover, opponent, turn)
        except PositionError as error:
            raise PositionIdError(
                f"Position ID {text!r} decodes to an impossible position: {error}"
            ) from None

    def to_gnubg_board(self) -> list[list[int]]:
        """GNU Backgammon's board: ``[opponent, mover]``, each a list of 25 counts."""
        return [list(self.opponent), list(self.mover)]

    @classmethod
    def from_gnubg_board(cls, board: Sequence[Sequence[int]], turn: int = 0) -> Position:
        """Build from GNU Backgammon's ``[opponent, mover]`` board. Raises :class:`PositionError`."""
        if len(board) != 2:
            raise PositionError(f"a gnubg board has two sides [opponent, mover], got {board!r}")
        return cls(board[1], board[0], turn)


def _check_player(player: int) -> int:
    if player not in (0, 1) or isinstance(player, bool):
        raise PositionError(f"player must be 0 (White) or 1 (Black), got {player!r}")
    return player


def _apply_step(me: list[int], them: list[int], step: Step, position: Position) -> None:
    source, destination = step.source, step.destination
    if me[source - 1] < 1:
        where = "the bar" if source == BAR_POINT else f"point {source}"
        raise IllegalPlayError(f"{step}: no checker on {where} in {position!r}")
    if source != BAR_POINT and me[BAR]:
        raise IllegalPlayError(f"{step}: a checker on the bar must enter first, in {position!r}")
    if destination == OFF_POINT:
        if any(me[6:]):
            raise IllegalPlayError(
                f"{step}: bearing off with checkers outside the home board, in {position!r}"
            )
        me[source - 1] -= 1
        if step.hit:
            raise IllegalPlayError(f"{step}: bearing off cannot hit, in {position!r}")
        return
    opposing = them[24 - destination]
    if opposing >= 2:
        raise IllegalPlayError(
            f"{step}: point {destination} is blocked ({opposing} opposing checkers), in {position!r}"
        )
    if step.hit != (opposing == 1):
        state = "a blot to hit" if opposing else "no blot to hit"
        raise IllegalPlayError(f"{step}: point {destination} has {state}, in {position!r}")
    me[source - 1] -= 1
    me[destination - 1] += 1
    if opposing:
        them[24 - destination] = 0
        them[BAR] += 1


# Position ID ----------------------------------------------------------------------------------


def encode_position_id(first: Sequence[int], second: Sequence[int]) -> str:
    """Encode GNU Backgammon's key: ``first`` (the side not on roll) then ``second``.

    Each count ``n`` becomes ``n`` one-bits and a zero-bit, least significant bit first, packed
    into 10 bytes and written in base64 without padding (14 characters).
    """
    key = 0
    bit = 0
    for side in (first, second):
        for count in side:
            if count:
                key |= ((1 << count) - 1) << bit
                bit += count
            bit += 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def decode_position_id(text: str) -> tuple[Side, Side]:
    """Decode a Position ID to ``(side not on roll, side on roll)``. Raises :class:`PositionIdError`."""
    if not isinstance(text, str):
        raise PositionIdError(f"a Position ID is a 14-character string, got {text!r}")
    cleaned = text.strip()
    if len(cleaned) != 14:
        raise PositionIdError(f"Position ID {text!r} must be 14 characters, has {len(cleaned)}")
    try:
        raw = base64.b64decode(cleaned + "==", validate=True)
    except (binascii.Error, ValueError):
        raise PositionIdError(f"Position ID {text!r} is not valid base64") from None
    key = int.from_bytes(raw, "little")
    sides: list[list[int]] = [[], []]
    bit = 0
    for side in sides:
        while len(side) < 25:
            count = 0
            while bit < 80 and (key >> bit) & 1:
                count += 1
                bit += 1
            if bit >= 80:
                raise PositionIdError(f"Position ID {text!r} ends before all 50 counts are read")
            bit += 1
            side.append(count)
    for side, label in zip(sides, ("the side not on roll", "the side on roll"), strict=True):
        if sum(side) > CHECKERS:
            raise PositionIdError(
                f"Position ID {text!r} gives {label} {sum(side)} checkers (at most 15)"
            )
    return tuple(sides[0]), tuple(sides[1])


# dice -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dice:
    """Two dice, each 1..6, in the order rolled. Raises :class:`DiceError`.

    >>> Dice(3, 1).is_double, Dice(2, 2).moves
    (False, (2, 2, 2, 2))
    >>> Dice.from_text('52')
    Dice(5, 2)
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        for value in (self.first, self.second):
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
                raise DiceError(
                    f"dice must be two numbers from 1 to 6, got {self.first!r} and {self.second!r}"
                )

    def __repr__(self) -> str:
        return f"Dice({self.first}, {self.second})"

    def __str__(self) -> str:
        return f"{self.first}{self.second}"

    def __iter__(self) -> Iterator[int]:
        return iter((self.first, self.second))

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def high(self) -> int:
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        return min(self.first, self.second)

    @property
    def moves(self) -> tuple[int, ...]:
        """The numbers to play: four of a double, otherwise the two dice."""
        if self.first == self.second:
            return (self.first,) * 4
        return (self.first, self.second)

    @classmethod
    def from_text(cls, text: str) -> Dice:
        """Parse ``"31"``, ``"3-1"``, ``"3 1"`` or ``"3,1"``. Raises :class:`DiceError`."""
        digits = [c for c in str(text) if not c.isspace() and c not in "-,/"]
        if len(digits) != 2 or not all(c in "123456" for c in digits):
            raise DiceError(f"dice {text!r}: expected two digits from 1 to 6, like 31 or 6-6")
        return cls(int(digits[0]), int(digits[1]))

    @classmethod
    def coerce(cls, dice: Dice | tuple[int, int] | Sequence[int] | str) -> Dice:
        """Accept a :class:`Dice`, a pair of ints or text such as ``"31"``."""
        if isinstance(dice, Dice):
            return dice
        if isinstance(dice, str):
            return cls.from_text(dice)
        values = tuple(dice)
        if len(values) != 2:
            raise DiceError(f"dice must be two numbers from 1 to 6, got {dice!r}")
        return cls(values[0], values[1])


# steps and plays ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Step:
    """One checker moving one die's worth, in the mover's numbering: 25 = bar, 0 = off.

    >>> str(Step(25, 22, False)), str(Step(6, 0, False)), str(Step(13, 7, True))
    ('bar/22', '6/off', '13/7*')
    """

    source: int
    destination: int
    hit: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.source, int) or not 1 <= self.source <= 25:
            raise IllegalPlayError(f"step source must be 1..25 (25 = bar), got {self.source!r}")
        if not isinstance(self.destination, int) or not 0 <= self.destination <= 24:
            raise IllegalPlayError(
                f"step destination must be 0..24 (0 = off), got {self.destination!r}"
            )
        if self.destination >= self.source:
            raise IllegalPlayError(
                f"a step moves towards home: {self.source}/{self.destination} goes the wrong way"
            )
        if self.hit and self.destination == 0:
            raise IllegalPlayError("a checker borne off cannot hit")

    def __str__(self) -> str:
        return f"{point_text(self.source)}/{point_text(self.destination)}{'*' if self.hit else ''}"

    @property
    def pips(self) -> int:
        return self.source - self.destination


def point_text(point: int) -> str:
    """A point in notation: ``bar`` for 25, ``off`` for 0, otherwise the number."""
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


@dataclass(frozen=True, slots=True)
class Play:
    """The checker steps of one turn. ``str(play)`` is standard notation; ``""`` for no move.

    >>> str(Play((Step(24, 18, False), Step(13, 10, True))))
    '24/18 13/10*'
    >>> str(Play((Step(8, 5), Step(8, 5))))
    '8/5(2)'
    >>> str(Play(()))
    ''
    """

    steps: tuple[Step, ...] = ()

    def __str__(self) -> str:
        from controller.rules.notation import format_play

        return format_play(self)

    def __repr__(self) -> str:
        return f"Play({self.steps!r})" if self.steps else "Play(())"

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __bool__(self) -> bool:
        return bool(self.steps)

    @property
    def hits(self) -> int:
        """How many opposing checkers the play sends to the bar."""
        return sum(1 for step in self.steps if step.hit)

    @property
    def pips(self) -> int:
        """Pips moved (bearing off counts the distance to off, not the die)."""
        return sum(step.pips for step in self.steps)

    @classmethod
    def from_notation(
        cls, text: str, position: Position, dice: Dice | tuple[int, int] | str
    ) -> Play:
        """Parse standard or gnubg .mat notation and check it is legal for ``position`` and ``dice``.

        Accepts ``24/18 13/10*``, ``bar/22``, ``6/off``, ``8/5(2)``, ``13/7*/1``, and .mat forms
        ``25/22``, ``6/0``. An empty string is the empty play (legal only when nothing can move).
        Raises :class:`NotationError` for text that cannot be read, :class:`IllegalPlayError` for a
        play the rules forbid.

        >>> str(Play.from_notation('8/5 6/5', Position.initial(), '31'))
        '8/5 6/5'
        """
        from controller.rules.notation import parse_play

        return parse_play(text, position, Dice.coerce(dice))
