"""The notebook API: ``assess.evaluate(data, …)`` → `Assessment`, one set of numbers with the command line and the app.

Every method goes through the functions the command line, the pages and the report call, with the command line's own
option values (its parsers give the defaults, `assess.present.settings.ranged` checks the ranges):

- reading: a path is read as ``python -m assess metrics FILE`` reads it (`assess.cli.common.read_input`: the memory
  check, then `assess.inputs.read.read_table`); a pandas DataFrame — or a pyarrow Table or polars DataFrame, through
  their ``.to_pandas()`` — is written to Parquet in memory and read by the same `read_table`, so its columns are
  tidied, expanded and recognised as a Parquet file's are; then `assess.cli.common.load_assessment` applies the role
  options and ``config`` (a settings file) and checks the data, as every command does;
- `Assessment.document` is the JSON of ``metrics --format json`` (`assess.metrics.document`), `Assessment.metrics` and
  `Assessment.per_class` its tables (`assess.present.summary`, as the CSV export); `Assessment.compare` runs
  `assess.stats.compare` / `compare_all` as ``compare`` does; `Assessment.slices` is ``metrics --slice``'s
  `assess.analyses.slices.analyse_slices`; `Assessment.figure` a chart of `assess.present.report.figures` (the
  report's); `Assessment.report` writes what ``python -m assess report`` writes.

The internal boundary object (`assess.inputs.assessment.Assessment`, roles, task, classes, models) is held, not
copied: ``Assessment.inputs``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import html
import io
import os
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from assess.cli import build_parser
from assess.cli.common import decision_from_args, json_ready, load_assessment, read_input
from assess.cli.engine import UNCAPPED
from assess.cli.metrics import metrics_settings
from assess.cli.wording import for_cli
from assess.core.data import Task
from assess.core.decision import SOURCES
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.errors import AssessError
from assess.core.formatting import bounds, number, percent_level
from assess.inputs.assessment import Assessment as Inputs
from assess.inputs.read import Limits, read_table
from assess.present.settings import BETA, CONFIDENCE_LEVEL, K, RESAMPLES, SEED, fit_args, ranged

__all__ = ["Assessment", "evaluate"]

#: Name of a table given as a DataFrame, in messages and in the report (``evaluate(name=…)`` changes it).
TABLE_NAME = "DataFrame"
#: The file argument the command line's parsers are given while building an `argparse.Namespace` of their defaults;
#: replaced by the real name at once.
_PLACEHOLDER = "data"


#: The command line's flags in its messages, as this API's keywords (the rest: ``--y-true`` is ``y_true=…``).
_KEYWORDS = (("--score CLASS=COLUMN …", "score={CLASS: COLUMN, …}"), ("--score CLASS=COLUMN", "score={CLASS: COLUMN}"),
             ("--score COLUMN", "score=COLUMN"), ("--confidence-level", "level=…"), ("--slice", "slices=…"))


def for_api(message: str) -> str:
    """A message of the package in this API's words: the Data page's "choose it" becomes the option that does it
    (`assess.cli.wording.for_cli`), and each command-line flag the keyword that sets it here.

    >>> for_api("no ground-truth column found: name one `y_true`, or choose it as the Ground truth below")
    'no ground-truth column found: name one `y_true`, or name it with y_true=…'
    """
    message = for_cli(message)
    for flag, keyword in _KEYWORDS:
        message = message.replace(flag, keyword)
    return re.sub(r"(?<![\w-])--([a-z][a-z0-9-]*)", lambda m: f"{m[1].replace('-', '_')}=…", message)


def _worded(function):
    """``function`` whose `AssessError` speaks this API's words (`for_api`), its type kept."""
    @functools.wraps(function)
    def worded(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except AssessError as exc:
            exc.args = (for_api(str(exc)), *exc.args[1:])
            raise
    return worded


@_worded
def evaluate(data, *, y_true: str | None = None, score: str | Sequence[str] | Mapping[str, str] | None = None,
             y_pred: str | None = None, model_col: str | None = None, id_col: str | None = None,
             fold_col: str | None = None, repeat_col: str | None = None, weight_col: str | None = None,
             cluster_col: str | None = None, timestamp_col: str | None = None, series_col: str | None = None,
             horizon_col: str | None = None, origin_col: str | None = None, lower_col: str | None = None,
             upper_col: str | None = None, group_col: str | Sequence[str] | None = None, positive=None,
             flip_score: bool = False, class_order: Sequence | None = None, labels_from: str = "auto",
             threshold: float | None = None, label_threshold: Mapping[str, float] | None = None,
             config: str | os.PathLike | None = None, sheet: str | int | None = None, decimal: str | None = None,
             name: str | None = None, task: str | None = None) -> Assessment:
    """Read ``data`` and recognise its columns, task, classes and models, as the command line does.

    ``data``: a path (CSV/TSV/TXT, Parquet, .xlsx or JSON Lines, optionally .gz/.zip), a pandas DataFrame, or a
    table with ``.to_pandas()`` (pyarrow, polars). The keyword options are those of ``python -m assess metrics``
    (``--y-true`` is ``y_true``, ``--model-col`` is ``model_col`` …): ``score`` one column, or a mapping class → column
    of per-class probabilities; ``group_col`` one column or several; ``label_threshold`` a mapping label →
    threshold (multi-label); ``config`` a settings file saved from the app, whose roles fill what is not given here
    and whose options fill the methods' options left at None or their default, as ``--config`` fills flags not
    given; ``name`` the table's name in messages and the report (a DataFrame's default: ``"DataFrame"``). Undetected
    roles are found by the column names SPEC lists (``y_true``, ``y_pred``, ``score``, ``model`` …).

    Raises `assess.AssessError` (bad input: a column the table lacks, data with blocking problems) with the
    command line's message, its flags named as these keywords (`for_api`); what the command warns of on stderr (a
    score that looks inverted, settings that do not apply to this table) is a `UserWarning` in the same words.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"y_true": [0, 0, 1, 1, 0, 1], "score": [0.1, 0.6, 0.4, 0.9, 0.2, 0.8]})
    >>> a = evaluate(frame, name="val.parquet")
    >>> a.task, a.models, a.n
    ('binary', ('val',), 6)
    >>> a.document(ci=None)["models"]["val"]["roc_auc"]
    0.8888888888888888
    """
    if isinstance(data, (str, os.PathLike)):
        path = os.fspath(data)
        name = name or Path(path).name
    elif isinstance(data, pd.DataFrame) or hasattr(data, "to_pandas"):
        path, name = None, name or TABLE_NAME
    else:
        raise TypeError(f"`data` must be a path, a pandas DataFrame or a table with .to_pandas() (pyarrow, "
                        f"polars); got {type(data).__name__}")
    inputs = {"file": path or name, "task": task, "y_true": y_true, "y_pred": y_pred, "model_col": model_col,
              "id_col": id_col, "fold_col": fold_col, "repeat_col": repeat_col, "weight_col": weight_col,
              "cluster_col": cluster_col, "timestamp_col": timestamp_col, "series_col": series_col,
              "horizon_col": horizon_col, "origin_col": origin_col, "lower_col": lower_col, "upper_col": upper_col,
              "score": _score_flags(score), "group_col": _names(group_col), "positive": _text(positive),
              "flip_score": bool(flip_score), "class_order": _names(class_order), "sheet": _text(sheet),
              "decimal": decimal, "config": os.fspath(config) if config is not None else None, "quiet": True,
              "labels_from": labels_from, "threshold": threshold,
              "label_threshold": [f"{k}={v}" for k, v in label_threshold.items()] if label_threshold else None}
    args = _parsed("metrics")
    vars(args).update(inputs)
    _choice("task", task, [t.value for t in Task])
    _choice("labels_from", labels_from, SOURCES)
    _choice("decimal", decimal, (".", ","))
    said = io.StringIO()   # the command's warning lines (an inverted score, settings that do not apply) on stderr
    with contextlib.redirect_stderr(said):
        table = read_input(args) if path is not None else _frame_table(data, name)
        inner = load_assessment(args, table)
    for line in said.getvalue().splitlines():   # … are a notebook's warnings, in this API's words
        warnings.warn(for_api(line.removeprefix("warning: ")), UserWarning, stacklevel=3)
    if inner.errors:
        raise AssessError(f"{inner.table.name}: {inner.errors[0].message}")
    return Assessment(inner, inputs, decision_from_args(args, inner.task, inner.classes))


class Assessment:
    """One predictions table assessed: its task, classes and models (``evaluate`` builds it), and methods that give
    the metrics with intervals, the per-class table, the significance tests, slices, charts and the report.

    The metric reports (by their settings) and the charts are kept once computed, so ``_repr_html_`` after
    ``metrics()`` costs no second bootstrap and a second ``figure`` no second drawing. ``inputs`` is the internal
    boundary object every surface consumes (`assess.inputs.assessment.Assessment`).
    """

    def __init__(self, inputs: Inputs, options: Mapping[str, object], decision) -> None:
        self.inputs = inputs
        self._options = dict(options)   # the command-line options `evaluate` was given, by argparse dest
        self._decision = decision
        self._reports_cache: dict = {}
        self._figures_cache: dict = {}

    # --- what was read -------------------------------------------------------------------------------------------
    @property
    def task(self) -> str:
        """The task's key: binary, multiclass, multilabel, regression, forecast or clustering."""
        return self.inputs.task.value

    @property
    def models(self) -> tuple[str, ...]:
        return self.inputs.models

    @property
    def classes(self) -> tuple[str, ...]:
        """The classes (labels of a multi-label file) in their order; () for numeric tasks."""
        return self.inputs.classes

    @property
    def positive(self) -> str | None:
        return self.inputs.positive

    @property
    def n(self) -> int:
        """Rows of the table (every model's rows of a long-format file)."""
        return len(self.inputs.frame)

    @property
    def name(self) -> str:
        return self.inputs.table.name

    def __repr__(self) -> str:
        return (f"<assess.Assessment {self.name!r}: {self.inputs.task.label}, {len(self.models):,} "
                f"model{'s' if len(self.models) != 1 else ''}, {self.n:,} rows>")

    # --- metrics -------------------------------------------------------------------------------------------------
    @_worded
    def document(self, ci: str | None = "auto", metrics: Sequence[str] | None = None, *,
                 models: Sequence[str] | None = None, level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
                 seed: int = 0, beta: float = 1.0, k: int = 2, bootstrap_method: str = "percentile",
                 season: int | None = None, interval_level: float | None = None,
                 slices: str | Sequence[str] | None = None, slice_test: Sequence[str] | None = None,
                 min_slice_size: int | None = None, by_fold: bool = False, cost_table: str | None = None,
                 cost_metric: str | None = None) -> dict:
        """The dict ``python -m assess metrics FILE --format json`` writes with the same options (``ci`` is
        ``--ci``, None for none; ``level`` ``--confidence-level``; ``n_resamples`` ``--resamples``; ``slices``
        ``--slice``; the others their flags' names): ``{"task", "n", "models": {model: {key: {"value", "low",
        "high"}}}, "settings", "undefined", …}`` — undefined values are None with their reason under ``"undefined"``.

        >>> import pandas as pd
        >>> a = evaluate(pd.DataFrame({"y_true": [0, 0, 1, 1], "y_pred": [0, 1, 1, 1]}), name="m.csv")
        >>> doc = a.document(ci="wilson", metrics=["recall", "precision"])
        >>> doc["models"]["m"]["recall"]["value"], round(doc["models"]["m"]["precision"]["value"], 4)
        (1.0, 0.6667)
        """
        args = self._metric_args(ci=ci, metrics=metrics, models=models, level=level, n_resamples=n_resamples, seed=seed,
                                 beta=beta, k=k, bootstrap_method=bootstrap_method, season=season,
                                 interval_level=interval_level, slices=[slices] if isinstance(slices, str) else slices,
                                 slice_test=_names(slice_test), min_slice_size=min_slice_size, by_fold=bool(by_fold),
                                 cost_table=None if cost_table is None else os.fspath(cost_table),
                                 cost_metric=cost_metric)
        from assess.cli import metrics as metrics_cli

        inner, decision = self.inputs, decision_from_args(args, self.inputs.task, self.inputs.classes)
        settings = metrics_settings(args, decision)
        return json_ready(metrics_cli.document(inner, args, settings, self._computed(settings), decision))

    @_worded
    def metrics(self, ci: str | None = "auto", metrics: Sequence[str] | None = None, *,
                models: Sequence[str] | None = None, level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
                seed: int = 0, beta: float = 1.0, k: int = 2, bootstrap_method: str = "percentile",
                season: int | None = None, interval_level: float | None = None) -> pd.DataFrame:
        """Every metric of every model as a tidy table: ``model, metric`` (the registry key), ``name`` (its display
        name), ``value, low, high`` (NaN when undefined or without an interval), ``method`` (how the interval was
        computed; None without one) and ``reason`` (why a value is undefined) — the numbers of `document`.

        >>> import pandas as pd
        >>> a = evaluate(pd.DataFrame({"y_true": [0, 0, 1, 1], "y_pred": [0, 1, 1, 1]}), name="m.csv")
        >>> a.metrics(ci="wilson", metrics=["recall"])[["model", "metric", "name", "value", "method"]]
          model  metric                  name  value  method
        0     m  recall  Recall (sensitivity)    1.0  wilson
        """
        args = self._metric_args(ci=ci, metrics=metrics, models=models, level=level, n_resamples=n_resamples, seed=seed,
                                 beta=beta, k=k, bootstrap_method=bootstrap_method, season=season,
                                 interval_level=interval_level)
        from assess.present.summary import long_frame

        frame = long_frame(self._reports(args)).rename(columns={"key": "metric"})
        return frame[["model", "metric", "name", "value", "low", "high", "method", "reason"]]

    @_worded
    def per_class(self, *, models: Sequence[str] | None = None, beta: float = 1.0) -> pd.DataFrame:
        """The per-class (multi-class) or per-label (multi-label) table of every model, one row per model and class
        (label): what ``metrics``' JSON holds under ``"per_class"`` (``"per_label"``), the Metrics page and the
        report show. Other tasks have none: `AssessError` says so."""
        from assess.present.summary import per_class_frame

        frame = per_class_frame(self._reports(self._metric_args(ci=None, models=models, beta=beta)))
        if frame is None:
            raise AssessError(f"{self.name}: a per-class table is for multi-class and multi-label files; this one is "
                              f"{self.inputs.task.label}")
        return frame

    # --- tests ---------------------------------------------------------------------------------------------------
    @_worded
    def compare(self, test: str = "auto", *, models: Sequence[str] | None = None, metric: str | None = None,
                correction: str = "auto", alternative: str = "two-sided", level: float = 0.95,
                output: str | None = None, **options):
        """The significance tests of ``python -m assess compare``: ``test="auto"`` runs every test suited to the
        data and their design with one verdict (``--test all``: an `assess.stats.ComparisonSet`); a test key
        (``"mcnemar"``, ``"delong"``, ``"paired_bootstrap"`` …) runs that one (an `assess.stats.Comparison`).
        ``options`` are the tests' own options (``n_resamples=…``, ``exact=True`` …). Both results have
        ``.to_dict()`` (the command's JSON) and ``.to_frame()``."""
        from assess.stats import CORRECTIONS, compare, compare_all
        from assess.stats.inputs import comparison_predictions

        args = self._args("compare", test="all" if test == "auto" else test, models=_names(models), metric=metric,
                          correction=_choice("correction", correction, ("auto", *CORRECTIONS)), alternative=alternative,
                          confidence_level=_ranged("level", level, CONFIDENCE_LEVEL), output=output)
        inner = self.inputs
        if len(inner.models) < 2:
            raise AssessError(f"{self.name}: comparing models needs at least 2 models; it has 1 "
                              f"({inner.models[0]!r}): name the model-name column with model_col=…")
        chosen = args.models or list(inner.models)
        unknown = [m for m in chosen if m not in inner.models]
        if unknown:
            raise AssessError(f"{self.name}: no model {unknown[0]!r} (models: {', '.join(inner.models)})")
        data = comparison_predictions(inner, chosen, output=args.output)
        common = dict(models=args.models, metric=args.metric, confidence_level=args.confidence_level,
                      decision=decision_from_args(args, inner.task, inner.classes))
        if args.test == "all":
            return compare_all(data, correction=args.correction, **common, **options)
        return compare(data, test=args.test, correction=args.correction, alternative=args.alternative, **common,
                       **options)

    @_worded
    def check(self, requirements: str | Sequence[str], *, models: Sequence[str] | None = None, level: float = 0.95,
              n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0, beta: float = 1.0, k: int = 2):
        """Gates for pipelines, as ``python -m assess check``: each requirement (``"roc_auc>=0.85"``,
        ``"low(recall)>=0.7"``, ``"better(roc_auc, baseline)"``) for every model, by the same function. Returns an
        `assess.analyses.gates.GateReport`: ``.passed``, ``.rows``, ``.to_frame()`` and ``.to_dict()`` (the command's
        JSON).

        >>> a = evaluate(pd.DataFrame({"y_true": [0, 0, 1, 1], "y_pred": [0, 1, 1, 1]}), name="m.csv")
        >>> report = a.check(["accuracy>=0.7", "low(accuracy)>=0.7"])
        >>> [row.passed for row in report.rows]
        [True, False]
        """
        from assess.analyses.gates import check_requirements

        chosen = [requirements] if isinstance(requirements, str) else list(requirements)
        return check_requirements(self.inputs, chosen, models=_names(models),
                                  level=_ranged("level", level, CONFIDENCE_LEVEL), decision=self._decision,
                                  beta=beta, k=k, n_resamples=n_resamples, seed=seed)

    @_worded
    def slices(self, by: str | Sequence[str], *, metrics: Sequence[str] | None = None,
               test: Sequence[str] | None = None, models: Sequence[str] | None = None, min_size: int | None = None,
               ci: str | None = "auto", level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
               seed: int = 0) -> pd.DataFrame:
        """Every metric per slice of column ``by`` (several columns are crossed), as ``metrics --slice`` computes
        them: one row per model, slice and metric with ``n``, ``value, low, high, method``, the ``overall`` value
        and the ``gap`` to it, and — for the tested metrics (``test``; default the task's), on slices of at least
        ``min_size`` rows — the test against the other rows: ``test, pvalue, p_adjusted`` (Benjamini–Hochberg over
        the slices) and ``worse``. ``frame.attrs`` holds the omnibus tests (``"omnibus"``) and the notes."""
        from assess.analyses.slices import MIN_SLICE_SIZE, analyse_slices

        args = self._metric_args(ci=ci, metrics=metrics, models=models, level=level, n_resamples=n_resamples, seed=seed,
                                 slices=[by] if isinstance(by, str) else list(by), slice_test=_names(test),
                                 min_slice_size=min_size)
        inner = self.inputs
        # the arguments `assess.cli.slices.extend` gives it for ``--slice``
        analysis = analyse_slices(inner, args.slices, models=args.models or list(inner.models), keys=args.metrics,
                                  test_keys=args.slice_test,
                                  decision=decision_from_args(args, inner.task, inner.classes), ci=args.ci,
                                  confidence_level=args.confidence_level, n_resamples=args.n_resamples,
                                  seed=args.seed, test_resamples=args.n_resamples,
                                  min_size=MIN_SLICE_SIZE if args.min_slice_size is None else args.min_slice_size)
        tests = analysis.tests[["model", "key", "slice", "test", "pvalue", "p_adjusted", "worse"]]
        frame = analysis.metrics.merge(tests, on=["model", "key", "slice"], how="left")
        frame = frame.rename(columns={"key": "metric"})
        frame.attrs = {"omnibus": analysis.omnibus, "notes": analysis.notes}
        return frame

    # --- charts and the report -----------------------------------------------------------------------------------
    @_worded
    def figure(self, kind: str, model: str | None = None, *, level: float = 0.95, seed: int = 0):
        """A chart of the report as a Plotly figure (the house template, `assess.present.charts.style`): ``"roc"``,
        ``"pr"``, ``"gain"``, ``"lift"``, ``"calibration"``, ``"ks"``, ``"confusion"`` … as the file's task has
        them (an unknown ``kind`` is refused with the list). Charts drawn per model (``"confusion"``,
        ``"distribution"``, ``"threshold"`` …) are ``model``'s, the first model's by default. Multi-class ``"roc"``
        and ``"pr"`` are the one-vs-rest curves; multi-label ``"confusion"`` the per-label matrices."""
        from assess.present.report.figures import report_figures

        inner = self.inputs
        level = _ranged("level", level, CONFIDENCE_LEVEL)
        seed = _ranged("seed", seed, SEED)
        if model is not None and model not in inner.models:
            raise AssessError(f"{self.name}: no model {model!r} (models: {', '.join(inner.models)})")
        if (level, seed) not in self._figures_cache:   # every chart of the report at once: keep them for the next
            auc = None   # the report's ROC legend gives each AUC with the interval of `metrics --ci auto`
            if inner.task is Task.BINARY:
                reports = self._reports(self._metric_args(ci="auto", level=level, seed=seed))
                auc = {m: r["roc_auc"] for m, r in reports.items() if "roc_auc" in r}
            self._figures_cache[level, seed] = report_figures(inner, list(inner.models), decision=self._decision,
                                                              confidence_level=level, seed=seed, auc_ci=auc)
        figures = self._figures_cache[level, seed]
        kinds, aliases = {}, _FIGURE_ALIASES.get(inner.task, {})
        for f in figures:   # a chart per model is titled "… — model" and keyed "<kind>_<model or index>"
            owner = next((m for m in inner.models if f.title.endswith(f"— {m}")), None)
            stem = f.key if owner is None else f.key.rpartition("_")[0] if not f.key.endswith(f"_{owner}") \
                else f.key[: -len(owner) - 1]
            kinds.setdefault(aliases.get(stem, stem), {})[owner] = f.figure
        if kind not in kinds:
            raise AssessError(f"{self.name}: no {kind!r} chart for a {inner.task.label} file (charts: "
                              f"{', '.join(kinds) or 'none'})")
        found = kinds[kind]
        if None in found:
            return found[None]
        if model is None:
            return next(iter(found.values()))
        if model not in found:
            raise AssessError(f"{self.name}: no {kind!r} chart of model {model!r} (models with one: "
                              f"{', '.join(found)})")
        return found[model]

    @_worded
    def report(self, path: str | os.PathLike, *, title: str | None = None, paper: str | None = None,
               models: Sequence[str] | None = None, metrics: Sequence[str] | None = None, ci: str | None = None,
               level: float | None = None, n_resamples: int | None = None, seed: int | None = None,
               tests: Sequence[str] | None = None, test_metric: str | None = None,
               correction: str | None = None) -> Path:
        """Write the assessment report ``python -m assess report`` writes with the same options — PDF, HTML or a
        ZIP of tables by ``path``'s suffix — and return its path. Options left None take the command's defaults
        (intervals ``auto`` at 95 %, every suited test) or, with ``evaluate(config=…)``, the settings file's."""
        from assess.cli.report import options_from_args
        from assess.present.report import build_report, format_of, write_report
        from assess.present.settings import settings_from_args
        from assess.stats import CORRECTIONS, TEST_NAMES

        fmt = format_of(path)
        _choice("tests", tests, TEST_NAMES)
        _choice("correction", correction, ("auto", *CORRECTIONS))
        checked = {"confidence_level": (level, CONFIDENCE_LEVEL), "n_resamples": (n_resamples, RESAMPLES),
                   "seed": (seed, SEED)}
        args = self._args("report", out=os.fspath(path), title=title, paper=paper, models=_names(models),
                          metrics=_names(metrics), ci=_ci(ci), tests=_names(tests), test_metric=test_metric,
                          correction=correction,
                          **{k: None if v is None else _ranged(k, v, rng) for k, (v, rng) in checked.items()})
        settings = settings_from_args(args)
        options = replace(options_from_args(args, settings, self.inputs), charts=fmt != "zip")
        write_report(build_report(self.inputs, options), args.out, paper=args.paper or settings.paper)
        return Path(args.out)

    # --- Jupyter -------------------------------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        """A compact summary for Jupyter: the task, models and rows, the headline metrics with their 95 % intervals
        (``ci="auto"``), and the verdict of the significance tests when there are two models or more. Every name
        from the table is escaped: a model called ``<script>`` is shown, never run."""
        from assess.present.report.model import HEADLINE
        from assess.present.summary import with_nominal

        e = html.escape
        inner = self.inputs
        count = len(self.models)
        parts = [f"<div class='assess-summary'><p><strong>{e(self.name)}</strong>: {e(inner.task.label)}, "
                 f"{count:,} model{'s' if count != 1 else ''}, {self.n:,} rows</p>"]
        reports = self._reports(self._metric_args(ci="auto")) if inner.task in HEADLINE else {}
        if inner.task is Task.FORECAST:   # "Interval coverage (nominal 90%)", as the Metrics page names it
            reports = with_nominal(reports, inner.predictions().interval_level)
        keys = [k for k in HEADLINE.get(inner.task, ()) if reports and all(k in r and r[k].defined
                                                                          for r in reports.values())]
        if keys:
            first = next(iter(reports.values()))
            head = "".join(f"<th>{e(first[k].name)}</th>" for k in keys)
            rows = "".join(
                f"<tr><th>{e(m)}</th>" + "".join(
                    f"<td>{e(number(r[k].value))}" + (f" <small>({e(bounds(r[k].low, r[k].high))})</small>"
                                                      if bounds(r[k].low, r[k].high) else "") + "</td>"
                    for k in keys) + "</tr>" for m, r in reports.items())
            parts.append(f"<table><thead><tr><th>Model</th>{head}</tr></thead><tbody>{rows}</tbody></table>"
                         f"<p><small>{e(percent_level(first.confidence_level))} intervals in brackets.</small></p>")
        if count >= 2:
            try:
                verdict = self.compare().verdict
                said = verdict.text if verdict is not None else "No significance test could be run on these data."
            except AssessError as exc:
                said = f"No significance test: {exc}"
            parts.append(f"<p>Verdict: {e(said)}</p>")
        return "".join(parts) + "</div>"

    # --- shared --------------------------------------------------------------------------------------------------
    def _args(self, command: str, **options) -> argparse.Namespace:
        """``command``'s options as its parser makes them: its defaults, `evaluate`'s inputs, then ``options``;
        with ``config``, the settings fill the options left at their defaults, fitted to this file (as
        `load_assessment` does for the command; its warnings were said when the table was read)."""
        args = _parsed(command)
        vars(args).update(self._options)
        vars(args).update(options)
        if args.config:
            fit_args(args, self.inputs)
        return args

    def _metric_args(self, *, ci="auto", metrics=None, models=None, level=0.95, n_resamples=DEFAULT_RESAMPLES, seed=0,
                     beta=1.0, k=2, bootstrap_method="percentile", **rest) -> argparse.Namespace:
        """``metrics``' options, each checked as its flag is (the ranges of `assess.present.settings`)."""
        from assess.metrics import get

        _choice("bootstrap_method", bootstrap_method, ("percentile", "bca"))
        args = self._args("metrics", ci=_ci(ci), metrics=_names(metrics), models=_names(models),
                          confidence_level=_ranged("level", level, CONFIDENCE_LEVEL),
                          n_resamples=_ranged("n_resamples", n_resamples, RESAMPLES), seed=_ranged("seed", seed, SEED),
                          beta=_ranged("beta", beta, BETA), k=_ranged("k", k, K), bootstrap_method=bootstrap_method,
                          **rest)
        for key in args.metrics or ():
            get(self.inputs.task, key)   # AssessError listing the task's keys, as the command's
        return args

    def _computed(self, settings) -> dict:
        """`assess.metrics.document.compute_metrics` of ``settings``, once per settings."""
        from assess.metrics.document import compute_metrics

        if settings not in self._reports_cache:
            self._reports_cache[settings] = compute_metrics(self.inputs, settings)
        return self._reports_cache[settings]

    def _reports(self, args: argparse.Namespace) -> dict:
        """{model: MetricReport} of ``metrics``' options (the averages over the outputs of a multi-output file, as
        under the JSON's ``"models"``)."""
        settings = metrics_settings(args, decision_from_args(args, self.inputs.task, self.inputs.classes))
        computed = self._computed(settings)
        return {m: r.average for m, r in computed.items()} if self.inputs.outputs else computed


#: The report's keys of some charts, by task, and the name `Assessment.figure` gives them (the chart that task has
#: under that name).
_FIGURE_ALIASES = {Task.MULTICLASS: {"ovr_roc": "roc", "ovr_pre": "pr"}, Task.MULTILABEL: {"labels": "confusion"}}


def _parsed(command: str) -> argparse.Namespace:
    """The options of ``python -m assess COMMAND`` at their defaults (the command's parser is their one home)."""
    required = {"report": ["--out", "report.html"], "compare": ["--test", "all"]}.get(command, [])
    argv = [command, _PLACEHOLDER, *required]
    return build_parser(argv).parse_args(argv)


def _frame_table(data, name: str):
    """A DataFrame (or a table with ``.to_pandas()``) as the `LoadedTable` of a Parquet file holding it: written to
    Parquet in memory and read by `read_table`, the reader of every file. A named index is kept as a column."""
    frame = data if isinstance(data, pd.DataFrame) else data.to_pandas()
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"`data.to_pandas()` gave {type(frame).__name__}, not a pandas DataFrame")
    if any(n is not None for n in frame.index.names):
        frame = frame.reset_index()
    frame = frame.set_axis([str(c) for c in frame.columns], axis=1)   # Parquet names columns with text
    buffer = io.BytesIO()
    try:
        frame.to_parquet(buffer, index=False)
    except (ValueError, TypeError, NotImplementedError) as exc:   # pyarrow's ArrowInvalid, ArrowTypeError …
        detail = "; ".join(" ".join(str(a).split()) for a in exc.args)   # a column mixing numbers and text …
        raise AssessError(f"{name}: cannot be read as a table: {detail}") from None
    return read_table(buffer.getvalue(), name=name, limits=Limits.from_env(UNCAPPED | dict(os.environ)))


