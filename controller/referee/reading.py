"""From what vision counted to a board: both sides' checkers, or a board mismatch in plain words.

Sides are 25-int tuples in GNU Backgammon's order, each counting from its own 1-point, index 24 the
bar. White's point ``n`` is location ``p{n}``; Black's point ``n`` is location ``p{25-n}``.

A raw reading that accounts for all fifteen checkers of each colour is taken as it is, even when a
less likely reading would be a legal play: the referee never snaps an illegal play into a legal one.
Only a reading that is no plausible board at all is corrected, and only at locations vision was
unsure of (confidence below ``threshold``), by at most ``max_changes`` checkers, towards the most
likely plausible board; equally likely corrections are settled by ``is_expected`` (a board the rules
expect now, e.g. the position before the play or a legal result) and otherwise left as a mismatch.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from sheshbesh.locations import POINT_LOCATIONS
from sheshbesh.observation import LocationCount, Observation

CHECKERS = 15
Side = tuple[int, ...]
_COLOUR_NAME = {"white": "White", "black": "Black"}


@dataclass(frozen=True, slots=True)
class Board:
    """Both sides' checkers as seen: ``white`` and ``black`` in their own numbering, bar at 24."""

    white: Side
    black: Side

    @property
    def off(self) -> tuple[int, int]:
        return (CHECKERS - sum(self.white), CHECKERS - sum(self.black))

    def side(self, player: int) -> Side:
        return self.white if player == 0 else self.black

    def counts(self) -> dict[str, tuple[int, int]]:
        """Location -> (white, black), every location named."""
        result = {name: (self.white[n - 1], self.black[24 - n]) for n, name in _numbered_points()}
        result["bar-white"] = (self.white[24], 0)
        result["bar-black"] = (0, self.black[24])
        white_off, black_off = self.off
        result["off-white"] = (white_off, 0)
        result["off-black"] = (0, black_off)
        return result

    def differs_at(self, other: Board) -> list[str]:
        """Locations where the two boards differ, in location order."""
        mine, theirs = self.counts(), other.counts()
        return [name for name in mine if mine[name] != theirs[name]]

    @classmethod
    def from_counts(cls, counts: Mapping[str, tuple[int, int]]) -> Board:
        """From location -> (white, black); trays are implied by the rest."""
        white = [0] * 25
        black = [0] * 25
        for n, name in _numbered_points():
            w, b = counts.get(name, (0, 0))
            white[n - 1] = w
            black[24 - n] = b
        white[24] = counts.get("bar-white", (0, 0))[0]
        black[24] = counts.get("bar-black", (0, 0))[1]
        return cls(tuple(white), tuple(black))


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A reading that is no plausible board: why, and where to look."""

    reason: str
    locations: tuple[str, ...]


def _numbered_points() -> Iterable[tuple[int, str]]:
    return ((int(name[1:]), name) for name in POINT_LOCATIONS)


def _problems(counts: Mapping[str, tuple[int, int]]) -> list[tuple[str, tuple[str, ...]]]:
    """Why these counts are no plausible board (empty when they are one)."""
    problems: list[tuple[str, tuple[str, ...]]] = []
    for name in POINT_LOCATIONS:
        white, black = counts[name]
        if white and black:
            problems.append((f"{name} shows White and Black checkers together", (name,)))
    for name, stray, owner in (
        ("bar-white", 1, "White"),
        ("bar-black", 0, "Black"),
        ("off-white", 1, "White"),
        ("off-black", 0, "Black"),
    ):
        if counts[name][stray]:
            colour = "a Black" if stray else "a White"
            place = "half of the bar" if name.startswith("bar") else "tray"
            problems.append((f"{colour} checker lies in {owner}'s {place} ({name})", (name,)))
    for index, colour in enumerate(("white", "black")):
        total = sum(entry[index] for entry in counts.values())
        if total != CHECKERS:
            problems.append(_count_problem(colour, total, counts, index))
    return problems


def _count_problem(
    colour: str, total: int, counts: Mapping[str, tuple[int, int]], index: int
) -> tuple[str, tuple[str, ...]]:
    name = _COLOUR_NAME[colour]
    difference = total - CHECKERS
    held = tuple(loc for loc, entry in counts.items() if entry[index])
    if difference < 0:
        missing = -difference
        words = "one is" if missing == 1 else f"{missing} are"
        return (
            f"{name} has {total} checkers on the board, bar and trays: {words} missing or misread",
            held,
        )
    words = "one too many" if difference == 1 else f"{difference} too many"
    return (f"{name} has {total} checkers on the board, bar and trays: {words} seen", held)


def raw_counts(observation: Observation) -> dict[str, tuple[int, int]]:
    """Location -> (white, black) exactly as vision counted."""
    blank = LocationCount()
    result: dict[str, tuple[int, int]] = {}
    for name in (*POINT_LOCATIONS, "bar-white", "bar-black", "off-white", "off-black"):
        entry = observation.locations.get(name, blank)
        result[name] = (entry.white, entry.black)
    return result


def read_board(
    observation: Observation,
    is_expected: Callable[[Board], bool] | None = None,
    threshold: float = 0.9,
    max_changes: int = 2,
) -> Board | Mismatch:
    """The most likely plausible board in ``observation``, or why there is none.

    >>> from sheshbesh.observation import LocationCount, Observation
    >>> counts = {"p1": LocationCount(15, 0), "p24": LocationCount(0, 15)}
    >>> read_board(Observation(counts)).off
    (0, 0)
    """
    counts = raw_counts(observation)
    problems = _problems(counts)
    if not problems:
        return Board.from_counts(counts)
    unsure = _unsure_entries(observation, threshold)
    best_cost = math.inf
    best: list[Board] = []
    for changes in range(1, max_changes + 1):
        for chosen in itertools.combinations(unsure, changes):
            for signs in itertools.product((-1, 1), repeat=changes):
                candidate = dict(counts)
                cost = 0.0
                valid = True
                for (name, index, penalty), sign in zip(chosen, signs, strict=True):
                    pair = list(candidate[name])
                    pair[index] += sign
                    if pair[index] < 0:
                        valid = False
                        break
                    candidate[name] = (pair[0], pair[1])
                    cost += penalty
                if not valid or cost > best_cost + 1e-9 or _problems(candidate):
                    continue
                board = Board.from_counts(candidate)
                if cost < best_cost - 1e-9:
                    best_cost, best = cost, [board]
                elif board not in best:
                    best.append(board)
    if len(best) == 1:
        return best[0]
    if len(best) > 1 and is_expected is not None:
        expected = [board for board in best if is_expected(board)]
        if len(expected) == 1:
            return expected[0]
    reason, locations = problems[0]
    unsure_places = sorted({name for name, _, _ in unsure}, key=_location_order)
    if unsure_places and len(best) > 1:
        reason += f"; it could be read more than one way at {', '.join(unsure_places)}"
    elif unsure_places:
        reason += f"; look at {', '.join(unsure_places)}"
    return Mismatch(reason + ": please put the board right", locations)


def _unsure_entries(observation: Observation, threshold: float) -> list[tuple[str, int, float]]:
    """(location, colour index, cost of changing it by one) for every count vision was unsure of."""
    entries: list[tuple[str, int, float]] = []
    for name, entry in observation.locations.items():
        for index, confidence in enumerate((entry.white_confidence, entry.black_confidence)):
            if confidence < threshold:
                sure = min(max(confidence, 1e-6), 1 - 1e-6)
                # The count is right with probability q, one off either way with (1 - q) / 2 each.
                entries.append((name, index, math.log(sure) - math.log((1 - sure) / 2)))
    return entries


def _location_order(name: str) -> tuple[int, str]:
    return (int(name[1:]), name) if name in POINT_LOCATIONS else (99, name)
