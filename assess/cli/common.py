"""Options shared by the subcommands: where the file's columns are, and how to read it."""

from __future__ import annotations

import argparse
import functools
import json
import os
import math
import sys
import time
from pathlib import Path

from assess.core.data import Task
from assess.core.decision import AUTO, SCORES, SOURCES, Decision
from assess.core.errors import AssessError
from assess.cli.option_values import positive, whole
from assess.cli.engine import LARGE_FILE, UNCAPPED, check_fits_in_memory, describe_footprint
from assess.cli.progress import Heartbeat, StderrProgress, doing, say
from assess.cli.wording import for_cli
from assess.inputs.read import Limits, LoadedTable, read_table
from assess.inputs.roles import Overrides
from assess.inputs.assessment import Assessment, describe
from assess.inputs.score_direction import flipped_score
from assess.present.settings import add_config_option, fit_args, settings_from_args

#: Exit status of every subcommand. 2 is also what argparse uses for a usage error, so "the input was wrong" is one
#: status whether the command line, the file or the data was at fault; 70 is sysexits' EX_SOFTWARE.
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 70
#: The epilog of every subcommand's --help.
EXIT_STATUS = (f"Exit status: 0 on success; {EXIT_BAD_INPUT} on bad input (a file that cannot be read, an unknown "
               "column, model or option value, or data with blocking problems), with one line on stderr naming the "
               f"file, the column and an example row; {EXIT_INTERNAL} on an internal error (please report it).")

#: Warnings printed on stderr by every command (all warnings are in `inspect`'s JSON).
STDERR_WARNINGS = ("inverted_score", "repeated_cv")

_ROLE_OPTIONS = (
    ("--y-true", "y_true", "ground-truth column"),
    ("--y-pred", "y_pred", "predicted-label column"),
    ("--model-col", "model", "model-name column (long format: several models, one row per sample and model)"),
    ("--id-col", "id", "sample-id column (pairs rows across models)"),
    ("--fold-col", "fold", "cross-validation fold column"),
    ("--repeat-col", "repeat", "repeat column of repeated cross-validation (rows pair by sample id and repeat)"),
    ("--weight-col", "weight", "sample-weight column"),
    ("--cluster-col", "cluster", "cluster-assignment column"),
    ("--timestamp-col", "timestamp", "time-stamp column (forecasts)"),
    ("--series-col", "series", "series-name column (forecasts of several series)"),
    ("--horizon-col", "horizon", "steps-ahead column (forecasts)"),
    ("--origin-col", "origin", "forecast-origin column: when each forecast was made"),
    ("--lower-col", "lower", "lower bound of the prediction interval"),
    ("--upper-col", "upper", "upper bound of the prediction interval"),
)


def add_input_options(parser: argparse.ArgumentParser, *, file_optional: bool = False) -> None:
    parser.add_argument("file", nargs="?" if file_optional else None,
                        help="predictions file: CSV/TSV/TXT, Parquet, .xlsx or JSON Lines (optionally .gz/.zip)")
    parser.add_argument("--task", choices=[t.value for t in Task], help="override the recognised task")
    for flag, _, text in _ROLE_OPTIONS:
        parser.add_argument(flag, metavar="C", help=text)
    parser.add_argument("--score", nargs="+", metavar="C",
                        help="score column(s): one column for a binary score, or CLASS=COLUMN pairs for per-class "
                             "probabilities")
    parser.add_argument("--group-col", nargs="+", metavar="C", help="subgroup column(s) for per-slice metrics")
    parser.add_argument("--positive", metavar="L", help="positive class label (binary)")
    parser.add_argument("--flip-score", action="store_true",
                        help="binary: read the score as 1 − score (when it is the other class's probability; the "
                             "'inverted_score' warning of inspect says when it looks so)")
    parser.add_argument("--class-order", nargs="+", metavar="L", help="class order for tables and charts")
    parser.add_argument("--sheet", help="Excel sheet name or 0-based index (default: the first)")
    parser.add_argument("--decimal", choices=[".", ","], help="decimal mark (default: detected)")
    parser.add_argument("--max-mb", type=positive,
                        help="file size cap in MB, unpacked (default: none; the limit is memory: --max-memory-mb)")
    parser.add_argument("--max-rows", type=whole(1), help="row cap (default: none; the limit is memory: --max-memory-mb)")
    parser.add_argument("--max-memory-mb", type=positive, metavar="MB",
                        help="memory this command may use to read and assess FILE (default: half the memory "
                             "available, or ASSESS_MAX_MEMORY_MB); a file that would need more is refused before it "
                             "is read, with the figures (what it unpacks to, its rows and columns)")
    parser.add_argument("--max-columns", type=whole(1), help="column cap (default 2,000)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress lines on stderr (a file of 64 MB or more unpacked, long computations)")
    add_config_option(parser)


