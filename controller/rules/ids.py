"""GNU Backgammon Match ID and eXtreme Gammon XGID, both ways.

The Match ID is 66 documented bits (cube, owner, player on roll, Crawford, game state, turn,
double offered, resignation, dice, match length, both scores) packed least significant bit first
into 9 bytes and written as 12 base64 characters. GNU Backgammon also sets bit 66 (0-based) when the
Jacoby rule is off and writes the higher die first; we do the same, and a reader ignores bits above 65.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from controller.rules.errors import MatchIdError, PositionError, XgidError
from controller.rules.position import Position


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The fields of a Match ID. Players are 0 and 1; ``cube_owner`` None means centred.

    ``player_on_roll`` is the player who rolls or rolled; ``turn`` the player who must act now
    (the opponent while a double or resignation awaits an answer). ``game_state`` is gnubg's: 0 no
    game, 1 playing, 2 over, 3 resigned, 4 dropped. ``dice`` is ``(0, 0)`` before rolling.
    ``match_length`` 0 is money play.

    >>> MatchInfo(match_length=7).to_match_id()
    'MAHgAAAAAAAE'
    >>> MatchInfo.from_match_id('MAHgAAAAAAAE').match_length
    7
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: int = 1
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        value = self.cube_value
        if value < 1 or value & (value - 1) or value > 1 << 15:
            raise MatchIdError(f"cube value {value!r} is not a power of two from 1 to 32768")
        if self.cube_owner not in (None, 0, 1):
            raise MatchIdError(f"cube owner {self.cube_owner!r} is not None, 0 or 1")
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise MatchIdError(f"{name} {getattr(self, name)!r} is not 0 or 1")
        if not 0 <= self.game_state <= 7:
            raise MatchIdError(f"game state {self.game_state!r} is not 0..7")
        if not 0 <= self.resigned <= 3:
            raise MatchIdError(f"resignation {self.resigned!r} is not 0..3")
        if (
            len(self.dice) != 2
            or any(not 0 <= d <= 6 for d in self.dice)
            or (0 in self.dice and self.dice != (0, 0))
        ):
            raise MatchIdError(f"dice {self.dice!r} are not two numbers 1..6 or (0, 0)")
        if not 0 <= self.match_length < 1 << 15:
            raise MatchIdError(f"match length {self.match_length!r} is not 0..32767")
        if len(self.score) != 2 or any(not 0 <= s < 1 << 15 for s in self.score):
            raise MatchIdError(f"score {self.score!r} is not two numbers 0..32767")

    def to_match_id(self) -> str:
        """The 12-character GNU Backgammon Match ID (higher die first, bit 66 = Jacoby off)."""
        high, low = max(self.dice), min(self.dice)
        fields = (
            (self.cube_value.bit_length() - 1, 4),
            (3 if self.cube_owner is None else self.cube_owner, 2),
            (self.player_on_roll, 1),
            (int(self.crawford), 1),
            (self.game_state, 3),
            (self.turn, 1),
            (int(self.doubled), 1),
            (self.resigned, 2),
            (high, 3),
            (low, 3),
            (self.match_length, 15),
            (self.score[0], 15),
            (self.score[1], 15),
            (int(not self.jacoby), 1),
        )
        key = 0
        bit = 0
        for value, width in fields:
            key |= value << bit
            bit += width
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def from_match_id(cls, text: str) -> MatchInfo:
        """Decode a Match ID; bits above 65 are ignored, so ``jacoby`` reads as False.

        Raises :class:`MatchIdError`.
        """
        if not isinstance(text, str) or len(text.strip()) != 12:
            raise MatchIdError(f"Match ID {text!r} must be 12 base64 characters")
        try:
            raw = base64.b64decode(text.strip(), validate=True)
        except (binascii.Error, ValueError):
            raise MatchIdError(f"Match ID {text!r} is not valid base64") from None
        key = int.from_bytes(raw, "little")
        values = []
        bit = 0
        for width in (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15):
            values.append((key >> bit) & ((1 << width) - 1))
            bit += width
        (
            cube,
            owner,
            on_roll,
            crawford,
            state,
            turn,
            doubled,
            resigned,
            die1,
            die2,
            length,
            s0,
            s1,
        ) = values
        if owner == 2:
            raise MatchIdError(f"Match ID {text!r}: cube owner bits 10 are not a player")
        try:
            return cls(
                cube_value=1 << cube,
                cube_owner=None if owner == 3 else owner,
                player_on_roll=on_roll,
                crawford=bool(crawford),
                game_state=state,
                turn=turn,
                doubled=bool(doubled),
                resigned=resigned,
                dice=(die1, die2),
                match_length=length,
                score=(s0, s1),
            )
        except MatchIdError as error:
            raise MatchIdError(f"Match ID {text!r}: {error}") from None


# XGID ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Xgid:
    """A position and its match context as eXtreme Gammon writes them (``XGID=...``).

    The bottom player (upper-case letters) is player 0, White. ``max_cube`` is the log2 limit.

    >>> text = 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    >>> Xgid.from_xgid(text).position == Position.initial()
    True
    >>> Xgid.from_xgid(text).to_xgid() == text
    True
    """

    position: Position
    match: MatchInfo
    beavers: bool = False
    max_cube: int = 10

    def to_xgid(self) -> str:
        """Write the ``XGID=`` string."""
        white, black = self.position.by_player()
        chars = [_count_char(black[24], lower=True)]
        for point in range(1, 25):
            if white[point - 1]:
                chars.append(_count_char(white[point - 1], lower=False))
            else:
                chars.append(_count_char(black[24 - point], lower=True))
        chars.append(_count_char(white[24], lower=False))
        match = self.match
        owner = {None: 0, 0: 1, 1: -1}[match.cube_owner]
        turn = 1 if self.position.turn == 0 else -1
        if match.doubled:
            dice = "D"
        elif match.dice == (0, 0):
            dice = "00"
        else:
            dice = f"{match.dice[0]}{match.dice[1]}"
        if match.match_length:
            rules = int(match.crawford)
        else:
            rules = int(match.jacoby) + 2 * int(self.beavers)
        fields = [
            "".join(chars),
            str(match.cube_value.bit_length() - 1),
            str(owner),
            str(turn),
            dice,
            str(match.score[0]),
            str(match.score[1]),
            str(rules),
            str(match.match_length),
            str(self.max_cube),
        ]
        return "XGID=" + ":".join(fields)

    @classmethod
    def from_xgid(cls, text: str) -> Xgid:
        """Read an XGID (with or without the ``XGID=`` prefix). Raises :class:`XgidError`."""
        body = text.strip()
        if body.upper().startswith("XGID="):
            body = body[5:]
        fields = body.split(":")
        if len(fields) not in (9, 10):
            raise XgidError(
                f"XGID {text!r} must have 9 or 10 fields separated by ':', has {len(fields)}"
            )
        board = fields[0]
        if len(board) != 26:
            raise XgidError(
                f"XGID {text!r}: the board field must be 26 characters, has {len(board)}"
            )
        white = [0] * 25
        black = [0] * 25
        for index, char in enumerate(board):
            if char == "-":
                continue
            if "A" <= char <= "P":
                count, lower = ord(char) - 64, False
            elif "a" <= char <= "p":
                count, lower = ord(char) - 96, True
            else:
                raise XgidError(
                    f"XGID {text!r}: board character {char!r} at {index} is not '-', A-P or a-p"
                )
            if index == 0:
                if not lower:
                    raise XgidError(
                        f"XGID {text!r}: the top player's bar (first character) holds {char!r}"
                    )
                black[24] = count
            elif index == 25:
                if lower:
                    raise XgidError(
                        f"XGID {text!r}: the bottom player's bar (last character) holds {char!r}"
                    )
                white[24] = count
            elif lower:
                black[24 - index] = count
            else:
                white[index - 1] = count
        try:
            cube = int(fields[1])
            owner = {0: None, 1: 0, -1: 1}[int(fields[2])]
            turn = {1: 0, -1: 1}[int(fields[3])]
            score = (int(fields[5]), int(fields[6]))
            rules = int(fields[7])
            length = int(fields[8])
            max_cube = int(fields[9]) if len(fields) == 10 else 10
        except (ValueError, KeyError):
            raise XgidError(
                f"XGID {text!r}: a numeric field is out of range or not a number"
            ) from None
        dice_field = fields[4].upper()
        doubled = dice_field in ("D", "B", "R")
        if doubled or dice_field == "00":
            dice = (0, 0)
        elif len(dice_field) == 2 and all(c in "123456" for c in dice_field):
            dice = (int(dice_field[0]), int(dice_field[1]))
        else:
            raise XgidError(
                f"XGID {text!r}: dice field {fields[4]!r} is not 00, D, B, R or two digits 1-6"
            )
        try:
            position = Position.from_players(white, black, turn)
            match = MatchInfo(
                cube_value=1 << cube,
                cube_owner=owner,
                player_on_roll=turn,
                crawford=bool(rules & 1) if length else False,
                turn=1 - turn if doubled else turn,
                doubled=doubled,
                dice=dice,
                match_length=length,
                score=score,
                jacoby=bool(rules & 1) if not length else False,
            )
        except (PositionError, MatchIdError) as error:
            raise XgidError(f"XGID {text!r}: {error}") from None
        return cls(
            position, match, beavers=bool(rules & 2) if not length else False, max_cube=max_cube
        )


def _count_char(count: int, *, lower: bool) -> str:
    if not count:
        return "-"
    return chr((96 if lower else 64) + count)
