"""LEDs and buttons: what the board shows and what the players press.

The referee builds a :class:`Scene` (``legal_scene``, ``illegal_scene``, ``turn_scene``,
``cube_offer_scene``, ``game_over_scene``) and hands it to a :class:`Lights`; buttons report
presses to ``on_press(name)``. :func:`open_lights` and :func:`open_buttons` pick ``fake``,
``pins`` (gpiozero on the Pi's pins) or ``serial`` (the LED controller on USB, see
``firmware/PROTOCOL.md``). Importing this package touches no hardware:
gpiozero and pyserial are imported only when such lights are opened.

>>> lights = open_lights("fake")
>>> lights.show(legal_scene(["p13"], ["p10"], mover=0))
>>> lights.scene["p10"]
<Light.LEGAL: 'legal'>
"""

from controller.lights.base import BUTTON_NAMES, HOLD_SUFFIX, Buttons, Lights, hold_name
from controller.lights.errors import (
    ButtonError,
    LightsConfigError,
    LightsError,
    LinkError,
    LinkTimeout,
    PinMapError,
    SceneError,
    VersionMismatchError,
)
from controller.lights.factory import LightsConfig, open_buttons, open_lights
from controller.lights.fake import FakeButtons, FakeLights
from controller.lights.palette import DEFAULT_PALETTE, Effect, Look, Palette
from controller.lights.pinmap import PinMap, load_pinmap
from controller.lights.scene import (
    DARK,
    STATUS_FLAGS,
    Light,
    Scene,
    cube_offer_scene,
    game_over_scene,
    illegal_scene,
    legal_scene,
    mover_location,
    turn_scene,
)

__all__ = [
    "BUTTON_NAMES",
    "DARK",
    "DEFAULT_PALETTE",
    "HOLD_SUFFIX",
    "STATUS_FLAGS",
    "ButtonError",
    "Buttons",
    "Effect",
    "FakeButtons",
    "FakeLights",
    "Light",
    "Lights",
    "LightsConfig",
    "LightsConfigError",
    "LightsError",
    "LinkError",
    "LinkTimeout",
    "Look",
    "Palette",
    "PinMap",
    "PinMapError",
    "Scene",
    "SceneError",
    "VersionMismatchError",
    "cube_offer_scene",
    "game_over_scene",
    "hold_name",
    "illegal_scene",
    "legal_scene",
    "load_pinmap",
    "mover_location",
    "open_buttons",
    "open_lights",
    "turn_scene",
]
