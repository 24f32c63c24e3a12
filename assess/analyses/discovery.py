r"""Weak-slice discovery: which slices of the rows — one, two or three conditions on the file's other columns — are
much worse than the rest, found without being told where to look, with a test and false-discovery control.

**The search** is SliceLine's (Sagadeeva & Boehm, "SliceLine: fast, linear-algebra-based slice finding for ML model
debugging", SIGMOD 2021). Every row has a non-negative *error* :math:`e_i` (how much it counts against the metric)
and a *weight* :math:`d_i` (1 when the row is in the metric's denominator — every row for accuracy or the MAE, the
truly positive rows for recall). A slice S is a conjunction of conditions ``column = value`` on distinct columns
(numeric columns cut into quantile bins, ``[low, high)``); its size :math:`|S| = \sum_S d_i`, its error
:math:`e_S = \sum_S e_i`, and its score, with :math:`\bar e = \sum e_i / N` the mean error of all N rows,

.. math:: \mathrm{sc}(S) = \alpha \Big(\frac{e_S / |S|}{\bar e} - 1\Big) - (1 - \alpha)\Big(\frac{N}{|S|} - 1\Big),

so a slice scores above 0 only when its mean error exceeds the average by more than its smallness costs (α = 0.95).
The top-k slices by score among those with :math:`|S| \ge` ``min_size`` are exact: the lattice is enumerated level
by level, each column group's counts in one ``bincount`` of its combined codes (the sufficient statistics
:math:`|S|, e_S, \sum_S x_i^2` and an upper bound of :math:`\max_S e_i`), and a column group is skipped only when no
cell of it can beat the k-th best score so far. A child's size, error and largest error are at most its parents'
(:math:`\le \min` over them), so SliceLine's bound

.. math:: \mathrm{sc}(S) \le \max_{s \in \{m,\ e^\mathrm{ub}/\mu^\mathrm{ub},\ s^\mathrm{ub}\}}
    \frac{\alpha (\min(e^\mathrm{ub}, s\,\mu^\mathrm{ub}) / \bar e - s) - (1-\alpha)(N - s)}{s}

(m = ``min_size``, the score being monotone between these points) holds for every descendant, and only children
whose every parent is large enough and has an error are generated (a child of an error-free parent is error-free).

**The tests and the error control.** Each candidate slice of at least ``min_size`` is tested against the rest of the
rows, one-sided — the alternative is that the slice is *worse*, the only finding reported — with the package's
unpaired tests: Fisher's exact test for a proportion (the hypergeometric tail of the slice's error count given the
2 × 2 margins, as :func:`scipy.stats.fisher_exact` with ``alternative``), Welch's t-test of the per-row losses for
a mean loss (:func:`assess.stats.scores.welch_t`). Exact, not the Slices page's χ²: the correction asks for p-values
near 0.05 / m, where the normal approximation's tail is too thin for small slices (χ² rejects twice the nominal rate
at 5e-4 for 30 of 1,000 rows with 15 % errors), and a null search with it reported a slice in 7.8 % of 400 runs at a
stated 5 %. The p-values of *every* candidate the search looked at — the evaluated ones, and the pruned ones at
p = 1, which only makes the correction stricter (the Benjamini–Hochberg step-up is monotone in each p-value) — are
adjusted together (Benjamini & Hochberg 1995; ISO/IEC TS 4213 7.10.3), and a top-k slice is *discovered* when its
adjusted p-value is at most 1 − the confidence level. Why this and not a split: the family is every slice looked at,
so choosing the top slices on the same data is inside the correction, and every row serves both search and test (a
split halves the rows of each, and the power with them). BH is proven under independence or positive dependence,
which overlapping slices only partly have; the seeded simulations in ``tests/analyses/test_discovery.py`` check the
claim that matters: on data with no weak slice the share of runs reporting one stays at or below the level (4 % of
200 runs for accuracy, none of 150 for a skewed mean loss, where testing each slice uncorrected flags one in 82 %).

Each discovered slice has its metric with the registry's interval (:func:`assess.metrics.evaluate.evaluate` on its
rows), the rest's value, and the difference slice − rest with its interval: Newcombe's for proportions
(:func:`assess.intervals.newcombe_difference`), Welch's t for mean losses.
"""

