"""The table's wiring: director → board readings → referee → record, with vision's reading made perfect.

These tests pin the conventions the demo and ``run`` share (roll-off dice in each player's half, the
cube's offer/take/pass places, resignations from the panel) on all the real matches, quickly: the
reading is taken from the director's own table instead of a rendered image. The end-to-end test
(``tests/sim/test_end_to_end.py``) puts the renderer and vision back in between.
"""

from pathlib import Path

import pytest

from controller.record.matfile import read_mat
from controller.record.rules_replay import replay_records
from controller.record.store import Record
from controller.referee import MatchSettings, NewMatch
from controller.sim.demo import results_of
from controller.sim.director import FAST_TIMING, direct_match
from controller.table.runner import Runner
from controller.table.table import Table, same_reading
from sheshbesh.observation import DieReading, LocationCount, Observation
from tests.shared_data import MATCHES_DIR
from tests.table.table_testkit import ScriptedReader, act_out

MATCHES = sorted(MATCHES_DIR.glob("*.mat"))


def play(path: Path) -> tuple[Record, str]:
    match = read_mat(path.read_text())
    record = Record(":memory:")
    clock = [0.0]
    runner = Runner.resume(record, clock=lambda: clock[0])
    table = Table(ScriptedReader(), runner)
    runner.feed(
        NewMatch(
            MatchSettings(players=match.players, length=match.length, match_id="m", hints=True)
        )
    )
    act_out(table, runner, direct_match(match, FAST_TIMING), clock)
    return record, "m"


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_real_matches_end_as_the_file_says(path: Path) -> None:
    record, match_id = play(path)
    events = record.events(match_id)
    expected = list(replay_records(read_mat(path.read_text())))
    games = [
        {k: r[k] for k in ("game", "winner", "points")} for r in expected if r["type"] == "game"
    ]
    final = next(r for r in expected if r["type"] == "match")["score"]
    assert results_of(events) == {"games": games, "score": final}
    plays = [
        (e.data["player"], e.data["play"], e.data["position_id"])
        for e in events
        if e.type == "play"
    ]
    want = [(r["player"], r["play"], r["position_id"]) for r in expected if r["type"] == "play"]
    assert plays == want
    assert not [e for e in events if e.type in ("board_mismatch", "illegal_play")]


def test_same_reading_ignores_times_and_confidences() -> None:
    counts = {"p1": LocationCount(2, 0, 0.9, 0.9)}
    a = Observation(locations=counts, time=1.0, dice=(DieReading(3, 0.9),))
    b = Observation(
        locations={"p1": LocationCount(2, 0, 0.5, 0.5)}, time=2.0, dice=(DieReading(3, 0.4),)
    )
    c = Observation(locations={"p1": LocationCount(1, 0)}, dice=(DieReading(3),))
    assert same_reading(a, b)
    assert not same_reading(a, c)
    assert not same_reading(a, Observation(locations=counts, dice=(DieReading(4),)))


def test_the_status_says_when_the_camera_does_not_show_the_board() -> None:
    unseen = Observation(
        locations={}, state="occluded", extra={"unseen": "board could not be located: ..."}
    )
    frames = iter(
        [
            Observation(locations={"p1": LocationCount(2, 0)}),
            Observation(locations={}, state="moving"),
            unseen,
            Observation(locations={}, state="moving"),  # still not seen: nothing read yet
            Observation(locations={}, state="occluded"),  # a hand: the board is there
            Observation(locations={"p1": LocationCount(2, 0)}),
        ]
    )

    class Frames:
        def observe(self, image: object, time: float) -> Observation:
            return next(frames)

    runner = Runner.resume(Record(":memory:"), clock=lambda: 0.0)
    table = Table(Frames(), runner)
    seen = []
    for moment in range(6):
        table.frame(None, float(moment))  # type: ignore[arg-type]
        seen.append(table.status.board_seen)
    assert seen == [True, True, False, False, False, True]
