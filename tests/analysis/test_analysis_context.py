"""Bookkeeping: our match context mapped to the engine's inputs, from the deciding player's side."""

from __future__ import annotations

import sys
import types
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.analysis.bgsage_engine import BgsageAnalyser
from controller.analysis.board import START, to_signed_board
from controller.analysis.context import MatchContext, MoverView, crawford_flags
from controller.analysis.errors import AnalysisInputError

# length, score, player -> (away_self, away_opponent)
AWAY_TABLE = [
    (7, (0, 0), 0, (7, 7)),
    (7, (4, 2), 0, (3, 5)),
    (7, (4, 2), 1, (5, 3)),
    (5, (4, 0), 1, (5, 1)),
    (5, (4, 4), 0, (1, 1)),
    (1, (0, 0), 1, (1, 1)),
    (0, (0, 0), 0, (0, 0)),
    (0, (12, 3), 1, (0, 0)),  # money: a running score means nothing to the engine
]


@pytest.mark.parametrize(("length", "score", "player", "expected"), AWAY_TABLE)
def test_scores_become_away_scores_from_the_deciders_side(
    length: int, score: tuple[int, int], player: int, expected: tuple[int, int]
) -> None:
    view = MatchContext(length, score).for_player(player)
    assert (view.away_self, view.away_opponent) == expected
    assert view.is_money == (length == 0)


# cube owner (None = centred), player deciding -> owner as the engine names it
OWNER_TABLE = [
    (None, 0, "centered"),
    (None, 1, "centered"),
    (0, 0, "player"),
    (0, 1, "opponent"),
    (1, 1, "player"),
    (1, 0, "opponent"),
]


@pytest.mark.parametrize(("owner", "player", "expected"), OWNER_TABLE)
def test_cube_ownership_is_seen_from_the_deciders_side(
    owner: int | None, player: int, expected: str
) -> None:
    context = MatchContext(7, (1, 2), cube_value=1 if owner is None else 4, cube_owner=owner)
    view = context.for_player(player)
    assert view.cube_owner == expected
    assert view.cube_value == context.cube_value


def test_crawford_flags_mark_only_the_first_game_at_match_point() -> None:
    starts = [(0, 0), (2, 0), (4, 1), (4, 3), (4, 4)]
    assert crawford_flags(5, starts) == [False, False, True, False, False]
    # Both reach match point only later, one after the other: still one Crawford game.
    assert crawford_flags(3, [(0, 0), (0, 2), (1, 2), (2, 2)]) == [False, True, False, False]
    assert crawford_flags(0, [(0, 0), (5, 4)]) == [False, False]
    assert crawford_flags(1, [(0, 0)]) == [False]


CRAWFORD_TABLE = [
    # length, score, crawford game, player -> is_crawford, is_post_crawford, may_double
    (5, (4, 2), True, 1, True, False, False),
    (5, (4, 2), True, 0, True, False, False),
    (5, (4, 2), False, 1, False, True, True),  # post-Crawford: the trailer doubles
    (5, (4, 2), False, 0, False, True, False),  # the leader's cube is dead (1-away)
    (5, (2, 2), False, 0, False, False, True),
    (1, (0, 0), False, 0, False, True, False),  # a 1-point match: a dead cube for both
]


@pytest.mark.parametrize(
    ("length", "score", "crawford", "player", "is_crawford", "post", "may_double"), CRAWFORD_TABLE
)
def test_crawford_and_post_crawford(
    length: int,
    score: tuple[int, int],
    crawford: bool,
    player: int,
    is_crawford: bool,
    post: bool,
    may_double: bool,
) -> None:
    view = MatchContext(length, score, crawford_game=crawford).for_player(player)
    assert view.is_crawford is is_crawford
    assert view.is_post_crawford is post
    assert view.may_double is may_double


DEAD_CUBE_TABLE = [
    # length, score, cube, owner, player -> may_double
    (7, (4, 2), 2, 0, 0, True),  # 3-away holding a 2-cube may redouble
    (7, (4, 2), 4, 0, 0, False),  # 4 covers the 3 points needed: dead
    (7, (4, 2), 4, 0, 1, False),  # the opponent's cube: no access
    (7, (2, 4), 2, 1, 1, True),
    (7, (0, 5), 2, 0, 0, True),  # the trailer's cube stays live though the leader's would not
    (7, (5, 0), 2, 0, 0, False),
]


