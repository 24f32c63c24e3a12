"""Role detection, task inference, positive class, overrides, encoding and validation (assess.inputs.columns, .roles,
.tasks, .validation and .schema)."""

import doctest

import numpy as np
import pandas as pd
import pytest

from assess.core.data import Task
from assess.core.errors import AssessError
from assess.inputs import columns, tasks
from assess.inputs import roles as roles_module
from assess.inputs.assessment import describe
from assess.inputs.columns import label_strings
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides, detect_roles
from assess.inputs.validation import MIN_ROWS_NORMAL, validate
from tests.conftest import ROOT


def assess_csv(text: str, name="p.csv", overrides=None):
    return describe(read_table(text.encode(), name=name), overrides)


def frame_csv(frame: pd.DataFrame, name="p.csv", overrides=None):
    return describe(read_table(frame.to_csv(index=False).encode(), name=name), overrides)


def binary_frame(n=60, seed=0, **extra):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame({"y_true": y, "y_pred": (rng.random(n) < 0.5).astype(int), "score": rng.random(n).round(4)})
    for k, v in extra.items():
        frame[k] = v
    return frame


# --- roles -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("truth,pred,score", [("label", "prediction", "prob"), ("Target", "Predicted", "proba"),
                                              ("actual", "pred", "probability"), ("truth", "y_hat", "y_score")])
def test_synonyms_get_roles_with_reasons(truth, pred, score):
    roles = detect_roles(pd.DataFrame({truth: [0, 1], pred: [1, 1], score: [0.2, 0.7]}))
    assert (roles.y_true, roles.y_pred, roles.score) == (truth, pred, score)
    assert roles.reason("y_true") == f"`{truth}` is a common name for the ground truth (canonical name: `y_true`)"


def test_canonical_names_and_reasons():
    roles = detect_roles(pd.DataFrame(columns=["y_true", "y_pred", "score", "model", "id", "fold", "weight", "group"]))
    assert (roles.model, roles.id, roles.fold, roles.weight, roles.groups) == ("model", "id", "fold", "weight",
                                                                               ("group",))
    assert roles.reason("fold") == "`fold` is the canonical name for this role"


def test_per_class_probability_columns():
    a = assess_csv("species,proba_setosa,proba_versicolor,proba_virginica\nsetosa,0.8,0.1,0.1\n"
                   "virginica,0.1,0.2,0.7\nversicolor,0.2,0.5,0.3\n")
    assert (a.task, a.roles.y_true) == (Task.MULTICLASS, "species")
    assert a.roles.reason("y_true") == ("its values (setosa, versicolor, virginica) are the classes named by the "
                                        "probability columns `proba_<class>`")
    assert a.roles.reason("class_scores") == ("`proba_setosa`, `proba_versicolor`, `proba_virginica`: one "
                                              "probability column per class of `species`")


def test_per_class_probability_columns_with_truth():
    a = assess_csv("y_true,proba_setosa,proba_versicolor,proba_virginica\nsetosa,0.8,0.1,0.1\n"
                   "virginica,0.1,0.2,0.7\nversicolor,0.2,0.5,0.3\n")
    assert a.task is Task.MULTICLASS
    assert dict(a.roles.class_scores) == {"setosa": "proba_setosa", "versicolor": "proba_versicolor",
                                          "virginica": "proba_virginica"}
    assert a.roles.reason("class_scores") == ("`proba_setosa`, `proba_versicolor`, `proba_virginica`: one "
                                              "probability column per class of `y_true`")
    p = a.predictions()
    assert p.scores.shape == (3, 3) and p.y_pred is None
    np.testing.assert_allclose(p.scores[0], [0.8, 0.1, 0.1])  # columns follow the class order


def test_class_order_override_reorders_scores():
    text = "y_true,proba_a,proba_b,proba_c\na,0.7,0.2,0.1\nc,0.1,0.2,0.7\nb,0.2,0.5,0.3\n"
    a = assess_csv(text, overrides=Overrides(class_order=("c", "a")))
    assert a.classes == ("c", "a", "b")
    p = a.predictions()
    np.testing.assert_array_equal(p.y_true, [1, 0, 2])
    np.testing.assert_allclose(p.scores[0], [0.1, 0.7, 0.2])


def test_class_order_naming_unknown_class_is_an_error():
    with pytest.raises(AssessError, match=r"class order names `zebra`, which is not a class of p\.csv"):
        assess_csv("y_true,y_pred\na,b\nb,a\n", overrides=Overrides(class_order=("zebra",)))


