"""Scenes, their builders and the palette."""

from __future__ import annotations

import pytest

from controller.lights import (
    DARK,
    DEFAULT_PALETTE,
    Effect,
    Light,
    Look,
    Palette,
    Scene,
    SceneError,
    cube_offer_scene,
    game_over_scene,
    illegal_scene,
    legal_scene,
    mover_location,
    turn_scene,
)
from controller.lights.scene import player_colour
from sheshbesh.locations import LOCATIONS


def test_scene_maps_every_location_in_led_order() -> None:
    scene = Scene({"p24": Light.LEGAL, "p1": Light.SOURCE})
    assert list(scene) == list(LOCATIONS)
    assert len(scene) == 28
    assert scene["p2"] is Light.OFF
    assert list(scene.lit()) == ["p1", "p24"]
    with pytest.raises(KeyError):
        scene["p25"]


def test_scene_is_immutable_hashable_and_compares_by_content() -> None:
    one = Scene({"p3": Light.LEGAL, "p4": Light.OFF}, {"legal"})
    two = Scene({"p3": Light.LEGAL}, ["legal"])
    assert one == two and hash(one) == hash(two)
    assert one != Scene({"p3": Light.LEGAL})
    assert len({one, two, DARK}) == 2
    with pytest.raises(TypeError):
        one["p3"] = Light.OFF  # type: ignore[index]


def test_scene_repr_pastes_back() -> None:
    scene = Scene({"p3": Light.LEGAL, "bar-white": Light.SOURCE}, {"legal"})
    assert eval(repr(scene), {"Scene": Scene, "Light": Light}) == scene
    assert repr(DARK) == "Scene({})"


def test_scene_union_overlays_and_joins_flags() -> None:
    combined = turn_scene(0) | illegal_scene(["off-white", "p5"])
    assert combined["off-white"] is Light.ILLEGAL
    assert combined["bar-white"] is Light.TURN
    assert combined.flags == {"turn-white", "illegal"}


def test_scene_json_round_trip() -> None:
    scene = legal_scene(["bar-black"], ["p20", "p22"], mover=1)
    data = scene.to_dict()
    assert data["lights"]["p20"] == "legal"
    assert data["flags"] == ["legal", "turn-black"]
    assert Scene.from_dict(data) == scene


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Scene({"p0": Light.LEGAL}), "unknown location 'p0'"),
        (lambda: Scene({"p1": "legal"}), "not a Light"),  # type: ignore[dict-item]
        (lambda: Scene(flags={"party"}), "unknown scene flags"),
        (lambda: Scene.from_dict({"lights": {"p1": "purple"}}), "'purple' at 'p1'"),
        (lambda: legal_scene(["p1"], ["nowhere"], 0), "destination location 'nowhere'"),
        (lambda: illegal_scene(["p99"]), "illegal location 'p99'"),
        (lambda: turn_scene(2), "player 2"),
        (lambda: turn_scene(True), "player True"),
        (lambda: mover_location(26, 0), "point 26"),
    ],
)
def test_bad_input_is_named(build: object, message: str) -> None:
    with pytest.raises(SceneError, match=message):
        build()  # type: ignore[operator]


def test_legal_scene() -> None:
    scene = legal_scene(["p13"], ["p10", "p8"], mover="white")
    assert scene.lit() == {
        "p8": Light.LEGAL,
        "p10": Light.LEGAL,
        "p13": Light.SOURCE,
        "off-white": Light.TURN,
    }
    bearing_off = legal_scene(["p2"], ["off-black"], mover=1)
    assert bearing_off["off-black"] is Light.LEGAL


def test_builders_light_the_right_side() -> None:
    assert turn_scene(1).lit() == {"bar-black": Light.TURN, "off-black": Light.TURN}
    offer = cube_offer_scene(0)  # White doubles: Black must answer
    assert offer["off-black"] is Light.CUBE_OFFER and offer["off-white"] is Light.OFF
    assert offer.flags == {"cube-offer"}
    over = game_over_scene(1)
    assert {name for name in over.lit()} == {f"p{n}" for n in range(19, 25)} | {"off-black"}
    assert game_over_scene("white")["p6"] is Light.GAME_OVER
    assert illegal_scene(["p7"]).flags == {"illegal"}
    assert player_colour(0) == "white" and player_colour("black") == "black"


def test_mover_locations() -> None:
    assert [mover_location(p, 0) for p in (0, 1, 24, 25)] == ["off-white", "p1", "p24", "bar-white"]
    assert [mover_location(p, 1) for p in (0, 1, 24, 25)] == ["off-black", "p24", "p1", "bar-black"]


def test_palette_pixels_and_levels() -> None:
    pixels = DEFAULT_PALETTE.strip_pixels(legal_scene(["p13"], ["p10"], 0))
    assert len(pixels) == 28
    assert pixels[9] == DEFAULT_PALETTE.pixel(Light.LEGAL)
    assert pixels[0] == (0, 0, 0, 0)
    assert DEFAULT_PALETTE.pixel(Light.ILLEGAL)[:3] == (255, 0, 0)
    assert DEFAULT_PALETTE.pixel(Light.ILLEGAL)[3] == Effect.FLASH
    half = Palette(brightness=0.5)
    assert half.pixel(Light.ILLEGAL)[:3] == (128, 0, 0)
    assert half.level(Light.ILLEGAL) == pytest.approx(0.5)
    assert DEFAULT_PALETTE.level(Light.OFF) == 0
    assert DEFAULT_PALETTE.css(Light.ILLEGAL) == "#ff0000"


def test_palette_checks_itself() -> None:
    with pytest.raises(SceneError, match=r"brightness 1\.5"):
        Palette(brightness=1.5)
    with pytest.raises(SceneError, match="no look for"):
        Palette(looks={Light.OFF: Look(0, 0, 0)})
    with pytest.raises(SceneError, match="channel 300"):
        Look(300, 0, 0)
