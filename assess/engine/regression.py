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

import numpy as np

from assess.core.errors import AssessError
from assess.engine import expressions
from assess.engine.binary import file_order
from assess.engine.median import weighted_medians
from assess.metrics import regression
from assess.metrics.evaluate import run_metric


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


def regression_table(backend, assessment, sources) -> dict:
    """Per model: the sums (module docstring). ``sources``: `assess.engine.binary.Columns` (y_pred = prediction).
    With weights the median is `assess.engine.median.weighted_medians`: it reads the file once or twice more."""
    weighted = assessment.roles.weight is not None
    w = "CAST({c.weight} AS DOUBLE)" if weighted else "CAST(1.0 AS DOUBLE)"
    rows = "(" + "\nUNION ALL\n".join(
        f"SELECT {c.model} AS model, CAST({c.y_true} AS DOUBLE) AS y, CAST({c.y_pred} AS DOUBLE) AS yp, "
        f"{w.format(c=c)} AS w FROM predictions" for c in sources) + ") AS r"
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
