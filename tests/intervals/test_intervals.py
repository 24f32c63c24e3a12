"""Confidence intervals: statsmodels oracle, Iocchi's slides, DeLong from its definition, bootstrap mechanics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from assess import intervals

LEVELS = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99])


@st.composite
def x_n(draw):
    n = draw(st.integers(1, 2000))
    return draw(st.integers(0, n)), n


@settings(max_examples=200, deadline=None)
@given(x_n(), LEVELS)
def test_wilson_matches_statsmodels(xn, level):
    x, n = xn
    ci = intervals.wilson(x, n, confidence_level=level)
    lo, hi = proportion_confint(x, n, alpha=1 - level, method="wilson")
    assert (ci.low, ci.high) == pytest.approx((lo, hi), rel=1e-9, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(x_n(), LEVELS)
def test_clopper_pearson_matches_statsmodels_beta(xn, level):
    x, n = xn
    ci = intervals.clopper_pearson(x, n, confidence_level=level)
    lo, hi = proportion_confint(x, n, alpha=1 - level, method="beta")
    assert (ci.low, ci.high) == pytest.approx((lo, hi), rel=1e-9, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(x_n(), LEVELS)
def test_normal_matches_statsmodels_normal_truncated_to_unit_interval(xn, level):
    x, n = xn
    ci = intervals.normal(x, n, confidence_level=level)
    lo, hi = proportion_confint(x, n, alpha=1 - level, method="normal")
    assert (ci.low, ci.high) == pytest.approx((max(lo, 0.0), min(hi, 1.0)), rel=1e-9, abs=1e-12)


def test_normal_interval_of_an_error_rate_as_in_iocchi_slides():
    # Iocchi, Performance Evaluation (reference 002), "Confidence Intervals":
    # error_S(h) +- z_N sqrt(error_S(h)(1 - error_S(h)) / n), z_95 = 1.96; error 0.2 on n = 100 rows
    ci = intervals.normal(20, 100, confidence_level=0.95)
    assert ci.low == pytest.approx(0.2 - 1.96 * 0.04, abs=2e-5)
    assert ci.high == pytest.approx(0.2 + 1.96 * 0.04, abs=2e-5)


@pytest.mark.parametrize("level, z_slides", [(0.50, 0.67), (0.68, 1.00), (0.80, 1.28), (0.90, 1.64),
                                             (0.95, 1.96), (0.98, 2.33), (0.99, 2.58)])
def test_z_values_match_the_table_in_iocchi_slides(level, z_slides):
    # the slides print z_N to two decimals (reference 002, table under "Confidence Intervals")
    half = intervals.normal(50, 100, confidence_level=level).high - 0.5
    assert half / 0.05 == pytest.approx(z_slides, abs=0.011)


def test_effective_n_equal_to_n_changes_nothing_and_smaller_n_eff_widens():
    a = intervals.wilson(30, 100)
    assert intervals.wilson(30, 100, n_eff=100) == a
    b = intervals.wilson(30, 100, n_eff=50)
    assert b.high - b.low > a.high - a.low
    assert (b.low + b.high) / 2 == pytest.approx(intervals.wilson(15, 50).low / 2 + intervals.wilson(15, 50).high / 2)


def test_wilson_interval_covers_the_true_proportion_95_percent_of_the_time():
    rng = np.random.default_rng(20240521)
    p, n = 0.3, 80
    xs = rng.binomial(n, p, size=2000)
    cover = np.mean([(c := intervals.wilson(x, n)).low <= p <= c.high for x in xs])
    assert 0.93 <= cover <= 0.97


def test_clopper_pearson_is_conservative_by_simulation():
    rng = np.random.default_rng(7)
    p, n = 0.1, 60
    xs = rng.binomial(n, p, size=2000)
    cover = np.mean([(c := intervals.clopper_pearson(x, n)).low <= p <= c.high for x in xs])
    assert cover >= 0.94


def test_proportion_ci_rejects_unknown_method_and_bad_level():
    with pytest.raises(ValueError, match="`method` must be one of"):
        intervals.proportion_ci(1, 2, method="agresti")
    with pytest.raises(ValueError, match=r"`confidence_level` must be in \(0, 1\) \(got 1.5\)"):
        intervals.wilson(1, 2, confidence_level=1.5)
    with pytest.raises(ValueError, match="need 0 <= x <= n"):
        intervals.wilson(3, 2)


def test_empty_denominator_gives_nan_bounds():
    ci = intervals.wilson(0, 0)
    assert np.isnan(ci.low) and np.isnan(ci.high)


# ----------------------------------------------------------------------------------------------------------------
# DeLong
# ----------------------------------------------------------------------------------------------------------------

def delong_by_definition(y, s):
    """DeLong, DeLong & Clarke-Pearson (1988): psi over all pairs, placements, S10/m + S01/n."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    auc = psi.mean()
    return auc, v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 6)), min_size=6, max_size=80))
