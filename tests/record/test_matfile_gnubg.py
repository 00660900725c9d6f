"""Round trips with GNU Backgammon: its Python package (in process) and Debian's gnubg program.

gnubg is the reference: the positions, dice, cube actions and results it finds when it imports a
match file must be the ones our replay finds, for its own files, for files we export, and for new
matches it plays itself with a fixed seed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import events_from_replay, expected_results, gnubg_program, real_match_paths

from controller.record.export import export_mat
from controller.record.matfile import MatchFile, read_mat, write_mat
from controller.record.rules_replay import replay_records

gnubg = pytest.importorskip(
    "gnubg", reason="the gnubg reference package is not installed (x86-64 wheels only)"
)

pytestmark = pytest.mark.gnubg

View = list[tuple[tuple[int, int], int, int, list[tuple[Any, ...]]]]


@pytest.fixture(scope="module", autouse=True)
def _quiet_engine() -> None:
    # Without one thread gnubg's engine can hang in process; without confirm off, importing a
    # second match would ask whether to abandon the first.
    gnubg.command("set threads 1")
    gnubg.command("set confirm new off")


def _gnubg_import(path: Path) -> dict[str, Any]:
    gnubg.command(f"import mat {path}")
    match: dict[str, Any] = gnubg.match(
        analysis=False, boards=True, statistics=False, verbose=False
    )
    return match


def _gnubg_view(match: dict[str, Any], players: tuple[str, str]) -> View:
    """Per game: start score, winner, points, and the plays (dice, Position ID) and cube actions."""
    info = match["match-info"]
    letter_player = {letter: players.index(info[letter]["name"]) for letter in ("X", "O")}
    view: View = []
    for game in match["games"]:
        header = game["info"]
        score = [0, 0]
        score[letter_player["X"]] = header["score-X"]
        score[letter_player["O"]] = header["score-O"]
        steps: list[tuple[Any, ...]] = []
        for record in game["game"]:
            player = letter_player[record["player"]]
            action = record["action"]
            if action == "move":
                dice = tuple(sorted(record["dice"], reverse=True))
                steps.append(("play", player, dice, record["board"]))
            elif action in ("double", "take", "drop", "beaver"):
                steps.append(({"drop": "pass"}.get(action, action), player))
        view.append(
            ((score[0], score[1]), letter_player[header["winner"]], header["points-won"], steps)
        )
    return view


def _our_view(match: MatchFile) -> View:
    view: View = []
    steps: list[tuple[Any, ...]] = []
    score = [0, 0]
    for record in replay_records(match):
        if record["type"] == "play":
            dice = tuple(sorted(record["dice"], reverse=True))
            steps.append(("play", record["player"], dice, record["position_id"]))
        elif record["type"] == "cube":
            steps.append((record["action"], record["player"]))
        elif record["type"] == "game":
            view.append(((score[0], score[1]), record["winner"], record["points"], steps))
            score[record["winner"]] += record["points"]
            steps = []
    return view


def test_gnubg_import_of_real_match_sees_what_our_replay_sees(real_match: Path) -> None:
    match = read_mat(real_match.read_text())
    assert _our_view(match) == _gnubg_view(_gnubg_import(real_match), match.players)


def _reference_match_ids(match: dict[str, Any], players: tuple[str, str]) -> list[str]:
    """Match IDs from gnubg's own encoder, for a state tracked here from gnubg's records."""
    info = match["match-info"]
    length = info["match-length"]
    crawford_rule = "Crawford" in info.get("rules", ())
    letter_player = {letter: players.index(info[letter]["name"]) for letter in ("X", "O")}
    ids = []
    crawford_seen = False
    for game in match["games"]:
        header = game["info"]
        score = [0, 0]
        score[letter_player["X"]] = header["score-X"]
        score[letter_player["O"]] = header["score-O"]
        crawford = crawford_rule and not crawford_seen and length - 1 in score and length > 1
        crawford_seen = crawford_seen or crawford
        cube, owner = 1, -1
        for record in game["game"]:
            player = letter_player[record["player"]]
            if record["action"] == "take":
                cube, owner = cube * 2, player
            elif record["action"] == "move":
                cube_info = gnubg.cubeinfo(
                    cube, owner, player, length, tuple(score), int(crawford), 0
                )
                position_info = gnubg.posinfo(player, 0, 0, 1, tuple(record["dice"]))
                ids.append(gnubg.matchid(cube_info, position_info))
    return ids


def test_match_ids_agree_with_gnubg_encoder(real_match: Path) -> None:
    match = read_mat(real_match.read_text())
    ours = [r["match_id"] for r in replay_records(match) if r["type"] == "play"]
    assert ours == _reference_match_ids(_gnubg_import(real_match), match.players)


def test_our_export_is_imported_by_gnubg_with_the_same_positions_plays_and_score(
    real_match: Path, tmp_path: Path
) -> None:
    match = read_mat(real_match.read_text())
    exported = tmp_path / "ours.mat"
    exported.write_text(export_mat(events_from_replay(match)))
    imported = _gnubg_import(exported)
    assert _gnubg_view(imported, match.players) == _our_view(match)
    # and gnubg writes it back in a form that replays here the same way
    again = tmp_path / "again.mat"
    gnubg.command(f"export match mat {again}")
    assert list(replay_records(read_mat(again.read_text()))) == list(replay_records(match))


@pytest.mark.parametrize(("length", "seed"), [(5, 2026), (3, 31)])
def test_a_new_match_gnubg_plays_replays_here_with_its_results(
    length: int, seed: int, tmp_path: Path
) -> None:
    for command in (
        "set player 0 gnubg",
        "set player 1 gnubg",
        "set player 0 chequerplay evaluation plies 0",
        "set player 1 chequerplay evaluation plies 0",
        "set player 0 cubedecision evaluation plies 0",
        "set player 1 cubedecision evaluation plies 0",
        "set defaultnames Alice Bob",
        f"set seed {seed}",
        "set jacoby off",
        f"new match {length}",
    ):
        gnubg.command(command)
    played = gnubg.match(analysis=False, boards=True, statistics=False, verbose=False)
    path = tmp_path / "played.mat"
    gnubg.command(f"export match mat {path}")
    match = read_mat(path.read_text())
    assert _our_view(match) == _gnubg_view(played, match.players)
    final = list(replay_records(match))[-1]
    assert max(final["score"]) >= length


needs_program = pytest.mark.skipif(
    gnubg_program() is None,
    reason="Debian's gnubg program is not installed (apt-get install gnubg)",
)


def _run_program(commands: list[str]) -> None:
    program = gnubg_program()
    assert program is not None
    completed = subprocess.run(
        [program, "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]


@needs_program
def test_gnubg_program_round_trip_of_our_export(real_match: Path, tmp_path: Path) -> None:
    match = read_mat(real_match.read_text())
    ours = tmp_path / "ours.mat"
    ours.write_text(export_mat(events_from_replay(match)))
    theirs = tmp_path / "theirs.mat"
    _run_program([f"import mat {ours}", f"export match mat {theirs}"])
    back = read_mat(theirs.read_text())
    assert back.players == match.players and back.length == match.length
    assert list(replay_records(back)) == list(replay_records(match))
    # read -> write of gnubg's own text is gnubg's layout again
    assert [line.rstrip() for line in write_mat(back).splitlines()] == [
        line.rstrip() for line in theirs.read_text().splitlines()
    ]


@needs_program
@pytest.mark.parametrize(("length", "seed"), [(7, 4711), (1, 5)])
def test_a_match_the_gnubg_program_plays_replays_here(
    length: int, seed: int, tmp_path: Path
) -> None:
    path = tmp_path / f"gnubg-{length}pt-seed{seed}.mat"
    _run_program(
        [
            "set player 0 gnubg",
            "set player 1 gnubg",
            "set player 0 chequerplay evaluation plies 0",
            "set player 1 chequerplay evaluation plies 0",
            "set player 0 cubedecision evaluation plies 0",
            "set player 1 cubedecision evaluation plies 0",
            "set defaultnames Alice Bob",
            f"set seed {seed}",
            "set jacoby off",
            f"new match {length}",
            f"export match mat {path}",
        ]
    )
    text = path.read_text()
    records = list(replay_records(read_mat(text)))
    games = [(r["winner"], r["points"]) for r in records if r["type"] == "game"]
    assert games == expected_results(text)
    score = [0, 0]
    for winner, points in games:
        score[winner] += points
    assert records[-1]["score"] == score and max(score) >= length


def test_the_real_matches_are_all_covered() -> None:
    assert {p.name for p in real_match_paths()} >= {
        "gnubg-selfplay-1pt-seed11.mat",
        "gnubg-selfplay-3pt-seed12345.mat",
        "gnubg-selfplay-5pt-seed777.mat",
        "gnubg-selfplay-7pt-seed4242.mat",
    }


HANDMADE = {
    "resign-by-the-mover": (
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                 62: 24/18 13/11 \n"
        "  2) 43: 13/9 13/10               Wins 2 points\n\n"
        " Game 2\n Alice : 0                      Bob : 2\n"
        "  1) 31: 8/5 6/5                 \n"
        "      Wins 1 point\n"
    ),
    "money-beaver": (
        " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Beavers => 4               62: 24/18 13/11\n"
        "  3) 43: 13/9 13/10\n"
        "      Wins 4 points\n\n"
        " Game 2\n Alice : 4                      Bob : 0\n"
        "  1)                             21: 13/11 6/5\n"
        "  2)  Doubles => 2                Drops\n"
        "      Wins 1 point\n"
    ),
}


@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_gnubg_package_round_trip_of_cube_and_resignations(name: str, tmp_path: Path) -> None:
    match = read_mat(HANDMADE[name])
    ours = tmp_path / "ours.mat"
    ours.write_text(export_mat(events_from_replay(match)))
    gnubg.command("set jacoby off")
    gnubg.command(f"import mat {ours}")
    theirs = tmp_path / "theirs.mat"
    gnubg.command(f"export match mat {theirs}")
    assert list(replay_records(read_mat(theirs.read_text()))) == list(replay_records(match))


@needs_program
@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_gnubg_program_round_trip_of_cube_and_resignations(name: str, tmp_path: Path) -> None:
    match = read_mat(HANDMADE[name])
    ours = tmp_path / "ours.mat"
    ours.write_text(export_mat(events_from_replay(match)))
    theirs = tmp_path / "theirs.mat"
    _run_program(["set jacoby off", f"import mat {ours}", f"export match mat {theirs}"])
    assert list(replay_records(read_mat(theirs.read_text()))) == list(replay_records(match))
