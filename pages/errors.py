"""Errors page (regression and forecasts): where numeric predictions err — predicted against actual, errors against
the prediction, their distribution, error by decile; for forecasts also actual and forecast over time, errors over
time, per series and horizon."""

import streamlit as st

from assess import charts
from assess.data import Task
from assess.forecasts import prediction_frame
from pages.state import md, memo, require_assessment
from pages.widgets import all_charts_button, chart

assessment = require_assessment()
st.title("Errors")
task = assessment.task
if task not in (Task.REGRESSION, Task.FORECAST):
    st.info(f"The Errors page shows where numeric predictions err; this file is {task.value} classification — "
            "see the Confusion and Curves pages.")
    st.stop()

models = st.multiselect("Models", list(assessment.models), default=list(assessment.models))
if not models:
    st.info("Pick at least one model.")
    st.stop()
colors = charts.model_colors(assessment.models)   # by position in the file: a model keeps its colour everywhere
frames = {m: memo(assessment, "prediction_frame", (m,), lambda m=m: prediction_frame(assessment, m)) for m in models}
figures: list = []

if task is Task.FORECAST:
    first = frames[models[0]]
    left, right = st.columns(2)
    series_names = list(dict.fromkeys(first["series"]))
    series = left.selectbox("Series", series_names, help="Files with several series are shown one series at a time.")
    horizons = sorted(int(h) for h in first["horizon"].dropna().unique())
    horizon = right.select_slider("Horizon (steps ahead)", horizons, value=horizons[0]) if len(horizons) > 1 \
        else horizons[0]
    chosen = {m: f[(f["series"] == series) & (f["horizon"] == horizon)] for m, f in frames.items()}
    actual = chosen[models[0]]
    st.caption(md(f"Series `{series}`, forecasts made {horizon} step{'s' if horizon != 1 else ''} ahead: "
                  f"{len(actual):,} time points."))
    fig = charts.forecast_chart(time=actual["time"], actual=actual["y_true"], colors=colors,
                                forecasts={m: {"time": f["time"], "forecast": f["y_pred"]} for m, f in chosen.items()},
                                title=f"Actual and forecast, {horizon} ahead")
    figures.append(fig)
    chart(fig, "Actual and forecast", key="forecast")
    fig = charts.error_over_time_chart(errors={m: (f["time"], f["error"]) for m, f in chosen.items()}, colors=colors,
                                       title=f"Errors over time, {horizon} ahead")
    figures.append(fig)
    chart(fig, "Errors over time", key="errors_over_time")
    pairs = {m: (f["y_true"].to_numpy(), f["y_pred"].to_numpy()) for m, f in chosen.items()}
    st.subheader(f"All forecasts of this series, {horizon} ahead")
else:
    pairs = {m: (f["y_true"].to_numpy(), f["y_pred"].to_numpy()) for m, f in frames.items()}

pairs = {m: p for m, p in pairs.items() if len(p[0])}
if not pairs:
    st.info("No rows with both an actual and a predicted value for this choice.")
    st.stop()
# One chart per row: these charts carry several models and long legends, and stay readable at 1024 px.
for i, (name, build) in enumerate((("Predicted against actual", charts.predicted_actual_chart),
                                   ("Errors against the prediction", charts.residual_chart),
                                   ("Distribution of the errors", charts.error_distribution_chart),
                                   ("Error by decile", charts.error_by_decile_chart))):
    fig = build(models=pairs, colors=colors)
    figures.append(fig)
    chart(fig, name, key=f"errors_{i}")
st.caption("Errors are predicted − actual: above zero the model over-predicts. Above 20,000 rows a model's points "
           "are drawn as a density.")
all_charts_button(figures, "errors.pdf", key="errors")
