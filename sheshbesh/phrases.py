"""The referee's sentences as templates, so that each viewer reads them in their own language.

Why templates matched after the fact, and not translated by the referee: the referee and the rules
engine stay standard-library only and write their sentences in English, once, into the event log
and the panel's snapshot; several viewers of one table may read different languages, and an old
log must read in today's languages too. So the sentences are listed here, once each, as gettext
messages with named placeholders (``%(player)s takes``); :func:`translate_sentence` finds the
template an English sentence was made from, translates the template through a catalogue (the
panel's Flask-Babel one, or the standard library's :func:`sheshbesh.language.translations`) and
fills in the parts, themselves translated where they are words (a colour, "a gammon", a reason
inside a sentence). A sentence no template fits is shown as it is, in English.

The tests drive the referee and the rules engine through real games and illegal plays and check
that every sentence they produce fits a template, so a new sentence without one is noticed.

>>> import gettext
>>> translate_sentence("Ada (White) takes", gettext.NullTranslations())
'Ada (White) takes'
>>> find_phrase("Ada (White) wins 2 points (gammon)").singular
'%(player)s wins %(points)s point (%(kind)s)'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Final, Protocol

from sheshbesh.language import N_, NP_

__all__ = ["PHRASES", "Catalogue", "Phrase", "find_phrase", "placeholders", "translate_sentence"]

#: Unicode first-strong isolate and its end: an untranslated part (a name, move notation) keeps its
#: own direction inside a right-to-left sentence ("bar/20" never turns into "20/bar").
FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_DIRECTIONAL_ISOLATE: Final = "\u2069"

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
#: What each placeholder may hold, by name; any other name holds any text.
_KINDS: Final[dict[str, str]] = {
    "dice": r"[1-6]-[1-6]",
    "score": r"[0-9]+-[0-9]+",
    "loss": r"[0-9]+\.[0-9]+",
    "roll": r"[1-6][1-6]",
    **{
        name: r"[0-9]+"
        for name in (
            "points",
            "value",
            "needed",
            "count",
            "die",
            "total",
            "pips",
            "point",
            "first",
            "second",
            "higher",
            "moved",
            "most",
            "off",
            "before",
            "played",
            "missing",
            "extra",
            "target",
            "game",
            "move_number",
        )
    },
}


class Catalogue(Protocol):
    """What translating needs of a catalogue: :class:`gettext.NullTranslations` and Babel's have it."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def placeholders(message: str) -> list[str]:
    """The names of the ``%(name)s`` placeholders of ``message``, in order (repeats kept)."""
    return _PLACEHOLDER.findall(message)


def _pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    seen: set[str] = set()
    position = 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[position : match.start()]))
        name = match.group(1)
        if name in seen:
            parts.append(f"(?P={name})")
        else:
            parts.append(f"(?P<{name}>{_KINDS.get(name, '.+?')})")
            seen.add(name)
        position = match.end()
    parts.append(re.escape(template[position:]))
    return re.compile("".join(parts), re.DOTALL)


@dataclass(frozen=True)
class Phrase:
    """One sentence (or part of one) of the referee's, as a gettext message.

    ``plural`` and ``count`` make it a plural message (``ngettext``) counted by the placeholder
    ``count``. ``whole`` is False for a part that is only ever found inside another sentence
    (a list of duties "... and ..."), never as a sentence of its own.
    """

    singular: str
    plural: str | None = None
    count: str | None = None
    whole: bool = True
    patterns: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        forms = (self.singular,) if self.plural is None else (self.singular, self.plural)
        object.__setattr__(self, "patterns", tuple(_pattern(form) for form in forms))

    @property
    def literal_length(self) -> int:
        """Characters outside placeholders: the more, the more particular the template."""
        return len(_PLACEHOLDER.sub("", self.singular))

    def match(self, text: str) -> dict[str, str] | None:
        """The parts of ``text`` when this template made it, else None."""
        for pattern in self.patterns:
            found = pattern.fullmatch(text)
            if found is not None:
                return found.groupdict()
        return None


def _plural(pair: tuple[str, str], count: str) -> Phrase:
    return Phrase(pair[0], pair[1], count)


