"""Arabic Shesh Besh acted out as camera frames through vision and the referee (``demo --variant``).

There is no match file for Shesh Besh: every roll has one outcome (:mod:`controller.rules.sheshbesh`),
so a seed fixes the whole game. Seeded dice decide the roll-off (one die each, in each player's own
half; equal dice are picked up and rolled again) and every turn's roll (both dice in the roller's
half: White's right, Black's left; doubles roll again). The board is drawn as the camera sees it:
a standing stack looks like one checker from above, each laid-down checker is one more beside it,
borne-off checkers stand in the owner's tray. For each roll the shots are: the dice come to rest,
the checkers are laid down or borne off, the dice are picked up (which ends the turn). Vision reads
the frames; the referee, playing the ``sheshbesh`` variant, records each roll's play and the game.
The result comes from the record alone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from controller.events import Event
from controller.lights import FakeLights
from controller.referee import MatchSettings, NewMatch
from controller.referee.variants import sheshbesh_counts
from controller.rules import Dice
from controller.rules.sheshbesh import SheshBeshGame
from controller.sim.stage import Image, Stage, calibrated_reader
from controller.table.assembly import LiveTable, TableError
from vision.synth.render import DieSpec, DrawnScene, render

Half = Literal["left", "right"]
#: Where each player's dice come to rest: White (0) rolls into the right half, Black into the left.
HALVES: tuple[Half, Half] = ("right", "left")
PLAYERS = ("White", "Black")


@dataclass(frozen=True, slots=True)
class DoubletsShot:
    """One still moment of a Shesh Besh game: what the camera sees, for ``seconds``."""

    counts: dict[str, tuple[int, int]]
    dice: tuple[DieSpec, ...]
    seconds: float
    hand: bool
    caption: str


def direct_game(seed: int, hand: float = 0.2, still: float = 0.6) -> Iterator[DoubletsShot]:
    """The shots of the one game ``seed`` gives: setup, roll-off, every roll until a side wins."""
    dice_rng = np.random.default_rng(seed)

    def die() -> int:
        return int(dice_rng.integers(1, 7))

    def moment(
        counts: dict[str, tuple[int, int]], dice: tuple[DieSpec, ...], caption: str
    ) -> Iterator[DoubletsShot]:
        yield DoubletsShot(counts, dice, hand, True, caption)
        yield DoubletsShot(counts, dice, still, False, caption)

    game = SheshBeshGame.initial(0)
    counts = sheshbesh_counts(game)
    yield from moment(counts, (), "setting up")
    while True:
        white, black = die(), die()
        rolled = (DieSpec(black, half="left"), DieSpec(white, half="right"))
        yield from moment(counts, rolled, f"roll-off: White {white}, Black {black}")
        yield from moment(counts, (), "the roll-off dice are picked up")
        first = SheshBeshGame.roll_off(white, black)
        if first is not None:
            break
    game = SheshBeshGame.initial(first)
    while game.result is None:
        player = game.player_on_roll
        dice = Dice(die(), die())
        half = HALVES[player]
        down = (DieSpec(dice.first, half=half), DieSpec(dice.second, half=half))
        caption = f"{PLAYERS[player]} rolls {dice.first}-{dice.second}"
        yield from moment(counts, down, caption)
        turn = game.play(dice)
        counts = sheshbesh_counts(turn.after)
        played = ", ".join(str(action) for action in turn.actions)
        yield from moment(counts, down, f"{PLAYERS[player]}: {played}")
        yield from moment(counts, (), f"{PLAYERS[player]} picks up the dice")
        game = turn.after


def frames(stage: Stage, shot: DoubletsShot, count: int) -> Iterator[Image]:
    """``count`` frames of ``shot`` by the demo's camera (a hand changes every frame)."""
    scene = DrawnScene(counts=shot.counts, dice=shot.dice, cube_place=None, hand=shot.hand)
    if shot.hand:
        for _ in range(count):
            yield render(scene, stage.style, stage.rng)
        return
    image = render(scene, stage.style, stage.rng)
    for _ in range(count):
        yield image


def play_game(
    seed: int, live: LiveTable, *, fps: float = 10.0, camera_seed: int = 7
) -> dict[str, Any]:
    """Act out game ``seed`` through vision and the referee of ``live`` (its record and lights
    opened already); the contract's result."""
    stage = Stage(seed=camera_seed)
    reader = calibrated_reader(stage)
    runner = live.start_runner()
    table = live.open_table(reader)
    match_id = f"sheshbesh-{seed}-{int(time.time() * 1000)}"
    runner.feed(
        NewMatch(
            MatchSettings(
                players=PLAYERS,
                length=0,
                crawford=False,
                jacoby=False,
                variant="sheshbesh",
                match_id=match_id,
            )
        )
    )
    for shot in direct_game(seed):
        for image in frames(stage, shot, max(1, round(shot.seconds * fps))):
            live.clock.now += 1.0 / fps
            table.frame(image, live.clock.now)
    assert live.record is not None
    return result_of(live.record.events(match_id))


def result_of(events: list[Event]) -> dict[str, Any]:
    """``{"variant": "sheshbesh", "rolls": [...], "games": [...], "score": [...]}`` from the record:
    each recorded play's roller and dice, the first game's winner and points, the score after it."""
    rolls: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    score = [0, 0]
    for event in events:
        if event.type == "play" and not games:
            rolls.append({"player": event.data["player"], "dice": list(event.data["dice"])})
        elif event.type == "game_won" and not games:
            games.append({"winner": event.data["winner"], "points": event.data["points"]})
            after = event.data.get("score")
            if isinstance(after, list) and len(after) == 2:
                score = [int(after[0]), int(after[1])]
    return {"variant": "sheshbesh", "rolls": rolls, "games": games, "score": score}


def run_variant(args: Any) -> int:
    """``sheshbesh demo --variant sheshbesh --seed N --speed max --no-panel``: one game, one JSON
    line. ``--seed`` seeds the dice and the camera; the game runs as fast as it goes, without the
    panel (other ``--speed`` values and the panel are refused with one line)."""
    import json
    import sys
    import tempfile
    from pathlib import Path

    if args.match is not None:
        print("sheshbesh demo: --match is for backgammon; Shesh Besh is seeded", file=sys.stderr)
        return 2
    if args.speed != "max":
        print("sheshbesh demo: the Shesh Besh demo runs at --speed max only", file=sys.stderr)
        return 2
    if not args.no_panel:
        print(
            "sheshbesh demo: the Shesh Besh demo runs without the panel: add --no-panel",
            file=sys.stderr,
        )
        return 2
    db = (
        Path(args.db)
        if args.db
        else Path(tempfile.mkdtemp(prefix="sheshbesh-demo-")) / "record.sqlite"
    )
    try:
        with LiveTable("demo") as live:
            live.open_lights(FakeLights)
            live.open_record(db)
            result = play_game(args.seed, live, fps=args.fps, camera_seed=args.seed)
    except TableError as error:
        print(f"sheshbesh demo: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result), flush=True)
    return 0
