"""The board drawing: one element per checker at the right location, LEDs, last play, cube, dice."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections import Counter
from typing import Any

import pytest

from sheshbesh.locations import LOCATIONS, BoardGeometry
from web.board_svg import HEIGHT, WIDTH, board_svg, dice_svg, die_svg
from web.state import State, example_state, position_from_counts, starting_state

SVG = "{http://www.w3.org/2000/svg}"


def _tree(state: State) -> ElementTree.Element:
    return ElementTree.fromstring(str(board_svg(state)))


def _checkers(root: ElementTree.Element) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    for element in root.iter():
        classes = element.get("class", "").split()
        if "checker" in classes:
            colour = "white" if "white" in classes else "black"
            counts[(element.get("data-location", ""), colour)] += 1
    return counts


@pytest.mark.parametrize("make", [starting_state, example_state])
def test_every_checker_is_drawn_once_at_its_location(make: object) -> None:
    state = make()  # type: ignore[operator]
    drawn = _checkers(_tree(state))
    expected: Counter[tuple[str, str]] = Counter()
    for location, (white, black) in state["position"].items():
        if white:
            expected[(location, "white")] = white
        if black:
            expected[(location, "black")] = black
    assert drawn == expected


def test_tall_stacks_bar_and_trays_are_counted_and_labelled() -> None:
    state = starting_state()
    state["position"] = position_from_counts(
        {
            "p6": (11, 0),
            "bar-white": (2, 0),
            "off-white": (2, 0),
            "p19": (0, 5),
            "bar-black": (0, 1),
            "off-black": (0, 9),
        }
    )
    root = _tree(state)
    drawn = _checkers(root)
    assert drawn[("p6", "white")] == 11
    assert drawn[("bar-white", "white")] == 2
    assert drawn[("off-white", "white")] == 2
    assert drawn[("off-black", "black")] == 9
    labels = {
        e.get("data-location"): e.text
        for e in root.iter(f"{SVG}text")
        if "stack-count" in e.get("class", "")
    }
    assert labels == {"p6": "11"}


def test_checkers_stay_on_their_point_and_inside_the_board() -> None:
    state = starting_state()
    state["position"] = position_from_counts({"p6": (15, 0), "p19": (0, 15)})
    geometry = BoardGeometry()
    for circle in _tree(state).iter(f"{SVG}circle"):
        location = circle.get("data-location")
        if location is None:
            continue
        region = geometry.region(location)
        cx, cy, r = (float(circle.get(name, "nan")) for name in ("cx", "cy", "r"))
        assert region.x * WIDTH <= cx <= (region.x + region.w) * WIDTH
        assert region.y * HEIGHT - 0.5 <= cy - r and cy + r <= (region.y + region.h) * HEIGHT + 0.5


def test_white_home_is_bottom_right_and_black_checkers_on_white_one_point() -> None:
    root = _tree(starting_state())
    circles = {(c.get("data-location"), c.get("class")): c for c in root.iter(f"{SVG}circle")}
    p1 = circles[("p1", "checker black")]
    p24 = circles[("p24", "checker white")]
    assert float(p1.get("cy", 0)) > HEIGHT / 2 and float(p1.get("cx", 0)) > WIDTH / 2
    assert float(p24.get("cy", 0)) < HEIGHT / 2 and float(p24.get("cx", 0)) > WIDTH / 2


def test_points_are_drawn_with_their_numbers() -> None:
    root = _tree(starting_state())
    points = [
        e.get("data-location", "")
        for e in root.iter(f"{SVG}polygon")
        if "point" in e.get("class", "").split()
    ]
    assert sorted(points, key=lambda name: int(name[1:])) == [f"p{n}" for n in range(1, 25)]
    numbers = [
        e.text for e in root.iter(f"{SVG}text") if "point-number" in e.get("class", "").split()
    ]
    assert sorted(numbers, key=lambda text: int(text or 0)) == [str(n) for n in range(1, 25)]


def test_lights_are_drawn_as_leds_and_tint_their_points() -> None:
    state = example_state()
    state["lights"] = {"p3": "legal", "p13": "source", "off-white": "hint", "bar-black": "illegal"}
    root = _tree(state)
    leds = {
        e.get("data-location"): e.get("data-light")
        for e in root.iter()
        if "led" in e.get("class", "").split()
    }
    assert leds == state["lights"]
    lit = {
        e.get("data-location")
        for e in root.iter(f"{SVG}polygon")
        if "lit" in e.get("class", "").split()
    }
    assert lit == {"p3", "p13"}


def test_last_play_is_marked_with_arrows_from_source_to_target() -> None:
    root = _tree(example_state())
    arrows = [
        (e.get("data-from"), e.get("data-to"))
        for e in root.iter(f"{SVG}line")
        if e.get("class") == "last-play"
    ]
    assert arrows == [("p1", "p7"), ("p12", "p16")]


def test_flagged_locations_of_an_illegal_play_are_outlined() -> None:
    state = example_state()
    state["message"] = {
        "kind": "illegal",
        "text": "13/8 lands on a blocked point",
        "locations": ["p13", "p8"],
    }
    root = _tree(state)
    flagged = [
        e.get("data-location") for e in root.iter(f"{SVG}rect") if "flagged" in e.get("class", "")
    ]
    assert flagged == ["p13", "p8"]


@pytest.mark.parametrize(
    ("cube", "place", "face"),
    [
        ({"value": 1, "owner": None, "offered_by": None, "dead": False}, "middle", "64"),
        ({"value": 2, "owner": 1, "offered_by": None, "dead": False}, "black", "2"),
        ({"value": 4, "owner": 0, "offered_by": None, "dead": True}, "white", "4"),
        ({"value": 2, "owner": 1, "offered_by": 1, "dead": False}, "middle", "4"),
    ],
)
def test_cube_sits_where_its_owner_is_and_shows_its_face(
    cube: dict[str, Any], place: str, face: str
) -> None:
    state = example_state()
    state["cube"] = cube
    group = next(e for e in _tree(state).iter(f"{SVG}g") if "cube" in e.get("class", "").split())
    assert group.get("data-place") == place
    assert group.find(f"{SVG}text") is not None and group.find(f"{SVG}text").text == face  # type: ignore[union-attr]


def test_dice_show_their_pips() -> None:
    root = _tree(example_state())
    dice = [e for e in root.iter(f"{SVG}g") if "die" in e.get("class", "").split()]
    assert [(d.get("data-pips"), len(d.findall(f"{SVG}circle"))) for d in dice] == [
        ("5", 5),
        ("2", 2),
    ]
    assert dice_svg([6, 6]).count("<circle") == 12


def test_die_with_impossible_pips_is_refused() -> None:
    with pytest.raises(ValueError, match="not 7"):
        die_svg(7)


def test_state_text_cannot_inject_markup() -> None:
    state = example_state()
    state["lights"] = {"p3": '"><script>alert(1)</script>'}
    text = str(board_svg(state))
    assert "<script>" not in text
    assert re.search(r"&lt;script&gt;|&#x27;|&quot;", text)


def test_every_location_can_be_drawn() -> None:
    state = starting_state()
    state["lights"] = {name: "legal" for name in LOCATIONS}
    leds = [e for e in _tree(state).iter() if "led" in e.get("class", "").split()]
    assert len(leds) == len(LOCATIONS)
