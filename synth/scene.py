"""A complete scene description from a seed and a style family, in pure Python.

Every random choice of the development set is made here (board make, colours, position, where each
checker lies, dice, cube, hands, clutter, lights, camera, camera faults), so the labels follow from
the description alone and are the same with or without Blender. :mod:`synth.blender` only draws it.

Image conventions the camera reader relies on: White (the lighter checkers) sits at the bottom of the
image; the bottom row of points reads p12..p1 from left to right, the top row p13..p24.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from sheshbesh.locations import COLOURS, LOCATIONS, Colour
from synth import SynthInputError
from synth.projection import Vec3, distort, focal_pixels, look_at, project

Rgb = tuple[float, float, float]

#: Board makes. Each names a family of real boards; the held-out ones are never used for tuning.
FAMILIES: tuple[str, ...] = (
    "tournament-felt",
    "tournament-leather",
    "wooden-folding",
    "inlaid-tavla",
    "travel",
)
HELDOUT_FAMILIES: tuple[str, ...] = ("inlaid-tavla", "travel")
TUNE_FAMILIES: tuple[str, ...] = tuple(f for f in FAMILIES if f not in HELDOUT_FAMILIES)
#: Lighting kinds, crossed with every family; "window" (hard side daylight) is held out.
LIGHT_KINDS: tuple[str, ...] = ("lamp", "overhead", "mixed", "window")
HELDOUT_LIGHTS: tuple[str, ...] = ("window",)
TUNE_LIGHTS: tuple[str, ...] = tuple(k for k in LIGHT_KINDS if k not in HELDOUT_LIGHTS)
#: Selections the command line accepts besides one family name.
SELECTIONS: tuple[str, ...] = ("all", "tune", "heldout")
#: The game set up on the board: backgammon, or Arabic Shesh Besh with its standing stacks.
VARIANTS: tuple[str, ...] = ("backgammon", "sheshbesh")
#: Generations of the generator. 1 made the committed evaluation set ``tests/data/photoreal`` and is
#: kept so its labels stay reproducible; 2 adds the Shesh Besh variant, logo faces on the cube,
#: video-stream compression and cocked dice that lean on a checker. Labels without a
#: ``generation`` key are generation 1. 3 keeps generation 2 (whose sample
#: ``tests/data/photoreal-sheshbesh`` it reproduces) and lets a cocked die lean on the board's wall
#: as well as on a checker. 4 keeps generation 3 and adds hands resting on the board's frame, their
#: fingertips short of the field, as players' hands rest between turns (a stream's graphics
#: round the field are drawn by ``benchmarks/bench_field.py --overlay`` on any set).
GENERATIONS: tuple[int, ...] = (1, 2, 3, 4)
GENERATION = 3
#: Widest rounding of the rims' and the raised bar's top edges in the renderer: below it the wall's
#: inner side is flat, which is where a die leaning on the wall touches it.
RIM_BEVEL = 0.003
#: What a cocked die leans on (generation 3 labels it; generation 2 only leans on a checker).
LEANS_ON: tuple[str, ...] = ("checker", "wall")
#: How often a generation-2 scene is compressed like a video stream, by ``--stream`` mode.
STREAM_MODES: dict[str, float] = {"never": 0.0, "mixed": 0.25, "always": 1.0}
#: Shesh Besh stacks: a pile of flat checkers, or checkers stood on their edge side by side.
STACK_FORMS: tuple[str, ...] = ("tower", "on-edge")

Split = Literal["tune", "heldout"]


def split_of(family: str, light_kind: str) -> Split:
    """``heldout`` when either the board make or the lighting is held back from tuning."""
    return "heldout" if family in HELDOUT_FAMILIES or light_kind in HELDOUT_LIGHTS else "tune"


# --- the style: what the board and pieces look like -------------------------------------------


@dataclass(frozen=True)
class BoardStyle:
    """Dimensions (metres) and looks of the board. The playing field is ``field_w`` x ``field_h``:
    twelve points across plus the bar; trays and frame lie outside it."""

    family: str
    surface: str  # felt, leather, cork, lacquer, wood
    field_colour: Rgb
    point_colours: tuple[Rgb, Rgb]
    point_surface: str  # the material kind of the points
    frame_surface: str
    frame_colour: Rgb
    checker_d: float
    point_w: float
    point_len: float
    bar_w: float
    bar_raised: bool
    field_w: float
    field_h: float
    frame_w: float
    rim_h: float
    divider_w: float
    tray_side: str  # right, left, both, none
    tray_w: float
    base_t: float
    logo: str  # "" for none
    logo_colour: Rgb
    hinges: bool
    inlay: bool


@dataclass(frozen=True)
class CheckerStyle:
    """The two checker sets; ``white`` is always the lighter one."""

    name: str
    white: Rgb
    black: Rgb
    thickness: float
    bevel: float
    roughness: float
    marbled: bool
    ridged: bool
    wooden: bool


@dataclass(frozen=True)
class Checker:
    """One checker: centre of its bottom face, and whether it stands on edge (axis along y).

    A checker on edge may lean: ``lean`` radians about the x axis (its top towards -y when
    positive), then turned by ``yaw`` about the vertical."""

    colour: Colour
    location: str
    x: float
    y: float
    z: float
    spin: float
    on_edge: bool = False
    lean: float = 0.0
    yaw: float = 0.0


@dataclass(frozen=True)
class Die:
    """A die: ``value`` is the face up; ``matrix`` its 4x4 pose (row-major) with the die's centre
    at the origin of its local frame and local +z the value face; ``size`` its edge length."""

    value: int
    size: float
    matrix: tuple[tuple[float, ...], ...]
    cocked: bool
    colour: Rgb
    pip_colour: Rgb
    translucent: bool
    rounding: float
    rests_on: str = ""  # "checker" (generation 2 on) or "wall" (generation 3) when cocked
    wall: str = ""  # the wall a die leans on: rim-top, rim-bottom, rim-left, rim-right or bar


@dataclass(frozen=True)
class Cube:
    """The doubling cube: ``value`` on top, resting at ``place`` (middle, white, black)."""

    value: int
    place: str
    size: float
    matrix: tuple[tuple[float, ...], ...]
    colour: Rgb
    digit_colour: Rgb
    logo: str = ""  # the emblem on the up face in place of 64 ("ring-star", "monogram"), or ""


@dataclass(frozen=True)
class Capsule:
    """A rounded segment of a hand or forearm, from ``a`` to ``b`` with ``radius``."""

    a: Vec3
    b: Vec3
    radius: float


@dataclass(frozen=True)
class Hand:
    """A forearm and hand made of capsules; ``over_field`` when it hovers above the playing field."""

    capsules: tuple[Capsule, ...]
    skin: Rgb
    sleeve: Rgb
    over_field: bool
    #: (generation 4) resting on the board's frame, fingers short of the field
    on_frame: bool = False


@dataclass(frozen=True)
class Clutter:
    """Something on the table beside the board: cup, can, phone, card or clock; ``size`` holds the
    half width, half depth and the height."""

    kind: str
    x: float
    y: float
    yaw: float
    colour: Rgb
    size: tuple[float, float, float]


@dataclass(frozen=True)
class Light:
    """A light in Blender's terms: ``kind`` POINT or AREA, power in watts, colour temperature in K."""

    kind: str
    location: Vec3
    target: Vec3
    power: float
    temperature: float
    size: tuple[float, float]
    radius: float


@dataclass(frozen=True)
class CameraSetup:
    location: Vec3
    target: Vec3
    roll_deg: float
    lens_mm: float
    tilt_deg: float


@dataclass(frozen=True)
class PostEffects:
    """The camera's faults, applied to the linear render by :mod:`synth.post`."""

    exposure_ev: float
    white_balance: Rgb
    grey_world: float
    noise: float
    blur_px: float
    blur_angle: float
    k1: float
    jpeg_quality: int
    seed: int


@dataclass(frozen=True)
class Stream:
    """Video-stream compression (generation 2): the frame is scaled by ``scale``, encoded as one
    frame of a video with OpenCV's writer (``codec`` mp4v or vp8; both store 4:2:0 chroma) or, for
    ``jpeg``, subsampled to 4:2:0 and compressed hard at ``jpeg_quality``, then scaled back."""

    codec: str
    scale: float
    jpeg_quality: int


