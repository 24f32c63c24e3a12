"""The out-of-core regression and loss intervals (`assess.engine.regression.analytic_bounds`, the loss squares of
`assess.engine.binary`): the in-memory methods from sums.

Oracles: statsmodels' ``DescrStatsW.tconfint_mean`` (frequency weights summing to Kish's effective n, as
`assess.intervals.mean_ci` documents) for the mean absolute error and the log loss; the delta-method interval of R²
written out here with numpy and scipy from the influence function of 1 − A/B (van der Vaart 1998, §3.1); the
order-statistic interval of the median from scipy's binomial quantiles (Hahn & Meeker 1991, §5.2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.weightstats import DescrStatsW

from tests.engine.test_engine import run_cli

pytest.importorskip("duckdb")


def _t_oracle(x, w):
    n_eff = w.sum() ** 2 / (w * w).sum()
    return DescrStatsW(x, weights=w * n_eff / w.sum()).tconfint_mean(0.05)


@pytest.fixture(scope="module", params=[False, True], ids=["unweighted", "weighted"])
def regression_file(request, tmp_path_factory):
    rng = np.random.default_rng(11)
    n = 400
    y = rng.normal(20, 4, n)
    frame = pd.DataFrame({"id": np.arange(n), "y_true": y, "y_pred": y + rng.standard_t(4, n)})
    if request.param:
        frame["weight"] = rng.integers(1, 6, n).astype(float)
    path = tmp_path_factory.mktemp("reg") / "r.parquet"
    frame.to_parquet(path)
    return path, frame


def test_mae_and_r2_intervals_out_of_core_are_the_textbook_ones(regression_file):
    path, frame = regression_file
    code, out, err = run_cli("metrics", path, "--engine", "duckdb", "--ci", "auto", "--quiet")
    assert code == 0, err
    [report] = out["models"].values()
    y, yp = frame.y_true.to_numpy(), frame.y_pred.to_numpy()
    w = frame["weight"].to_numpy() if "weight" in frame else np.ones(len(frame))
    e = yp - y
    assert (report["mae"]["low"], report["mae"]["high"]) == pytest.approx(_t_oracle(np.abs(e), w), rel=1e-9)
    # R² = 1 - A/B: pseudo-values θ + IF_i, IF_i = -(a_i - A)/B + A (b_i - B)/B²
    W = w.sum()
    a, b = e * e, (y - np.dot(w, y) / W) ** 2
    A, B = np.dot(w, a) / W, np.dot(w, b) / W
    pseudo = (1 - A / B) - (a - A) / B + A * (b - B) / B ** 2
    assert (report["r2"]["low"], report["r2"]["high"]) == pytest.approx(_t_oracle(pseudo, w), rel=1e-9)
    if "weight" not in frame:   # the order-statistic interval is the unweighted median's
        n = len(frame)
        lo = int(stats.binom.ppf(0.025, n, 0.5))             # 1-based rank of the lower bound: P(B ≤ lo-1) ≤ α/2
        lo = lo if stats.binom.cdf(lo, n, 0.5) <= 0.025 else lo - 1
        hi = n - lo - 1                                      # symmetric, 0-based
        ordered = np.sort(np.abs(e))
        assert (report["median_absolute_error"]["low"], report["median_absolute_error"]["high"]) == \
            (ordered[lo], ordered[hi])


def test_the_log_loss_interval_out_of_core_is_the_t_interval_of_the_per_row_losses(tmp_path):
    rng = np.random.default_rng(5)
    n = 300
    y = rng.random(n) < 0.4
    p = np.clip(1 / (1 + np.exp(-(rng.normal(0, 1, n) + 1.2 * (2 * y - 1)))), 1e-6, 1 - 1e-6).round(3)
    frame = pd.DataFrame({"y_true": y.astype(int), "score": p})
    path = tmp_path / "b.csv"
    frame.to_csv(path, index=False)
    code, out, err = run_cli("metrics", path, "--engine", "duckdb", "--ci", "auto", "--quiet",
                             "--metrics", "log_loss", "brier_score")
    assert code == 0, err
    [report] = out["models"].values()
    p_true = np.where(y, p, 1 - p)
    ones = np.ones(n)
    assert (report["log_loss"]["low"], report["log_loss"]["high"]) == \
        pytest.approx(_t_oracle(-np.log(p_true), ones), rel=1e-9)
    assert (report["brier_score"]["low"], report["brier_score"]["high"]) == \
        pytest.approx(_t_oracle((p - y) ** 2, ones), rel=1e-9)


def test_the_precision_areas_of_distinct_scores_get_the_in_memory_delta_method_interval(tmp_path):
    """On mostly distinct scores ``auto`` gives average precision and PR AUC the delta-method interval of
    `assess.intervals.precision_area_ci` in memory; the engine's exact grouped table holds the same per-score counts,
    so out of core the interval is the same (it was a bootstrap of other draws). Oracle: the in-memory run, whose
    interval is checked against scikit-learn's areas in tests/intervals/test_precision_area.py."""
    rng = np.random.default_rng(9)
    n = 6000
    y = rng.random(n) < 0.4
    s = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + 1.0 * (2 * y - 1))))
    path = tmp_path / "distinct.csv"
    pd.DataFrame({"y_true": y.astype(int), "score": s}).to_csv(path, index=False)
    keys = ("average_precision", "pr_auc")
    runs = [run_cli("metrics", path, "--engine", engine, "--ci", "auto", "--quiet", "--metrics", *keys)
            for engine in ("memory", "duckdb")]
    assert all(code == 0 for code, _, _ in runs), runs[1][2]
    [memory], [duck] = (list(out["models"].values()) for _, out, _ in runs)
    for key in keys:
        assert (duck[key]["low"], duck[key]["high"]) == pytest.approx((memory[key]["low"], memory[key]["high"]),
                                                                      rel=1e-9), key