from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from assess import intervals
from assess.analyses.slices import MAX_SLICES, MIN_SLICE_SIZE, MISSING
from assess.core.data import Predictions, Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.analyses.folds import train_size_column
from assess.inputs.assessment import Assessment, annotator_columns
from assess.inputs.columns import label_codes, quote
from assess.metrics import binary, multiclass, regression
from assess.metrics.evaluate import OF_MEAN, evaluate
from assess.metrics.forecast_state import subset
from assess.metrics.registry import get, metrics_for, slice_test_metric
from assess.stats.corrections import adjust_pvalues
from assess.stats.scores import welch_t

__all__ = ["Discovery", "discover", "lattice_search", "discoverable", "discovery_columns", "condition_codes",
           "default_min_size", "row_terms", "SCORE_WEIGHT", "TOP_K", "BINS", "MAX_CONDITIONS"]

#: SliceLine's α: the weight of "how much worse" against "how large" in the score (the paper's experiments use 0.95).
SCORE_WEIGHT = 0.95
#: How many slices the search keeps (the top-k by score), before the test decides which are discovered.
TOP_K = 10
#: Quantile bins of a numeric column (quintiles): enough to find a tail, few enough that a bin keeps its rows.
BINS = 5
#: Conditions per slice by default (the issue's "one or two"; three on request).
MAX_CONDITIONS = 2
#: The tests, by the names the tables show: one-sided, the alternative being "the slice is worse than the rest".
FISHER = "Fisher's exact test (one-sided)"
WELCH = "Welch's t-test (one-sided)"
#: Cells of one column group's dense table above which the group is not searched (three 100-value columns: 1e6).
MAX_CELLS = 2_000_000


def default_min_size(n: int) -> int:
    """1 % of the rows, at least `MIN_SLICE_SIZE` (30): a slice smaller than that cannot be told from noise."""
    return max(MIN_SLICE_SIZE, math.ceil(n / 100))


# ------------------------------------------------------------------------------------------------ per-row terms


def discoverable(task: Task) -> dict[str, str]:
    """{key: name} of the metrics the search can use for ``task``: those that are a mean over rows with a direction —
    the proportions of labels (accuracy, recall, …; not top-k accuracy, a score metric), the mean losses (log loss,
    Brier, MAE, MAPE, …; not RMSE or SSE, which are functions of a mean) and the multi-label Hamming loss."""
    out = {}
    for s in metrics_for(task):
        if s.direction == "none" or s.key in OF_MEAN:
            continue
        if (s.kind == "proportion" and s.needs == "labels" and task in (Task.BINARY, Task.MULTICLASS)) or (
                s.kind == "row_mean") or (task is Task.MULTILABEL and s.key in ("hamming_loss", "exact_match_ratio")):
            out[s.key] = s.name
    return out


