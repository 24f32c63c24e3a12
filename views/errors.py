"""Errors page (regression and forecasts): where numeric predictions err — predicted against actual, errors against
the prediction, their distribution, error by decile; for forecasts also actual and forecast over time, errors over
time, per series and horizon."""

import streamlit as st

from assess.present import charts
from assess.present.charts.slices import fold_metric_chart
from assess.analyses.errors_view import FOLD_METRICS, errors_view, mase_by_series
from assess.analyses.folds import fold_metrics
from assess.analyses.forecast_rows import LOSSES
from assess.core.data import Task
from assess.metrics.registry import get
from ui.rows_widgets import largest_error_rows
from ui.state import cached, md, require_assessment
from ui.widgets import all_charts_button, chart, chart_row

st.title("Errors")
assessment = require_assessment()
task = assessment.task
if task is Task.CLUSTERING:
    st.info("The Errors page shows where numeric predictions err; this file is a clustering — see the Clusters page.")
    st.stop()
if task not in (Task.REGRESSION, Task.FORECAST):
    st.info(f"The Errors page shows where numeric predictions err; this file's task is {task.label} — "
            "see the Confusion and Curves pages.")
    st.stop()

models = st.multiselect("Models", list(assessment.models), default=list(assessment.models))
if not models:
    st.info("Pick at least one model.")
    st.stop()
output = None
if assessment.outputs:  # multi-output regression: the charts show one output at a time
    output = st.selectbox("Output", list(assessment.outputs), help="Each output is a `y_true_<name>`/`y_pred_<name>` "
                                                                   "pair of columns, charted on its own.")
colors = charts.model_colors(assessment.models)   # by position in the file: a model keeps its colour everywhere
view = cached(errors_view, assessment, tuple(models), output)
figures: list = []

