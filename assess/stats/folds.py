"""Tests on per-fold (or per-resample) scores of models: t-tests, Wilcoxon, ANOVA, Kruskal–Wallis, Friedman with
Nemenyi, the Nadeau–Bengio corrected resampled t-test and Dietterich's 5×2cv t-test.

Inputs are arrays of one metric per fold, aligned across models (see :func:`assess.stats.shaping.fold_table`).
``alternative="greater"`` always means the first model (A) scores higher than the second (B).

References: ISO/IEC TS 4213:2022 clauses 7.2 (paired Student's t-test), 7.3 (analysis of variance), 7.4
(Kruskal–Wallis), 7.6 (Wilcoxon signed-ranks); L. Iocchi, *Performance Evaluation* (lecture slides), "Comparing
learning algorithms L_A and L_B" (the k-fold differences δ_i);
Demšar (2006), *Statistical comparisons of classifiers over multiple data sets*, JMLR 7:1–30.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import special
from scipy import stats as sps

from assess.core.errors import AssessError
from assess.core.formatting import confidence_interval, count, p_value, significant
from assess.intervals import ConfidenceInterval
from assess.stats._common import (NORMAL, StudentT, alpha_of, as_float_vector, check_alternative, check_choice,
                                  check_confidence_level, check_same_length, interval, metric_words, model_names,
                                  pvalue, verdict, warn_undefined)
from assess.stats._result import Assumption, Effect, TestResult, no_interval
from assess.stats.counts import ncf_interval


@dataclass(frozen=True)
class PairedTDetails:
    """Both models' mean scores, the standard deviation of the differences and Cohen's d_z = mean / sd."""

    mean_a: float
    mean_b: float
    sd_difference: float
    cohen_dz: float


@dataclass(frozen=True)
class WilcoxonDetails:
    """How many differences were zero, and how they were treated (``zero_method`` of SciPy)."""

    n_zero: int
    zero_method: str


@dataclass(frozen=True)
class AnovaDetails:
    """Mean score per model."""

    means: Mapping[str, float]


@dataclass(frozen=True)
class KruskalDetails:
    """Median score per model."""

    medians: Mapping[str, float]


@dataclass(frozen=True)
class FriedmanDetails:
    """What a critical difference diagram needs: ``average_ranks`` (model → rank, 1 = best, ascending),
    ``critical_difference`` and its ``q_alpha`` at ``alpha``; ``n_blocks`` folds; the tie-corrected ``chi2``."""

    average_ranks: Mapping[str, float]
    critical_difference: float
    q_alpha: float
    alpha: float
    n_blocks: int
    chi2: float
    higher_is_better: bool


@dataclass(frozen=True)
class CorrectedTDetails:
    """The test/train size ratio n2/n1 used in the correction, and both models' mean scores."""

    test_train_ratio: float
    mean_a: float
    mean_b: float


@dataclass(frozen=True)
class CV5x2Details:
    """The 5 variance estimates s_i² of Dietterich's statistic."""

    variances: list


@dataclass(frozen=True)
class RankPairDetails:
    """The average ranks of the two models of a post-hoc pair after Friedman."""

    average_rank_a: float
    average_rank_b: float


