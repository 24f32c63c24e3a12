"""AppTest of the Metrics page: the ECE, once chosen, shows its interval and names its method (simultaneous
Clopper–Pearson bins) in the page's list of interval methods."""

import pandas as pd

from tests.conftest import ROOT, open_app


def test_ece_interval_and_its_method_on_the_metrics_page():
    at = open_app("views/metrics.py")
    [group] = [m for m in at.multiselect if m.label == "Probabilistic"]
    group.set_value([*group.value, "ece"]).run()
    assert not at.exception
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    models = list(dict.fromkeys(data.model))
    rows = [frame.value.set_index("metric").loc["Expected calibration error", "value"] for frame in at.dataframe
            if "value" in frame.value.columns and "Expected calibration error" in set(frame.value["metric"])]
    assert len(rows) == len(models)
    for cell in rows:                             # "0.045 (0.009–0.116)": the interval holds the value
        value, low, high = (float(x) for x in cell.replace("(", " ").replace(")", " ").replace("–", " ").split())
        assert low <= value <= high
    methods = [m.value for m in [*at.markdown, *at.caption] if m.value.startswith("Intervals")]
    assert len(methods) == len(models)
    assert all("Simultaneous Clopper–Pearson bins, conditional on the scores for Expected calibration error" in
               m.replace("\\", "") for m in methods)
