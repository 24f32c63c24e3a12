"""Files as real tools write them: Spark MLlib, H2O, scikit-learn's predict_proba, pandas/pyarrow, openpyxl, JSON.

Each file is written by the library that writes such files (pandas/pyarrow for Parquet list columns, openpyxl through
pandas for .xlsx, pandas for JSON Lines), from real scikit-learn models; Spark's own text forms (``DenseVector``'s
``[0.78,0.22]``, ``SparseVector``'s ``(2,[0],[0.78])``) and its Parquet ``VectorUDT`` struct are written exactly as
Spark writes them, since Spark is not installed here. The oracle is scikit-learn on the canonical arrays: every shape
must give the same metrics as ``y_true`` + ``score`` / ``proba_<class>`` would.
"""

import io

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_digits, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, log_loss, roc_auc_score
from sklearn.model_selection import train_test_split

from assess.core.data import Task
from assess.core.errors import InputError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.inputs.score_direction import flipped_score
from assess.metrics.reports import compute_reports


def _fit(loader, seed=0):
    X, y = loader(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.4, random_state=seed, stratify=y)
    model = LogisticRegression(max_iter=5000).fit(X_train / X_train.max(0).clip(1e-9), y_train)
    return model, model.predict_proba(X_test / X_train.max(0).clip(1e-9)), y_test


@pytest.fixture(scope="module")
def binary():
    """A breast-cancer classifier: classes_ (0, 1), its probabilities and labels on the test rows."""
    model, proba, y = _fit(load_breast_cancer)
    return model, proba, y


@pytest.fixture(scope="module")
def iris():
    model, proba, y = _fit(load_iris)
    names = np.array(load_iris().target_names)
    return names, proba, names[y]


@pytest.fixture(scope="module")
def digits():
    model, proba, y = _fit(load_digits)
    return model, proba, y


def metrics(data: bytes, name: str, keys, overrides=None):
    a = describe(read_table(data, name=name), overrides)
    assert not a.errors, a.errors
    report = next(iter(compute_reports(a, keys=keys).values()))
    return a, report.values


def binary_oracle(proba, y):
    return {"roc_auc": roc_auc_score(y, proba[:, 1]), "log_loss": log_loss(y, proba[:, 1]),
            "brier_score": float(np.mean((proba[:, 1] - y) ** 2))}


def assert_binary_like_sklearn(a, values, proba, y):
    assert (a.task, a.positive) == (Task.BINARY, "1")
    for key, expected in binary_oracle(proba, y).items():
        assert values[key] == pytest.approx(expected, rel=1e-6, abs=1e-9), key


# --- Spark MLlib ----------------------------------------------------------------------------------------------------

def spark_dense(v) -> str:
    """pyspark.ml.linalg.DenseVector.__str__: '[' + ','.join(str(float)) + ']'."""
    return "[" + ",".join(str(float(x)) for x in v) + "]"


def spark_frame(proba, y):
    logits = np.log(proba.clip(1e-12))
    return pd.DataFrame({"features": [spark_dense([1.0, 2.0])] * len(y), "label": y.astype(float),
                         "rawPrediction": [spark_dense(r) for r in logits],
                         "probability": [spark_dense(r) for r in proba],
                         "prediction": proba.argmax(1).astype(float)})


def test_spark_csv_vector_strings_give_sklearns_metrics(binary):
    _, proba, y = binary
    a, values = metrics(spark_frame(proba, y).to_csv(index=False).encode(), "spark.csv",
                        ["roc_auc", "log_loss", "brier_score", "accuracy"])
    assert a.roles.y_true == "label" and a.roles.y_pred == "prediction"
    assert dict(a.roles.class_scores) == {"0": "probability_0", "1": "probability_1"}
    assert_binary_like_sklearn(a, values, proba, y)
    assert values["accuracy"] == pytest.approx(accuracy_score(y, proba.argmax(1)))
    assert any(n.startswith("column `probability` holds a vector of 2 numbers per row") for n in a.table.notes)