def test_wide_multi_model_layout():
    a = assess_csv("id,y_true,y_pred_lr,y_pred_rf,score_lr,score_rf\n1,1,1,0,0.9,0.4\n2,0,0,0,0.2,0.1\n")
    assert a.task is Task.BINARY
    assert a.models == ("lr", "rf")
    assert a.roles.reason("wide_models").startswith("columns `y_pred_<model>`/`score_<model>` for 2 models")
    p = a.predictions("rf")
    np.testing.assert_array_equal(p.y_pred, [0, 0])
    np.testing.assert_allclose(p.scores, [0.4, 0.1])


def test_long_multi_model_layout():
    a = assess_csv("id,model,y_true,y_pred\n1,a,x,x\n2,a,y,x\n1,b,x,y\n2,b,y,y\n")
    assert a.models == ("a", "b")
    assert a.predictions("b").n == 2
    np.testing.assert_array_equal(a.predictions("b").ids, [1, 2])   # an integer id column stays integers
    with pytest.raises(AssessError, match=r"no model `c` in p\.csv \(models: a, b\)"):
        a.predictions("c")


def test_prediction_holding_probabilities_is_read_as_score():
    a = assess_csv("label,prediction\n1,0.83\n0,0.12\n1,0.4\n")
    assert a.roles.score == "prediction" and a.roles.y_pred is None
    assert "holds decimals in [0, 1]" in a.roles.reason("score")


