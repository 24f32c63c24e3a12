"""The report's "Over time" section (issue 35): each model's accuracy per period of the time stamps with its
interval, the change against the first period and the sentences of the significant changes. Oracle: scikit-learn's
accuracy_score on each quarter's rows; the section is absent without time stamps."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.present.report import ReportOptions, build_report, render_html
from assess.present.report.render import report_document

OPTIONS = ReportOptions(ci="", n_resamples=100, charts=False)


def dated(n=800, seed=2) -> pd.DataFrame:
    """Two models over 2024; model `a` turns to guessing in the second half (a drop)."""
    rng = np.random.default_rng(seed)
    date = np.sort(rng.choice(pd.date_range("2024-01-01", "2024-12-31").to_numpy(), n))
    y = rng.integers(0, 2, n)
    late = date >= np.datetime64("2024-07-01")
    a = np.where(late & (rng.random(n) < 0.5), rng.integers(0, 2, n), np.where(rng.random(n) < 0.9, y, 1 - y))
    b = np.where(rng.random(n) < 0.8, y, 1 - y)
    days = pd.DatetimeIndex(date).strftime("%Y-%m-%d")
    return pd.DataFrame({"model": np.repeat(["a", "b"], n), "date": np.tile(days, 2), "y_true": np.tile(y, 2),
                         "y_pred": np.concatenate([a, b])})


def test_accuracy_per_quarter_with_its_change_and_sentences():
    frame = dated()
    report = build_report(describe(read_table(frame.to_csv(index=False).encode(), name="f.csv")), OPTIONS)
    ot = report.over_time
    assert ot is not None and ot.column == "date" and ot.period == "quarter" and ot.name == "Accuracy"
    quarters = pd.to_datetime(frame["date"]).dt.to_period("Q").dt.start_time.dt.strftime("%Y-%m-%d")
    rows = {(r["model"], r["period"]): r for r in ot.rows}
    for (model, quarter), part in frame.groupby([frame["model"], quarters]):
        assert rows[(model, quarter)]["value"] == pytest.approx(accuracy_score(part.y_true, part.y_pred))
        assert rows[(model, quarter)]["n"] == len(part)
    assert rows[("a", "2024-01-01")]["reference"] and np.isnan(rows[("a", "2024-01-01")]["p_adjusted"])
    assert rows[("a", "2024-10-01")]["p_adjusted"] < 0.05
    assert ot.sentences and all(s.startswith("Model a: In 2024 Q") for s in ot.sentences)
    html = render_html(report)
    assert 'id="over-time"' in html and "Over time</a>" in html
    assert "None" not in html.split('id="over-time"')[1][:3000]
    document = json.loads(json.dumps(report_document(report)))
    assert document["over_time"]["metric"] == "accuracy" and len(document["over_time"]["periods"]) == 8


def test_no_section_without_time_stamps():
    frame = dated().drop(columns="date")
    report = build_report(describe(read_table(frame.to_csv(index=False).encode(), name="f.csv")), OPTIONS)
    assert report.over_time is None and 'id="over-time"' not in render_html(report)


def test_the_header_counts_every_row_of_a_file_with_unlabelled_ones():
    """Walk of issue 35: December's truths blanked, the report's header read "(5,542 rows)" — the labelled rows only —
    for a file of 6,000. Oracle: pandas' count of the file's rows and of its empty truths."""
    frame = dated()
    frame["y_true"] = frame["y_true"].astype(object)
    frame.loc[frame["date"] >= "2024-12-01", "y_true"] = None
    rows, waiting = len(frame), int(frame["y_true"].isna().sum())
    assert waiting > 0
    report = build_report(describe(read_table(frame.to_csv(index=False).encode(), name="f.csv")), OPTIONS)
    assert f"f.csv ({rows:,} rows, {waiting:,} unlabelled)" in render_html(report)
    assert report_document(report)["rows"] == rows