@dataclass(frozen=True)
class Scene:
    seed: int
    family: str
    light_kind: str
    board: BoardStyle
    checkers_style: CheckerStyle
    counts: dict[str, dict[str, int]]
    checkers: tuple[Checker, ...]
    dice: tuple[Die, ...]
    cube: Cube | None
    hands: tuple[Hand, ...]
    clutter: tuple[Clutter, ...]
    lights: tuple[Light, ...]
    world_colour: Rgb
    world_strength: float
    table_surface: str
    table_colour: Rgb
    camera: CameraSetup
    post: PostEffects
    width: int
    height: int
    position_kind: str
    extras: dict[str, float] = field(default_factory=dict)
    generation: int = 1
    variant: str = "backgammon"
    #: Checkers standing in a Shesh Besh stack, by location (only locations that have any).
    standing: dict[str, int] = field(default_factory=dict)
    stack_form: str = ""
    stream: Stream | None = None
    stream_mode: str = "never"

    @property
    def split(self) -> Split:
        return split_of(self.family, self.light_kind)


# --- colour palettes ------------------------------------------------------------------------


def _jitter(rng: random.Random, colour: Rgb, amount: float = 0.04) -> Rgb:
    """``colour`` varied by about ``amount`` relative to each channel (dark colours stay dark and
    keep their hue), plus a trace of absolute variation."""
    r, g, b = (
        min(
            1.0,
            max(0.002, c * (1 + rng.uniform(-3 * amount, 3 * amount)) + rng.uniform(-0.005, 0.005)),
        )
        for c in colour
    )
    return (r, g, b)


#: (name, lighter set, darker set) in linear RGB.
CHECKER_SETS: tuple[tuple[str, Rgb, Rgb], ...] = (
    ("white-black", (0.80, 0.80, 0.78), (0.02, 0.02, 0.02)),
    ("cream-brown", (0.78, 0.66, 0.45), (0.14, 0.05, 0.02)),
    ("ivory-red", (0.80, 0.74, 0.58), (0.45, 0.02, 0.02)),
    ("ivory-green", (0.80, 0.75, 0.60), (0.02, 0.16, 0.06)),
    ("white-red", (0.82, 0.82, 0.80), (0.40, 0.01, 0.015)),
    ("beige-navy", (0.70, 0.58, 0.40), (0.02, 0.03, 0.12)),
    ("pearl-burgundy", (0.75, 0.72, 0.70), (0.20, 0.01, 0.04)),
)
TOURNAMENT_POINTS: tuple[tuple[Rgb, Rgb], ...] = (
    ((0.60, 0.45, 0.25), (0.02, 0.02, 0.02)),  # cream/black
    ((0.42, 0.02, 0.02), (0.72, 0.60, 0.40)),  # red/cream
    ((0.30, 0.12, 0.04), (0.75, 0.65, 0.45)),  # brown/cream
    ((0.40, 0.03, 0.02), (0.02, 0.02, 0.02)),  # red/black
    ((0.55, 0.45, 0.30), (0.08, 0.03, 0.02)),  # tan/chocolate
)
FIELD_COLOURS: tuple[Rgb, ...] = (
    (0.02, 0.12, 0.05),  # green
    (0.45, 0.35, 0.20),  # camel
    (0.05, 0.05, 0.12),  # navy
    (0.18, 0.02, 0.02),  # burgundy
    (0.30, 0.30, 0.28),  # grey
    (0.02, 0.07, 0.12),  # teal
    (0.55, 0.48, 0.35),  # sand
)
WOODS: tuple[Rgb, ...] = (
    (0.35, 0.16, 0.06),
    (0.50, 0.28, 0.12),
    (0.20, 0.08, 0.03),
    (0.60, 0.40, 0.20),
    (0.12, 0.05, 0.02),
)
SKINS: tuple[Rgb, ...] = (
    (0.72, 0.48, 0.36),
    (0.55, 0.33, 0.22),
    (0.35, 0.19, 0.11),
    (0.80, 0.58, 0.46),
    (0.20, 0.10, 0.06),
)


# --- the board make -----------------------------------------------------------------------


def _board(rng: random.Random, family: str) -> tuple[BoardStyle, CheckerStyle]:
    """Dimensions and looks of one board of ``family``, with a checker set to match."""
    set_name, white, black = rng.choice(CHECKER_SETS)
    wooden_checkers = False
    logo = ""
    hinges = False
    inlay = False
    bar_raised = True
    point_surface = ""
    if family == "tournament-felt" or family == "tournament-leather":
        surface = (
            "felt" if family == "tournament-felt" else rng.choice(["leather", "leather", "cork"])
        )
        checker_d = rng.uniform(0.036, 0.041)
        field_colour = _jitter(rng, rng.choice(FIELD_COLOURS))
        points = rng.choice(TOURNAMENT_POINTS)
        point_surface = surface
        frame_surface = rng.choice(["leather", "lacquer"])
        frame_colour = _jitter(
            rng, rng.choice([(0.03, 0.02, 0.02), (0.20, 0.08, 0.03), (0.6, 0.5, 0.35)])
        )
        bar_w = rng.uniform(0.045, 0.075)
        frame_w = rng.uniform(0.035, 0.055)
        tray_side = rng.choice(["right", "right", "both", "left"])
        logo = rng.choice(["", "", "BACKGAMMON", "CLUB", "TOURNAMENT"])
        hinges = rng.random() < 0.5
    elif family == "wooden-folding":
        surface = rng.choice(["wood", "wood", "lacquer"])
        checker_d = rng.uniform(0.030, 0.036)
        field_colour = _jitter(rng, rng.choice(WOODS[1:4]), 0.05)
        points = (
            _jitter(rng, rng.choice([(0.03, 0.02, 0.02), (0.35, 0.03, 0.02), (0.12, 0.05, 0.02)])),
            _jitter(rng, rng.choice([(0.72, 0.62, 0.42), (0.55, 0.35, 0.15), (0.85, 0.80, 0.70)])),
        )
        point_surface = "lacquer"
        frame_surface = "wood"
        frame_colour = _jitter(rng, rng.choice(WOODS), 0.03)
        bar_w = rng.uniform(0.025, 0.05)
        frame_w = rng.uniform(0.025, 0.04)
        tray_side = rng.choice(["both", "right", "none"])
        hinges = True
        wooden_checkers = rng.random() < 0.3
    elif family == "inlaid-tavla":
        surface = "wood"
        checker_d = rng.uniform(0.028, 0.034)
        field_colour = _jitter(rng, rng.choice(WOODS[1:4]), 0.05)
        points = (
            _jitter(rng, rng.choice([(0.10, 0.04, 0.015), (0.18, 0.07, 0.02)])),
            _jitter(rng, rng.choice([(0.70, 0.52, 0.30), (0.80, 0.68, 0.48)])),
        )
        point_surface = "wood"
        frame_surface = "wood"
        frame_colour = _jitter(rng, rng.choice(WOODS), 0.03)
        bar_w = rng.uniform(0.012, 0.03)
        bar_raised = rng.random() < 0.4
        frame_w = rng.uniform(0.03, 0.05)
        tray_side = "none"
        hinges = True
        inlay = True
        wooden_checkers = rng.random() < 0.6
        logo = rng.choice(["", "TAVLA", "NARDY"])
    elif family == "travel":
        surface = rng.choice(["felt", "leather", "lacquer"])
        checker_d = rng.uniform(0.020, 0.026)
        field_colour = _jitter(rng, rng.choice(FIELD_COLOURS))
        points = rng.choice(TOURNAMENT_POINTS)
        point_surface = "lacquer" if surface == "lacquer" else surface
        frame_surface = rng.choice(["leather", "lacquer"])
        frame_colour = _jitter(
            rng, rng.choice([(0.03, 0.02, 0.02), (0.25, 0.10, 0.04), (0.05, 0.05, 0.1)])
        )
        bar_w = rng.uniform(0.018, 0.035)
        frame_w = rng.uniform(0.015, 0.025)
        tray_side = rng.choice(["none", "right"])
        hinges = rng.random() < 0.5
    else:
        raise SynthInputError(f"family {family!r} is not one of {', '.join(FAMILIES)}")
    if wooden_checkers:
        set_name = "wood"
        white = _jitter(rng, (0.62, 0.45, 0.24), 0.05)
        black = _jitter(rng, (0.10, 0.04, 0.015), 0.02)
    point_w = checker_d * rng.uniform(1.03, 1.15)
    point_len = 5 * checker_d * rng.uniform(0.80, 0.98)
    gap = rng.uniform(0.6, 1.8) * checker_d
    field_h = 2 * max(point_len, 5 * checker_d) + gap
    board = BoardStyle(
        family=family,
        surface=surface,
        field_colour=field_colour,
        point_colours=points,
        point_surface=point_surface,
        frame_surface=frame_surface,
        frame_colour=frame_colour,
        checker_d=checker_d,
        point_w=point_w,
        point_len=point_len,
        bar_w=bar_w,
        bar_raised=bar_raised,
        field_w=12 * point_w + bar_w,
        field_h=field_h,
        frame_w=frame_w,
        rim_h=rng.uniform(0.008, 0.018) if family != "travel" else rng.uniform(0.004, 0.008),
        divider_w=rng.uniform(0.012, 0.025),
        tray_side=tray_side,
        tray_w=checker_d * rng.uniform(1.15, 1.4),
        base_t=rng.uniform(0.015, 0.03),
        logo=logo,
        logo_colour=rng.choice([(0.75, 0.55, 0.15), (0.8, 0.8, 0.78), (0.02, 0.02, 0.02)]),
        hinges=hinges,
        inlay=inlay,
    )
    style = CheckerStyle(
        name=set_name,
        white=_jitter(rng, white, 0.03),
        black=_jitter(rng, black, 0.015),
        thickness=checker_d * rng.uniform(0.18, 0.27),
        bevel=checker_d * rng.uniform(0.02, 0.06),
        roughness=rng.uniform(0.08, 0.45),
        marbled=(not wooden_checkers) and rng.random() < 0.35,
        ridged=rng.random() < 0.4,
        wooden=wooden_checkers,
    )
    return board, style