@pytest.mark.parametrize(
    ("length", "score", "cube", "owner", "player", "expected"), DEAD_CUBE_TABLE
)
def test_cube_access_and_dead_cubes(
    length: int, score: tuple[int, int], cube: int, owner: int, player: int, expected: bool
) -> None:
    view = MatchContext(length, score, cube_value=cube, cube_owner=owner).for_player(player)
    assert view.may_double is expected


MONEY_TABLE = [
    # jacoby, beavers -> what the engine is told
    (False, False),
    (True, False),
    (False, True),
    (True, True),
]


@pytest.mark.parametrize(("jacoby", "beavers"), MONEY_TABLE)
def test_money_play_passes_jacoby_and_beavers(jacoby: bool, beavers: bool) -> None:
    view = MatchContext(0, jacoby=jacoby, beavers=beavers).for_player(1)
    assert (view.jacoby, view.beaver) == (jacoby, beavers)
    assert (view.away_self, view.away_opponent, view.is_crawford) == (0, 0, False)
    assert view.may_double  # a money cube is never dead


BAD_CONTEXTS: list[tuple[dict[str, Any], str]] = [
    ({"length": -1}, "negative"),
    ({"length": 5, "score": (5, 0)}, "already over"),
    ({"length": 5, "score": (-1, 0)}, "non-negative"),
    ({"cube_value": 3, "cube_owner": 0}, "power of two"),
    ({"cube_value": 2}, "must have an owner"),
    ({"cube_owner": 1}, "no owner"),
    ({"cube_value": 2, "cube_owner": 2}, "None, 0 or 1"),
    ({"length": 5, "score": (3, 2), "crawford_game": True}, "cannot be a Crawford game"),
    ({"length": 1, "crawford_game": True}, "cannot be a Crawford game"),
    (
        {"length": 5, "score": (4, 2), "crawford_game": True, "cube_value": 2, "cube_owner": 0},
        "Crawford",
    ),
    ({"length": 5, "jacoby": True}, "money play only"),
    ({"length": 5, "beavers": True}, "money play only"),
    ({"crawford_game": True}, "no Crawford"),
]


@pytest.mark.parametrize(("fields", "message"), BAD_CONTEXTS)
def test_impossible_contexts_are_refused_with_a_reason(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(AnalysisInputError, match=message):
        MatchContext(**fields)


def test_a_bad_player_number_is_refused() -> None:
    with pytest.raises(AnalysisInputError, match="player 2"):
        MatchContext(7).for_player(2)


def test_taking_doubles_the_cube_onto_the_takers_side() -> None:
    context = MatchContext(7, (1, 3)).after_take(1).after_take(0)
    assert (context.cube_value, context.cube_owner) == (4, 0)
    assert context.for_player(0).cube_owner == "player"


@st.composite
def contexts(draw: st.DrawFn) -> MatchContext:
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 11]))
    if length == 0:
        cube = draw(st.sampled_from([1, 2, 4, 8]))
        owner = None if cube == 1 else draw(st.sampled_from([0, 1]))
        return MatchContext(
            0,
            cube_value=cube,
            cube_owner=owner,
            jacoby=draw(st.booleans()),
            beavers=draw(st.booleans()),
        )
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    crawford = length > 1 and length - 1 in score and draw(st.booleans())
    cube = 1 if crawford else draw(st.sampled_from([1, 2, 4]))
    owner = None if cube == 1 else draw(st.sampled_from([0, 1]))
    return MatchContext(length, score, crawford, cube, owner)


@given(contexts(), st.sampled_from([0, 1]))
def test_one_players_view_is_the_other_players_view_flipped(
    context: MatchContext, player: int
) -> None:
    view = context.for_player(player)
    assert context.for_player(1 - player) == view.flipped()
    assert view.flipped().flipped() == view


