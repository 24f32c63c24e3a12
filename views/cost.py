"""Cost page (ISO 4213 6.6): latency, throughput and energy per model with intervals, efficiency, the accuracy–cost
trade-off with its Pareto front, latency distributions, and one sentence weighing the best model against a cheaper
one. Reads the file's ``latency_ms``/``energy_j`` (and ``batch_size``) columns, or a separate tidy cost table."""

import streamlit as st

from assess.analyses import cost
from assess.analyses.cost_view import model_costs, weigh
from assess.core.errors import AssessError
from assess.inputs.read import ACCEPTED_EXTENSIONS
from assess.metrics import applicable_to, headline_of
from assess.present.charts import model_colors
from assess.present.charts.cost import latency_distribution_chart, trade_off_chart
from ui.state import cached, current_decision, md, read_upload, require_assessment
from ui.widgets import all_charts_button, chart, data_table

st.title("Cost")
assessment = require_assessment()
st.caption("Computational cost (ISO/IEC TS 4213 6.6): how long each model takes per sample, how many samples it "
           "handles per second, the energy it uses, and what a better score costs.")

uploaded = None
if not cost.has_cost(assessment):
    st.info(md(f"{assessment.table.name} has no `latency_ms` or `energy_j` column. Add one to the predictions file "
               "(per sample, or per batch with `batch_size`), or upload a separate cost table below: one row per "
               "call of a model with `model`, `latency_ms`, and optionally `batch_size` and `energy_j`."))
    uploaded = st.file_uploader("Cost table", type=list(ACCEPTED_EXTENSIONS),
                                key="cost_table_upload")
    if uploaded is None:
        st.stop()

names = {s.key: s.name for s in applicable_to(assessment) if s.kind != "count" and s.direction in ("higher", "lower")}
default_metric = headline_of(assessment)
left, right = st.columns(2)
metric = left.selectbox("Metric weighed against the cost", list(names), index=list(names).index(default_metric),
                        format_func=names.get)
cost_key = right.selectbox("Cost", [k for k in cost.COST_KEYS if k != "latency_mean_ms"],
                           index=1, format_func=cost.COST_NAMES.get)

try:
    table = read_upload(uploaded.getvalue(), uploaded.name) if uploaded is not None else None
    costs = cached(model_costs, assessment, table)
except AssessError as exc:
    st.error(md(str(exc)), icon=":material/error:")
    st.stop()

unknown = [m for m in costs if m not in assessment.models]
if unknown:
    st.error(md(f"The cost table names model `{unknown[0]}`, which is not a model of {assessment.table.name} "
                f"(models: {', '.join(assessment.models)})."), icon=":material/error:")
    st.stop()
if not any(cost_key in c for c in costs.values()):
    st.info(md(f"No model has a {cost.COST_NAMES[cost_key].lower()}: choose another cost."))
    st.stop()

weighed = cached(weigh, assessment, table, metric, cost_key, current_decision())
reports, efficiency = weighed.reports, weighed.efficiency
if weighed.headline is not None:
    st.info(md(weighed.headline.sentence), icon=":material/balance:")
elif weighed.no_headline:
    st.caption(md(f"No headline for this metric: {weighed.no_headline}"))
st.subheader("Cost per model")
data_table(cost.cost_frame(costs, efficiency_by_model=efficiency, metric_name=names[metric]),
           repeat=("Model",))   # a column per cost: several tables at 1024 px, each naming its models
per_batch = any(c.per_batch for c in costs.values())
st.caption(md("Values with 95% bootstrap intervals (1,000 resamples, seed 0). "
              + ("Latencies were measured per batch: each sample's share is the batch's latency divided by "
                 "`batch_size`. " if per_batch else "")
              + "Throughput is 1000 / mean latency: samples per second run back to back. Efficiency is the metric "
                "per millisecond of mean latency and per joule per sample (6.6.4)."))

colors = model_colors(assessment.models)
figures = []
points = cost.trade_off(reports, costs, metric=metric, cost_key=cost_key)
fig = trade_off_chart(points=points, metric_name=names[metric], cost_name=cost.COST_NAMES[cost_key], colors=colors,
                      title=f"{names[metric]} against {cost.COST_NAMES[cost_key].lower()}")
figures.append(fig)
chart(fig, "Accuracy–cost trade-off", key="cost_trade_off")
st.caption("Filled markers are on the Pareto front: no other model is both better and cheaper. Bars are 95% "
           "intervals.")
latency_models = {m: (c.latencies, c.weights) for m, c in costs.items() if "latency_p95_ms" in c}
if latency_models:
    fig = latency_distribution_chart(latencies=latency_models,
                                     p95={m: costs[m]["latency_p95_ms"].value for m in latency_models}, colors=colors)
    figures.append(fig)
    chart(fig, "Latency distribution", key="cost_latency")
all_charts_button(figures, "cost.pdf", key="cost")
