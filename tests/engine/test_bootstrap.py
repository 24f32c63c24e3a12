"""Bootstrap intervals out of core (`assess.engine.bootstrap`): multinomial resampling of the grouped table.

Oracles: the in-memory bootstrap (`compute_reports(ci="bootstrap")`, itself checked against SciPy's
`scipy.stats.bootstrap` in tests/metrics/test_bootstrap.py). Label metrics are resampled by the same statistic with the
same seed, so their endpoints are equal to 1e-12; score metrics resample the grouped table's (score, class) units
instead of rows — the same distribution, other draws — so their endpoints agree within Monte-Carlo error, and the
units reproduce every point value exactly (scikit-learn's roc_auc_score and average_precision_score).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score, roc_auc_score

from assess.core.decision import Decision
from assess.engine.binary import GRID_BINS
from assess.engine.bootstrap import GRID, WEIGHTED, _score_statistic
from assess.engine.reports import engine_reports
from assess.engine.source import resolve_source
from assess.inputs.roles import Overrides
from assess.metrics.registry import get
from tests.engine.test_engine import SAMPLE, run_cli

pytest.importorskip("duckdb")

B = 2000
LABEL_KEYS = ("accuracy", "f1", "mcc", "balanced_accuracy", "lr_plus")
SCORE_KEYS = ("roc_auc", "average_precision", "log_loss", "brier_score", "ks_statistic")


def _both(path, *extra):
    args = ("--ci", "bootstrap", "--resamples", str(B), "--seed", "7", *extra)
    code_m, memory, err_m = run_cli("metrics", path, "--engine", "memory", *args)
    code_d, duck, err_d = run_cli("metrics", path, "--engine", "duckdb", *args)
    assert code_m == 0 and code_d == 0, (err_m, err_d)
    return memory, duck


def _monte_carlo_tolerance(low: float, high: float, level: float = 0.95, k: float = 5.0) -> float:
    r"""k standard errors of the difference of two independent percentile-bootstrap endpoints from B resamples:
    the q-quantile's standard error is :math:`\sqrt{q(1-q)/B}/\varphi(z_q)` standard deviations of the bootstrap
    distribution (normal approximation), the sd about (high − low)/(2 z)."""
    q = (1 - level) / 2
    z = stats.norm.ppf(1 - q)
    sd = (high - low) / (2 * z)
    return k * math.sqrt(2) * math.sqrt(q * (1 - q) / B) / stats.norm.pdf(z) * sd


def test_label_metric_intervals_equal_memory_exactly_and_score_intervals_within_monte_carlo_error():
    memory, duck = _both(SAMPLE)
    for model in memory["models"]:
        for key in LABEL_KEYS:
            m, d = memory["models"][model][key], duck["models"][model][key]
            assert d["low"] == pytest.approx(m["low"], rel=1e-12) and d["high"] == pytest.approx(m["high"], rel=1e-12)
        for key in SCORE_KEYS:
            m, d = memory["models"][model][key], duck["models"][model][key]
            assert d["value"] == pytest.approx(m["value"], rel=1e-12)
            tol = _monte_carlo_tolerance(m["low"], m["high"])
            assert abs(d["low"] - m["low"]) <= tol, (model, key, m, d, tol)
            assert abs(d["high"] - m["high"]) <= tol, (model, key, m, d, tol)
    assert duck["settings"]["resamples"] == B and duck["settings"]["seed"] == 7


def test_multiclass_label_intervals_equal_memory():
    wine = SAMPLE.with_name("wine_multiclass.csv")
    memory, duck = _both(wine, "--metrics", "accuracy", "f1_macro", "cohen_kappa")
    for model, keys in duck["models"].items():
        for key, d in keys.items():
            m = memory["models"][model][key]
            assert (d["low"], d["high"]) == pytest.approx((m["low"], m["high"]), rel=1e-12)


def test_the_units_reproduce_every_score_metric(tmp_path):
    rng = np.random.default_rng(4)
    n = 400
    y = rng.integers(0, 2, n)
    score = np.round(np.clip(0.35 * y + rng.normal(0.35, 0.2, n), 0, 1), 2)   # ties within and across classes
    path = tmp_path / "f.csv"
    pd.DataFrame({"y_true": y, "score": score}).to_csv(path, index=False)
    run = engine_reports(resolve_source(str(path)), "duckdb", Overrides(), decision=Decision())
    assert run.exact
    from assess.engine import binary as grouped
    from assess.engine.backends import open_backend
    from assess.engine.reports import head_assessment

    with open_backend("duckdb", resolve_source(str(path))) as backend:
        assessment = head_assessment(backend, resolve_source(str(path)), Overrides())
        sources = grouped.model_columns(backend, assessment)
        guess = grouped.head_positives(assessment)
        prof = grouped.summarise(backend, sources, guess, labels_from_scores=True, threshold=0.5)
        positive, lo, hi, _ = grouped.check_profile(prof, assessment, "f")
        models = sorted({str(m) for m in prof["model"]})
        plan = grouped.Plan(exact=True)
        curve = grouped.curve_table(backend, sources, models, positive, plan, weighted=False)
    t = grouped.binary_states(prof, curve, models, assessment, plan, labels_from="scores", beta=1.0,
                              weighted=False, labels_from_scores=True)[models[0]]
    specs = [get(assessment.task, k) for k in SCORE_KEYS]
    stat, layout = _score_statistic(t, specs)
    values = stat(layout["frequencies"][None, :])[0]     # every unit drawn as often as it occurs: the data
    assert values[0] == pytest.approx(roc_auc_score(y, score), abs=1e-12)
    assert values[1] == pytest.approx(average_precision_score(y, score), abs=1e-12)
    report = run.reports[models[0]]
    for j, key in enumerate(SCORE_KEYS):
        assert values[j] == pytest.approx(report[key].value, rel=1e-12), key


def test_weighted_files_and_score_grids_say_why_they_have_no_interval(tmp_path):
    rng = np.random.default_rng(5)
    n = 300
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame({"y_true": y, "score": np.clip(0.3 * y + rng.uniform(0, 0.7, n), 0, 1)})
    path = tmp_path / "plain.csv"
    frame.to_csv(path, index=False)
    code, doc, err = run_cli("metrics", path, "--engine", "duckdb", "--ci", "bootstrap", "--exact-limit", "0")
    assert code == 0, err
    assert doc["engine"]["grid_bins"] == GRID_BINS
    assert doc["models"]["plain"]["roc_auc"]["low"] is None
    assert doc["models"]["plain"]["accuracy"]["low"] is not None         # label metrics stay exact on the grid
    report = engine_reports(resolve_source(str(path)), "duckdb", Overrides(), ci="bootstrap", exact_limit=0)
    assert GRID in report.reports["plain"]["roc_auc"].note
    frame["weight"] = rng.uniform(0.5, 2.0, n)
    path = tmp_path / "weighted.csv"
    frame.to_csv(path, index=False)
    report = engine_reports(resolve_source(str(path)), "duckdb", Overrides(), ci="bootstrap")
    assert WEIGHTED in report.reports["weighted"]["accuracy"].note
    assert math.isnan(report.reports["weighted"]["accuracy"].low)
