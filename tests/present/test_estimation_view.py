"""The Metrics page's estimation section, Streamlit-free (assess/present/estimation_view.py and
assess/present/charts/estimation.py): the backtest's equal chunks in file order, their names, the table of one
model's estimate, and the chart's traces and plain text."""

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.present.charts.estimation import backtest_chart
from assess.present.charts.style import TEMPLATE
from assess.analyses.estimation import estimated_section
from assess.present.estimation_view import (backtest_chunks, backtest_table, chunk_names, estimate_view, estimates_json,
                                            heading)


def unlabelled_file(n=400, hidden=100, seed=1):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 2, n).round(4)
    y = (rng.random(n) < p).astype(int).astype(object)
    y[n - hidden:] = None
    frame = pd.DataFrame({"y_true": y, "score": p, "model": "<b>m</b>"})
    return describe(read_table(frame.to_csv(index=False).encode(), name="f.csv")), p


def test_chunks_are_equal_in_file_order_and_named_by_their_rows():
    chunks = backtest_chunks(300)          # 5 chunks of 60 rows
    assert np.bincount(chunks).tolist() == [60] * 5 and (np.diff(chunks) >= 0).all()
    assert chunk_names(chunks) == ["rows 1–60", "rows 61–120", "rows 121–180", "rows 181–240", "rows 241–300"]
    assert np.bincount(backtest_chunks(120)).tolist() == [60, 60]    # at least 50 rows a chunk
    assert backtest_chunks(99).size == 0
    assert chunk_names(backtest_chunks(1_234))[0] == "rows 1–247"   # chunk ⌊5i / 1,234⌋ = 0 for i ≤ 246


def test_estimate_table_and_backtest_chart():
    a, _ = unlabelled_file()
    assert heading(a) == "Estimated on 100 unlabelled rows"
    view = estimate_view(a, "<b>m</b>", n_resamples=100)
    assert view.undefined is None and view.table["metric"].tolist() == ["Accuracy", "Precision", "Recall (sensitivity)",
                                                                          "F1 score", "ROC AUC"]
    assert view.calibration.startswith("Scores ") and "on 300 labelled rows" in view.calibration
    history = backtest_table(a, "<b>m</b>", n_resamples=50)
    assert history["group"].unique().tolist() == ["rows 1–60", "rows 61–120", "rows 121–180", "rows 181–240",
                                                  "rows 241–300"]
    fig = backtest_chart(history, metric="Accuracy", model="<b>m</b>", confidence_level=0.95)
    assert fig.layout.template.layout.font.family == go.layout.Template(pio.templates[TEMPLATE]).layout.font.family
    assert [t.name for t in fig.data] == ["estimated (labels hidden)",
                                                                              "realised (labels)"]
    assert "<b>m</b>" not in fig.layout.title.text            # the model's name is text, not markup
    assert list(fig.data[1].y) == history.loc[history["metric"] == "Accuracy", "realised"].tolist()


def test_the_pages_estimates_json_is_the_command_lines():
    """The Metrics page's "Estimates JSON" holds what ``python -m assess metrics`` puts under n_unlabelled,
    estimated and undefined_estimated for the same settings."""
    a, _ = unlabelled_file()
    views = [estimate_view(a, "<b>m</b>", n_resamples=100)]
    cli = estimated_section(a, ["<b>m</b>"], n_resamples=100)
    assert json.loads(estimates_json(a, views)) == json.loads(json.dumps(cli))
    no_scores = describe(read_table(b"y_true,y_pred\n1,1\n0,0\n,1\n", name="labels.csv"))
    views = [estimate_view(no_scores, "labels")]
    assert json.loads(estimates_json(no_scores, views)) == estimated_section(no_scores, ["labels"])


def test_a_backtest_by_period_gives_each_months_realised_accuracy_in_time_order():
    """The Over time page's backtest: groups are the labelled rows' months (`labelled_periods`), in time order, named
    as sentences name them, each month's realised accuracy scikit-learn's on that month's rows."""
    from pathlib import Path

    from sklearn.metrics import accuracy_score

    from assess.analyses.over_time import labelled_periods, period_words

    path = Path(__file__).resolve().parents[2] / "assets/samples/churn_over_time.csv"
    data = pd.read_csv(path)
    late = data.date >= "2024-11-01"
    blanked = data.assign(y_true=data.y_true.where(~late))
    assessment = describe(read_table(blanked.to_csv(index=False).encode(), name="churn.csv"))
    codes, starts = labelled_periods(assessment, "logistic", "month")
    names = [period_words(s, "month") for s in starts]
    table = backtest_table(assessment, "logistic", groups=codes, names=names, n_resamples=100)
    accuracy = table[table.key == "accuracy"]
    rows = data[(data.model == "logistic") & ~late]
    months = pd.to_datetime(rows.date).dt.to_period("M")
    expected = [accuracy_score(part.y_true, part.y_pred) for _, part in rows.groupby(months)]
    assert accuracy["group"].tolist() == [f"{m:%B %Y}" for m in sorted(months.unique())]
    assert np.allclose(accuracy["realised"], expected)
    assert (accuracy["low"] <= accuracy["estimated"]).all() and (accuracy["estimated"] <= accuracy["high"]).all()


def test_heading_counts_the_rows_each_models_tab_is_estimated_on():
    """Walk of issue 35: three models' 243 unlabelled rows were headed "Estimated on 243 unlabelled rows" above tabs
    each estimated on 81. Oracle: pandas' count of empty truths per model in the file."""
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"id": np.tile(np.arange(90), 3), "model": np.repeat(["a", "b", "c"], 90),
                          "score": rng.random(270).round(3)})
    frame["y_true"] = (rng.random(270) < frame["score"]).astype(int).astype(object)
    frame.loc[frame["id"] % 10 == 0, "y_true"] = None
    per_model = frame["y_true"].isna().groupby(frame["model"]).sum()
    assert per_model.tolist() == [9, 9, 9]
    a = describe(read_table(frame.to_csv(index=False).encode(), name="f.csv"))
    assert heading(a) == "Estimated on 9 unlabelled rows per model"
    frame.loc[(frame["model"] == "c") & (frame["id"] == 1), "y_true"] = None    # c now has 10
    a = describe(read_table(frame.to_csv(index=False).encode(), name="f.csv"))
    assert heading(a) == "Estimated on 28 unlabelled rows of 3 models"


def test_calibration_sentence_reads_with_one_pair_of_parentheses():
    """Walk of issue 35: the sentence read "…: 488 labelled rows cannot show the scores calibrated (ECE 0.021 (0.000–
    0.076, 95% simultaneous) reaches above 0.05): Platt scaling, which keeps …" — parentheses in parentheses and a
    colon after a colon. Oracle: the ECE and its interval the estimate itself reports, written by hand here."""
    a, _ = unlabelled_file()
    view = estimate_view(a, "<b>m</b>", n_resamples=100)
    est = view.json["calibration"]
    (ece,), ((low, high),) = est["ece"], est["ece_interval"]
    assert est["method"] == "platt" and high > 0.05       # 300 rows cannot show it within 0.05
    assert view.calibration == (f"Scores recalibrated by Platt scaling on 300 labelled rows: 300 labelled rows cannot "
                                f"show the scores calibrated (ECE {ece:.3f}, 95% simultaneous interval {low:.3f}–"
                                f"{high:.3f}: it reaches above 0.05); Platt scaling keeps calibrated scores nearly as "
                                f"they are and carries its own uncertainty into the interval.")
    assert view.calibration.count("(") == 1
