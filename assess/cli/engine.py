"""``--engine auto|memory|duckdb|spark``: where ``metrics`` computes (see `assess.engine`).

``memory`` reads the whole file into pandas (every task, every interval); ``duckdb`` and ``spark`` aggregate out of
core (binary, multi-class, multi-label indicator files, regression and forecasts so far) and print the same JSON plus
``"engine"`` (rows, whether the numbers are exact, and for a score grid the error bound of each ranking metric).
``auto`` picks memory for one file below ``ASSESS_ENGINE_MEMORY_MB`` (default 100 MB) and DuckDB above it or for a
directory or glob of parts.

The command line has no row cap of its own — the app's 5,000,000-row cap protects the browser, not the terminal —
but the in-memory path refuses a file that would not fit in memory, with the figures and the engine to use instead.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from assess.cli.option_values import whole
from assess.core.errors import AssessError, shorten

ENGINES = ("auto", "memory", "duckdb", "spark")
#: pandas needs several times a file's size on disk: text parses to ~1-2x, Parquet decompresses to ~3-5x, and the
#: assessment keeps encoded copies (labels, scores, sorts) of the same order again.
MEMORY_FACTOR = {"csv": 6, "parquet": 15}
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


def check_fits_in_memory(path: str) -> None:
    """Refuse (with the figures) a file the in-memory path would need more memory for than is available."""
    p = Path(path)
    if p.is_dir() or (not p.exists() and any(ch in path for ch in "*?[")):
        raise AssessError(f"{path}: --engine memory reads one file; for a directory or a glob use --engine duckdb")
    if not p.is_file():
        return   # the reader says what is wrong with the path
    fmt = "parquet" if p.suffix.lower() in (".parquet", ".parq", ".pq") else "csv"
    need = p.stat().st_size * MEMORY_FACTOR[fmt]
    available = _available_bytes()
    if available and need > available:
        raise AssessError(f"{path}: reading it into memory needs about {need / 2**30:.1f} GiB, more than the "
                          f"{available / 2**30:.1f} GiB available; use --engine duckdb (out of core)")


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
