"""Words and small pictures the templates draw from a state snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from markupsafe import Markup

from web.board_svg import board_svg, dice_svg
from web.i18n import _, referee_text
from web.state import PLAYER_COLOURS, State


def player_name(state: State, player: Any) -> str:
    """The name of player 0 or 1 (the colour, in the page's language, when unnamed), or ""."""
    if player not in (0, 1) or isinstance(player, bool):
        return ""
    names = state["match"]["players"]
    return str(names[player]) or colour_name(player)


def colour_name(player: int) -> str:
    """ "White" or "Black" in the page's language."""
    return _("White") if player == 0 else _("Black")


def variant_name(variant: str) -> str:
    """The game's name as its players say it: Backgammon, or (Arabic) Shesh Besh."""
    return _("Shesh Besh") if variant == "sheshbesh" else _("Backgammon")


def match_kind(match: Mapping[str, Any]) -> str:
    """ "Match to 7 · Crawford game", "Money game", "Shesh Besh · money"..."""
    parts = []
    if match.get("variant") == "sheshbesh":
        parts.append(variant_name("sheshbesh"))
    length = int(match.get("length", 0))
    parts.append(_("Match to %(length)s", length=length) if length else _("Money game"))
    if length and match.get("crawford_game"):
        parts.append(_("Crawford game"))
    elif length and match.get("post_crawford"):
        parts.append(_("post-Crawford"))
    if match.get("game"):
        parts.append(_("game %(number)s", number=match["game"]))
    return " · ".join(parts)


def cube_text(state: State, *, with_offer: bool = True) -> str:
    """The cube in words: "centred", "2, Boris's", plus "Ada offers 4" and "(dead)" when so."""
    cube = state["cube"]
    value = int(cube["value"])
    if cube.get("owner") is None:
        text = _("centred") if value == 1 else _("%(value)s, centred", value=value)
    else:
        text = _("%(value)s, %(player)s's", value=value, player=player_name(state, cube["owner"]))
    if cube.get("dead"):
        text += " " + _("(dead)")
    if with_offer and cube.get("offered_by") is not None:
        offer = _(
            "%(player)s offers %(value)s",
            player=player_name(state, cube["offered_by"]),
            value=value * 2,
        )
        text += " · " + offer
    return text


def move_text(state: State, entry: Mapping[str, Any]) -> str:
    """One entry of the move list: "31: 8/5 6/5" or "doubles to 2", "takes"...

    The notation stays as the backgammon world writes it, in every language.
    """
    if "play" in entry:
        dice = entry.get("dice") or []
        roll = "".join(str(d) for d in dice)
        return f"{roll}: {entry['play']}" if roll else str(entry["play"])
    action = entry.get("action", "")
    cube = entry.get("cube", "?")
    if action == "double":
        return str(_("doubles to %(value)s", value=cube))
    if action == "beaver":
        return str(_("beavers to %(value)s", value=cube))
    if action == "take":
        return str(_("takes"))
    if action == "pass":
        return str(_("passes"))
    return str(action)


def status_word(word: Any) -> str:
    """A device's or the analysis's state ("ok", "lost", "none", "off"...) in the page's language."""
    words = {
        "ok": _("ok"),
        "lost": _("lost"),
        "none": _("none"),
        "off": _("off"),
        "available": _("available"),
        "not installed": _("not installed"),
        "board not seen": _("board not seen"),
    }
    return words.get(str(word), str(word))


def light_name(light: Any) -> str:
    """What a location's light means, in the page's language."""
    names = {
        "legal": _("legal"),
        "source": _("source"),
        "illegal": _("illegal"),
        "mismatch": _("mismatch"),
        "hint": _("hint"),
        "turn": _("turn"),
        "cube-offer": _("cube offer"),
        "game-over": _("game over"),
        "off": _("off"),
    }
    return names.get(str(light), str(light))


def sentence(text: Any) -> str:
    """An English sentence made elsewhere (the referee, the analysis) in the page's language."""
    return referee_text(str(text))


def skill_word(skill: Any) -> str:
    """How a decision is marked ("doubtful", "error", "blunder") in the page's language."""
    return sentence(skill)


def decision_text(decision: Mapping[str, Any], players: Any) -> str:
    """One of the analysis's costliest decisions in a line: who, where, what, the cost."""
    if decision.get("text"):
        return sentence(decision["text"])
    player = decision.get("player")
    who = players[player] if player in (0, 1) else "?"
    return _(
        "%(player)s, game %(game)s, move %(move_number)s",
        player=who,
        game=decision.get("game"),
        move_number=decision.get("move"),
    )


def policy_name(policy: str) -> str:
    """How illegal plays are handled ("teaching", "tournament", "condone"), in words."""
    names = {"teaching": _("teaching"), "tournament": _("tournament"), "condone": _("condone")}
    return names.get(policy, policy)


def corner_label(corner: str) -> str:
    """A corner of the playing field, as the calibration page names it."""
    names = {
        "top-left": _("top-left"),
        "top-right": _("top-right"),
        "bottom-right": _("bottom-right"),
        "bottom-left": _("bottom-left"),
    }
    return names.get(corner, corner)


def register_template_helpers(app: Flask) -> None:
    app.jinja_env.globals.update(
        player_name=player_name,
        match_kind=match_kind,
        cube_text=cube_text,
        move_text=move_text,
        colour_name=colour_name,
        variant_name=variant_name,
        status_word=status_word,
        light_name=light_name,
        sentence=sentence,
        skill_word=skill_word,
        decision_text=decision_text,
        policy_name=policy_name,
        corner_label=corner_label,
        Markup=Markup,
        board_svg=board_svg,
        dice_svg=dice_svg,
        colours=("white", "black"),
        colour_names=PLAYER_COLOURS,
    )
