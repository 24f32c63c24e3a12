r"""Gates for pipelines: requirements on an assessment's metrics that hold or fail, for ``python -m assess check``,
the notebook API (``Assessment.check``) and a settings file's ``"requirements"``.

Grammar (one requirement per string; spaces are free; keys are the registry's metric keys)::

    KEY OP NUMBER            roc_auc >= 0.85        the point estimate
    low(KEY) OP NUMBER       low(recall) >= 0.7     the lower bound of the metric's interval
    high(KEY) OP NUMBER      high(brier) <= 0.2     the upper bound
    better(KEY, OTHER)       better(roc_auc, lr)    the model beats OTHER on KEY, significantly

with OP one of ``>=``, ``>``, ``<=``, ``<``, ``==``. ``low``/``high`` read the interval ``metrics --ci auto`` gives
(the same interval layer, the same level), so a gate can ask that the *evidence* clears the bar: with ``low(recall)
>= 0.7`` a recall of 0.72 measured on 40 positives fails (its 95 % Wilson interval reaches down to about 0.56).

``better(KEY, OTHER)``: OTHER is another model of the file, or ``baseline`` (unless the file has a model of that name)
— the ISO/IEC TS 4213 5.3.13 baseline that is a deterministic predictor (`assess.metrics.baselines`): for
classification the *majority* predictor (always the majority class, with the class priors as its scores; a label
of a multi-label file when more than half the rows have it), for regression the *mean* predictor (always the mean
of ``y_true``, scikit-learn's ``DummyRegressor``). Its per-row predictions are built here and compared like a model's,
so the test is paired. The test is the one the test registry recommends for that metric on these data
(`assess.stats.suggest_tests` with ``metric=KEY``: DeLong's for ROC AUC, McNemar's for accuracy, the paired bootstrap
for any other classification metric and for regression), run by `assess.stats.compare` as ``compare --test T
--metric KEY`` runs it (two-sided, default options). It holds when that p-value is below ``alpha`` (0.05) *and* the
model's value is better than OTHER's in the metric's direction — a significant difference the wrong way fails. A
metric without a direction (a count) cannot be "better"; forecasts and clusterings have no deterministic baseline
predictor here (name a model).

A requirement on an undefined value (NaN: a recall with no positive row, an interval no method gives) fails, with the
reason; it never passes silently.
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from assess.core.data import Predictions, Task
from assess.core.decision import Decision
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.errors import AssessError
from assess.core.formatting import number, p_value, percent_level
from assess.inputs.assessment import Assessment

#: The comparison operators, longest first so ``>=`` is not read as ``>``.
OPERATORS = {">=": operator.ge, "<=": operator.le, "==": operator.eq, ">": operator.gt, "<": operator.lt}
#: The word a requirement uses for the package's baseline predictor.
BASELINE = "baseline"
#: Significance level of ``better(...)``.
ALPHA = 0.05

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_KEY = r"[A-Za-z_][A-Za-z0-9_]*"
_BOUND = re.compile(rf"^\s*(?:(low|high)\s*\(\s*({_KEY})\s*\)|({_KEY}))\s*(>=|<=|==|>|<)\s*({_NUMBER})\s*$")
_BETTER = re.compile(rf"^\s*better\s*\(\s*({_KEY})\s*,\s*(.+?)\s*\)\s*$")
GRAMMAR = ("KEY OP NUMBER, low(KEY) OP NUMBER, high(KEY) OP NUMBER (OP one of >=, >, <=, <, ==) or better(KEY, "
           "MODEL|baseline)")


@dataclass(frozen=True)
class Requirement:
    """One parsed requirement. ``kind``: ``"value"``, ``"low"``, ``"high"`` or ``"better"``; ``op``/``threshold`` for
    the first three, ``other`` (a model or `BASELINE`) for ``better``."""

    text: str
    kind: str
    key: str
    op: str | None = None
    threshold: float | None = None
    other: str | None = None

    def __str__(self) -> str:
        if self.kind == "better":
            return f"better({self.key}, {self.other})"
        left = self.key if self.kind == "value" else f"{self.kind}({self.key})"
        return f"{left} {self.op} {self.threshold:g}"


def parse_requirement(text: str) -> Requirement:
    """``text`` parsed, or `AssessError` quoting it with the grammar (the command line's exit 2).

    >>> parse_requirement("low(recall)>=0.7")
    Requirement(text='low(recall)>=0.7', kind='low', key='recall', op='>=', threshold=0.7, other=None)
    >>> str(parse_requirement(" better( roc_auc , baseline ) "))
    'better(roc_auc, baseline)'
    """
    if not isinstance(text, str):
        raise AssessError(f"a requirement is text such as 'roc_auc>=0.85' (got {text!r})")
    found = _BETTER.match(text)
    if found:
        return Requirement(text, "better", found.group(1), other=found.group(2))
    found = _BOUND.match(text)
    if found is None:
        raise AssessError(f"cannot read the requirement {text!r}: write {GRAMMAR}")
    bound, key = found.group(1), found.group(2) or found.group(3)
    threshold = float(found.group(5))
    if not math.isfinite(threshold):
        raise AssessError(f"the requirement {text!r} needs a finite number")
    return Requirement(text, bound or "value", key, found.group(4), threshold)


def parse_requirements(texts) -> tuple[Requirement, ...]:
    """Every requirement parsed (the first unreadable one raises); at least one."""
    parsed = tuple(parse_requirement(t) for t in texts or ())
    if not parsed:
        raise AssessError(f"no requirement given: write at least one, {GRAMMAR}")
    return parsed


@dataclass(frozen=True)
class GateRow:
    """One requirement for one model: the value it reads (the point estimate, or for ``better`` the model's value),
    the metric's interval, for ``better`` the other's value, the test and its p-value, whether it holds, and why in
    words (the reason when a value is undefined)."""

    requirement: str
    model: str
    key: str
    value: float
    low: float
    high: float
    interval_method: str | None
    passed: bool
    message: str
    other: str | None = None
    other_value: float = math.nan
    test: str | None = None
    p_value: float = math.nan

    def to_dict(self) -> dict:
        def num(v):
            return None if v is None or not math.isfinite(v) else float(v)
        return {"requirement": self.requirement, "model": self.model, "key": self.key, "value": num(self.value),
                "low": num(self.low), "high": num(self.high), "interval_method": self.interval_method,
                "other": self.other, "other_value": num(self.other_value), "test": self.test,
                "p_value": num(self.p_value), "passed": self.passed, "message": self.message}


@dataclass(frozen=True)
class GateReport:
    """The verdicts of requirements × models. ``passed``: every row holds."""

    rows: tuple[GateRow, ...]
    confidence_level: float
    alpha: float = ALPHA

    @property
    def passed(self) -> bool:
        return bool(self.rows) and all(r.passed for r in self.rows)

    @property
    def failed(self) -> tuple[GateRow, ...]:
        return tuple(r for r in self.rows if not r.passed)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([r.to_dict() for r in self.rows],
                            columns=["requirement", "model", "key", "value", "low", "high", "interval_method", "other",
                                     "other_value", "test", "p_value", "passed", "message"])

    def to_dict(self) -> dict:
        return {"passed": self.passed, "confidence_level": self.confidence_level, "alpha": self.alpha,
                "n_requirements": len({r.requirement for r in self.rows}), "n_failed": len(self.failed),
                "rows": [r.to_dict() for r in self.rows]}


def check_requirements(assessment: Assessment, requirements, *, models=None, level: float = 0.95,
                       decision: Decision = Decision(), beta: float = 1.0, k: int = 2,
                       n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0, alpha: float = ALPHA,
                       progress=None) -> GateReport:
    """Evaluate ``requirements`` (strings of the module's grammar) for every model of ``models`` (default: all)
    of a loaded assessment; metrics and intervals as ``metrics --ci auto --confidence-level level`` computes them.

    Raises `AssessError` (bad input) for an unreadable requirement, a metric key the task does not have, an unknown
    model, or ``better`` on a metric without a direction or against a baseline the task has none of."""
    from assess.metrics.document import MetricsSettings, compute_metrics
    from assess.metrics.registry import get

    if assessment.errors:
        raise AssessError(f"{assessment.table.name}: {assessment.errors[0].message}")
    parsed = parse_requirements(requirements)
    task = assessment.task
    chosen = list(models) if models else list(assessment.models)
    unknown = [m for m in chosen if m not in assessment.models]
    if unknown:
        raise AssessError(f"no model {unknown[0]!r} (models: {', '.join(assessment.models)})")
    for req in parsed:
        try:
            spec = get(task, req.key)
        except AssessError as exc:   # the registry's message lists the task's keys; say which requirement
            raise AssessError(f"requirement {req.text!r}: {exc}") from None
        if req.kind != "better":
            continue
        if spec.direction not in ("higher", "lower"):
            raise AssessError(f"{req.text!r}: {req.key} has no better direction (it is a count or a descriptive "
                              f"value); require a bound instead, e.g. '{req.key}>=…'")
        if req.other != BASELINE or BASELINE in assessment.models:
            if req.other not in assessment.models:
                raise AssessError(f"{req.text!r}: no model {req.other!r} (models: {', '.join(assessment.models)}; "
                                  f"or '{BASELINE}')")
        elif task not in _BASELINE_NAMES:
            raise AssessError(f"{req.text!r}: a {task.value} file has no deterministic baseline predictor to test "
                              "against; name one of its models instead")
    others = [r.other for r in parsed if r.kind == "better" and r.other in assessment.models]
    everyone = list(dict.fromkeys(chosen + others))
    keys = tuple(dict.fromkeys(r.key for r in parsed))
    settings = MetricsSettings(models=tuple(everyone), keys=keys, decision=decision, beta=beta, k=k, ci="auto",
                               confidence_level=level, n_resamples=n_resamples, seed=seed)
    computed = compute_metrics(assessment, settings, progress=progress)
    reports = {m: r.average for m, r in computed.items()} if assessment.outputs else computed
    rows = []
    for req in parsed:
        for model in chosen:
            result = reports[model][req.key]
            if req.kind == "better":
                if req.other == model:
                    continue   # a model is not better than itself: the requirement is about the others
                rows.append(_better(assessment, req, model, result, reports, decision, alpha))
            else:
                rows.append(_bound(req, model, result, level))
    if not rows:   # better(KEY, M) with M the only chosen model: nothing was checked, which is no pass
        raise AssessError(f"no requirement applies to the chosen model(s) {', '.join(chosen)}: a model is not "
                          "compared with itself")
    return GateReport(tuple(rows), level, alpha)


def _bound(req: Requirement, model: str, result, level: float) -> GateRow:
    read = {"value": result.value, "low": result.low, "high": result.high}[req.kind]
    common = dict(requirement=str(req), model=model, key=req.key, value=result.value, low=result.low,
                  high=result.high, interval_method=result.method)
    if not math.isfinite(read):
        if not math.isfinite(result.value):
            why = result.reason or "the value is undefined"
        else:
            why = f"no {percent_level(level)} interval could be computed for {req.key}"
        return GateRow(**common, passed=False, message=f"fails: undefined ({why})")
    holds = bool(OPERATORS[req.op](read, req.threshold))
    what = "value" if req.kind == "value" else f"{'lower' if req.kind == 'low' else 'upper'} bound"
    return GateRow(**common, passed=holds,
                   message=f"{'holds' if holds else 'fails'}: {what} {number(read)} {req.op} {req.threshold:g} "
                           f"is {'true' if holds else 'false'}")


def _better(assessment: Assessment, req: Requirement, model: str, result, reports, decision: Decision,
            alpha: float) -> GateRow:
    from assess.metrics.registry import get
    from assess.stats import PAIRED, TESTS, compare, data_design, suggest_tests
    from assess.stats.inputs import comparison_predictions

    task = assessment.task
    is_baseline = req.other == BASELINE and BASELINE not in assessment.models
    if is_baseline:
        own = comparison_predictions(assessment, [model])[model]
        data = {model: own, BASELINE: baseline_predictions(own)}
        name = _BASELINE_NAMES[task]
        other_value = float(result.baselines.get(name, math.nan))
    else:
        data = comparison_predictions(assessment, [model, req.other])
        other_value = float(reports[req.other][req.key].value)
    common = dict(requirement=str(req), model=model, key=req.key, value=result.value, low=result.low,
                  high=result.high, interval_method=result.method, other=req.other, other_value=other_value)
    preds = list(data.values())
    has_scores = all(p.scores is not None for p in preds)
    weighted = any(p.weight is not None for p in preds)
    try:
        design = data_design(data)
        test = suggest_tests(question="two_models", n_models=2, data="predictions", paired=design.kind == PAIRED,
                             task=task, has_scores=has_scores, weighted=weighted, metric=req.key)[0].test
        spec = TESTS[test]
        metric = req.key if spec.takes_metric("predictions", task) else None
        outcome = compare(data, test=test, models=[model, req.other], metric=metric, decision=decision)
    except AssessError as exc:
        return GateRow(**common, passed=False, message=f"fails: the test could not run ({exc})")
    p = float(outcome.result.pvalue) if outcome.result is not None else math.nan
    common |= dict(test=test, p_value=p)
    if not (math.isfinite(result.value) and math.isfinite(other_value)):
        why = result.reason if not math.isfinite(result.value) else f"{req.other}'s {req.key} is undefined"
        return GateRow(**common, passed=False, message=f"fails: undefined ({why})")
    if not math.isfinite(p):
        return GateRow(**common, passed=False, message=f"fails: the {spec.title} gives no p-value")
    higher = get(task, req.key).direction == "higher"
    ahead = result.value > other_value if higher else result.value < other_value
    significant = p < alpha
    holds = ahead and significant
    side = "higher" if higher else "lower"
    if holds:
        message = (f"holds: {number(result.value)} vs {number(other_value)}, {side} is better, "
                   f"{spec.title} {p_value(p, alpha)}")
    elif not ahead:
        message = f"fails: {number(result.value)} is not {side} than {req.other}'s {number(other_value)}"
    else:
        message = (f"fails: {number(result.value)} vs {number(other_value)} is no significant difference "
                   f"({spec.title}, {p_value(p, alpha)}, needs p < {alpha:g})")
    return GateRow(**common, passed=holds, message=message)


#: The baseline of `assess.metrics.baselines` that ``baseline`` names, per task (its value is the one tables show).
_BASELINE_NAMES = {Task.BINARY: "majority", Task.MULTICLASS: "majority", Task.MULTILABEL: "majority",
                   Task.REGRESSION: "mean"}


def baseline_predictions(pred: Predictions) -> Predictions:
    """The deterministic baseline predictor's predictions on ``pred``'s rows (same truth, weights and ids, so the
    comparison is paired): majority class with the (weighted) class priors as scores — scikit-learn's
    ``DummyClassifier(strategy="prior")`` — for classification, the (weighted) mean of ``y_true`` for regression
    (per output of a multi-output file). Ties go to the first class, as `assess.metrics.baselines` breaks them."""
    w = None if pred.weight is None else np.asarray(pred.weight, dtype=float)
    n = pred.n
    y = np.asarray(pred.y_true)
    if pred.task is Task.REGRESSION:
        mean = np.average(y.astype(float), axis=0, weights=w)
        return replace(pred, y_pred=np.broadcast_to(mean, y.shape).astype(float).copy(), scores=None, lower=None,
                       upper=None, model=BASELINE)
    if pred.task is Task.MULTILABEL:
        prev = np.average(y.astype(float), axis=0, weights=w)
        return replace(pred, y_pred=np.broadcast_to(prev > 0.5, y.shape).copy(),
                       scores=None if pred.scores is None else np.broadcast_to(prev, y.shape).copy(), model=BASELINE)
    k = 2 if pred.task is Task.BINARY else len(pred.classes)
    weights = np.bincount(y.astype(np.intp), weights=w, minlength=k)
    prior = weights / weights.sum()
    majority = int(np.argmax(prior))
    y_pred = np.full(n, majority, dtype=y.dtype)
    if pred.scores is None:
        scores = None
    elif pred.task is Task.BINARY:
        scores = np.full(n, prior[1])
    else:
        scores = np.tile(prior, (n, 1))
    return replace(pred, y_pred=y_pred, scores=scores, model=BASELINE)
