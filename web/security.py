"""The admin PIN (checked against a hash, wrong PINs limited per client), admin sessions kept on
the server, and CSRF tokens for every form."""

from __future__ import annotations

import functools
import hmac
import ipaddress
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Flask, abort, current_app, redirect, request, session, url_for
from flask_limiter import Limiter
from werkzeug.security import check_password_hash

#: Wrong PINs one client may make (Flask-Limiter's notation; moving windows, so they decay).
PIN_LIMITS = "5 per minute;20 per hour;50 per day"
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
_UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

F = TypeVar("F", bound=Callable[..., Any])


class PinGuard:
    """Checks PINs against a hash and refuses attempts that come too soon after wrong ones.

    After the n-th wrong PIN in a row the next attempt is refused for ``base * 2**(n-1)`` seconds
    (at most ``cap``); a right PIN resets the count. This delay is shared by every client, so a
    stranger's guesses delay the owner too: the panel and the room's director pass ``base=0``
    and limit wrong PINs per client instead (:func:`install_pin_limits`). Refused attempts are
    answered at once rather than by sleeping, so guessing never ties up the server's threads.
    ``clock`` is injectable so tests never sleep.

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


class AdminSessions:
    """The admin sessions open now, held on the server: logging out ends one for good (a copied
    cookie is worth nothing after it), and a restart ends them all.

    The cookie carries only a random token; the server keeps each token's expiry. At most
    ``limit`` sessions are kept (the oldest go first), so logging in again and again cannot
    grow the table.

    >>> now = [0.0]
    >>> sessions = AdminSessions(60, clock=lambda: now[0])
    >>> token = sessions.open()
    >>> sessions.is_open(token), sessions.close(token), sessions.is_open(token)
    (True, None, False)
    """

    def __init__(
        self, lifetime: float, *, clock: Callable[[], float] = time.monotonic, limit: int = 256
    ) -> None:
        self.lifetime = lifetime
        self._clock = clock
        self._limit = limit
        self._expiry: dict[str, float] = {}
        self._lock = threading.Lock()

    def open(self) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            now = self._clock()
            for old, expiry in list(self._expiry.items()):
                if expiry <= now:
                    del self._expiry[old]
            while len(self._expiry) >= self._limit:
                del self._expiry[next(iter(self._expiry))]
            self._expiry[token] = now + self.lifetime
        return token

    def is_open(self, token: object) -> bool:
        if not isinstance(token, str):
            return False
        with self._lock:
            expiry = self._expiry.get(token)
            return expiry is not None and self._clock() < expiry

    def close(self, token: object) -> None:
        if isinstance(token, str):
            with self._lock:
                self._expiry.pop(token, None)

    def __len__(self) -> int:
        return len(self._expiry)


def address_key(address: str) -> str:
    """The client an address belongs to: the address itself, an IPv6 client's /64 network (a
    phone can take any address inside its network at will), an IPv4 client seen through an
    IPv4-mapped IPv6 address as that IPv4 address.

    >>> address_key("2001:db8::1"), address_key("::ffff:192.0.2.7"), address_key("192.0.2.7")
    ('2001:db8::/64', '192.0.2.7', '192.0.2.7')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_key() -> str:
    """Who is asking, for the PIN limits (see :func:`address_key`)."""
    return address_key(request.remote_addr or "")


def _networks(value: Any) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    items = value.split(",") if isinstance(value, str) else list(value or [])
    return [
        ipaddress.ip_network(str(item).strip(), strict=False) for item in items if str(item).strip()
    ]


def is_trusted_client() -> bool:
    """Whether the request comes from the Pi itself (its own screen) or a ``TRUSTED_NETWORKS``
    network: such clients are never limited, so the owner can always log in.

    A loopback request that carries proxy headers is a proxy speaking for someone else, not
    the Pi's own screen, unless ``PROXIES`` says how many proxies to believe.
    """
    try:
        ip = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        return False
    forwarded = "X-Forwarded-For" in request.headers or "Forwarded" in request.headers
    if ip.is_loopback and (not forwarded or int(current_app.config["PROXIES"]) > 0):
        return True
    return any(ip in network for network in current_app.extensions["sheshbesh_trusted"])


def install_pin_limits(app: Flask, endpoint: str = "admin.login") -> Limiter:
    """Limit wrong PINs per client (``PIN_LIMITS``, a moving window, so they decay with time)
    on POSTs to the login view ``endpoint`` (the panel's ``admin.login``, the room's
    ``director.login``), with Flask-Limiter. Only wrong PINs count (the view answers them 401);
    trusted clients are exempt. A client over its limit gets 429 with ``Retry-After``. Raises
    ``ValueError`` for a bad ``TRUSTED_NETWORKS`` entry."""
    app.extensions["sheshbesh_trusted"] = _networks(app.config["TRUSTED_NETWORKS"])
    limiter = Limiter(
        client_key,
        app=app,
        storage_uri="memory://",
        strategy="moving-window",
        headers_enabled=True,
        default_limits=[],
    )
    view = app.view_functions[endpoint]
    app.view_functions[endpoint] = limiter.limit(  # type: ignore[assignment]
        lambda: str(app.config["PIN_LIMITS"]),
        methods=["POST"],
        key_func=client_key,
        deduct_when=lambda response: response.status_code == 401,
        exempt_when=is_trusted_client,
        error_message="Too many wrong PINs from this device",
    )(view)
    return limiter


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


ADMIN_TOKEN = "admin"


def admin_sessions() -> AdminSessions:
    sessions: AdminSessions = current_app.extensions["sheshbesh_admin_sessions"]
    return sessions


def is_admin() -> bool:
    """Whether this session logged in with the PIN, has not logged out and has not expired."""
    return admin_sessions().is_open(session.get(ADMIN_TOKEN))


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
