"""The rules engine's exception family.

The engine imports only the standard library, so its root derives from ``ValueError`` alone rather
than from the project's ``SheshbeshError``. Every message quotes the offending input and, where there
is one, the position (its Position ID) and the dice.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Root of every error the rules engine raises on purpose."""


class PositionError(RulesError):
    """A position that cannot exist: too many checkers, negative counts, a point held by both."""


class DiceError(RulesError):
    """Dice that are not two numbers from 1 to 6."""


class NotationError(RulesError):
    """Move notation that cannot be read (a syntax error, not a rules question)."""


class IllegalPlayError(RulesError):
    """A readable play that the rules forbid for this position and roll."""


class PositionIdError(RulesError):
    """A GNU Backgammon Position ID that cannot be decoded."""


class MatchIdError(RulesError):
    """A GNU Backgammon Match ID that cannot be decoded."""


class XgidError(RulesError):
    """An eXtreme Gammon XGID that cannot be decoded."""


class CubeActionError(RulesError):
    """A cube action the rules do not allow (double, take, pass, beaver at the wrong moment)."""


class GameStateError(RulesError):
    """An action that does not fit the state of the game or match (e.g. scoring an unfinished game)."""
