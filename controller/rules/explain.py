"""Why an observed result is not a legal play, in words a club player understands.

The referee sees only the board before and after. From the difference it infers the steps the
player most likely attempted (which checkers left which points and where checkers arrived), then
names the first rule they break: "13/7 lands on a blocked point (Black holds 7)", "a checker on the
bar must enter first", "both dice could be played", "the higher die (6) must be played", ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations

from controller.rules.errors import RulesError
from controller.rules.movegen import Key, LegalPlays, legal_plays, single_steps
from controller.rules.position import (
    BAR,
    BAR_POINT,
    CHECKERS,
    OFF_POINT,
    PLAYER_NAMES,
    Dice,
    Position,
    Side,
    point_text,
)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Plain words for an illegal result, and the points involved (mover's numbering, 25 bar, 0 off).

    >>> Explanation("a checker on the bar must enter first", (25,)).text
    'a checker on the bar must enter first'
    """

    text: str
    points: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.text


def apply_loosely(position: Position, segments: list[tuple[int, int, bool]]) -> Position | None:
    """Move checkers as written, hitting any blot landed on, ignoring dice and order rules.

    None when the segments cannot be carried out at all (no checker on a source, a blocked landing).
    """
    me = list(position.mover)
    them = list(position.opponent)
    for source, destination, _ in segments:
        if me[source - 1] < 1:
            return None
        me[source - 1] -= 1
        if destination == OFF_POINT:
            continue
        opposing = them[24 - destination]
        if opposing >= 2:
            return None
        if opposing == 1:
            them[24 - destination] = 0
            them[BAR] += 1
        me[destination - 1] += 1
    return Position(tuple(me), tuple(them), position.turn)


def segment_problem(
    position: Position, segments: list[tuple[int, int, bool]]
) -> Explanation | None:
    """The first written segment that cannot be carried out at all: no checker there, or blocked."""
    me = list(position.mover)
    them = list(position.opponent)
    opponent_name = PLAYER_NAMES[1 - position.turn]
    for source, destination, _ in segments:
        where = point_text(source)
        if me[source - 1] < 1:
            place = "the bar" if source == BAR_POINT else f"point {source}"
            return Explanation(
                f"{where}/{point_text(destination)}: no checker on {place}", (source,)
            )
        me[source - 1] -= 1
        if destination == OFF_POINT:
            continue
        opposing = them[24 - destination]
        if opposing >= 2:
            return Explanation(
                f"{where}/{destination} lands on a blocked point ({opponent_name} holds {destination})",
                (source, destination),
            )
        if opposing == 1:
            them[24 - destination] = 0
            them[BAR] += 1
        me[destination - 1] += 1
    return None


def _reachable_with_fewer(position: Position, dice: Dice) -> dict[Key, set[tuple[int, ...]]]:
    """Every position reachable by playing some of the dice (any order), with the numbers used."""
    reached: dict[Key, set[tuple[int, ...]]] = {}
    layer: set[tuple[Key, tuple[int, ...], tuple[int, ...]]] = {
        ((position.mover, position.opponent), dice.moves, ())
    }
    while layer:
        following: set[tuple[Key, tuple[int, ...], tuple[int, ...]]] = set()
        for (me, them), remaining, used in layer:
            reached.setdefault((me, them), set()).add(used)
            for index, die in enumerate(remaining):
                if die in remaining[:index]:
                    continue
                rest = remaining[:index] + remaining[index + 1 :]
                now_used = tuple(sorted((*used, die), reverse=True))
                for _, next_me, next_them in single_steps(me, them, die):
                    following.add(((next_me, next_them), rest, now_used))
        layer = following
    return reached


def _dice_words(dice: Dice) -> str:
    return f"{dice.first}-{dice.second}"


def _pair_steps(sources: list[int], destinations: list[int], dice: Dice) -> list[tuple[int, int]]:
    """Pair left points with arrival points so that as many distances as possible fit the dice."""
    distances = set(dice.moves)
    total = 0
    for value in dice.moves:
        total += value
        distances.add(total)
    if not dice.is_double:
        distances.add(dice.first + dice.second)
    if len(destinations) > 6:
        return list(zip(sources, destinations, strict=False))
    best: list[tuple[int, int]] = []
    best_score = (-1, -1)
    for order in permutations(destinations):
        pairs = list(zip(sources, order, strict=False))
        fitting = sum(
            1 for s, d in pairs if (s - d) in distances or (d == OFF_POINT and s <= max(dice.moves))
        )
        forward = sum(1 for s, d in pairs if d < s)
        score = (forward, fitting)
        if score > best_score:
            best, best_score = pairs, score
    return best


