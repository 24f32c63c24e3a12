r"""Regression metrics out of core: one GROUP BY model gives every sum of
:class:`~assess.metrics.regression.RegressionState` (see that module for each formula and reference):
:math:`W = \sum w`, :math:`\sum w e`, :math:`\sum w|e|`, :math:`\sum w e^2`, the centred sums of squares of the
truth and of the error (the engine's numerically stable ``var_pop``, times W), :math:`\max|e|`, the relative-error
and sMAPE sums with their zero counts, and the median absolute error: without weights the engine's exact quantile
(``quantile_cont`` in DuckDB, ``percentile`` in Spark: ``numpy.median``'s average of the two middle values), with
weights the averaged inverted CDF of :func:`assess.metrics.regression.weighted_median` (`assess.engine.median`: a
histogram of |e|, then the distinct values of the one bucket holding the median). The registry's formulas then run
on that state unchanged.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from assess import intervals
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.engine import expressions
from assess.engine.binary import file_order
from assess.engine.median import weighted_medians
from assess.metrics import regression
from assess.metrics.evaluate import OF_MEAN, mean_interval_of, run_metric
from assess.metrics.registry import get


def regression_sums_sql(backend, weighted: bool, median: bool = True) -> str:
    """The aggregate expressions of the regression sums (module docstring) over columns ``y``, ``yp`` and ``w`` of
    the grouped rows: the select list `regression_table` groups by model and `assess.engine.forecast` by model,
    horizon and series. ``median=False``: the median column is NULL (the caller computes it elsewhere)."""
    terms = expressions.regression_terms("y", "yp")
    quantile = "quantile_cont" if backend.name == "duckdb" else "percentile"
    median = f"{quantile}({terms['sum_abs']}, 0.5)" if median else "CAST(NULL AS DOUBLE)"
    # weighted variance as var_pop of sqrt(w)-free form is not available: with weights use the raw moments (the
    # state's own one-pass formula), without weights the engine's stable var_pop
    ss_true = "var_pop(y) * count(*)" if not weighted else \
        "sum(w * y * y) - sum(w * y) * sum(w * y) / sum(w)"
    e = terms["sum_error"]
    ss_error = f"var_pop({e}) * count(*)" if not weighted else \
        f"sum(w * {e} * {e}) - sum(w * {e}) * sum(w * {e}) / sum(w)"
    # NaN and infinity are present cells to count(): counted apart, refused as in memory (`state_of_row`)
    bad_w = f"sum(CASE WHEN {backend.non_finite('w')} THEN 1 ELSE 0 END)" if weighted else "CAST(0 AS BIGINT)"
    sums = ", ".join(f"sum(w * ({terms[k]})) AS {k}" for k in ("sum_error", "sum_abs", "sum_sq"))
    relative = ", ".join(f"sum(w * ({terms[k]})) AS {k}" for k in ("sum_abs_rel", "sum_sq_rel", "sum_smape"))
    return f"""count(*) AS n_rows, count(y) AS y_present, count(yp) AS yp_present, sum(w) AS w_sum,
               sum(w * y) AS y_weighted_sum, sum(w * w) AS w_sq_sum,
               sum(CASE WHEN w < 0 THEN 1 ELSE 0 END) AS w_negative,
               sum(CASE WHEN {backend.non_finite('y')} OR {backend.non_finite('yp')} THEN 1 ELSE 0 END) AS non_finite,
               {bad_w} AS w_non_finite,
               {sums},
               {ss_true} AS ss_true, {ss_error} AS ss_error,
               max(CASE WHEN w > 0 THEN {terms['sum_abs']} END) AS max_abs,
               min(CASE WHEN w > 0 THEN y END) AS y_min, max(CASE WHEN w > 0 THEN y END) AS y_max,
               {median if not weighted else 'CAST(NULL AS DOUBLE)'} AS median_abs,
               sum(CASE WHEN y = 0 AND w > 0 THEN 1 ELSE 0 END) AS zero_truth,
               {relative},
               sum(CASE WHEN abs(y) + abs(yp) = 0 AND w > 0 THEN 1 ELSE 0 END) AS zero_zero"""


def rows_sql(assessment, sources) -> str:
    """The rows of every model as one relation ``r(model, y, yp, w)`` (w = 1.0 without a weight column)."""
    w = "CAST({c.weight} AS DOUBLE)" if assessment.roles.weight is not None else "CAST(1.0 AS DOUBLE)"
    return "(" + "\nUNION ALL\n".join(
        f"SELECT {c.model} AS model, CAST({c.y_true} AS DOUBLE) AS y, CAST({c.y_pred} AS DOUBLE) AS yp, "
        f"{w.format(c=c)} AS w FROM predictions" for c in sources) + ") AS r"


def regression_table(backend, assessment, sources) -> dict:
    """Per model: the sums (module docstring). ``sources``: `assess.engine.binary.Columns` (y_pred = prediction).
    With weights the median is `assess.engine.median.weighted_medians`: it reads the file once or twice more."""
    weighted = assessment.roles.weight is not None
    rows = rows_sql(assessment, sources)
    table = backend.arrays(f"SELECT model, {regression_sums_sql(backend, weighted)} FROM {rows} GROUP BY model")
    if weighted:
        medians = weighted_medians(backend, rows, ["model"])
        found = {str(m): v for m, v in zip(medians["model"], medians["median_abs"])}
        # a model whose weights are all 0 has no median (its rows are refused by the checks of `state_of_row`)
        table["median_abs"] = np.array([found.get(str(m), np.nan) for m in table["model"]], dtype=np.float64)
    return table


def state_of_row(get: dict, assessment, model, state_class=regression.RegressionState, **extra):
    """(state, rows) of one row ``get`` of a table of `regression_sums_sql`; refuses empty or non-numeric cells
    and negative weights like the in-memory checks. ``state_class`` and ``extra``: a subclass's further fields
    (`assess.metrics.forecast_state.ForecastState`)."""
    name, r = assessment.table.name, assessment.roles
    n = int(get["n_rows"])
    for col, role in (("y_present", r.y_true), ("yp_present", r.y_pred)):
        if int(get[col]) < n:
            raise AssessError(f"{name}: column {role!r} has {n - int(get[col]):,} empty or non-numeric cells "
                              f"(model {model}); every row needs a number")
    if int(get["non_finite"]):
        raise AssessError(f"{name}: {int(get['non_finite']):,} row(s) of model {model} have a NaN or infinite "
                          f"{r.y_true!r} or {r.y_pred!r}; every row needs a finite number")
    if int(get["w_negative"]) or int(get["w_non_finite"]):
        raise AssessError(f"{name}: column {r.weight!r} has negative, NaN or infinite weights")
    W = float(get["w_sum"])
    zero_truth = int(get["zero_truth"])
    constant = float(get["y_min"]) if get["y_min"] == get["y_max"] else None
    median = float(get["median_abs"]) if np.isfinite(get["median_abs"]) else float("nan")
    state = state_class(
        weight_sum=W, n=n, sum_error=float(get["sum_error"]), sum_abs=float(get["sum_abs"]),
        sum_sq=float(get["sum_sq"]), ss_true=0.0 if constant is not None else max(float(get["ss_true"]), 0.0),
        ss_error=max(float(get["ss_error"]), 0.0), max_abs=float(get["max_abs"]), median_abs=median,
        sum_abs_rel=None if zero_truth else float(get["sum_abs_rel"]),
        sum_sq_rel=None if zero_truth else float(get["sum_sq_rel"]), sum_smape=float(get["sum_smape"]),
        zero_truth_rows=zero_truth, first_zero_truth=None, zero_zero_rows=int(get["zero_zero"]),
        constant_truth=constant, **extra)
    return state, n


def regression_states(table: dict, assessment) -> dict[str, tuple[regression.RegressionState, int]]:
    """{model: (state, rows)} of `regression_table` (`state_of_row` per model)."""
    states = {str(model): state_of_row({k: v[i] for k, v in table.items()}, assessment, model)
              for i, model in enumerate(table["model"])}
    return {m: states[m] for m in file_order(assessment, states)}


def sums_metric(m, state, *, interval_note: str | None = None) -> tuple[float, str | None, str | None]:
    """(value, reason, note) of one regression or forecast metric on the engine's sums: the registry's formula on
    the state, less what the sums cannot give — the row number of a first zero truth — and ``interval_note`` added
    when intervals were asked for but have no out-of-core form."""
    value, reason, note = run_metric(m.compute, state)
    if reason:   # the engine does not know the row of the first zero truth
        reason = reason.replace(" (first at row None)", "")
    if interval_note:
        note = "; ".join(x for x in (note, interval_note) if x)
    return value, reason, note


# ---------------------------------------------------------------------------------------------------------------------
# Analytic intervals: the in-memory methods (`assess.metrics.evaluate.interval_method`) from one more scan's sums
# ---------------------------------------------------------------------------------------------------------------------

#: The state field each shared part of a row-mean metric sums into (`assess.metrics.regression.row_values`).
FIELD = {"error": "sum_error", "abs": "sum_abs", "sq": "sum_sq", "abs_rel": "sum_abs_rel", "sq_rel": "sum_sq_rel",
         "smape": "sum_smape"}


def _linear_in_its_term(spec) -> tuple[str, float, float] | None:
    """(field, α, β) with the metric's per-row value α + β·T of its one row term T (the registry's formula run on
    one-row states, as `assess.metrics.evaluate._regression_bounds` runs it on every row); None when it is not of
    that form."""
    if len(spec.shared) != 1 or spec.shared[0] not in FIELD:
        return None
    field = FIELD[spec.shared[0]]
    probe = np.array([0.0, 1.0, 2.0])
    with np.errstate(all="ignore"):
        v = np.asarray(spec.compute(regression.RegressionState(weight_sum=np.ones(3), n=1, batch=True,
                                                                **{field: probe})), dtype=np.float64)
    alpha, beta = float(v[0]), float(v[1] - v[0])
    return (field, alpha, beta) if np.isclose(v[2], alpha + 2 * beta, rtol=1e-12, atol=0) else None


def analytic_bounds(backend, rows: str, table: dict, specs, methods: dict, confidence_level: float, *,
                    weighted: bool) -> tuple[dict, dict]:
    """The t, delta-method and order-statistic intervals of ``specs`` per model, as in memory
    (`assess.metrics.evaluate._regression_bounds`), from one scan of sums and, for the median, one selection of two
    order statistics per model:

    - t: the per-row value v = α + β·T of its term T, so its weighted mean and spread follow from Σw·T and Σw·T²
      (:func:`assess.intervals.t_interval`, Kish's :math:`n_\\mathrm{eff} = W^2/\\sum w^2`); RMSE, RMSPE and SSE map
      the interval of their mean as in memory;
    - delta: the influence function of θ = 1 − A/B (`assess.metrics.regression.delta_pseudo_values`) has mean 0 and
      weighted variance Var(a)/B² − 2A·Cov(a, b)/B³ + A²·Var(b)/B⁴, from Σw·a, Σw·a², Σw·b, Σw·b², Σw·a·b with
      a = e² (R²) or (e − ē)² (explained variance) and b = (y − ȳ)², the means ȳ, ē from the first scan;
    - order statistic: the values at :func:`assess.intervals.quantile_positions` (p = 1/2) of the sorted |e| (no weights).

    Returns ({model: {key: (low, high, method)}}, {model: {key: note}})."""
    inner = {m.key: get(Task.REGRESSION, OF_MEAN[m.key][0]) if m.key in OF_MEAN else m for m in specs}
    linear = {m.key: _linear_in_its_term(inner[m.key]) for m in specs if methods[m.key] == "t"}
    fields = sorted({f[0] for f in linear.values() if f})
    delta = [m.key for m in specs if methods[m.key] == "delta"]
    models = [str(x) for x in table["model"]]
    index = {m: i for i, m in enumerate(models)}
    terms = expressions.regression_terms("y", "yp")
    select = [f"sum(w * ({terms[f]})) AS {f}, sum(w * ({terms[f]}) * ({terms[f]})) AS {f}_sq" for f in fields]
    if delta:
        def per_model(values) -> str:     # each model's own mean, as a literal of the one scan
            cases = " ".join(f"WHEN {backend.literal(m)} THEN {float(v)!r}" for m, v in zip(table["model"], values))
            return f"(CASE model {cases} END)"
        W = table["w_sum"].astype(np.float64)
        ybar = per_model(table["y_weighted_sum"].astype(np.float64) / W)
        ebar = per_model(table["sum_error"].astype(np.float64) / W)
        b = f"((y - {ybar}) * (y - {ybar}))"
        for name, a in (("r2", "((yp - y) * (yp - y))"), ("explained_variance", f"((yp - y - {ebar}) * (yp - y - {ebar}))")):
            if name in delta:
                select.append(f"sum(w * {a}) AS {name}_a, sum(w * {a} * {a}) AS {name}_aa, "
                              f"sum(w * {a} * {b}) AS {name}_ab")
        select.append(f"sum(w * {b}) AS delta_b, sum(w * {b} * {b}) AS delta_bb")
    sums = {}
    if select:
        got = backend.arrays(f"SELECT model, {', '.join(select)} FROM {rows} GROUP BY model")
        sums = {str(m): {k: float(v[i]) for k, v in got.items() if k != "model"} for i, m in enumerate(got["model"])}
    bounds, notes = {m: {} for m in models}, {m: {} for m in models}
    for model in models:
        i = index[model]
        W, W2, n = float(table["w_sum"][i]), float(table["w_sq_sum"][i]), int(table["n_rows"][i])
        n_eff = W * W / W2 if W2 > 0 else 0.0
        got = sums.get(model, {})
        for m in specs:
            how = methods[m.key]
            if how == "t":
                form = linear.get(m.key)
                if form is None:
                    continue
                field, alpha, beta = form
                mean_t, second_t = got[field] / W, got[field + "_sq"] / W
                mean = alpha + beta * mean_t
                spread = beta * beta * max(second_t - mean_t * mean_t, 0.0)
                lo, hi, method = mean_interval_of(m.key, intervals.t_interval(
                    mean, spread, n_eff, confidence_level=confidence_level, bounds=inner[m.key].range,
                    weighted=weighted), W)
            elif how == "delta":
                A, Bv = got[f"{m.key}_a"] / W, got["delta_b"] / W
                if not Bv > 0:
                    continue
                var_a = got[f"{m.key}_aa"] / W - A * A
                var_b = got["delta_bb"] / W - Bv * Bv
                cov = got[f"{m.key}_ab"] / W - A * Bv
                spread = var_a / Bv ** 2 - 2 * A * cov / Bv ** 3 + A * A * var_b / Bv ** 4
                c = intervals.t_interval(1.0 - A / Bv, spread, n_eff, confidence_level=confidence_level,
                                         bounds=m.range, weighted=weighted)
                lo, hi = c.low, c.high
                method = replace(c.how, key="delta-method", of="influence-function pseudo-values")
            elif how == "order-statistic":
                positions = intervals.quantile_positions(n, 0.5, confidence_level)
                method = intervals.IntervalMethod("order-statistic", of="binomial ranks of the median")
                if positions is None:
                    lo = hi = float("nan")
                else:
                    lo, hi = _order_statistics(backend, rows, table["model"][i], positions)
            else:
                continue
            if np.isfinite(lo) and np.isfinite(hi):
                bounds[model][m.key] = (float(lo), float(hi), method)
            else:
                notes[model][m.key] = f"no interval: too few rows for the {method.words} interval"
    return bounds, notes


def _order_statistics(backend, rows: str, model, positions: tuple[int, int]) -> tuple[float, float]:
    """The values at the two 0-based ``positions`` of one model's sorted |e| (the engine's sort, spilled to disk
    when it must)."""
    lo, hi = positions
    got = backend.arrays(
        f"SELECT pos, a FROM (SELECT abs(yp - y) AS a, row_number() OVER (ORDER BY abs(yp - y)) - 1 AS pos "
        f"FROM {rows} WHERE model = {backend.literal(model)}) AS s WHERE pos IN ({int(lo)}, {int(hi)}) ORDER BY pos")
    values = got["a"].astype(np.float64)
    return (float(values[0]), float(values[1])) if values.shape[0] == 2 else (float("nan"), float("nan"))
