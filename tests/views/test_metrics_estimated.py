"""AppTest of unlabelled rows (issue 35 §3): the Data page counts them in a warning, not an error, and the Metrics page
shows "Estimated on N unlabelled rows" with each metric's estimate and interval, the assumption, the calibration and
the backtest chart; the estimates are `assess.analyses.estimation.estimate`'s on the same rows."""

import numpy as np
import pandas as pd
import pytest

from assess.analyses.estimation import estimate
from tests.conftest import open_app


def test_unlabelled_rows_on_the_data_and_metrics_pages():
    rng = np.random.default_rng(7)
    p = rng.beta(2, 2, 400).round(4)
    y = (rng.random(400) < p).astype(int)
    frame = pd.DataFrame({"id": range(400), "y_true": pd.array(y, dtype="Int64"), "score": p})
    frame.loc[300:, "y_true"] = pd.NA
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("recent.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert not at.exception and not at.error
    assert any("100 empty values" in w.value and "unlabelled rows" in w.value for w in at.warning)
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    assert [h.value for h in at.subheader if "unlabelled" in h.value] == ["Estimated on 100 unlabelled rows"]
    assert any("no concept drift" in c.value for c in at.caption)
    [table] = [d.value for d in at.dataframe if "estimate" in d.value.columns]
    expected = estimate(y[:300], p[:300], p[300:], classes=("0", "1"), n_resamples=1000)
    shown = table.set_index("metric")["estimate"].astype(float)
    assert shown["Accuracy"] == pytest.approx(expected.values["accuracy"], abs=5e-4)
    assert shown["ROC AUC"] == pytest.approx(expected.values["roc_auc"], abs=5e-4)
    assert any(c.value.startswith("Scores recalibrated by Platt scaling on 300 labelled rows") or
               c.value.startswith("Scores used as they are on 300 labelled rows") for c in at.caption)
    assert [s.label for s in at.selectbox if s.label == "Backtest metric"] == ["Backtest metric"]
    assert "Estimates JSON" in [b.label for b in at.get("download_button")]