# --- positions --------------------------------------------------------------------------------

STARTING = {"white": {24: 2, 13: 5, 8: 3, 6: 5}, "black": {24: 2, 13: 5, 8: 3, 6: 5}}


def _empty_counts() -> dict[str, dict[str, int]]:
    return {name: {"white": 0, "black": 0} for name in LOCATIONS}


def _own_point(point: int, colour: Colour) -> str:
    return f"p{point if colour == 'white' else 25 - point}"


def _position(rng: random.Random) -> tuple[str, dict[str, dict[str, int]]]:
    """A legal-looking position: 15 checkers a side over points, bar and off, never two colours on
    one point. Kinds: the start, a middle game, a race/bear-off with tall stacks, a contact game
    with checkers on the bar and borne off."""
    kind = rng.choices(["start", "middle", "bearoff", "contact"], [0.2, 0.35, 0.25, 0.2])[0]
    counts = _empty_counts()
    if kind == "start":
        for colour in COLOURS:
            for point, n in STARTING[colour].items():
                counts[_own_point(point, colour)][colour] = n
        return kind, counts
    for colour in COLOURS:
        left = 15
        if kind == "bearoff":
            off = rng.randint(0, 9)
            bar = 0
        elif kind == "contact":
            off = rng.choice([0, 0, 1, 2, 3, 5])
            bar = rng.choice([0, 1, 1, 2, 3])
        else:
            off = 0
            bar = rng.choice([0, 0, 0, 1])
        counts[f"off-{colour}"][colour] = off
        counts[f"bar-{colour}"][colour] = bar
        left -= off + bar
        if kind == "bearoff":
            candidates = list(range(1, 7))
        elif kind == "contact":
            candidates = list(range(1, 25))
        else:
            candidates = list(range(1, 25))
        while left > 0:
            # Tall stacks in a race; smaller groups elsewhere.
            point = rng.choice(candidates)
            name = _own_point(point, colour)
            other: Colour = "black" if colour == "white" else "white"
            if counts[name][other] > 0:
                continue
            top = 15 if kind == "bearoff" else 6
            n = min(left, rng.randint(1, top), 15 - counts[name][colour])
            if n <= 0:
                continue
            counts[name][colour] += n
            left -= n
    return kind, counts


#: Arabic Shesh Besh: the stack on each of a side's own points at the start (rules, section 2).
SHESHBESH_STACKS: dict[int, int] = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}
SHESHBESH_STAGES: tuple[str, ...] = ("start", "laying", "eating")


def _sheshbesh_side(rng: random.Random, stage: str) -> tuple[dict[int, int], dict[int, int], int]:
    """One side of a Shesh Besh game at ``stage``: checkers per own point, how many of them still
    stand in the point's stack, and how many are borne off.

    A stack of n lays down n - 1 checkers one by one beside itself (its bottom one counts as down
    already), so a stack stands while it holds two or more; its last checker lies like the others.
    """
    total = dict(SHESHBESH_STACKS)
    standing = dict(SHESHBESH_STACKS)
    off = 0
    if stage == "laying":
        # Some but not all of the nine lay-downs done.
        while True:
            laid = {p: rng.randint(0, n - 1) for p, n in SHESHBESH_STACKS.items()}
            if 0 < sum(laid.values()) < 9:
                break
        standing = {p: n - laid[p] if n - laid[p] >= 2 else 0 for p, n in SHESHBESH_STACKS.items()}
    elif stage == "eating":
        standing = {p: 0 for p in SHESHBESH_STACKS}
        off = rng.randint(0, 13)
        for _ in range(off):
            point = rng.choice([p for p, n in total.items() if n > 0])
            total[point] -= 1
    return total, standing, off


def _sheshbesh_position(
    rng: random.Random,
) -> tuple[str, dict[str, dict[str, int]], dict[str, int]]:
    """A Shesh Besh position: each side at its own stage (the start, laying down, bearing off);
    the kind names both, White's first, e.g. ``sheshbesh-laying-start``."""
    counts = _empty_counts()
    standing: dict[str, int] = {}
    stages = []
    for colour in COLOURS:
        stage = rng.choices(SHESHBESH_STAGES, [0.35, 0.45, 0.2])[0]
        stages.append(stage)
        total, up, off = _sheshbesh_side(rng, stage)
        for point, n in total.items():
            name = _own_point(point, colour)
            counts[name][colour] = n
            if up[point]:
                standing[name] = up[point]
        counts[f"off-{colour}"][colour] = off
    return "sheshbesh-" + "-".join(stages), counts, standing


# --- placing checkers ---------------------------------------------------------------------------

#: Slots on a point: (layer, index along the point in checker diameters). Layer 0 holds five from
#: the point's base; each next layer sits in the gaps on top of the one below: 5+4+3+2+1 = 15.
POINT_SLOTS: tuple[tuple[int, float], ...] = tuple(
    (layer, index + layer / 2) for layer in range(5) for index in range(5 - layer)
)


def point_column(point: int) -> tuple[int, bool]:
    """Column 0..11 from the image's left and whether the point is on the top row."""
    if point <= 12:
        return 12 - point, False
    return point - 13, True


def point_base(board: BoardStyle, point: int) -> tuple[float, float, float]:
    """x of the point's centre line, y of its base at the rim and the direction towards the middle."""
    column, top = point_column(point)
    half = board.field_w / 2
    if column < 6:
        x = -half + (column + 0.5) * board.point_w
    else:
        x = board.bar_w / 2 + (column - 6 + 0.5) * board.point_w
    half_h = board.field_h / 2
    return (x, half_h, -1.0) if top else (x, -half_h, 1.0)


def tray_x(board: BoardStyle) -> float | None:
    """x of the centre of the tray that holds borne-off checkers (None: no tray, they lie on the table)."""
    if board.tray_side == "none":
        return None
    sign = -1.0 if board.tray_side == "left" else 1.0
    return sign * (board.field_w / 2 + board.divider_w + board.tray_w / 2)


def outer_extent(board: BoardStyle) -> tuple[float, float, float, float]:
    """The board's outer rectangle: x0, x1, y0, y1 (metres)."""
    left = board.field_w / 2 + board.frame_w
    right = left
    extra = board.divider_w + board.tray_w
    if board.tray_side in ("right", "both"):
        right += extra
    if board.tray_side in ("left", "both"):
        left += extra
    half_h = board.field_h / 2 + board.frame_w
    return -left, right, -half_h, half_h


