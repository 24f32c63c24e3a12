"""``report FILE --engine duckdb|spark``: the assessment report fed by the engines instead of the rows.

`EngineReportSource` is what :func:`assess.present.report.build_report` takes as ``source``: the metric reports of
:func:`assess.engine.reports.engine_reports` and the paired tests of :func:`assess.engine.compare.engine_compare`
— the very objects the in-memory path builds, so the report's tables and sentences are written by the same code.
What needs the rows (charts, the ISO 5.3 controls, the tests `assess.engine.compare` refuses) is left out, and the
report's notes name it and the engine to use instead. The assessment the report describes (roles, task, classes) is
that of the file's first rows (`assess.engine.reports.head_assessment`); its row count is the whole file's.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from assess.core.data import Task
from assess.core.errors import AssessError
from assess.engine.backends import open_backend
from assess.engine.compare import engine_compare_all
from assess.engine.digest import describe_digest, source_sha256
from assess.engine.reports import engine_reports, head_assessment
from assess.engine.source import Source

#: The note of every out-of-core report.
ROWS_NOTE = ("Assessed out of core ({engine}, {rows:,} rows): the metrics, intervals and paired tests come from "
             "tables the engine grouped. Charts and the data controls need the rows and are not in this report "
             "(run it with --engine memory on a file that fits in memory); the checklist's findings about sample "
             "ids and folds were read from the first {head:,} rows.")

#: Checklist items whose findings `assess.present.report.checklist` reads from the rows (here: the first rows only).
HEAD_ITEMS = ("test_data", "leakage", "cross_validation", "ground_truth")


@dataclass
class EngineReportSource:
    """The engine's side of an out-of-core report (see the module docstring); ``rows`` is known once
    `reports` has run."""

    source: Source
    engine: str
    overrides: object
    spark_master: str | None = None
    rows: int | None = None
    head_rows: int = 0
    notes: list[str] = field(default_factory=list)
    breakdown: object = None      # forecasts: the per-horizon and per-series frame of the last `reports`
    _reports: dict = field(default_factory=dict)

    def assessment(self, settings=None):
        """The assessment of the file's first rows (roles, task, classes, models); ``settings`` (a settings file's,
        `assess.present.settings.Settings`) complete the overrides with their roles, checked against the file's columns."""
        # the digest is one more read of the files: it runs beside the engine's start and the head read (hashlib
        # releases the GIL on large chunks)
        with ThreadPoolExecutor(max_workers=1) as pool:
            digest = pool.submit(source_sha256, self.source)
            with open_backend(self.engine, self.source, spark_master=self.spark_master) as backend:
                if settings is not None:
                    self.overrides = settings.overrides(self.overrides, backend.columns())
                assessment = head_assessment(backend, self.source, self.overrides, sha256=digest)
        how = describe_digest(self.source)
        if how:
            self.notes.append(how)
        self.head_rows = len(assessment.frame)
        return assessment

    def head_findings(self, rows) -> tuple:
        """The checklist ``rows`` with each finding read from the rows marked as the head sample's when the file has
        more rows than were read, and the baselines item saying they were not computed (the engines do not form
        them)."""
        whole = self.rows is not None and self.rows <= self.head_rows
        prefix = "" if whole else (f"From the first {self.head_rows:,} rows only (the metrics cover all "
                                   f"{self.rows or 0:,}): ")
        out = []
        for row in rows:
            found = row.found
            if row.item.key in HEAD_ITEMS and found and prefix:
                found = prefix + found[0].lower() + found[1:]
            elif row.item.key == "baselines" and not any(r.baselines for rep in self._reports.values()
                                                          for r in rep.results):
                found = ("Not computed out of core: the ISO 5.3.13 baselines need the rows (run the report with "
                         "--engine memory).")
            out.append(replace(row, found=found))
        return tuple(out)

    def reports(self, models, options, progress=None) -> dict:
        ci = options.ci or None
        run = engine_reports(self.source, self.engine, self.overrides, models=models,
                             keys=list(options.metrics) if options.metrics else None, decision=options.decision,
                             beta=options.beta, ci=ci, confidence_level=options.confidence_level,
                             spark_master=self.spark_master, k=options.k, n_resamples=options.n_resamples,
                             seed=options.seed, baselines=True)
        self.rows = run.n_rows
        self._reports = run.reports
        self.breakdown = run.breakdown
        self.notes.append(ROWS_NOTE.format(engine=self.engine, rows=run.n_rows, head=self.head_rows))
        if not run.exact:
            self.notes.append(f"The scores have more distinct values than the engine groups exactly: they were "
                              f"grouped on a grid of {run.bins:,} bins, and each ranking metric is within its "
                              "stated error bound of the exact value.")
        if progress:
            progress(1.0)
        return run.reports

    def tests(self, models, options) -> tuple[tuple, dict, object]:
        """(comparisons, skipped, design): the chosen tests, or those `suggest_tests` suggests, that the engines
        run (`assess.engine.compare.engine_compare_all`); the others are skipped with the reason."""
        result = engine_compare_all(self.source, self.engine, self.overrides, models=models,
                                    tests=options.tests, correction=options.correction,
                                    confidence_level=options.confidence_level, decision=options.decision,
                                    spark_master=self.spark_master)
        return result.comparisons, dict(result.skipped), result.design


def open_report_source(source: Source, engine: str, overrides, *, settings=None, spark_master: str | None = None):
    """(assessment of the first rows, `EngineReportSource`) for :func:`assess.present.report.build_report`."""
    report_source = EngineReportSource(source, engine, overrides, spark_master)
    assessment = report_source.assessment(settings)
    if assessment.task not in (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL, Task.REGRESSION, Task.FORECAST) \
            or assessment.outputs:
        raise AssessError(f"{source.name}: out of core, reports cover binary, multi-class, multi-label, "
                          f"(single-output) regression and forecast files; this file is {assessment.task.value} (use "
                          "--engine memory)")
    return assessment, report_source
