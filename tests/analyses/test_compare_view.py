"""`assess.analyses.compare_view`: the questions a file can ask, the plan and the result as shown, against
statsmodels, scikit-learn and hand-made data."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from assess.analyses.compare_view import (CompareData, data_of_folds, effects, fold_scores, plan, prediction_plan,
                                          questions_for, result_table, run_test)
from assess.core import formatting
from assess.core.decision import Decision
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.stats import PAIRED
from tests.conftest import ROOT

BINARY = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"


def plan_of(data, models):
    return plan(None, data, "cv_folds", models, None, data.metric_columns[0])


@pytest.fixture(scope="module")
def assessment():
    return describe(read_table(BINARY))


def test_questions_each_kind_of_data_can_ask():
    two = questions_for(CompareData(("a", "b"), n_folds=None))
    assert set(two.offered) == {"two_models"} and two.default == "two_models"
    assert [why for _, why in two.unavailable] == [
        "the file has no cross-validation fold column (mark one on the Data page, or upload per-fold scores)",
        "it needs at least 3 models; the file has 2"]
    assert questions_for(CompareData(("a",), n_folds=5)).offered == {}                 # one model, no groups
    assert set(questions_for(CompareData(("a",), n_folds=5, has_groups=True)).offered) == {"subgroups"}
    three = questions_for(CompareData(("a", "b", "c"), n_folds=5, has_groups=True))
    assert set(three.offered) == {"two_models", "several_models", "cv_folds", "subgroups"} and not three.unavailable
    folds = data_of_folds(pd.DataFrame({"model": ["a", "a", "b", "b"], "fold": [1, 2, 1, 2], "acc": [.8, .7, .6, .5]}),
                          ["acc"])
    assert (folds.n_folds, folds.models) == (2, ("a", "b"))
    from_folds = questions_for(folds)
    assert set(from_folds.offered) == {"two_models", "cv_folds"} and from_folds.default == "cv_folds"


def test_mcnemar_as_shown_matches_statsmodels(assessment):
    plan = prediction_plan(assessment, "two_models", ("logistic", "tree"), None, "accuracy")
    assert plan.design.kind == PAIRED and plan.recommended == "mcnemar"
    result = run_test(plan, assessment.task, "two_models", "mcnemar", ("logistic", "tree"), "accuracy",
                      correction="auto", confidence_level=0.95, alternative="two-sided", decision=Decision(),
                      options={})
    data = pd.read_csv(BINARY)
    right = {m: (g.sort_values("id").y_true == g.sort_values("id").y_pred).to_numpy() for m, g in data.groupby("model")}
    a, b = right["logistic"], right["tree"]
    expected = sm_mcnemar([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]], exact=True).pvalue
    table = result_table(result, 0.95)
    assert table.frame["pvalue"].iloc[0] == pytest.approx(expected)
    assert "effect_low" not in table.frame and table.headers["effect_interval"] == "95% interval"
    low, high = result.result.effect.interval.low, result.result.effect.interval.high
    assert table.frame["effect_interval"].iloc[0] == formatting.bounds(low, high)   # as every metric's interval
    assert table.method is not None and "method" not in table.frame       # one method: said above the table
    [(label, effect)] = effects(result)
    assert label == "logistic − tree"
    assert effect.value == pytest.approx(a.mean() - b.mean())              # the accuracy difference


def test_fold_scores_for_the_box_plot_match_sklearn(assessment):
    models = ("logistic", "tree")
    plan = prediction_plan(assessment, "cv_folds", models, None, "accuracy")
    scores = fold_scores(plan, models, "accuracy", Decision())
    data = pd.read_csv(BINARY)
    for (model, fold), rows in data[data.model.isin(models)].groupby(["model", "fold"]):
        shown = scores[(scores.model == model) & (scores.fold == str(fold))]["accuracy"]   # folds are labels
        assert shown.iloc[0] == pytest.approx(accuracy_score(rows.y_true, rows.y_pred))
    uploaded = data_of_folds(pd.DataFrame({"model": ["a", "a", "b", "b", "c", "c"], "fold": [1, 2] * 3,
                                           "acc": [.8, .7, .6, .5, .4, .3]}), ["acc"])
    from_table = plan_of(uploaded, ("a", "b"))
    assert list(fold_scores(from_table, ("a", "b"), "acc", Decision())["acc"]) == [.8, .7, .6, .5]
    assert fold_scores(from_table, ("a", "b"), "auc", Decision()) is None      # no such column in the upload


def test_a_question_the_chosen_models_cannot_answer_says_why(assessment):
    # two of the file's three models picked for "several models": a design, but no test (the page warns and stops)
    found = prediction_plan(assessment, "several_models", ("logistic", "tree"), None, "accuracy")
    assert found.suggestions == () and "needs at least 3 models (got 2)" in found.no_tests


def test_pairs_read_as_differences_only_when_their_effect_is_one():
    from types import SimpleNamespace

    from assess.intervals import ConfidenceInterval
    from assess.stats import Effect

    def comparison(effect_name):
        eff = Effect(effect_name, 0.2, ConfidenceInterval(0.1, 0.3, 0.95, "x"))
        pair = SimpleNamespace(model_a="lr", model_b="tree", result=SimpleNamespace(effect=eff))
        return SimpleNamespace(pairs=[pair], result=None, models=("lr", "tree", "knn"))

    assert [label for label, _ in effects(comparison("accuracy difference (A - B)"))] == ["lr − tree"]
    assert [label for label, _ in effects(comparison("Cramér's V"))] == ["lr vs tree"]