def test_spark_multiclass_parquet_vector_struct(iris):
    """Spark's VectorUDT in Parquet: struct<type: int8, size: int32, indices: list<int32>, values: list<double>>,
    dense rows type 1 with values, sparse rows type 0 with size/indices/values."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names, proba, y = iris
    codes = pd.Series(y).map({n: i for i, n in enumerate(names)}).to_numpy(float)
    vector = pa.struct([("type", pa.int8()), ("size", pa.int32()), ("indices", pa.list_(pa.int32())),
                        ("values", pa.list_(pa.float64()))])
    cells = []
    for i, row in enumerate(proba):
        if i % 2:  # sparse: the non-zero elements only
            nz = np.flatnonzero(row)
            cells.append({"type": 0, "size": 3, "indices": nz.tolist(), "values": row[nz].tolist()})
        else:
            cells.append({"type": 1, "size": None, "indices": None, "values": row.tolist()})
    table = pa.table({"label": codes, "probability": pa.array(cells, type=vector),
                      "prediction": proba.argmax(1).astype(float)})
    buf = io.BytesIO()
    pq.write_table(table, buf)
    a, values = metrics(buf.getvalue(), "spark.parquet", ["roc_auc_ovr", "log_loss", "accuracy"])
    assert a.task is Task.MULTICLASS and a.classes == ("0", "1", "2")
    assert values["roc_auc_ovr"] == pytest.approx(roc_auc_score(codes, proba, multi_class="ovr"))
    assert values["log_loss"] == pytest.approx(log_loss(codes, proba))


def test_spark_sparse_vector_text():
    a = describe(read_table(b"label,probability\n1.0,\"(2,[1],[0.9])\"\n0.0,\"(2,[0,1],[0.7,0.3])\"\n",
                            name="sparse.csv"))
    assert a.frame["probability_0"].tolist() == [0.0, 0.7]
    assert a.frame["probability_1"].tolist() == [0.9, 0.3]


# --- pandas / pyarrow / openpyxl / JSON writers of list columns -----------------------------------------------------

def test_parquet_list_column_written_by_pandas(binary):
    _, proba, y = binary
    frame = pd.DataFrame({"y_true": y, "proba": list(proba)})  # a column of numpy arrays → Parquet list<double>
    buf = io.BytesIO()
    frame.to_parquet(buf)
    a, values = metrics(buf.getvalue(), "lists.parquet", ["roc_auc", "log_loss", "brier_score"])
    assert_binary_like_sklearn(a, values, proba, y)
    assert a.table.notes == (f"column `proba` holds a vector of 2 numbers per row (e.g. [{proba[0, 0]:g}, "
                             f"{proba[0, 1]:g}]): expanded into the columns `proba_0` and `proba_1`, element i read "
                             "as the score of class i",)


def test_ragged_parquet_list_column_names_the_row():
    frame = pd.DataFrame({"y_true": [1, 0, 1], "proba": [[0.1, 0.9], [0.8, 0.2], [0.5]]})
    buf = io.BytesIO()
    frame.to_parquet(buf)
    with pytest.raises(InputError, match=r"column `proba` holds vectors of different lengths: 2 elements in row 1, "
                                         r"1 in row 3"):
        read_table(buf.getvalue(), name="ragged.parquet")


def test_json_lines_arrays_written_by_pandas(binary):
    _, proba, y = binary
    frame = pd.DataFrame({"target": y, "probability": [list(r) for r in proba], "pred": proba.argmax(1)})
    data = frame.to_json(orient="records", lines=True).encode()
    a, values = metrics(data, "p.jsonl", ["roc_auc", "log_loss", "brier_score"])
    assert (a.roles.y_true, a.roles.y_pred) == ("target", "pred")
    assert_binary_like_sklearn(a, values, proba, y)


def test_xlsx_vector_text_written_by_openpyxl(binary):
    _, proba, y = binary
    frame = pd.DataFrame({"actual": y, "probability": [spark_dense(r) for r in proba]})
    buf = io.BytesIO()
    frame.to_excel(buf, index=False, engine="openpyxl")
    a, values = metrics(buf.getvalue(), "p.xlsx", ["roc_auc", "log_loss", "brier_score"])
    assert_binary_like_sklearn(a, values, proba, y)


def test_numpy_array_text_as_pandas_writes_it(binary):
    """A column of numpy arrays in to_csv is their str(): '[0.78 0.22]', spaces between the numbers."""
    _, proba, y = binary
    frame = pd.DataFrame({"y_true": y, "y_proba": list(proba)})
    data = frame.to_csv(index=False).encode()
    assert b"[" in data and b"," not in data.splitlines()[1].split(b",", 1)[1]
    a, values = metrics(data, "np.csv", ["roc_auc", "log_loss", "brier_score"])
    assert_binary_like_sklearn(a, values, proba, y)


def test_list_column_of_labels_is_a_label_set():
    frame = pd.DataFrame({"y_true": [["news", "sport"], ["news"], []] * 20, "y_pred": [["news"], ["news"], []] * 20})
    buf = io.BytesIO()
    frame.to_parquet(buf)
    a = describe(read_table(buf.getvalue(), name="sets.parquet"))
    assert a.task is Task.MULTILABEL and set(a.classes) == {"news", "sport"}


def test_ragged_vectors_name_the_row():
    with pytest.raises(InputError, match=r"^r\.csv: column `probability` holds vectors of different lengths: 2 "
                                         r"elements in row 1, 3 in row 3; every row needs one score per class$"):
        read_table(b'label,probability\n1,"[0.1,0.9]"\n0,"[0.8,0.2]"\n0,"[0.8,0.1,0.1]"\n', name="r.csv")


def test_text_that_only_looks_like_a_list_stays_text():
    t = read_table(b"y_true,y_pred,comment\n1,1,[see notes]\n0,0,[x]\n", name="t.csv")
    assert list(t.frame.columns) == ["y_true", "y_pred", "comment"] and t.notes == ()


# --- H2O ------------------------------------------------------------------------------------------------------------

def test_h2o_binomial_predict_p0_p1_with_its_own_truth_column(binary):
    """h2o's model.predict(test).cbind(test[response]).as_data_frame(): predict, p0, p1 and the response column."""
    _, proba, y = binary
    frame = pd.DataFrame({"predict": proba.argmax(1), "p0": proba[:, 0], "p1": proba[:, 1], "CAPSULE": y})
    a, values = metrics(frame.to_csv(index=False).encode(), "h2o.csv", ["roc_auc", "log_loss", "brier_score"])
    assert (a.roles.y_true, a.roles.y_pred) == ("CAPSULE", "predict")
    assert dict(a.roles.class_scores) == {"0": "p0", "1": "p1"}
    assert_binary_like_sklearn(a, values, proba, y)