def add_decision_options(parser: argparse.ArgumentParser) -> None:
    """The decision rule's flags (:mod:`assess.core.decision`), the same for every command that counts labels."""
    group = parser.add_argument_group("decision", "where predicted labels come from (default: the predicted-label "
                                                  "column when the file has one, else the scores)")
    group.add_argument("--labels-from", choices=SOURCES, default=AUTO,
                       help="labels: the predicted-label column; scores: score >= threshold (binary, multi-label) "
                            "or the class with the highest score (multi-class); auto (default): labels when given")
    group.add_argument("--threshold", type=float,
                       help="score >= THRESHOLD is positive (binary; every label of a multi-label file; default 0.5); "
                            "implies --labels-from scores")
    group.add_argument("--label-threshold", nargs="+", metavar="LABEL=T",
                       help="multi-label: thresholds of single labels (e.g. news=0.3 sport=0.6); implies "
                            "--labels-from scores")


def decision_from_args(args: argparse.Namespace, task: Task, labels=()) -> Decision:
    """The :class:`Decision` the decision flags describe, checked against the task and its (multi-label) labels."""
    per_label = {}
    for item in args.label_threshold or ():
        label, sep, value = item.rpartition("=")
        try:
            per_label[label] = float(value)
        except ValueError:
            sep = ""
        if not sep or not label:
            raise AssessError(f"--label-threshold takes LABEL=THRESHOLD pairs (e.g. news=0.3); got {item}")
    if per_label and task is not Task.MULTILABEL:
        raise AssessError(f"--label-threshold applies to multi-label files; this file is {task.value}")
    unknown = [label for label in per_label if label not in labels]
    if unknown:
        raise AssessError(f"--label-threshold: no label {unknown[0]!r} (labels: {', '.join(map(str, labels))})")
    if args.threshold is not None and task is Task.MULTICLASS:
        raise AssessError("--threshold applies to binary and multi-label files; a multi-class file's labels come "
                          "from its predicted-label column or the class with the highest score (--labels-from)")
    explicit = args.threshold is not None or per_label
    source = SCORES if explicit and args.labels_from == AUTO else args.labels_from
    if explicit and source != SCORES:
        raise AssessError(f"--threshold and --label-threshold take labels from the scores; not with --labels-from "
                          f"{args.labels_from}")
    threshold = 0.5 if args.threshold is None else args.threshold
    try:
        return Decision(source, threshold, tuple(per_label.items()))
    except ValueError as exc:
        raise AssessError(f"--threshold: {exc}") from None


def overrides_from_args(args: argparse.Namespace) -> Overrides:
    overrides = Overrides(task=Task(args.task) if args.task else None, positive=args.positive,
                          class_order=tuple(args.class_order) if args.class_order else None)
    for _, role, _ in _ROLE_OPTIONS:
        value = getattr(args, role if role in ("y_true", "y_pred") else f"{role}_col", None)
        if value is not None:
            overrides = overrides.with_role(role, value)
    if args.group_col:
        overrides = overrides.with_role("groups", tuple(args.group_col))
    if args.score:
        pairs = [s.split("=", 1) for s in args.score]
        if all(len(p) == 2 for p in pairs):
            overrides = overrides.with_role("class_scores", dict(pairs)).with_role("score", None)
        elif len(args.score) == 1:
            overrides = overrides.with_role("score", args.score[0])
        else:
            raise AssessError("--score takes one column, or CLASS=COLUMN pairs (e.g. --score cat=proba_cat "
                              f"dog=proba_dog); got {' '.join(args.score)}")
    return overrides