def row_terms(pred: Predictions, key: str, decision: Decision = Decision()) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(x, d, proportion)``: per row the metric's numerator term :math:`x_i` and denominator weight :math:`d_i`,
    so that the metric on any set of rows is :math:`\\sum x_i / \\sum d_i` — the registry's own formula on one row at a
    time (a proportion's counts on the state of each confusion cell; a row-mean's formula on a batch state of
    per-row values, as `assess.metrics.evaluate` does for its t intervals)."""
    task = pred.task
    spec = get(task, key)
    if key not in discoverable(task):
        raise AssessError(f"weak-slice discovery needs a metric that is a mean over rows with a direction; "
                          f"{spec.name} is not (choose one of: {', '.join(discoverable(task).values())})")
    if pred.weight is not None:
        raise AssessError("weak-slice discovery does not take weighted rows yet: its tests count rows")
    n = int(np.asarray(pred.y_true).shape[0])
    if task in (Task.BINARY, Task.MULTICLASS) and spec.kind == "proportion":
        labels = np.asarray(predicted_labels(task, pred.y_pred, pred.scores, decision, labels=pred.classes,
                                             model=pred.model))
        k = 2 if task is Task.BINARY else len(pred.classes)
        cell = np.asarray(pred.y_true).astype(np.intp) * k + labels.astype(np.intp)
        x_of, d_of = np.zeros(k * k), np.zeros(k * k)
        for c in range(k * k):          # the registry's counts of a state holding one row in cell c
            one = np.zeros((k, k))
            one[divmod(c, k)] = 1.0
            if task is Task.BINARY:     # one[t, p]: t, p = 0 negative, 1 positive
                state = binary.BinaryState(tp=one[1, 1], fp=one[0, 1], tn=one[0, 0], fn=one[1, 0])
            else:
                state = multiclass.MulticlassState(cm=one, classes=tuple(pred.classes), cm_sq=one)
            x_of[c], d_of[c], _ = spec.proportion.counts(state)
        return x_of[cell], d_of[cell], True
    if task is Task.MULTILABEL:
        y, yp = np.asarray(pred.y_true, dtype=bool), np.asarray(predicted_labels(
            task, pred.y_pred, pred.scores, decision, labels=pred.classes, model=pred.model), dtype=bool)
        if key == "hamming_loss":   # the mean over rows of each row's share of wrong labels
            return (y != yp).mean(axis=1), np.ones(n), False
        return (y == yp).all(axis=1).astype(float), np.ones(n), True
    if spec.needs == "probabilities":
        if pred.scores is None:
            raise AssessError(f"{spec.name} needs scores; model {quote(pred.model)} has none")
        module = binary if task is Task.BINARY else multiclass
        y = np.asarray(pred.y_true) == 1 if task is Task.BINARY else np.asarray(pred.y_true)
        log_loss, brier = module.per_row_losses(y, np.asarray(pred.scores, dtype=float))
        return (log_loss if key == "log_loss" else brier), np.ones(n), False
    y, yp = np.asarray(pred.y_true, dtype=float), np.asarray(pred.y_pred, dtype=float)
    if y.ndim == 2:
        raise AssessError("weak-slice discovery takes one output; this file has several")
    rows = regression.RegressionState(weight_sum=np.ones(n), n=1, batch=True,
                                      **regression.row_values(y, yp, set(spec.shared)))
    if "abs_rel" in spec.shared or "sq_rel" in spec.shared:
        zero = int((y == 0).sum())
        if zero:
            raise AssessError(f"{spec.name} is undefined: y_true is 0 in {zero:,} rows")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        per_row = np.asarray(spec.compute(rows), dtype=np.float64)
    return per_row, np.ones(n), False


# ------------------------------------------------------------------------------------------------ conditions


def discovery_columns(assessment: Assessment) -> list[str]:
    """The columns a search may condition on by default: every column that is no prediction's (not the truth,
    predictions, scores, ids, folds, times, other annotators' labels, a training size …; declared subgroups and
    features included) with at least 2 values —
    numbers any number of them (they are binned), other values at most `MAX_SLICES` (more is an id or free text)."""
    roles, frame = assessment.roles, assessment.frame
    taken = roles.used_columns() - set(roles.groups) - set(roles.features)
    # another annotator's labels and a learning curve's training size have views of their own (as for the slices)
    taken |= {c for _, c in annotator_columns(assessment)} | {train_size_column(assessment)}
    out = []
    for c in frame.columns:
        if c in taken:
            continue
        col = frame[c]
        distinct = col.nunique(dropna=False)
        numeric = pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)
        if distinct >= 2 and (numeric or distinct <= MAX_SLICES):
            out.append(str(c))
    return out


def _edge(v: float) -> str:
    return f"{v:.4g}"


def condition_codes(col: pd.Series, bins: int = BINS) -> tuple[np.ndarray, list[str]]:
    """(codes, labels) of one column's conditions: its values, or for a number with more than ``bins`` distinct
    values its quantile bins ``[low, high)`` (the last ``[low, high]``; equal quantiles merge); empty cells are one
    more value, ``(missing)``."""
    numeric = pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)
    x = col.to_numpy(dtype=float, na_value=np.nan) if numeric else None
    finite = np.isfinite(x) if numeric else None
    if numeric and len(pd.unique(x[finite])) > bins:     # hashing the numpy values: 10× faster than Arrow's
        edges = np.unique(np.quantile(x[finite], np.linspace(0.0, 1.0, bins + 1)))
        codes = np.searchsorted(edges[1:-1], x, side="right")
        labels = [f"[{_edge(a)}, {_edge(b)}{']' if i == len(edges) - 2 else ')'}"
                  for i, (a, b) in enumerate(zip(edges[:-1], edges[1:]))]
        missing = ~finite
    else:
        codes, names = label_codes(col)
        labels = list(names)
        missing = codes < 0
    if missing.any():
        codes = np.where(missing, len(labels), codes)
        labels.append(MISSING)
    return codes.astype(np.int64), labels


# ------------------------------------------------------------------------------------------------ the search


def _score(size, err, total, mean_err, alpha):
    with np.errstate(divide="ignore", invalid="ignore"):
        sc = alpha * ((err / size) / mean_err - 1.0) - (1.0 - alpha) * (total / size - 1.0)
    return np.where(size > 0, sc, -np.inf)


def _score_bound(size_ub, err_ub, max_ub, total, mean_err, alpha, min_size):
    """SliceLine's upper bound of the score of any slice with size ≤ ``size_ub``, error ≤ ``err_ub`` and largest row
    error ≤ ``max_ub``: the score of size s is monotone between the three probe points, so the max over them bounds
    it on [min_size, size_ub]."""
    with np.errstate(divide="ignore", invalid="ignore"):
        probes = [np.full(np.shape(size_ub), float(min_size)),
                  np.maximum(np.where(max_ub > 0, err_ub / max_ub, min_size), min_size), size_ub]
        out = np.full(np.shape(size_ub), -np.inf)
        for s in probes:
            s = np.minimum(s, size_ub)
            sc = (alpha * (np.minimum(s * max_ub, err_ub) / mean_err - s) - (1.0 - alpha) * (total - s)) / s
            out = np.fmax(out, np.where(s >= min_size, sc, -np.inf))
    return out


@dataclass
class _Group:
    """One column group's dense table: per cell the size, error, Σx, Σx², largest error (or, when the
    group was pruned, upper bounds of size, error and largest error) and whether its parents allow children."""

    size: np.ndarray
    err: np.ndarray
    maxerr: np.ndarray
    valid: np.ndarray
    sx: np.ndarray | None = None
    sxx: np.ndarray | None = None


def _pvalues(g: _Group, cand: np.ndarray, tot: tuple[float, float, float, float], proportion: bool) -> np.ndarray:
    """One-sided p-values of the candidate cells — the slice worse than the rest — from the sufficient statistics:
    Fisher's exact test on the errors of a proportion (the hypergeometric tail of the slice's error count given the
    margins), Welch's t-test of a mean loss."""
    n, e = g.size[cand], g.err[cand]
    N, E, A, Q = tot
    if proportion:
        # exact, not χ²: at the small thresholds the correction asks of many candidates the normal approximation's
        # tail is too thin for small slices (2× the nominal rate at 5e-4 for 30 of 1,000 rows)
        return np.clip(sps.hypergeom.sf(np.round(e) - 1, round(N), round(E), np.round(n)), 0.0, 1.0)
    a, q = g.sx[cand], g.sxx[cand]
    m = N - n
    with np.errstate(divide="ignore", invalid="ignore"):
        va = np.maximum(q - a * a / n, 0.0) / (n - 1) / n
        vb = np.maximum((Q - q) - (A - a) ** 2 / m, 0.0) / (m - 1) / m
        se = np.sqrt(va + vb)
        diff = a / n - (A - a) / m
        t = diff / se
        df = (va + vb) ** 2 / (va * va / (n - 1) + vb * vb / (m - 1))
        p = sps.t.sf(t, df)
    p = np.where(se > 0, p, np.where(diff > 0, 0.0, 1.0))
    return np.where(np.isfinite(p) & (m >= 2), p, 1.0)


