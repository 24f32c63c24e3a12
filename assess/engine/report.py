"""``report FILE --engine duckdb|spark``: the assessment report fed by the engines instead of the rows.

`EngineReportSource` is what :func:`assess.report.build_report` takes as ``source``: the metric reports of
:func:`assess.engine.reports.engine_reports` and the paired tests of :func:`assess.engine.compare.engine_compare`
— the very objects the in-memory path builds, so the report's tables and sentences are written by the same code.
What needs the rows (charts, the ISO 5.3 controls, the tests `assess.engine.compare` refuses) is left out, and the
report's notes name it and the engine to use instead. The assessment the report describes (roles, task, classes) is
that of the file's first rows (`assess.engine.reports.head_assessment`); its row count is the whole file's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assess.data import Task
from assess.engine.backends import open_backend
from assess.engine.compare import engine_compare_all
from assess.engine.reports import engine_reports, head_assessment
from assess.engine.source import Source
from assess.errors import AssessError

#: The note of every out-of-core report.
ROWS_NOTE = ("Assessed out of core ({engine}, {rows:,} rows): the metrics, intervals and paired tests come from "
             "tables the engine grouped. Charts and the data controls need the rows and are not in this report "
             "(run it with --engine memory on a file that fits in memory); the checklist's findings about sample "
             "ids and folds were read from the first {head:,} rows.")


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

    def assessment(self, settings=None):
        """The assessment of the file's first rows (roles, task, classes, models); ``settings`` (a settings file's,
        `assess.settings.Settings`) complete the overrides with their roles, checked against the file's columns."""
        with open_backend(self.engine, self.source, spark_master=self.spark_master) as backend:
            if settings is not None:
                self.overrides = settings.overrides(self.overrides, backend.columns())
            assessment = head_assessment(backend, self.source, self.overrides)
        self.head_rows = len(assessment.frame)
        return assessment

    def reports(self, models, options, progress=None) -> dict:
        ci = options.ci or None
        run = engine_reports(self.source, self.engine, self.overrides, models=models,
                             keys=list(options.metrics) if options.metrics else None, decision=options.decision,
                             beta=options.beta, ci=ci, confidence_level=options.confidence_level,
                             spark_master=self.spark_master, k=options.k, resamples=options.resamples,
                             seed=options.seed)
        self.rows = run.n_rows
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
    """(assessment of the first rows, `EngineReportSource`) for :func:`assess.report.build_report`."""
    report_source = EngineReportSource(source, engine, overrides, spark_master)
    assessment = report_source.assessment(settings)
    if assessment.task not in (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL, Task.REGRESSION, Task.FORECAST) \
            or assessment.outputs:
        raise AssessError(f"{source.name}: out of core, reports cover binary, multi-class, multi-label, "
                          f"(single-output) regression and forecast files; this file is {assessment.task.value} (use "
                          "--engine memory)")
    return assessment, report_source
