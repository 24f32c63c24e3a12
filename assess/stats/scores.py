"""Tests on per-sample scores and errors: DeLong for two ROC AUCs (correlated, or on independent samples), the paired
and unpaired bootstrap of any metric's difference, Diebold–Mariano for forecasts, and Welch's t and Mann–Whitney's U
for two independent samples of values (per-sample losses of models scored on different test sets, or per-fold scores
of models cross-validated separately).

References: DeLong, DeLong & Clarke-Pearson (1988), *Biometrics* 44:837–845; Sun & Xu (2014), *IEEE Signal
Processing Letters* 21(11):1389–1393; Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 13, 16;
Diebold & Mariano (1995), *J Bus Econ Stat* 13:253–263; Harvey, Leybourne & Newbold (1997), *Int J Forecasting*
13:281–291; Welch (1947), *Biometrika* 34:28–35; Mann & Whitney (1947), *Ann Math Statist* 18:50–60. ISO/IEC TS
4213:2022 clause 7 lists the classical tests these extend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd
from scipy import stats as sps

from assess.core.errors import AssessError
from assess.core.formatting import confidence_interval, count, listing, p_value, significant
from assess.intervals import ConfidenceInterval, IntervalMethod, delong_placements, delong_variance
from assess.stats._common import (NORMAL, StudentT, alpha_of, as_bool_vector, as_float_vector, check_alternative,
                                  check_choice, check_confidence_level, check_same_length, interval, metric_words,
                                  model_names, pvalue, verdict, warn_undefined)
from assess.stats._result import INDEPENDENT_SAMPLES, Assumption, Effect, TestResult
from assess.core.defaults import DEFAULT_RESAMPLES

MANN_WHITNEY_METHODS = ("auto", "exact", "asymptotic")


@dataclass(frozen=True)
class DeLongDetails:
    """Both AUCs, their DeLong variances and covariance (and correlation), and the class counts."""

    auc_a: float
    auc_b: float
    var_a: float
    var_b: float
    covariance: float
    correlation: float
    n_positive: int
    n_negative: int


@dataclass(frozen=True)
class BootstrapDetails:
    """Replicates drawn, how many gave an undefined metric (dropped), the seed, and the metric compared."""

    n_resamples: int
    n_invalid: int
    seed: int
    metric: str


@dataclass(frozen=True)
class DieboldMarianoRow:
    """Diebold–Mariano within one horizon: on one series (``series`` its id) or on the mean loss differential per
    time point across series (``series`` = ``"all series"``). ``pvalue_holm`` is adjusted over the rows of its
    table; ``note`` says why a row has no test (too few forecasts)."""

    series: str
    horizon: float
    n: int
    h_used: int
    mean_loss_a: float
    mean_loss_b: float
    difference: float
    low: float
    high: float
    statistic: float
    pvalue: float
    pvalue_holm: float
    note: str = ""


@dataclass(frozen=True)
class DieboldMarianoDetails:
    """The loss, the horizon asked for and the one used (see the fallback), and both mean losses.

    For forecasts with horizons or series (:func:`assess.stats.horizons.diebold_mariano_by_horizon`) also
    ``pooling`` (how the overall result pools horizons and series), ``by_horizon`` (one
    :class:`DieboldMarianoRow` per horizon, pooled over series, Holm across horizons) and ``by_series`` (one per
    series and horizon, Holm across all of them; empty for a single series); :meth:`table` shows both.
    """

    loss: str
    h: int
    h_used: int
    mean_loss_a: float
    mean_loss_b: float
    pooling: str = ""
    by_horizon: tuple = ()
    by_series: tuple = ()

    def table(self) -> pd.DataFrame:
        """One row per horizon (series ``"all series"``) then per series and horizon; the columns are the fields
        of :class:`DieboldMarianoRow`."""
        rows = [asdict(r) for r in (*self.by_horizon, *self.by_series)]
        return pd.DataFrame(rows, columns=[f.name for f in fields(DieboldMarianoRow)])


@dataclass(frozen=True)
class UnpairedDeLongDetails:
    """Each model's AUC, its DeLong variance and its class counts on its own test set."""

    auc_a: float
    auc_b: float
    var_a: float
    var_b: float
    n_positive_a: int
    n_negative_a: int
    n_positive_b: int
    n_negative_b: int


@dataclass(frozen=True)
class WelchDetails:
    """Each sample's mean, standard deviation (ddof 1) and size."""

    mean_a: float
    mean_b: float
    sd_a: float
    sd_b: float
    n_a: int
    n_b: int


@dataclass(frozen=True)
class MannWhitneyDetails:
    """The U statistic of the second sample (U_A + U_B = n_a n_b), each sample's median and size."""

    u_b: float
    median_a: float
    median_b: float
    n_a: int
    n_b: int


@dataclass(frozen=True)
class UnpairedBootstrapDetails:
    """Replicates drawn, how many gave an undefined metric (dropped), the seed, the metric and both sample sizes."""

    n_resamples: int
    n_invalid: int
    seed: int
    metric: str
    n_a: int
    n_b: int


def _auc_sentence(names, auc_a: float, auc_b: float, low: float, high: float, p: float, confidence_level: float, *,
                  where: str = "", each: str = "") -> str:
    """"A's ROC AUC (x) is higher than B's (y) by d (CI); verdict." — the interval of A − B turned to the leader."""
    a, b = names
    diff = auc_a - auc_b
    if diff == 0:
        lead = f"{a} and {b} have the same ROC AUC ({significant(auc_a)}){where}"
    else:
        (hi_n, hi_v), (lo_n, lo_v) = sorted([(a, auc_a), (b, auc_b)], key=lambda t: -t[1])
        ci = (confidence_interval(low, high, confidence_level) if diff > 0
              else confidence_interval(-high, -low, confidence_level))
        lead = (f"{hi_n}'s ROC AUC ({significant(hi_v)}) is higher than {lo_n}'s ({significant(lo_v)}) by "
                f"{significant(abs(diff))} ({ci}){each}")
    return f"{lead}; {verdict(p, alpha_of(confidence_level), 'DeLong')}."