if task is Task.FORECAST:
    left, right = st.columns(2)
    several = len(view.series) > 1   # a file without a series column (or with one series) gets no picker
    series = left.selectbox("Series", view.series, help="Files with several series are shown one series at a time.") \
        if several else view.series[0]
    of_series = f", series {series}" if several else ""
    horizons = view.horizons
    horizon = right.select_slider("Horizon (steps ahead)", horizons, value=horizons[0]) if len(horizons) > 1 \
        else horizons[0]
    chosen = view.at(series, horizon)
    actual = chosen[models[0]]
    made = f"forecasts made {horizon} step{'s' if horizon != 1 else ''} ahead: {len(actual):,} time points."
    st.caption(md(f"Series `{series}`, {made}" if several else made[0].upper() + made[1:]))
    has_intervals = "lower" in actual
    bands = has_intervals and st.toggle("Prediction intervals", value=len(models) <= 2, key="errors_bands",
                                        help="Shade each model's prediction interval from the file's lower and "
                                             "upper columns.")
    level = assessment.predictions(models[0]).interval_level
    fig = charts.forecast_chart(time=actual["time"], actual=actual["y_true"], colors=colors, level=level,
                                forecasts={m: {"time": f["time"], "forecast": f["y_pred"],
                                               "lower": f["lower"] if bands else None,
                                               "upper": f["upper"] if bands else None} for m, f in chosen.items()},
                                title=f"Actual and forecast, {horizon} ahead")
    figures.append(fig)
    chart(fig, "Actual and forecast", key="forecast")
    fig = charts.error_over_time_chart(errors={m: (f["time"], f["error"]) for m, f in chosen.items()}, colors=colors,
                                       title=f"Errors over time, {horizon} ahead")
    figures.append(fig)
    chart(fig, "Errors over time", key="errors_over_time")

    st.subheader("Across horizons")
    loss = st.radio("Error measure", list(LOSSES), horizontal=True, key="errors_loss",
                    help="MAE: the mean absolute error. RMSE: the root mean squared error, which weighs large "
                         "errors more.")
    fig = charts.metric_by_horizon_chart(values=view.by_horizon(series, loss), metric=loss, colors=colors,
                                         title=f"{loss} by horizon{of_series}")
    figures.append(fig)
    chart(fig, "Error by horizon", key="error_by_horizon")
    if several:
        # MASE per series (all horizons; each series scaled by its own naive error, so series compare), with its
        # reference line at 1 = as good as the naive forecast; the MAE of the chosen horizon where MASE is undefined
        mase = cached(mase_by_series, assessment, tuple(models))
        if mase.mase is not None:
            fig = charts.metric_by_series_chart(values=mase.mase, metric="MASE", reference=1.0, colors=colors,
                                                title="MASE by series, all horizons")
            caption = ("MASE divides each series' errors by its naive forecast's one-step error: below the line at 1 "
                       "the model beats repeating the last value, and series can be compared.")
        else:
            fig = charts.metric_by_series_chart(values=view.by_series(horizon, loss), metric=loss, colors=colors,
                                                title=f"{loss} by series, {horizon} ahead")
            caption = ("Each series is in its own units: compare models within a series, not series with each "
                       "other (MASE is undefined here: "
                       + md(mase.undefined) + ").")
        figures.append(fig)
        chart(fig, "Error by series", key="error_by_series")
        st.caption(caption)
    if len(models) > 1:
        st.subheader("Two models, time point by time point")
        left, right = st.columns(2)
        first_model = left.selectbox("Model A", models, index=0, key="errors_model_a")
        second_model = right.selectbox("Model B", models, index=1, key="errors_model_b")
        if first_model == second_model:
            st.info("Pick two different models.")
        else:
            difference = view.loss_difference(first_model, second_model, series, horizon)
            fig = charts.loss_difference_chart(time=difference.index.to_numpy(), difference=difference.to_numpy(),
                                               names=(first_model, second_model), loss="squared error",
                                               title=f"Squared-error differences, {horizon} ahead")
            figures.append(fig)
            chart(fig, "Loss differences", key="loss_difference")
            st.caption("Below zero, model A's forecast was closer at that time. The Diebold–Mariano test on the "
                       "Compare page asks whether the mean difference is zero.")

    pairs = {m: (f["y_true"].to_numpy(), f["y_pred"].to_numpy()) for m, f in chosen.items()}
    st.subheader(f"All forecasts{' of this series' if several else ''}, {horizon} ahead")
else:
    pairs = {m: (f["y_true"].to_numpy(), f["y_pred"].to_numpy()) for m, f in view.frames.items()}

pairs = {m: p for m, p in pairs.items() if len(p[0])}
if not pairs:
    st.info("No rows with both an actual and a predicted value for this choice.")
    st.stop()
# In a wrapping row: two side by side on a wide screen, one per row at 1024 px (legends sit under each plot).
row = chart_row()
for i, (name, build) in enumerate((("Predicted against actual", charts.predicted_actual_chart),
                                   ("Errors against the prediction", charts.residual_chart),
                                   ("Distribution of the errors", charts.error_distribution_chart),
                                   ("Error by decile", charts.error_by_decile_chart))):
    fig = build(models=pairs, colors=colors)
    figures.append(fig)
    with row:
        chart(fig, name, key=f"errors_{i}", in_row=True)
st.caption("Errors are predicted − actual: above zero the model over-predicts. Above 20,000 rows a model's points "
           "are drawn as a density.")
if assessment.roles.fold and not assessment.outputs:  # beside the Curves page's per-fold ROC: errors per fold
    st.subheader("Per cross-validation fold")
    fold_key = st.selectbox("Error metric", FOLD_METRICS, key="errors_fold_metric",
                            format_func=lambda key: get(task, key).name)
    folds = cached(fold_metrics, assessment, models=tuple(models), keys=(fold_key,))
    fig = fold_metric_chart(per_fold=folds.per_fold, summary=folds.summary, metric=get(task, fold_key).name,
                            colors=colors)
    figures.append(fig)
    chart(fig, "Errors per fold", key="errors_folds")
largest_error_rows(assessment, models, output)
all_charts_button(figures, "errors.pdf", key="errors")