def load_assessment(args: argparse.Namespace, table: LoadedTable | None = None) -> Assessment:
    """FILE's assessment (roles, task, checks) with the flags and ``--config`` applied; ``table``: FILE already read
    by `read_input`."""
    table = read_input(args) if table is None else table
    settings = settings_from_args(args)  # --config: its roles and names complete the flags', its options the args
    overrides = settings.overrides(overrides_from_args(args), table.frame.columns)
    assessment = describe(table, overrides)
    if getattr(args, "flip_score", False):
        changes = flipped_score(assessment.roles, assessment.classes, assessment.positive) \
            if assessment.task is Task.BINARY else ()
        if not changes:
            raise AssessError(f"{table.name}: --flip-score applies to a binary file with one score per row (a "
                              f"score column or per-class columns); this one is {assessment.task.value}"
                              + (" with several models' score columns" if assessment.roles.wide_models else ""))
        for role, value in changes:
            overrides = overrides.with_role(role, value)
        assessment = describe(table, overrides)
    for note in fit_args(args, assessment):   # settings that do not apply to this file: ignored, and said so
        print(f"warning: {for_cli(note)}", file=sys.stderr)
    for problem in assessment.warnings:
        if problem.code in STDERR_WARNINGS:  # numbers that are all wrong deserve a line even outside `inspect`
            print(f"warning: {table.name}: {for_cli(problem.message)}", file=sys.stderr)
    return assessment


def config_out_of_core(args: argparse.Namespace, engine: str) -> None:
    """``--config`` on an out-of-core engine: the settings file is checked as in memory and its options fill the
    flags not given; its roles, task, classes and display names, which need the file's columns (`Settings.overrides`,
    in memory), are said to be ignored rather than silently dropped."""
    if not getattr(args, "config", None):
        return
    settings = settings_from_args(args)
    unused = [key for key, value in (("task", settings.task), ("roles", settings.roles),
                                     ("positive", settings.positive), ("class_order", settings.class_order),
                                     ("display_names", settings.display_names)) if value]
    if unused:
        print(f"warning: {settings.source}: {', '.join(map(repr, unused))} ignored: with --engine {engine} only the "
              "settings' options apply (use --engine memory, or the role flags)", file=sys.stderr)


def read_input(args: argparse.Namespace) -> LoadedTable:
    """FILE read whole, once `check_fits_in_memory` has measured what it unpacks to (refusing it with the figures
    when it would not fit). A large file is announced on stderr, its reading followed there, and the checks that
    follow announced."""
    # The command line has no cap of its own (the caps protect the app): without a flag or an ASSESS_MAX_* variable
    # the limit is memory.
    limits = Limits.from_env(UNCAPPED | dict(os.environ))
    caps = {}
    if args.max_mb is not None:
        caps["max_bytes"] = int(args.max_mb * 1024 * 1024)
    if args.max_rows is not None:
        caps["max_rows"] = args.max_rows
    if args.max_columns is not None:
        caps["max_columns"] = args.max_columns
    if caps:
        limits = Limits(**{**limits.__dict__, **caps})
    doing("measuring what it holds before reading it")
    found = check_fits_in_memory(args, limits, quiet=args.quiet)
    doing("reading it")
    progress = None
    if found is not None and found.n_bytes >= LARGE_FILE and not args.quiet:
        say(f"{found.unpacked.name} {describe_footprint(found)}")
        progress = StderrProgress(f"{found.unpacked.name}: reading")
    sheet = int(args.sheet) if args.sheet and args.sheet.isdigit() else args.sheet
    started = time.monotonic()
    table = read_table(args.file, sheet=sheet, decimal=args.decimal, limits=limits, progress=progress)
    if progress is not None:
        rows, columns = table.frame.shape
        say(f"{table.name}: read {rows:,} rows × {columns:,} columns in {time.monotonic() - started:,.0f} s; "
            "recognising the columns and checking them")
    doing("recognising the columns and checking them")
    return table


def followed(run):
    """A command's ``run(args)`` under a `Heartbeat` on stderr (none with ``--quiet``): no step of it, reading
    included, goes `assess.cli.progress.QUIET_SECONDS` without a line saying what it is doing."""
    @functools.wraps(run)
    def followed_run(args) -> int:
        if args.quiet:
            return run(args)
        with Heartbeat(Path(args.file).name):
            return run(args)
    return followed_run


def is_large(table: LoadedTable) -> bool:
    """Whether work on the table is followed on stderr: a frame of `LARGE_FILE` or more."""
    return int(table.frame.memory_usage(index=False).sum()) >= LARGE_FILE


def json_ready(value):
    """NaN and infinities become null (JSON has neither); numpy scalars become Python numbers."""
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def print_json(obj) -> None:
    json.dump(json_ready(obj), sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
    sys.stdout.write("\n")
