"""What the referee shows: the panel's snapshot, the board's lights, the message line.

Pure functions of the recorded state (:class:`.fold.RefereeState`) and of what the referee has
seen since (its message, the last board read): they decide nothing and record nothing, so the
panel and the LEDs can be rebuilt from the log at any time. The referee calls them after every
input; a test can call them on any state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from controller.lights.scene import (
    DARK,
    Light,
    Scene,
    cube_offer_scene,
    game_over_scene,
    illegal_scene,
    legal_scene,
    turn_scene,
)
from controller.referee.clock import clock_view
from controller.referee.fold import RefereeState
from controller.referee.judge import cube_is_dead
from controller.referee.reading import Board
from controller.referee.turn import TurnPlays, board_of
from sheshbesh.match import as_player, as_player_or_none
from sheshbesh.snapshot import Message, MessageKind, PanelSnapshot


def message(kind: MessageKind, text: str, locations: Iterable[str] = ()) -> Message:
    """One line for the panel: what kind of news, its words, the locations it is about."""
    return {"kind": kind, "text": text, "locations": list(locations)}


def shown_message(state: RefereeState, said: Message | None) -> Message | None:
    """The message line: what the referee last said, else what the state itself says is wrong."""
    game = state.game
    if said is None and game.illegal is not None:
        return message("illegal", game.illegal.reason, game.illegal.locations)
    if said is None and game.mismatch is not None:
        return message("mismatch", game.mismatch)
    return said


def scene(
    state: RefereeState,
    said: Message | None,
    last_board: Board | None,
    plays: Callable[[], TurnPlays],
) -> Scene:
    """The board's lights, by what matters most now.

    ``said`` is the referee's message, ``last_board`` the last board it read (None: none yet, or
    a mismatch), ``plays`` the turn's legal plays (asked only when the variant's guide needs them;
    the referee keeps them cached).
    """
    game = state.game
    if game.phase in ("game_over", "match_over") and state.games:
        return game_over_scene(state.games[-1].winner)
    if game.restore_to is not None and last_board is not None:
        target = game.restore_to.counts()
        seen = last_board.counts()
        lights = {
            name: Light.ILLEGAL if sum(seen[name]) > sum(target[name]) else Light.SOURCE
            for name in last_board.differs_at(game.restore_to)
        }
        return Scene(lights, {"illegal"})
    if said and said["kind"] in ("illegal", "mismatch"):
        return illegal_scene(said["locations"])
    if game.illegal is not None:
        return illegal_scene(game.illegal.locations)
    if game.phase == "cube_offered" and game.offered_by is not None:
        return cube_offer_scene(game.offered_by)
    if game.phase not in ("rolling", "moving"):
        return DARK
    if game.phase == "moving" and state.hints and game.dice is not None:
        guide = state.rules.guide(game, last_board, plays)
        if guide is not None:
            return legal_scene(*guide, game.turn)
    return turn_scene(game.turn)


def snapshot(
    state: RefereeState, said: Message | None, lights: Scene, now: float | None
) -> PanelSnapshot:
    """The panel's whole picture, as plain JSON values (:class:`PanelSnapshot`).

    ``lights`` is the scene on the board; ``now`` the clock's time (read only for a match with a
    clock: None otherwise).
    """
    settings = state.settings
    game = state.game
    board = board_of(game.position)
    snapshot: PanelSnapshot = {
        "match": {
            "id": state.match_id,
            "players": list(settings.players) if settings else ["White", "Black"],
            "length": settings.length if settings else 0,
            "score": list(state.score),
            "crawford_game": game.crawford_game,
            "post_crawford": bool(state.crawford_done and not game.crawford_game),
            "game": game.number,
            "variant": state.variant,
            "policy": state.policy,
            "hints": state.hints,
            "winner": as_player_or_none(state.winner),
        },
        "cube": {
            "value": game.cube,
            "owner": as_player_or_none(game.cube_owner),
            "offered_by": as_player_or_none(game.offered_by),
            "dead": bool(settings and cube_is_dead(state.match_state())),
        },
        "turn": as_player(game.turn) if game.phase not in ("idle", "roll_off") else None,
        "dice": list(game.dice) if game.dice else None,
        "pips": [game.position.pip_count(0), game.position.pip_count(1)],
        "position": {name: [w, b] for name, (w, b) in board.counts().items()},
        "position_id": game.position.to_position_id(),
        "match_id": state.gnubg_match_id() if settings else "",
        "last_play": game.last_play,
        "moves": list(game.moves),
        "games": [
            {"game": g.game, "winner": g.winner, "points": g.points, "score": list(g.score)}
            for g in state.games
        ],
        "message": shown_message(state, said),
        "lights": {name: light.value for name, light in lights.lit().items()},
        "status": {"phase": game.phase},
    }
    if state.timer is not None:
        assert now is not None  # the referee reads its clock for a match with one
        clock = clock_view(state.timer, now)
        lost = state.games[-1].winner if state.games and state.games[-1].kind == "time" else None
        clock["lost_on_time"] = None if lost is None else as_player(1 - lost)
        snapshot["clock"] = clock
    return snapshot
