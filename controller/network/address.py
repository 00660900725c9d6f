"""Where the room's broker is: ``mqtt://[USER:PASSWORD@]HOST[:PORT][/?ca=FILE]`` or ``mqtts://...``.

Everything a table or the hub needs to reach the broker fits in the one ``--broker`` URL, so a
room is set up with one line in each Pi's config: the scheme chooses TLS (``mqtts``, port 8883 by
default) or plain TCP (``mqtt``, port 1883), the user information gives the table's own broker
credentials, and ``?ca=FILE`` names the certificate authority that signed the broker's certificate
(a room's own self-signed CA; without it the system's authorities are trusted).

>>> address = BrokerAddress.from_url("mqtts://table-3:s3cret@127.0.0.1:8883/?ca=/etc/room-ca.pem")
>>> address.host, address.port, address.tls, address.username, address.ca_file
('127.0.0.1', 8883, True, 'table-3', '/etc/room-ca.pem')
>>> str(address)
'mqtts://table-3:***@127.0.0.1:8883/?ca=/etc/room-ca.pem'
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sheshbesh.errors import SheshbeshError
from sheshbesh.language import N_, TemplatedError

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

DEFAULT_PORTS: Final[dict[str, int]] = {"mqtt": 1883, "mqtts": 8883}
#: table and room names: they become topic levels and broker user names
NAME_PATTERN: Final[re.Pattern[str]] = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class NetworkError(SheshbeshError, TemplatedError):
    """Something about the room's network (broker address, names, connection) is wrong.

    A refusal a director reads is raised as a template with named values (``N_("... %(name)s
    ...")``, name=...), so the room's pages show it in the director's language.
    """


class BrokerAddressError(NetworkError, ValueError):
    """A broker URL that cannot be used; the message quotes it."""


class TableNameError(NetworkError, ValueError):
    """A table or room name that cannot be a topic level."""


def check_name(name: str, what: str = "table") -> str:
    """``name`` if it can be a topic level and a broker user name; raises :class:`TableNameError`.

    >>> check_name("table-7")
    'table-7'
    """
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        rule = (
            N_(
                "room name %(name)s must be 1-64 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit"
            )
            if what == "room"
            else N_(
                "table name %(name)s must be 1-64 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit"
            )
        )
        raise TableNameError(rule, name=repr(name))
    return name


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    """A parsed broker URL. ``str()`` hides the password."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None

    @classmethod
    def from_url(cls, url: str) -> BrokerAddress:
        """Parse ``url``; a bare ``HOST[:PORT]`` means ``mqtt://``.

        Raises :class:`BrokerAddressError` naming what is wrong.
        """
        text = url.strip()
        if "://" not in text:
            text = "mqtt://" + text
        try:
            parts = urllib.parse.urlsplit(text)
            port = parts.port
        except ValueError as error:
            raise BrokerAddressError(f"broker URL {url!r} is not usable: {error}") from None
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS:
            raise BrokerAddressError(
                f"broker URL {url!r}: the scheme must be mqtt:// or mqtts://, not {scheme}://"
            )
        if not parts.hostname:
            raise BrokerAddressError(f"broker URL {url!r} names no host")
        query = urllib.parse.parse_qs(parts.query)
        unknown = sorted(set(query) - {"ca"})
        if unknown:
            raise BrokerAddressError(
                f"broker URL {url!r}: unknown option(s) {', '.join(unknown)} (known: ca)"
            )
        ca_file = query["ca"][-1] if "ca" in query else None
        if ca_file is not None and scheme != "mqtts":
            raise BrokerAddressError(f"broker URL {url!r}: ?ca= needs mqtts://")
        unquote = urllib.parse.unquote
        return cls(
            host=parts.hostname,
            port=port if port is not None else DEFAULT_PORTS[scheme],
            tls=scheme == "mqtts",
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password is not None else None,
            ca_file=ca_file,
        )

    def with_credentials(self, username: str | None, password: str | None) -> BrokerAddress:
        """The same address with these credentials (kept as they are when both are None)."""
        if username is None and password is None:
            return self
        return BrokerAddress(self.host, self.port, self.tls, username, password, self.ca_file)

    def __str__(self) -> str:
        user = ""
        if self.username:
            user = urllib.parse.quote(self.username, safe="")
            user += ":***@" if self.password is not None else "@"
        query = f"/?ca={self.ca_file}" if self.ca_file else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}{query}"


def make_client(
    address: BrokerAddress,
    client_id: str,
    *,
    will: tuple[str, str] | None = None,
) -> mqtt.Client:
    """An MQTT client for ``address``, not yet connected (paho-mqtt 2, MQTT 3.1.1, clean session).

    Clean sessions on purpose: nothing depends on the broker keeping a session, because the
    table's record is the truth and the hub asks for whatever it lacks. ``will`` (topic, payload)
    is published retained by the broker when the client vanishes without saying goodbye.

    Raises :class:`NetworkError` when the CA file cannot be used.
    """
    import ssl

    import paho.mqtt.client as mqtt_client
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt_client.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt_client.MQTTv311,
        clean_session=True,
    )
    if address.username is not None:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        try:
            client.tls_set(ca_certs=address.ca_file)
        except (OSError, ssl.SSLError) as error:
            raise NetworkError(
                f"the broker's CA file {address.ca_file!r} cannot be used: {error}"
            ) from None
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    # Quick retries: a café's broker coming back after a restart should see its tables at once.
    client.reconnect_delay_set(min_delay=1, max_delay=4)
    client.max_inflight_messages_set(64)
    client.max_queued_messages_set(0)
    return client
