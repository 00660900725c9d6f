"""A knockout draw for the director: a seeded bracket from a player list, byes when the field is
not a power of two, and winners advanced from the matches the tables recorded.

The list's order is the seeding (first = top seed). The bracket has the next power of two of
places; seeds meet in the usual order (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight), so the two top
seeds can meet only in the final, and the missing places are byes that go to the top seeds,
who advance at once. Nothing of the bracket's progress is stored: :func:`bracket` folds it
from the draw and the recorded results every time, so a result recorded while the hub was
down, or re-sent after a cut, counts exactly once, like every other event the hub mirrors.

A bracket match is decided by the first finished match between its two players (either colour)
that reached the hub after the draw was made (the hub's clock times both); each recorded match
decides at most one bracket match.

>>> draw = Draw(("Ada", "Bo", "Cy"), length=5, created=100.0)
>>> [m["players"] for m in bracket(draw, [])["rounds"][0]]
[['Ada', None], ['Bo', 'Cy']]
>>> [m["players"] for m in bracket(draw, [])["rounds"][1]]
[['Ada', None]]
>>> result = {"players": ["Bo", "Cy"], "winner": 0, "score": [5, 2], "started": 150.0,
...           "table": "t1", "match": "m7"}
>>> final = bracket(draw, [result])["rounds"][1][0]
>>> final["players"], final["ready"]
(['Ada', 'Bo'], True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from controller.network.director import AssignmentError
from sheshbesh.language import N_
from sheshbesh.match import MAX_LENGTH

MAX_PLAYERS: Final = 128


@dataclass(frozen=True)
class Draw:
    """A knockout draw as the director made it: the seeded players, the match length of every
    match of it, and when it was made (seconds since the epoch; only matches started later
    count)."""

    players: tuple[str, ...]
    length: int
    created: float

    @classmethod
    def from_list(cls, players: Iterable[str], length: int | str, created: float) -> Draw:
        """A draw of ``players`` (blank entries skipped), checked.

        Raises :class:`~controller.network.director.AssignmentError` for fewer than two
        players, more than :data:`MAX_PLAYERS`, a name repeated or over 40 characters, or a bad
        length.

        >>> Draw.from_list(["Ada", " ", "Bo"], "3", 0.0).players
        ('Ada', 'Bo')
        """
        names = tuple(name.strip() for name in players if name.strip())
        if len(names) < 2:
            raise AssignmentError(N_("a knockout draw needs at least two players"))
        if len(names) > MAX_PLAYERS:
            raise AssignmentError(
                N_("a knockout draw takes at most %(most)s players"), most=MAX_PLAYERS
            )
        long = [name for name in names if len(name) > 40]
        if long:
            raise AssignmentError(
                N_("player name %(name)s is longer than 40 characters"), name=repr(long[0])
            )
        seen: set[str] = set()
        for name in names:
            if name.casefold() in seen:
                raise AssignmentError(N_("player %(name)s is listed twice"), name=repr(name))
            seen.add(name.casefold())
        try:
            points = int(length)
        except (TypeError, ValueError):
            raise AssignmentError(
                N_("match length %(length)s is not a number"), length=repr(length)
            ) from None
        if not 1 <= points <= MAX_LENGTH:
            raise AssignmentError(
                N_("a knockout match length must be 1 to %(most)s points"), most=MAX_LENGTH
            )
        return cls(names, points, float(created))


def seed_order(places: int) -> list[int]:
    """The seeds (1-based) in bracket order for ``places`` (a power of two): neighbours in
    pairs meet in the first round, and seeds 1 and 2 only in the final.

    >>> seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if places < 1 or places & (places - 1):
        raise ValueError(f"a bracket has a power of two of places, not {places}")
    order = [1]
    while len(order) < places:
        size = 2 * len(order)
        order = [seed for top in order for seed in (top, size + 1 - top)]
    return order


def _decides(result: Mapping[str, Any], pair: Sequence[str | None], since: float) -> bool:
    players = result.get("players") or []
    return (
        result.get("winner") in (0, 1)
        and float(result.get("started") or 0.0) >= since
        and len(players) == 2
        and None not in pair
        and sorted(str(p).casefold() for p in players) == sorted(str(p).casefold() for p in pair)
    )


def bracket(draw: Draw, results: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The bracket of ``draw`` with ``results`` (the hub's matches, oldest first, as
    :meth:`~controller.network.mirror.Mirror.matches` gives them) applied.

    Returns ``{"players", "length", "created", "rounds": [[match, ...], ...], "champion"}``;
    each match is ``{"round" (1-based), "slot", "players": [name | None, name | None],
    "seeds", "bye", "ready" (both known, not yet decided), "winner": name | None, "score",
    "table", "match"}`` (the last three from the recorded match that decided it).
    """
    places = 1
    while places < len(draw.players):
        places *= 2
    seats: list[str | None] = [
        draw.players[seed - 1] if seed <= len(draw.players) else None for seed in seed_order(places)
    ]
    seed_of = {name: index + 1 for index, name in enumerate(draw.players)}
    unused = [dict(result) for result in results]
    rounds: list[list[dict[str, Any]]] = []
    round_number = 1
    while len(seats) > 1:
        matches = []
        winners: list[str | None] = []
        for slot in range(len(seats) // 2):
            pair = [seats[2 * slot], seats[2 * slot + 1]]
            entry: dict[str, Any] = {
                "round": round_number,
                "slot": slot + 1,
                "players": pair,
                "seeds": [seed_of.get(name) if name else None for name in pair],
                "bye": False,
                "ready": False,
                "winner": None,
                "score": None,
                "table": None,
                "match": None,
            }
            known = [name for name in pair if name is not None]
            if round_number == 1 and len(known) == 1:
                entry["bye"] = True  # a top seed's bye: through at once
                entry["winner"] = known[0]
            elif len(known) == 2:
                found = next((r for r in unused if _decides(r, pair, draw.created)), None)
                if found is None:
                    entry["ready"] = True
                else:
                    unused.remove(found)
                    players = [str(p) for p in found["players"]]
                    won = players[int(found["winner"])].casefold()
                    entry["winner"] = pair[0] if str(pair[0]).casefold() == won else pair[1]
                    score = list(found.get("score") or [0, 0])
                    # The score as the bracket lists the pair, whatever colours they played.
                    flipped = players[0].casefold() != str(pair[0]).casefold()
                    entry["score"] = score[::-1] if flipped else score
                    entry["table"] = found.get("table")
                    entry["match"] = found.get("match")
            matches.append(entry)
            winners.append(entry["winner"])
        rounds.append(matches)
        seats = winners
        round_number += 1
    return {
        "players": list(draw.players),
        "length": draw.length,
        "created": draw.created,
        "rounds": rounds,
        "champion": seats[0] if rounds else None,
    }