def churn_frame(n=400, seed=3):
    """A churn file as notebooks write it: the outcome named after the event, each model's probability `pred_<model>`
    (one of them a 0/1 rule, which stays a label)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(int)
    return pd.DataFrame({"customer": np.arange(n), "churned": y,
                         "pred_xgboost_v2": np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1).round(4),
                         "pred_baseline": np.clip(rng.normal(0.35 + 0.1 * y, 0.2), 0, 1).round(4),
                         "pred_rule": (rng.random(n) < 0.3).astype(int)})


@pytest.mark.parametrize("truth_by", ["name", "hand"])
def test_wide_predictions_holding_probabilities_are_each_models_score(truth_by):
    from sklearn.metrics import accuracy_score, roc_auc_score

    from assess.metrics import evaluate

    frame = churn_frame()
    if truth_by == "name":
        a = frame_csv(frame.rename(columns={"churned": "y_true"}))
    else:   # nothing names the truth: the user chooses it, and the pred_ columns are read again with it
        with pytest.raises(AssessError, match="or choose it as the Ground truth below"):
            frame_csv(frame)
        a = frame_csv(frame, overrides=Overrides().with_role("y_true", "churned"))
    truth = a.roles.y_true
    assert a.task is Task.BINARY and a.models == ("xgboost_v2", "baseline", "rule")
    assert not [p for p in a.problems if p.blocking], a.problems
    assert {m.name: (m.y_pred, m.score) for m in a.roles.wide_models} == {
        "xgboost_v2": (None, "pred_xgboost_v2"), "baseline": (None, "pred_baseline"), "rule": ("pred_rule", None)}
    assert "`pred_xgboost_v2`, `pred_baseline` hold decimals in [0, 1]" in a.roles.reason("wide_models")
    y = frame["churned"].to_numpy()
    for model in ("xgboost_v2", "baseline"):
        report = evaluate(a.predictions(model))
        assert report.values["roc_auc"] == pytest.approx(roc_auc_score(y, frame[f"pred_{model}"]), abs=1e-12)
    assert evaluate(a.predictions("rule")).values["accuracy"] == pytest.approx(accuracy_score(y, frame["pred_rule"]))
    assert truth in ("y_true", "churned")


def test_a_prediction_column_the_user_set_stays_a_label_column():
    frame = pd.DataFrame({"y_true": [0, 1, 0, 1], "guess": [0.2, 0.7, 0.1, 0.9]})
    a = frame_csv(frame, overrides=Overrides().with_role("y_pred", "guess"))
    assert (a.roles.y_pred, a.roles.score) == ("guess", None)


# --- tasks ---------------------------------------------------------------------------------------------------------

def test_binary_and_multiclass_from_label_count():
    assert assess_csv("y_true,y_pred\na,a\nb,a\n").task is Task.BINARY
    a = assess_csv("y_true,y_pred\ncat,cat\ndog,cow\ncow,cow\n")
    assert (a.task, a.task_reason) == (Task.MULTICLASS, "`y_true` has 3 classes (cat, cow, dog)")


def test_multilabel_from_label_sets():
    a = assess_csv("y_true,y_pred\na|b,a\nc,c|b\n,a\n")
    assert a.task is Task.MULTILABEL
    assert a.task_reason == "`y_true` holds label sets separated by '|' (e.g. `a|b`)"
    assert a.classes == ("a", "b", "c")
    p = a.predictions()
    np.testing.assert_array_equal(p.y_true, [[1, 1, 0], [0, 0, 1], [0, 0, 0]])
    np.testing.assert_array_equal(p.y_pred, [[1, 0, 0], [0, 1, 1], [1, 0, 0]])


def test_multilabel_from_indicator_columns():
    a = assess_csv("true_news,true_sport,pred_news,pred_sport,score_news,score_sport\n1,0,1,1,0.9,0.6\n0,1,0,1,0.2,0.8\n")
    assert a.task is Task.MULTILABEL and a.classes == ("news", "sport")
    p = a.predictions()
    np.testing.assert_array_equal(p.y_true, [[True, False], [False, True]])
    np.testing.assert_allclose(p.scores, [[0.9, 0.6], [0.2, 0.8]])


def test_regression_forecast_and_clustering():
    a = assess_csv("y_true,y_pred\n1.5,1.2\n2.25,2.0\n3.0,3.5\n")
    assert (a.task, a.task_reason) == (Task.REGRESSION, "`y_true` is numeric with non-integer values")
    f = assess_csv("timestamp,y_true,y_pred\n2024-01-01,1.5,1.2\n2024-01-02,2.5,2.0\n")
    assert f.task is Task.FORECAST and "`timestamp` orders the rows in time" in f.task_reason
    many = pd.DataFrame({"y_true": np.arange(100), "y_pred": np.arange(100) + 1})
    assert frame_csv(many).task_reason == "`y_true` is numeric with 100 distinct integers (more than 50)"
    c = assess_csv("cluster,y_true\n0,a\n1,b\n1,b\n")
    assert (c.task, c.task_reason) == (Task.CLUSTERING, "`cluster` holds cluster assignments")


def test_task_override():
    a = assess_csv("y_true,y_pred\n1,1\n2,2\n", overrides=Overrides(task=Task.REGRESSION))
    assert (a.task, a.task_reason) == (Task.REGRESSION, "set by you")


def test_no_ground_truth_names_the_file_and_columns():
    with pytest.raises(AssessError, match=r"^p\.csv: no ground-truth column found: .* \(columns: foo, bar\)$"):
        assess_csv("foo,bar\n1,2\n")


def test_changing_ground_truth_role_changes_task():
    text = "y_true,y_pred,amount\n1,1,3.5\n0,1,2.25\n1,0,7.75\n"
    assert assess_csv(text).task is Task.BINARY
    a = assess_csv(text, overrides=Overrides().with_role("y_true", "amount"))
    assert a.task is Task.REGRESSION and a.roles.reason("y_true") == "set by you"


def test_role_override_to_unknown_column():
    with pytest.raises(AssessError, match=r"p\.csv has no column `nope`"):
        assess_csv("y_true,y_pred\n1,1\n", overrides=Overrides().with_role("y_true", "nope"))


def test_moving_a_column_to_another_role_frees_the_old_one():
    a = assess_csv("y_true,y_pred,other\n1,1,0\n0,1,1\n", overrides=Overrides().with_role("y_true", "y_pred"))
    assert a.roles.y_true == "y_pred" and a.roles.y_pred is None


# --- positive class ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("labels,positive", [(("0", "1"), "1"), (("no", "yes"), "yes"), (("False", "True"), "True"),
                                             (("neg", "pos"), "pos"), (("0", "fraud"), "fraud")])
def test_positive_class_conventions(labels, positive):
    rows = "\n".join(f"{labels[i % 2]},{labels[i % 2]}" for i in range(6))
    assert assess_csv("y_true,y_pred\n" + rows + "\n").positive == positive


def test_positive_class_falls_back_to_minority_with_reason():
    a = assess_csv("y_true,y_pred\nham,ham\nham,ham\nspam,ham\nham,spam\n")
    assert a.positive == "spam"
    assert a.positive_reason == ("`spam` is the minority class (1 of 4 rows); change it if the other class is the "
                                 "one to detect")


def test_positive_class_override_and_encoding():
    a = assess_csv("y_true,y_pred\nham,ham\nspam,ham\n", overrides=Overrides(positive="ham"))
    p = a.predictions()
    assert p.classes == ("spam", "ham")
    np.testing.assert_array_equal(p.y_true, [1, 0])
    with pytest.raises(AssessError, match=r"positive class `eggs` is not a class of p\.csv"):
        assess_csv("y_true,y_pred\nham,ham\nspam,ham\n", overrides=Overrides(positive="eggs"))


def test_na_string_is_a_real_class():
    a = assess_csv("y_true,y_pred\nNA,NA\nEU,NA\nUS,EU\n")
    assert a.classes == ("EU", "NA", "US") and not a.errors


def test_integral_float_and_int_labels_are_one_class():
    assert label_strings(pd.Series([1.0, 0.0, np.nan])).tolist() == ["1", "0", None]
    a = describe(read_table(b"y_true,y_pred\n1,1.0\n0,\n", name="p.csv"))
    assert a.classes == ("0", "1")


# --- validation ----------------------------------------------------------------------------------------------------

def problem(a, code):
    found = [p for p in a.problems if p.code == code]
    assert found, f"no {code} in {[p.code for p in a.problems]}"
    return found[0]


def test_empty_ground_truth_makes_rows_unlabelled_set_aside_from_the_labelled_ones():
    """Issue 35 §3: an empty truth is a state (the label has not arrived), counted in a warning; every metric reads
    the labelled rows, and the unlabelled rows' scores, predictions and ids are encoded for estimation."""
    frame = binary_frame(id=[f"r{i}" for i in range(60)]).astype({"y_true": object})
    frame.loc[[4, 9, 11], "y_true"] = None
    a = frame_csv(frame)
    assert not a.errors
    p = problem(a, "unlabelled_rows")
    assert (p.level, p.column, p.count, p.rows) == ("warning", "y_true", 3, (5, 10, 12))
    assert p.message.startswith("column `y_true` has 3 empty values (first at row 5) in the ground truth: unlabelled")
    labelled = frame.drop(index=[4, 9, 11])
    got = a.predictions()
    assert got.n == 57 and got.y_true.tolist() == labelled["y_true"].astype(int).tolist()
    assert got.scores.tolist() == labelled["score"].tolist()
    assert a.n_unlabelled == 3 and a.to_dict()["n_unlabelled"] == 3 and a.to_dict()["rows"] == 60
    u = a.unlabelled_predictions()
    assert u.y_true is None and u.ids.tolist() == ["r4", "r9", "r11"]
    assert u.scores.tolist() == frame.loc[[4, 9, 11], "score"].tolist()
    assert u.y_pred.tolist() == frame.loc[[4, 9, 11], "y_pred"].tolist()