def paired_t(a, b, *, alternative: str = "two-sided", confidence_level: float = 0.95,
             names: Sequence[str] | None = None, metric: str = "score", unit: str = "pairs") -> TestResult:
    r"""Paired Student's t-test (ISO/IEC TS 4213 7.2) on per-fold scores of two models.

    With differences :math:`d_i = a_i - b_i`, :math:`t = \bar d / (s_d / \sqrt n)` on :math:`n - 1` df, as
    :func:`scipy.stats.ttest_rel` (Iocchi's :math:`\bar\delta` over k folds). Effect: the mean difference
    :math:`\bar d` with the t interval :math:`\bar d \pm t_{n-1} s_d / \sqrt n` (one-sided for one-sided
    alternatives); ``details.cohen_dz`` is :math:`\bar d / s_d`.

    Folds of one cross-validation share training data, so their differences are correlated and this test is
    anti-conservative on CV folds (Dietterich 1998; Nadeau & Bengio 2003): prefer
    :func:`corrected_resampled_t` there. ``metric`` and ``unit`` only word the sentence.

    >>> r = paired_t([0.81, 0.79, 0.84, 0.80], [0.78, 0.77, 0.80, 0.79])
    >>> round(r.statistic, 4), r.df
    (3.873, 3.0)
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    a, b, d = _paired(a, b, "paired t-test", min_n=2)
    names = model_names(names, 2)
    n = d.size
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    se = sd / math.sqrt(n)
    t = _ratio(mean, se)
    if math.isnan(t):
        warn_undefined("the paired t-test is undefined: every difference is zero")
    df = float(n - 1)
    dist = StudentT(df)
    p = pvalue(dist, t, alternative)
    low, high = interval(mean, se, dist, alternative, confidence_level)
    assumptions = [_normality(d, "differences"), _independent_folds()]
    sentence = _difference_sentence(names, metric, mean, low, high, confidence_level, n, unit, p, "paired t-test")
    return TestResult(test="paired_t", method="paired Student's t-test", statistic=t, pvalue=p, df=df,
                      alternative=alternative, effect=Effect("mean difference (A - B)", mean,
                                                            ConfidenceInterval(low, high, confidence_level, "t")),
                      assumptions=assumptions, sentence=sentence, n=n, models=names,
                      details=PairedTDetails(float(a.mean()), float(b.mean()), sd, _ratio(mean, sd)))


def wilcoxon(a, b, *, alternative: str = "two-sided", confidence_level: float = 0.95,
             zero_method: str = "wilcox", correction: bool = False, method: str = "auto",
             names: Sequence[str] | None = None, metric: str = "score", unit: str = "pairs") -> TestResult:
    r"""Wilcoxon signed-rank test (ISO/IEC TS 4213 7.6) on paired per-fold scores of two models.

    The p-value and statistic are those of :func:`scipy.stats.wilcoxon` with the same ``zero_method``,
    ``correction`` and ``method``. ``"auto"`` (SciPy's rule): the exact null distribution for n ≤ 50 without
    ties or zeros; with ties or zeros an exact permutation test for n ≤ 13 (slow: 2^n sign flips) and the normal
    approximation above; the normal approximation for n > 50. The two-sided statistic is :math:`\min(W^+, W^-)`,
    one-sided ones :math:`W^+`.

    Effect: the Hodges–Lehmann estimate, the median of the Walsh averages :math:`(d_i + d_j)/2, i \le j`, with
    the distribution-free interval between order statistics of the Walsh averages (Hollander & Wolfe,
    *Nonparametric Statistical Methods*, 3.2; as R ``wilcox.test(conf.int = TRUE)``): exact signed-rank quantiles
    when n < 50 and no zero differences, the normal approximation of the index otherwise; not computed (NaN)
    above 2,000 pairs. Zero differences are dropped for the estimate as in R.

    Assumption: at least 6 non-zero differences — with 5 the smallest exact two-sided p-value is
    2/32 = 0.0625, so no difference can reach 5 % significance (Demšar 2006 §3.1.3 for the fold setting).
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    check_choice("zero_method", zero_method, ("wilcox", "pratt", "zsplit"))
    check_choice("method", method, ("auto", "exact", "asymptotic"))
    a, b, d = _paired(a, b, "Wilcoxon signed-rank test", min_n=1)
    names = model_names(names, 2)
    n = d.size
    nonzero = d[d != 0]
    if nonzero.size == 0:
        stat, p = math.nan, math.nan
        warn_undefined("the Wilcoxon test is undefined: every difference is zero")
    else:
        exact = (method in ("auto", "exact") and n <= 50 and nonzero.size == n
                 and np.unique(np.abs(d)).size == n)
        if exact:
            stat, p = _signrank_exact(d, alternative)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                res = sps.wilcoxon(a, b, zero_method=zero_method, correction=correction, alternative=alternative,
                                   method=method)
            stat, p = float(res.statistic), float(res.pvalue)
    est, low, high = _hodges_lehmann(nonzero, alternative, confidence_level)
    assumptions = [
        Assumption("at least 6 non-zero differences", bool(nonzero.size >= 6),
                   f"{nonzero.size} non-zero differences of {n}; with 5 or fewer no two-sided p-value can be "
                   "below 0.05"),
        Assumption("symmetric differences", None, "the differences are assumed symmetric about their median"),
        _independent_folds(),
    ]
    if nonzero.size == 0:
        sentence = f"{names[0]} and {names[1]} score the same on all {n} {unit}; no test is possible."
    else:
        sentence = _difference_sentence(names, metric, est, low, high, confidence_level, n, unit, p, "Wilcoxon",
                                        what="median difference")
    return TestResult(test="wilcoxon", method="Wilcoxon signed-rank test", statistic=stat, pvalue=p, df=None,
                      alternative=alternative, effect=Effect("Hodges-Lehmann difference (A - B)", est,
                                    ConfidenceInterval(low, high, confidence_level,
                                                       "Walsh averages (Hollander-Wolfe)")),
                      assumptions=assumptions, sentence=sentence, n=n, models=names,
                      details=WilcoxonDetails(int(n - nonzero.size), zero_method))


def anova(*groups, confidence_level: float = 0.95, names: Sequence[str] | None = None,
          metric: str = "score") -> TestResult:
    r"""One-way analysis of variance (ISO/IEC TS 4213 7.3) of a metric across k ≥ 2 models (independent groups).

    :math:`F = \frac{SS_B/(k-1)}{SS_W/(N-k)}` on :math:`(k-1, N-k)` df, as :func:`scipy.stats.f_oneway`.
    Effect: :math:`\eta^2 = SS_B / SS_T` with the interval from inverting the noncentral F distribution in
    its noncentrality λ, reported as :math:`λ/(λ + N - k)` (Steiger 2004, *Psychological Methods* 9(2); as R
    ``effectsize::eta_squared``). Assumptions: normal residuals (Shapiro–Wilk), equal variances
    (Brown–Forsythe/Levene on medians), independent observations (folds of one CV are not).
    """
    confidence_level = check_confidence_level(confidence_level)
    arrays = _groups(groups, "ANOVA", min_size=2)
    k = len(arrays)
    names = model_names(names, k)
    f, p, ss_b, ss_t = _one_way(arrays)
    if math.isnan(f):
        warn_undefined("ANOVA is undefined: all values are equal")
    n_total = sum(x.size for x in arrays)
    df1, df2 = float(k - 1), float(n_total - k)
    eta2 = float(ss_b / ss_t) if ss_t > 0 else math.nan
    if math.isfinite(f):
        lam_lo, lam_hi = ncf_interval(f, df1, df2, confidence_level)
        eta_lo, eta_hi = lam_lo / (lam_lo + df2), lam_hi / (lam_hi + df2)
    else:
        eta_lo = eta_hi = math.nan
    resid = np.concatenate([x - x.mean() for x in arrays])
    lev_p = _one_way([np.abs(x - np.median(x)) for x in arrays])[1]   # Brown–Forsythe = Levene on medians
    assumptions = [
        _normality(resid, "residuals"),
        Assumption("equal variances", None if math.isnan(lev_p) else bool(lev_p > 0.05),
                   f"Brown–Forsythe (Levene on medians): {p_value(lev_p)}"),
        Assumption("independent observations", None,
                   "ANOVA treats every fold as an independent observation; folds of one cross-validation share "
                   "training data (use Friedman for blocked folds)"),
    ]
    sentence = _omnibus_sentence(names, [x.mean() for x in arrays], metric, p, confidence_level, "ANOVA", "mean")
    return TestResult(test="anova", method="one-way ANOVA", statistic=f, pvalue=p, df=(df1, df2), alternative=None,
                      effect=Effect("eta-squared", eta2,
                                    ConfidenceInterval(eta_lo, eta_hi, confidence_level, "noncentral F inversion")),
                      assumptions=assumptions,
                      sentence=sentence, n=n_total, models=names,
                      details=AnovaDetails(dict(zip(names, [float(x.mean()) for x in arrays]))))


def kruskal(*groups, confidence_level: float = 0.95, names: Sequence[str] | None = None,
            metric: str = "score") -> TestResult:
    r"""Kruskal–Wallis H test (ISO/IEC TS 4213 7.4) of a metric across k ≥ 2 models (independent groups).

    :math:`H = \frac{12}{N(N+1)} \sum_j n_j \bar r_j^2 - 3(N+1)`, divided by the tie correction, on k − 1 df,
    as :func:`scipy.stats.kruskal` (NaN when all values are equal). Effect: :math:`\varepsilon^2 = H / (N - 1)`
    (Tomczak & Tomczak 2014, *Trends Sport Sci* 21(1)); no interval. Assumption: at least 5 values per group
    for the chi-squared approximation.
    """
    confidence_level = check_confidence_level(confidence_level)
    arrays = _groups(groups, "Kruskal-Wallis", min_size=1)
    k = len(arrays)
    names = model_names(names, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sps.kruskal(*arrays)
    h, p = float(res.statistic), float(res.pvalue)
    if math.isnan(h):
        warn_undefined("Kruskal-Wallis is undefined: all values are equal")
    n_total = sum(x.size for x in arrays)
    smallest = min(x.size for x in arrays)
    assumptions = [
        Assumption("at least 5 values per group", smallest >= 5,
                   f"smallest group has {smallest} values; the chi-squared approximation needs about 5"),
        Assumption("independent observations", None,
                   "folds of one cross-validation share training data (use Friedman for blocked folds)"),
    ]
    sentence = _omnibus_sentence(names, [float(np.median(x)) for x in arrays], metric, p, confidence_level,
                                 "Kruskal-Wallis", "median")
    return TestResult(test="kruskal", method="Kruskal-Wallis H test", statistic=h, pvalue=p, df=float(k - 1),
                      alternative=None,
                      effect=Effect("epsilon-squared", h / (n_total - 1), no_interval(confidence_level)),
                      assumptions=assumptions, sentence=sentence, n=n_total, models=names,
                      details=KruskalDetails(dict(zip(names, [float(np.median(x)) for x in arrays]))))


@dataclass(frozen=True)
class NemenyiResult:
    """Nemenyi post-hoc comparison after Friedman (Demšar 2006 §3.2.2), the numbers of a CD diagram.

    ``average_ranks``: mean rank per model (1 = best), ascending; ``critical_difference``:
    :math:`CD = q_\\alpha \\sqrt{k(k+1)/(6N)}`; ``q_alpha``: the Studentized range quantile over √2;
    ``pvalues``: k × k family-wise p-values (diagonal NaN); ``alpha``; ``n_blocks``: N folds.
    """

    average_ranks: pd.Series
    critical_difference: float
    q_alpha: float
    pvalues: pd.DataFrame
    alpha: float
    n_blocks: int

    def significant(self) -> pd.DataFrame:
        """k × k booleans: average ranks differ by more than the critical difference."""
        r = self.average_ranks
        diff = np.abs(r.to_numpy()[:, None] - r.to_numpy()[None, :])
        return pd.DataFrame(diff > self.critical_difference, index=r.index, columns=r.index)

    def to_frame(self) -> pd.DataFrame:
        """One row per pair: model_a, model_b, rank_difference, critical_difference, pvalue, significant."""
        r = self.average_ranks
        rows = []
        for i, a in enumerate(r.index):
            for b in r.index[i + 1:]:
                diff = float(r[a] - r[b])
                rows.append({"model_a": a, "model_b": b, "rank_difference": diff,
                             "critical_difference": self.critical_difference,
                             "pvalue": float(self.pvalues.loc[a, b]),
                             "significant": abs(diff) > self.critical_difference})
        return pd.DataFrame(rows, columns=["model_a", "model_b", "rank_difference", "critical_difference",
                                           "pvalue", "significant"])

    def to_dict(self) -> dict:
        from assess.stats._result import jsonable
        return {"average_ranks": jsonable(self.average_ranks), "critical_difference": self.critical_difference,
                "q_alpha": self.q_alpha, "alpha": self.alpha, "n_blocks": self.n_blocks,
                "pvalues": jsonable(self.pvalues)}


@lru_cache(maxsize=256)
def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    r"""Critical value :math:`q_\alpha` of the Nemenyi test for k models: the :math:`1-\alpha` quantile of the
    Studentized range with k groups and infinite df, divided by √2 (Demšar 2006, Table 5a: 1.960, 2.343, …)."""
    if k < 2:
        raise AssessError(f"the Nemenyi critical value needs k ≥ 2 models (got {k})")
    return float(sps.studentized_range.ppf(1.0 - alpha, k, np.inf)) / math.sqrt(2.0)


def friedman(table, *, higher_is_better: bool = True, method: str = "chi2", confidence_level: float = 0.95,
             names: Sequence[str] | None = None, metric: str = "score", blocks: str = "folds") -> TestResult:
    r"""Friedman test of k ≥ 2 models over N folds (blocks), with the Nemenyi critical difference (Demšar 2006).

    ``table`` is N folds × k models (a DataFrame's columns name the models). Within each fold the models are
    ranked, 1 = best (highest score when ``higher_is_better``), ties get average ranks; :math:`R_j` is model
    j's average rank.

    .. math:: \chi^2_F = \frac{12N}{k(k+1)}\Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big] \Big/ C,
        \qquad C = 1 - \frac{\sum (t^3 - t)}{N k (k^2 - 1)}

    on k − 1 df, with the tie correction C of :func:`scipy.stats.friedmanchisquare`. ``method="iman_davenport"``
    uses :math:`F_F = (N-1)\chi^2_F / (N(k-1) - \chi^2_F)` on :math:`(k-1, (k-1)(N-1))` df instead, which
    Demšar recommends as less conservative. Effect: Kendall's :math:`W = \chi^2_F / (N(k-1))`, no interval.

    ``details`` carries what a critical-difference diagram needs: ``average_ranks`` (model → rank, ascending),
    ``critical_difference`` :math:`CD = q_\alpha\sqrt{k(k+1)/(6N)}` with α = 1 − confidence_level and
    ``q_alpha`` (see :func:`nemenyi_q`). Pairwise Nemenyi p-values: :func:`nemenyi`.
    Assumption (Demšar §3.2.2): N > 10 and k > 5 for the chi-squared approximation to be good. ``blocks`` names
    the blocks in the sentence (``"series"`` for forecasts of several series).
    """
    check_choice("method", method, ("chi2", "iman_davenport"))
    confidence_level = check_confidence_level(confidence_level)
    x, names = _block_table(table, names, "Friedman")
    n_blocks, k = x.shape
    ranks = _ranks(x, higher_is_better)
    avg = ranks.mean(axis=0)
    ssbn = float(np.sum(ranks.sum(axis=0) ** 2))
    chi2 = 12.0 / (n_blocks * k * (k + 1)) * ssbn - 3.0 * n_blocks * (k + 1)
    ties = 0.0
    for row in x:
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts ** 3 - counts))
    c = 1.0 - ties / (n_blocks * k * (k * k - 1))
    chi2 = chi2 / c if c > 0 else math.nan
    if math.isnan(chi2):
        warn_undefined("Friedman is undefined: on every fold all models score the same")
    if method == "chi2":
        stat, df = chi2, float(k - 1)
        p = float(special.chdtrc(df, chi2)) if not math.isnan(chi2) else math.nan
        label = "Friedman chi-squared"
    else:
        df = (float(k - 1), float((k - 1) * (n_blocks - 1)))
        denom = n_blocks * (k - 1) - chi2
        stat = (n_blocks - 1) * chi2 / denom if denom > 0 else math.inf
        p = float(special.fdtrc(df[0], df[1], stat)) if not math.isnan(stat) else math.nan
        label = "Friedman (Iman-Davenport F)"
    alpha = alpha_of(confidence_level)
    q = nemenyi_q(k, alpha)
    cd = q * math.sqrt(k * (k + 1) / (6.0 * n_blocks))
    order = np.argsort(avg, kind="stable")
    average_ranks = {names[j]: float(avg[j]) for j in order}
    w = chi2 / (n_blocks * (k - 1)) if not math.isnan(chi2) else math.nan
    assumptions = [Assumption("N > 10 folds and k > 5 models", n_blocks > 10 and k > 5,
                              f"{n_blocks} folds, {k} models; below that the chi-squared approximation is rough "
                              "(Demšar 2006)"),
                   Assumption("folds are comparable blocks", None,
                              "every model scored on the same folds, one score per model per fold")]
    best = names[order[0]]
    sentence = (f"Over {n_blocks} {blocks}, {best} ranks best on {metric_words(metric)} (average rank "
                f"{significant(avg[order[0]])} of {k}); "
                f"{verdict(p, alpha, 'Friedman', subject='the difference among the models')}; "
                f"average ranks further apart than {significant(cd)} differ significantly (Nemenyi).")
    return TestResult(test="friedman", method=label, statistic=stat, pvalue=p, df=df, alternative=None,
                      effect=Effect("Kendall's W", w, no_interval(confidence_level)), assumptions=assumptions,
                      sentence=sentence,
                      n=n_blocks, models=names,
                      details=FriedmanDetails(average_ranks, cd, q, alpha, n_blocks, chi2, higher_is_better))


