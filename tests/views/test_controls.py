"""AppTest of the Controls page: the checklist, the annotators' agreement (Cohen's κ against scikit-learn) and the
shift table and chart on the samples; a training-id file of another id type gives one clear error."""

import json

import pandas as pd
from sklearn.metrics import cohen_kappa_score

from tests.conftest import ROOT, open_app

BINARY = "Breast cancer — binary, 3 models, 5 folds"


def test_controls_page_on_the_binary_sample_compares_folds():
    at = open_app("views/controls.py", sample=BINARY)
    assert not at.exception and not at.error
    checklist = at.dataframe[0].value
    assert list(checklist["Control"])[0] == "Test data disjoint from training data"
    assert "– not checked" in set(checklist["Status"])
    # the shift table, split into tables that each fit the page, each repeating the group
    parts = [d.value.set_index("Group") for d in at.dataframe[1:] if "Group" in d.value.columns]
    assert len(parts) >= 2
    shift = pd.concat(parts, axis=1).reset_index()
    assert list(shift["Group"]) == ["1 (reference)", "2", "3", "4", "5"]
    assert "psi" not in shift.columns and "PSI" in shift.columns
    [spec] = [json.loads(e.proto.spec) for e in at.get("plotly_chart")]
    assert spec["layout"]["title"]["text"] == "Score distribution per group of fold"
    assert len(spec["data"]) == 5


def test_controls_page_with_annotators_and_a_bad_training_file():
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    data = (ROOT / "assets/samples/breast_cancer_annotators.csv").read_bytes()
    at.file_uploader[0].upload("annotators.csv", data, "text/csv").run()
    at.switch_page("views/controls.py").run()
    assert not at.exception and not at.error
    frame = pd.read_csv(ROOT / "assets/samples/breast_cancer_annotators.csv")
    items = frame[frame.model == "logistic"]
    pairs = at.dataframe[1].value
    kappa = cohen_kappa_score(items.y_true_reader_a, items.y_true_reader_b)
    assert pairs.loc[0, "Annotators"] == "reader_a and reader_b" and pairs.loc[0, "Cohen's κ"] == f"{kappa:.3f}"
    at.file_uploader[0].upload("train.csv", b"sample_id\nP-001\nP-002\n", "text/csv").run()
    assert not at.exception
    assert "holds ids that are text" in at.error[0].value


def test_a_split_column_is_checked_and_its_training_rows_are_flagged():
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    frame = pd.DataFrame({"id": [1, 2, 3, 4, 2, 5], "split": ["train", "train", "test", "test", "test", "test"],
                          "y_true": [0, 1, 0, 1, 1, 0], "y_pred": [0, 1, 1, 1, 1, 0], "x_a": [5, 6, 7, 5, 6, 8]})
    at.file_uploader[0].upload("split.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/controls.py").run()
    assert not at.exception
    assert "count every row, training rows included" in at.warning[0].value.replace("\\", "")
    checklist = at.dataframe[0].value.set_index("Control")
    assert checklist.loc["Test data disjoint from training data", "Status"] == "✗ problem"
    assert "1 of 4 test ids" in checklist.loc["Test data disjoint from training data", "What the app checked"]
    # a grid shows text literally: a column is quoted, not wrapped in Markdown's backticks
    assert not checklist["What the app checked"].str.contains("`").any()
    assert checklist["What the app checked"].str.contains("‘split’").any()