def test_unlabelled_rows_of_a_long_file_stay_with_their_model():
    a = assess_csv("model,y_true,proba_a,proba_b,proba_c\nm,a,.7,.2,.1\nn,b,.1,.8,.1\nm,,.2,.2,.6\nn,c,.1,.1,.8\n"
                   "m,b,.3,.4,.3\nn,,.5,.3,.2\nn,,.1,.1,.8\n")
    assert a.task is Task.MULTICLASS and a.n_unlabelled == 3
    assert a.predictions("m").y_true.tolist() == [0, 1] and a.predictions("n").y_true.tolist() == [1, 2]
    assert a.unlabelled_predictions("m").scores.tolist() == [[.2, .2, .6]]
    assert a.unlabelled_predictions("n").scores.tolist() == [[.5, .3, .2], [.1, .1, .8]]
    assert a.unlabelled_frame("n")["proba_a"].tolist() == [.5, .1]
    assert a.unlabelled_frame("m")["model"].tolist() == ["m"]


def test_a_file_without_any_label_is_an_error():
    a = assess_csv("y_true,score\n,0.4\n,0.7\n")
    p = problem(a, "no_labelled_rows")
    assert (p.level, p.count) == ("error", 2) and "no row is labelled" in p.message
    with pytest.raises(AssessError, match="fix the errors before assessing"):
        a.predictions()


def test_scores_outside_unit_interval_warn_with_value():
    frame = binary_frame()
    frame.loc[16, "score"] = 1.4
    frame.loc[20, "score"] = -0.5
    p = problem(frame_csv(frame), "score_out_of_range")
    assert (p.level, p.count, p.rows) == ("warning", 2, (17, 21))
    assert p.message.startswith("column `score` has 2 values outside [0, 1] (first at row 17: `1.4`); read as a "
                                "real-valued score")


