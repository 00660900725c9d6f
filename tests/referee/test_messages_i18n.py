"""The referee's sentences in every complete language.

The referee and the rules engine write English (standard library only); :mod:`sheshbesh.phrases`
holds each sentence as a catalogue template. These tests drive the real referee, the real rules
engine and the real cube judge, collect every sentence they produce, and check that each one fits
a template and reads in Hebrew, Arabic and Czech with no English words left but the notation.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from referee_testkit import load_match, match_inputs, match_paths, observe
from test_referee_sheshbesh import SETTINGS as SHESHBESH_SETTINGS
from test_referee_sheshbesh import counts_seen, whole_game

from controller.referee import (
    ButtonPressed,
    Input,
    MatchSettings,
    NewMatch,
    ObservationSeen,
    Referee,
    Say,
)
from controller.referee.variants import sheshbesh_counts
from controller.rules import Dice, Position, legal_plays
from controller.rules.explain import explain_illegal
from controller.rules.match import (
    MatchState,
    dead_cube_warning,
    judge_beaver,
    judge_double,
    judge_pass,
    judge_redouble,
    judge_take,
)
from controller.rules.sheshbesh import SheshBeshGame
from sheshbesh.language import LANGUAGES, translations
from sheshbesh.phrases import (
    FIRST_STRONG_ISOLATE,
    PHRASES,
    POP_DIRECTIONAL_ISOLATE,
    find_phrase,
    translate_sentence,
)

TRANSLATED = [language for language in LANGUAGES if language != "en"]
#: What may stay in Latin letters inside a translated sentence: move notation and board locations.
KEPT = re.compile(r"\b(?:bar|off)-(?:white|black)\b|\bp\d+\b|\bbar/|/off\b|\bbar\b|\boff\b")


def _sentences(referee: Referee, inputs: Iterable[Input]) -> set[str]:
    """Everything the referee says or shows while it handles ``inputs``."""
    said: set[str] = set()
    for item in inputs:
        for effect in referee.handle(item):
            if isinstance(effect, Say):
                said.add(effect.text)
        message = referee.snapshot().get("message")
        if message:
            said.add(message["text"])
    return said


def _left_in_english(translated: str, original: str) -> list[str]:
    """Latin-letter words of a right-to-left translation that are neither notation nor a name."""
    names = set(re.findall(r"[A-Za-z]+", " ".join(re.findall(r"\b[A-Z][a-z]+\b", original))))
    words = re.findall(r"[A-Za-z]{2,}", KEPT.sub(" ", translated))
    return [word for word in words if word not in names - {"White", "Black"}]


def _check_every_language(texts: set[str]) -> None:
    assert texts
    unknown = sorted(text for text in texts if find_phrase(text) is None)
    assert unknown == [], "sentences with no template in sheshbesh/phrases.py"
    for language in TRANSLATED:
        catalogue = translations(language)
        for text in texts:
            translated = translate_sentence(text, catalogue)
            assert translated != text, (language, text)
            if language in ("he", "ar", "el", "ru"):  # scripts with no Latin letters
                assert _left_in_english(translated, text) == [], (language, text, translated)


@pytest.fixture(scope="module")
def match_sentences() -> set[str]:
    paths = match_paths()
    if not paths:
        pytest.skip("the shared .mat matches are not present")
    match = load_match(paths[0].name)
    referee = Referee(clock=lambda: 0.0)
    return _sentences(referee, match_inputs(match, one_at_a_time=0.5, with_noise=True, seed=5))


def test_a_whole_real_match_speaks_every_language(match_sentences: set[str]) -> None:
    assert any("wins" in text for text in match_sentences)
    _check_every_language(match_sentences)


def test_buttons_refusals_and_cube_actions_speak_every_language() -> None:
    referee = Referee(clock=lambda: 0.0)
    start = Position.initial()
    inputs: list[Input] = [
        NewMatch(MatchSettings(("Ada", "Boris"), length=0, beavers=True, jacoby=False)),
        ObservationSeen(observe(start)),
        ButtonPressed("take"),
        ButtonPressed("pass"),
        ButtonPressed("accept"),
        ButtonPressed("reject"),
        ButtonPressed("undo"),
        ButtonPressed("resign"),
        ButtonPressed("done"),
    ]
    texts = _sentences(referee, inputs)
    assert "There is no double to take" in texts
    _check_every_language(texts)


def test_shesh_besh_games_speak_every_language() -> None:
    texts: set[str] = set()
    for seed in (1, 2):
        inputs, _, _ = whole_game(seed)
        referee = Referee(clock=lambda: 0.0)
        texts |= _sentences(referee, [NewMatch(SHESHBESH_SETTINGS), *inputs])
    game = SheshBeshGame.initial(0)
    referee = Referee(clock=lambda: 0.0)
    wrong = sheshbesh_counts(game)
    wrong["p5"] = (wrong["p5"][0] + 1, 0)
    wrong["p1"] = (wrong["p1"][0] + 1, 0)
    texts |= _sentences(
        referee,
        [
            NewMatch(SHESHBESH_SETTINGS),
            counts_seen(game),
            counts_seen(game, dice=(5, 2)),
            ButtonPressed("double"),
            counts_seen(game),
            counts_seen(game, dice=(6, 1)),
            ObservationSeen(observe(Position.initial(), counts=wrong, cube=None)),
        ],
    )
    assert any(text.startswith("With 6-1") for text in texts)
    _check_every_language(texts)


def test_a_board_that_does_not_read_speaks_every_language() -> None:
    start = Position.initial()
    referee = Referee(clock=lambda: 0.0)
    counts = dict(observe(start).locations)
    seen = {name: (entry.white, entry.black) for name, entry in counts.items()}
    short = dict(seen)
    short["p6"] = (seen["p6"][0] - 2, 0)
    both = dict(seen)
    both["p6"] = (seen["p6"][0], 1)
    stray = dict(seen)
    stray["bar-white"] = (0, 1)
    texts = _sentences(
        referee,
        [
            NewMatch(MatchSettings(("Ada", "Boris"), length=5)),
            ObservationSeen(observe(start, counts=short)),
            ObservationSeen(observe(start, counts=both)),
            ObservationSeen(observe(start, counts=stray)),
        ],
    )
    _check_every_language(texts)


def _random_positions(count: int, seed: int) -> list[Position]:
    """Positions from random legal games, from the start to bearing off."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial()
        for _ in range(rng.randint(0, 80)):
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            plays = list(legal_plays(position, dice))
            position = rng.choice(plays).swap() if plays else position.swap()
            if sum(position.mover) == 0 or sum(position.opponent) == 0:
                break
        if sum(position.mover) and sum(position.opponent):
            found.append(position)
    return found