def _stack(
    rng: random.Random,
    board: BoardStyle,
    style: CheckerStyle,
    colour: Colour,
    point: int,
    n: int,
    form: str,
) -> list[Checker]:
    """A Shesh Besh stack of ``n`` at the base of ``point``: a pile of flat checkers (``tower``)
    or checkers stood on edge side by side, face to face, leaning a little towards the frame."""
    d, t = board.checker_d, style.thickness
    x, y0, direction = point_base(board, point)
    name = f"p{point}"
    centre = y0 + direction * (d / 2 + d * 0.03)
    if form == "tower":
        return [
            Checker(
                colour,
                name,
                x + rng.gauss(0.0, d * 0.02),
                centre + rng.gauss(0.0, d * 0.02),
                level * t,
                rng.uniform(0, 2 * math.pi),
            )
            for level in range(n)
        ]
    lean = direction * math.radians(rng.uniform(2.0, 8.0))
    yaw = rng.uniform(-0.15, 0.15)
    step = t * 1.03 / math.cos(lean)
    stack = []
    for k in range(n):
        along = (k - (n - 1) / 2) * step
        stack.append(
            Checker(
                colour,
                name,
                x - math.sin(yaw) * along + rng.gauss(0.0, d * 0.01),
                centre + math.cos(yaw) * along,
                0.0,
                rng.uniform(0, 2 * math.pi),
                on_edge=True,
                lean=lean + rng.gauss(0.0, 0.01),
                yaw=yaw + rng.gauss(0.0, 0.02),
            )
        )
    return stack