def test_probability_rows_not_summing_to_one():
    rng = np.random.default_rng(1)
    proba = rng.dirichlet([1, 1, 1], size=40).round(6)
    proba[[3, 7]] *= 1.2
    frame = pd.DataFrame({"y_true": rng.choice(list("abc"), 40), **{f"proba_{k}": proba[:, i]
                                                                   for i, k in enumerate("abc")}})
    p = problem(frame_csv(frame), "proba_not_normalised")
    assert (p.level, p.count, p.rows) == ("warning", 2, (4, 8))
    assert p.message.startswith("the file has 2 rows whose class probabilities do not sum to 1 (first at row 4: `sum 1.2")


def test_non_numeric_score_is_an_error_but_na_strings_are_missing():
    frame = binary_frame().astype({"score": object})
    frame.loc[3, "score"] = "high"
    frame.loc[5, "score"] = "NA"
    a = frame_csv(frame)
    p = problem(a, "not_numeric")
    assert p.message == "column `score` has 1 value that is not a number (row 4: `high`); the score must be numeric"
    missing = [q for q in a.problems if q.code == "missing_values" and q.column == "score"][0]
    assert (missing.count, missing.rows) == (1, (6,))


def test_unseen_predicted_labels_single_class_constant_scores():
    frame = pd.DataFrame({"y_true": ["a"] * 40, "y_pred": ["a"] * 38 + ["zz", "zz"], "score": [0.5] * 40})
    a = frame_csv(frame)
    assert problem(a, "unseen_prediction").message == ("column `y_pred` has 2 predicted labels never seen in the "
                                                       "ground truth (first at row 39: `zz`)")
    assert problem(a, "single_class").level == "warning"
    assert problem(a, "constant_score").message.startswith("column `score` is constant (0.5)")


def test_duplicate_ids_within_a_model_and_models_covering_different_rows():
    frame = pd.DataFrame({"id": [1, 2, 2, 1, 2, 3] * 10, "model": ["a"] * 3 + ["b"] * 3 + ["c"] * 54,
                          "y_true": [0, 1] * 30, "y_pred": [0, 1] * 30})
    a = frame_csv(frame)
    dup = problem(a, "duplicate_id")
    assert dup.level == "error" and dup.rows[0] == 3
    assert dup.message.startswith("column `id` has ")
    frame = pd.DataFrame({"id": list(range(40)) + list(range(5, 45)), "model": ["a"] * 40 + ["b"] * 40,
                          "y_true": [0, 1] * 40, "y_pred": [1, 1] * 40})
    differ = problem(frame_csv(frame), "models_differ")
    assert differ.message == ("the models cover different rows: model `a` has 5 ids the others lack; paired tests "
                              "use the 35 ids all models share")


def test_few_rows_warns():
    a = frame_csv(binary_frame(n=12))
    assert problem(a, "few_rows").message.startswith(f"the file has 12 rows, fewer than {MIN_ROWS_NORMAL}")
    assert not [p for p in frame_csv(binary_frame(n=40)).problems if p.code == "few_rows"]


def test_no_prediction_at_all_is_an_error():
    a = frame_csv(pd.DataFrame({"y_true": [0, 1] * 20, "other": range(40)}))
    assert problem(a, "no_prediction").level == "error"


def test_negative_weight_is_an_error():
    frame = binary_frame(weight=1.0)
    frame.loc[7, "weight"] = -2
    assert problem(frame_csv(frame), "negative_weight").rows == (8,)


def test_samples_are_clean():
    for name in ("breast_cancer_binary.csv", "wine_multiclass.csv"):
        a = describe(read_table(f"assets/samples/{name}"))
        assert a.problems == (), [p.message for p in a.problems]
    binary = describe(read_table("assets/samples/breast_cancer_binary.csv"))
    assert (binary.task, binary.positive, binary.models) == (Task.BINARY, "malignant",
                                                             ("logistic", "tree", "naive_bayes_3f"))
    p = binary.predictions("logistic")
    assert p.n == 569 and int(p.y_true.sum()) == 212  # sklearn's breast cancer data: 212 malignant, 357 benign
    assert set(np.unique(p.fold)) == {"1", "2", "3", "4", "5"}


