"""``--engine auto|memory|duckdb|spark``: where ``metrics`` computes (see `assess.engine`).

``memory`` reads the whole file into pandas (every task, every interval); ``duckdb`` and ``spark`` aggregate out of
core (binary, multi-class, multi-label indicator files, regression and forecasts so far) and print the same JSON plus
``"engine"`` (rows, whether the numbers are exact, and for a score grid the error bound of each ranking metric).
``auto`` picks memory for one file below ``ASSESS_ENGINE_MEMORY_MB`` (default 100 MB) and DuckDB above it or for a
directory or glob of parts.

The command line has no row cap of its own — the app's 5,000,000-row cap protects the browser, not the terminal —
but the in-memory path refuses a file that would not fit in memory (`check_fits_in_memory`: what it unpacks to,
measured before it is read, against half the memory available or ``--max-memory-mb``), with the figures and the
engine to use instead.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from assess.cli.option_values import whole
from assess.core.errors import AssessError, shorten

ENGINES = ("auto", "memory", "duckdb", "spark")
#: The command line's defaults for the app's ASSESS_MAX_MB / ASSESS_MAX_ROWS caps: none (memory is the limit).
UNCAPPED = {"ASSESS_MAX_MB": str(2 ** 40), "ASSESS_MAX_ROWS": str(2 ** 62)}


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("engine", "where the numbers are computed (FILE may also be a directory of "
                                                "Parquet parts or a glob with --engine duckdb/spark)")
    group.add_argument("--engine", choices=ENGINES, default="auto",
                       help="memory: pandas, every task and interval; duckdb: out of core in bounded memory; spark: "
                            "the same aggregation on Spark; auto (default): memory below "
                            f"{_auto_mb(strict=False):g} MB (ASSESS_ENGINE_MEMORY_MB), else duckdb")
    group.add_argument("--spark-master", metavar="URL",
                       help="Spark master (local[*], spark://host:7077, yarn); SPARK_REMOTE=sc://host:15002 selects "
                            "Spark Connect")
    group.add_argument("--exact-limit", type=whole(0), metavar="N",
                       help="out of core: group by score up to N distinct scores (default 2,000,000), beyond it on a "
                            "2^16-bin grid with error bounds; 0 forces the grid")


#: ``--engine auto``'s threshold in MB when ASSESS_ENGINE_MEMORY_MB is not set.
AUTO_MB = 100.0


def _auto_mb(*, strict: bool = True) -> float:
    """ASSESS_ENGINE_MEMORY_MB, a size ≥ 0 in MB; a bad value is the user's error (it used to be read as 100 without
    a word). ``strict=False`` for the help text, which is built before any error can be reported."""
    text = os.environ.get("ASSESS_ENGINE_MEMORY_MB")
    if not text:
        return AUTO_MB
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        if not strict:
            return AUTO_MB
        raise AssessError(f"environment variable ASSESS_ENGINE_MEMORY_MB must be a finite number of megabytes ≥ 0 "
                          f"(got {shorten(repr(text))})")
    return value


def chosen_engine(args) -> str:
    """The engine ``args.engine`` means for ``args.file``."""
    engine = getattr(args, "engine", "memory")
    if engine != "auto":
        return engine
    path = Path(args.file)
    if not path.is_file():            # a directory or a glob: only the engines read parts
        return "duckdb"
    from assess.engine.source import file_format

    if file_format(str(path)) is None:  # .xlsx, .jsonl, .gz, .zip: the in-memory reader's formats
        return "memory"
    return "memory" if path.stat().st_size <= _auto_mb() * 1024 * 1024 else "duckdb"


#: Unpacked size from which reading a file is announced on stderr with its progress (smaller files read in seconds).
LARGE_FILE = 64 * 2**20


def memory_budget(args) -> tuple[int | None, str]:
    """(bytes this command may use for a file, where the figure comes from): ``--max-memory-mb``, else
    ``ASSESS_MAX_MEMORY_MB``, else half the memory available when it starts (None when the system does not say)."""
    mb, source = getattr(args, "max_memory_mb", None), "--max-memory-mb"
    if mb is None and os.environ.get("ASSESS_MAX_MEMORY_MB"):
        source = "ASSESS_MAX_MEMORY_MB"
        try:
            mb = float(os.environ[source])
        except ValueError:
            raise AssessError(f"environment variable {source} must be a number of MB "
                              f"(got {os.environ[source]!r})") from None
    if mb is not None:
        if not mb > 0:
            raise AssessError(f"{source} must be a positive number of MB (got {mb:g})")
        return int(mb * 2**20), source
    available = _available_bytes()
    return (available // 2, "half the memory available") if available else (None, "")


def check_fits_in_memory(args, limits, quiet: bool = False):
    """The file's `assess.inputs.footprint.Footprint`, or a refusal with the figures when reading it would need
    more memory than `memory_budget` allows: measured from what it unpacks to, before it is read (None for a path
    that does not exist: the reader says so)."""
    from assess.cli.progress import StderrProgress
    from assess.inputs.footprint import footprint

    path = args.file
    p = Path(path)
    if p.is_dir() or (not p.exists() and any(ch in path for ch in "*?[")):
        raise AssessError(f"{path}: --engine memory reads one file; for a directory or a glob use --engine duckdb")
    if p.exists() and not p.is_file():   # read whole, /dev/zero or a pipe never ends
        raise AssessError(f"{path}: is not a regular file (a device, a pipe or a socket), so what it holds cannot be "
                          "measured before it is read; save the predictions to a file")
    if not p.is_file():
        return None
    budget, source = memory_budget(args)
    shown = []

    def step(so_far):  # unpacking a large file takes seconds per GB: say how far it has got
        if not quiet and (so_far.n_bytes >= LARGE_FILE or shown):
            if not shown:
                shown.append(StderrProgress(f"{so_far.name}: measuring what it holds before reading it"))
            shown[0](so_far.fraction)

    found = footprint(p, budget=budget, limits=limits, step=step)
    if budget is not None and found.need > budget:
        # a gzip's scan stops as soon as its lower bound is over: its need is only known to exceed the budget
        need = "more than" if found.at_least else f"about {_size(found.need)}, over"
        raise AssessError(f"{found.unpacked.name} {_holds(found)}; reading it needs {need} the {_size(budget)} "
                          f"this command may use ({source}): raise it with --max-memory-mb or ASSESS_MAX_MEMORY_MB"
                          f"{_out_of_core(path)}")
    return found


def describe_footprint(found) -> str:
    """What reading the file will take: ``"unpacks to 1.2 GB (14,000,000 lines × 4 columns); reading it takes about
    3.1 GB of memory"``."""
    return f"{_holds(found)}; reading it takes about {_size(found.need)} of memory"