def explain_illegal(
    position: Position, dice: Dice | tuple[int, int] | str, result: Position | Sequence[int]
) -> Explanation:
    """Say why no legal play of ``dice`` turns ``position`` into ``result``, and which points.

    ``result`` is the position seen after the turn, from the same mover (not swapped), or just the
    mover's side after it (25 counts): then the opponent is taken as unchanged except for blots
    under the mover's checkers, which were hit, so a checker put on a blocked point can be named.
    For a legal result the text is ``"legal"``. Raises :class:`RulesError` when ``result`` has the
    other player on roll or is not a side of 25 counts.

    >>> start = Position.initial()
    >>> explain_illegal(start, '61', start).text
    'no checker was moved, but the roll can be played'
    >>> landed = list(start.mover)
    >>> landed[12] -= 1; landed[11] += 1; landed[12] -= 1; landed[6] += 1  # 13/12 13/7
    >>> explain_illegal(start, '61', landed).text
    '13/12 lands on a blocked point (Black holds 12)'
    """
    rolled = Dice.coerce(dice)
    after, them_after = _sides_after(position, result)
    legal = legal_plays(position, rolled)
    if Position._trusted(after, them_after, position.turn) in legal:
        return Explanation("legal", ())
    if after == position.mover and them_after == position.opponent:
        first = legal[next(iter(legal))][0]
        points = tuple(sorted({s.source for s in first.steps}, reverse=True))
        return Explanation("no checker was moved, but the roll can be played", points)
    problem = _opponent_moved(position, them_after)
    if problem is not None:
        return problem
    sources, destinations = _left_and_arrived(position.mover, after)
    borne_off = sum(position.mover) - sum(after)
    if borne_off < 0:
        return Explanation(
            f"{PLAYER_NAMES[position.turn]} has {-borne_off} more checkers on the board than before",
            tuple(destinations),
        )
    destinations.extend([OFF_POINT] * borne_off)
    attempt = _Attempt.infer(position, rolled, legal, after, them_after, sources, destinations)
    for rule_broken in _RULES_IN_ORDER:
        problem = rule_broken(attempt)
        if problem is not None:
            return problem
    return Explanation(f"this is not a legal play with {_dice_words(rolled)}", attempt.touched)


def _sides_after(position: Position, result: Position | Sequence[int]) -> tuple[Side, Side]:
    """The mover's and the opponent's sides after the turn, as :func:`explain_illegal` takes them."""
    if isinstance(result, Position):
        if result.turn != position.turn:
            raise RulesError(
                f"result {result!r} has player {result.turn} on roll, the position {position!r} "
                f"player {position.turn}: compare them from the same side"
            )
        return result.mover, result.opponent
    after = _mover_side(result)
    return after, _hit_under(position.opponent, after)


def _opponent_moved(position: Position, them_after: Side) -> Explanation | None:
    """Checkers of the side not on roll may only change by being hit: say where they did not."""
    mover_name = PLAYER_NAMES[position.turn]
    opponent_name = PLAYER_NAMES[1 - position.turn]
    them_before = position.opponent
    if sum(them_after) != sum(them_before):
        return Explanation(
            f"{opponent_name} has {CHECKERS - sum(them_after)} checkers off instead of "
            f"{CHECKERS - sum(them_before)}: {opponent_name}'s checkers must not move on {mover_name}'s turn",
            (),
        )
    vanished = _vanished(them_before, them_after)
    appeared = [i for i in range(24) if them_after[i] > them_before[i]]
    if appeared or any(
        them_before[i] - them_after[i] != 1 or them_before[i] != 1 for i in vanished
    ):
        points = tuple(sorted({24 - i for i in vanished + appeared}, reverse=True))
        return Explanation(f"{opponent_name}'s checkers moved during {mover_name}'s turn", points)
    return None


def _vanished(them_before: Side, them_after: Side) -> list[int]:
    """Indexes of the opponent's points that lost checkers (to the bar, when they were hit)."""
    return [i for i in range(24) if them_after[i] < them_before[i]]


def _left_and_arrived(before: Side, after: Side) -> tuple[list[int], list[int]]:
    """The points checkers left and the points they arrived on, a point once per checker."""
    sources: list[int] = []
    destinations: list[int] = []
    for index in range(25):
        point = index + 1 if index != BAR else BAR_POINT
        if after[index] < before[index]:
            sources.extend([point] * (before[index] - after[index]))
        elif after[index] > before[index]:
            destinations.extend([point] * (after[index] - before[index]))
    return sources, destinations


