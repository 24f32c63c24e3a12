"""AppTest of a predictions file of repeated cross-validation (`tests.repeated_cv`: scikit-learn's
RepeatedStratifiedKFold, 5 repeats × 2 folds): the Data page says what it recognised, and the Compare page offers the
cross-validation question only, with Dietterich's 5×2cv t-test first — its p-value Dietterich's formula on
scikit-learn's per-fold accuracies."""

from __future__ import annotations

import math
import re

import pytest
from scipy import stats as sps
from sklearn import metrics as skm

from tests.conftest import open_app
from tests.repeated_cv import repeated_cv_frame


def read(element) -> str:
    return re.sub(r"\\(.)", r"\1", element.value)


@pytest.fixture(scope="module")
def frame():
    return repeated_cv_frame(n_splits=2, n_repeats=5)


@pytest.fixture
def app(frame):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("repeated_cv.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert not at.exception
    return at


def test_the_data_page_says_it_recognised_repeated_cv(app):
    assert not app.error
    [said] = [read(w) for w in app.warning if "repeated cross-validation" in read(w)]
    assert said.startswith("repeated cross-validation: 5 repeats × 2 folds (`repeat`, `fold`)")
    assert "too narrow" in said
    [picker] = [s for s in app.selectbox if (s.key or "").startswith("role_repeat_")]
    assert picker.value == "repeat" and picker.label == "CV repeat"


def test_the_compare_page_offers_5x2cv_and_runs_it(app, frame):
    app.switch_page("views/compare.py").run()
    assert not app.exception
    [question] = [r for r in app.radio if r.label == "Question"]
    assert question.value == "cv_folds" and len(question.options) == 1    # per-sample questions: not offered
    assert any("5 repeats of cross-validation" in read(c) for c in app.caption)   # why the others are not
    [test] = [s for s in app.selectbox if s.label == "Test"]
    assert test.value == "cv_5x2_t" and test.options[:2] == ["5×2cv t-test", "Corrected resampled t-test"]
    assert "McNemar's test" not in test.options
    [metric] = [s for s in app.selectbox if s.label == "Metric"]
    metric.set_value("accuracy").run()
    [button] = [b for b in app.button if b.label == "Run test"]
    button.click().run()
    assert not app.exception
    acc = frame.groupby(["repeat", "fold", "model"]).apply(
        lambda g: skm.accuracy_score(g["y_true"], g["y_pred"]), include_groups=False).unstack("model")
    p = (acc["logreg"] - acc["bayes"]).to_numpy().reshape(5, 2)
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)           # Dietterich (1998)
    t = p[0, 0] / math.sqrt(s2.sum() / 5)
    assert app.dataframe[1].value["pvalue"].iloc[0] == pytest.approx(2 * sps.t.sf(abs(t), 5), rel=1e-9)
    assert "5×2cv" in read(app.success[0])
