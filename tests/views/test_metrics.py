"""AppTest of the Metrics page on both samples, and the page guard."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import recall_score

from tests.conftest import ROOT, open_app


@pytest.fixture
def metrics_page():
    return open_app("views/metrics.py")


def test_binary_sample_table_sentences_and_downloads(metrics_page):
    at = metrics_page
    frames = [d.value for d in at.dataframe]
    models = ["logistic", "tree", "naive_bayes_3f"]

    def joined(parts):   # a table split to fit the page: its parts side by side again, by metric
        whole = pd.concat([p.drop(columns="key", errors="ignore").set_index("metric") for p in parts], axis=1)
        return whole.loc[:, ~whole.columns.duplicated()].reset_index()

    comparison = joined([f for f in frames if "better" in f.columns])
    assert list(comparison.columns) == ["metric", "better", *models]
    # the sample has a fold column: the folds' spread of each model, side by side in a table of its own
    spreads = joined([f for f in frames if "better" not in f.columns and set(f.columns) <= {"metric", "key", *models}])
    assert list(spreads.columns) == ["metric", *models]
    better = comparison.set_index("metric")["better"]
    assert better["Brier score"] == better["Log loss"] == "lower ↓" and better["ROC AUC"] == "higher ↑"
    assert better["True positives"] == ""
    recall_row = comparison.set_index("metric").loc["Recall (sensitivity)"]
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    tree = data[data.model == "tree"]
    expected = recall_score(tree.y_true, tree.y_pred, pos_label="malignant")  # independent oracle
    assert recall_row["tree"].startswith(f"{expected:.3f} (")
    assert recall_row["logistic"].endswith("★")
    per_fold = [recall_score(f.y_true, f.y_pred, pos_label="malignant") for _, f in tree.groupby("fold")]
    recall_spread = spreads.set_index("metric").loc["Recall (sensitivity)", "tree"]
    assert recall_spread == f"{np.mean(per_fold):.3f} ± {np.std(per_fold, ddof=1):.3f}"
    assert "True positives" not in set(spreads["metric"])     # no fractional mean count
    sentences = [m.value for m in at.markdown if "recall is" in m.value]
    assert len(sentences) == 3 and "malignant cases" in sentences[0]
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Metrics CSV", "Metrics JSON", "Rows CSV"]   # the last: the most confidently wrong rows


def test_change_ci_method_and_metric(metrics_page):
    at = metrics_page
    [ci] = [s for s in at.selectbox if s.label == "Confidence interval"]
    ci.set_value("none").run()
    assert not at.exception
    comparison = at.dataframe[0].value.set_index("key")
    assert "(" not in comparison.loc["accuracy", "tree"]
    [group] = [m for m in at.multiselect if m.label == "Threshold metrics"]
    group.set_value(["fbeta"]).run()
    [beta] = [n for n in at.number_input if n.label == "β of F-beta"]
    beta.set_value(2.0).run()
    assert not at.exception
    keys = at.dataframe[0].value["key"].tolist()
    assert "fbeta" in keys and "precision" not in keys


def test_threshold_derives_labels_from_scores(metrics_page):
    at = metrics_page
    [source] = [r for r in at.radio if r.label == "Labels from"]
    source.set_value("scores").run()
    [threshold] = [n for n in at.number_input if n.label == "Threshold (score ≥ threshold is positive)"]
    threshold.set_value(0.9).run()
    assert not at.exception
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    tree = data[data.model == "tree"]
    expected = recall_score(tree.y_true == "malignant", tree.score >= 0.9)
    assert at.dataframe[0].value.set_index("metric").loc["Recall (sensitivity)", "tree"].startswith(f"{expected:.3f}")


def test_multiclass_sample_has_per_class_table():
    at = open_app("views/metrics.py", sample="Wine — multi-class, 2 models")
    per_class = [d.value for d in at.dataframe if "class" in d.value.columns]
    assert per_class and set(per_class[0]["class"]) == {"barbera", "barolo", "grignolino"}
    assert np.all(per_class[0]["recall"].between(0, 1))


def test_guard_when_data_has_errors():
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("bad.csv", b"y_true,y_pred\n1,0\n0,\n", "text/csv").run()
    at.switch_page("views/metrics.py").run()
    assert [i.value for i in at.info] == ["Load a predictions file without blocking errors first."]
    assert [t.value for t in at.title] == ["Metrics"]       # the page keeps its title above the guard


def test_large_upload_defaults_to_fewer_resamples():
    rng = np.random.default_rng(0)
    n = 120_000
    frame = pd.DataFrame({"y_true": rng.integers(0, 2, n), "score": rng.random(n).round(4)})
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("big.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    [n_resamples] = [n for n in at.number_input if n.label == "Bootstrap resamples"]
    assert n_resamples.value == 200