@dataclass(frozen=True, slots=True)
class _Attempt:
    """The play the player most likely attempted: the steps inferred from the board before and after.

    The opponent's checkers changed only by being hit and the mover has no checker more than
    before (:func:`explain_illegal` said so otherwise); what is left is which rule the steps break.
    """

    position: Position
    dice: Dice
    legal: LegalPlays
    after: Side
    them_after: Side
    sources: list[int]
    pairs: list[tuple[int, int]]
    borne_off: int
    touched: tuple[int, ...]

    @classmethod
    def infer(
        cls,
        position: Position,
        dice: Dice,
        legal: LegalPlays,
        after: Side,
        them_after: Side,
        sources: list[int],
        destinations: list[int],
    ) -> _Attempt:
        """Pair the points left with the points reached (``OFF_POINT`` once per checker borne off)."""
        sources.sort(reverse=True)
        destinations.sort(reverse=True)
        return cls(
            position,
            dice,
            legal,
            after,
            them_after,
            sources,
            _pair_steps(sources, destinations, dice),
            sum(position.mover) - sum(after),
            tuple(sorted(set(sources) | set(destinations), reverse=True)),
        )

    @property
    def before(self) -> Side:
        return self.position.mover

    @property
    def them_before(self) -> Side:
        return self.position.opponent

    @property
    def opponent_name(self) -> str:
        return PLAYER_NAMES[1 - self.position.turn]


def _too_many_steps(attempt: _Attempt) -> Explanation | None:
    moves = attempt.dice.moves
    if len(attempt.pairs) > len(moves):
        return Explanation(
            f"too many checkers moved: {len(attempt.pairs)}, but {_dice_words(attempt.dice)} moves at most {len(moves)}",
            attempt.touched,
        )
    return None


def _backwards(attempt: _Attempt) -> Explanation | None:
    for source, destination in attempt.pairs:
        if destination >= source:
            return Explanation(
                f"{point_text(source)}/{point_text(destination)} moves a checker backwards",
                (source, destination),
            )
    return None


def _blot_not_hit(attempt: _Attempt) -> Explanation | None:
    hit_points = {24 - i for i in _vanished(attempt.them_before, attempt.them_after)}
    for point in sorted(hit_points, reverse=True):
        # A checker landing there, or touching down there on the way, can have hit it.
        if not any(_can_touch(s, d, point, attempt.dice) for s, d in attempt.pairs):
            return Explanation(
                f"{attempt.opponent_name}'s checker on {point} went to the bar without being hit",
                (point,),
            )
    return None


def _bar_not_first(attempt: _Attempt) -> Explanation | None:
    entering = attempt.before[BAR]
    if not entering:
        return None
    entered = [d for s, d in attempt.pairs if s == BAR_POINT]
    others = [s for s in attempt.sources if s != BAR_POINT]
    if others and len(entered) < entering:
        return Explanation(
            "a checker on the bar must enter first",
            (BAR_POINT, *sorted(set(others), reverse=True)),
        )
    moved_on = [d for d in entered if BAR_POINT - d not in attempt.dice.moves]
    if attempt.after[BAR] and moved_on:
        return Explanation(
            f"bar/{moved_on[0]} moved on after entering while another checker waits on the bar: "
            "a checker on the bar must enter first",
            (BAR_POINT, moved_on[0]),
        )
    return None


def _lands_blocked(attempt: _Attempt) -> Explanation | None:
    for source, destination in attempt.pairs:
        if destination == OFF_POINT:
            continue
        holders = attempt.them_before[24 - destination]
        if holders >= 2:
            return Explanation(
                f"{point_text(source)}/{destination} lands on a blocked point "
                f"({attempt.opponent_name} holds {destination})",
                (source, destination),
            )
    return None


def _touches_down_wrongly(attempt: _Attempt) -> Explanation | None:
    for source, destination in attempt.pairs:
        problem = _touch_down_problem(
            source,
            destination,
            attempt.dice,
            attempt.them_before,
            attempt.them_after,
            attempt.opponent_name,
        )
        if problem is not None:
            return problem
    return None


