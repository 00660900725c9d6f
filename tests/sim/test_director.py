"""The director acts out real matches as physical moments: what it puts on the table must be true."""

from pathlib import Path

import pytest

from controller.record.matfile import read_mat
from controller.rules import game_result
from controller.sim.director import (
    DirectorError,
    Timing,
    check_match,
    direct_match,
    final_positions,
)
from tests.shared_data import MATCHES_DIR

MATCHES = sorted(MATCHES_DIR.glob("*.mat"))
EMBEDDED = Path(__file__).resolve().parents[2] / "controller" / "data" / "demo-3pt.mat"
#: small matches GNU Backgammon played with noisy play, chosen for their tall stacks
TALL_MATCHES = Path(__file__).resolve().parents[1] / "data" / "tall-stacks"
TALL = TALL_MATCHES / "gnubg-3pt-noisy-seed5023.mat"


@pytest.fixture(
    params=[*MATCHES, EMBEDDED, *sorted(TALL_MATCHES.glob("*.mat"))], ids=lambda p: p.name
)
def match_path(request: pytest.FixtureRequest) -> Path:
    path: Path = request.param
    if not path.exists():
        pytest.skip(f"{path} is not here (the shared data folder sits beside the checkout)")
    return path


def test_every_shot_holds_fifteen_checkers_a_side(match_path: Path) -> None:
    match = read_mat(match_path.read_text())
    shots = list(direct_match(match))
    assert shots, "a match with games gives shots"
    for shot in shots:
        assert sum(shot.table.white) <= 15 and sum(shot.table.black) <= 15
        assert all(count >= 0 for count in shot.table.white + shot.table.black)
        assert len(shot.table.dice) in (0, 2)
        assert shot.seconds > 0


def test_final_tables_score_the_points_the_file_gives(match_path: Path) -> None:
    match = read_mat(match_path.read_text())
    finals = final_positions(match)
    assert len(finals) == len(match.games)
    borne_off = 0
    for game, final in zip(match.games, finals, strict=True):
        result = game_result(final)
        if result is None:
            continue  # a pass or a resignation ends the game with checkers on both sides
        borne_off += 1
        cube = max([a.cube or 1 for a in game.actions if a.kind in ("double", "beaver")] or [1])
        assert result.winner == game.winner
        assert result.kind * cube == game.points
    if match_path.name.startswith("demo-3pt"):
        assert borne_off == 1  # game 2 ends in a backgammon with the cube on 2


def test_dice_lie_in_the_roller_half_and_roll_off_dice_split() -> None:
    match = read_mat(EMBEDDED.read_text())
    shots = [shot for shot in direct_match(match) if shot.table.dice and not shot.hand]
    first = shots[0]
    halves = {half for _, half in first.table.dice}
    assert halves == {"left", "right"}, "the opening roll-off has one die in each half"
    later = [shot for shot in shots if "rolls" in shot.caption]
    assert later
    for shot in later:
        assert len({half for _, half in shot.table.dice}) == 1


def test_cube_moves_to_middle_on_offer_and_to_taker_on_take() -> None:
    match = read_mat(EMBEDDED.read_text())
    shots = list(direct_match(match, Timing()))
    offers = [s for s in shots if "doubles" in s.caption and not s.hand]
    takes = [s for s in shots if "takes" in s.caption and not s.hand]
    passes = [s for s in shots if "passes" in s.caption and not s.hand]
    assert offers and takes and passes
    assert all(s.table.cube_place == "middle" and s.table.cube_value == 2 for s in offers)
    assert all(s.table.cube_place in ("white", "black") for s in takes + passes)


def test_an_illegal_play_in_the_file_is_named_with_its_game_line_and_move() -> None:
    text = " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/4 6/5\n"
    with pytest.raises(DirectorError, match="line 5") as caught:
        list(direct_match(read_mat(text)))
    message = str(caught.value)
    assert message.startswith("game 1, line 5: A's 31: 8/4 6/5 is no legal play (")
    assert "\n" not in message


def test_a_match_is_checked_whole_before_a_frame_is_drawn() -> None:
    good = " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
    assert check_match(read_mat(good)) > 4
    bad = good.replace("42: 8/4 6/4", "42: 8/2 6/4")
    with pytest.raises(DirectorError, match="game 1, line 5: B's 42: 8/2 6/4 is no legal play"):
        check_match(read_mat(bad))


def test_the_tallest_piles_of_real_matches_are_acted_out() -> None:
    # a GNU Backgammon match (3 points, noisy play) that piles 12 checkers on one point and
    # puts 6 on the bar: every shot holds at most 15 at a place, and the renderer draws them
    match = read_mat(TALL.read_text())
    tallest = 0
    for shot in direct_match(match):
        table = shot.table
        tallest = max(tallest, *table.white[:24], *table.black[:24])
    assert tallest >= 12
