"""The small interface an analysis engine offers, and the plain values it returns.

Equities are cubeful and *normalised*, as GNU Backgammon and bgsage print them: in units of the
current cube value (a double/pass is always +1.000) and, in match play, as equity in money-game
terms (EMG) derived from the match equity table. They are always seen from the side of the player
on roll, who is the one with the cube decision or the checker play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from controller.analysis.board import Sides
from controller.analysis.context import MoverView

#: How the doubled player answers a double.
Response = Literal["take", "pass", "beaver"]


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """An engine's view of one cube decision, from the side of the player who may double.

    ``double_beaver`` is the equity if the opponent beavers (money play with beavers on), else
    ``None``. ``probabilities`` are the cubeless win, gammon win, backgammon win, gammon loss and
    backgammon loss chances before the roll.
    """

    no_double: float
    double_take: float
    double_pass: float
    double_beaver: float | None
    probabilities: tuple[float, float, float, float, float]
    level: str

    @property
    def beaver_counts(self) -> bool:
        """Whether a beaver is a real answer here.

        As GNU Backgammon does, a beaver is proposed only while double/take is worth between -2
        and 0 to the doubler; further down nobody doubles anyway, and take and beaver are
        both wins for the taker.
        """
        return self.double_beaver is not None and -2.0 <= self.double_take <= 0.0

    def answers(self) -> list[tuple[float, Response]]:
        """The doubled player's answers with their worth to the doubler."""
        found: list[tuple[float, Response]] = [
            (self.double_take, "take"),
            (self.double_pass, "pass"),
        ]
        if self.beaver_counts:
            assert self.double_beaver is not None
            found.append((self.double_beaver, "beaver"))
        return found

    @property
    def double(self) -> float:
        """What doubling is worth when the opponent answers well (take, pass or beaver)."""
        return min(value for value, _ in self.answers())

    @property
    def best(self) -> float:
        return max(self.no_double, self.double)


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One legal play: the position it leads to (mover's view, ``(opponent, mover)``), its usual
    notation, and its cubeful equity for the mover."""

    result: Sides
    notation: str
    equity: float


@runtime_checkable
class Analyser(Protocol):
    """An engine that judges cube decisions and checker plays.

    Implementations must be safe to call from one worker thread while other threads run.
    """

    @property
    def name(self) -> str:
        """Engine and level, for reports (e.g. ``"bgsage 1ply"``)."""
        ...

    def cube_equities(self, sides: Sides, view: MoverView) -> CubeEquities:
        """No-double, double/take, double/pass (and double/beaver) equities before the roll."""
        ...

    def ranked_plays(
        self, sides: Sides, dice: tuple[int, int], view: MoverView, played: Sides | None = None
    ) -> list[RankedPlay]:
        """Every distinct legal play for ``dice``, best first; empty when no play is possible.

        ``played`` (the position the player actually reached) must be judged at the full level
        even where the engine prunes candidates.
        """
        ...
