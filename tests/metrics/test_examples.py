"""Published worked examples, each with its source; expected numbers are the sources' own, or hand arithmetic
from the sources' formulas where the source states only the counts."""

from __future__ import annotations

import numpy as np
import pytest

from assess.core.data import Predictions, Task
from assess.metrics import evaluate

pytestmark = pytest.mark.filterwarnings("ignore")


def from_counts(tp, fn, fp, tn, *, positive="C", negative="U"):
    y = np.repeat(np.array([1, 1, 0, 0], dtype=np.int8), [tp, fn, fp, tn])
    yp = np.repeat(np.array([1, 0, 1, 0], dtype=np.int8), [tp, fn, fp, tn])
    return Predictions(Task.BINARY, (negative, positive), y, yp)


def pct(x):
    return round(100 * x, 2)


def test_qahtan_cancer_example_table_5():
    # Qahtan, Machine Learning—Evaluation (reference 001), Example 2, Table 4 (confusion matrix of model M on the
    # cancer test set: actual C predicted C 47, predicted U 31; actual U predicted C 327, predicted U 2950) and
    # Table 5 (values out of 100): Acc 89.33, P(C) 12.57, P(U) 98.96, R(C) 60.26, R(U) 90.02, F1(C) 20.80,
    # F1(U) 94.28, BA 75.14.
    c_pos = evaluate(from_counts(47, 31, 327, 2950), baselines=False)
    assert pct(c_pos["accuracy"].value) == 89.33
    assert pct(c_pos["precision"].value) == 12.57          # P(C)
    assert pct(c_pos["npv"].value) == 98.96                # P(U)
    assert pct(c_pos["recall"].value) == 60.26             # R(C)
    assert pct(c_pos["specificity"].value) == 90.02        # R(U)
    assert pct(c_pos["f1"].value) == 20.80                 # F1(C)
    assert pct(c_pos["balanced_accuracy"].value) == 75.14
    # F1(U): the same table with U as the positive class
    u_pos = evaluate(from_counts(2950, 327, 31, 47, positive="U", negative="C"), baselines=False)
    assert pct(u_pos["f1"].value) == 94.28
    assert pct(u_pos["precision"].value) == 98.96 and pct(u_pos["recall"].value) == 90.02


def test_qahtan_all_cancerous_correct_scenario():
    # Qahtan (reference 001), text after Table 5: "assume that your ML model is able to classify all the examples
    # from the class (C) correctly. In this case, the value of the accuracy will be acc. = 90.25% whereas the
    # balanced accuracy will be BA = 95%" — the 31 false negatives become true positives (78 C rows, Table 3).
    r = evaluate(from_counts(78, 0, 327, 2950), baselines=False)
    assert pct(r["accuracy"].value) == 90.25
    assert round(100 * r["balanced_accuracy"].value) == 95


def test_lecture_notes_spam_example():
    # Lecture notes Data, Features, and Evaluation (reference 004), Figure 5: 10000 validation emails, TP 600,
    # TN 9000, FP 100, FN 300. The notes state the counts; the values below are the notes' own formulas
    # (eq. 5 accuracy, eq. 8 precision, eq. 9 recall, eq. 13 F1) worked by hand.
    r = evaluate(from_counts(600, 300, 100, 9000, positive="spam", negative="not spam"), baselines=False)
    assert (r["tp"].value, r["tn"].value, r["fp"].value, r["fn"].value, r["n"].value) == (600, 9000, 100, 300, 10000)
    assert r["accuracy"].value == pytest.approx(9600 / 10000)          # 0.96
    assert r["precision"].value == pytest.approx(600 / 700)            # 0.857
    assert r["recall"].value == pytest.approx(600 / 900)               # 0.667
    assert r["f1"].value == pytest.approx(1200 / 1600)                 # 0.75


def test_lecture_notes_dummy_majority_model():
    # Lecture notes (reference 004) §4.2.1–4.2.2: 100 samples, 95 of class 0 and 5 of class 1; a dummy model that
    # always predicts class 0 gets "Accuracy = 0.95 and Recall = 0". That dummy is the ISO 5.3.13 majority baseline.
    y = np.array([0] * 95 + [1] * 5, dtype=np.int8)
    r = evaluate(Predictions(Task.BINARY, ("0", "1"), y, np.zeros(100, dtype=np.int8)))
    assert r["accuracy"].value == 0.95
    assert r["recall"].value == 0.0
    assert r["accuracy"].baselines["majority"] == 0.95
    assert r["recall"].baselines["majority"] == 0.0


def test_lecture_notes_three_class_reviews_overall_and_mean_per_class_accuracy():
    # Lecture notes (reference 004), Figure 6 and eq. 6–7: negative 700 of 1000 correct; neutral 8300 of 8600
    # (200 called negative, 100 positive); positive 300 of 400 (100 called neutral). OA = 9300/10000 = 0.93 and
    # mA = (700/1000 + 8300/8600 + 300/400) / 3. How the 300 misread negatives split is not legible in the figure;
    # neither number depends on it, so they are put in "neutral" here.
    cm = np.array([[700, 300, 0], [200, 8300, 100], [0, 100, 300]])
    y = np.repeat(np.repeat(np.arange(3), 3), cm.ravel())
    yp = np.repeat(np.tile(np.arange(3), 3), cm.ravel())
    r = evaluate(Predictions(Task.MULTICLASS, ("negative", "neutral", "positive"), y, yp), baselines=False)
    assert r["accuracy"].value == pytest.approx(0.93)
    assert r["balanced_accuracy"].value == pytest.approx((0.7 + 8300 / 8600 + 0.75) / 3)
    assert r.table.loc["neutral", "recall"] == pytest.approx(8300 / 8600)


def test_iso_definitions_3_2_on_a_small_table():
    # ISO/IEC TS 4213 3.2.6, 3.2.8–3.2.12 notes: a = (TP+TN)/(TP+FP+TN+FN), F1 = 2TP/(2TP+FP+FN),
    # p = TP/(TP+FP), r = TP/(TP+FN), s = TN/(TN+FP), FPR = FP/(FP+TN); TP 3, FN 1, FP 2, TN 4.
    r = evaluate(from_counts(3, 1, 2, 4), baselines=False)
    assert r["accuracy"].value == pytest.approx(7 / 10)
    assert r["f1"].value == pytest.approx(6 / 9)
    assert r["precision"].value == pytest.approx(3 / 5)
    assert r["recall"].value == pytest.approx(3 / 4)
    assert r["specificity"].value == pytest.approx(4 / 6)
    assert r["fpr"].value == pytest.approx(2 / 6)
    assert r["diagnostic_odds_ratio"].value == pytest.approx(12 / 2)
    assert r["lr_plus"].value == pytest.approx((3 / 4) / (2 / 6))
