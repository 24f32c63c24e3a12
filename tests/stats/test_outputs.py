"""A multi-output regression is compared on the average over its outputs (issue 33 §1.1), the value `metrics` and the
report's headline give — not on its first output — and on one output when asked. Oracles: SciPy's paired t-test and
scikit-learn's ``multioutput="uniform_average"`` MAE on the hand-written file of the issue."""

import io

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from sklearn.metrics import mean_absolute_error

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.stats import compare, compare_all
from assess.stats.inputs import comparison_predictions

#: The issue's file: MAE a = 5.0, b = 0.5 averaged over outputs u and v, while on u alone a is better by 1.00.
ISSUE_FILE = """id,model,y_true_u,y_pred_u,y_true_v,y_pred_v
1,a,0,0,0,8
2,a,0,0,0,9
3,a,0,0,0,11
4,a,0,0,0,12
1,b,0,0.5,0,0
2,b,0,1,0,0
3,b,0,1,0,0
4,b,0,1.5,0,0
"""


def issue_assessment():
    return describe(read_table(ISSUE_FILE.encode(), name="two_outputs.csv"))


def row_losses(output=None):
    """Each model's absolute errors per row: of one output, or the mean over u and v, worked by hand from the file."""
    frame = pd.read_csv(io.StringIO(ISSUE_FILE))
    out = {}
    for model, rows in frame.groupby("model"):
        errors = {o: (rows[f"y_pred_{o}"] - rows[f"y_true_{o}"]).abs().to_numpy() for o in ("u", "v")}
        out[model] = errors[output] if output else (errors["u"] + errors["v"]) / 2
    return out


def test_the_tests_compare_the_average_over_outputs_by_default():
    a = issue_assessment()
    result = compare(comparison_predictions(a, a.models), test="paired_t").result
    losses = row_losses()
    expected = sps.ttest_rel(losses["a"], losses["b"])
    assert result.pvalue == pytest.approx(expected.pvalue)
    assert result.effect.value == pytest.approx(4.5)        # a's average MAE 5.0 − b's 0.5
    assert result.sentence.startswith("b's predictions are off by 4.50 (units averaged over outputs y_true_u and "
                                      "y_true_v)")


def test_the_bootstrap_difference_is_the_difference_of_the_uniform_average_maes():
    a = issue_assessment()
    frame = pd.read_csv(io.StringIO(ISSUE_FILE))
    mae = {m: mean_absolute_error(g[["y_true_u", "y_true_v"]], g[["y_pred_u", "y_pred_v"]],
                                  multioutput="uniform_average") for m, g in frame.groupby("model")}
    assert mae == {"a": 5.0, "b": 0.5}
    result = compare(comparison_predictions(a, a.models), test="paired_bootstrap", metric="mae",
                     n_resamples=200).result
    assert result.effect.value == pytest.approx(mae["a"] - mae["b"])
    assert result.sentence.startswith("b's mean absolute error is lower than a's by 4.50")


def test_one_output_when_asked():
    a = issue_assessment()
    result = compare(comparison_predictions(a, a.models, output="u"), test="paired_t").result
    losses = row_losses("u")
    assert result.pvalue == pytest.approx(sps.ttest_rel(losses["a"], losses["b"]).pvalue)
    assert result.sentence.startswith("a's predictions are off by 1.00 (y_true_u units) less")


def test_diebold_mariano_and_the_tests_for_independent_samples_take_the_row_average():
    a = issue_assessment()
    preds = comparison_predictions(a, a.models)
    losses = row_losses()
    d = losses["a"] - losses["b"]
    n = d.size       # h = 1 with Harvey's correction: t = mean / sqrt(γ0 / n) · sqrt((n − 1) / n), t(n − 1)
    stat = d.mean() / np.sqrt(np.mean((d - d.mean()) ** 2) / n) * np.sqrt((n - 1) / n)
    dm = compare(preds, test="diebold_mariano", loss="absolute").result
    assert dm.statistic == pytest.approx(stat)
    assert dm.pvalue == pytest.approx(2 * sps.t.sf(abs(stat), n - 1))
    welch = compare(preds, test="welch_t").result
    assert welch.pvalue == pytest.approx(sps.ttest_ind(losses["a"], losses["b"], equal_var=False).pvalue)


def test_every_suitable_test_runs_on_the_average():
    a = issue_assessment()
    found = compare_all(comparison_predictions(a, a.models), n_resamples=200)
    assert {c.test for c in found.comparisons} >= {"paired_bootstrap", "paired_t", "wilcoxon"}
    assert all(c.result.effect.value > 0 for c in found.comparisons)     # a − b > 0: b is better in every one