def _illegal_sides(position: Position, dice: Dice, rng: random.Random) -> list[list[int]]:
    """The mover's side after one to three checkers moved as a hurried hand moves them: by a die,
    by both dice, or by any distance, forwards mostly, sometimes off the board or backwards."""
    sides = []
    for _ in range(8):
        side = list(position.mover)
        for _ in range(rng.randint(1, 3)):
            sources = [index for index, count in enumerate(side) if count]
            if not sources:
                break
            source = rng.choice(sources)
            distance = rng.choice(
                [dice.first, dice.second, dice.first + dice.second, rng.randint(-3, 12)]
            )
            side[source] -= 1
            target = source - distance
            if target >= 0:
                side[min(target, 23)] += 1
        sides.append(side)
    return sides


def test_the_engine_s_explanations_of_illegal_plays_speak_every_language() -> None:
    rng = random.Random(11)
    texts: set[str] = set()
    for position in _random_positions(150, seed=4):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        for side in _illegal_sides(position, dice, rng):
            text = explain_illegal(position, dice, side).text
            if text != "legal":
                texts.add(text)
                texts.add(text[0].upper() + text[1:])  # as the referee shows it
    kinds = {phrase.singular for phrase in map(find_phrase, texts) if phrase is not None}
    assert len(kinds) >= 12, kinds
    _check_every_language(texts)


def test_an_explanation_reads_word_for_word_in_each_language() -> None:
    start = Position.initial()
    landed = list(start.mover)
    landed[12] -= 2
    landed[11] += 1
    landed[6] += 1  # 13/12 13/7 with 6-1: 12 is Black's
    text = explain_illegal(start, "61", landed).text
    assert text == "13/12 lands on a blocked point (Black holds 12)"
    assert translate_sentence(text, translations("cs")) == (
        "13/12 končí na obsazeném poli (Černý drží 12)"
    )
    assert translate_sentence(text, translations("he")) == (
        "13/12 נוחת על נקודה תפוסה (שחור תופס את 12)"
    )
    assert translate_sentence(text, translations("ar")) == (
        "13/12 ينزل في خانة مغلقة (أسود يملك 12)"
    )
    assert translate_sentence("A checker on the bar must enter first", translations("cs")) == (
        "Kámen na baru se musí nejdřív nasadit"
    )


def test_cube_verdicts_speak_every_language() -> None:
    texts: set[str] = set()
    money = MatchState.new_money()
    match = MatchState(length=5, score=(3, 1), cube_value=2, cube_owner=0, jacoby=False)
    verdicts = [
        judge_double(money, 1, player_on_roll=0),
        judge_double(money, 0, player_on_roll=0, has_rolled=True),
        judge_redouble(money, 0, player_on_roll=0),
        judge_take(money, 1),
        judge_pass(money, 0),
        judge_beaver(money, 1),
        judge_double(match, 1, player_on_roll=1),
    ]
    for verdict in verdicts:
        if verdict.reason:
            texts.add(verdict.reason[0].upper() + verdict.reason[1:])
    warning = dead_cube_warning(match, 0)
    assert warning is not None
    texts.add(f"Ada (White) doubles to 4 ({warning})")
    assert len(texts) >= 5
    _check_every_language(texts)