def lattice_search(codes: list[np.ndarray], cards: list[int], x: np.ndarray, d: np.ndarray, err: np.ndarray, *,
                   proportion: bool, min_size: int, max_conditions: int = MAX_CONDITIONS, top_k: int = TOP_K,
                   alpha: float = SCORE_WEIGHT) -> tuple[list, np.ndarray, np.ndarray]:
    """The search on arrays: ``codes`` per column (0 … ``cards[j]`` − 1 per row), the rows' metric terms ``x``, ``d``
    (`row_terms`) and errors ``err``. Returns ``(top, pvalues, adjusted)``: the exact top-k as (score, column
    group, flat cell, index into the p-values) best first, the one-sided p-values of every slice looked at (pruned
    ones at 1) and their Benjamini–Hochberg adjustment."""
    N, E = float(d.sum()), float(err.sum())
    mean_err = E / N if N > 0 else math.nan
    tot = (N, E, float(x.sum()), float((x * x).sum()))
    groups: dict[tuple[int, ...], _Group] = {}
    top: list[tuple[float, tuple, int, int]] = []
    pvals: list[np.ndarray] = []
    offset, pruned = 0, 0
    ones = bool((d == 1).all())
    if not E > 0:        # no row counts against the metric: no slice can be worse
        return [], np.zeros(0), np.zeros(0)

    def threshold() -> float:
        return top[-1][0] if len(top) >= top_k else 0.0

    def evaluate_group(cols, valid_parents):
        nonlocal offset
        shape = tuple(cards[c] for c in cols)
        flat = codes[cols[0]]
        for c in cols[1:]:
            flat = flat * cards[c] + codes[c]
        cells = int(np.prod(shape))
        # a proportion's test needs only sizes and errors; a mean's also Σx and Σx² (Welch)
        size = np.bincount(flat, minlength=cells).astype(float) if ones else np.bincount(flat, weights=d,
                                                                                            minlength=cells)
        g = _Group(size=size, err=np.bincount(flat, weights=err, minlength=cells), maxerr=np.zeros(cells),
                   valid=np.zeros(cells, bool),
                   sx=None if proportion else np.bincount(flat, weights=x, minlength=cells),
                   sxx=None if proportion else np.bincount(flat, weights=x * x, minlength=cells))
        if len(cols) == 1 and proportion:      # errors are 0 or 1: the largest is 1 wherever there is one
            g.maxerr = (g.err > 0).astype(float)
        elif len(cols) == 1:
            np.maximum.at(g.maxerr, flat, err)
        else:             # the largest row error of a child is at most its parents' (an upper bound suffices)
            g.maxerr = valid_parents[1]
        cand = valid_parents[0] & (g.size >= min_size)
        g.valid = cand & (g.err > 0)
        idx = np.flatnonzero(cand)
        pvals.append(_pvalues(g, idx, tot, proportion))
        scores = _score(g.size[idx], g.err[idx], N, mean_err, alpha)
        for j in np.flatnonzero(scores > threshold()):
            top.append((float(scores[j]), cols, int(idx[j]), offset + int(j)))
        top.sort(key=lambda t: -t[0])
        del top[top_k:]
        offset += idx.size
        groups[cols] = g

    for c in range(len(codes)):
        cells = cards[c]
        evaluate_group((c,), (np.ones(cells, bool), None))
    for level in range(2, max_conditions + 1):
        for cols in itertools.combinations(range(len(codes)), level):
            shape = tuple(cards[c] for c in cols)
            if int(np.prod(shape)) > MAX_CELLS:
                continue
            parents = [groups.get(tuple(cols[:i] + cols[i + 1:])) for i in range(level)]
            if any(p is None for p in parents):
                continue
            size_ub = err_ub = max_ub = None
            valid = np.ones(shape, bool)
            for i, p in enumerate(parents):     # broadcast each parent over the column it lacks
                sub = tuple(cards[c] for j, c in enumerate(cols) if j != i)
                expand = lambda a: np.expand_dims(a.reshape(sub), i)   # noqa: E731
                s_, e_, m_ = expand(p.size), expand(p.err), expand(p.maxerr)
                size_ub = s_ if size_ub is None else np.minimum(size_ub, s_)
                err_ub = e_ if err_ub is None else np.minimum(err_ub, e_)
                max_ub = m_ if max_ub is None else np.minimum(max_ub, m_)
                valid = valid & expand(p.valid)
            size_ub, err_ub, max_ub = (np.broadcast_to(a, shape).ravel() for a in (size_ub, err_ub, max_ub))
            valid = np.broadcast_to(valid, shape).ravel()
            bound = _score_bound(size_ub, err_ub, max_ub, N, mean_err, alpha, min_size)
            if not (valid & (bound > threshold())).any():
                # no cell can enter the top-k: keep the bounds for the next level, count its cells as looked at
                # (p = 1 in the correction, which only makes it stricter)
                pruned += int(valid.sum())
                groups[cols] = _Group(size=size_ub, err=err_ub, maxerr=max_ub,
                                      valid=valid & (size_ub >= min_size) & (err_ub > 0))
                continue
            evaluate_group(cols, (valid, max_ub))
    p = np.concatenate(pvals + [np.ones(pruned)]) if pvals or pruned else np.zeros(0)
    return top, p, (adjust_pvalues(p, method="fdr_bh") if p.size else p)


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True, eq=False)
class Discovery:
    """The search's result for one model and metric.

    ``slices``: the top-k slices by score, best first — ``conditions`` ({column: value or "[low, high)"}),
    ``label`` ("age = [60, 80) and site = B"), ``n`` (rows), ``size`` (rows in the metric's denominator), ``score``,
    ``value``/``low``/``high`` (the metric on the slice with the registry's interval), ``method``, ``rest``,
    ``difference`` (slice − rest) with ``difference_low``/``difference_high``, ``test``, ``pvalue``,
    ``p_adjusted`` (BH over every slice looked at), ``positions`` (the slice's rows among the model's predictions, as
    `assess.analyses.rows.rows_at` takes them) and ``discovered`` (p_adjusted ≤ 1 − level).
    ``looked_at``: the candidates in the correction (tested, plus pruned at p = 1); ``pvalues`` their p-values;
    ``overall`` the metric on all the model's rows."""

    model: str
    key: str
    name: str
    columns: tuple[str, ...]
    min_size: int
    max_conditions: int
    confidence_level: float
    looked_at: int
    slices: pd.DataFrame
    pvalues: np.ndarray
    overall: float

    @property
    def discovered(self) -> pd.DataFrame:
        return self.slices[self.slices["discovered"]] if len(self.slices) else self.slices

    def to_list(self) -> list[dict]:
        """The CLI's ``"discovered"`` entries, worst (highest score) first."""
        out = []
        for r in self.discovered.to_dict("records"):
            out.append({"model": self.model, "metric": self.key, "conditions": r["conditions"], "n": int(r["n"]),
                        "value": _num(r["value"]), "low": _num(r["low"]), "high": _num(r["high"]),
                        "rest": _num(r["rest"]), "difference": _num(r["difference"]),
                        "difference_low": _num(r["difference_low"]), "difference_high": _num(r["difference_high"]),
                        "test": r["test"], "pvalue": _num(r["pvalue"]), "p_adjusted": _num(r["p_adjusted"])})
        return out