def test_million_rows_describe_quickly_enough_to_be_interactive():
    """Not a timing test: it checks the encoding path is vectorised by running it at a size a loop would choke on."""
    n = 1_000_000
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"y_true": rng.choice(["yes", "no"], n), "score": rng.random(n)})
    table = read_table(frame.to_csv(index=False).encode(), name="big.csv")
    a = describe(table)
    assert a.predictions().n == n


def test_predictions_are_encoded_once_per_model():
    a = describe(read_table("assets/samples/breast_cancer_binary.csv"))
    first = a.predictions("tree")
    assert a.predictions("tree") is first and a.predictions() is a.predictions("logistic")
    with pytest.raises(ValueError, match="read-only"):
        first.scores[0] = 0.5


# --- the layers under describe: column helpers, roles, tasks, validation on plain inputs ---------------------------

def test_validation_takes_plain_inputs_and_reads_missing_words_as_missing():
    words = ["", "NA", "n/a", "NaN", "null", "None", "-", "?", "#N/A"]  # what a spreadsheet writes for "no value"
    scores = ["0.25"] + words + ["high"] + ["0.75"] * 29
    frame = pd.DataFrame({"y_true": ["a", "b"] * 20, "y_pred": ["a"] * 40, "score": scores})
    roles = detect_roles(frame)
    problems = validate(frame, roles, Task.BINARY, classes=("a", "b"), positive="b", models=("m",),
                        model_rows={"m": np.arange(40)})
    by_code = {(p.code, p.column): p for p in problems}
    assert (by_code["not_numeric", "score"].count, by_code["not_numeric", "score"].rows) == (1, (11,))
    assert (by_code["missing_values", "score"].count, by_code["missing_values", "score"].rows) == (9, (2, 3, 4, 5, 6))


def test_missing_words_stay_labels_in_a_label_role():
    a = frame_csv(pd.DataFrame({"y_true": ["NA", "None"] * 20, "y_pred": ["NA"] * 40}))
    assert (a.task, a.classes, a.errors) == (Task.BINARY, ("NA", "None"), ())


@pytest.mark.parametrize("module", [columns, roles_module, tasks])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


# --- forecasts: time, series, horizon, origin and the prediction interval -----------------------------------------------

def test_forecast_sample_encodes_its_time_index_and_90_percent_interval():
    from tests.conftest import ROOT

    path = ROOT / "assets/samples/monthly_forecasts.csv"
    a = describe(read_table(path))
    raw = pd.read_csv(path)
    ets = raw[raw.model == "ets"]
    pred = a.predictions("ets")
    assert a.roles.lower == "lower_90" and a.roles.upper == "upper_90" and a.roles.origin == "origin"
    assert pred.interval_level == 0.9
    np.testing.assert_array_equal(pred.lower, ets.lower_90.to_numpy())
    np.testing.assert_array_equal(pred.upper, ets.upper_90.to_numpy())
    assert pred.time.dtype.kind == "M" and pred.origin.dtype.kind == "M" and pred.target == "y_true"
    np.testing.assert_array_equal(pred.time, pd.to_datetime(ets.timestamp).to_numpy())
    np.testing.assert_array_equal(pred.series, ets.series.to_numpy(dtype=object))
    np.testing.assert_array_equal(pred.horizon, ets.horizon.to_numpy(dtype=float))


@pytest.mark.parametrize("lower, upper, level", [("lo-95", "hi-95", 0.95), ("yhat_lower", "yhat_upper", None),
                                                 ("lower", "upper", None), ("pi_lower_80", "pi_upper_80", 0.8)])
def test_interval_columns_as_forecasting_libraries_name_them(lower, upper, level):
    from assess.inputs.roles import interval_level

    frame = pd.DataFrame({"y_true": [1.0, 2.0], "y_pred": [1.5, 2.5], "ds": ["2024-01", "2024-02"],
                          lower: [0.0, 1.0], upper: [3.0, 4.0]})
    roles = detect_roles(frame)
    assert (roles.lower, roles.upper, interval_level(roles)) == (lower, upper, level)


def test_a_forecast_without_series_or_horizon_columns_is_one_series_one_step_ahead():
    from assess.analyses.forecast_rows import ONE_SERIES, prediction_frame

    n = 30
    a = frame_csv(pd.DataFrame({"y_true": np.linspace(0.5, 9.1, n), "y_pred": np.linspace(0.7, 9.0, n),
                                "time": np.arange(1, n + 1)}))
    assert a.task is Task.FORECAST
    pred = a.predictions()
    assert pred.series is None and pred.horizon is None and pred.origin is None and list(pred.time) == list(range(1, n + 1))
    frame = prediction_frame(a, a.models[0])
    assert list(frame.series) == [ONE_SERIES] * n and list(frame.horizon) == [1] * n


