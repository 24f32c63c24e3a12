"""Significance tests name their effect's interval by an interval-method key, so the words every table shows come from
`assess.intervals.interval.METHOD_NAMES` (one source), not from a label each test wrote for itself."""

import numpy as np

from assess.intervals.interval import METHOD_NAMES
from assess.stats.counts import error_rate_ci
from assess.stats.scores import paired_bootstrap, unpaired_bootstrap


def accuracy(y, p, sample_weight=None):
    return float(np.average(y == p, weights=sample_weight))


def test_the_error_rate_interval_is_the_normal_approximation():
    how = error_rate_ci(12, 100).effect.interval.how
    assert how.key == "normal" and how.words == METHOD_NAMES["normal"]


def test_the_bootstraps_intervals_are_the_percentile_bootstrap():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    a, b = np.where(rng.random(60) < 0.8, y, 1 - y), np.where(rng.random(60) < 0.7, y, 1 - y)
    for result in (paired_bootstrap(y, a, b, metric=accuracy, n_resamples=200, seed=5),
                   unpaired_bootstrap(y, a, y, b, metric=accuracy, n_resamples=200, seed=5)):
        how = result.effect.interval.how
        assert how.key == "bootstrap-percentile" and (how.n_resamples, how.seed) == (200, 5)
        assert how.words.startswith(METHOD_NAMES["bootstrap-percentile"])