def _num(v):
    return None if v is None or not np.isfinite(v) else float(v)


def discover(assessment: Assessment, model: str | None = None, *, key: str | None = None, columns=None,
             max_conditions: int = MAX_CONDITIONS, min_size: int | None = None, bins: int = BINS,
             top_k: int = TOP_K, decision: Decision = Decision(), confidence_level: float = 0.95) -> Discovery:
    """Search ``model``'s rows (default the first model) for the slices worst by ``key`` (default the task's slice
    metric) over ``columns`` (default `discovery_columns`), with conditions on at most ``max_conditions`` columns
    (1–3) and at least ``min_size`` rows in the metric's denominator (default `default_min_size`); see the module
    docstring for the score, the bound, the tests and the correction."""
    task = assessment.task
    model = assessment.models[0] if model is None else model
    if model not in assessment.models:
        raise AssessError(f"{assessment.table.name}: no model {quote(model)} (models: "
                          f"{', '.join(map(quote, assessment.models))})")
    key = key or slice_test_metric(task)
    if key is None:
        raise AssessError(f"weak-slice discovery is for classification, regression and forecasts (task: {task.value})")
    spec = get(task, key)
    if max_conditions not in (1, 2, 3):
        raise AssessError(f"`max_conditions` must be 1, 2 or 3 (got {max_conditions!r})")
    columns = discovery_columns(assessment) if columns is None else list(dict.fromkeys(columns))
    for c in columns:
        if c not in assessment.frame.columns:
            raise AssessError(f"{assessment.table.name}: no column {quote(c)} to search "
                              f"(columns: {', '.join(map(quote, map(str, assessment.frame.columns[:20])))})")
    if not columns:
        raise AssessError(f"{assessment.table.name}: no column to search besides the predictions")
    pred = assessment.predictions(model)
    x, d, proportion = row_terms(pred, key, decision)
    rows = np.asarray(assessment.model_rows[model])
    frame = assessment.frame.iloc[rows] if len(rows) != len(assessment.frame) else assessment.frame
    coded = [condition_codes(frame[c], bins) for c in columns]
    min_size = default_min_size(int(d.sum())) if min_size is None else int(min_size)
    if min_size < 2:
        raise AssessError(f"`min_size` must be a whole number ≥ 2 (got {min_size!r})")
    higher = spec.direction == "higher"
    err = (d - x) if higher else x        # what counts against the metric, ≥ 0: misses, or the loss itself
    top, p, adjusted = lattice_search([c for c, _ in coded], [len(lab) for _, lab in coded], x, d, err,
                                      proportion=proportion, min_size=min_size, max_conditions=max_conditions,
                                      top_k=top_k)
    alpha = 1.0 - confidence_level
    records = []
    for score, cols, cell, at in top:
        values = np.unravel_index(cell, tuple(len(coded[c][1]) for c in cols))
        mask = np.ones(len(frame), bool)
        conditions = {}
        for c, v in zip(cols, values):
            mask &= coded[c][0] == v
            conditions[columns[c]] = coded[c][1][v]
        idx = np.flatnonzero(mask)
        records.append({"conditions": conditions,
                        "label": " and ".join(f"{c} = {v}" for c, v in conditions.items()),
                        "n": idx.size, "size": float(d[idx].sum()), "score": score,
                        **_describe(pred, key, mask, x, d, proportion, float(p[at]), decision, confidence_level),
                        "p_adjusted": float(adjusted[at]), "positions": idx})
    table = pd.DataFrame(records, columns=["conditions", "label", "n", "size", "score", "value", "low", "high",
                                           "method", "rest", "difference", "difference_low", "difference_high",
                                           "test", "statistic", "pvalue", "p_adjusted", "positions"])
    table["discovered"] = (table["p_adjusted"] <= alpha) & np.isfinite(table["value"].astype(float))
    return Discovery(model, key, spec.name, tuple(columns), min_size, max_conditions, float(confidence_level),
                     int(p.size), table, p, float(x.sum() / d.sum()) if d.sum() > 0 else math.nan)


