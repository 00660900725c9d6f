"""LED hints from what the referee says: match events and legal-play steps -> :class:`Scene`.

The referee may build scenes itself with the functions of :mod:`controller.lights.scene`; these
helpers cover the common cases so that every view lights the same things for the same event.

>>> from controller.events import Event
>>> scene_for_event(Event("illegal_play", {"player": 0, "locations": ["p7", "p13"]}))
Scene({'p7': Light.ILLEGAL, 'p13': Light.ILLEGAL}, flags=['illegal'])
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.events import Event
from controller.lights.errors import SceneError
from controller.lights.scene import (
    DARK,
    Scene,
    cube_offer_scene,
    game_over_scene,
    illegal_scene,
    legal_scene,
    mover_location,
    turn_scene,
)


def steps_scene(steps: Iterable[tuple[int, int]], mover: int) -> Scene:
    """Legal hints from checker steps ``(from, to)`` in the mover's numbering (25 bar, 0 off).

    >>> steps_scene([(13, 10), (13, 8)], mover=1).lit()
    {'p12': <Light.SOURCE: 'source'>, 'p15': <Light.LEGAL: 'legal'>, 'p17': <Light.LEGAL: 'legal'>, 'off-black': <Light.TURN: 'turn'>}
    """
    step_list = list(steps)
    sources = [mover_location(start, mover) for start, _ in step_list]
    destinations = [mover_location(end, mover) for _, end in step_list]
    return legal_scene(sources, destinations, mover)


def scene_for_event(event: Event, current: Scene = DARK) -> Scene:
    """The scene an event calls for; events that change nothing on the board keep ``current``.

    Raises :class:`SceneError` when the event's data lacks what its type needs.
    """
    data = event.data
    try:
        match event.type:
            case "dice_rolled":
                return turn_scene(data["player"])
            case "cube_taken":  # the doubler rolls next
                return turn_scene(1 - int(data["player"]))
            case "illegal_play" | "board_mismatch":
                return illegal_scene(data.get("locations", ()))
            case "cube_offered":
                return cube_offer_scene(data["player"])
            case "game_won" | "match_won":
                return game_over_scene(data["winner"])
            case "play" | "undo" | "board_restored" | "game_started" | "cube_passed":
                return DARK  # the referee lights the next turn (dice_rolled) or new hints
            case _:
                return current
    except KeyError as error:
        raise SceneError(f"{event.type} event lacks {error.args[0]!r}: {data!r}") from error
