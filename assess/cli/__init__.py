"""The headless command line: ``python -m assess inspect|metrics|compare|report FILE …``.

Every subcommand prints JSON (or the format asked for) on stdout. Bad input exits with status 2 and one line on
stderr naming the file, the column and an example row; nothing prints a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from assess.errors import AssessError

#: Subcommand modules under assess.cli; each defines ``add_parser(subparsers)`` and ``run(args) -> int``.
SUBCOMMANDS = ("inspect", "metrics", "compare")

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m assess",
                                     description="Assess machine-learning predictions from a file, headless.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"assess.cli.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except AssessError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ValueError, TypeError) as exc:  # a bad option value that reached the package's own validation
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `… | head` closed the pipe: not an error of ours
        sys.stdout = open(os.devnull, "w")
        return 0
    except OSError as exc:
        print(f"error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - the CLI's promise is one line, never a traceback
        print(f"internal error (please report it): {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL
