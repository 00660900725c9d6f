"""Standard move notation, both ways: ``24/18 13/10*``, ``bar/22``, ``6/off``, ``8/5(2)``, ``13/7*/1``.

Printing joins the steps of one checker into a chain (``24/18 18/13`` is ``24/13``), shows a hit on
the way with ``*`` (``13/7*/1``) and counts repeated moves (``8/5(2)``). Parsing also reads GNU
Backgammon .mat forms (``25/22`` for ``bar/22``, ``6/0`` for ``6/off``) and checks the play against the
legal plays, so a play is returned only when the rules allow it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from controller.rules.errors import IllegalPlayError, NotationError
from controller.rules.position import BAR_POINT, OFF_POINT, Dice, Play, Position, point_text

#: A chain: the source, then each point touched as (point, hit).
Chain = tuple[int, tuple[tuple[int, bool], ...]]

_TOKEN: Final = re.compile(
    r"^(bar|b|\d{1,2})((?:/(?:off|o|\d{1,2})\*?)+)(?:\((\d)\))?$", re.IGNORECASE
)
_SEGMENT: Final = re.compile(r"/(off|o|\d{1,2})(\*?)", re.IGNORECASE)


def _chains(steps: list[tuple[int, int, bool]]) -> list[Chain]:
    """Join steps of one checker: a step leaving the point where an earlier one landed continues it."""
    ordered = sorted(steps, key=lambda step: (-step[0], -step[1]))
    chains: list[tuple[int, list[tuple[int, bool]]]] = []
    for source, destination, hit in ordered:
        for chain in chains:
            last = chain[1][-1][0]
            if last == source and last != OFF_POINT:
                chain[1].append((destination, hit))
                break
        else:
            chains.append((source, [(destination, hit)]))
    return [(source, tuple(points)) for source, points in chains]


def _chain_text(chain: Chain) -> str:
    source, points = chain
    parts = [point_text(source)]
    for index, (point, hit) in enumerate(points):
        final = index == len(points) - 1
        if hit or final:
            parts.append(point_text(point) + ("*" if hit else ""))
    return "/".join(parts)


def format_play(play: Play) -> str:
    """Standard notation for ``play``; ``""`` for the empty play.

    >>> from controller.rules.position import Step
    >>> format_play(Play((Step(13, 7, True), Step(7, 1))))
    '13/7*/1'
    >>> format_play(Play((Step(25, 22), Step(6, 0))))
    'bar/22 6/off'
    """
    texts = [
        _chain_text(chain)
        for chain in _chains([(s.source, s.destination, s.hit) for s in play.steps])
    ]
    counts = Counter(texts)
    out = []
    for text in dict.fromkeys(texts):
        count = counts[text]
        out.append(f"{text}({count})" if count > 1 else text)
    return " ".join(out)


def _point(text: str, *, source: bool, token: str, context: str) -> int:
    lowered = text.lower()
    if lowered in ("bar", "b"):
        if not source:
            raise NotationError(f"{token!r}: the bar can only be a starting point, {context}")
        return BAR_POINT
    if lowered in ("off", "o"):
        if source:
            raise NotationError(f"{token!r}: 'off' can only be a destination, {context}")
        return OFF_POINT
    value = int(text)
    if source and not 1 <= value <= 25:
        raise NotationError(f"{token!r}: a move starts on a point 1..24 or the bar (25), {context}")
    if not source and not 0 <= value <= 24:
        raise NotationError(f"{token!r}: a move ends on a point 1..24 or off (0), {context}")
    return value


def parse_steps(text: str, context: str = "") -> list[tuple[int, int, bool]]:
    """Read notation into (source, destination, hit) segments without checking any rule.

    Raises :class:`NotationError` for text that is not move notation.

    >>> parse_steps('13/7*/1 8/5(2)')
    [(13, 7, True), (7, 1, False), (8, 5, False), (8, 5, False)]
    """
    segments: list[tuple[int, int, bool]] = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        if match is None:
            raise NotationError(
                f"cannot read {token!r} in {text!r}: expected moves like 24/18, 13/10*, bar/22, "
                f"6/off or 8/5(2){context}"
            )
        source = _point(match.group(1), source=True, token=token, context=context)
        repeat = int(match.group(3) or 1)
        if not 1 <= repeat <= 4:
            raise NotationError(f"{token!r}: a move repeats 1 to 4 times{context}")
        chain: list[tuple[int, int, bool]] = []
        current = source
        for point_text_, star in _SEGMENT.findall(match.group(2)):
            point = _point(point_text_, source=False, token=token, context=context)
            if current == OFF_POINT:
                raise NotationError(f"{token!r}: nothing moves on after bearing off{context}")
            if point >= current:
                raise NotationError(f"{token!r}: {current}/{point} moves away from home{context}")
            if star and point == OFF_POINT:
                raise NotationError(f"{token!r}: bearing off cannot hit{context}")
            chain.append((current, point, bool(star)))
            current = point
        segments.extend(chain * repeat)
    return segments


def _normal_form(steps: list[tuple[int, int, bool]], with_hits: bool) -> tuple[str, ...]:
    if not with_hits:
        steps = [(source, destination, False) for source, destination, _ in steps]
    return tuple(sorted(_chain_text(chain) for chain in _chains(steps)))


def _describe(position: Position, dice: Dice) -> str:
    return f"with dice {dice.first}-{dice.second} in position {position.to_position_id()}"


def parse_play(text: str, position: Position, dice: Dice) -> Play:
    """Parse ``text`` and return the legal play it names. See :meth:`Play.from_notation`.

    Raises :class:`NotationError` or :class:`IllegalPlayError`.
    """
    from controller.rules.explain import apply_loosely, explain_illegal, segment_problem
    from controller.rules.movegen import LegalPlays, generate

    if not isinstance(text, str):
        raise NotationError(f"a play is written as text, got {text!r}")
    context = _describe(position, dice)
    segments = parse_steps(text, f" ({context})")
    # Plays are wanted here, so generate the step paths at once rather than on first use.
    legal = LegalPlays(position, dice, generate(position.mover, position.opponent, dice), True)
    if not segments:
        if not legal.can_move:
            return Play(())
        raise IllegalPlayError(
            f"no move given ({text!r}) {context}, but the roll can be played, e.g. "
            f"{legal[next(iter(legal))][0]}"
        )
    result = apply_loosely(position, segments)
    if result is not None and result in legal:
        wanted = _normal_form(segments, True)
        candidates = legal[result]
        for play in candidates:
            steps = [(s.source, s.destination, s.hit) for s in play.steps]
            if _normal_form(steps, True) == wanted:
                return play
        return candidates[0]
    # Hits on the way may have been left unmarked: match the written moves against each legal play.
    for with_hits in (True, False):
        wanted = _normal_form(segments, with_hits)
        found: dict[Position, Play] = {}
        for reached in legal:
            for play in legal[reached]:
                steps = [(s.source, s.destination, s.hit) for s in play.steps]
                if _normal_form(steps, with_hits) == wanted:
                    found.setdefault(reached, play)
        if len(found) == 1:
            return next(iter(found.values()))
    if result is not None:
        reason = ": " + explain_illegal(position, dice, result).text
    else:
        problem = segment_problem(position, segments)
        reason = f": {problem.text}" if problem is not None else ""
    raise IllegalPlayError(f"{text!r} is not a legal play {context}{reason}")
