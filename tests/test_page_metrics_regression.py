"""AppTest of the Metrics page on the regression and forecast samples: the value metrics with intervals and the mean /
median baselines, no classification widget; the numbers against scikit-learn on the sample files."""

import pandas as pd
import pytest
from sklearn.metrics import mean_absolute_error, r2_score

from tests.conftest import ROOT, open_app

SAMPLES = {
    "Diabetes — regression, 3 models, 5 folds": "diabetes_regression.csv",
    "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead": "monthly_forecasts.csv",
}
CLASSIFICATION_WIDGETS = {"Labels from", "Threshold (score ≥ threshold is positive)", "β of F-beta",
                          "k of top-k accuracy"}


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_value_metrics_with_intervals_and_baselines(sample):
    at = open_app("pages/metrics.py", sample=sample)
    assert not at.exception
    labels = {w.label for kind in ("radio", "number_input", "selectbox") for w in at.get(kind)}
    assert not labels & CLASSIFICATION_WIDGETS
    [ci] = [s for s in at.selectbox if s.label == "Confidence interval"]
    assert ci.options == ["auto (bootstrap)", "none", "bootstrap (percentile)", "bootstrap (BCa)"]
    ci.set_value("none").run()              # the values alone (the bootstrap is checked in the engine's tests)
    assert not at.exception
    comparison = at.dataframe[0].value.set_index("key")
    data = pd.read_csv(ROOT / "assets/samples" / SAMPLES[sample])
    for model, rows in data.groupby("model"):
        mae = mean_absolute_error(rows.y_true, rows.y_pred)
        assert comparison.loc["mae", model].startswith(f"{mae:.2f}" if mae >= 10 else f"{mae:.3f}"), model
        r2 = r2_score(rows.y_true, rows.y_pred)
        assert comparison.loc["r2", model].startswith(f"{r2:.3f}"), model
    assert comparison.loc["mae", "better"] == "lower ↓" and comparison.loc["r2", "better"] == "higher ↑"
    best = data.groupby("model").apply(lambda g: mean_absolute_error(g.y_true, g.y_pred), include_groups=False)
    assert comparison.loc["mae", best.idxmin()].endswith("★")
    per_model = at.dataframe[1].value
    assert {"mean", "median"} <= set(per_model.columns) and "majority" not in per_model.columns
    assert "mean predictor" in " ".join(m.value for m in at.markdown)
    assert any("always predicting the mean, or the median" in c.value for c in at.caption)
    groups = {m.label for m in at.multiselect}
    assert {"Errors", "Relative errors", "Fit"} <= groups and "Threshold metrics" not in groups


def test_regression_bootstrap_intervals_show():
    at = open_app("pages/metrics.py", sample="Diabetes — regression, 3 models, 5 folds")
    [resamples] = [n for n in at.number_input if n.label == "Bootstrap resamples"]
    resamples.set_value(100).run()
    assert not at.exception
    comparison = at.dataframe[0].value.set_index("key")
    assert "–" in comparison.loc["mae", "ridge"]           # "value (low–high)"
    assert "MAE; 95% CI" in " ".join(m.value for m in at.markdown)