def _place_checkers(
    rng: random.Random,
    board: BoardStyle,
    style: CheckerStyle,
    counts: dict[str, dict[str, int]],
    standing: dict[str, int] | None = None,
    stack_form: str = "",
) -> tuple[Checker, ...]:
    d = board.checker_d
    t = style.thickness
    placed: list[Checker] = []

    def jitter() -> float:
        return rng.gauss(0.0, d * 0.025)

    for point in range(1, 25):
        name = f"p{point}"
        for colour in COLOURS:
            n = counts[name][colour]
            if n == 0:
                continue
            x, y0, direction = point_base(board, point)
            up = (standing or {}).get(name, 0)
            slots = POINT_SLOTS[:n]
            if up:
                # The stack takes the first place at the base; the laid-down ones lie beside it.
                placed += _stack(rng, board, style, colour, point, up, stack_form)
                slots = POINT_SLOTS[1 : 1 + n - up]
            for layer, along in slots:
                placed.append(
                    Checker(
                        colour,
                        name,
                        x + jitter(),
                        y0 + direction * (d / 2 + d * 0.02 + along * d * 1.01) + jitter(),
                        layer * t,
                        rng.uniform(0, 2 * math.pi),
                    )
                )
    bar_z = board.rim_h if board.bar_raised else 0.0012
    for colour in COLOURS:
        n = counts[f"bar-{colour}"][colour]
        sign = -1.0 if colour == "white" else 1.0
        for i in range(n):
            row, layer = i % 4, i // 4
            placed.append(
                Checker(
                    colour,
                    f"bar-{colour}",
                    jitter(),
                    sign * (d * 0.85 + row * d * 1.02 + layer * d * 0.5) + jitter(),
                    bar_z + layer * t,
                    rng.uniform(0, 2 * math.pi),
                )
            )
    tx = tray_x(board)
    on_edge = tx is not None and rng.random() < 0.5
    for colour in COLOURS:
        n = counts[f"off-{colour}"][colour]
        sign = -1.0 if colour == "white" else 1.0
        edge = board.field_h / 2
        for i in range(n):
            if tx is None:
                # No tray: borne-off checkers lie in piles on the table beside the board.
                x = outer_extent(board)[1] + d * 0.8 + (i // 5) * d * 1.1
                pile, level = 0, i % 5
                z = -board.base_t + level * t
                y = sign * (edge * 0.55)
                placed.append(
                    Checker(
                        colour, f"off-{colour}", x + jitter(), y + jitter(), z, rng.uniform(0, 6.3)
                    )
                )
            elif on_edge:
                y = sign * (edge - t * 0.7 - i * t * 1.08)
                placed.append(
                    Checker(colour, f"off-{colour}", tx, y, 0.0, rng.uniform(0, 6.3), on_edge=True)
                )
            else:
                pile, level = divmod(i, 5)
                y = sign * (edge - d * 0.6 - pile * d * 1.05)
                placed.append(
                    Checker(
                        colour,
                        f"off-{colour}",
                        tx + jitter() * 0.5,
                        y + jitter() * 0.5,
                        level * t,
                        rng.uniform(0, 6.3),
                    )
                )
    return tuple(placed)


# --- dice and cube ------------------------------------------------------------------------------

#: Local face normal of each value: opposite faces add up to seven.
DIE_FACES: dict[int, Vec3] = {
    1: (0, 0, 1),
    6: (0, 0, -1),
    2: (0, 1, 0),
    5: (0, -1, 0),
    3: (1, 0, 0),
    4: (-1, 0, 0),
}


def _rotation_to_up(normal: Vec3) -> np.ndarray:
    """A rotation matrix that turns the local ``normal`` (an axis) to world +z."""
    n = np.asarray(normal, dtype=np.float64)
    up = np.array([0.0, 0.0, 1.0])
    if np.allclose(n, up):
        return np.eye(3)
    if np.allclose(n, -up):
        return np.diag([1.0, -1.0, -1.0])
    axis = np.cross(n, up)
    axis /= np.linalg.norm(axis)
    return _axis_angle(axis, math.pi / 2)


def _axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    cc = 1 - c
    return np.array(
        [
            [c + x * x * cc, x * y * cc - z * s, x * z * cc + y * s],
            [y * x * cc + z * s, c + y * y * cc, y * z * cc - x * s],
            [z * x * cc - y * s, z * y * cc + x * s, c + z * z * cc],
        ]
    )


def _pose(rotation: np.ndarray, centre: Vec3) -> tuple[tuple[float, ...], ...]:
    m = np.eye(4)
    m[:3, :3] = rotation
    m[:3, 3] = centre
    return tuple(tuple(float(v) for v in row) for row in m)


def die_pose(
    value: int, yaw: float, tilt: float, tilt_dir: float, centre: Vec3
) -> tuple[tuple[float, ...], ...]:
    """Pose of a die showing ``value`` on top, turned by ``yaw`` and leaning by ``tilt`` radians."""
    rotation = _rotation_to_up(DIE_FACES[value])
    rotation = _axis_angle(np.array([0.0, 0.0, 1.0]), yaw) @ rotation
    if tilt:
        axis = np.array([math.cos(tilt_dir), math.sin(tilt_dir), 0.0])
        rotation = _axis_angle(axis, tilt) @ rotation
    return _pose(rotation, centre)


def _free(x: float, y: float, radius: float, others: list[tuple[float, float, float]]) -> bool:
    return all(math.hypot(x - ox, y - oy) > radius + r for ox, oy, r in others)


def _lean_on_checker(
    extra: random.Random,
    board: BoardStyle,
    thickness: float,
    checkers: tuple[Checker, ...],
    size: float,
    occupied: list[tuple[float, float, float]],
    side: float,
) -> tuple[float, float, float, float, float] | None:
    """Where a cocked die can lean on a flat checker with nothing on top of it, in the die's half:
    (x, y, z of the die's centre, tilt, tilt direction), or None when no checker has room beside it.

    The die's low edge stands on the surface and its bottom face rests on the checker's top edge,
    so the tilt follows from the checker's height: sin(tilt) = height / (where along the face)."""
    r = board.checker_d / 2
    reach = size * 0.75
    supports = [
        c
        for c in checkers
        if not c.on_edge
        and c.location.startswith("p")
        and side * c.x > 0
        and not any(
            o.z > c.z and math.hypot(o.x - c.x, o.y - c.y) < board.checker_d * 0.9 for o in checkers
        )
    ]
    if not supports:
        return None
    for _ in range(60):
        support = extra.choice(supports)
        height = support.z + thickness
        sine = height / (size * extra.uniform(0.55, 0.85))
        if sine >= 0.85:
            continue
        tilt = math.asin(sine)
        alpha = extra.uniform(0, 2 * math.pi)  # the die leans towards the checker along alpha
        ux, uy = math.cos(alpha), math.sin(alpha)
        low = r + height / math.tan(tilt)  # from the checker's centre back to the low edge
        shift = size / 2 * (math.cos(tilt) - math.sin(tilt))
        x = support.x - ux * (low - shift)
        y = support.y - uy * (low - shift)
        inside = (
            board.bar_w / 2 + reach < side * x < board.field_w / 2 - reach
            and abs(y) < board.field_h / 2 - reach
        )
        others = [(ox, oy, orad) for ox, oy, orad in occupied if (ox, oy) != (support.x, support.y)]
        if inside and _free(x, y, reach, others):
            z = size / 2 * (math.sin(tilt) + math.cos(tilt))
            return x, y, z, tilt, alpha - math.pi / 2
    return None


@dataclass(frozen=True)
class Wall:
    """The inner side of a wall round one half of the field, as a die leaning on it meets it: the
    vertical plane ``normal . (x, y) = offset`` (``normal`` a unit vector in the board's plane,
    from the field into the wall), flat from the field up to ``flat``; a die may lean on it
    between ``start`` and ``end`` along it (y for the side walls and the bar, x for the rims at
    the top and bottom of the picture)."""

    name: str
    normal: tuple[float, float]
    offset: float
    flat: float
    start: float
    end: float


def walls(board: BoardStyle, side: float) -> tuple[Wall, ...]:
    """The walls round the half of the field where ``side`` * x > 0: the frame's rim on three
    sides (or the divider before a tray, at the same place and height) and the bar's side when
    the bar is raised. All stand ``board.rim_h`` above the field; their top edges are rounded."""
    fw, fh = board.field_w / 2, board.field_h / 2
    flat = board.rim_h - min(RIM_BEVEL, board.rim_h / 2.2)
    lo, hi = sorted((side * board.bar_w / 2, side * fw))
    found = [
        Wall("rim-right" if side > 0 else "rim-left", (side, 0.0), fw, flat, -fh, fh),
        Wall("rim-top", (0.0, 1.0), fh, flat, lo, hi),
        Wall("rim-bottom", (0.0, -1.0), fh, flat, lo, hi),
    ]
    if board.bar_raised:
        found.append(Wall("bar", (-side, 0.0), -board.bar_w / 2, flat, -fh, fh))
    return tuple(found)


def wall_lean_offset(size: float, rounding: float, tilt: float) -> float:
    """How far the centre of a die leaning on a wall is from the wall, and how high above the
    field: the same for both. The die (edge ``size``, edges rounded by ``rounding``) stands on one
    bottom edge; the opposite bottom edge is raised by ``tilt`` and touches the wall."""
    inner = size - 2 * rounding
    return rounding + inner / 2 * (math.cos(tilt) + math.sin(tilt))


def _lean_on_wall(
    extra: random.Random,
    board: BoardStyle,
    size: float,
    rounding: float,
    occupied: list[tuple[float, float, float]],
    side: float,
) -> tuple[float, float, float, float, float, str] | None:
    """Where a cocked die can lean on a wall of its half: (x, y, z of its centre, tilt, tilt
    direction, the wall's name), or None when the walls are too low or nothing leaves room.

    The die stands on one bottom edge on the field; its bottom face rises towards the wall and
    the raised bottom edge touches the wall's inner side, below the rounding of the wall's top
    edge, so the tilt is at most what that height allows (and between 12 and 28 degrees). The
    edges touching are parallel to the wall, as a die slid up against it comes to rest."""
    inner = size - 2 * rounding
    steepest = (board.rim_h - min(RIM_BEVEL, board.rim_h / 2.2) - rounding) / inner
    if steepest <= math.sin(math.radians(12.5)):
        return None
    top = min(28.0, math.degrees(math.asin(min(1.0, steepest))))
    reach = size * 0.9  # the tilted die's footprint lies within this of its centre
    d = board.checker_d
    for _ in range(60):
        wall = extra.choice(walls(board, side))
        tilt = math.radians(extra.uniform(12.0, top))
        along = extra.uniform(wall.start + reach, wall.end - reach)
        if (
            wall.name == "bar"
            and not d * 0.5 + size < abs(along) < board.field_h / 2 - d * 1.2 - size
        ):
            continue  # clear of a cube standing on the bar, in the middle or at either end
        away = wall_lean_offset(size, rounding, tilt)
        nx, ny = wall.normal
        if nx:
            x, y = nx * (wall.offset - away), along
        else:
            x, y = along, ny * (wall.offset - away)
        if _free(x, y, reach, occupied):
            return x, y, away, tilt, math.atan2(ny, nx) - math.pi / 2, wall.name
    return None


def _dice(
    rng: random.Random,
    board: BoardStyle,
    checkers: tuple[Checker, ...],
    extra: random.Random | None = None,
    thickness: float = 0.0,
    on_walls: bool = False,
    taken: Sequence[Die] = (),
) -> tuple[Die, ...]:
    """Two dice in one half of the field. With ``extra`` (generation 2) a cocked die leans on a
    checker, or lies flat when no checker has room beside it; ``extra`` makes those choices so
    the main stream of choices stays that of generation 1. With ``on_walls`` (generation 3) half
    the cocked dice lean on a wall of their half instead, and a die no checker has room for tries
    the walls before it lies flat. The dice ``taken`` (already on the field) are kept clear of."""
    kind = rng.choice(["standard", "standard", "precision", "dark", "coloured"])
    size = (
        board.checker_d * rng.uniform(0.40, 0.52)
        if board.family != "travel"
        else board.checker_d * rng.uniform(0.5, 0.65)
    )
    translucent = kind in ("precision", "coloured") and rng.random() < 0.6
    if kind == "dark":
        colour, pips = (
            _jitter(rng, rng.choice([(0.02, 0.02, 0.02), (0.25, 0.01, 0.01), (0.02, 0.05, 0.15)])),
            (0.85, 0.85, 0.82),
        )
    elif kind == "coloured" or kind == "precision":
        colour = _jitter(
            rng,
            rng.choice(
                [(0.6, 0.02, 0.02), (0.03, 0.3, 0.05), (0.05, 0.1, 0.5), (0.75, 0.75, 0.72)]
            ),
        )
        pips = (0.9, 0.9, 0.88) if sum(colour) < 1.5 else (0.02, 0.02, 0.02)
    else:
        colour, pips = _jitter(rng, (0.82, 0.8, 0.74), 0.03), (0.01, 0.01, 0.01)
    rounding = size * (0.04 if kind == "precision" else rng.uniform(0.1, 0.18))
    occupied = [(c.x, c.y, board.checker_d / 2) for c in checkers]
    occupied += [(d.matrix[0][3], d.matrix[1][3], 0.9 * d.size) for d in taken]
    side = rng.choice([-1.0, 1.0])
    dice: list[Die] = []
    for index in range(2):
        value = rng.randint(1, 6)
        cocked = rng.random() < 0.12
        yaw = rng.uniform(0, 2 * math.pi)
        reach = size * 0.75
        x = y = 0.0
        for _ in range(300):
            x = side * rng.uniform(board.bar_w / 2 + reach, board.field_w / 2 - reach)
            y = rng.uniform(-board.field_h / 2 + reach, board.field_h / 2 - reach)
            if _free(x, y, reach, occupied):
                break
        else:  # a crowded half: the strip between the rows of points is the place of last resort
            x = side * (board.field_w / 4 + index * size * 1.8)
            y = 0.0
        rests_on = wall = ""
        if cocked:
            tilt = math.radians(rng.uniform(14, 30))
            yaw_dir = rng.uniform(0, 2 * math.pi)
            # Lifted so the low edge touches the surface: leaning against a checker or the rim.
            z = size / 2 * (math.cos(tilt) + math.sin(tilt))
            matrix = die_pose(value, yaw, tilt, yaw_dir, (x, y, z))
            if extra is not None:
                on_wall = None
                if on_walls and extra.random() < 0.5:
                    on_wall = _lean_on_wall(extra, board, size, rounding, occupied, side)
                lean = (
                    None
                    if on_wall is not None
                    else _lean_on_checker(extra, board, thickness, checkers, size, occupied, side)
                )
                if on_wall is None and lean is None and on_walls:
                    on_wall = _lean_on_wall(extra, board, size, rounding, occupied, side)
                if on_wall is not None:
                    x, y, z, tilt, yaw_dir, wall = on_wall
                    rests_on, reach = "wall", size * 0.9
                elif lean is not None:
                    x, y, z, tilt, yaw_dir = lean
                    rests_on = "checker"
                if rests_on:
                    # An edge of the bottom face along the tilt axis, so that edge is what touches.
                    yaw = yaw_dir + extra.choice([0.0, 0.5, 1.0, 1.5]) * math.pi
                    matrix = die_pose(value, yaw, tilt, yaw_dir, (x, y, z))
                else:
                    cocked = False
                    matrix = die_pose(value, yaw, 0.0, 0.0, (x, y, size / 2))
        else:
            matrix = die_pose(value, yaw, 0.0, 0.0, (x, y, size / 2))
        occupied.append((x, y, reach))
        dice.append(
            Die(value, size, matrix, cocked, colour, pips, translucent, rounding, rests_on, wall)
        )
    return tuple(dice)


CUBE_VALUES = (2, 4, 8, 16, 32, 64)


#: Emblems a cube may carry on the face that would read 64 (generation 2).
CUBE_LOGOS: tuple[str, ...] = ("ring-star", "monogram")


def _cube(rng: random.Random, board: BoardStyle, checkers: tuple[Checker, ...]) -> Cube | None:
    if rng.random() < 0.15:
        return None
    size = board.checker_d * rng.uniform(0.55, 0.75)
    place = rng.choice(["middle", "middle", "white", "black"])
    bar_z = board.rim_h if board.bar_raised else 0.0012
    if place == "middle":
        value = 64
        x, y, z = 0.0, 0.0, bar_z
    else:
        value = rng.choice(CUBE_VALUES)
        sign = -1.0 if place == "white" else 1.0
        tx = tray_x(board)
        spot = rng.choice(["bar-end", "tray", "frame"])
        if spot == "tray" and tx is not None:
            if board.tray_side == "both":  # the other tray holds the cube
                x, y, z = -tx, sign * board.field_h * 0.25, 0.0
            else:  # the middle of the tray, between the two sets of borne-off checkers
                x, y, z = tx, sign * size * 0.8, 0.0
        elif spot == "frame":
            x = rng.uniform(-board.field_w / 3, board.field_w / 3)
            y = sign * (board.field_h / 2 + board.frame_w / 2)
            z = board.rim_h
            size = min(size, board.frame_w * 0.9)
        else:
            x, y, z = 0.0, sign * (board.field_h / 2 - size * 0.7), bar_z
    colour = _jitter(
        rng, rng.choice([(0.82, 0.8, 0.74), (0.8, 0.8, 0.8), (0.03, 0.03, 0.03)]), 0.02
    )
    digits = (0.02, 0.02, 0.02) if sum(colour) > 1 else (0.85, 0.75, 0.3)
    yaw = rng.uniform(-0.3, 0.3) + rng.choice([0.0, math.pi / 2, math.pi, -math.pi / 2])
    rotation = _axis_angle(np.array([0.0, 0.0, 1.0]), yaw)
    return Cube(value, place, size, _pose(rotation, (x, y, z + size / 2)), colour, digits)


# --- hands, clutter, lights, camera -------------------------------------------------------------


#: a finger's radius, and how far the longest finger's tip reaches beyond the wrist (see _arm)
FINGER_RADIUS = 0.0085
FINGER_REACH = 0.131


def _arm(rng: random.Random, elbow: Vec3, wrist: Vec3, spread: float) -> tuple[Capsule, ...]:
    """A forearm from ``elbow`` to ``wrist`` and a hand beyond it, fingers fanned by ``spread``."""
    ex, ey, _ez = elbow
    wx, wy, wz = wrist
    length = math.hypot(wx - ex, wy - ey) or 1.0
    ux, uy = (wx - ex) / length, (wy - ey) / length
    px, py = -uy, ux
    capsules = [Capsule(elbow, wrist, rng.uniform(0.030, 0.036))]
    palm_end = (wx + ux * 0.07, wy + uy * 0.07, wz - 0.005)
    capsules.append(Capsule((wx + ux * 0.01, wy + uy * 0.01, wz), palm_end, 0.028))
    for k, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
        sx, sy = palm_end[0] + px * off * 0.017, palm_end[1] + py * off * 0.017
        reach = 0.065 - abs(off) * 0.008 - (0.01 if k == 0 else 0)
        dx = ux * reach + px * off * spread
        dy = uy * reach + py * off * spread
        capsules.append(
            Capsule((sx, sy, palm_end[2]), (sx + dx, sy + dy, palm_end[2] - 0.012), FINGER_RADIUS)
        )
    thumb_root = (wx + ux * 0.03 + px * 0.025, wy + uy * 0.03 + py * 0.025, wz)
    capsules.append(
        Capsule(
            thumb_root,
            (
                thumb_root[0] + px * 0.035 + ux * 0.03,
                thumb_root[1] + py * 0.035 + uy * 0.03,
                wz - 0.01,
            ),
            0.01,
        )
    )
    return tuple(capsules)


def _skin_and_sleeve(rng: random.Random) -> tuple[Rgb, Rgb]:
    """A player's skin and sleeve colours (drawn in this order, skin first)."""
    skin = _jitter(rng, rng.choice(SKINS), 0.03)
    sleeve = _jitter(
        rng, rng.choice([(0.05, 0.05, 0.08), (0.6, 0.6, 0.6), (0.3, 0.05, 0.04), (0.1, 0.2, 0.35)])
    )
    return skin, sleeve


def _hands(rng: random.Random, board: BoardStyle) -> tuple[Hand, ...]:
    hands: list[Hand] = []
    skin, sleeve = _skin_and_sleeve(rng)
    _x0, _x1, y0, y1 = outer_extent(board)
    roll = rng.random()
    if roll < 0.18:
        # Reaching in over the field from White's or Black's side.
        sign = rng.choice([-1.0, 1.0])
        tx = rng.uniform(-board.field_w * 0.4, board.field_w * 0.4)
        ty = sign * rng.uniform(0.0, board.field_h * 0.35)
        height = rng.uniform(0.05, 0.14)
        elbow = (tx + rng.uniform(-0.1, 0.1), sign * (y1 + 0.25), height + 0.06)
        length = math.hypot(tx - elbow[0], ty - elbow[1])
        k = 1 - 0.13 / length
        wrist = (elbow[0] + (tx - elbow[0]) * k, elbow[1] + (ty - elbow[1]) * k, height)
        hands.append(Hand(_arm(rng, elbow, wrist, rng.uniform(0.0, 0.01)), skin, sleeve, True))
    elif roll < 0.4:
        # Resting on the frame at White's edge, fingers short of the field.
        for sign_x in rng.sample([-1.0, 1.0], rng.randint(1, 2)):
            wx = sign_x * rng.uniform(0.08, board.field_w * 0.45)
            wy = y0 - 0.13
            elbow = (wx + sign_x * rng.uniform(0.02, 0.12), y0 - 0.40, 0.0)
            wrist = (wx, wy, -board.base_t + 0.03)
            hands.append(Hand(_arm(rng, elbow, wrist, 0.004), skin, sleeve, False))
    return tuple(hands)


def _frame_hands(rng: random.Random, board: BoardStyle) -> tuple[Hand, ...]:
    """(Generation 4) one or two hands resting on the board's frame, at either player's side, the
    fingertips on the frame short of the field, the forearm down to the table beyond the board."""
    hands: list[Hand] = []
    skin, sleeve = _skin_and_sleeve(rng)
    edge = board.field_h / 2
    for _ in range(rng.randint(1, 2)):
        side = rng.choice([-1.0, 1.0])  # -1: White's side of the board (y < 0)
        # the tip's middle at least its radius and a few millimetres short of the field
        inner = edge + FINGER_RADIUS + 0.004
        outer = max(inner, edge + board.frame_w - 0.004)
        tip = side * rng.uniform(inner, outer)
        wrist_y = tip + side * FINGER_REACH
        wx = rng.uniform(-board.field_w * 0.45, board.field_w * 0.45)
        wz = board.rim_h + 0.034  # the palm just above the frame, the fingers sloping to it
        elbow = (wx + rng.uniform(-0.12, 0.12), wrist_y + side * 0.27, -board.base_t + 0.035)
        hands.append(
            Hand(_arm(rng, elbow, (wx, wrist_y, wz), 0.004), skin, sleeve, False, on_frame=True)
        )
    return tuple(hands)


def _clutter(rng: random.Random, board: BoardStyle) -> tuple[Clutter, ...]:
    x0, x1, y0, y1 = outer_extent(board)
    items: list[Clutter] = []
    for kind in rng.sample(["cup", "can", "phone", "card", "clock", "cup"], rng.randint(0, 3)):
        if kind == "cup":
            size = (0.042, 0.042, 0.09)
            colour = rng.choice([(0.8, 0.8, 0.78), (0.05, 0.1, 0.3), (0.6, 0.1, 0.05)])
        elif kind == "can":
            size = (0.033, 0.033, 0.12)
            colour = rng.choice([(0.6, 0.02, 0.02), (0.7, 0.7, 0.72), (0.02, 0.2, 0.5)])
        elif kind == "phone":
            size = (0.038, 0.078, 0.008)
            colour = (0.02, 0.02, 0.025)
        elif kind == "card":
            size = (0.053, 0.075, 0.0006)
            colour = (0.85, 0.85, 0.8)
        else:
            size = (0.09, 0.045, 0.06)
            colour = rng.choice([(0.1, 0.1, 0.1), (0.35, 0.2, 0.1)])
        side = rng.choice(["left", "right", "top", "top"] + (["bottom"] if size[2] < 0.02 else []))
        margin = 0.02 + max(size[0], size[1])
        if side == "left":
            x, y = x0 - margin * rng.uniform(0.8, 1.5), rng.uniform(y0, y1)
        elif side == "right":
            x, y = x1 + margin * rng.uniform(0.8, 1.5), rng.uniform(y0, y1)
        elif side == "top":
            x, y = rng.uniform(x0, x1), y1 + margin * rng.uniform(0.7, 1.3)
        else:
            x, y = rng.uniform(x0, x1), y0 - margin * rng.uniform(0.7, 1.2)
        items.append(Clutter(kind, x, y, rng.uniform(0, 2 * math.pi), colour, size))
    return tuple(items)


def _lights(rng: random.Random, kind: str) -> tuple[tuple[Light, ...], Rgb, float]:
    lights: list[Light] = []

    def lamp(scale: float) -> Light:
        angle = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(0.4, 0.9)
        h = rng.uniform(0.5, 1.1)
        r2 = dist * dist + h * h
        return Light(
            "POINT",
            (dist * math.cos(angle), dist * math.sin(angle), h),
            (0.0, 0.0, 0.0),
            scale * 55 * r2 * rng.uniform(0.7, 1.4),
            rng.uniform(2600, 3400),
            (0.0, 0.0),
            rng.uniform(0.04, 0.15),
        )

    def window(scale: float) -> Light:
        angle = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(1.2, 2.4)
        h = rng.uniform(0.8, 1.8)
        r2 = dist * dist + h * h
        return Light(
            "AREA",
            (dist * math.cos(angle), dist * math.sin(angle), h),
            (rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2), 0.0),
            scale * 14 * r2 * rng.uniform(0.7, 1.5),
            rng.uniform(5200, 7500),
            (rng.uniform(0.8, 1.6), rng.uniform(0.8, 1.4)),
            0.0,
        )

    if kind == "lamp":
        lights.append(lamp(1.0))
        world, strength = (0.9, 0.75, 0.6), rng.uniform(0.05, 0.25)
    elif kind == "window":
        lights.append(window(1.0))
        world, strength = (0.6, 0.75, 1.0), rng.uniform(0.2, 0.5)
    elif kind == "overhead":
        h = rng.uniform(1.4, 2.4)
        temperature = rng.uniform(3800, 5600)
        offset = rng.uniform(-0.5, 0.5)
        yaw_x = rng.random() < 0.5
        for k in range(rng.randint(1, 2)):
            shift = offset + k * rng.uniform(0.6, 1.0)
            location = (
                (shift, rng.uniform(-0.4, 0.4), h) if yaw_x else (rng.uniform(-0.4, 0.4), shift, h)
            )
            size = (0.06, 1.2) if yaw_x else (1.2, 0.06)
            lights.append(
                Light(
                    "AREA",
                    location,
                    (location[0], location[1], 0.0),
                    9 * h * h * rng.uniform(0.7, 1.3),
                    temperature,
                    size,
                    0.0,
                )
            )
        world, strength = (0.8, 0.8, 0.8), rng.uniform(0.1, 0.3)
    else:
        lights.append(lamp(0.6))
        lights.append(window(0.6))
        world, strength = (0.7, 0.75, 0.85), rng.uniform(0.1, 0.3)
    return tuple(lights), world, strength


