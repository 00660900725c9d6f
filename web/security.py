"""The admin PIN (checked against a hash, wrong PINs slowed down) and CSRF tokens for every form."""

from __future__ import annotations

import functools
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import abort, current_app, redirect, request, session, url_for
from werkzeug.security import check_password_hash

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
_UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

F = TypeVar("F", bound=Callable[..., Any])


class PinGuard:
    """Checks PINs against a hash and refuses attempts that come too soon after wrong ones.

    After the n-th wrong PIN in a row the next attempt is refused for ``base * 2**(n-1)`` seconds
    (at most ``cap``); a right PIN resets the count. Refused attempts are answered at once rather
    than by sleeping, so guessing never ties up the server's threads. ``clock`` is injectable so
    tests never sleep.

    >>> clock = [100.0]
    >>> guard = PinGuard(None, clock=lambda: clock[0])
    >>> guard.wait_left()
    0.0
    """

    def __init__(
        self,
        pin_hash: str | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        base: float = 1.0,
        cap: float = 60.0,
    ) -> None:
        self.pin_hash = pin_hash
        self._clock = clock
        self._base = base
        self._cap = cap
        self._lock = threading.Lock()
        self.failures = 0
        self._next_allowed = 0.0

    @property
    def is_set(self) -> bool:
        return bool(self.pin_hash)

    def delay(self, failures: int) -> float:
        """Seconds an attempt must wait after ``failures`` wrong PINs in a row."""
        if failures <= 0:
            return 0.0
        return float(min(self._cap, self._base * 2 ** min(failures - 1, 30)))

    def wait_left(self) -> float:
        """Seconds before the next attempt is accepted (0 when it may be made now)."""
        with self._lock:
            return max(0.0, self._next_allowed - self._clock())

    def attempt(self, pin: str) -> bool:
        """Check ``pin``; False when it is wrong, when no PIN is set, or when it came too soon."""
        with self._lock:
            now = self._clock()
            if now < self._next_allowed or not self.pin_hash:
                return False
            if pin and check_password_hash(self.pin_hash, pin):
                self.failures = 0
                self._next_allowed = 0.0
                return True
            self.failures += 1
            self._next_allowed = now + self.delay(self.failures)
            return False


def csrf_token() -> str:
    """This session's CSRF token (made on first use); every form carries it in a hidden field."""
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[CSRF_FIELD] = token
    return token


def check_csrf() -> None:
    """Refuse (400) any state-changing request whose CSRF token is missing or not this session's."""
    if request.method not in _UNSAFE_METHODS:
        return
    expected = session.get(CSRF_FIELD)
    sent = request.form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER)
    if (
        not isinstance(expected, str)
        or not sent
        or not hmac.compare_digest(expected.encode(), sent.encode())
    ):
        abort(400, description="The form's security token is missing or wrong: reload the page.")


def is_admin() -> bool:
    """Whether this session has logged in with the PIN and has not expired."""
    since = session.get("admin_since")
    if not isinstance(since, int | float):
        return False
    lifetime = float(current_app.config["ADMIN_SESSION_SECONDS"])
    return time.time() - since < lifetime


def admin_required(view: F) -> F:
    """Pages redirect to the login form, actions are refused (403), unless logged in."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_admin():
            if request.method in _UNSAFE_METHODS:
                abort(403, description="Log in with the admin PIN first.")
            return redirect(url_for("admin.login", next=request.path))
        return view(*args, **kwargs)

    return cast(F, wrapped)
