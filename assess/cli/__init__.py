"""The headless command line: ``python -m assess inspect|metrics|compare|controls|report|check FILE …``.

Every subcommand prints JSON (or the format asked for) on stdout. Exit status (`assess.cli.common.EXIT_STATUS`, the
epilog of every subcommand's ``--help``): 0 on success; 2 on bad input — a file that cannot be read, an unknown
column, model, metric key or option value, or data with blocking problems — with one line on stderr naming the file,
the column and an example row; 70 on an internal error; ``check`` exits 1 when a requirement fails. Nothing prints a
traceback.

Bad input is what the package raises as its own `AssessError` (and `InputError`), an `OSError` on a file the user
named (a missing ``--out`` folder), or a usage error of argparse (an option value out of its range,
`assess.cli.option_values`; argparse prints the usage first). Anything else — a plain ``ValueError``, ``TypeError``,
``KeyError`` from inside, an ``OSError`` naming no file — is our bug: exit 70 with ``internal error (please report
it): <type>: <message>``, never "bad input" blaming a file that is fine.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from assess.cli.wording import for_cli
from assess.core.errors import MAX_MESSAGE, AssessError, shorten

#: Subcommand modules under assess.cli; each defines ``add_parser(subparsers)`` and ``run(args) -> int``.
SUBCOMMANDS = ("inspect", "metrics", "compare", "controls", "report", "plan", "check", "rows", "slices")
#: One line per subcommand for ``python -m assess --help``, kept here so that help imports none of them: building a
#: subcommand's parser imports its module (pandas, and for compare the test registry with SciPy), which takes
#: seconds; only the subcommand being run is built (`build_parser`).
SUMMARIES = {
    "inspect": "show how the file is read: roles, task, classes, models, problems",
    "metrics": "every metric of the file's task per model, with optional intervals",
    "compare": "significance tests between models (McNemar, DeLong, Friedman, …)",
    "controls": "the ISO 5.3 controls the app can check: train/test overlap, leakage, annotator agreement, "
                "distribution shift",
    "report": "the assessment report (ISO 4213 clause 8) as PDF, self-contained HTML or a ZIP of tables",
    "plan": "how many labelled rows a precision or a difference needs, and what FILE's rows can detect",
    "check": "gates for pipelines: exit 1 when a requirement on the metrics fails (roc_auc>=0.85, low(recall)>=0.7, "
             "better(roc_auc, baseline))",
    "rows": "the rows behind a number: a confusion cell's, the most confidently wrong, the largest errors",
    "slices": "the metric per slice with tests, and with --discover the weak slices found without being told",
}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. With ``argv``, only the subcommand named in it gets its full parser (the others a
    one-line entry for the help), so start-up imports one subcommand's modules; without, every subcommand's."""
    parser = argparse.ArgumentParser(prog="python -m assess",
                                     description="Assess machine-learning predictions from a file, headless.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = None if argv is None else next((a for a in argv if a in SUBCOMMANDS), "")
    for name in SUBCOMMANDS:
        if chosen is None or name == chosen:
            importlib.import_module(f"assess.cli.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=SUMMARIES[name])
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    from assess.cli.common import EXIT_BAD_INPUT

    try:
        return int(args.run(args) or 0)
    except AssessError as exc:
        print(f"error: {for_cli(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `… | head` closed the pipe: not an error of ours
        sys.stdout = open(os.devnull, "w")
        return 0
    except OSError as exc:
        if exc.filename is None:  # not a file the user named (a socket, a pipe, a library's own I/O): ours
            return _internal(exc)
        print(f"error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - the CLI's promise is one line, never a traceback
        return _internal(exc)


def _internal(exc: BaseException) -> int:
    """Our bug, said as ours: bad input raises `AssessError` (naming the file, column and row), so a plain
    `ValueError`, `KeyError` … from the package is never blamed on the user's file."""
    from assess.cli.common import EXIT_INTERNAL

    # one line, as every error line: a library's message may span lines (DuckDB's quotes the SQL under a caret line)
    message = shorten(" ".join(str(exc).split()), MAX_MESSAGE)
    print(f"internal error (please report it): {type(exc).__name__}: {message}", file=sys.stderr)
    return EXIT_INTERNAL
