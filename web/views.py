"""Words and small pictures the templates draw from a state snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from web.board_svg import board_svg, dice_svg
from web.state import PLAYER_COLOURS, State


def player_name(state: State, player: Any) -> str:
    """The name of player 0 or 1, or an empty string for no player."""
    if player not in (0, 1) or isinstance(player, bool):
        return ""
    names = state["match"]["players"]
    return str(names[player]) or PLAYER_COLOURS[player]


def match_kind(match: Mapping[str, Any]) -> str:
    """ "Match to 7 · Crawford game", "Money game", "Shesh Besh · money"..."""
    parts = []
    if match.get("variant") == "sheshbesh":
        parts.append("Shesh Besh")
    length = int(match.get("length", 0))
    parts.append(f"Match to {length}" if length else "Money game")
    if length and match.get("crawford_game"):
        parts.append("Crawford game")
    elif length and match.get("post_crawford"):
        parts.append("post-Crawford")
    if match.get("game"):
        parts.append(f"game {match['game']}")
    return " · ".join(parts)


def cube_text(state: State, *, with_offer: bool = True) -> str:
    """The cube in words: "centred", "2, Boris's", plus "Ada offers 4" and "(dead)" when so."""
    cube = state["cube"]
    value = int(cube["value"])
    if cube.get("owner") is None:
        text = "centred" if value == 1 else f"{value}, centred"
    else:
        text = f"{value}, {player_name(state, cube['owner'])}'s"
    if cube.get("dead"):
        text += " (dead)"
    if with_offer and cube.get("offered_by") is not None:
        text += f" · {player_name(state, cube['offered_by'])} offers {value * 2}"
    return text


def move_text(state: State, entry: Mapping[str, Any]) -> str:
    """One entry of the move list: "31: 8/5 6/5" or "doubles to 2", "takes"..."""
    if "play" in entry:
        dice = entry.get("dice") or []
        roll = "".join(str(d) for d in dice)
        return f"{roll}: {entry['play']}" if roll else str(entry["play"])
    action = entry.get("action", "")
    if action == "double":
        return f"doubles to {entry.get('cube', '?')}"
    if action == "beaver":
        return f"beavers to {entry.get('cube', '?')}"
    return f"{action}s" if action in ("take", "pass") else str(action)


def register_template_helpers(app: Flask) -> None:
    app.jinja_env.globals.update(
        player_name=player_name,
        match_kind=match_kind,
        cube_text=cube_text,
        move_text=move_text,
        board_svg=board_svg,
        dice_svg=dice_svg,
        colours=("white", "black"),
        colour_names=PLAYER_COLOURS,
    )
