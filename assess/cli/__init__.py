"""The headless command line: ``python -m assess inspect|metrics|compare|report FILE …``.

Every subcommand prints JSON (or the format asked for) on stdout. Exit status (`assess.cli.common.EXIT_STATUS`, the
epilog of every subcommand's ``--help``): 0 on success; 2 on bad input — a file that cannot be read, an unknown
column, model or option value, or data with blocking problems — with one line on stderr naming the file, the column
and an example row; 70 on an internal error. Nothing prints a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from assess.cli.common import EXIT_BAD_INPUT, EXIT_INTERNAL
from assess.errors import AssessError

#: Subcommand modules under assess.cli; each defines ``add_parser(subparsers)`` and ``run(args) -> int``.
SUBCOMMANDS = ("inspect", "metrics", "compare", "report")


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
