"""The test data is inside the repository, with its notices.

Several test modules skip when their data is missing (so a partial checkout still runs); this module
does not skip, so a clone that lost ``tests/data`` fails here instead of passing on skips alone.
"""

import json

from tests.shared_data import ID_VECTORS, MATCHES_DIR, REAL_DICE, SHARED_DATA


def test_the_data_folder_is_inside_the_checkout() -> None:
    assert SHARED_DATA.parent.name == "tests"
    assert SHARED_DATA.is_dir()


def test_the_four_generated_matches_are_here_with_their_notice() -> None:
    names = sorted(path.name for path in MATCHES_DIR.glob("*.mat"))
    assert len(names) == 4
    assert all(name.startswith("gnubg-selfplay-") for name in names)
    assert (MATCHES_DIR / "ATTRIBUTION.md").is_file()


def test_the_id_vectors_parse() -> None:
    vectors = json.loads(ID_VECTORS.read_text())
    assert vectors["positions"][0]["position_id"] == "4HPwATDgc/ABMA"


def test_the_dice_photos_carry_their_mit_licence() -> None:
    licence = (REAL_DICE / "LICENSE.txt").read_text()
    assert "MIT" in licence
    assert (REAL_DICE / "ATTRIBUTION.md").is_file()
    images = sorted(REAL_DICE.glob("images/*.jpg"))
    labels = {path.stem for path in REAL_DICE.glob("labels/*.txt")}
    assert len(images) == 120
    assert {path.stem for path in images} <= labels