def test_plural_sentences_take_each_language_s_forms() -> None:
    czech = translations("cs")
    assert translate_sentence("Ada (White) wins 1 point", czech) == "Ada (bílý) vyhrává 1 bod"
    assert translate_sentence("Ada (White) wins 3 points", czech) == "Ada (bílý) vyhrává 3 body"
    assert translate_sentence("Ada (White) wins 8 points (gammon)", czech) == (
        "Ada (bílý) vyhrává 8 bodů (gammon)"
    )
    hebrew = translations("he")
    assert translate_sentence("Ada (White) wins 2 points (backgammon)", hebrew) == (
        "Ada (לבן) מנצח ב-2 נקודות (מארס טורקי)"
    )


def test_untranslated_parts_are_isolated_for_right_to_left_text() -> None:
    text = "Bar/20: no checker on the bar"
    translated = translate_sentence(text, translations("he"), isolate=True)
    assert translated == f"{FIRST_STRONG_ISOLATE}Bar/20{POP_DIRECTIONAL_ISOLATE}: אין אבן על הבר"
    assert translate_sentence(text, translations("he")) == "Bar/20: אין אבן על הבר"


def test_an_unknown_sentence_is_shown_as_it_is() -> None:
    for language in LANGUAGES:
        assert translate_sentence("Something new", translations(language)) == "Something new"


def test_the_match_clock_speaks_every_language() -> None:
    from referee_testkit import seen

    from controller.referee import ClockSettings, Tick

    now = [0.0]
    referee = Referee(clock=lambda: now[0])

    def at(time: float, *inputs: Input) -> set[str]:
        now[0] = time
        return _sentences(referee, inputs)

    settings = MatchSettings(("Ada", "Boris"), length=3, clock=ClockSettings(on_flag="lose"))
    texts = at(0, NewMatch(settings))
    texts |= at(30, seen(Position.initial(turn=0), dice=(3, 1)))
    texts |= at(31, ButtonPressed("pause"))
    texts |= at(32, ButtonPressed("pause"))
    texts |= at(5000, Tick(0))  # White's reserve ran out long ago: the match is lost on time
    texts |= at(5001, ButtonPressed("pause"))
    assert "Ada (White) has run out of time: Boris (Black) wins the match on time" in texts
    assert {"Clock paused", "Clock running", "The match is over"} <= texts
    _check_every_language(texts)


#: Where the referee's, the judge's and the rules engine's sentences are written.
SENTENCE_SOURCES = (
    "controller/referee/referee.py",
    "controller/referee/fold.py",
    "controller/referee/views.py",
    "controller/referee/variants.py",
    "controller/referee/judge.py",
    "controller/referee/reading.py",
    "controller/rules/explain.py",
    "controller/rules/match.py",
)


def _sentence_fragments(path: Path) -> list[tuple[int, str]]:
    """The literal words of every string and f-string of a source that reads like a sentence (three
    words or more), leaving out docstrings and the errors it raises (those are for programmers)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            skipped |= {id(inner) for inner in ast.walk(node)}
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
            and body
            and isinstance(body[0], ast.Expr)
        ):
            skipped.add(id(body[0].value))
        if isinstance(node, ast.JoinedStr):
            skipped |= {id(inner) for inner in ast.walk(node) if inner is not node}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            pieces = [node.value]
        elif isinstance(node, ast.JoinedStr):
            pieces = [""]
            for value in node.values:
                if isinstance(value, ast.Constant):
                    pieces[-1] += str(value.value)
                else:
                    pieces.append("")
        else:
            continue
        longest = max(pieces, key=len).strip(" :;,.()")
        if len(longest.split()) >= 3:
            found.append((node.lineno, longest))
    return found


def test_every_sentence_written_in_the_referee_s_sources_has_a_template() -> None:
    """A new sentence in the referee or the rules engine must come with its template (and so
    with its translations): its words are looked for among the templates' words."""
    root = Path(__file__).resolve().parents[2]
    words = " ".join(f"{p.singular} {p.plural or ''}".lower() for p in PHRASES)
    checked, missing = 0, []
    for source in SENTENCE_SOURCES:
        for line, fragment in _sentence_fragments(root / source):
            checked += 1
            if fragment.lower() not in words:
                missing.append(f"{source}:{line}: {fragment!r}")
    assert checked > 60
    assert missing == [], "add these sentences to sheshbesh/phrases.py, then `make messages`"