def _colour_phrases() -> Iterable[Phrase]:
    yield Phrase(N_("White"))
    yield Phrase(N_("Black"))
    # The referee's name for a player: "Ada (White)".
    yield Phrase(N_("%(name)s (White)"))
    yield Phrase(N_("%(name)s (Black)"))


#: Every sentence of the referee (controller/referee), its judge and the rules engine's explanations
#: of illegal plays (controller/rules/explain.py) and cube verdicts (controller/rules/match.py).
PHRASES: Final[tuple[Phrase, ...]] = (
    *_colour_phrases(),
    # game kinds and resignations
    Phrase(N_("single")),
    Phrase(N_("gammon")),
    Phrase(N_("backgammon")),
    Phrase(N_("resign"), whole=False),
    Phrase(N_("time"), whole=False),
    Phrase(N_("a single game")),
    Phrase(N_("a gammon")),
    Phrase(N_("a backgammon")),
    # the referee's own sentences
    Phrase(N_("%(player)s offers to resign %(what)s; %(opponent)s: accept or reject")),
    Phrase(N_("Take-back: put the board back as the lights show")),
    Phrase(N_("Nothing seen yet: show the board to the camera")),
    Phrase(N_("Shesh Besh is played without the cube")),
    Phrase(N_("there is no double to take")),
    Phrase(N_("there is no double to pass")),
    Phrase(N_("there is no double to beaver")),
    Phrase(N_("Hold resign to resign a single game, or choose on the panel")),
    Phrase(N_("There is no resignation to accept")),
    Phrase(N_("There is no resignation to reject")),
    Phrase(N_("Nothing to take back in this game")),
    Phrase(N_("Board restored")),
    Phrase(N_("Put the board back as it was: the lights show where")),
    Phrase(N_("A die is cocked: roll again")),
    Phrase(N_("Set up the board as the lights show")),
    Phrase(N_("%(player)s has not rolled yet: put the checkers back")),
    Phrase(N_("With %(dice)s %(player)s must %(duty)s")),
    Phrase(N_("lay down a checker on point %(point)s"), whole=False),
    Phrase(N_("bear off a checker from point %(point)s"), whole=False),
    Phrase(N_("%(duty)s and %(more)s"), whole=False),
    Phrase(N_("leave the board as it is (every number is wasted)"), whole=False),
    Phrase(N_("That is not what the roll does: the lights show the way")),
    Phrase(N_("Doubles: %(player)s rolls again")),
    Phrase(N_("Set up the board for a new game")),
    Phrase(N_("Opening roll: one die each")),
    Phrase(N_("Opening roll: one die each, each into your own right-hand half")),
    Phrase(N_("Both rolled %(die)s: roll again")),
    Phrase(N_("%(player)s starts with %(dice)s")),
    Phrase(N_("%(player)s: roll again, into your own right-hand half")),
    Phrase(N_("%(player)s cannot move: pick up the dice")),
    Phrase(N_("That is not a way to play %(dice)s")),
    Phrase(N_("That is not a legal play")),
    Phrase(N_("No checker has moved")),
    Phrase(N_("The illegal play must be corrected before %(player)s rolls")),
    Phrase(N_("%(player)s accepts the play as it stands")),
    Phrase(N_("The illegal play must be corrected first")),
    Phrase(N_("%(player)s doubles to %(value)s")),
    Phrase(N_("%(player)s doubles to %(value)s (%(warning)s)")),
    Phrase(N_("%(player)s takes")),
    Phrase(N_("%(player)s passes")),
    Phrase(N_("%(player)s beavers: the cube is %(value)s")),
    Phrase(N_("%(player)s wins the match %(score)s")),
    # the match clock (controller/referee/referee.py)
    Phrase(N_("%(player)s has run out of time")),
    Phrase(N_("%(player)s has run out of time: %(winner)s wins the match on time")),
    Phrase(N_("Clock paused")),
    Phrase(N_("Clock running")),
    Phrase(N_("this match has no clock")),
    Phrase(N_("the clock is already paused")),
    Phrase(N_("the clock is already running")),
    # the panel's example state (web/state.py, ``python -m web --fake``)
    Phrase(N_("%(player)s to play %(dice)s")),
    _plural(NP_("%(player)s wins %(points)s point", "%(player)s wins %(points)s points"), "points"),
    _plural(
        NP_(
            "%(player)s wins %(points)s point (%(kind)s)",
            "%(player)s wins %(points)s points (%(kind)s)",
        ),
        "points",
    ),
    # cube verdicts (controller/rules/match.py)
    Phrase(N_("the match is over")),
    Phrase(N_("the game is over")),
    Phrase(N_("%(player)s's double awaits an answer")),
    Phrase(N_("the Crawford game: no doubling")),
    Phrase(N_("only the player on roll may double, before rolling: it is %(player)s's turn")),
    Phrase(N_("doubling after rolling is not allowed")),
    Phrase(N_("%(player)s owns the cube")),
    Phrase(N_("the cube is in the middle: that is a first double, not a redouble")),
    Phrase(N_("%(player)s offered the double and cannot take it")),
    Phrase(N_("%(player)s offered the double and cannot pass it")),
    Phrase(N_("%(player)s offered the double and cannot beaver it")),
    Phrase(N_("beavers are for money play only")),
    Phrase(N_("beavers are not agreed in this session")),
    _plural(
        NP_(
            "dead cube: the %(value)s-cube already gives %(player)s the %(needed)s point needed",
            "dead cube: the %(value)s-cube already gives %(player)s the %(needed)s points needed",
        ),
        "needed",
    ),
    # the board does not read as a board (controller/referee/reading.py)
    Phrase(N_("%(location)s shows White and Black checkers together")),
    Phrase(N_("a Black checker lies in White's half of the bar (%(location)s)")),
    Phrase(N_("a White checker lies in Black's half of the bar (%(location)s)")),
    Phrase(N_("a Black checker lies in White's tray (%(location)s)")),
    Phrase(N_("a White checker lies in Black's tray (%(location)s)")),
    Phrase(
        N_(
            "%(colour)s has %(total)s checkers on the board, bar and trays: one is missing or misread"
        )
    ),
    Phrase(
        N_(
            "%(colour)s has %(total)s checkers on the board, bar and trays: %(missing)s are missing or misread"
        )
    ),
    Phrase(N_("%(colour)s has %(total)s checkers on the board, bar and trays: one too many seen")),
    Phrase(
        N_("%(colour)s has %(total)s checkers on the board, bar and trays: %(extra)s too many seen")
    ),
    Phrase(N_("%(problem)s; it could be read more than one way at %(places)s")),
    Phrase(N_("%(problem)s; look at %(places)s")),
    Phrase(N_("%(problem)s: please put the board right")),
    # the analysis report's lines (controller/analysis/report.py, verdicts.py)
    Phrase(N_("%(player)s, game %(game)s, move %(move_number)s: %(what)s (-%(loss)s, %(skill)s)")),
    Phrase(N_("%(roll)s: played %(play)s, best %(best)s"), whole=False),
    Phrase(N_("%(action)s; proper action %(proper)s"), whole=False),
    Phrase(N_("%(response)s a double; proper answer %(proper)s"), whole=False),
    Phrase(
        N_("game %(game)s, move %(move_number)s: a double the engine cannot judge (%(context)s)")
    ),
    Phrase(N_("(no move)"), whole=False),
    Phrase(N_("no double"), whole=False),
    Phrase(N_("double"), whole=False),
    Phrase(N_("double, take"), whole=False),
    Phrase(N_("double, pass"), whole=False),
    Phrase(N_("double, beaver"), whole=False),
    Phrase(N_("no double, take"), whole=False),
    Phrase(N_("no double, pass"), whole=False),
    Phrase(N_("no double, beaver"), whole=False),
    Phrase(N_("too good, pass"), whole=False),
    Phrase(N_("take"), whole=False),
    Phrase(N_("pass"), whole=False),
    Phrase(N_("beaver"), whole=False),
    Phrase(N_("doubtful")),
    Phrase(N_("error")),
    Phrase(N_("blunder")),
    # a decision with no mark, inside a costly decision's line (the panel's status word's msgid)
    Phrase(N_("ok"), whole=False),
    # why a play is illegal (controller/rules/explain.py)
    Phrase(N_("%(move)s: no checker on the bar")),
    Phrase(N_("%(move)s: no checker on point %(point)s")),
    Phrase(N_("%(move)s lands on a blocked point (%(opponent)s holds %(point)s)")),
    Phrase(N_("no checker was moved, but the roll can be played")),
    Phrase(
        N_(
            "%(opponent)s has %(off)s checkers off instead of %(before)s: "
            "%(opponent)s's checkers must not move on %(player)s's turn"
        )
    ),
    Phrase(N_("%(opponent)s's checkers moved during %(player)s's turn")),
    Phrase(N_("%(player)s has %(count)s more checkers on the board than before")),
    Phrase(N_("too many checkers moved: %(moved)s, but %(dice)s moves at most %(most)s")),
    Phrase(N_("%(move)s moves a checker backwards")),
    Phrase(N_("%(opponent)s's checker on %(point)s went to the bar without being hit")),
    Phrase(N_("a checker on the bar must enter first")),
    Phrase(
        N_(
            "bar/%(point)s moved on after entering while another checker waits on the bar: "
            "a checker on the bar must enter first"
        )
    ),
    Phrase(N_("bearing off with checkers outside the home board")),
    Phrase(
        N_(
            "%(point)s/off: a checker may be borne off from a lower point only when no checker "
            "stands higher (%(higher)s)"
        )
    ),
    Phrase(N_("%(count)s %(die)ss could be played, only one was")),
    Phrase(N_("%(count)s %(die)ss could be played, only %(played)s were")),
    Phrase(N_("%(count)s %(die)ss could be played, none was")),
    Phrase(N_("both dice could be played")),
    Phrase(N_("the higher die (%(die)s) must be played")),
    Phrase(N_("this is not a legal play with %(dice)s")),
    Phrase(N_("%(move)s cannot touch down: %(opponent)s holds %(first)s and %(second)s")),
    Phrase(N_("%(move)s touches down on a blocked point (%(opponent)s holds %(point)s)")),
    Phrase(N_("%(move)s touches down on %(point)s, so %(opponent)s's blot there must be hit")),
    Phrase(N_("%(pips)s pips moved, but %(dice)s gives %(total)s")),
    Phrase(N_("%(move)s needs a %(die)s, but %(dice)s has no %(die)s left for it")),
    Phrase(N_("%(move)s needs %(pips)s pips, but %(dice)s has not that many left for it")),
    Phrase(N_("%(move)s moves %(pips)s pips: no number of %(dice)s makes %(pips)s")),
    Phrase(N_("%(point)s/off needs a %(point)s or higher, and none of %(dice)s is left for it")),
    Phrase(
        N_(
            "%(point)s/off with a %(die)s: a checker may be borne off from a lower point only "
            "when no checker stands higher (%(higher)s)"
        )
    ),
    # the admin page's refusals ("Refused: ..."): settings the referee refuses
    # (controller/referee/messages.py, referee.py), corners the calibration refuses
    # (controller/table/controls.py, controller/sim/stage.py, vision/field.py, vision/field_reader.py)
    Phrase(N_("players must be two names, not %(players)s")),
    Phrase(N_("match length must be 0 (money) or more, not %(length)s")),
    Phrase(N_("variant %(variant)s is not one of %(choices)s")),
    Phrase(N_("policy %(policy)s is not one of %(choices)s")),
    Phrase(N_("beavers are for money sessions (length 0), not match play")),
    Phrase(N_("malformed match_started data %(data)s: %(error)s")),
    Phrase(N_("cannot undo to event %(event)s: it is not in the current game (events %(known)s)")),
    Phrase(N_("cannot undo to event %(event)s: the game was already over there")),
    Phrase(N_("player must be 0 (White) or 1 (Black), not %(player)s")),
    Phrase(N_("resign points must be 1, 2 or 3 (times the cube), not %(points)s")),
    # one whole sentence for each phase in which there is no game to resign, so that the
    # referee's name of the phase is never shown untranslated
    Phrase(N_("no game in progress to resign (the game is idle)")),
    Phrase(N_("no game in progress to resign (the game is roll_off)")),
    Phrase(N_("no game in progress to resign (the game is resign_offered)")),
    Phrase(N_("no game in progress to resign (the game is game_over)")),
    Phrase(N_("no game in progress to resign (the game is won)")),
    Phrase(N_("no game in progress to resign (the game is match_over)")),
    Phrase(N_("no camera frame yet: the corners cannot be checked")),
    Phrase(N_("the demo's camera is calibrated from its markers; corners are not needed")),
    Phrase(N_("field corners must be four (x, y) pairs, got %(corners)s")),
    Phrase(N_("field corners %(corners)s lie outside the %(size)s image")),
    Phrase(
        N_(
            "field corners are not a convex quadrilateral in the order top-left, top-right, "
            "bottom-right, bottom-left"
        )
    ),
    Phrase(N_("field corners enclose %(area)s square pixels: too small a field to read")),
    Phrase(N_("field corners are not in the order top-left, top-right, bottom-right, bottom-left")),
    Phrase(
        N_(
            "only %(count)s checkers found on the field; two checker sets cannot be found "
            "(are the corners those of the playing field?)"
        )
    ),
    Phrase(N_("all checkers on the field look alike: two sets cannot be found")),
    Phrase(
        N_(
            "the checkers do not fall into two sets (their colours differ by %(apart)s, "
            "within a set by %(spread)s)"
        )
    ),
)