# --- blocking problems found by fuzzing the pipeline (tests/inputs/test_fuzz_pipeline.py) ---------------------------------

def test_zero_weight_for_every_row_is_an_error_with_the_cli_message():
    a = frame_csv(binary_frame(weight=0.0))
    assert problem(a, "zero_weights").level == "error"
    assert problem(a, "zero_weights").message == "`weight` is zero for every row; nothing to assess"
    with pytest.raises(AssessError, match="`weight` is zero for every row"):
        a.predictions()


def test_zero_weight_for_one_model_names_it():
    frame = pd.concat([binary_frame(weight=1.0).assign(model="a"), binary_frame(weight=0.0).assign(model="b")])
    p = problem(frame_csv(frame), "zero_weights")
    assert p.message == "`weight` is zero for every row of model `b`; nothing to assess"


def test_some_zero_weights_are_fine():
    frame = binary_frame(weight=1.0)
    frame.loc[:30, "weight"] = 0.0
    assert not frame_csv(frame).errors


def test_one_score_column_for_three_classes_is_an_error():
    frame = pd.DataFrame({"y_true": ["cat", "dog", "cow"] * 14, "score": np.linspace(0, 1, 42)})
    p = problem(frame_csv(frame), "no_prediction")
    assert p.level == "error" and p.column == "score"
    assert p.message == ("the file has one score column `score` but no predicted-label column, and one score cannot "
                         "rank 3 classes (`cat`, `dog`, `cow`): add a `y_pred` column, or one `proba_<class>` column "
                         "per class")


def test_label_sets_need_a_label_set_prediction():
    a = assess_csv("y_true,score\na|b,0.5\nb,0.25\n")
    assert a.task is Task.MULTILABEL
    assert problem(a, "no_prediction").message.startswith("the file has no predicted label-set column")


def test_a_label_without_its_pred_column_is_named():
    a = assess_csv("true_a,true_b,pred_a\n1,0,1\n0,1,0\n")
    assert problem(a, "no_prediction").message == ("1 label (`b`) has a `true_<label>` column but no `pred_<label>` "
                                                   "column: add one for every label")
    # every label predicted through scores instead is fine
    assert not assess_csv("true_a,true_b,pred_a,score_a,score_b\n1,0,1,0.9,0.1\n0,1,0,0.2,0.8\n").errors


def test_decimals_in_a_predicted_label_column_are_not_classes():
    a = assess_csv("y_true,prediction\ncat,0.25\ndog,1\ncow,0.25\n")
    p = problem(a, "not_a_class")
    assert (p.level, p.column, p.count, p.rows) == ("error", "prediction", 3, (1, 2, 3))
    assert p.message.startswith("column `prediction` has 3 values that are not a class of this task (first at row "
                                "1: `0.25`)")


def test_a_model_column_without_values_is_refused_not_an_index_error():
    a = assess_csv("classifier,y_true,y_pred\n,a,b\n,b,b\n")
    assert a.models == () and problem(a, "missing_values").column == "classifier"
    with pytest.raises(AssessError, match=r"^p\.csv: column `classifier` has 2 missing values"):
        a.predictions()


def test_a_typo_in_a_numeric_truth_is_named_not_turned_into_classes():
    rng = np.random.default_rng(3)
    y = rng.normal(50, 10, 40).round(2).astype(object)
    y[5] = "abc"
    a = frame_csv(pd.DataFrame({"y_true": y, "y_pred": rng.normal(50, 10, 40).round(2)}))
    assert a.task is Task.REGRESSION
    [error] = [p for p in a.problems if p.level == "error"]
    assert error.column == "y_true" and "abc" in error.message and "row 6" in error.message
    labels = frame_csv(pd.DataFrame({"y_true": ["1", "2", "x"] * 10, "y_pred": ["1", "2", "2"] * 10}))
    assert labels.task is Task.MULTICLASS                 # integer-like labels with a word stay classes


