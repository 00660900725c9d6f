"""The run configuration: defaults, the documented example file, and refusals that name the typo."""

from pathlib import Path

import pytest

from controller.table.config import Config, ConfigError, config_from_dict, load_config, to_toml

ROOT = Path(__file__).resolve().parents[2]


def test_documented_example_equals_the_defaults() -> None:
    assert load_config(ROOT / "deploy" / "sheshbesh.toml") == Config()


def test_round_trip_through_toml(tmp_path: Path) -> None:
    config = config_from_dict({"match": {"length": 0, "jacoby": True, "players": ["Ann", "Bo"]}})
    path = tmp_path / "c.toml"
    path.write_text(to_toml(config))
    loaded = load_config(path)
    assert loaded == config
    assert loaded.match.length == 0 and loaded.match.players == ("Ann", "Bo")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"camra": {}}, "unknown section [camra]"),
        ({"match": {"lenght": 5}}, "unknown setting [match] lenght"),
        ({"match": {"length": -1}}, "[match] length"),
        ({"match": {"policy": "strict"}}, "choose one of teaching, tournament, condone"),
        ({"panel": {"enabled": "yes"}}, "[panel] enabled must be true or false"),
        ({"match": {"players": ["only one"]}}, "list of two names"),
    ],
)
def test_bad_settings_are_named(data: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=None) as caught:
        config_from_dict(data)  # type: ignore[arg-type]
    assert words in str(caught.value)


def test_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[match\nlength = 3")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(broken)
