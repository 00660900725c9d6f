"""The label of a scene, one JSON file per image, and the check every label file must pass.

The label format (the camera reader's development contract)::

    {"image": "x.jpg", "width": W, "height": H, "seed": S, "family": "...", "split": "tune"|"heldout",
     "field_corners": [[x, y] x 4],        # TL, TR, BR, BL of the playing field, final image pixels
     "locations": {"p1": {"white": n, "black": n}, ... all 28},
     "dice": [{"pips": n, "box": [x, y, w, h], "cocked": bool}],
     "cube": {"value": v, "place": "middle"|"white"|"black", "box": [x, y, w, h]} | null,
     "occluded": bool, "style": {...every parameter...}}

Generation 2 (see :data:`synth.scene.GENERATIONS`) keeps every key above with the same meaning and
adds, so a reader of generation-1 labels reads these unchanged (a missing key means generation 1,
backgammon, nothing standing, no logo, no stream)::

     "generation": 2, "variant": "backgammon"|"sheshbesh",
     "standing": {"p6": 3, ...},   # checkers standing in a Shesh Besh stack, only where any stand;
                                   # they are included in "locations"; the rest there lie flat
     "cube": {..., "logo": bool},  # true: the up face shows an emblem in place of 64 (value 64)
     "style": {..., "stream": null|{"codec", "scale", "jpeg_quality"}, "stream_mode": "...",
               "stack_form": ""|"tower"|"on-edge", "dice": [{..., "rests_on": ""|"checker"}]}

Generation 3 keeps every key of generation 2 and adds what each die leans on (a cocked die leans
on a checker or on the board's wall: the frame's rim, a tray's divider or the raised bar's side)::

     "dice": [{..., "leans_on": ""|"checker"|"wall"}],   # "" exactly when the die is not cocked
     "style": {..., "dice": [{..., "rests_on": ""|"checker"|"wall",
                              "wall": ""|"rim-top"|"rim-bottom"|"rim-left"|"rim-right"|"bar"}]}

Generation 4 keeps every key of generation 3 and says which hands rest on the board's frame
(never over the field in the picture: such a frame is not occluded)::

     "style": {..., "hands": [{..., "on_frame": bool}]}

A scene made to learn dice from (``render --dice-pairs N``, N above 1) holds N pairs where it has
dice, and says so (a label without the key holds one pair)::

     "dice_pairs": N
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from sheshbesh.locations import CUBE_PLACES, LOCATIONS, POINT_LOCATIONS
from synth.scene import (
    CUBE_VALUES,
    FAMILIES,
    GENERATIONS,
    LEANS_ON,
    LIGHT_KINDS,
    STACK_FORMS,
    STREAM_MODES,
    VARIANTS,
    Scene,
    covers_field,
    field_corners_world,
    hand_points,
    image_points,
    make_scene,
    split_of,
)


def _box(scene: Scene, matrix: tuple[tuple[float, ...], ...], size: float) -> list[float]:
    """Bounding box [x, y, w, h] in image pixels of a cube of edge ``size`` at pose ``matrix``."""
    half = size / 2
    grid = np.array(
        [(x, y, z) for x in (-half, 0, half) for y in (-half, 0, half) for z in (-half, 0, half)]
    )
    m = np.asarray(matrix)
    world = grid @ m[:3, :3].T + m[:3, 3]
    pixels = image_points(scene.camera, scene.post, scene.width, scene.height, world)
    x0, y0 = np.min(pixels, axis=0)
    x1, y1 = np.max(pixels, axis=0)
    return [
        round(float(x0), 2),
        round(float(y0), 2),
        round(float(x1 - x0), 2),
        round(float(y1 - y0), 2),
    ]


def style_of(scene: Scene) -> dict[str, Any]:
    """Every parameter of the scene that is not already a label, as plain JSON values."""
    style: dict[str, Any] = {
        "board": dataclasses.asdict(scene.board),
        "checkers": dataclasses.asdict(scene.checkers_style),
        "light_kind": scene.light_kind,
        "lights": [dataclasses.asdict(light) for light in scene.lights],
        "world_colour": scene.world_colour,
        "world_strength": scene.world_strength,
        "table": {"surface": scene.table_surface, "colour": scene.table_colour},
        "camera": dataclasses.asdict(scene.camera),
        "post": dataclasses.asdict(scene.post),
        "position_kind": scene.position_kind,
        "dice": [
            {
                "size": d.size,
                "colour": d.colour,
                "pip_colour": d.pip_colour,
                "translucent": d.translucent,
                "rounding": d.rounding,
            }
            for d in scene.dice
        ],
        "cube": None
        if scene.cube is None
        else {
            "size": scene.cube.size,
            "colour": scene.cube.colour,
            "digit_colour": scene.cube.digit_colour,
        },
        "hands": [{"over_field": h.over_field, "skin": h.skin} for h in scene.hands],
        "clutter": [c.kind for c in scene.clutter],
        "off_on_edge": any(c.on_edge and c.location.startswith("off") for c in scene.checkers),
    }
    if scene.generation >= 2:
        style["stream"] = None if scene.stream is None else dataclasses.asdict(scene.stream)
        style["stream_mode"] = scene.stream_mode
        style["stack_form"] = scene.stack_form
        for die, entry in zip(scene.dice, style["dice"], strict=True):
            entry["rests_on"] = die.rests_on
            if scene.generation >= 3:
                entry["wall"] = die.wall
        if scene.cube is not None:
            style["cube"]["logo_kind"] = scene.cube.logo
    if scene.generation >= 4:
        for hand, entry in zip(scene.hands, style["hands"], strict=True):
            entry["on_frame"] = hand.on_frame
    return style


def label_of(scene: Scene, image_name: str) -> dict[str, Any]:
    """The label of ``scene`` rendered to ``image_name``."""
    corners = image_points(
        scene.camera,
        scene.post,
        scene.width,
        scene.height,
        np.array(field_corners_world(scene.board)),
    )
    occluded = any(
        covers_field(
            scene.board, scene.camera, scene.post, scene.width, scene.height, hand_points(h)
        )
        for h in scene.hands
    )
    label: dict[str, Any] = {
        "image": image_name,
        "width": scene.width,
        "height": scene.height,
        "seed": scene.seed,
        "family": scene.family,
        "split": scene.split,
        "field_corners": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
        "locations": {name: dict(scene.counts[name]) for name in LOCATIONS},
        "dice": [
            {"pips": d.value, "box": _box(scene, d.matrix, d.size), "cocked": d.cocked}
            for d in scene.dice
        ],
        "cube": None
        if scene.cube is None
        else {
            "value": scene.cube.value,
            "place": scene.cube.place,
            "box": _box(scene, scene.cube.matrix, scene.cube.size),
        },
        "occluded": occluded,
        "style": style_of(scene),
    }
    if scene.generation >= 2:
        label["generation"] = scene.generation
        label["variant"] = scene.variant
        label["standing"] = dict(scene.standing)
        if label["cube"] is not None:
            label["cube"]["logo"] = bool(scene.cube is not None and scene.cube.logo)
    if scene.generation >= 3:
        for die, entry in zip(scene.dice, label["dice"], strict=True):
            entry["leans_on"] = die.rests_on
    if len(scene.dice) > 2:
        label["dice_pairs"] = len(scene.dice) // 2
    return label


def scene_of(label: dict[str, Any]) -> Scene:
    """The scene ``label`` was made from, made again from its seed, style and options (a label
    of any generation; keys it lacks take their generation-1 meaning)."""
    return make_scene(
        label["seed"],
        label["family"],
        label["style"]["light_kind"],
        label["width"],
        label["height"],
        generation=label.get("generation", 1),
        variant=label.get("variant", "backgammon"),
        stream=label["style"].get("stream_mode", "mixed"),
        dice_pairs=label.get("dice_pairs", 1),
    )


def problems(label: dict[str, Any]) -> list[str]:
    """Everything wrong with one label (empty when it is consistent)."""
    found: list[str] = []
    width, height = label.get("width", 0), label.get("height", 0)
    locations = label.get("locations", {})
    missing = [name for name in LOCATIONS if name not in locations]
    if missing or len(locations) != len(LOCATIONS):
        found.append(f"locations: expected the 28 names, missing {missing}, got {len(locations)}")
    for colour in ("white", "black"):
        total = sum(int(locations.get(n, {}).get(colour, 0)) for n in LOCATIONS)
        if total != 15:
            found.append(f"{colour} has {total} checkers, not 15")
    for name in POINT_LOCATIONS:
        counts = locations.get(name, {})
        if counts.get("white", 0) and counts.get("black", 0):
            found.append(f"{name} holds both colours")
    if label.get("family") not in FAMILIES:
        found.append(f"family {label.get('family')!r} unknown")
    light = label.get("style", {}).get("light_kind")
    if light not in LIGHT_KINDS:
        found.append(f"light kind {light!r} unknown")
    elif label.get("split") != split_of(str(label.get("family")), light):
        found.append(f"split {label.get('split')!r} does not follow from family and light")
    corners = label.get("field_corners", [])
    if len(corners) != 4:
        found.append("field_corners: not four points")
    else:
        for x, y in corners:
            if not (0 <= x <= width and 0 <= y <= height):
                found.append(f"field corner ({x}, {y}) outside the {width}x{height} image")
        for i in range(4):
            (ax, ay), (bx, by), (cx, cy) = corners[i], corners[(i + 1) % 4], corners[(i + 2) % 4]
            turn = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
            if turn <= 0:
                found.append("field_corners: not convex in TL, TR, BR, BL (clockwise) order")
                break
    for die in label.get("dice", []):
        if die.get("pips") not in range(1, 7):
            found.append(f"die pips {die.get('pips')!r} not 1..6")
        x, y, w, h = die.get("box", [math.nan] * 4)
        if not (w > 0 and h > 0 and -w < x < width and -h < y < height):
            found.append(f"die box {die.get('box')} empty or outside the image")
    pairs = label.get("dice_pairs", 1)
    if len(label.get("dice", [])) not in (0, 2 * pairs):
        found.append("dice: neither none nor two" if pairs == 1 else f"dice: not {pairs} pairs")
    cube = label.get("cube")
    if cube is not None:
        if cube.get("value") not in CUBE_VALUES:
            found.append(f"cube value {cube.get('value')!r} not one of {CUBE_VALUES}")
        if cube.get("place") not in CUBE_PLACES:
            found.append(f"cube place {cube.get('place')!r} not one of {CUBE_PLACES}")
        if cube.get("place") == "middle" and cube.get("value") != 64:
            found.append("a centred cube must show 64")
    if not isinstance(label.get("occluded"), bool):
        found.append("occluded is not true or false")
    found += _generation_two_problems(label)
    return found


def _generation_two_problems(label: dict[str, Any]) -> list[str]:
    """What is wrong with the keys generation 2 adds (none of them present is fine)."""
    found: list[str] = []
    generation = label.get("generation", 1)
    if generation not in GENERATIONS:
        found.append(f"generation {generation!r} not one of {GENERATIONS}")
    variant = label.get("variant", "backgammon")
    if variant not in VARIANTS:
        found.append(f"variant {variant!r} not one of {VARIANTS}")
    locations = label.get("locations", {})
    standing = label.get("standing", {})
    if not isinstance(standing, dict):
        found.append("standing is not a mapping of location to a count")
        standing = {}
    if standing and variant != "sheshbesh":
        found.append(f"checkers stand in a {variant} position")
    for name, n in standing.items():
        if name not in POINT_LOCATIONS:
            found.append(f"standing: {name!r} is not a point")
            continue
        here = sum(int(v) for v in locations.get(name, {}).values())
        if not isinstance(n, int) or not 1 <= n <= here:
            found.append(f"standing: {n!r} stand on {name}, which holds {here}")
    cube = label.get("cube")
    if cube is not None and "logo" in cube:
        if not isinstance(cube["logo"], bool):
            found.append("cube logo is not true or false")
        elif cube["logo"] and cube.get("value") != 64:
            found.append("a cube showing its logo must have the value 64")
    style = label.get("style", {})
    if "stack_form" in style and style["stack_form"] not in ("", *STACK_FORMS):
        found.append(f"stack form {style['stack_form']!r} unknown")
    if "stream_mode" in style and style["stream_mode"] not in STREAM_MODES:
        found.append(f"stream mode {style['stream_mode']!r} unknown")
    for die in label.get("dice", []):
        if "leans_on" not in die:
            continue
        if die["leans_on"] not in ("", *LEANS_ON):
            found.append(f"die leans on {die['leans_on']!r}, not one of {LEANS_ON}")
        elif die.get("cocked") is True and not die["leans_on"]:
            found.append("a cocked die leaning on nothing")
        elif die.get("cocked") is not True and die["leans_on"]:
            found.append(f"a die lying flat yet leaning on a {die['leans_on']}")
    return found