def nemenyi(table, *, higher_is_better: bool = True, alpha: float = 0.05,
            names: Sequence[str] | None = None) -> NemenyiResult:
    r"""Nemenyi all-pairs post-hoc test after Friedman (Demšar 2006 §3.2.2).

    Models j and l differ when :math:`|R_j - R_l| > CD = q_\alpha \sqrt{k(k+1)/(6N)}`. The family-wise p-value
    of a pair is :math:`P(Q_{k,\infty} \ge \sqrt2\,|R_j - R_l| / \sqrt{k(k+1)/(6N)})` with :math:`Q_{k,\infty}`
    the Studentized range (:data:`scipy.stats.studentized_range`); it needs no further correction.
    """
    if not 0.0 < alpha < 1.0:
        raise AssessError(f"`alpha` must be in (0, 1) (got {alpha!r})")
    x, names = _block_table(table, names, "Nemenyi")
    n_blocks, k = x.shape
    avg = _ranks(x, higher_is_better).mean(axis=0)
    se = math.sqrt(k * (k + 1) / (6.0 * n_blocks))
    q = nemenyi_q(k, alpha)
    pv = np.full((k, k), math.nan)
    iu, ju = np.triu_indices(k, 1)
    q_obs = np.abs(avg[iu] - avg[ju]) / se * math.sqrt(2.0)
    pv[iu, ju] = pv[ju, iu] = np.minimum(1.0, sps.studentized_range.sf(q_obs, k, np.inf))
    order = np.argsort(avg, kind="stable")
    ranks = pd.Series([float(avg[j]) for j in order], index=[names[j] for j in order], name="average_rank")
    return NemenyiResult(average_ranks=ranks, critical_difference=q * se, q_alpha=q,
                         pvalues=pd.DataFrame(pv, index=list(names), columns=list(names)), alpha=alpha,
                         n_blocks=n_blocks)