def _describe(pred, key, mask, x, d, proportion, pvalue, decision, confidence_level) -> dict:
    """One slice's metric with the registry's interval, the rest's, the difference with its interval and the test
    (the one whose p-value entered the correction, here on the rows themselves)."""
    options = {"decision": decision} if pred.task.is_classification else {}
    idx, rest = np.flatnonzero(mask), ~mask
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = evaluate(subset(pred, idx), [key], baselines=False, ci="auto", confidence_level=confidence_level,
                     **options)[key]
    out = {"value": r.value, "low": r.low, "high": r.high, "method": r.method}
    if proportion:
        a, n = float(x[idx].sum()), float(d[idx].sum())
        a2, n2 = float(x[rest].sum()), float(d[rest].sum())
        (p1, l1, u1), (p2, l2, u2) = (intervals.wilson_bounds(a, n, confidence_level=confidence_level),
                                      intervals.wilson_bounds(a2, n2, confidence_level=confidence_level))
        lo, hi = intervals.newcombe_difference(p1, l1, u1, p2, l2, u2)
        with np.errstate(divide="ignore", invalid="ignore"):
            odds = a * (n2 - a2) / ((n - a) * a2)      # the sample odds ratio, as scipy.stats.fisher_exact gives it
        # the p-value is the one in the correction: Fisher's one-sided tail from the search's counts (the package's
        # `assess.stats.counts.fisher_exact` also inverts the conditional odds ratio's interval, 0.4 s at 1e6 rows)
        return out | {"rest": float(p2), "difference": float(p1 - p2), "difference_low": float(lo),
                      "difference_high": float(hi), "test": FISHER, "statistic": float(odds), "pvalue": pvalue}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = welch_t(x[idx], x[rest], confidence_level=confidence_level, alternative="greater")
        both = welch_t(x[idx], x[rest], confidence_level=confidence_level)   # the two-sided interval of the difference
    return out | {"rest": float(x[rest].mean()), "difference": float(both.effect.value),
                  "difference_low": float(both.effect.interval.low),
                  "difference_high": float(both.effect.interval.high), "test": WELCH,
                  "statistic": float(res.statistic), "pvalue": float(res.pvalue)}
