"""Setting the admin PIN at install: only its hash is written, never the PIN itself.

Shaped like a ``sheshbesh`` subcommand module (``add_arguments`` and ``run``)::

    sheshbesh set-pin [--pin-file PATH]      # asks for the PIN twice, writes its hash

The panel reads the hash from its ``PIN_HASH`` setting or, failing that, from ``PIN_FILE``
(default :func:`default_pin_file`).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
import tempfile
from pathlib import Path

from werkzeug.security import generate_password_hash

from web.errors import PinError

MIN_LENGTH = 4
MAX_LENGTH = 64


def default_pin_file() -> Path:
    """``$XDG_CONFIG_HOME/sheshbesh/panel-pin`` (``~/.config/...`` when the variable is unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sheshbesh" / "panel-pin"


def hash_pin(pin: str) -> str:
    """The scrypt hash of ``pin`` (werkzeug's format, salted).

    Raises :class:`PinError` for a PIN shorter than 4 or longer than 64 characters, or one with
    spaces at either end.
    """
    if pin != pin.strip():
        raise PinError("the PIN must not start or end with spaces")
    if not MIN_LENGTH <= len(pin) <= MAX_LENGTH:
        raise PinError(f"the PIN must be {MIN_LENGTH} to {MAX_LENGTH} characters, not {len(pin)}")
    return generate_password_hash(pin, method="scrypt")


def write_pin_file(path: Path, pin: str) -> str:
    """Hash ``pin`` and write the hash to ``path`` (mode 0600, replaced atomically); returns it."""
    pin_hash = hash_pin(pin)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".panel-pin-", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(pin_hash + "\n")
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return pin_hash


def read_pin_file(path: Path) -> str | None:
    """The hash stored in ``path``, or None when the file does not exist.

    Raises :class:`PinError` when the file holds something that is not a PIN hash.
    """
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise PinError(f"cannot read the PIN file {path}: {error}") from error
    if not text.startswith(("scrypt:", "pbkdf2:")) or text.count("$") != 2:
        raise PinError(f"the PIN file {path} does not hold a PIN hash")
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pin-file",
        type=Path,
        default=None,
        help=f"where to write the hash (default {default_pin_file()})",
    )
    parser.add_argument(
        "--stdin", action="store_true", help="read the PIN from one line of standard input"
    )


def run(args: argparse.Namespace) -> int:
    path: Path = args.pin_file or default_pin_file()
    if args.stdin:
        pin = sys.stdin.readline().rstrip("\n")
    else:
        pin = getpass.getpass("New admin PIN: ")
        if getpass.getpass("Repeat the PIN: ") != pin:
            print("error: the two PINs differ; nothing written", file=sys.stderr)
            return 1
    try:
        write_pin_file(path, pin)
    except PinError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(
            f"error: cannot write the PIN file {path}: {error.strerror or error}", file=sys.stderr
        )
        return 1
    print(f"PIN hash written to {path}")
    return 0