class _RecordingEngine:
    """Stands in for ``bgsage.BgBotAnalyzer`` and keeps what it was asked."""

    calls: ClassVar[list[tuple[str, tuple[Any, ...], dict[str, Any]]]] = []

    def __init__(self, **settings: Any) -> None:
        self.settings = settings

    def cube_action(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(("cube", args, kwargs))
        probabilities = types.SimpleNamespace(to_list=lambda: [0.5, 0.1, 0.0, 0.1, 0.0])
        return types.SimpleNamespace(
            equity_nd=0.1, equity_dt=-0.2, equity_dp=1.0, is_beaver=False, probs=probabilities
        )

    def checker_play(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(("play", args, kwargs))
        return types.SimpleNamespace(moves=[])


@pytest.fixture
def recording_engine(monkeypatch: pytest.MonkeyPatch) -> type[_RecordingEngine]:
    """A fake ``bgsage`` package in ``sys.modules``, so this runs with or without the extra."""
    package = types.ModuleType("bgsage")
    package.BgBotAnalyzer = _RecordingEngine  # type: ignore[attr-defined]
    text_export = types.ModuleType("bgsage.text_export")
    text_export.compute_move_notation = lambda *args: ""  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bgsage", package)
    monkeypatch.setitem(sys.modules, "bgsage.text_export", text_export)
    _RecordingEngine.calls = []
    return _RecordingEngine


ENGINE_TABLE = [
    # context, player -> the positional and keyword arguments bgsage must get
    (MatchContext(7, (4, 2)), 1, (1, "centered"), {"away1": 5, "away2": 3, "is_crawford": False}),
    (
        MatchContext(5, (4, 1), crawford_game=True),
        1,
        (1, "centered"),
        {"away1": 4, "away2": 1, "is_crawford": True},
    ),
    (
        MatchContext(9, (3, 6), cube_value=2, cube_owner=0),
        1,
        (2, "opponent"),
        {"away1": 3, "away2": 6},
    ),
    (
        MatchContext(0, jacoby=True, beavers=True),
        0,
        (1, "centered"),
        {"away1": 0, "away2": 0, "jacoby": True, "beaver": True},
    ),
    (
        MatchContext(0, cube_value=4, cube_owner=0, jacoby=False),
        0,
        (4, "player"),
        {"jacoby": False, "beaver": False},
    ),
]


@pytest.mark.parametrize(("context", "player", "positional", "keywords"), ENGINE_TABLE)
def test_the_engine_gets_the_context_from_the_deciders_side(
    recording_engine: type[_RecordingEngine],
    context: MatchContext,
    player: int,
    positional: tuple[Any, ...],
    keywords: dict[str, Any],
) -> None:
    analyser = BgsageAnalyser("0ply")
    view = context.for_player(player)
    analyser.cube_equities(START, view)
    analyser.ranked_plays(START, (3, 1), view)
    (kind, cube_args, cube_kwargs), (_, play_args, play_kwargs) = recording_engine.calls
    assert kind == "cube"
    assert cube_args == (to_signed_board(START), *positional)
    assert play_args == (to_signed_board(START), 3, 1, *positional)
    for name, value in keywords.items():
        assert cube_kwargs[name] == value, name
        assert play_kwargs[name] == value, name
    if not context.is_money:
        assert not cube_kwargs["jacoby"] and not cube_kwargs["beaver"]


def test_the_level_names_count_plies_as_gnu_backgammon_does(
    recording_engine: type[_RecordingEngine],
) -> None:
    levels = {
        name: BgsageAnalyser(name)._engine.settings["eval_level"]
        for name in ("0ply", "1ply", "2ply")
    }
    assert levels == {"0ply": "1ply", "1ply": "2ply", "2ply": "3ply"}
    with pytest.raises(AnalysisInputError, match="unknown analysis level '3ply'"):
        BgsageAnalyser("3ply")


def test_a_cube_view_is_a_value() -> None:
    view = MoverView(3, 5, False, 2, "player", False, False)
    assert view == MatchContext(7, (4, 2), cube_value=2, cube_owner=0).for_player(0)
