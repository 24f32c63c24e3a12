"""AppTest of the Confusion page: matrices against scikit-learn, the cost matrix, confused pairs, multi-label."""

import json

import numpy as np
import pandas as pd
from sklearn.metrics import confusion_matrix

from tests.conftest import ROOT, open_app


def open_page(sample=None):
    return open_app("views/confusion.py", sample=sample)


def cell_counts(at, title):
    for element in at.get("plotly_chart"):
        spec = json.loads(element.proto.spec)
        if spec["layout"]["title"]["text"] == title:
            return [int(t.split("<br>")[0].replace(",", "")) for t in np.ravel(spec["data"][0]["text"])]
    raise AssertionError(title)


def test_multiclass_matrices_pairs_and_cost():
    at = open_page("Wine — multi-class, 2 models")
    data = pd.read_csv(ROOT / "assets/samples/wine_multiclass.csv").query("model == 'forest'")
    classes = ["barbera", "barolo", "grignolino"]
    expected = confusion_matrix(data.y_true, data.y_pred, labels=classes).ravel().tolist()
    assert cell_counts(at, "forest") == expected
    pairs = [d.value for d in at.dataframe if "predicted_class" in d.value.columns][0]
    assert set(pairs["model"]) <= {"logistic", "forest"}
    cost = [d.value for d in at.dataframe if "expected cost per sample" in d.value.columns][0]
    errors = (data.y_true != data.y_pred).mean()  # unit costs: expected cost = error rate
    assert cost.set_index("model").loc["forest", "expected cost per sample"] == np.float64(errors)


def test_binary_uses_label_column_and_shows_no_pairs():
    at = open_page()
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv").query("model == 'tree'")
    assert cell_counts(at, "tree") == confusion_matrix(data.y_true, data.y_pred,
                                                       labels=["benign", "malignant"]).ravel().tolist()
    assert not [d for d in at.dataframe if "predicted_class" in d.value.columns]
    assert any("predicted-label column" in c.value.replace("\\", "") for c in at.caption)


def _upload(at, frame):
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("pairs.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    return at.switch_page("views/confusion.py").run()


def test_no_confused_pair_is_a_sentence_not_an_empty_table():
    """Every row predicted as its class: "Most confused pairs" says so (the table widget ended the page on a
    ``ValueError`` counting wrapped lines in no cell); with one error the pair is listed, its long class names
    wrapped so the count and share stay in view."""
    names = ["Invoice — duplicate payment to the same supplier", "Invoice — paid on time", "Credit note"]
    truth = np.array(names * 20, dtype=object)
    at = _upload(open_app(), pd.DataFrame({"y_true": truth, "y_pred": truth}))
    assert not at.exception
    assert not [d for d in at.dataframe if "predicted_class" in d.value.columns]
    assert any("no pair of classes is confused" in c.value for c in at.caption)
    wrong = truth.copy()
    wrong[0] = names[1]
    at = _upload(open_app(), pd.DataFrame({"y_true": truth, "y_pred": wrong}))
    assert not at.exception
    pairs, = [d for d in at.dataframe if "predicted_class" in d.value.columns]
    assert pairs.value[["true_class", "predicted_class", "count"]].values.tolist() == [[names[0], names[1], 1]]
    assert pairs.proto.row_height > 64   # the long names wrap onto two lines