def delong(y_true, score_a, score_b, *, alternative: str = "two-sided", confidence_level: float = 0.95,
           names: Sequence[str] | None = None) -> TestResult:
    r"""DeLong's test for the difference of two correlated ROC AUCs on the same samples.

    From the placement values of :func:`assess.intervals.delong_placements` (one sort per model, midranks for ties;
    Sun & Xu 2014), with m positives and n negatives, :math:`S_{10}` and :math:`S_{01}` the 2 × 2 sample
    covariance matrices (ddof 1) of the models' :math:`V_{10}` and :math:`V_{01}` placements,

    .. math:: \operatorname{Var}(\hat A - \hat B) = \frac{S_{10}^{AA} + S_{10}^{BB} - 2S_{10}^{AB}}{m}
        + \frac{S_{01}^{AA} + S_{01}^{BB} - 2S_{01}^{AB}}{n}, \qquad
        z = \frac{\hat A - \hat B}{\sqrt{\operatorname{Var}}} \sim N(0, 1)

    (DeLong et al. 1988; as R ``pROC::roc.test(method = "delong")``). Effect: the AUC difference A − B with the
    normal interval. ``y_true`` is 0/1 (1 = positive); higher scores mean more positive.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    y = as_bool_vector(y_true, "y_true")
    sa = as_float_vector(score_a, "score_a")
    sb = as_float_vector(score_b, "score_b")
    check_same_length(y, sa, ("y_true", "score_a"))
    check_same_length(y, sb, ("y_true", "score_b"))
    names = model_names(names, 2)
    m, n = int(y.sum()), int((~y).sum())
    if m < 2 or n < 2:
        raise AssessError(f"DeLong needs at least 2 positives and 2 negatives in `y_true` (got {m} positives, "
                          f"{n} negatives)")
    pa, pb = delong_placements(y, sa), delong_placements(y, sb)
    return delong_from_placements(float(pa.v10.mean()), float(pb.v10.mean()),
                                  np.cov(np.vstack([pa.v10, pb.v10]), ddof=1),
                                  np.cov(np.vstack([pa.v01, pb.v01]), ddof=1), m, n, alternative=alternative,
                                  confidence_level=confidence_level, names=names)


def delong_from_placements(auc_a: float, auc_b: float, s10, s01, m: int, n: int, *, alternative: str = "two-sided",
                           confidence_level: float = 0.95, names: Sequence[str] | None = None) -> TestResult:
    """:func:`delong` from its sufficient statistics: both AUCs (the mean placements), the 2 × 2 sample covariance
    matrices (ddof 1) ``s10`` of the positives' and ``s01`` of the negatives' placements, and the class counts ``m``
    and ``n`` — what an engine aggregates from grouped placements (`assess.engine.compare`)."""
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    names = model_names(names, 2)
    var_a = s10[0, 0] / m + s01[0, 0] / n
    var_b = s10[1, 1] / m + s01[1, 1] / n
    cov_ab = s10[0, 1] / m + s01[0, 1] / n
    var = float(var_a + var_b - 2.0 * cov_ab)
    diff = auc_a - auc_b
    se = math.sqrt(max(var, 0.0))
    if se > 0:
        z = diff / se
    else:
        z = math.nan if diff == 0 else math.copysign(math.inf, diff)
        if diff == 0:
            warn_undefined("DeLong is undefined: the two models' placements are identical (zero variance)")
    p = pvalue(NORMAL, z, alternative) if not math.isnan(z) else math.nan
    low, high = interval(diff, se, NORMAL, alternative, confidence_level)
    corr = cov_ab / math.sqrt(var_a * var_b) if var_a > 0 and var_b > 0 else math.nan
    assumptions = [Assumption("paired samples", True, f"both models scored the same {count(m + n)} samples"),
                   Assumption("large-sample normal approximation", None,
                              f"{count(m)} positives and {count(n)} negatives; DeLong's variance is asymptotic")]
    sentence = _auc_sentence(names, auc_a, auc_b, low, high, p, confidence_level)
    return TestResult(test="delong", method="DeLong test for two correlated ROC AUCs", statistic=z, pvalue=p,
                      df=None, alternative=alternative,
                      effect=Effect("ROC AUC difference (A - B)", diff,
                                    ConfidenceInterval(low, high, confidence_level, "normal (DeLong variance)")),
                      assumptions=assumptions, sentence=sentence, n=m + n, models=names,
                      details=DeLongDetails(auc_a, auc_b, float(var_a), float(var_b), float(cov_ab), float(corr), m,
                                            n))


def paired_bootstrap(y_true, pred_a, pred_b, *, metric: Callable, n_resamples: int = DEFAULT_RESAMPLES,
                     confidence_level: float = 0.95, alternative: str = "two-sided", seed: int = 0,
                     sample_weight=None, vectorized: bool = False, names: Sequence[str] | None = None,
                     metric_name: str | None = None) -> TestResult:
    r"""Paired bootstrap of the difference of any metric between two models on the same samples.

    ``metric(y_true, y, sample_weight=w)`` is any metric of the registry (labels or scores, whatever ``pred_a``
    and ``pred_b`` hold). Each replicate r draws n samples with replacement *once for both models* and is
    evaluated through count weights: :math:`w^{(r)}_i` = how often sample i was drawn (times ``sample_weight``
    when given), :math:`\delta^*_r = f(y, a; w^{(r)}) - f(y, b; w^{(r)})`. Counts come from a generator seeded
    with ``seed``: the same seed gives the same numbers.

    With ``vectorized=True`` the metric is always called with a 2-D ``sample_weight`` of shape (replicates, n)
    — once per chunk of replicates (whole-number counts without ``sample_weight``, floats with it), and with one
    row (``sample_weight`` or ones) for the observed value — and must return one value per row. A vectorized
    metric with ``metric.prepare(y_true, y)`` (the registry's, :func:`assess.stats.registry_metric`) is prepared
    once per model — its scores sorted once — and the returned function gets the weights instead.

    Effect: :math:`\hat\delta = f(y, a) - f(y, b)` with the percentile interval of the :math:`\delta^*_r`
    (Efron & Tibshirani 1993, ch. 13; one-sided for one-sided alternatives).
    p-value (the shift method, Efron & Tibshirani 1993 §16.4): the centred replicates
    :math:`\delta^*_r - \hat\delta` stand for the null distribution of :math:`\hat\delta`, so two-sided
    :math:`p = (1 + \#\{|\delta^*_r - \hat\delta| \ge |\hat\delta|\}) / (B + 1)`; ``"greater"`` counts
    :math:`\delta^*_r - \hat\delta \ge \hat\delta`, ``"less"`` :math:`\le`. The +1 (Davison & Hinkley 1997,
    eq. 4.11) keeps p above 0: with B replicates the smallest p is 1/(B + 1). Replicates where the metric is
    undefined (NaN, e.g. AUC of a one-class resample) are dropped and counted in ``details.n_invalid``.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = _check_bootstrap(metric, n_resamples)
    y = np.asarray(y_true)
    a, b = np.asarray(pred_a), np.asarray(pred_b)
    n = y.shape[0] if y.ndim else 0
    if n < 2:
        raise AssessError(f"the paired bootstrap needs at least 2 samples (got {n})")
    for nm, arr in (("pred_a", a), ("pred_b", b)):
        if arr.ndim == 0 or arr.shape[0] != n:
            raise AssessError(f"`{nm}` must have one row per sample of `y_true` ({n}) (got shape {arr.shape})")
    weight = _bootstrap_weight(sample_weight, n, "sample_weight")
    names = model_names(names, 2)
    label = metric_name or getattr(metric, "__name__", "metric")
    rows_a, rows_b = _rows_of(metric, y, a, vectorized), _rows_of(metric, y, b, vectorized)
    observed = (_observed(metric, y, a, weight, rows_a, vectorized)
                - _observed(metric, y, b, weight, rows_b, vectorized))
    rng = np.random.default_rng(seed)
    deltas = np.empty(n_resamples)
    chunk = max(1, min(n_resamples, 4_000_000 // n))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        counts = _resample_counts(rng, size, n, weight)
        deltas[start:start + size] = _replicates(rows_a, counts) - _replicates(rows_b, counts)
    p, low, high, valid, n_invalid = shift_summary(deltas, observed, alternative, confidence_level,
                                                     "the paired bootstrap")
    assumptions = [
        Assumption("independent samples", None, "samples are resampled as independent units"),
        *_bootstrap_assumptions(n_resamples, valid, n_invalid),
    ]
    lead = _bootstrap_lead(names, label, observed, low, high, confidence_level, f"on {count(n)} samples")
    sentence = f"{lead}; {verdict(p, alpha_of(confidence_level), 'paired bootstrap')}."
    return TestResult(test="paired_bootstrap", method="paired bootstrap (percentile interval, shift p-value)",
                      statistic=observed, pvalue=p, df=None, alternative=alternative,
                      effect=Effect(f"{metric_words(label)} difference (A - B)", observed,
                                    ConfidenceInterval(low, high, confidence_level, IntervalMethod(
                                        "bootstrap-percentile", n_resamples=n_resamples, seed=seed))),
                      assumptions=assumptions, sentence=sentence, n=n, models=names,
                      details=BootstrapDetails(n_resamples, int(n_invalid), seed, label))


def unpaired_bootstrap(y_a, pred_a, y_b, pred_b, *, metric: Callable, n_resamples: int = DEFAULT_RESAMPLES,
                       confidence_level: float = 0.95, alternative: str = "two-sided", seed: int = 0,
                       weight_a=None, weight_b=None, vectorized: bool = False, names: Sequence[str] | None = None,
                       metric_name: str | None = None) -> TestResult:
    r"""Bootstrap of the difference of any metric between two models scored on *different* samples.

    As :func:`paired_bootstrap`, but each replicate resamples each model's own test set independently: A's
    :math:`n_A` samples with replacement and, separately, B's :math:`n_B`, so
    :math:`\delta^*_r = f(y_A, a; w_A^{(r)}) - f(y_B, b; w_B^{(r)})` (Efron & Tibshirani 1993, §8.3: the
    two-sample bootstrap). Counts are drawn a chunk of replicates at a time (A's chunk, then B's) from one generator
    seeded with ``seed``; a ``vectorized`` metric is called once per chunk and model. The p-value (shift method),
    the percentile interval and the treatment of undefined replicates are those of :func:`paired_bootstrap`.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = _check_bootstrap(metric, n_resamples)
    ya, yb = np.asarray(y_a), np.asarray(y_b)
    a, b = np.asarray(pred_a), np.asarray(pred_b)
    sizes = []
    for which, y, pred in (("a", ya, a), ("b", yb, b)):
        n = y.shape[0] if y.ndim else 0
        if n < 2:
            raise AssessError(f"the unpaired bootstrap needs at least 2 samples per model (`y_{which}` has {n})")
        if pred.ndim == 0 or pred.shape[0] != n:
            raise AssessError(f"`pred_{which}` must have one row per sample of `y_{which}` ({n}) "
                              f"(got shape {pred.shape})")
        sizes.append(n)
    n_a, n_b = sizes
    wa = _bootstrap_weight(weight_a, n_a, "weight_a")
    wb = _bootstrap_weight(weight_b, n_b, "weight_b")
    names = model_names(names, 2)
    label = metric_name or getattr(metric, "__name__", "metric")
    rows_a, rows_b = _rows_of(metric, ya, a, vectorized), _rows_of(metric, yb, b, vectorized)
    observed = (_observed(metric, ya, a, wa, rows_a, vectorized)
                - _observed(metric, yb, b, wb, rows_b, vectorized))
    rng = np.random.default_rng(seed)
    deltas = np.empty(n_resamples)
    chunk = max(1, min(n_resamples, 4_000_000 // max(n_a, n_b)))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        counts_a = _resample_counts(rng, size, n_a, wa)
        counts_b = _resample_counts(rng, size, n_b, wb)
        deltas[start:start + size] = _replicates(rows_a, counts_a) - _replicates(rows_b, counts_b)
    p, low, high, valid, n_invalid = shift_summary(deltas, observed, alternative, confidence_level,
                                                     "the unpaired bootstrap")
    assumptions = [
        Assumption(INDEPENDENT_SAMPLES, None, "each model's samples are resampled on their own, as independent of "
                                              "the other model's"),
        *_bootstrap_assumptions(n_resamples, valid, n_invalid),
    ]
    lead = _bootstrap_lead(names, label, observed, low, high, confidence_level,
                           f"on {count(n_a)} and {count(n_b)} samples")
    sentence = f"{lead}; {verdict(p, alpha_of(confidence_level), 'unpaired bootstrap')}."
    return TestResult(test="unpaired_bootstrap", method="unpaired bootstrap (percentile interval, shift p-value)",
                      statistic=observed, pvalue=p, df=None, alternative=alternative,
                      effect=Effect(f"{metric_words(label)} difference (A - B)", observed,
                                    ConfidenceInterval(low, high, confidence_level, IntervalMethod(
                                        "bootstrap-percentile", n_resamples=n_resamples, seed=seed))),
                      assumptions=assumptions, sentence=sentence, n=n_a + n_b, models=names,
                      details=UnpairedBootstrapDetails(n_resamples, int(n_invalid), seed, label, n_a, n_b))


def unpaired_delong(y_a, score_a, y_b, score_b, *, alternative: str = "two-sided", confidence_level: float = 0.95,
                    names: Sequence[str] | None = None) -> TestResult:
    r"""DeLong's test for the difference of two ROC AUCs measured on *independent* samples.

    Each model's AUC :math:`\hat A` and its variance :math:`V_A = S_{10}/m_A + S_{01}/n_A` come from its own
    placement values (:func:`assess.intervals.delong_variance`; DeLong, DeLong & Clarke-Pearson 1988). With
    independent samples the covariance term of the paired test is zero, so the variance of the difference is the
    sum of the two variances:

    .. math:: D = \frac{\hat A - \hat B}{\sqrt{V_A + V_B}}, \qquad
        \nu = \frac{(V_A + V_B)^2}{V_A^2/(N_A - 1) + V_B^2/(N_B - 1)}

    with :math:`N` each model's number of samples; D is referred to Student's t with the Welch–Satterthwaite-type
    df ν, exactly as R ``pROC::roc.test(paired = FALSE, method = "delong")``. Effect: the AUC difference A − B with
    the matching t interval. ``y_a``/``y_b`` are 0/1 (1 = positive); higher scores mean more positive.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    fits = []
    for which, y, s in (("a", y_a, score_a), ("b", y_b, score_b)):
        yy = as_bool_vector(y, f"y_{which}")
        ss = as_float_vector(s, f"score_{which}")
        check_same_length(yy, ss, (f"y_{which}", f"score_{which}"))
        m, n = int(yy.sum()), int((~yy).sum())
        if m < 2 or n < 2:
            raise AssessError(f"DeLong needs at least 2 positives and 2 negatives in `y_{which}` (got {m} positives, "
                              f"{n} negatives)")
        auc, var = delong_variance(*delong_placements(yy, ss))
        fits.append((auc, var, m, n))
    names = model_names(names, 2)
    (auc_a, var_a, m_a, n_a), (auc_b, var_b, m_b, n_b) = fits
    diff = auc_a - auc_b
    var = var_a + var_b
    se = math.sqrt(var)
    if se > 0:
        stat = diff / se
        df = var * var / (var_a * var_a / (m_a + n_a - 1) + var_b * var_b / (m_b + n_b - 1))
    else:
        stat = math.nan if diff == 0 else math.copysign(math.inf, diff)
        df = float(m_a + n_a + m_b + n_b - 2)   # both variances are 0: no Welch df; the p-value is 0 or undefined
        if diff == 0:
            warn_undefined("DeLong is undefined: both models separate their classes perfectly (zero variance)")
    dist = StudentT(df)
    p = pvalue(dist, stat, alternative) if not math.isnan(stat) else math.nan
    low, high = interval(diff, se, dist, alternative, confidence_level)
    assumptions = [Assumption(INDEPENDENT_SAMPLES, None, "each model scored its own samples; the AUCs are "
                                                         "uncorrelated"),
                   Assumption("large-sample approximation", None,
                              f"{count(m_a)} + {count(m_b)} positives and {count(n_a)} + {count(n_b)} "
                              "negatives; DeLong's variance is asymptotic")]
    sentence = _auc_sentence(names, auc_a, auc_b, low, high, p, confidence_level, where=" on their own samples",
                             each=", each on its own samples")
    return TestResult(test="unpaired_delong", method="DeLong test for two ROC AUCs on independent samples",
                      statistic=stat, pvalue=p, df=float(df), alternative=alternative,
                      effect=Effect("ROC AUC difference (A - B)", diff,
                                    ConfidenceInterval(low, high, confidence_level, "t (DeLong variances)")),
                      assumptions=assumptions, sentence=sentence, n=m_a + n_a + m_b + n_b, models=names,
                      details=UnpairedDeLongDetails(auc_a, auc_b, float(var_a), float(var_b), m_a, n_a, m_b, n_b))


def welch_t(a, b, *, alternative: str = "two-sided", confidence_level: float = 0.95,
            names: Sequence[str] | None = None, metric: str = "score", unit: str = "values",
            higher_is_better: bool = True) -> TestResult:
    r"""Welch's t-test of the means of two independent samples (per-sample losses, or per-fold scores of models
    evaluated separately).

    With sample means :math:`\bar a, \bar b`, variances :math:`s_a^2, s_b^2` (ddof 1) and sizes
    :math:`n_a, n_b`,

    .. math:: t = \frac{\bar a - \bar b}{\sqrt{s_a^2/n_a + s_b^2/n_b}}, \qquad
        \nu = \frac{(s_a^2/n_a + s_b^2/n_b)^2}{\frac{(s_a^2/n_a)^2}{n_a - 1} + \frac{(s_b^2/n_b)^2}{n_b - 1}}

    as :func:`scipy.stats.ttest_ind` with ``equal_var=False`` (Welch 1947). Effect: the mean difference A − B with
    the t interval on ν df. ``metric``, ``unit`` and ``higher_is_better`` only word the sentence (for losses, lower
    is better). Assumption: normal means — at least 30 values per sample (central limit theorem), else
    Shapiro–Wilk on each sample.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    a = as_float_vector(a, "a", min_size=2)
    b = as_float_vector(b, "b", min_size=2)
    names = model_names(names, 2)
    n_a, n_b = a.size, b.size
    mean_a, mean_b = float(a.mean()), float(b.mean())
    va, vb = float(a.var(ddof=1)) / n_a, float(b.var(ddof=1)) / n_b
    se = math.sqrt(va + vb)
    diff = mean_a - mean_b
    if se > 0:
        stat = diff / se
        df = (va + vb) ** 2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1))
    else:
        stat = math.nan if diff == 0 else math.copysign(math.inf, diff)
        df = float(n_a + n_b - 2)   # both samples constant: no Welch df; the p-value is 0 or undefined
        if diff == 0:
            warn_undefined("Welch's t-test is undefined: both samples are constant and equal")
    dist = StudentT(df)
    p = pvalue(dist, stat, alternative) if not math.isnan(stat) else math.nan
    low, high = interval(diff, se, dist, alternative, confidence_level)
    assumptions = [_normal_means(a, b), Assumption(INDEPENDENT_SAMPLES, None, "the two samples are independent")]
    lead = _two_sample_lead(names, metric, "mean", diff, low, high, confidence_level, n_a, n_b, unit,
                            higher_is_better)
    sentence = f"{lead}; {verdict(p, alpha_of(confidence_level), 'Welch t-test')}."
    return TestResult(test="welch_t", method="Welch's t-test (unequal variances)", statistic=stat, pvalue=p,
                      df=float(df), alternative=alternative,
                      effect=Effect("mean difference (A - B)", diff,
                                    ConfidenceInterval(low, high, confidence_level, "Welch t")),
                      assumptions=assumptions, sentence=sentence, n=n_a + n_b, models=names,
                      details=WelchDetails(mean_a, mean_b, float(a.std(ddof=1)), float(b.std(ddof=1)), n_a, n_b))


def mann_whitney(a, b, *, alternative: str = "two-sided", confidence_level: float = 0.95, method: str = "auto",
                 names: Sequence[str] | None = None, metric: str = "score", unit: str = "values",
                 higher_is_better: bool = True) -> TestResult:
    r"""Mann–Whitney U test (Wilcoxon rank-sum) of two independent samples.

    The statistic is :math:`U_A = \#\{(i, j): a_i > b_j\} + \tfrac12 \#\{a_i = b_j\}` and the p-value that of
    :func:`scipy.stats.mannwhitneyu` with the same ``method`` (``"auto"``: exact when both samples have at most 8
    values and no ties, else the normal approximation with tie and continuity corrections). ``alternative =
    "greater"``: A's values tend to be larger.

    Effect: the probability of superiority :math:`\hat\theta = U_A / (n_a n_b) = P(a > b) + \tfrac12 P(a = b)`
    (the common-language effect size; an AUC of A's values against B's), with the normal interval from its
    DeLong/Sen variance (the placement values of :func:`assess.intervals.delong_variance`), clipped to [0, 1];
    0.5 means no tendency. ``metric``, ``unit`` and ``higher_is_better`` only word the sentence.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    check_choice("method", method, MANN_WHITNEY_METHODS)
    a = as_float_vector(a, "a")
    b = as_float_vector(b, "b")
    names = model_names(names, 2)
    n_a, n_b = a.size, b.size
    res = sps.mannwhitneyu(a, b, alternative=alternative, method=method)
    u_a, p = float(res.statistic), float(res.pvalue)
    theta = u_a / (n_a * n_b)
    if n_a >= 2 and n_b >= 2:
        is_a = np.r_[np.ones(n_a, dtype=bool), np.zeros(n_b, dtype=bool)]
        _, var = delong_variance(*delong_placements(is_a, np.r_[a, b]))
        low, high = interval(theta, math.sqrt(var), NORMAL, alternative, confidence_level)
        low, high = max(low, 0.0), min(high, 1.0)
    else:
        low = high = math.nan
    assumptions = [
        Assumption("large samples or no ties", None if min(n_a, n_b) > 8 else bool(np.unique(np.r_[a, b]).size
                                                                                   == n_a + n_b),
                   f"{count(n_a)} and {count(n_b)} values; the normal approximation (ties corrected) is used "
                   "above 8 values per sample or with ties"),
        Assumption(INDEPENDENT_SAMPLES, None, "the two samples are independent"),
    ]
    med_a, med_b = float(np.median(a)), float(np.median(b))
    a_n, b_n = names
    word = "higher" if higher_is_better else "lower"
    metric = metric_words(metric)
    if theta == 0.5:
        lead = f"{a_n}'s and {b_n}'s {metric} show no tendency either way ({count(n_a)} and {count(n_b)} {unit})"
    else:
        larger, smaller = (a_n, b_n) if theta > 0.5 else (b_n, a_n)
        prob = theta if theta > 0.5 else 1.0 - theta
        ci = (confidence_interval(low, high, confidence_level) if theta > 0.5
              else confidence_interval(1.0 - high, 1.0 - low, confidence_level))
        better = larger if higher_is_better else smaller
        lead = (f"{better}'s {metric} tends to be {word} (a random {larger} value exceeds a random {smaller} value "
                f"with probability {significant(prob)}" + (f"; {ci}" if ci else "") + f"; {count(n_a)} and "
                f"{count(n_b)} {unit})")
    sentence = f"{lead}; {verdict(p, alpha_of(confidence_level), 'Mann-Whitney')}."
    return TestResult(test="mann_whitney", method="Mann-Whitney U test", statistic=u_a, pvalue=p, df=None,
                      alternative=alternative,
                      effect=Effect("probability of superiority P(A > B)", theta,
                                    ConfidenceInterval(low, high, confidence_level, "normal (DeLong-Sen variance)")),
                      assumptions=assumptions, sentence=sentence, n=n_a + n_b, models=names,
                      details=MannWhitneyDetails(float(n_a * n_b - u_a), med_a, med_b, n_a, n_b))


# ------------------------------------------------------------------------------------------------------ helpers


def _check_bootstrap(metric, n_resamples) -> int:
    if not callable(metric):
        raise AssessError(f"`metric` must be a callable f(y_true, y, sample_weight=None) (got {metric!r})")
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 1:
        raise AssessError(f"`n_resamples` must be a positive whole number (got {n_resamples!r})")
    return int(n_resamples)


def _bootstrap_weight(weight, n: int, name: str) -> np.ndarray | None:
    if weight is None:
        return None
    weight = as_float_vector(weight, name)
    if weight.size != n:
        raise AssessError(f"`{name}` must have one value per sample ({n}) (got {weight.size})")
    if (weight < 0).any():
        raise AssessError(f"`{name}` must be non-negative (got {float(weight.min())})")
    return weight


def _rows_of(metric, y, pred, vectorized: bool) -> Callable[[np.ndarray], np.ndarray]:
    """The metric of one model as a function of a (replicates, n) matrix of weights, one value per row: a
    vectorized metric's ``prepare(y, pred)`` when it has one (its per-model work, e.g. the sort of the scores, done
    once for every chunk), else one call per chunk with the 2-D weights, else one call per row."""
    if vectorized:
        prepare = getattr(metric, "prepare", None)
        if callable(prepare):
            return prepare(y, pred)
        return lambda counts: metric(y, pred, sample_weight=counts)
    return lambda counts: np.array([float(metric(y, pred, sample_weight=row)) for row in counts])


def _observed(metric, y, pred, weight, rows, vectorized: bool) -> float:
    """The metric on the data as they are; a vectorized metric gets one row of weights (the weights or ones)."""
    if vectorized:     # whole-number ones, as the counts of the replicates (a prepared metric keeps its layout)
        w1 = (np.ones(y.shape[0], dtype=np.int64) if weight is None else weight)[None, :]
        return float(np.asarray(rows(w1)).reshape(-1)[0])
    return float(metric(y, pred, sample_weight=weight))


def _resample_counts(rng: np.random.Generator, size: int, n: int, weight) -> np.ndarray:
    """(size, n) matrix: how often each of n samples is drawn in each of `size` resamples of n — whole numbers, or
    times the sample weights when given (floats).

    One bincount of n uniform indices per resample, the resamples drawn one after the other from ``rng`` — the same
    numbers as one (size, n) draw, as the generator's stream is consumed in the same order — so each bincount's
    random increments land in an n-long row (8 MB at 1e6, cache-sized) rather than a size·n one: a third less time
    at 1e6 rows than one bincount of the whole chunk."""
    counts = np.empty((size, n), dtype=np.int64)
    for r in range(size):
        counts[r] = np.bincount(rng.integers(0, n, size=n), minlength=n)
    return counts if weight is None else counts * weight


def _replicates(rows, counts: np.ndarray) -> np.ndarray:
    """The metric on each resample (row of count weights)."""
    size = counts.shape[0]
    values = np.asarray(rows(counts), dtype=float)
    if values.shape != (size,):
        raise AssessError(f"a vectorized `metric` must return one value per replicate ({size}) "
                          f"(got shape {values.shape})")
    return values


def shift_summary(deltas: np.ndarray, observed: float, alternative: str, confidence_level: float, what: str):
    """p-value (shift method), percentile interval, the valid replicates and the number of undefined ones."""
    valid = deltas[np.isfinite(deltas)]
    n_invalid = deltas.size - valid.size
    if valid.size == 0 or not math.isfinite(observed):
        warn_undefined(f"{what} is undefined: the metric is undefined on the data or on every resample "
                       f"({n_invalid} of {deltas.size})")
        return math.nan, math.nan, math.nan, valid, n_invalid
    centred = valid - observed
    if alternative == "two-sided":
        extreme = np.count_nonzero(np.abs(centred) >= abs(observed))
        low, high = (float(v) for v in np.quantile(valid, [(1 - confidence_level) / 2, (1 + confidence_level) / 2]))
    elif alternative == "greater":
        extreme = np.count_nonzero(centred >= observed)
        low, high = float(np.quantile(valid, 1 - confidence_level)), math.inf
    else:
        extreme = np.count_nonzero(centred <= observed)
        low, high = -math.inf, float(np.quantile(valid, confidence_level))
    return (1.0 + extreme) / (valid.size + 1.0), low, high, valid, n_invalid


def _bootstrap_assumptions(n_resamples: int, valid: np.ndarray, n_invalid: int) -> list[Assumption]:
    return [
        Assumption("at least 1,000 resamples", n_resamples >= 1000,
                   f"{count(n_resamples)} resamples; the smallest possible p-value is "
                   f"{significant(1 / (valid.size + 1))}"),
        Assumption("metric defined on every resample", n_invalid == 0,
                   f"{count(n_invalid)} of {count(n_resamples)} resamples gave an undefined metric"),
    ]


def _bootstrap_lead(names, label, observed, low, high, confidence_level, where: str) -> str:
    a_n, b_n = names
    label = metric_words(label)
    if observed == 0:
        return f"{a_n} and {b_n} have the same {label} {where}"
    better, worse = (a_n, b_n) if observed > 0 else (b_n, a_n)
    ci = (confidence_interval(low, high, confidence_level) if observed > 0
          else confidence_interval(-high, -low, confidence_level))
    return (f"{better}'s {label} is higher than {worse}'s by {significant(abs(observed))} {where}"
            + (f" ({ci})" if ci else ""))


def _two_sample_lead(names, metric, centre, diff, low, high, confidence_level, n_a, n_b, unit,
                     higher_is_better) -> str:
    a, b = names
    metric = metric_words(metric)
    if diff == 0:
        return f"{a} and {b} have the same {centre} {metric} ({count(n_a)} and {count(n_b)} {unit})"
    larger, smaller = (a, b) if diff > 0 else (b, a)
    ci = (confidence_interval(low, high, confidence_level) if diff > 0
          else confidence_interval(-high, -low, confidence_level))
    if higher_is_better:
        text = f"{larger}'s {centre} {metric} is higher than {smaller}'s by {significant(abs(diff))}"
    else:
        text = f"{smaller}'s {centre} {metric} is lower than {larger}'s by {significant(abs(diff))}"
    return text + f" ({count(n_a)} and {count(n_b)} {unit}" + (f"; difference {ci})" if ci else ")")


def _normal_means(a: np.ndarray, b: np.ndarray) -> Assumption:
    name = "normal sample means"
    if min(a.size, b.size) >= 30:
        return Assumption(name, True, f"{count(a.size)} and {count(b.size)} values: the means are close to "
                                      "normal by the central limit theorem")
    ps = [_shapiro_p(x) for x in (a, b)]
    known = [q for q in ps if not math.isnan(q)]
    met = None if len(known) < 2 else all(q > 0.05 for q in known)
    return Assumption(name, met, f"fewer than 30 values per sample; Shapiro–Wilk {', '.join(p_value(q) for q in ps)}")


def _shapiro_p(x: np.ndarray) -> float:
    if x.size < 3 or np.ptp(x) == 0:
        return math.nan
    return float(sps.shapiro(x).pvalue)


@dataclass(frozen=True)
class DMCore:
    """The Diebold–Mariano numbers of one loss-differential series: its mean with the interval that inverts the
    test, the statistic, p-value and df (None: normal reference), and the lag truncation used."""

    n: int
    mean: float
    low: float
    high: float
    statistic: float
    pvalue: float
    df: float | None
    h_used: int


def dm_core(d: np.ndarray, h: int, *, harvey_correction: bool, alternative: str,
            confidence_level: float) -> DMCore:
    r"""Diebold–Mariano on a loss differential :math:`d_1..d_n` in time order, h the forecast horizon.

    :math:`\hat\gamma_k = \frac1n \sum_{t=k+1}^n (d_t - \bar d)(d_{t-k} - \bar d)`,
    :math:`DM = \bar d / \sqrt{(\hat\gamma_0 + 2\sum_{k=1}^{h-1}\hat\gamma_k)/n}`; with the
    Harvey–Leybourne–Newbold correction :math:`DM^* = DM\sqrt{(n + 1 - 2h + h(h-1)/n)/n}` against
    :math:`t_{n-1}`, else DM against N(0, 1). A long-run variance that is not positive for h > 1 falls back to
    h = 1 (as R ``forecast::dm.test``). The caller checks n ≥ 3 and h < n.
    """
    n = d.size
    mean = float(d.mean())
    c = d - mean
    h_used = h
    lrv = _long_run_variance(c, h)
    if lrv <= 0 and h > 1:
        h_used = 1
        lrv = _long_run_variance(c, 1)
    se = math.sqrt(lrv / n) if lrv > 0 else 0.0
    factor = math.sqrt((n + 1 - 2 * h_used + h_used * (h_used - 1) / n) / n) if harvey_correction else 1.0
    if se > 0:
        stat = mean / se * factor
    else:
        stat = math.nan if mean == 0 else math.copysign(math.inf, mean)
    dist = StudentT(n - 1) if harvey_correction else NORMAL
    p = pvalue(dist, stat, alternative) if not math.isnan(stat) else math.nan
    low, high = interval(mean, se / factor, dist, alternative, confidence_level)
    return DMCore(n, mean, low, high, stat, p, float(n - 1) if harvey_correction else None, h_used)


def forecast_losses(y_true, pred_a, pred_b, loss: str) -> tuple[np.ndarray, np.ndarray]:
    """Two forecasts' per-row losses, squared or absolute errors, after checking the three arrays. Arrays of shape
    (n, K) are the K outputs of a multi-output regression: a row's loss is the mean over its outputs (as
    `assess.stats.shaping.sample_losses`)."""
    check_choice("loss", loss, ("squared", "absolute"))
    if np.ndim(y_true) == 2:
        columns = [forecast_losses(np.asarray(y_true)[:, k], np.asarray(pred_a)[:, k], np.asarray(pred_b)[:, k], loss)
                   for k in range(np.shape(y_true)[1])]
        return tuple(np.mean([c[i] for c in columns], axis=0) for i in (0, 1))
    y = as_float_vector(y_true, "y_true")
    fa = as_float_vector(pred_a, "pred_a")
    fb = as_float_vector(pred_b, "pred_b")
    check_same_length(y, fa, ("y_true", "pred_a"))
    check_same_length(y, fb, ("y_true", "pred_b"))
    ea, eb = y - fa, y - fb
    return (ea * ea, eb * eb) if loss == "squared" else (np.abs(ea), np.abs(eb))


def units_of(target: str | tuple[str, ...] | None, power: int = 1) -> str:
    """The units of ``y_true`` for sentences, named by its column (``power`` 2: squared, 0: none); a tuple of
    columns is a multi-output regression compared on the average over its outputs
    (`assess.stats.inputs.comparison_predictions`)."""
    if power == 0:
        return ""
    if isinstance(target, tuple):
        return f"{'squared units' if power == 2 else 'units'} averaged over outputs {listing(target)}"
    units = f"{target} units" if target else "units of y_true"
    return f"squared {units}" if power == 2 else units


def loss_words(loss: str, target: str | None) -> tuple[str, str]:
    """(what the loss is called, its units) for sentences: absolute error in the units of ``y_true`` (named by its
    column), squared error in those units squared."""
    return ("absolute error", units_of(target)) if loss == "absolute" else ("squared error", units_of(target, 2))


def loss_lead(names, loss: str, target: str | None, diff: float, low: float, high: float,
              confidence_level: float, where: str, noun: str = "forecasts") -> str:
    """The plain-language lead of a mean loss difference (A − B, lower is better) in the units of ``y_true``:
    "ets's forecasts are off by 3.2 (y_true units) less on average than naive's{where} (95% CI 1.1 to 5.4)"."""
    a, b = names
    word, units = loss_words(loss, target)
    if diff == 0:
        return f"{a} and {b} have the same mean {word}{where}"
    better, worse = (b, a) if diff > 0 else (a, b)
    ci = (confidence_interval(low, high, confidence_level) if diff > 0
          else confidence_interval(-high, -low, confidence_level))
    ci = f" ({ci})" if ci else ""
    if loss == "absolute":
        return (f"{better}'s {noun} are off by {significant(abs(diff))} ({units}) less on average than {worse}'s"
                f"{where}{ci}")
    return f"{better}'s mean {word} is lower than {worse}'s by {significant(abs(diff))} ({units}){where}{ci}"


def diebold_mariano(y_true, pred_a, pred_b, *, loss: str = "squared", h: int = 1, alternative: str = "two-sided",
                    confidence_level: float = 0.95, harvey_correction: bool = True,
                    names: Sequence[str] | None = None, target: str | None = None) -> TestResult:
    r"""Diebold–Mariano test of equal forecast accuracy, with the Harvey–Leybourne–Newbold correction.

    Rows are in time order. With errors :math:`e_t = y_t - \hat y_t`, loss :math:`L` (``"squared"``
    :math:`e^2` or ``"absolute"`` :math:`|e|`), differential :math:`d_t = L(e^A_t) - L(e^B_t)`, autocovariances
    :math:`\hat\gamma_k = \frac1n \sum_{t=k+1}^n (d_t - \bar d)(d_{t-k} - \bar d)` and ``h`` the forecast
    horizon,

    .. math:: DM = \frac{\bar d}{\sqrt{(\hat\gamma_0 + 2\sum_{k=1}^{h-1}\hat\gamma_k)/n}}, \qquad
        DM^* = DM\sqrt{\frac{n + 1 - 2h + h(h-1)/n}{n}} \sim t_{n-1}

    (Diebold & Mariano 1995; Harvey, Leybourne & Newbold 1997; :func:`dm_core`). ``harvey_correction=False``
    gives the original DM against N(0, 1). When the long-run variance estimate is not positive for h > 1 the
    test falls back to h = 1, as R ``forecast::dm.test`` (``details.h_used``). One horizon and one series at a
    time: for files with several, :func:`assess.stats.horizons.diebold_mariano_by_horizon`.

    Effect: the mean loss differential :math:`\bar d` (A − B; positive means A's forecasts are worse) with the
    interval that inverts the test. ``alternative="greater"``: A's expected loss exceeds B's. ``target`` names
    what ``y_true`` measures, for the units in the sentence.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    la, lb = forecast_losses(y_true, pred_a, pred_b, loss)
    n = la.size
    if isinstance(h, bool) or int(h) != h or h < 1:
        raise AssessError(f"`h` must be a whole number ≥ 1 (got {h!r})")
    h = int(h)
    if n < 3 or h >= n:
        raise AssessError(f"Diebold–Mariano needs more than h = {h} forecasts and at least 3 (got {n})")
    names = model_names(names, 2)
    core = dm_core(la - lb, h, harvey_correction=harvey_correction, alternative=alternative,
                   confidence_level=confidence_level)
    if math.isnan(core.statistic):
        warn_undefined("Diebold–Mariano is undefined: the loss differential is zero throughout")
    word = loss_words(loss, target)[0]
    assumptions = [Assumption("stationary loss differential", None,
                              "the loss differential is assumed covariance-stationary"),
                   Assumption("variance estimate positive at horizon h", core.h_used == h,
                              f"long-run variance at h = {h}" + ("" if core.h_used == h else
                                                                  " was not positive; fell back to h = 1"))]
    lead = loss_lead(names, loss, target, core.mean, core.low, core.high, confidence_level,
                     f" over {count(n)} forecasts")
    method = "Diebold–Mariano" + (" with Harvey–Leybourne–Newbold correction" if harvey_correction else "")
    sentence = f"{lead}; {verdict(core.pvalue, alpha_of(confidence_level), 'Diebold–Mariano')}."
    return TestResult(test="diebold_mariano", method=method, statistic=core.statistic, pvalue=core.pvalue,
                      df=core.df, alternative=alternative,
                      effect=Effect(f"mean {word} difference (A - B)", core.mean,
                                    ConfidenceInterval(core.low, core.high, confidence_level,
                                                       "t (Harvey–Leybourne–Newbold)" if harvey_correction
                                                       else "normal")),
                      assumptions=assumptions, sentence=sentence, n=n, models=names,
                      details=DieboldMarianoDetails(loss, h, core.h_used, float(la.mean()), float(lb.mean())))


def _long_run_variance(c: np.ndarray, h: int) -> float:
    n = c.size
    total = float(c @ c) / n
    for k in range(1, h):
        total += 2.0 * float(c[k:] @ c[:-k]) / n
    return total
