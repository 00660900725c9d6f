"""The ``sheshbesh`` console command.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and ``run(args) -> int``;
modules are imported only when their subcommand runs, so ``sheshbesh legal`` never loads OpenCV.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

#: subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "legal": ("controller.commands.legal", "list the legal plays for a position and roll"),
    "read": ("controller.commands.read", "read a board (or dice) in an image, print JSON"),
    "calibrate": ("controller.commands.calibrate", "locate the board and learn its colours"),
    "analyse": (
        "controller.commands.analyse",
        "judge every cube action and checker play of a match",
    ),
    "replay": ("controller.commands.replay", "replay a .mat match file and report the results"),
    "export": ("controller.commands.export", "write a recorded match as a .mat file"),
    "run": (
        "controller.commands.run",
        "referee a real board: camera, lights, buttons, panel, record",
    ),
    "demo": ("controller.commands.demo", "play a recorded match through the whole pipeline"),
    "set-pin": ("web.pin", "set the admin PIN of the panel"),
    "hub": ("controller.commands.hub", "the room's hub: every table on an MQTT broker, one panel"),
}


def _load(name: str) -> ModuleType:
    return importlib.import_module(SUBCOMMANDS[name][0])


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    top = argparse.ArgumentParser(
        prog="sheshbesh",
        description="Referee and recorder for real backgammon boards.",
        epilog="commands:\n"
        + "\n".join(f"  {name:<10} {help_text}" for name, (_, help_text) in SUBCOMMANDS.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("command", choices=sorted(SUBCOMMANDS), metavar="COMMAND")
    top.add_argument("rest", nargs=argparse.REMAINDER)
    if not args_list:
        top.print_help()
        return 2
    namespace = top.parse_args(args_list[:1])
    module = _load(namespace.command)
    parser = argparse.ArgumentParser(
        prog=f"sheshbesh {namespace.command}", description=SUBCOMMANDS[namespace.command][1]
    )
    module.add_arguments(parser)
    args = parser.parse_args(args_list[1:])
    try:
        return int(module.run(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