def corrected_resampled_t(a, b, *, test_train_ratio: float | None = None, n_folds: int | None = None,
                          alternative: str = "two-sided", confidence_level: float = 0.95,
                          names: Sequence[str] | None = None, metric: str = "score",
                          unit: str = "folds", ratio_source: str = "given") -> TestResult:
    r"""Nadeau & Bengio (2003) corrected resampled t-test (*Machine Learning* 52:239–281) on J paired scores.

    The J scores come from resamples (k folds, possibly repeated r times: J = k·r, Bouckaert & Frank 2004)
    whose training sets overlap, so their differences are correlated. With :math:`n_2/n_1` the ratio of test
    to training set size,

    .. math:: t = \frac{\bar d}{\sqrt{(1/J + n_2/n_1)\, s_d^2}} \sim t_{J-1}.

    ``test_train_ratio`` is :math:`n_2/n_1`; when None it is :math:`1/(k-1)`, right for k-fold CV, with k =
    ``n_folds`` (the number of folds per repetition) or, when that is also None, k = J (a single k-fold run).
    A given ratio is said with ``ratio_source`` (how it was found: from a predictions file, the fold sizes), and
    ``n_folds`` beside it still names the design (r repeats of k folds).
    Effect: the mean difference with the matching interval :math:`\bar d \pm t_{J-1}\sqrt{(1/J + n_2/n_1)s_d^2}`.

    On a single k-fold run (J = k) the test is conservative: the correction was derived for random
    train/test splits and over-states the variance of k-fold differences, and with only k − 1 df it has little
    power (Nadeau & Bengio 2003 §4; Bouckaert & Frank 2004). Repeat the cross-validation — 10 × 10-fold CV
    (J = 100, ``repeat`` column) is the recommended design — and the assumptions list says which case applies.
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    a, b, d = _paired(a, b, "corrected resampled t-test", min_n=2)
    names = model_names(names, 2)
    j = d.size
    k = j if n_folds is None and test_train_ratio is None else n_folds
    if k is not None and (isinstance(k, bool) or int(k) != k or k < 2):
        raise AssessError(f"`n_folds` must be a whole number ≥ 2 (got {n_folds!r})")
    if test_train_ratio is None:
        ratio = 1.0 / (int(k) - 1)
    else:
        ratio = float(test_train_ratio)
        if not math.isfinite(ratio) or ratio <= 0:
            raise AssessError(f"`test_train_ratio` must be a positive number (got {test_train_ratio!r})")
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    se = math.sqrt((1.0 / j + ratio) * sd * sd)
    t = _ratio(mean, se)
    if math.isnan(t):
        warn_undefined("the corrected resampled t-test is undefined: every difference is zero")
    df = float(j - 1)
    dist = StudentT(df)
    p = pvalue(dist, t, alternative)
    low, high = interval(mean, se, dist, alternative, confidence_level)
    assumptions = [_normality(d, "differences"),
                   Assumption("test/train size ratio", None,
                              f"n_test/n_train = {significant(ratio)}"
                              + (" (1/(k−1) for k-fold)" if test_train_ratio is None else f" ({ratio_source})")),
                   _repeated_cv(j, None if k is None else int(k))]
    sentence = _difference_sentence(names, metric, mean, low, high, confidence_level, j, unit, p,
                                    "corrected resampled t-test")
    return TestResult(test="corrected_resampled_t", method="Nadeau-Bengio corrected resampled t-test", statistic=t,
                      pvalue=p, df=df, alternative=alternative,
                      effect=Effect("mean difference (A - B)", mean,
                                    ConfidenceInterval(low, high, confidence_level, "corrected t")),
                      assumptions=assumptions,
                      sentence=sentence, n=j, models=names,
                      details=CorrectedTDetails(ratio, float(a.mean()), float(b.mean())))


def cv_5x2_t(differences, *, alternative: str = "two-sided", confidence_level: float = 0.95,
             names: Sequence[str] | None = None, metric: str = "score") -> TestResult:
    r"""Dietterich's (1998) 5×2cv paired t-test (*Neural Computation* 10(7):1895–1923).

    ``differences`` is the 5 × 2 table :math:`p_i^{(j)}` = score of A − score of B in replication i
    (of 5 two-fold cross-validations), fold j. With :math:`\bar p_i = (p_i^{(1)} + p_i^{(2)})/2` and
    :math:`s_i^2 = (p_i^{(1)} - \bar p_i)^2 + (p_i^{(2)} - \bar p_i)^2`,

    .. math:: t = \frac{p_1^{(1)}}{\sqrt{\tfrac15 \sum_{i=1}^5 s_i^2}} \sim t_5.

    Effect: the mean of the 10 differences; no interval (the statistic's numerator uses one difference only,
    so no interval around the mean inverts it).
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    try:
        p_ij = np.asarray(differences, dtype=float)
    except (TypeError, ValueError):
        raise AssessError(f"`differences` must hold numbers (got {type(differences).__name__})") from None
    if p_ij.shape != (5, 2):
        raise AssessError(f"the 5×2cv t-test needs a 5 × 2 table of differences (5 replications × 2 folds) "
                          f"(got shape {p_ij.shape})")
    if not np.isfinite(p_ij).all():
        raise AssessError("`differences` has non-finite values")
    names = model_names(names, 2)
    mean_i = p_ij.mean(axis=1, keepdims=True)
    s2 = ((p_ij - mean_i) ** 2).sum(axis=1)
    t = _ratio(float(p_ij[0, 0]), math.sqrt(float(s2.mean())))
    dist = StudentT(5.0)
    p = pvalue(dist, t, alternative)
    mean = float(p_ij.mean())
    assumptions = [Assumption("normal, independent fold differences", None,
                              "Dietterich's derivation treats p_i^(1), p_i^(2) as independent normal; "
                              "Shapiro–Wilk on the 10 differences: "
                              + p_value(float(sps.shapiro(p_ij.ravel()).pvalue) if np.ptp(p_ij) > 0 else math.nan))]
    sentence = _difference_sentence(names, metric, mean, math.nan, math.nan, confidence_level, 10, "folds (5×2cv)", p,
                                    "5×2cv t-test")
    return TestResult(test="cv_5x2_t", method="5x2cv paired t-test (Dietterich)", statistic=t, pvalue=p, df=5.0,
                      alternative=alternative,
                      effect=Effect("mean difference (A - B)", mean, no_interval(confidence_level)),
                      assumptions=assumptions, sentence=sentence, n=10, models=names,
                      details=CV5x2Details(s2.tolist()))