def _bears_off_wrongly(attempt: _Attempt) -> Explanation | None:
    if not attempt.borne_off:
        return None
    after, before, moves = attempt.after, attempt.before, attempt.dice.moves
    outside = [i + 1 for i in range(6, 24) if after[i]] + ([BAR_POINT] if after[BAR] else [])
    if outside:
        return Explanation(
            "bearing off with checkers outside the home board",
            tuple(sorted(outside, reverse=True)),
        )
    for source, destination in attempt.pairs:
        if destination != OFF_POINT or source in moves:
            continue
        higher = [i + 1 for i in range(source, 6) if before[i]]
        if higher and source < max(moves):
            return Explanation(
                f"{source}/off: a checker may be borne off from a lower point only when no "
                f"checker stands higher ({higher[-1]})",
                (source, higher[-1]),
            )
    return None


def _dice_do_not_fit(attempt: _Attempt) -> Explanation | None:
    return _dice_misfit(attempt.pairs, attempt.dice, attempt.after)


def _fewer_dice_played(attempt: _Attempt) -> Explanation | None:
    """The result is reachable, but with fewer numbers than could be played, or the lower one."""
    rolled = attempt.dice
    fewer = _reachable_with_fewer(attempt.position, rolled).get((attempt.after, attempt.them_after))
    if not fewer:
        return None
    most_used = attempt.legal.dice_used
    used = max(fewer, key=len)
    if len(used) < most_used:
        if rolled.is_double:
            played = "only one was" if len(used) == 1 else f"only {len(used)} were"
            if not used:
                played = "none was"
            return Explanation(
                f"{most_used} {rolled.moves[0]}s could be played, {played}", attempt.touched
            )
        if most_used == 2:
            return Explanation("both dice could be played", attempt.touched)
    if len(used) == 1 and used[0] != rolled.high:
        return Explanation(f"the higher die ({rolled.high}) must be played", attempt.touched)
    return None


#: The rules an attempted play can break, in the order they are named: the first one broken is
#: the explanation (a step backwards is named before the dice it does not fit, and so on).
_RULES_IN_ORDER: tuple[Callable[[_Attempt], Explanation | None], ...] = (
    _too_many_steps,
    _backwards,
    _blot_not_hit,
    _bar_not_first,
    _lands_blocked,
    _touches_down_wrongly,
    _bears_off_wrongly,
    _dice_do_not_fit,
    _fewer_dice_played,
)


def _mover_side(side: Sequence[int]) -> Side:
    values = tuple(side)
    if len(values) != 25 or any(not isinstance(v, int) or v < 0 for v in values):
        raise RulesError(f"a mover's side is 25 counts of 0 or more, got {values!r}")
    if sum(values) > CHECKERS:
        raise RulesError(
            f"a mover's side has at most {CHECKERS} checkers, got {sum(values)}: {values!r}"
        )
    return values


def _hit_under(opponent: Side, mover_after: Side) -> Side:
    """The opponent after the mover's checkers landed: blots under them went to the bar."""
    them = list(opponent)
    for index in range(24):
        if mover_after[index] and them[23 - index] == 1:
            them[23 - index] = 0
            them[BAR] += 1
    return tuple(them)


def _can_touch(source: int, destination: int, point: int, dice: Dice) -> bool:
    """Could a checker moved from ``source`` to ``destination`` have stopped on ``point``?"""
    if point == destination:
        return True
    if not destination < point < source:
        return False
    if dice.is_double:
        return (source - point) % dice.first == 0
    if source - destination != dice.first + dice.second:
        return False  # one number: no stop on the way
    return point in (source - dice.first, source - dice.second)


def _touch_down_problem(
    source: int,
    destination: int,
    dice: Dice,
    them_before: tuple[int, ...],
    them_after: tuple[int, ...],
    opponent_name: str,
) -> Explanation | None:
    """A checker moved more than one number touches down on the way: blocked, or a blot not hit."""
    distance = source - destination
    if destination == OFF_POINT or distance in dice.moves:
        return None
    routes = _stops_on_the_way(source, distance, dice)
    if routes is None:
        return None
    step = f"{point_text(source)}/{destination}"
    open_routes = [r for r in routes if all(them_before[24 - p] < 2 for p in r)]
    if not open_routes:
        return _blocked_on_the_way(step, source, destination, routes, them_before, opponent_name)
    blot = _blot_left_on_every_route(open_routes, them_before, them_after)
    if blot is None:
        return None
    return Explanation(
        f"{step} touches down on {blot}, so {opponent_name}'s blot there must be hit",
        (source, blot, destination),
    )