def _camera(rng: random.Random, board: BoardStyle, width: int, height: int) -> CameraSetup:
    """A camera above the board from White's side, its distance set so the board fills the frame."""
    tilt = rng.uniform(0.0, 25.0) if rng.random() < 0.8 else rng.uniform(0.0, 5.0)
    azimuth = math.radians(rng.uniform(-30, 30))
    roll = rng.gauss(0.0, 1.5)
    lens = rng.uniform(22.0, 40.0)
    fill = rng.uniform(0.72, 0.95)
    target = (rng.gauss(0, 0.01), rng.gauss(0, 0.01), 0.0)
    x0, x1, y0, y1 = outer_extent(board)
    corners = np.array(
        [[x0, y0, board.rim_h], [x1, y0, board.rim_h], [x1, y1, board.rim_h], [x0, y1, board.rim_h]]
    )
    direction = np.array(
        [
            math.sin(math.radians(tilt)) * math.sin(azimuth),
            -math.sin(math.radians(tilt)) * math.cos(azimuth),
            math.cos(math.radians(tilt)),
        ]
    )

    def spread(distance: float) -> float:
        location = tuple(float(v) for v in np.asarray(target) + direction * distance)
        rotation = look_at(location, target, roll)  # type: ignore[arg-type]
        pixels = project(corners, location, rotation, lens, width, height)  # type: ignore[arg-type]
        return float(
            max(
                np.max(np.abs(pixels[:, 0] - width / 2)) / (width / 2),
                np.max(np.abs(pixels[:, 1] - height / 2)) / (height / 2),
            )
        )

    low, high = 0.2, 8.0
    for _ in range(50):
        mid = (low + high) / 2
        if spread(mid) > fill:
            low = mid
        else:
            high = mid
    location = tuple(float(v) for v in np.asarray(target) + direction * high)
    return CameraSetup(location, target, roll, lens, tilt)  # type: ignore[arg-type]