def test_h2o_multinomial_names_columns_after_the_levels(iris):
    names, proba, y = iris
    frame = pd.DataFrame({"predict": names[proba.argmax(1)], **{n: proba[:, i] for i, n in enumerate(names)},
                          "species": y})
    a, values = metrics(frame.to_csv(index=False).encode(), "h2o_iris.csv", ["roc_auc_ovr", "log_loss"])
    assert (a.roles.y_true, a.roles.y_pred) == ("species", "predict")
    assert values["roc_auc_ovr"] == pytest.approx(roc_auc_score(y, proba, multi_class="ovr", labels=names))
    assert values["log_loss"] == pytest.approx(log_loss(y, proba, labels=names))


# --- scikit-learn predict_proba with classes_ as the header ---------------------------------------------------------

def test_predict_proba_with_digit_classes_as_header(digits):
    model, proba, y = digits
    frame = pd.DataFrame(proba, columns=model.classes_)
    frame.insert(0, "y_true", y)
    a, values = metrics(frame.to_csv(index=False).encode(), "digits.csv", ["roc_auc_ovr", "log_loss", "accuracy"])
    assert a.task is Task.MULTICLASS and len(a.roles.class_scores) == 10
    assert "named like the classes" in a.roles.reason("class_scores")
    assert values["roc_auc_ovr"] == pytest.approx(roc_auc_score(y, proba, multi_class="ovr"))
    assert values["log_loss"] == pytest.approx(log_loss(y, proba))
    assert values["accuracy"] == pytest.approx(accuracy_score(y, proba.argmax(1)))


def test_predict_proba_with_named_classes_and_no_truth_by_name(iris):
    names, proba, y = iris
    frame = pd.DataFrame(proba, columns=names)
    frame.insert(0, "species", y)
    a, values = metrics(frame.to_csv(index=False).encode(), "iris.csv", ["roc_auc_ovr", "log_loss"])
    assert a.roles.y_true == "species"
    assert values["log_loss"] == pytest.approx(log_loss(y, proba, labels=names))


def test_numbered_proba_columns_follow_sklearns_classes_order(iris):
    """proba_0 … proba_2 for text classes: column i is classes_[i], scikit-learn's sorted order."""
    names, proba, y = iris
    frame = pd.DataFrame({"y_true": y, **{f"proba_{i}": proba[:, i] for i in range(3)}})
    a, values = metrics(frame.to_csv(index=False).encode(), "num.csv", ["log_loss"])
    assert dict(a.roles.class_scores) == {"setosa": "proba_0", "versicolor": "proba_1", "virginica": "proba_2"}
    assert values["log_loss"] == pytest.approx(log_loss(y, proba, labels=names))


def test_class_scores_mapped_by_hand_give_sklearns_metrics(binary):
    _, proba, y = binary
    frame = pd.DataFrame({"y_true": y, "benign_prob": proba[:, 1], "malignant_prob": proba[:, 0]})
    overrides = Overrides().with_role("class_scores", {"0": "malignant_prob", "1": "benign_prob"})
    a, values = metrics(frame.to_csv(index=False).encode(), "hand.csv", ["roc_auc", "log_loss", "brier_score"],
                        overrides)
    assert_binary_like_sklearn(a, values, proba, y)


# --- synonyms ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("id_name", ["row", "index", "sample_id", "uid", "idx"])
@pytest.mark.parametrize("truth,label", [("target", "pred"), ("actual", "predicted"), ("label", "prediction"),
                                         ("class", "predicted_label"), ("y_test", "predict")])