def test_delong_ci_matches_the_definition(rows):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    assume(min((y == 1).sum(), (y == 0).sum()) >= 2)
    auc, var = delong_by_definition(y, s)
    z = stats.norm.ppf(0.975)
    ci = intervals.delong_ci(y, s)
    assert ci.low == pytest.approx(max(0.0, auc - z * np.sqrt(var)), abs=1e-12)
    assert ci.high == pytest.approx(min(1.0, auc + z * np.sqrt(var)), abs=1e-12)
    lg = intervals.delong_ci(y, s, transform="logit")
    if 0 < auc < 1 and var > 0:
        assert lg.low < auc < lg.high


def test_delong_undefined_with_a_class_of_fewer_than_two_rows():
    ci = intervals.delong_ci([1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3])     # one positive: no variance estimate
    assert np.isnan(ci.low) and np.isnan(ci.high)


# ----------------------------------------------------------------------------------------------------------------
# bootstrap mechanics
# ----------------------------------------------------------------------------------------------------------------

def test_multinomial_resampling_keeps_every_stratum_size():
    rng = np.random.default_rng(0)
    strata = np.array([0] * 7 + [1] * 13 + [2] * 5)
    groups, contiguous = intervals.bootstrap._strata_layout(strata.size, strata)
    c = intervals.resample_counts(rng, 50, groups, scheme="multinomial", contiguous=contiguous, R=strata.size)
    for v, size in ((0, 7), (1, 13), (2, 5)):
        assert (c[:, strata == v].sum(axis=1) == size).all()


def test_poisson_counts_have_poisson_one_moments():
    c = intervals.bootstrap._poisson_counts(np.random.default_rng(1), (4, 250_000)).ravel()
    assert c.mean() == pytest.approx(1.0, abs=0.005)
    assert c.var() == pytest.approx(1.0, abs=0.01)
    assert np.mean(c == 0) == pytest.approx(np.exp(-1), abs=0.003)
    assert np.mean(c == 3) == pytest.approx(np.exp(-1) / 6, abs=0.002)


def _mean_stat(values):
    def stat(c):
        c = c.astype(np.float64)
        return (c @ values) / c.sum(axis=1)
    return stat


def test_bootstrap_is_seeded_and_reports_progress():
    x = np.random.default_rng(2).exponential(size=300)
    seen = []
    a = intervals.bootstrap_ci(_mean_stat(x), n=x.size, n_resamples=500, seed=11, progress=seen.append, chunk_cells=30_000)
    b = intervals.bootstrap_ci(_mean_stat(x), n=x.size, n_resamples=500, seed=11)
    c = intervals.bootstrap_ci(_mean_stat(x), n=x.size, n_resamples=500, seed=12)
    assert a.interval == b.interval
    assert a.interval != c.interval
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) == 5
    assert a.estimates.shape == (500, 1)


def test_percentile_bootstrap_of_a_proportion_is_close_to_wilson():
    y = np.zeros(2000)
    y[:600] = 1
    res = intervals.bootstrap_ci(_mean_stat(y), n=y.size, n_resamples=2000, seed=0)
    w = intervals.wilson(600, 2000)
    assert res.interval.low == pytest.approx(w.low, abs=0.005)
    assert res.interval.high == pytest.approx(w.high, abs=0.005)