def _post(rng: random.Random) -> PostEffects:
    return PostEffects(
        exposure_ev=rng.gauss(0.0, 0.35),
        white_balance=(rng.uniform(0.9, 1.1), 1.0, rng.uniform(0.9, 1.1)),
        grey_world=rng.uniform(0.2, 0.6),
        noise=rng.uniform(0.5, 4.0),
        blur_px=rng.uniform(1.0, 4.0) if rng.random() < 0.25 else 0.0,
        blur_angle=rng.uniform(0, 180),
        k1=rng.uniform(-0.12, 0.06) if rng.random() < 0.5 else 0.0,
        jpeg_quality=rng.randint(82, 95),
        seed=rng.randrange(2**31),
    )


# --- the whole scene --------------------------------------------------------------------------


def choose(seed: int, selection: str) -> tuple[str, str]:
    """The (family, light kind) of scene ``seed`` in a selection: a family name, all, tune, heldout."""
    rng = random.Random(f"choose-{seed}")
    if selection in FAMILIES:
        return selection, rng.choice(LIGHT_KINDS)
    if selection == "all":
        return rng.choice(FAMILIES), rng.choice(LIGHT_KINDS)
    if selection == "tune":
        return rng.choice(TUNE_FAMILIES), rng.choice(TUNE_LIGHTS)
    if selection == "heldout":
        family = rng.choice(FAMILIES)
        if family in HELDOUT_FAMILIES:
            return family, rng.choice(LIGHT_KINDS)
        return family, rng.choice(HELDOUT_LIGHTS)
    raise SynthInputError(f"family {selection!r} is not one of {', '.join(FAMILIES + SELECTIONS)}")


def _stream(extra: random.Random, mode: str) -> Stream | None:
    """Whether (by ``mode``'s share) and how this frame is compressed like a video stream."""
    if extra.random() >= STREAM_MODES[mode]:
        return None
    return Stream(
        codec=extra.choice(["mp4v", "mp4v", "vp8", "jpeg"]),
        scale=extra.choice([1.0, 0.75, 0.5]),
        jpeg_quality=extra.randint(18, 40),
    )


