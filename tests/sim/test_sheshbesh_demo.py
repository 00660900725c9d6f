"""``sheshbesh demo --variant sheshbesh --seed N``: a seeded Arabic Shesh Besh game acted out as
frames, read by vision and refereed; the last line gives every roll, the game and the score."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.rules import Dice
from controller.rules.sheshbesh import SheshBeshGame
from controller.sim.sheshbesh_demo import direct_game

ROOT = Path(__file__).resolve().parents[2]


def engine_game(seed: int) -> tuple[list[dict[str, object]], int, int]:
    """The rolls the shots show for ``seed`` and the engine's winner and points for them."""
    rolls = []
    game: SheshBeshGame | None = None
    for shot in direct_game(seed):
        if shot.hand or not shot.caption.startswith(("White rolls", "Black rolls")):
            continue
        player = 0 if shot.caption.startswith("White") else 1
        pips = sorted((die.pips for die in shot.dice), reverse=True)
        rolls.append({"player": player, "dice": pips})
        if game is None:
            game = SheshBeshGame.initial(player)
        assert game.player_on_roll == player
        game = game.play(Dice(pips[0], pips[1])).after
    assert game is not None and game.result is not None
    return rolls, game.result.winner, game.result.kind


def test_the_seed_fixes_the_game_and_the_dice_lie_where_each_player_rolls() -> None:
    first = list(direct_game(5))
    assert [shot.caption for shot in first] == [shot.caption for shot in direct_game(5)]
    assert [shot.caption for shot in first] != [shot.caption for shot in direct_game(6)]
    setup = first[1].counts
    assert setup["p6"] == (1, 0) and setup["p19"] == (0, 1)  # a standing stack shows as one
    assert setup["off-white"] == (0, 0)
    for shot in first:
        halves = {die.half for die in shot.dice}
        if shot.caption.startswith("White rolls"):
            assert halves == {"right"}
        elif shot.caption.startswith("Black rolls"):
            assert halves == {"left"}
        elif shot.caption.startswith("roll-off") and not shot.hand:
            assert halves == {"left", "right"}
    rolls, winner, points = engine_game(5)
    assert len(rolls) > 10 and winner in (0, 1) and points in (1, 2)
    assert first[-1].counts[("off-white", "off-black")[winner]][winner] == 15


def test_a_bad_combination_is_a_one_line_error() -> None:
    command = [sys.executable, "-m", "controller.cli", "demo", "--variant", "sheshbesh"]
    done = subprocess.run(
        [*command, "--match", "x.mat", "--no-panel"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "sheshbesh demo: --match is for backgammon; Shesh Besh is seeded"
    ]


@pytest.mark.slow
def test_a_seeded_game_goes_through_vision_and_the_referee(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "controller.cli", "demo", "--variant", "sheshbesh"]
    done = subprocess.run(
        [*command, "--seed", "3", "--speed", "max", "--no-panel", "--db", str(tmp_path / "r.db")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=3000,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    rolls, winner, points = engine_game(3)
    assert result == {
        "variant": "sheshbesh",
        "rolls": rolls,
        "games": [{"winner": winner, "points": points}],
        "score": [points if winner == 0 else 0, points if winner == 1 else 0],
    }