def _stops_on_the_way(source: int, distance: int, dice: Dice) -> list[list[int]] | None:
    """The points a checker moved ``distance`` by several numbers stops on, route by route.

    A double has one route; two different numbers have two (either one first). None when no
    numbers of the roll add up to ``distance``.
    """
    moves = dice.moves
    if dice.is_double:
        die = moves[0]
        if distance % die or distance // die > len(moves):
            return None
        return [[source - die * k for k in range(1, distance // die)]]
    if distance == dice.first + dice.second:
        return [[source - dice.first], [source - dice.second]]
    return None


def _blot_left_on_every_route(
    routes: list[list[int]], them_before: tuple[int, ...], them_after: tuple[int, ...]
) -> int | None:
    """A blot still standing where the checker touched down, whichever route it took.

    The first route's such blot; None when some route touches down on no blot left standing.
    """
    for route in routes:
        if not any(them_before[24 - p] == 1 and them_after[24 - p] == 1 for p in route):
            return None
    return next(p for p in routes[0] if them_before[24 - p] == 1 and them_after[24 - p] == 1)


def _blocked_on_the_way(
    step: str,
    source: int,
    destination: int,
    routes: list[list[int]],
    them_before: tuple[int, ...],
    opponent_name: str,
) -> Explanation:
    """Every route of ``step`` touches down on a point the opponent holds: name the points."""
    if len(routes) == 2:
        first, second = routes[0][0], routes[1][0]
        return Explanation(
            f"{step} cannot touch down: {opponent_name} holds {first} and {second}",
            (source, first, second, destination),
        )
    blocked = next(p for p in routes[0] if them_before[24 - p] >= 2)
    return Explanation(
        f"{step} touches down on a blocked point ({opponent_name} holds {blocked})",
        (source, blocked, destination),
    )


def _dice_misfit(
    pairs: list[tuple[int, int]], dice: Dice, after: tuple[int, ...]
) -> Explanation | None:
    """Share the dice out over the inferred steps; say which step no die is left for.

    Steps on the board take their numbers first, longest first; checkers borne off take what
    is left, from the highest point down.
    """
    remaining = list(dice.moves)
    words = _dice_words(dice)
    moving = sorted(((s, d) for s, d in pairs if d != OFF_POINT), key=lambda p: p[1] - p[0])
    pips = sum(s - d for s, d in moving)
    if pips > sum(remaining):
        points = tuple(sorted({p for pair in moving for p in pair}, reverse=True))
        return Explanation(f"{pips} pips moved, but {words} gives {sum(remaining)}", points)
    for source, destination in moving:
        distance = source - destination
        use = _subset_summing(remaining, distance)
        if use is None:
            return _no_numbers_for(source, destination, dice)
        for value in use:
            remaining.remove(value)
    return _bear_off_misfit(pairs, remaining, words, after)


def _no_numbers_for(source: int, destination: int, dice: Dice) -> Explanation:
    """No numbers left of ``dice`` make the step: the one it needs is used, or none ever could."""
    words = _dice_words(dice)
    distance = source - destination
    step = f"{point_text(source)}/{destination}"
    if distance in dice.moves:
        text = f"{step} needs a {distance}, but {words} has no {distance} left for it"
    elif _subset_summing(list(dice.moves), distance) is not None:
        text = f"{step} needs {distance} pips, but {words} has not that many left for it"
    else:
        text = f"{step} moves {distance} pips: no number of {words} makes {distance}"
    return Explanation(text, (source, destination))


def _bear_off_misfit(
    pairs: list[tuple[int, int]], remaining: list[int], words: str, after: tuple[int, ...]
) -> Explanation | None:
    """The checkers borne off take the numbers ``remaining`` (used up as they go), highest first.

    A number larger than the point bears off only when no checker stands higher.
    """
    for source, _ in sorted((p for p in pairs if p[1] == OFF_POINT), reverse=True):
        if source in remaining:
            remaining.remove(source)
            continue
        larger = [value for value in remaining if value > source]
        if not larger:
            return Explanation(
                f"{source}/off needs a {source} or higher, and none of {words} is left for it",
                (source, OFF_POINT),
            )
        die = min(larger)
        higher = [i + 1 for i in range(source, 6) if after[i]]
        if higher:
            return Explanation(
                f"{source}/off with a {die}: a checker may be borne off from a lower point only "
                f"when no checker stands higher ({higher[-1]})",
                (source, higher[-1]),
            )
        remaining.remove(die)
    return None


def _subset_summing(values: list[int], target: int) -> list[int] | None:
    """Some of ``values`` (a die, or dice in a row) adding up to ``target``, fewest first."""
    best: list[int] | None = None
    count = len(values)
    for mask in range(1, 1 << count):
        chosen = [values[i] for i in range(count) if mask >> i & 1]
        if sum(chosen) == target and (best is None or len(chosen) < len(best)):
            best = chosen
    return best