def test_sample_ids_are_read_once_and_integer_ids_stay_integers():
    text = "id,model,y_true,y_pred\n" + "".join(f"{i},{m},{'xy'[i % 2]},x\n" for m in "ab" for i in (3, 1, 2))
    a = assess_csv(text)
    frame = a.frame
    for m in ("a", "b"):   # each model's ids are its own rows' ids (the oracle: pandas selecting them)
        np.testing.assert_array_equal(a.predictions(m).ids, frame.loc[frame["model"] == m, "id"].to_numpy())
    assert a.predictions("a").ids.dtype.kind == "i"                  # no Python string per row
    frame.loc[0, "id"] = 3                                            # the table's own column is not locked
    wide = assess_csv("id,y_true,score_lr,score_rf\n1.0,x,0.2,0.3\n2.0,y,0.6,0.9\n")
    assert wide.predictions("lr").ids is wide.predictions("rf").ids   # one array for every model of a wide file
    assert wide.predictions("lr").ids.tolist() == ["1", "2"]          # other ids are labels: 1.0 is 1


def test_a_stray_total_row_is_named_when_it_makes_a_third_class():
    """A spreadsheet's "Total" row under the table made the truth three classes; the message names the classes and
    the stray row (data rows counted from 1, as every message counts them)."""
    rows = "\n".join(f"{i % 2},{(i % 10) / 10}" for i in range(60))
    a = assess_csv(f"y_true,score\n{rows}\nTotal,\n")
    (problem,) = [p for p in a.problems if p.code == "no_prediction"]
    assert "cannot rank 3 classes (`0`, `1`, `Total`; `Total` only in row 61)" in problem.message


@pytest.mark.parametrize("labels, owner", [((0, 1), "1"), (("no", "yes"), "yes"), ((False, True), "True")])
def test_choosing_the_other_class_as_positive_scores_it_by_the_complement_of_the_score(labels, owner):
    """`score` is the probability of the class the labels call positive (predict_proba(X)[:, 1]); with the other
    class chosen as positive, that class is scored 1 − score — Metrics said "ROC AUC 0.008" for class 0 reading
    class 1's score as its own. Oracle: scikit-learn on the chosen class with 1 − score."""
    from sklearn.metrics import brier_score_loss, roc_auc_score

    from assess.metrics import evaluate

    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    score = np.clip(0.35 * y + rng.random(300) * 0.65, 0, 1)
    frame = pd.DataFrame({"y_true": np.where(y == 1, labels[1], labels[0]), "score": score})
    table = read_table(frame.to_csv(index=False).encode(), name="p1.csv")
    other = str(labels[0])
    a = describe(table, Overrides(positive=other))
    assert a.positive == other and a.roles.class_scores == ((owner, "score"),)
    assert any(p.code == "complement_score" and "1 − `score`" in p.message for p in a.problems)
    got = evaluate(a.predictions(a.models[0]), ["roc_auc", "brier_score"])
    assert got["roc_auc"].value == pytest.approx(roc_auc_score(y == 0, 1 - score), rel=1e-12)
    assert got["roc_auc"].value > 0.5
    assert got["brier_score"].value == pytest.approx(brier_score_loss(y == 0, 1 - score), rel=1e-12)
    # the class the score is for, chosen explicitly: nothing changes
    same = describe(table, Overrides(positive=owner))
    assert same.roles.score == "score" and not same.roles.class_scores


def test_labels_that_name_no_positive_class_keep_the_score_as_the_chosen_class():
    """'cat'/'dog' say nothing of which class a lone score is for: the score stays the chosen positive class's."""
    frame = pd.DataFrame({"y_true": ["cat", "dog"] * 20, "score": np.linspace(0, 1, 40)})
    table = read_table(frame.to_csv(index=False).encode(), name="pets.csv")
    for positive in ("cat", "dog"):
        a = describe(table, Overrides(positive=positive))
        assert a.roles.score == "score" and not a.roles.class_scores


def test_a_per_class_score_column_chosen_for_another_role_leaves_the_class_scores():
    """Found while sweeping the command line for exit 70 (issue 31, item 4): ``--model-col proba_barolo`` on the wine
    sample kept `proba_barolo` as barolo's score, and encoding read it from the rows without the model column
    (KeyError). A column moved to a new role leaves its old one, per-class roles included."""
    table = read_table(ROOT / "assets/samples/wine_multiclass.csv")
    before = describe(table).roles.class_scores
    assert ("barolo", "proba_barolo") in before
    a = describe(table, Overrides().with_role("model", "proba_barolo"))
    assert a.roles.model == "proba_barolo"
    assert a.roles.class_scores == tuple(p for p in before if p[1] != "proba_barolo")
    assert not a.errors
    a.predictions(a.models[0])   # read the rows of one model without the KeyError