@cache
def _ordered(whole_only: bool) -> tuple[Phrase, ...]:
    chosen = [p for p in PHRASES if p.whole or not whole_only]
    return tuple(sorted(chosen, key=lambda p: -p.literal_length))


def _find(text: str, whole_only: bool) -> tuple[Phrase, dict[str, str]] | None:
    for phrase in _ordered(whole_only):
        parts = phrase.match(text)
        if parts is not None:
            return phrase, parts
    return None


def find_phrase(text: str) -> Phrase | None:
    """The template the sentence ``text`` was made from (ignoring a capital first letter), or None."""
    for candidate in _candidates(text):
        found = _find(candidate, True)
        if found is not None:
            return found[0]
    return None


def _candidates(text: str) -> list[str]:
    """``text``, and with its first letter small: the referee capitalises the engine's reasons."""
    lowered = text[:1].lower() + text[1:]
    return [text] if lowered == text else [text, lowered]


def _translate(
    text: str, catalogue: Catalogue, whole_only: bool, isolate: bool, depth: int
) -> str | None:
    for index, candidate in enumerate(_candidates(text)):
        found = _find(candidate, whole_only)
        if found is None:
            continue
        phrase, parts = found
        filled = _fill(parts, catalogue, isolate, depth)
        if phrase.plural is not None and phrase.count is not None:
            template = catalogue.ngettext(phrase.singular, phrase.plural, int(parts[phrase.count]))
        else:
            template = catalogue.gettext(phrase.singular)
        try:
            result = template % filled
        except (KeyError, ValueError, TypeError):
            result = phrase.singular % filled  # a broken translation: the English template
        if index == 1 and not template.startswith("%("):
            return result[:1].upper() + result[1:]  # as the referee capitalised it
        return result
    return None


def _fill(
    parts: Mapping[str, str], catalogue: Catalogue, isolate: bool, depth: int
) -> dict[str, str]:
    filled: dict[str, str] = {}
    for name, value in parts.items():
        inner = None
        if depth < 4 and not value.isdigit():
            inner = _translate(value, catalogue, False, isolate, depth + 1)
        if inner is not None:
            filled[name] = inner
        elif isolate:
            filled[name] = FIRST_STRONG_ISOLATE + value + POP_DIRECTIONAL_ISOLATE
        else:
            filled[name] = value
    return filled


def translate_sentence(text: str, catalogue: Catalogue, *, isolate: bool = False) -> str:
    """The referee's English sentence ``text`` in ``catalogue``'s language; unchanged if unknown.

    ``isolate`` wraps each part kept as it is (names, move notation, numbers) in Unicode
    directional isolates, for a right-to-left language.
    """
    translated = _translate(text, catalogue, True, isolate, 0)
    return text if translated is None else translated