def test_cells_as_frequencies_give_the_same_interval_as_the_rows():
    # 2x2 table as 4 frequency-weighted patterns vs 400 real rows: the same bootstrap distribution
    y = np.repeat([1, 1, 0, 0], [90, 30, 40, 240])
    yp = np.repeat([1, 0, 1, 0], [90, 30, 40, 240])

    def acc_rows(c):
        c = c.astype(float)
        return (c @ (y == yp).astype(float)) / c.sum(axis=1)

    def acc_cells(c):
        c = c.astype(float)
        return (c[:, 0] + c[:, 3]) / c.sum(axis=1)

    rows = intervals.bootstrap_ci(acc_rows, strata=y, n_resamples=4000, seed=1)
    cells = intervals.bootstrap_ci(acc_cells, frequencies=[90, 30, 40, 240], strata=[1, 1, 0, 0], n_resamples=4000, seed=1)
    assert rows.interval.low == pytest.approx(cells.interval.low, abs=0.006)
    assert rows.interval.high == pytest.approx(cells.interval.high, abs=0.006)


@pytest.mark.parametrize("cells, b", [(2_000, 40), (60_000, 3)])
def test_many_small_cells_get_the_row_draws_summed_per_cell(cells, b):
    """Cells of 1–3 samples, too many for a multinomial over cells: the counts are the draws of the rows behind
    them (same seed; multinomial rows for 4,000 samples, Poisson for 120,000) summed per cell."""
    from assess.intervals.bootstrap import resample_counts
    f = np.random.default_rng(0).integers(1, 4, cells)
    got = resample_counts(np.random.default_rng(1), b, [np.arange(cells)], frequencies=f)
    rows = resample_counts(np.random.default_rng(1), b, [np.arange(int(f.sum()))])
    cell_of_row = np.repeat(np.arange(cells), f)
    expected = np.stack([np.bincount(cell_of_row, weights=r, minlength=cells) for r in rows])
    assert got.shape == (b, cells) and (got == expected).all()


def test_bca_agrees_with_scipy_bca_on_a_skewed_mean():
    x = np.random.default_rng(3).exponential(size=120)
    ours = intervals.bootstrap_ci(_mean_stat(x), n=x.size, n_resamples=6000, seed=0, method="bca").interval
    ref = stats.bootstrap((x,), np.mean, n_resamples=6000, method="BCa", random_state=0).confidence_interval
    width = ref.high - ref.low
    assert ours.low == pytest.approx(ref.low, abs=0.08 * width)
    assert ours.high == pytest.approx(ref.high, abs=0.08 * width)
    pct = intervals.bootstrap_ci(_mean_stat(x), n=x.size, n_resamples=6000, seed=0).interval
    assert ours.high > pct.high          # right-skewed statistic: BCa shifts the interval up


def test_bca_over_many_cells_agrees_with_scipy_bca_on_the_rows():
    """2,500 cells (more than the exact jackknife takes) of 1–4 identical samples of a skewed value: the BCa interval
    of their mean, from the delete-a-group jackknife over cells, agrees with scipy's BCa on the expanded rows."""
    rng = np.random.default_rng(4)
    v, f = rng.exponential(size=2500) ** 2, rng.integers(1, 5, 2500)

    def mean_of_cells(c):
        c = c.astype(float)
        return (c @ v) / c.sum(axis=1)
    ours = intervals.bootstrap_ci(mean_of_cells, frequencies=f, n_resamples=2000, seed=0, method="bca").interval
    rows = np.repeat(v, f)
    ref = stats.bootstrap((rows,), np.mean, n_resamples=2000, method="BCa", random_state=0).confidence_interval
    width = ref.high - ref.low
    assert ours.low == pytest.approx(ref.low, abs=0.08 * width)
    assert ours.high == pytest.approx(ref.high, abs=0.08 * width)


def test_bootstrap_validates_its_arguments():
    with pytest.raises(ValueError, match="`scheme` must be"):
        intervals.bootstrap_ci(_mean_stat(np.ones(3)), n=3, scheme="fast")
    with pytest.raises(ValueError, match="`n_resamples` must be a positive integer"):
        intervals.bootstrap_ci(_mean_stat(np.ones(3)), n=3, n_resamples=0)
    with pytest.raises(ValueError, match="give `n`, `strata` or `frequencies`"):
        intervals.bootstrap_ci(_mean_stat(np.ones(3)))
