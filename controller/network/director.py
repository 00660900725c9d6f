"""The tournament director's side of the room: assignments to tables, results, standings, archive.

The hub sends an assignment (players, match length, rules) to a table as a retained command on
``hub/command/TABLE``; :class:`FollowDirector` on the table starts that match as soon as no match
is in progress there (at once, or when the current match is won). The assignment's id becomes the
new match's id, so a command the broker delivers again (every reconnect) is never started twice,
and the hub sees in the table's events that its assignment was taken up.

>>> settings = assignment_settings({"players": ["Ada", "Boris"], "length": "5"})
>>> settings["players"], settings["length"], settings["crawford"]
(['Ada', 'Boris'], 5, True)
"""

from __future__ import annotations

import io
import logging
import threading
import time
import zipfile
from collections.abc import Iterable, Mapping
from typing import Any

from controller.network.address import NetworkError
from sheshbesh.language import N_
from sheshbesh.match import MAX_LENGTH, POLICIES, VARIANTS, MatchSettings

log = logging.getLogger("sheshbesh")


class AssignmentError(NetworkError, ValueError):
    """An assignment the director cannot send: the message names the field."""


def assignment_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The match settings of an assignment (``match_started`` keys), checked.

    Raises :class:`AssignmentError` naming a missing player, a bad length or an unknown choice.
    """
    players = raw.get("players")
    if not isinstance(players, list | tuple) or len(players) != 2:
        raise AssignmentError(N_("an assignment needs two players"))
    names = [str(name).strip() for name in players]
    if not all(names) or any(len(name) > 40 for name in names):
        raise AssignmentError(N_("each player needs a name of 1 to 40 characters"))
    try:
        length = int(raw.get("length", 7))
    except (TypeError, ValueError):
        raise AssignmentError(
            N_("match length %(length)s is not a number"), length=repr(raw.get("length"))
        ) from None
    if not 0 <= length <= MAX_LENGTH:
        raise AssignmentError(
            N_("match length %(length)s must be 0 (money) to %(most)s"),
            length=length,
            most=MAX_LENGTH,
        )
    variant = str(raw.get("variant", "backgammon"))
    policy = str(raw.get("policy", "tournament"))
    if variant not in VARIANTS:
        raise AssignmentError(
            N_("variant %(variant)s: choose %(choices)s"),
            variant=repr(variant),
            choices=", ".join(VARIANTS),
        )
    if policy not in POLICIES:
        raise AssignmentError(
            N_("policy %(policy)s: choose %(choices)s"),
            policy=repr(policy),
            choices=", ".join(POLICIES),
        )

    def flag(name: str, default: bool) -> bool:
        value = raw.get(name, default)
        return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "on")

    # What the director leaves out is the room's choice for rated play: no hints, no Jacoby.
    settings = MatchSettings(
        players=(names[0], names[1]),
        length=length,
        crawford=flag("crawford", True),
        jacoby=flag("jacoby", False),
        beavers=flag("beavers", False) and length == 0,
        variant=variant,
        policy=policy,
        hints=flag("hints", False),
    )
    data = settings.to_data("")
    del data["id"]  # the assignment's id is the command's
    return data


def assignment_of(command: Mapping[str, Any]) -> dict[str, Any] | None:
    """The match settings plus ``"id"`` of the hub's ``assign`` command, or None (logged) for
    another command or a bad assignment."""
    if command.get("action") != "assign":
        log.warning("room: unknown command %r from the hub", command.get("action"))
        return None
    identifier = command.get("id")
    if not isinstance(identifier, str) or not identifier:
        return None
    try:
        settings = assignment_settings(command.get("settings") or {})
    except AssignmentError as error:
        log.warning("room: the hub's assignment %s was refused: %s", identifier, error)
        return None
    return {**settings, "id": identifier}


class DirectorInbox:
    """On a table that acts out its own matches (``sheshbesh demo``): keeps the director's latest
    assignment until the table takes it.

    The hub's command is retained, so a table that joins the room gets the assignment waiting
    for it at once; :meth:`take` returns it unless the record already holds that match.

    >>> inbox = DirectorInbox()
    >>> inbox.command({"action": "assign", "id": "a1", "settings": {"players": ["A", "B"]}})
    >>> inbox.take(known={"a0"}, timeout=0)["players"]
    ['A', 'B']
    >>> inbox.take(known=set(), timeout=0) is None
    True
    """

    def __init__(self) -> None:
        self._arrived = threading.Condition()
        self._latest: dict[str, Any] | None = None

    def attach(self, link: Any) -> DirectorInbox:
        link.on_command = self.command
        return self

    def command(self, command: dict[str, Any]) -> None:
        assignment = assignment_of(command)
        if assignment is None:
            return
        with self._arrived:
            self._latest = assignment
            self._arrived.notify_all()

    def take(self, known: set[str], timeout: float) -> dict[str, Any] | None:
        """The latest assignment whose match ``known`` (the record's match ids) lacks, waiting up
        to ``timeout`` seconds for one; None when there is none. A taken one is not given again."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                latest = self._latest
                if latest is not None and latest["id"] not in known:
                    self._latest = None
                    return latest
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._arrived.wait(left)


class FollowDirector:
    """On a table: takes the hub's assignments and starts each when the table is free.

    Install with :meth:`attach` (the link's command handler and a panel sink of the runner).
    Commands arrive on the link's network thread; the match is started from a thread of its own
    so that the runner's lock, not the network, orders it with the camera's inputs.
    """

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self._lock = threading.Lock()
        self._pending: dict[str, Any] | None = None
        self.started: list[str] = []

    def attach(self, link: Any) -> FollowDirector:
        link.on_command = self.command
        self.runner.panels.append(self)
        return self

    def command(self, command: dict[str, Any]) -> None:
        assignment = assignment_of(command)
        if assignment is None:
            return
        if assignment["id"] in self._known_matches():
            return  # already started (the broker delivers the retained command on each connect)
        with self._lock:
            self._pending = assignment
        self._start_soon()

    def publish(self, state: Any) -> int:
        """A panel sink: each new state may free the table for a pending assignment."""
        if self._pending is not None:
            self._start_soon()
        return 0

    def _known_matches(self) -> set[str]:
        return {str(entry["id"]) for entry in self.runner.record.matches()}

    def _start_soon(self) -> None:
        threading.Thread(target=self._start_if_free, daemon=True).start()

    def _start_if_free(self) -> None:
        with self._lock:
            pending = self._pending
            if pending is None:
                return
            match = self.runner.referee.snapshot().get("match") or {}
            in_progress = match.get("id") is not None and match.get("winner") is None
            if in_progress or pending["id"] in self._known_matches():
                if not in_progress:
                    self._pending = None
                return
            self._pending = None
        try:
            self.runner.new_match(pending)
        except (ValueError, NetworkError) as error:
            log.warning("room: cannot start the assigned match %s: %s", pending["id"], error)
            return
        self.started.append(str(pending["id"]))
        log.info("room: started the hub's assignment %s", pending["id"])


def standings(matches: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A round robin table from finished matches: per player, played, won, lost, points for and
    against; sorted by wins, then point difference, then name.

    >>> standings([{"players": ["A", "B"], "score": [5, 2], "winner": 0}])[0]["player"]
    'A'
    """
    rows: dict[str, dict[str, Any]] = {}
    for match in matches:
        if match.get("winner") not in (0, 1):
            continue
        players = list(match.get("players") or ["", ""])
        score = list(match.get("score") or [0, 0])
        for side in (0, 1):
            name = str(players[side])
            row = rows.setdefault(
                name, {"player": name, "played": 0, "won": 0, "lost": 0, "for": 0, "against": 0}
            )
            row["played"] += 1
            row["won" if match["winner"] == side else "lost"] += 1
            row["for"] += int(score[side])
            row["against"] += int(score[1 - side])
    return sorted(rows.values(), key=lambda r: (-r["won"], r["against"] - r["for"], r["player"]))


def mat_archive(files: Iterable[tuple[str, str]]) -> bytes:
    """A zip archive of ``(file name, .mat text)`` pairs."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files:
            archive.writestr(name, text)
    return buffer.getvalue()