def test_synonyms(id_name, truth, label):
    a = describe(read_table(f"{id_name},{truth},{label}\n1,a,b\n2,b,b\n3,a,a\n".encode(), name="s.csv"))
    assert (a.roles.id, a.roles.y_true, a.roles.y_pred) == (id_name, truth, label)


# --- inverted scores ------------------------------------------------------------------------------------------------

def test_inverted_score_warns_and_flip_restores_sklearns_auc(binary):
    """The negative class's probability (predict_proba[:, 0]) saved as the score."""
    _, proba, y = binary
    data = pd.DataFrame({"y_true": y, "score": proba[:, 0]}).to_csv(index=False).encode()
    a = describe(read_table(data, name="inv.csv"))
    inverted = [p for p in a.warnings if p.code == "inverted_score"]
    assert len(inverted) == 1 and inverted[0].column == "score"
    assert f"is {roc_auc_score(y, proba[:, 0]):.2f}" in inverted[0].message
    overrides = Overrides()
    for role, value in flipped_score(a.roles, a.classes, a.positive):
        overrides = overrides.with_role(role, value)
    b, values = metrics(data, "inv.csv", ["roc_auc", "log_loss"], overrides)
    assert not [p for p in b.warnings if p.code == "inverted_score"]
    assert values["roc_auc"] == pytest.approx(roc_auc_score(y, proba[:, 1]))
    assert values["log_loss"] == pytest.approx(log_loss(y, proba[:, 1]))


def test_swapped_class_columns_flip_by_swapping(binary):
    _, proba, y = binary
    data = pd.DataFrame({"y_true": y, "proba_0": proba[:, 1], "proba_1": proba[:, 0]}).to_csv(index=False).encode()
    a = describe(read_table(data, name="swap.csv"))
    assert [p.code for p in a.warnings if p.code == "inverted_score"] == ["inverted_score"]
    changes = flipped_score(a.roles, a.classes, a.positive)
    assert changes == (("class_scores", {"1": "proba_0", "0": "proba_1"}),)


def test_a_weak_model_is_not_called_inverted():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    s = rng.random(200) - 0.1 * y  # AUC 0.44: a poor model, not a flipped score
    assert 0.4 < roc_auc_score(y, s) < 0.5
    a = describe(read_table(pd.DataFrame({"y_true": y, "score": s}).to_csv(index=False).encode(), name="w.csv"))
    assert not [p for p in a.problems if p.code == "inverted_score"]


def test_binary_class_columns_not_summing_to_one_are_said():
    frame = pd.DataFrame({"y_true": [0, 1] * 20, "proba_0": [0.7, 0.2] * 20, "proba_1": [0.6, 0.8] * 20})
    a = describe(read_table(frame.to_csv(index=False).encode(), name="sum.csv"))
    [p] = [p for p in a.warnings if p.code == "proba_not_normalised"]
    assert p.count == 20 and "sum 1.3" in p.message


def test_unrecognised_probability_columns_are_not_silently_ignored(binary):
    _, proba, y = binary
    frame = pd.DataFrame({"y_true": y, "y_pred": proba.argmax(1), "benign_p": proba[:, 1],
                          "malignant_p": proba[:, 0], "age": np.arange(len(y))})
    a = describe(read_table(frame.to_csv(index=False).encode(), name="u.csv"))
    [p] = [p for p in a.warnings if p.code == "unused_scores"]
    assert p.message.startswith("`benign_p`, `malignant_p` hold decimals in [0, 1] but have no role")
    # once mapped, the warning goes and the numbers are scikit-learn's
    overrides = Overrides().with_role("class_scores", {"0": "malignant_p", "1": "benign_p"})
    b, values = metrics(frame.to_csv(index=False).encode(), "u.csv", ["roc_auc", "log_loss", "brier_score"],
                        overrides)
    assert not [p for p in b.warnings if p.code == "unused_scores"]
    assert_binary_like_sklearn(b, values, proba, y)


def test_a_handful_of_rows_is_never_called_inverted():
    frame = pd.DataFrame({"y_true": [1, 0] * 9, "score": [0.1, 0.9] * 9})  # AUC 0 on 9 of each class
    a = describe(read_table(frame.to_csv(index=False).encode(), name="few.csv"))
    assert not [p for p in a.problems if p.code == "inverted_score"]
    more = pd.DataFrame({"y_true": [1, 0] * 10, "score": [0.1, 0.9] * 10})  # 10 of each: said
    b = describe(read_table(more.to_csv(index=False).encode(), name="ten.csv"))
    assert [p.code for p in b.problems if p.code == "inverted_score"] == ["inverted_score"]