def _ranged(name: str, value, rng):
    """``value`` checked by the parser type of its flag (`assess.present.settings.ranged`): AssessError naming
    ``name`` and the range otherwise."""
    try:
        return ranged(rng)(str(value))
    except argparse.ArgumentTypeError as exc:
        raise AssessError(f"{name}: {exc}") from None


def _ci(ci: str | None) -> str | None:
    from assess.metrics import CI_METHODS

    if ci not in CI_METHODS:
        raise AssessError(f"ci: {ci!r} is not one of {', '.join(m for m in CI_METHODS if m)} or None")
    return ci


def _choice(name: str, value, allowed: Sequence[str]):
    """``value`` (or each of a list) one of ``allowed``, as the flag's ``choices`` require; None passes."""
    for one in [] if value is None else [value] if isinstance(value, str) else value:
        if one not in allowed:
            raise AssessError(f"{name}: {one!r} is not one of {', '.join(allowed)}")
    return value


def _text(value) -> str | None:
    return None if value is None else str(value)


def _names(value) -> list[str] | None:
    """One name or several, as the command line's ``nargs="+"`` list; None for none."""
    if value is None:
        return None
    return [str(value)] if isinstance(value, (str, int, float)) else [str(v) for v in value] or None


def _score_flags(score) -> list[str] | None:
    """``--score``'s words: one column, or CLASS=COLUMN pairs of a mapping."""
    if isinstance(score, Mapping):
        return [f"{c}={col}" for c, col in score.items()]
    return _names(score)