def _holds(found) -> str:
    bound = "at least " if found.at_least else ""
    if found.format == "xlsx":   # a zip of XML
        size = f"unpacks to {bound}{_size(found.n_bytes)} of XML"
    elif found.unpacked.compression:
        size = f"unpacks to {bound}{_size(found.n_bytes)}"
    else:
        size = f"is {_size(found.n_bytes)}"
    if not found.rows:
        return size
    lines = f"{'about ' if found.extrapolated else bound}{found.rows:,} lines"
    return f"{size} ({lines} × {found.columns:,} columns)"


def _size(n_bytes: int) -> str:
    if n_bytes >= 2**30:
        return f"{n_bytes / 2**30:,.1f} GB"
    return f"{n_bytes / 2**20:,.0f} MB" if n_bytes >= 2**20 else f"{n_bytes / 2**10:,.0f} KB"


def _out_of_core(path: str) -> str:
    """The engine that reads the file out of core, when one does."""
    from assess.engine.source import file_format

    return ", or use --engine duckdb (out of core)" if file_format(path) else ""


def _available_bytes() -> int | None:
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def run_engine_metrics(args, engine: str, decision, overrides):
    """FILE's metrics computed out of core: the engine's run (`assess.engine.reports.EngineRun`)."""
    from assess.engine.binary import EXACT_LIMIT
    from assess.engine.reports import engine_reports
    from assess.engine.source import resolve_source

    source = resolve_source(args.file)
    return engine_reports(source, engine, overrides, models=args.models, keys=args.metrics,
                         decision=decision, beta=args.beta, ci=args.ci, confidence_level=args.confidence_level,
                         spark_master=args.spark_master, k=args.k,
                         exact_limit=EXACT_LIMIT if args.exact_limit is None else args.exact_limit,
                         n_resamples=args.n_resamples, seed=args.seed, bootstrap_method=args.bootstrap_method,
                          season=getattr(args, "season", None), interval_level=getattr(args, "interval_level", None))


def engine_metrics_doc(run, settings) -> dict:
    """The ``metrics`` JSON of an engine's run (`assess.metrics.document`, as in memory, plus ``engine``)."""
    from assess.metrics.document import metrics_document

    reports, assessment = run.reports, run.assessment
    classification = assessment.task.is_classification
    doc = metrics_document(assessment.task, settings, reports,
                           positive=assessment.positive if classification else None,
                           classes=next(iter(reports.values())).classes if classification else (),
                           breakdowns=run.breakdown)
    return doc | {"engine": run.summary()}
