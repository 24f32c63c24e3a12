"""AppTest of the Cost page: the measured-latency sample's table, headline and charts agree with numpy and
`assess.analyses.cost`; a file without cost columns asks for a cost table, and a bad one is refused with its row."""

import json

import numpy as np
import pandas as pd

from tests.conftest import ROOT, joined_table, open_app

LATENCY = "Breast cancer with measured latencies — binary, 4 models"


def figures(at) -> dict[str, dict]:
    return {json.loads(e.proto.spec)["layout"]["title"]["text"]: json.loads(e.proto.spec)
            for e in at.get("plotly_chart")}


def test_cost_page_on_the_latency_sample():
    at = open_app("views/cost.py", sample=LATENCY)
    assert not at.exception and not at.error
    [sentence] = [i.value.replace("\\", "") for i in at.info]   # md() escapes Markdown punctuation
    # the file's headline metric (registry.headline: ROC AUC, the file has scores) against the cost
    assert "points better on ROC AUC (95% CI " in sentence and "at the 95th percentile" in sentence
    table = joined_table(at, 0, "Model").reset_index()   # a column per cost: shown as several tables
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_latency.csv")
    forest = data[data.model == "forest_300"]
    p95 = np.percentile(forest.latency_ms / forest.batch_size, 95)
    shown = table.set_index("Model").loc["forest_300", "95th-percentile latency (ms)"]
    assert shown.startswith(f"{p95:.2f}") or shown.startswith(f"{p95:.3f}") or shown.startswith(f"{p95:.1f}")
    assert table.set_index("Model").loc["forest_300", "Samples measured"] == "569"
    assert "latency_p95_ms" not in " ".join(table.columns)          # display names, never raw keys
    drawn = figures(at)
    assert set(drawn) == {"ROC AUC against 95th-percentile latency (ms)", "Latency per sample"}
    trade = drawn["ROC AUC against 95th-percentile latency (ms)"]
    assert trade["layout"]["xaxis"]["type"] == "log"
    forest_point = next(t for t in trade["data"] if t["name"].startswith("forest_300"))
    assert forest_point["x"][0] == np.float64(p95) or abs(forest_point["x"][0] - p95) < 1e-9


def test_cost_page_switches_metric_and_cost():
    at = open_app("views/cost.py", sample=LATENCY)
    at.selectbox[0].set_value("f1").run()
    at.selectbox[1].set_value("throughput_per_s").run()
    assert not at.exception
    assert any("in throughput" in i.value.replace("\\", "") for i in at.info)


def test_file_without_cost_takes_a_cost_table_and_names_a_bad_row():
    at = open_app("views/cost.py")
    assert not at.exception
    assert "latency" in at.info[0].value and not at.dataframe
    at.file_uploader[0].upload("timings.csv", b"model,latency_ms\nlogistic,2.0\ntree,-1\n", "text/csv").run()
    assert not at.exception
    assert at.error[0].value.replace("\\", "").startswith("timings.csv: column `latency_ms` has 1 value that is "
                                                          "negative")
    at.file_uploader[0].upload("timings.csv", b"model,latency_ms,batch_size\nlogistic,8.0,4\ntree,1.0,1\n",
                               "text/csv").run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value.set_index("Model")
    assert list(table.index) == ["logistic", "tree"] and table.loc["logistic", "Samples measured"] == "4"
    assert table.loc["logistic", "Mean latency (ms per sample)"].startswith("2.000")