# ------------------------------------------------------------------------------------------------------ helpers


def _paired(a, b, what: str, *, min_n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = as_float_vector(a, "a")
    b = as_float_vector(b, "b")
    check_same_length(a, b, ("a", "b"))
    if a.size < min_n:
        raise AssessError(f"the {what} needs at least {min_n} pairs (got {a.size})")
    return a, b, a - b


def _groups(groups, what: str, *, min_size: int) -> list[np.ndarray]:
    if len(groups) == 1 and not np.isscalar(groups[0]) and np.ndim(groups[0]) == 2:
        groups = tuple(np.asarray(groups[0], dtype=float).T)
    if len(groups) < 2:
        raise AssessError(f"{what} needs at least 2 groups (got {len(groups)})")
    arrays = [as_float_vector(g, f"groups[{i}]") for i, g in enumerate(groups)]
    for i, x in enumerate(arrays):
        if x.size < min_size:
            raise AssessError(f"{what} needs at least {min_size} values per group; group {i} has {x.size}")
    return arrays


def _block_table(table, names, what: str) -> tuple[np.ndarray, tuple[str, ...]]:
    if isinstance(table, pd.DataFrame):
        if names is None:
            names = [str(c) for c in table.columns]
        table = table.to_numpy(dtype=float)
    try:
        x = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise AssessError(f"`table` must hold numbers (got {type(table).__name__})") from None
    if x.ndim != 2:
        raise AssessError(f"`table` must be 2-D, folds × models (got shape {x.shape})")
    if not np.isfinite(x).all():
        i, j = (int(v) for v in np.argwhere(~np.isfinite(x))[0])
        raise AssessError(f"`table` has non-finite values (first at fold {i}, model {j}: {x[i, j]})")
    if x.shape[1] < 2:
        raise AssessError(f"{what} needs at least 2 models, columns of `table` (got {x.shape[1]})")
    if x.shape[0] < 2:
        raise AssessError(f"{what} needs at least 2 folds, rows of `table` (got {x.shape[0]})")
    return x, model_names(names, x.shape[1])


def _one_way(arrays: list[np.ndarray]) -> tuple[float, float, float, float]:
    """One-way ANOVA: F, p, SS_between, SS_total (F = inf when the groups are constant but differ, NaN when all
    values are equal), as :func:`scipy.stats.f_oneway` without its per-call overhead."""
    k = len(arrays)
    n_total = sum(x.size for x in arrays)
    grand = sum(float(x.sum()) for x in arrays) / n_total
    ss_b = float(sum(x.size * (x.mean() - grand) ** 2 for x in arrays))
    ss_w = float(sum(((x - x.mean()) ** 2).sum() for x in arrays))
    df1, df2 = k - 1, n_total - k
    if ss_w > 0:
        f = (ss_b / df1) / (ss_w / df2)
        p = float(special.fdtrc(df1, df2, f))
    elif ss_b > 0:
        f, p = math.inf, 0.0
    else:
        f, p = math.nan, math.nan
    return f, p, ss_b, ss_b + ss_w


def _signrank_exact(d: np.ndarray, alternative: str) -> tuple[float, float]:
    """Exact signed-rank test without ties or zeros (n ≤ 50): statistic and p-value as scipy.stats.wilcoxon's
    exact method (two-sided: min(W+, W−) and twice the smaller tail, capped at 1; one-sided: W+)."""
    n = d.size
    ranks = np.empty(n)
    ranks[np.argsort(np.abs(d), kind="stable")] = np.arange(1, n + 1)
    w_plus = float(ranks[d > 0].sum())
    total = n * (n + 1) / 2.0
    pmf = _signrank_counts(n) / 2.0 ** n
    cdf = np.cumsum(pmf)
    def at_most(w: float) -> float:
        return float(cdf[int(math.floor(w + 1e-9))]) if w >= 0 else 0.0
    if alternative == "greater":
        return w_plus, 1.0 - at_most(w_plus - 1)
    if alternative == "less":
        return w_plus, at_most(w_plus)
    low = min(w_plus, total - w_plus)
    return low, min(1.0, 2.0 * at_most(low))


def _ranks(x: np.ndarray, higher_is_better: bool) -> np.ndarray:
    return sps.rankdata(-x if higher_is_better else x, axis=1)


def _ratio(num: float, den: float) -> float:
    if den > 0:
        return num / den
    if num == 0:
        return math.nan
    return math.copysign(math.inf, num)


def _normality(x: np.ndarray, what: str) -> Assumption:
    name = f"normal {what}"
    if x.size < 3:
        return Assumption(name, None, f"Shapiro–Wilk needs at least 3 {what} (got {x.size})")
    if np.ptp(x) == 0:
        return Assumption(name, None, f"all {x.size} {what} are equal")
    p = float(sps.shapiro(x).pvalue)
    return Assumption(name, bool(p > 0.05), f"Shapiro–Wilk on the {x.size} {what}: {p_value(p)}")


def _repeated_cv(j: int, k: int | None) -> Assumption:
    """Whether the J differences come from repeated k-fold CV: on a single run the corrected t is conservative."""
    name = "repeated cross-validation (10 × 10-fold recommended)"
    if k is None:
        return Assumption(name, None, f"{j} resamples with a given test/train ratio")
    if j > k:
        return Assumption(name, True, f"{j} differences from {j // k} repeats of {k}-fold cross-validation")
    return Assumption(name, None, f"a single {k}-fold run: the correction over-states the variance here, so the test "
                                  "is conservative and has little power; repeat the cross-validation (10 × 10-fold)")


def _independent_folds() -> Assumption:
    return Assumption("independent pairs", None,
                      "folds of one cross-validation share training data, which makes this test too liberal there "
                      "(use corrected_resampled_t)")


def _difference_sentence(names, metric, diff, low, high, confidence_level, n, unit, p, label, *,
                         what="mean difference"):
    a, b = names
    metric = metric_words(metric)
    if diff == 0:
        lead = f"Across {count(n)} {unit}, {a} and {b} have the same {metric} ({what} 0)"
    else:
        better, worse = (a, b) if diff > 0 else (b, a)
        lead = f"Across {count(n)} {unit}, {better}'s {metric} is higher than {worse}'s by {significant(abs(diff))}"
        lead += f" ({what}"
        ci = (confidence_interval(low, high, confidence_level) if diff > 0
              else confidence_interval(-high, -low, confidence_level))
        lead += f"; {ci})" if ci else ")"
    return f"{lead}; {verdict(p, alpha_of(confidence_level), label)}."


def _omnibus_sentence(names, centres, metric, p, confidence_level, label, centre_word):
    metric = metric_words(metric)
    listing = ", ".join(f"{nm} {significant(c)}" for nm, c in zip(names, centres))
    return (f"{centre_word.capitalize()} {metric}: {listing}; "
            f"{verdict(p, alpha_of(confidence_level), label, subject='the difference among the models')}.")


def _hodges_lehmann(d: np.ndarray, alternative: str, confidence_level: float) -> tuple[float, float, float]:
    n = d.size
    if n == 0 or n > 2000:
        return (float(np.median(d)) if n else math.nan), math.nan, math.nan
    i, j = np.triu_indices(n)
    walsh = np.sort((d[i] + d[j]) / 2.0)
    est = float(np.median(walsh))
    total = walsh.size
    alpha = alpha_of(confidence_level)
    a_tail = alpha / 2.0 if alternative == "two-sided" else alpha
    exact = n < 50 and np.unique(np.abs(d)).size == n
    if exact:
        cdf = np.cumsum(_signrank_counts(n)) / 2.0 ** n
        qu = int(np.searchsorted(cdf, a_tail - 1e-12))  # smallest x with P(V <= x) >= a_tail
    else:
        z = float(NORMAL.ppf(1 - a_tail))
        qu = int(math.floor(n * (n + 1) / 4.0 - z * math.sqrt(n * (n + 1) * (2 * n + 1) / 24.0)))
    qu = max(qu, 1)
    ql = total - qu
    lo = float(walsh[qu - 1]) if qu - 1 < total else math.nan
    hi = float(walsh[ql]) if 0 <= ql < total else math.nan
    if alternative == "greater":
        hi = math.inf
    elif alternative == "less":
        lo = -math.inf
    return est, lo, hi


@lru_cache(maxsize=64)
def _signrank_counts(n: int) -> np.ndarray:
    """Number of subsets of {1..n} with each rank sum 0..n(n+1)/2 (the signed-rank null distribution × 2^n)."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):
        counts[r:] = counts[r:] + counts[:-r].copy()
    return counts
