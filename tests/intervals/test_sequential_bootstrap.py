"""The sequential stopping rule of the bootstrap (``bootstrap_ci(..., sequential=True)``, issue 32): its Monte-Carlo
error is SciPy's Maritz–Jarrett (``scipy.stats.mstats.mjci``); it stops early where the bootstrap distribution is
narrow and runs to the maximum where it is wide; its bounds agree with 10,000 resamples and with the exact bootstrap
distribution of a proportion (Binomial(n, p̂)/n, SciPy); its percentile interval covers at the nominal rate; and the
same seed gives the same stop.

A proportion resampled from its two cells is the fast metric of these tests: its bootstrap distribution is known in
closed form, so the oracle is SciPy's binomial quantile, not the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.stats import mstats

from assess.intervals import bootstrap_ci
from assess.intervals.bootstrap import display_tolerance, maritz_jarrett_se


def proportion(c):
    return c[:, 0] / c.sum(axis=1)


def cells(n, p):
    k = int(round(p * n))
    return np.array([k, n - k])


@pytest.mark.parametrize("q", [0.025, 0.5, 0.975])
def test_maritz_jarrett_error_is_scipys(q):
    x = np.random.default_rng(4).gamma(2.0, size=731)
    assert maritz_jarrett_se(x, q) == pytest.approx(mstats.mjci(x, prob=[q])[0], rel=1e-9)


def test_too_few_values_for_a_tail_have_an_infinite_error():
    # m = floor(0.025 * 40 + 0.5) = 1: the Beta(m - 1, ·) weights are undefined, so no error estimate
    assert maritz_jarrett_se(np.arange(40.0), 0.025) == np.inf


def test_tolerance_is_half_a_unit_of_the_last_shown_decimal():
    # formatting.number shows 0.981, 42.00, 114.5, 3,009: half a unit of each last decimal
    assert [display_tolerance(v) for v in (0.981, -42.0, 114.5, 3009.2)] == pytest.approx([5e-4, 5e-3, 5e-2, 0.5])


def test_stops_at_the_minimum_on_a_large_sample_and_runs_to_the_maximum_on_a_small_one():
    big = bootstrap_ci(proportion, frequencies=cells(1_000_000, 0.3), n_resamples=1000, seed=1, sequential=True)
    how = big.interval.how
    assert big.n_resamples == how.n_resamples == 200 and big.estimates.shape == (200, 1)
    assert how.stopped_below == 0.0005 and how.mc_error < 0.0005
    assert "200 resamples (stopped: Monte-Carlo error of the bounds" in how.words
    small = bootstrap_ci(proportion, frequencies=cells(100, 0.3), n_resamples=1000, seed=1, sequential=True)
    how = small.interval.how
    assert small.n_resamples == how.n_resamples == 1000
    assert how.stopped_below is None and how.mc_error > 0.0005
    assert how.words == f"Bootstrap percentile, 1,000 resamples (Monte-Carlo error of the bounds {how.mc_error:.2g})"


def test_an_explicit_bootstrap_draws_every_resample_and_states_no_error():
    res = bootstrap_ci(proportion, frequencies=cells(1_000_000, 0.3), n_resamples=1000, seed=1)
    assert res.n_resamples == 1000 and res.interval.how.mc_error is None
    assert res.interval.method == "bootstrap-percentile (1000 resamples, seed None, multinomial)"


def test_bounds_at_the_stop_are_within_their_error_of_10000_resamples_and_of_the_exact_ones():
    n, p = 20_000, 0.3
    f = cells(n, p)
    stop = bootstrap_ci(proportion, frequencies=f, n_resamples=1000, seed=7, sequential=True)
    how = stop.interval.how
    assert 200 < stop.n_resamples < 1000 and how.stopped_below == 0.0005      # an intermediate checkpoint
    ref = bootstrap_ci(proportion, frequencies=f, n_resamples=10_000, seed=8)
    ref_err = max(maritz_jarrett_se(ref.estimates[:, 0], q) for q in (0.025, 0.975))
    band = 3 * np.hypot(how.mc_error, ref_err)      # three standard errors of the difference of two MC estimates
    assert abs(stop.interval.low - ref.interval.low) < band
    assert abs(stop.interval.high - ref.interval.high) < band
    # the exact bootstrap distribution of a proportion from its two cells: Binomial(n, p̂) / n
    exact = stats.binom.ppf([0.025, 0.975], n, f[0] / n) / n
    assert abs(stop.interval.low - exact[0]) < 3 * how.mc_error + 1 / n
    assert abs(stop.interval.high - exact[1]) < 3 * how.mc_error + 1 / n


def test_same_seed_same_stop_and_bounds():
    f = cells(20_000, 0.3)
    a = bootstrap_ci(proportion, frequencies=f, seed=11, sequential=True)
    b = bootstrap_ci(proportion, frequencies=f, seed=11, sequential=True, chunk_cells=50)   # other chunking
    assert a.interval == b.interval and np.array_equal(a.estimates, b.estimates)


def test_coverage_of_the_percentile_interval_under_the_stopping_rule_is_nominal():
    """2,000 seeded samples of 20,000 Bernoulli(0.3) rows, each a 95 % percentile interval under the stopping rule
    (which stops between 300 and 1,000 resamples here, where its tolerance binds). The Monte-Carlo standard error
    of a 95 % coverage over 2,000 samples is 0.49 points, so ± 1.5 points is about three of them."""
    rng = np.random.default_rng(2026)
    n, p, reps = 20_000, 0.3, 2_000
    hits, used = 0, []
    for i in range(reps):
        k = rng.binomial(n, p)
        res = bootstrap_ci(proportion, frequencies=np.array([k, n - k]), n_resamples=1000, seed=i, sequential=True)
        hits += res.interval.low <= p <= res.interval.high
        used.append(res.n_resamples)
    assert abs(hits / reps - 0.95) <= 0.015
    assert np.mean(np.array(used) < 1000) > 0.5          # the rule stopped early in most samples


def test_each_column_states_its_own_tolerance():
    """A proportion (bounds near 0.3, shown with 3 decimals: tolerance 0.0005) and 100 × it (bounds near 30, shown
    with 2: 0.005) in one run: the run stops when both are within theirs, and each method names its own."""
    def two(c):
        p = proportion(c)
        return np.column_stack([p, 100 * p])

    res = bootstrap_ci(two, frequencies=cells(10_000_000, 0.3), seed=1, sequential=True)
    small, large = (ci.how for ci in res.intervals)
    assert res.n_resamples < 1000
    assert (small.stopped_below, large.stopped_below) == (0.0005, 0.005)
    assert large.mc_error == pytest.approx(100 * small.mc_error)
    assert large.mc_error < 0.005 and small.mc_error < 0.0005
