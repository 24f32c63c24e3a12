"""AppTest of the Over time page on the churn sample: accuracy per month equals scikit-learn on each month's rows, the
change sentences and table, the reference choices; and a file without time stamps."""

import contextlib
import io
import json

import pandas as pd
from sklearn.metrics import accuracy_score

from assess.cli import main
from tests.conftest import ROOT, joined_table, open_app
from ui.state import SAMPLES

SAMPLE = next(title for title, file in SAMPLES.items() if file == "churn_over_time.csv")


def test_churn_sample_month_by_month():
    at = open_app("views/over_time.py", sample=SAMPLE)
    assert not at.exception and not at.error
    assert at.selectbox(key="time_period").value == "Quarter"     # the coarsest period giving ≥ 4 of them
    at.selectbox(key="time_period").set_value("Month")
    at.selectbox(key="time_metric").set_value("accuracy")
    at.selectbox(key="time_model").set_value("logistic").run()
    assert not at.exception and not at.error
    table = joined_table(at, 0, "Period")
    data = pd.read_csv(ROOT / "assets/samples/churn_over_time.csv")
    rows = data[data.model == "logistic"]
    months = pd.to_datetime(rows.date).dt.to_period("M").dt.start_time.dt.strftime("%Y-%m-%d")
    for month, part in rows.groupby(months):
        assert table.loc[month, "Value"] == f"{accuracy_score(part.y_true, part.y_pred):.3f}"
        assert table.loc[month, "Rows"] == f"{len(part):,}"
    assert table.loc["2024-01-01", "Change"] == "reference"
    sentences = [m.value.replace("\\", "") for m in at.markdown if m.value.startswith("In ")]   # md() escapes
    assert len(sentences) == 11
    july = next(s for s in sentences if s.startswith("In July 2024 accuracy fell to"))
    assert "the drop is significant" in july and "first period (January 2024)" in july
    assert "None" not in " ".join(sentences)

    at.selectbox(key="time_reference").set_value("The first k periods").run()
    at.number_input(key="time_k").set_value(6).run()
    assert not at.exception and not at.error
    table = joined_table(at, 0, "Period")
    assert (table["Change"] == "reference").sum() == 6
    assert all("first 6 periods (January 2024 to June 2024)" in m.value.replace("\\", "") for m in at.markdown
               if m.value.startswith("In "))


def test_a_file_without_time_stamps_is_told_why():
    at = open_app("views/over_time.py")
    assert not at.exception
    assert any("needs a time-stamp column" in i.value for i in at.info)


def test_a_date_range_reference():
    at = open_app("views/over_time.py", sample=SAMPLE)
    at.selectbox(key="time_period").set_value("Month")
    at.selectbox(key="time_reference").set_value("A date range").run()
    assert not at.exception and not at.error
    assert at.date_input(key="time_range").value == (pd.Timestamp("2024-01-01").date(),
                                                     pd.Timestamp("2024-04-01").date())   # a quarter of the span
    table = joined_table(at, 0, "Period")
    assert list(table.index[table["Change"] == "reference"]) == ["2024-01-01", "2024-02-01", "2024-03-01"]
    assert any("the reference period 2024-01-01 to 2024-04-01" in c.value.replace("\\", "") for c in at.caption)


def test_a_periods_drill_down_shows_exactly_that_periods_rows():
    """The rows behind a period's number (issue 35): the rows a month's accuracy counts, by pandas on the file."""
    import re

    at = open_app("views/over_time.py", sample=SAMPLE)
    at.selectbox(key="time_period").set_value("Month")
    at.selectbox(key="time_model").set_value("logistic").run()
    [period] = [s for s in at.selectbox if s.key == "period_rows_period_logistic"]
    data = pd.read_csv(ROOT / "assets/samples/churn_over_time.csv").query("model == 'logistic'")
    july = data[pd.to_datetime(data.date).dt.to_period("M") == pd.Period("2024-07")]
    label = next(o for o in period.options if o.startswith("July 2024"))
    assert label == f"July 2024 ({len(july):,} rows)"
    period.set_value(period.options.index(label)).run()
    assert not at.exception and not at.error
    caption = next(re.sub(r"\\(.)", r"\1", c.value) for c in at.caption if c.value.startswith("Rows "))
    assert caption.startswith(f"Rows 1–25 of {len(july):,}")
    assert at.dataframe[-1].value["id"].tolist() == july.id.head(25).tolist()


def test_periods_whose_labels_have_not_arrived_show_their_estimate(tmp_path):
    """The churn sample with December's labels blanked: December counts its rows, none labelled, and its accuracy
    estimated by CBPE is what ``metrics --by-time month`` gives for it (one answer on both surfaces); the chart
    draws it as an open marker."""
    data = pd.read_csv(ROOT / "assets/samples/churn_over_time.csv")
    late = data.date >= "2024-12-01"
    blanked = data.assign(y_true=data.y_true.where(~late)).to_csv(index=False)
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("churn_recent.csv", blanked.encode(), "text/csv").run()
    at.switch_page("views/over_time.py").run()
    at.selectbox(key="time_period").set_value("Month")
    at.selectbox(key="time_metric").set_value("accuracy")
    at.selectbox(key="time_model").set_value("logistic").run()
    assert not at.exception and not at.error
    table = joined_table(at, 0, "Period")
    december = table.loc["2024-12-01"]
    assert december["Labelled"] == "0" and december["Rows"] == f"{int((late & (data.model == 'logistic')).sum()):,}"
    path = tmp_path / "churn_recent.csv"
    path.write_text(blanked)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["metrics", str(path), "--by-time", "month", "--metrics", "accuracy", "--quiet"]) == 0
    cli = json.loads(out.getvalue())["by_time"]["logistic"]["2024-12-01"]["estimated"]["accuracy"]
    assert december["Estimated (no labels yet)"] == f"{cli['value']:.3f} ({cli['low']:.3f}–{cli['high']:.3f})"
    assert table.loc["2024-11-01", "Estimated (no labels yet)"] == "—"
    assert any(c.value.replace("\\", "").startswith("Open markers: Accuracy estimated") for c in at.caption)
    assert "How close the estimate came on labelled periods" in [h.value for h in at.subheader]
