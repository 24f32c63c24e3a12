"""Label counting never changes the task: many classes, many probability columns, a class without a column.

Regression tests for the hardening issue's silent wrong result: above 1,000 distinct labels the label set used to
come back empty, the task became "binary, a single class ()" and all-wrong predictions scored accuracy 1.0.
The expected numbers come from scikit-learn, not from the code under test.
"""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.cli import main
from assess.core.data import Task
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.inputs.validation import MAX_ASSESSED_CLASSES
from assess.metrics import evaluate


def _shifted(k: int, n: int) -> pd.DataFrame:
    """The issue's reproducer: truth c{i % k}, prediction c{(i + 1) % k}, so every prediction is wrong."""
    i = np.arange(n)
    return pd.DataFrame({"y_true": [f"c{j}" for j in i % k], "y_pred": [f"c{j}" for j in (i + 1) % k]})


def _describe(frame: pd.DataFrame, name="many.csv", overrides=None):
    return describe(read_table(frame.to_csv(index=False).encode(), name=name), overrides)


def test_1001_classes_all_wrong_score_zero_accuracy(tmp_path, capsys):
    frame = _shifted(1001, 2002)
    a = _describe(frame)
    assert a.task is Task.MULTICLASS and len(a.classes) == 1001
    assert not a.errors
    report = evaluate(a.predictions(), ["accuracy", "error_rate", "f1_macro"])
    assert report.values["accuracy"] == skm.accuracy_score(frame.y_true, frame.y_pred) == 0.0
    assert report.values["error_rate"] == 1.0
    assert report.values["f1_macro"] == pytest.approx(
        skm.f1_score(frame.y_true, frame.y_pred, average="macro", zero_division=0), abs=1e-12)

    path = tmp_path / "many.csv"
    frame.to_csv(path, index=False)
    assert main(["metrics", str(path), "--metrics", "accuracy", "error_rate"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["task"] == "multiclass"
    assert doc["models"]["many"] == {"accuracy": 0.0, "error_rate": 1.0}


def test_20000_classes_are_refused_not_reread_as_binary(tmp_path, capsys):
    frame = _shifted(20_000, 40_000)
    a = _describe(frame)
    assert a.task is Task.MULTICLASS and len(a.classes) == 20_000
    codes = [p.code for p in a.errors]
    assert codes == ["too_many_classes"]
    assert "20,000 distinct classes" in a.errors[0].message
    assert f"{MAX_ASSESSED_CLASSES:,}" in a.errors[0].message

    path = tmp_path / "many.csv"
    frame.to_csv(path, index=False)
    assert main(["metrics", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "20,000 distinct classes" in err and "`y_true`" in err


def test_probability_columns_of_absent_classes_are_classes_not_models():
    k, n = 1500, 60
    rng = np.random.default_rng(3)
    proba = rng.dirichlet(np.ones(k), size=n)
    frame = pd.DataFrame(proba, columns=[f"proba_c{j}" for j in range(k)])
    frame.insert(0, "y_true", [f"c{j}" for j in rng.integers(0, 30, n)])
    a = _describe(frame)
    assert a.task is Task.MULTICLASS
    assert len(a.models) == 1
    assert len(a.classes) == k and not a.errors
    report = evaluate(a.predictions(), ["accuracy", "log_loss"])
    y = np.array([int(v[1:]) for v in frame.y_true])
    assert report.values["accuracy"] == pytest.approx(skm.accuracy_score(y, proba.argmax(axis=1)), abs=1e-12)
    assert report.values["log_loss"] == pytest.approx(skm.log_loss(y, proba, labels=np.arange(k)), rel=1e-9)


def test_binary_with_one_class_column_uses_its_complement_for_the_other_class():
    frame = pd.DataFrame({"y_true": ["cat", "dog", "cat", "dog", "dog", "cat"],
                          "proba_cat": [0.9, 0.2, 0.6, 0.4, 0.7, 0.3]})
    for positive, expected_score in (("dog", 1 - frame.proba_cat), ("cat", frame.proba_cat)):
        a = _describe(frame, overrides=Overrides(positive=positive))
        assert a.task is Task.BINARY and not a.errors
        auc = evaluate(a.predictions(), ["roc_auc"]).values["roc_auc"]
        assert auc == pytest.approx(skm.roc_auc_score(frame.y_true == positive, expected_score), abs=1e-12)
        complement = [p for p in a.problems if p.code == "complement_score"]
        assert bool(complement) == (positive == "dog")
        if complement:
            assert "1 − `proba_cat`" in complement[0].message and "`dog`" in complement[0].message


def test_multiclass_class_without_a_column_and_no_labels_is_named(tmp_path, capsys):
    path = tmp_path / "three.csv"
    path.write_text("y_true,proba_cat,proba_dog\ncat,0.9,0.1\ndog,0.2,0.7\ncow,0.6,0.3\ndog,0.4,0.5\n")
    assert main(["metrics", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == ("error: three.csv: no probability column for 1 class (`cow`) and no predicted-label column: add "
                   "a `proba_<class>` column for each class, or a `y_pred` column\n")


# --- many classes: bounded work (memory and time) --------------------------------------------------------------------

def test_bootstrap_chunks_of_cell_frequencies_stay_within_the_chunk_bound():
    """A 1,500-class confusion matrix has 2.25 million cells; one chunk of 1,000 resamples of them was 16.8 GiB."""
    from assess.intervals import bootstrap_ci
    cells = 250_000
    frequencies = np.ones(cells, dtype=np.int64)
    shapes = []

    def total(counts):
        shapes.append(counts.shape)
        return counts.sum(axis=1, dtype=np.float64)

    # multinomial asked for: above 100,000 rows "auto" draws Poisson counts, whose total varies
    result = bootstrap_ci(total, frequencies=frequencies, n_resamples=40, seed=0, chunk_cells=1_000_000,
                          scheme="multinomial")
    assert max(b for b, _ in shapes[1:]) * cells <= 1_000_000 and sum(b for b, _ in shapes[1:]) == 40
    assert np.all(result.estimates == cells)  # a multinomial resample keeps the total: an exact oracle


def test_no_bootstrap_above_the_class_limit_values_kept_with_a_note():
    from assess.metrics.evaluate import MAX_BOOTSTRAP_CLASSES
    k = MAX_BOOTSTRAP_CLASSES + 1
    frame = _shifted(k, 3 * k)
    frame.loc[::2, "y_pred"] = frame.loc[::2, "y_true"]
    report = evaluate(_describe(frame).predictions(), ["accuracy", "f1_macro"], ci="bootstrap", n_resamples=50)
    assert report.values["accuracy"] == pytest.approx(skm.accuracy_score(frame.y_true, frame.y_pred), abs=1e-12)
    for key in ("accuracy", "f1_macro"):
        assert np.isnan(report[key].low) and report[key].method is None
        assert f"no bootstrap interval above {MAX_BOOTSTRAP_CLASSES} classes (this model has {k})" in report[key].note
    # Wilson intervals need no resampling and stay
    assert np.isfinite(evaluate(_describe(frame).predictions(), ["accuracy"], ci="wilson")["accuracy"].low)


def test_top_classes_matrix_keeps_every_count():
    from assess.analyses.operating_points import top_classes_matrix
    rng = np.random.default_rng(7)
    y, p = rng.integers(0, 300, 5000), rng.integers(0, 300, 5000)
    full = skm.confusion_matrix(y, p, labels=np.arange(300))
    drawn, names, pooled = top_classes_matrix(full, [f"c{j}" for j in range(300)], 30)
    assert drawn.shape == (31, 31) and pooled == 270 and names[-1] == "270 other classes"
    support = np.bincount(y, minlength=300)
    kept = [int(n[1:]) for n in names[:30]]
    assert sorted(support[kept], reverse=True) == sorted(support, reverse=True)[:30]
    assert drawn.sum() == 5000 and np.array_equal(drawn.sum(axis=1)[:30], support[kept])
    assert np.array_equal(np.diag(drawn)[:30], np.diag(full)[kept])


def test_cli_on_1500_probability_columns_gives_one_model_with_intervals_left_out(tmp_path, capsys):
    k, n = 1500, 30
    rng = np.random.default_rng(4)
    proba = rng.dirichlet(np.ones(k), size=n)
    frame = pd.DataFrame(proba, columns=[f"proba_c{j}" for j in range(k)])
    frame.insert(0, "y_true", [f"c{j}" for j in rng.integers(0, k, n)])
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    assert main(["metrics", str(path), "--metrics", "accuracy", "log_loss", "--ci", "bootstrap"]) == 0
    doc = json.loads(capsys.readouterr().out)
    y = np.array([int(v[1:]) for v in frame.y_true])
    assert list(doc["models"]) == ["wide"] and len(doc["classes"]) == k
    assert doc["models"]["wide"]["accuracy"]["value"] == pytest.approx(skm.accuracy_score(y, proba.argmax(axis=1)))
    assert doc["models"]["wide"]["log_loss"]["low"] is None