def make_scene(
    seed: int,
    family: str,
    light_kind: str,
    width: int = 1280,
    height: int = 720,
    *,
    generation: int = 1,
    variant: str = "backgammon",
    stream: str = "mixed",
    dice_pairs: int = 1,
) -> Scene:
    """The scene of ``seed`` for one board ``family`` lit by ``light_kind``; deterministic.

    ``generation`` 1 (the default) is the generator of the committed evaluation set, unchanged.
    Generation 2 draws everything generation 1 draws in the same order, and its own additions
    (cube logos, cocked dice on checkers, stream compression, the stack form) from a second
    stream, so a backgammon scene of generation 2 keeps generation 1's board, position, camera
    and light. Generation 3 is generation 2 with cocked dice leaning on the wall as well (the
    choice drawn from that second stream, only in generation 3, so generation 2 is unchanged).
    Generation 4 is generation 3 with, from a third stream, hands resting on the board's frame
    where no hand reaches over the field. ``variant`` ``sheshbesh`` (generation 2 only) sets up Arabic Shesh Besh instead.
    ``stream`` (never, mixed, always) says how often a generation-2 frame is compressed like a
    video stream. ``dice_pairs`` above 1 throws that many pairs in all where the scene has dice (a
    set to learn dice from, not a position: the second and later pairs come from a stream of
    their own, so everything else in the scene is that of one pair).

    Raises :class:`synth.SynthInputError` for an unknown family, light kind, variant, generation
    or stream mode, or fewer than one pair of dice.
    """
    if light_kind not in LIGHT_KINDS:
        raise SynthInputError(f"light kind {light_kind!r} is not one of {', '.join(LIGHT_KINDS)}")
    if family not in FAMILIES:
        raise SynthInputError(f"family {family!r} is not one of {', '.join(FAMILIES)}")
    if generation not in GENERATIONS:
        raise SynthInputError(f"generation {generation!r} is not one of {GENERATIONS}")
    if variant not in VARIANTS:
        raise SynthInputError(f"variant {variant!r} is not one of {', '.join(VARIANTS)}")
    if variant != "backgammon" and generation < 2:
        raise SynthInputError(f"variant {variant!r} needs generation 2")
    if stream not in STREAM_MODES:
        raise SynthInputError(f"stream mode {stream!r} is not one of {', '.join(STREAM_MODES)}")
    if dice_pairs < 1:
        raise SynthInputError(f"dice pairs must be 1 or more, not {dice_pairs}")
    rng = random.Random(f"scene-{seed}-{family}-{light_kind}")
    extra = (
        random.Random(f"scene-extra-{seed}-{family}-{light_kind}-{variant}")
        if generation >= 2
        else None
    )
    board, style = _board(rng, family)
    standing: dict[str, int] = {}
    stack_form = ""
    if variant == "sheshbesh":
        assert extra is not None
        position_kind, counts, standing = _sheshbesh_position(rng)
        stack_form = extra.choice(STACK_FORMS)
    else:
        position_kind, counts = _position(rng)
    checkers = _place_checkers(rng, board, style, counts, standing, stack_form)
    dice = (
        _dice(rng, board, checkers, extra, style.thickness, generation >= 3)
        if rng.random() < 0.8
        else ()
    )
    if dice and dice_pairs > 1:
        more = random.Random(f"scene-dice-{seed}-{family}-{light_kind}")
        for _ in range(dice_pairs - 1):
            dice += _dice(
                more,
                board,
                checkers,
                more if extra is not None else None,
                style.thickness,
                generation >= 3,
                dice,
            )
    cube = _cube(rng, board, checkers)
    stream_setup = None
    if extra is not None:
        if cube is not None and cube.place == "middle" and extra.random() < 0.5:
            cube = replace(cube, logo=extra.choice(CUBE_LOGOS))
        stream_setup = _stream(extra, stream)
    hands = _hands(rng, board)
    clutter = _clutter(rng, board)
    lights, world, strength = _lights(rng, light_kind)
    table_surface = rng.choice(["wood", "wood", "cloth", "stone"])
    table_colour = _jitter(
        rng,
        rng.choice(
            [
                (0.3, 0.15, 0.06),
                (0.5, 0.35, 0.2),
                (0.6, 0.6, 0.58),
                (0.08, 0.08, 0.1),
                (0.15, 0.25, 0.2),
            ]
        ),
        0.05,
    )
    camera = _camera(rng, board, width, height)
    post = _post(rng)
    # Things beside the board must not reach into the field in the picture; hands over it may.
    clutter = tuple(
        c
        for c in clutter
        if not covers_field(board, camera, post, width, height, clutter_points(c))
    )
    if generation >= 4 and not any(h.over_field for h in hands):
        # drawn from a stream of their own, so the rest of the scene is generation 3's
        fourth = random.Random(f"scene-g4-{seed}-{family}-{light_kind}-{variant}")
        if fourth.random() < 0.45:
            hands += _frame_hands(fourth, board)
    hands = tuple(
        h
        for h in hands
        if h.over_field or not covers_field(board, camera, post, width, height, hand_points(h))
    )
    return Scene(
        seed=seed,
        family=family,
        light_kind=light_kind,
        board=board,
        checkers_style=style,
        counts=counts,
        checkers=checkers,
        dice=dice,
        cube=cube,
        hands=hands,
        clutter=clutter,
        lights=lights,
        world_colour=world,
        world_strength=strength,
        table_surface=table_surface,
        table_colour=table_colour,
        camera=camera,
        post=post,
        width=width,
        height=height,
        position_kind=position_kind,
        generation=generation,
        variant=variant,
        standing=standing,
        stack_form=stack_form,
        stream=stream_setup,
        stream_mode=stream if generation >= 2 else "never",
    )


def field_corners_world(board: BoardStyle) -> tuple[Vec3, Vec3, Vec3, Vec3]:
    """The playing field's corners TL, TR, BR, BL (as seen in the image) on the surface z = 0."""
    w, h = board.field_w / 2, board.field_h / 2
    return ((-w, h, 0.0), (w, h, 0.0), (w, -h, 0.0), (-w, -h, 0.0))


def camera_matrix(scene: Scene) -> tuple[Vec3, np.ndarray, float]:
    """Camera location, rotation (columns right, up, back) and focal length in pixels."""
    cam = scene.camera
    return (
        cam.location,
        look_at(cam.location, cam.target, cam.roll_deg),
        focal_pixels(cam.lens_mm, scene.width),
    )


def image_points(
    camera: CameraSetup, post: PostEffects, width: int, height: int, world: np.ndarray
) -> np.ndarray:
    """Pixels (N x 2) of world points (N x 3) in the final, lens-distorted image."""
    rotation = look_at(camera.location, camera.target, camera.roll_deg)
    ideal = project(world, camera.location, rotation, camera.lens_mm, width, height)
    return distort(ideal, post.k1, width, height, focal_pixels(camera.lens_mm, width))


def inside_convex(polygon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which of ``points`` (N x 2) lie inside the convex ``polygon`` (4 x 2, any winding)."""
    signs = []
    for i in range(len(polygon)):
        a, b = polygon[i], polygon[(i + 1) % len(polygon)]
        signs.append((b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0]))
    stacked = np.stack(signs)
    return np.asarray(np.all(stacked > 0, axis=0) | np.all(stacked < 0, axis=0))


def covers_field(
    board: BoardStyle,
    camera: CameraSetup,
    post: PostEffects,
    width: int,
    height: int,
    world: np.ndarray,
) -> bool:
    """Whether any of the object's sample points shows inside the playing field's quadrilateral."""
    quad = image_points(camera, post, width, height, np.array(field_corners_world(board)))
    pixels = image_points(camera, post, width, height, world)
    pixels = pixels[~np.isnan(pixels).any(axis=1)]
    return bool(np.any(inside_convex(quad, pixels)))


def hand_points(hand: Hand) -> np.ndarray:
    """Sample points on the surface of a hand's capsules (for occlusion)."""
    samples = []
    for capsule in hand.capsules:
        a, b = np.asarray(capsule.a), np.asarray(capsule.b)
        for t in np.linspace(0.0, 1.0, 6):
            centre = a + (b - a) * t
            for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1)):
                samples.append(centre + capsule.radius * np.array([dx, dy, dz]))
    return np.array(samples)


def clutter_points(item: Clutter) -> np.ndarray:
    """The corners of a clutter item's box, top and bottom, on the table (for occlusion)."""
    sx, sy, sz = item.size
    c, s = math.cos(item.yaw), math.sin(item.yaw)
    samples = []
    for dx in (-sx, sx):
        for dy in (-sy, sy):
            for z in (0.0, sz):
                samples.append((item.x + c * dx - s * dy, item.y + s * dx + c * dy, z - 0.02))
    return np.array(samples)
