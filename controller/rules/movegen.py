"""Legal-play generation: every distinct position a roll can reach, and the plays that reach it.

The search follows GNU Backgammon's: each order of the two dice (one order for a double), at each
depth every checker that can move that number. Leaves keep only the plays that use the most dice
and, among those, the most pips of dice, which is the "use both dice, else the higher one" rule.

What keeps it fast in pure Python: sides are bytes while searching (cheap to copy, hash cached), the
blocked points are computed once (a hit never opens or closes one), a double moves sources in
non-increasing order and never searches the same intermediate state twice, and the second order
of two different dice only tries the checker just moved (two different checkers commute unless the
bar or bearing off is involved, and then the full search runs). Plays are built only on demand.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import compress
from typing import Final

from controller.rules.errors import RulesError
from controller.rules.position import BAR_POINT, Dice, Play, Position, Side, Step

#: A step as the generator records it: (source point, destination point, hit), mover's numbering.
RawStep = tuple[int, int, bool]
RawPath = tuple[RawStep, ...]
Key = tuple[Side, Side]
#: The generator's key: both sides as bytes.
RawKey = tuple[bytes, bytes]

_BAR: Final = 24
#: Maps an opposing count to 1 when the point is open to us (0 or 1 checker), else 0.
_OPEN_TABLE: Final = bytes([1, 1] + [0] * 254)
#: Source indices from ``i`` down to 0, for each ``i``; and every point, highest first.
DESCENDING: Final = tuple(tuple(range(start, -1, -1)) for start in range(24))
EVERY_POINT: Final = DESCENDING[23]


def generate(
    mover: Side, opponent: Side, dice: Dice, keep_paths: bool = True
) -> dict[RawKey, list[RawPath]]:
    """Map each reachable ``(mover, opponent)``, as bytes, to the step paths reaching it.

    With ``keep_paths=False`` the path lists are left empty, which is faster. For a double, a path
    reaching an intermediate state already searched is not searched again: the steps of a double
    are fixed by the result, so no distinct play is lost. No legal move gives one entry, the
    position itself, with the empty path. Sides are bytes (counts fit in a byte) because bytes
    cache their hash, which makes the result dictionary cheap.
    """
    me = bytearray(mover)
    moves = dice.moves
    count = len(moves)
    double = count == 4
    results: dict[RawKey, list[RawPath]] = {}
    no_paths: list[RawPath] = []
    best_depth = 0
    best_pips = 0  # most dice used, then most pips of dice: the higher-die rule
    path: list[RawStep] = []
    them = bytes(opponent)
    # A hit turns a blot into an empty point: the blocked points stay the same all turn.
    open_point = them[23::-1].translate(_OPEN_TABLE)  # index: my point - 1; truthy when open
    searched: set[tuple[bytes, bytes, int, int]] = set()

    def record(depth: int, pips: int) -> None:
        nonlocal best_depth, best_pips
        if depth < best_depth or (depth == best_depth and pips < best_pips):
            return
        if depth > best_depth or pips > best_pips:
            results.clear()
            best_depth = depth
            best_pips = pips
        key = (bytes(me), them)
        if keep_paths:
            paths = results.get(key)
            if paths is None:
                paths = results[key] = []
            paths.append(tuple(path))
        else:
            results[key] = no_paths

    def search(depth: int, sources: Sequence[int], outside: int, pips: int) -> bool:
        nonlocal them
        die = moves[depth]
        next_depth = depth + 1
        next_pips = pips + die
        last = next_depth == count
        saved = them
        if me[_BAR]:
            destination = 24 - die
            if not open_point[destination]:
                return False
            hit = saved[23 - destination] == 1
            if hit:
                hit_side = bytearray(saved)
                hit_side[23 - destination] = 0
                hit_side[_BAR] += 1
                them = bytes(hit_side)
            me[_BAR] -= 1
            me[destination] += 1
            if keep_paths:
                path.append((BAR_POINT, destination + 1, hit))
            now_outside = outside - 1 if destination < 6 else outside
            after_entry: Sequence[int] = EVERY_POINT if double else (*occupied, destination)
            if last or not search(next_depth, after_entry, now_outside, next_pips):
                record(next_depth, next_pips)
            if keep_paths:
                path.pop()
            me[destination] -= 1
            me[_BAR] += 1
            them = saved
            return True
        used = False
        fast_leaf = last and not keep_paths and next_depth == best_depth and next_pips == best_pips
        for source in sources:
            if not me[source]:
                continue
            destination = source - die
            if destination >= 0:
                if not open_point[destination]:
                    continue
                hit = saved[23 - destination] == 1
                if fast_leaf and not hit:
                    # The common leaf: no hit, best depth already reached. Record inline.
                    me[source] -= 1
                    me[destination] += 1
                    results[(bytes(me), saved)] = no_paths
                    me[destination] -= 1
                    me[source] += 1
                    used = True
                    continue
                if hit:
                    hit_side = bytearray(saved)
                    hit_side[23 - destination] = 0
                    hit_side[_BAR] += 1
                    them = bytes(hit_side)
                me[source] -= 1
                me[destination] += 1
                now_outside = outside - 1 if source >= 6 > destination else outside
            else:
                if outside:
                    continue
                if destination < -1 and any(me[source + 1 : 6]):
                    continue
                hit = False
                me[source] -= 1
                now_outside = outside
            used = True
            if keep_paths:
                path.append((source + 1, destination + 1 if destination >= 0 else 0, hit))
            if last:
                record(next_depth, next_pips)
                fast_leaf = not keep_paths and next_depth == best_depth and next_pips == best_pips
            elif double:
                # Sources in non-increasing order: each set of steps is tried in one order only.
                state = (bytes(me), them, next_depth, source)
                if state not in searched:
                    searched.add(state)
                    if not search(next_depth, DESCENDING[source], now_outside, next_pips):
                        record(next_depth, next_pips)
            elif second_order and now_outside and destination >= 0:
                # Two different checkers commute here (no bar, no bearing off): the first order
                # already played them. Only the checker just moved can add something new, so
                # that one step is played here rather than by a further call.
                second_die = moves[next_depth]
                chained = destination - second_die
                if chained >= 0 and open_point[chained]:
                    landed_on = them
                    chained_hit = landed_on[23 - chained] == 1
                    if chained_hit:
                        hit_side = bytearray(landed_on)
                        hit_side[23 - chained] = 0
                        hit_side[_BAR] += 1
                        them = bytes(hit_side)
                    me[destination] -= 1
                    me[chained] += 1
                    if keep_paths:
                        path.append((destination + 1, chained + 1, chained_hit))
                    record(next_depth + 1, next_pips + second_die)
                    if keep_paths:
                        path.pop()
                    me[chained] -= 1
                    me[destination] += 1
                    them = landed_on
                else:
                    record(next_depth, next_pips)
            else:
                # The second number may move any checker, including the one just moved.
                following = (
                    occupied if destination < 0 or me[destination] > 1 else (*occupied, destination)
                )
                if not search(next_depth, following, now_outside, next_pips):
                    record(next_depth, next_pips)
            if keep_paths:
                path.pop()
            if destination >= 0:
                me[destination] -= 1
            me[source] += 1
            them = saved
        return used

    outside = sum(mover[6:])
    occupied = list(compress(EVERY_POINT, me[23::-1]))  # points holding a checker, highest first
    second_order = False
    if not search(0, occupied, outside, 0):
        record(0, 0)
    if not double:
        moves = (moves[1], moves[0])
        second_order = not mover[_BAR]
        if not search(0, occupied, outside, 0):
            record(0, 0)
    return results


def canonical_play(position: Position, raw: RawPath) -> Play:
    """The play for a raw path: steps ordered from the highest source down, hits recomputed.

    Ordering the steps this way keeps them playable in order and makes plays that differ only in
    the order of their steps equal.
    """
    ordered = sorted(raw, key=lambda step: (-step[0], -step[1]))
    them = list(position.opponent)
    steps = []
    for source, destination, _ in ordered:
        hit = False
        if destination and them[24 - destination] == 1:
            them[24 - destination] = 0
            them[_BAR] += 1
            hit = True
        steps.append(Step(source, destination, hit))
    return Play(tuple(steps))


class LegalPlays(Mapping[Position, tuple[Play, ...]]):
    """The positions a roll can reach (same mover, not swapped), each with the plays reaching it.

    Supports ``in``, ``len``, iteration over positions and ``plays[position]`` for the plays.

    >>> plays = legal_plays(Position.initial(), Dice(3, 1))
    >>> len(plays)
    16
    >>> [str(p) for p in plays[Position.from_position_id('4HPwATDgc/ABMA').apply(
    ...     Play((Step(8, 5), Step(6, 5))))]]
    ['8/5 6/5']
    """

    __slots__ = ("_has_paths", "_plays", "_positions", "_raw", "dice", "position")

    def __init__(
        self,
        position: Position,
        dice: Dice,
        raw: dict[RawKey, list[RawPath]],
        has_paths: bool = True,
    ) -> None:
        self.position = position
        self.dice = dice
        self._raw = raw
        self._has_paths = has_paths
        self._positions: tuple[Position, ...] | None = None
        self._plays: dict[Position, tuple[Play, ...]] = {}

    def __repr__(self) -> str:
        return f"legal_plays({self.position!r}, {self.dice!r})"

    def __len__(self) -> int:
        return len(self._raw)

    def __iter__(self) -> Iterator[Position]:
        return iter(self.positions)

    def __contains__(self, position: object) -> bool:
        return (
            isinstance(position, Position)
            and position.turn == self.position.turn
            and (bytes(position.mover), bytes(position.opponent)) in self._raw
        )

    def __getitem__(self, position: Position) -> tuple[Play, ...]:
        cached = self._plays.get(position)
        if cached is not None:
            return cached
        if position not in self:
            raise KeyError(position)
        key = (bytes(position.mover), bytes(position.opponent))
        if not self.can_move:
            result: tuple[Play, ...] = (Play(()),)
        else:
            if not self._has_paths:
                self._raw = generate(self.position.mover, self.position.opponent, self.dice, True)
                self._has_paths = True
            # Plays that print alike (one checker via either intermediate point) are one play.
            by_text: dict[str, Play] = {}
            plays = {canonical_play(self.position, raw) for raw in self._raw[key]}
            for play in sorted(plays, key=_play_order):
                by_text.setdefault(str(play), play)
            result = tuple(by_text.values())
        self._plays[position] = result
        return result

    @property
    def positions(self) -> tuple[Position, ...]:
        """The distinct reachable positions."""
        if self._positions is None:
            turn = self.position.turn
            trusted = Position._trusted
            self._positions = tuple(trusted(tuple(me), tuple(them), turn) for me, them in self._raw)
        return self._positions

    @property
    def can_move(self) -> bool:
        """False when the roll cannot be played at all (the one position is the start)."""
        return (bytes(self.position.mover), bytes(self.position.opponent)) not in self._raw

    @property
    def dice_used(self) -> int:
        """How many numbers every legal play uses (0 when nothing can be played)."""
        first = next(iter(self))
        if first == self.position:
            return 0
        return len(self[first][0])

    def plays(self) -> list[Play]:
        """Every distinct play (plays that print alike count once)."""
        return [play for position in self for play in self[position]]

    def to_position_ids(self) -> list[str]:
        """The reachable positions' IDs from the mover's point of view, sorted."""
        return sorted(position.to_position_id() for position in self)

    def find(self, play: Play) -> Position | None:
        """The position ``play`` reaches when it is one of the legal plays, else None."""
        try:
            result = self.position.apply(play)
        except RulesError:
            return None
        return result if result in self else None


def _play_order(play: Play) -> tuple[tuple[int, int, bool], ...]:
    return tuple((-step.source, -step.destination, step.hit) for step in play.steps)


def legal_plays(position: Position, dice: Dice | tuple[int, int] | str) -> LegalPlays:
    """Every distinct position ``position``'s mover can reach with ``dice``, and the plays to it.

    When nothing can be played the result has one entry: ``position`` with the empty play.
    Raises :class:`~controller.rules.errors.DiceError` for bad dice.

    >>> counts = {d: len(legal_plays(Position.initial(), d)) for d in ('31', '65', '11', '22')}
    >>> counts
    {'31': 16, '65': 7, '11': 42, '22': 75}
    """
    rolled = Dice.coerce(dice)
    raw = generate(position.mover, position.opponent, rolled, keep_paths=False)
    return LegalPlays(position, rolled, raw, has_paths=False)


def single_steps(mover: Side, opponent: Side, die: int) -> list[tuple[RawStep, Side, Side]]:
    """Every single checker step of ``die`` the rules allow here, with the sides after it.

    This is one number played alone (bar first, open points, bearing off from home, from the
    highest point with a larger number); it knows nothing of the other dice.
    """
    out: list[tuple[RawStep, Side, Side]] = []
    if mover[_BAR]:
        sources: range | tuple[int] = (_BAR,)
    else:
        sources = range(23, -1, -1)
    all_home = not any(mover[6:])
    for source in sources:
        if not mover[source]:
            continue
        destination = (24 if source == _BAR else source) - die
        me = list(mover)
        me[source] -= 1
        them = opponent
        hit = False
        if destination >= 0:
            opposing = opponent[23 - destination]
            if opposing >= 2:
                continue
            me[destination] += 1
            if opposing:
                hit_side = list(opponent)
                hit_side[23 - destination] = 0
                hit_side[_BAR] += 1
                them = tuple(hit_side)
                hit = True
        else:
            if not all_home:
                continue
            if destination < -1 and any(mover[source + 1 : 6]):
                continue
        point = BAR_POINT if source == _BAR else source + 1
        out.append(((point, destination + 1 if destination >= 0 else 0, hit), tuple(me), them))
    return out


def partial_positions(
    position: Position, dice: Dice | tuple[int, int] | str
) -> dict[Position, frozenset[Position]]:
    """Each position on the way through a legal play, mapped to the final positions still reachable.

    Checkers may be moved one at a time in any order; every position after 0, 1, ... steps of some
    legal play appears (the start and the final positions too). A position absent from the result
    cannot be part of any legal play.

    >>> ways = partial_positions(Position.initial(), '31')
    >>> len(ways[Position.initial()])
    16
    """
    rolled = Dice.coerce(dice)
    legal = legal_plays(position, rolled)
    finals = {(p.mover, p.opponent) for p in legal}
    if not legal.can_move:
        return {position: frozenset(legal)}
    memo: dict[tuple[Side, Side, tuple[int, ...]], frozenset[Key]] = {}
    reached: dict[Key, set[Key]] = {}

    def walk(me: Side, them: Side, remaining: tuple[int, ...]) -> frozenset[Key]:
        memo_key = (me, them, remaining)
        known = memo.get(memo_key)
        if known is not None:
            return known
        found: set[Key] = set()
        if (me, them) in finals:
            found.add((me, them))
        for index, die in enumerate(remaining):
            if die in remaining[:index]:
                continue
            rest = remaining[:index] + remaining[index + 1 :]
            for _, next_me, next_them in single_steps(me, them, die):
                found |= walk(next_me, next_them, rest)
        result = frozenset(found)
        memo[memo_key] = result
        if result:
            reached.setdefault((me, them), set()).update(result)
        return result

    walk(position.mover, position.opponent, rolled.moves)
    turn = position.turn
    trusted = Position._trusted
    return {
        trusted(key[0], key[1], turn): frozenset(trusted(f[0], f[1], turn) for f in finals_)
        for key, finals_ in reached.items()
    }
