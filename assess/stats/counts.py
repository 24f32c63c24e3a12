"""Tests on counts: McNemar, Cochran's Q, chi-squared, Fisher's exact, and the CLT interval of an error rate.

Inputs are per-sample correctness vectors of models scored on the same samples (paired: McNemar, Cochran's Q) or
contingency tables of counts (chi-squared, Fisher). See :mod:`assess.stats.shaping` to build them from predictions.

References: ISO/IEC TS 4213:2022 clause 7.5 (chi-squared), 7.7 (Fisher's exact), 7.8 (central limit theorem),
7.9 (McNemar); L. Iocchi, *Performance Evaluation* (lecture slides), "Confidence Intervals".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from assess.core.errors import AssessError
from assess.core.formatting import confidence_interval, count, p_value, percent_level, significant
from assess.intervals import ConfidenceInterval
from assess.stats._common import (NORMAL, alpha_of, as_bool_vector, check_alternative, check_choice,
                                  check_confidence_level, check_same_length, interval, model_names, pvalue, verdict,
                                  warn_undefined)
from assess.stats._result import INDEPENDENT_SAMPLES, Assumption, Effect, TestResult, no_interval

MCNEMAR_METHODS = ("exact", "asymptotic", "midp")


@dataclass(frozen=True)
class McNemarDetails:
    """``n10``: samples A got right and B wrong; ``n01``: the reverse; ``discordant`` = n10 + n01; the two
    accuracies; whether the continuity correction was asked for."""

    n10: int
    n01: int
    discordant: int
    accuracy_a: float
    accuracy_b: float
    continuity: bool


@dataclass(frozen=True)
class CochranDetails:
    """Accuracy per model, and the number of informative samples (not all right nor all wrong)."""

    accuracy: Mapping[str, float]
    informative: int


@dataclass(frozen=True)
class ContingencyDetails:
    """The observed and expected counts of a chi-squared test, and whether Yates' correction was applied."""

    expected: list
    observed: list
    correction: bool


@dataclass(frozen=True)
class GoodnessOfFitDetails:
    """Categories with their observed and expected counts."""

    categories: list
    observed: list
    expected: list


@dataclass(frozen=True)
class FisherDetails:
    """The 2 × 2 table tested (rows = models, columns = correct, incorrect)."""

    table: list


@dataclass(frozen=True)
class ErrorRateDetails:
    """The counts behind the interval, and the error rate tested against (None when only the interval was asked)."""

    n_errors: int
    null_error: float | None


def mcnemar(correct_a, correct_b, *, method: str = "exact", continuity: bool = True,
            alternative: str = "two-sided", confidence_level: float = 0.95,
            names: Sequence[str] | None = None) -> TestResult:
    r"""McNemar's test of two models' accuracy on the same samples (ISO/IEC TS 4213 7.9).

    Only the discordant samples carry information: :math:`n_{10}` where A is right and B wrong, :math:`n_{01}`
    where A is wrong and B right, :math:`m = n_{10} + n_{01}`. Under H0 (equal accuracy)
    :math:`n_{10} \sim \mathrm{Bin}(m, 1/2)`.

    - ``method="exact"``: the binomial test, two-sided :math:`p = \min(1, 2 P(X \le \min(n_{10}, n_{01})))`;
      statistic :math:`n_{10}`. Never exceeds the nominal size.
    - ``method="midp"``: the mid-p binomial test of Fagerland, Lydersen & Laake (2013, *BMC Med Res Methodol*
      13:91), :math:`p = 2[P(X \le \min) - \tfrac12 P(X = \min)]`; closer to nominal size, recommended there.
    - ``method="asymptotic"``: :math:`\chi^2 = (|n_{10} - n_{01}| - c)^2 / m` on 1 df, with :math:`c = 1`
      (Edwards' continuity correction, ``continuity=True``) or 0; the correction never makes the numerator
      negative (``max(0, |n_{10} - n_{01}| - 1)``). One-sided p-values use the signed root :math:`z`.
      Needs about 25 discordant pairs.

    ``continuity`` applies to ``"asymptotic"`` only. ``alternative="greater"``: A is more accurate than B.

    Effect: the accuracy difference :math:`(n_{10} - n_{01}) / n` (A minus B) with the Bonett–Price (2012)
    adjusted Wald interval, recommended by Fagerland, Lydersen & Laake (2014, *Stat Methods Med Res* 23(6)):
    :math:`\tilde p_{ij} = (n_{ij} + 1)/(n + 2)`, :math:`\tilde d = \tilde p_{10} - \tilde p_{01}`,
    :math:`\tilde d \pm z \sqrt{(\tilde p_{10} + \tilde p_{01} - \tilde d^2)/(n + 2)}`, clipped to [-1, 1].

    >>> r = mcnemar([1, 1, 1, 1, 0, 1, 1, 0], [0, 0, 0, 0, 0, 1, 1, 1])
    >>> r.details.n10, r.details.n01, round(r.pvalue, 4)
    (4, 1, 0.375)
    """
    a = as_bool_vector(correct_a, "correct_a")
    b = as_bool_vector(correct_b, "correct_b")
    check_same_length(a, b, ("correct_a", "correct_b"))
    return mcnemar_from_counts(int(np.count_nonzero(a & ~b)), int(np.count_nonzero(~a & b)), int(a.size),
                               int(np.count_nonzero(a)), int(np.count_nonzero(b)), method=method,
                               continuity=continuity, alternative=alternative, confidence_level=confidence_level,
                               names=names)


def mcnemar_from_counts(n10: int, n01: int, n: int, right_a: int, right_b: int, *, method: str = "exact",
                        continuity: bool = True, alternative: str = "two-sided", confidence_level: float = 0.95,
                        names: Sequence[str] | None = None) -> TestResult:
    """:func:`mcnemar` from its counts: ``n10`` samples A got right and B wrong, ``n01`` the reverse, ``n`` paired
    samples, ``right_a``/``right_b`` each model's correct samples (what an engine's GROUP BY of the models'
    correctness gives, `assess.engine.compare`)."""
    check_choice("method", method, MCNEMAR_METHODS)
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    if n == 0:
        raise AssessError("McNemar needs at least 1 paired sample (got 0)")
    name_a, name_b = model_names(names, 2)
    m = n10 + n01
    df = None
    if method == "asymptotic":
        diff = abs(n10 - n01)
        num = max(0.0, diff - 1.0) if continuity else float(diff)
        statistic = num * num / m if m else 0.0
        z = math.copysign(math.sqrt(statistic), n10 - n01)
        p = pvalue(NORMAL, z, alternative) if m else 1.0
        df = 1.0
        label = "McNemar chi-squared" + (" with continuity correction" if continuity else "")
        short = "McNemar chi-squared"
    else:
        statistic = float(n10)
        p = _binomial_half_p(n10, m, alternative, mid=(method == "midp"))
        label = "McNemar exact (binomial)" if method == "exact" else "McNemar mid-p (binomial)"
        short = "McNemar exact" if method == "exact" else "McNemar mid-p"
    # Bonett–Price adjusted Wald interval for the paired difference of proportions
    p10, p01 = (n10 + 1.0) / (n + 2.0), (n01 + 1.0) / (n + 2.0)
    d_adj = p10 - p01
    se = math.sqrt(max(p10 + p01 - d_adj * d_adj, 0.0) / (n + 2.0))
    low, high = interval(d_adj, se, NORMAL, alternative, confidence_level)
    effect = Effect("accuracy difference (A - B)", (n10 - n01) / n,
                    ConfidenceInterval(max(low, -1.0), min(high, 1.0), confidence_level, "Bonett-Price adjusted Wald"))
    assumptions = [Assumption("paired samples", True, f"both models scored on the same {count(n)} samples")]
    if method == "asymptotic":
        assumptions.append(Assumption(
            "at least 25 discordant pairs", m >= 25,
            f"{count(m)} samples where the models disagree; below 25 use method='exact' or 'midp'"))
    else:
        assumptions.append(Assumption("discordant pairs", True,
                                      f"binomial test on the {count(m)} samples where the models disagree; "
                                      "valid for any count"))
    if n10 == n01:
        lead = (f"{name_a} and {name_b} are right on the same number of cases out of {count(n)} "
                f"(they disagree on {count(m)})")
    else:
        better, worse = (name_a, name_b) if n10 > n01 else (name_b, name_a)
        more = abs(n10 - n01)
        lead = (f"{better} is right on {count(more)} more {'case' if more == 1 else 'cases'} than {worse} out of "
                f"{count(n)}")
    sentence = f"{lead}; {verdict(p, alpha_of(confidence_level), short)}."
    return TestResult(test="mcnemar", method=label, statistic=statistic, pvalue=p, df=df, alternative=alternative,
                      effect=effect, assumptions=assumptions, sentence=sentence, n=n, models=(name_a, name_b),
                      details=McNemarDetails(n10, n01, m, right_a / n, right_b / n, bool(continuity)))


def _binomial_half_p(k: int, m: int, alternative: str, *, mid: bool) -> float:
    """p-value of k successes in m Bin(m, 1/2) trials; `mid` subtracts half the probability of the observed."""
    if m == 0:
        return 1.0

    def cdf(x: int) -> float:
        return float(special.bdtr(x, m, 0.5)) if x >= 0 else 0.0

    def pmf(x: int) -> float:
        return math.exp(special.gammaln(m + 1) - special.gammaln(x + 1) - special.gammaln(m - x + 1)
                        - m * math.log(2.0))
    if alternative == "greater":
        return 1.0 - cdf(k - 1) - (0.5 * pmf(k) if mid else 0.0)
    if alternative == "less":
        return cdf(k) - (0.5 * pmf(k) if mid else 0.0)
    lo = min(k, m - k)
    return float(min(1.0, 2.0 * (cdf(lo) - (0.5 * pmf(lo) if mid else 0.0))))


def cochran_q(correct, *, confidence_level: float = 0.95, names: Sequence[str] | None = None,
              frequency=None) -> TestResult:
    r"""Cochran's Q test that k ≥ 2 models have the same accuracy on the same samples.

    ``correct`` is an (n samples × k models) 0/1 matrix. With column totals :math:`C_j`, row totals :math:`R_i`
    and grand total :math:`T`,

    .. math:: Q = (k - 1)\frac{k \sum_j C_j^2 - T^2}{k T - \sum_i R_i^2} \sim \chi^2_{k-1}.

    Cochran (1950), *Biometrika* 37:256–266; for k = 2 it equals McNemar's uncorrected chi-squared. Q is NaN
    when every sample is right for all models or wrong for all (no information).

    Effect: Serlin, Carr & Marascuilo's (1982) :math:`\eta^2_Q = Q / (n (k - 1))`, between 0 and 1; no interval.
    Assumption (Tate & Brown 1970): at least 4 informative samples (not all-right nor all-wrong) and at least
    24 informative sample × model cells for the chi-squared approximation. ``confidence_level`` only sets the
    α of the sentence (significant means p < 1 − confidence_level).

    ``frequency`` (optional, one non-negative integer per row) says how many samples each row stands for: the
    distinct right/wrong patterns with their counts, as an engine's GROUP BY gives them (`assess.engine.compare`),
    are the same test as the samples themselves.
    """
    confidence_level = check_confidence_level(confidence_level)
    x = np.asarray(correct)
    if x.ndim != 2:
        raise AssessError(f"`correct` must be a 2-D (samples × models) matrix (got shape {x.shape})")
    n, k = x.shape
    if k < 2:
        raise AssessError(f"Cochran's Q needs at least 2 models (got {k})")
    if n < 1:
        raise AssessError("Cochran's Q needs at least 1 sample (got 0)")
    x = np.column_stack([as_bool_vector(x[:, j], f"correct[:, {j}]") for j in range(k)]).astype(float)
    f = np.ones(n) if frequency is None else np.asarray(frequency, dtype=float)
    if f.shape != (n,) or (f < 0).any():
        raise AssessError(f"`frequency` must hold one non-negative count per row of `correct` ({n:,})")
    n = int(f.sum())
    names = model_names(names, k)
    col = f @ x
    row = x.sum(axis=1)
    total = col.sum()
    denom = k * total - float(np.dot(f, row * row))
    q = (k - 1) * (k * float(np.sum(col * col)) - total * total) / denom if denom > 0 else math.nan
    if math.isnan(q):
        warn_undefined("Cochran's Q is undefined: on every sample the models are all right or all wrong")
    df = float(k - 1)
    p = float(special.chdtrc(df, q)) if not math.isnan(q) else math.nan
    informative = int(f[(row > 0) & (row < k)].sum())
    acc = col / n
    effect = Effect("eta-squared Q (Serlin)", q / (n * (k - 1)) if not math.isnan(q) else math.nan,
                    no_interval(confidence_level))
    assumptions = [
        Assumption("paired samples", True, f"all {k} models scored on the same {count(n)} samples"),
        Assumption("large-sample chi-squared", informative >= 4 and informative * k >= 24,
                   f"{count(informative)} samples where the models disagree (need ≥ 4, and ≥ 24 cells "
                   f"with {k} models: Tate & Brown 1970)"),
    ]
    accs = ", ".join(f"{nm} {significant(100 * a)}%" for nm, a in zip(names, acc))
    sentence = (f"Accuracy on the same {count(n)} cases: {accs}; "
                f"{verdict(p, alpha_of(confidence_level), 'Cochran Q', subject='the difference among the models')}.")
    return TestResult(test="cochran_q", method="Cochran's Q", statistic=q, pvalue=p, df=df, alternative=None,
                      effect=effect, assumptions=assumptions, sentence=sentence, n=n, models=names,
                      details=CochranDetails(dict(zip(names, acc.tolist())), informative))


def chi2_independence(table, *, correction: bool = False, confidence_level: float = 0.95,
                      names: Sequence[str] | None = None, columns: Sequence[str] = ("correct", "incorrect"),
                      ) -> TestResult:
    r"""Pearson's chi-squared test of independence on an r × c table of counts (ISO/IEC TS 4213 7.5).

    Typical use: rows = models (or subgroups), columns = correct / incorrect. With expected counts
    :math:`E_{ij} = R_i C_j / N`, :math:`\chi^2 = \sum (|O_{ij} - E_{ij}| - c)^2 / E_{ij}` on
    :math:`(r-1)(c-1)` df; Yates' correction :math:`c = 0.5` (capped at :math:`|O - E|`) applies only when
    df = 1 and ``correction=True``. Same numbers as :func:`scipy.stats.chi2_contingency`, computed directly
    (its per-call overhead dominated the type-I simulations).

    The package's convention is Pearson's statistic *without* Yates' correction (``c = 0``) wherever a χ² test of
    independence is made — models, subgroups, slices against the rest and together, distribution shift — so one
    table gets one p-value on every page. Yates' correction makes 2 × 2 tests conservative (its type-I rate falls
    well below the nominal level; tests/stats/test_type1.py); where expected counts are small the exact test is the
    remedy (Fisher's exact test; the slice tests switch to it below an expected count of 5). ``correction=True`` (the
    compare test's option ``continuity``) turns it on and the method's name says so.

    Rows must be independent samples: models scored on the *same* samples are paired, for which McNemar (two
    models) or Cochran's Q (k models) are the right tests; this test is for different test sets or subgroups.

    Effect: Cramér's :math:`V = \sqrt{\chi^2 / (N (\min(r, c) - 1))}` with the interval from inverting the
    noncentral chi-squared distribution in the noncentrality λ, reported as :math:`\sqrt{λ/(N(\min(r,c)-1))}`
    (Smithson 2003, *Confidence Intervals*, ch. 4; as in R ``effectsize::cramers_v``). Assumption: every
    expected count ≥ 5 (Cochran 1954).
    """
    confidence_level = check_confidence_level(confidence_level)
    obs = _count_table(table, "table")
    r, c = obs.shape
    if r < 2 or c < 2:
        raise AssessError(f"chi-squared independence needs a table with at least 2 rows and 2 columns "
                          f"(got {r} × {c})")
    if (obs.sum(axis=1) == 0).any() or (obs.sum(axis=0) == 0).any():
        raise AssessError("chi-squared independence needs every row and column of `table` to have counts "
                          f"(row totals {obs.sum(axis=1).tolist()}, column totals {obs.sum(axis=0).tolist()})")
    names = model_names(names, r)
    total = float(obs.sum())
    expected = np.outer(obs.sum(axis=1), obs.sum(axis=0)) / total
    dof = (r - 1) * (c - 1)
    dev = np.abs(obs - expected)
    if correction and dof == 1:
        dev = np.maximum(dev - 0.5, 0.0)   # Yates, never past zero (as scipy.stats.chi2_contingency)
    stat = float(np.sum(dev * dev / expected))
    p = float(special.chdtrc(dof, stat))
    kmin = min(r, c) - 1
    v = math.sqrt(stat / (total * kmin))
    lam_lo, lam_hi = _ncx2_interval(stat, dof, confidence_level)
    effect = Effect("Cramér's V", v, ConfidenceInterval(math.sqrt(lam_lo / (total * kmin)),
                                                        math.sqrt(lam_hi / (total * kmin)), confidence_level,
                                                        "noncentral chi-squared inversion"))
    low_e = float(expected.min())
    assumptions = [
        Assumption("expected counts ≥ 5", bool(low_e >= 5),
                   f"smallest expected count {significant(low_e)}; below 5 use Fisher's exact test (2 × 2)"),
        Assumption(INDEPENDENT_SAMPLES, None, "rows must be different samples; for models scored on the same "
                                             "samples use McNemar or Cochran's Q"),
    ]
    yates = correction and dof == 1
    method = "Pearson chi-squared" + (" with Yates' continuity correction" if yates else "")
    if c == 2 and list(columns)[:1] == ["correct"]:
        rates = obs[:, 0] / obs.sum(axis=1)
        lead = "Accuracy " + ", ".join(f"{nm} {significant(100 * x)}%" for nm, x in zip(names, rates))
    else:
        lead = f"Across {r} rows and {c} columns ({count(total)} counts)"
    sentence = f"{lead}; {verdict(p, alpha_of(confidence_level), 'chi-squared', subject='the difference')}."
    return TestResult(test="chi2", method=method, statistic=stat, pvalue=p, df=float(dof), alternative=None,
                      effect=effect, assumptions=assumptions, sentence=sentence, n=int(total), models=names,
                      details=ContingencyDetails(expected.tolist(), obs.tolist(), yates))


def chi2_goodness_of_fit(observed, *, expected_proportions=None, ddof: int = 0, confidence_level: float = 0.95,
                         categories: Sequence[str] | None = None) -> TestResult:
    r"""Pearson's chi-squared goodness-of-fit test of counts against expected proportions (ISO 4213 7.5).

    :math:`\chi^2 = \sum_i (O_i - E_i)^2 / E_i` on :math:`k - 1 - \text{ddof}` df, with
    :math:`E_i = N \pi_i` (uniform :math:`\pi` by default), as :func:`scipy.stats.chisquare`. Typical use:
    are a model's predicted class frequencies those of the true classes?

    Effect: Cohen's :math:`w = \sqrt{\chi^2 / N}`, interval from the noncentral chi-squared as
    :math:`\sqrt{λ / N}` (see :func:`chi2_independence`). Assumption: every expected count ≥ 5.
    """
    confidence_level = check_confidence_level(confidence_level)
    obs = _count_table(np.atleast_2d(observed), "observed")
    if obs.shape[0] != 1:
        raise AssessError(f"`observed` must be one-dimensional (got shape {np.shape(observed)})")
    obs = obs[0]
    k = obs.size
    if k < 2:
        raise AssessError(f"chi-squared goodness of fit needs at least 2 categories (got {k})")
    total = float(obs.sum())
    if total <= 0:
        raise AssessError("chi-squared goodness of fit needs a positive total count (got 0)")
    if expected_proportions is None:
        props = np.full(k, 1.0 / k)
    else:
        props = np.asarray(expected_proportions, dtype=float)
        if props.shape != (k,):
            raise AssessError(f"`expected_proportions` must have one value per category ({k}) "
                              f"(got shape {props.shape})")
        if (~np.isfinite(props)).any() or (props <= 0).any():
            raise AssessError(f"`expected_proportions` must be positive (got {props.tolist()})")
        props = props / props.sum()
    dof = k - 1 - int(ddof)
    if dof < 1:
        raise AssessError(f"`ddof` leaves {dof} degrees of freedom with {k} categories (got ddof={ddof})")
    exp = total * props
    stat = float(np.sum((obs - exp) ** 2 / exp))
    p = float(special.chdtrc(dof, stat))
    lam_lo, lam_hi = _ncx2_interval(stat, dof, confidence_level)
    effect = Effect("Cohen's w", math.sqrt(stat / total),
                    ConfidenceInterval(math.sqrt(lam_lo / total), math.sqrt(lam_hi / total), confidence_level,
                                       "noncentral chi-squared inversion"))
    assumptions = [Assumption("expected counts ≥ 5", bool(exp.min() >= 5),
                              f"smallest expected count {significant(float(exp.min()))}")]
    cats = list(categories) if categories is not None else [str(i) for i in range(k)]
    alpha = alpha_of(confidence_level)
    sentence = (f"The {count(total)} counts over {k} categories "
                f"{'differ significantly' if p < alpha else 'do not differ significantly'} from the expected "
                f"proportions at the {percent_level(alpha)} level (chi-squared {p_value(p, alpha)}).")
    return TestResult(test="chi2_gof", method="Pearson chi-squared goodness of fit", statistic=stat, pvalue=p,
                      df=float(dof), alternative=None, effect=effect, assumptions=assumptions, sentence=sentence,
                      n=int(total), models=(),
                      details=GoodnessOfFitDetails(cats, obs.tolist(), exp.tolist()))


def fisher_exact(table, *, alternative: str = "two-sided", confidence_level: float = 0.95,
                 names: Sequence[str] | None = None) -> TestResult:
    r"""Fisher's exact test on a 2 × 2 table of counts (ISO/IEC TS 4213 7.7).

    Rows are the two models (or groups), columns correct / incorrect: ``[[a, b], [c, d]]``. The p-value is the
    hypergeometric probability of tables at least as extreme given the margins (two-sided: tables no more
    probable than the observed one), as :func:`scipy.stats.fisher_exact`; the statistic is the sample odds ratio
    :math:`ad / bc`. ``alternative="greater"``: the odds of being correct are higher in the first row.

    Rows must be independent samples (see :func:`chi2_independence`). Effect: the conditional maximum-likelihood
    odds ratio with its exact (Cornfield) interval, as R ``fisher.test`` (see :func:`_conditional_odds_ratio`).
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    obs = _count_table(table, "table")
    if obs.shape != (2, 2):
        raise AssessError(f"Fisher's exact test needs a 2 × 2 table (got shape {obs.shape})")
    names = model_names(names, 2)
    ints = obs.astype(np.int64)
    stat, p = _fisher_p(ints, alternative)
    if (ints.sum(axis=1) == 0).any() or (ints.sum(axis=0) == 0).any():
        effect = Effect("odds ratio (conditional MLE)", math.nan, no_interval(confidence_level))
    else:
        est, low, high = _conditional_odds_ratio(ints, confidence_level, alternative)
        effect = Effect("odds ratio (conditional MLE)", est,
                        ConfidenceInterval(low, high, confidence_level, "exact conditional (Cornfield)"))
    rates = ints[:, 0] / np.maximum(ints.sum(axis=1), 1)
    assumptions = [Assumption(INDEPENDENT_SAMPLES, None,
                              "rows must be different samples; for two models scored on the same samples use "
                              "McNemar"),
                   Assumption("fixed margins", None, "exact given both margins; conservative otherwise")]
    sentence = (f"{names[0]} is right on {significant(100 * rates[0])}% of {count(ints[0].sum())} cases and "
                f"{names[1]} on {significant(100 * rates[1])}% of {count(ints[1].sum())}; "
                f"{verdict(p, alpha_of(confidence_level), 'Fisher exact')}.")
    return TestResult(test="fisher_exact", method="Fisher's exact test", statistic=stat, pvalue=p, df=None,
                      alternative=alternative, effect=effect, assumptions=assumptions, sentence=sentence,
                      n=int(ints.sum()), models=names, details=FisherDetails(ints.tolist()))


def error_rate_ci(n_errors: int, n: int, *, confidence_level: float = 0.95, null_error: float | None = None,
                  alternative: str = "two-sided", name: str | None = None) -> TestResult:
    r"""Normal (central limit theorem) confidence interval of an error rate, with an optional Wald test.

    :math:`e \pm z_N \sqrt{e (1 - e) / n}` with :math:`e = \text{errors}/n` — Iocchi, *Performance Evaluation*,
    slide "Confidence Intervals" (valid when the n test samples are drawn independently of the model
    and n ≥ 30); ISO/IEC TS 4213 7.8 (central limit theorem). The interval is not clipped to [0, 1] (the
    approximation's limit shows as a failed assumption instead).

    With ``null_error`` :math:`e_0`, the Wald test :math:`z = (e - e_0) / \sqrt{e(1-e)/n}` — the test this
    interval inverts, so "interval excludes :math:`e_0`" and "p < 1 − confidence_level" agree.
    ``alternative="greater"``: the error rate exceeds :math:`e_0`. Without ``null_error``, statistic and
    p-value are NaN. Assumptions: n ≥ 30 (Iocchi) and at least 5 errors and 5 correct (normal approximation).
    """
    check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise AssessError(f"`n` must be a positive whole number of samples (got {n!r})")
    if isinstance(n_errors, bool) or int(n_errors) != n_errors or not 0 <= n_errors <= n:
        raise AssessError(f"`n_errors` must be a whole number between 0 and n={n} (got {n_errors!r})")
    if null_error is not None and not 0.0 <= null_error <= 1.0:
        raise AssessError(f"`null_error` must be in [0, 1] (got {null_error!r})")
    n, n_errors = int(n), int(n_errors)
    e = n_errors / n
    se = math.sqrt(e * (1.0 - e) / n)
    low, high = interval(e, se, NORMAL, alternative, confidence_level)
    if null_error is None:
        z, p = math.nan, math.nan
    elif se == 0:
        z = math.copysign(math.inf, e - null_error) if e != null_error else math.nan
        p = pvalue(NORMAL, z, alternative) if e != null_error else 1.0
    else:
        z = (e - null_error) / se
        p = pvalue(NORMAL, z, alternative)
    who = name or "The model"
    ci = confidence_interval(100 * low, 100 * high, confidence_level)
    text = f"{who} errs on {significant(100 * e)}% of {count(n)} cases ({ci}%)"
    if null_error is not None:
        text += f"; against an error rate of {significant(100 * null_error)}%, " + verdict(
            p, alpha_of(confidence_level), "normal approximation")
    assumptions = [Assumption("n ≥ 30", n >= 30, f"{count(n)} test samples (Iocchi: n ≥ 30)"),
                   Assumption("at least 5 errors and 5 correct", min(n_errors, n - n_errors) >= 5,
                              f"{count(n_errors)} errors, {count(n - n_errors)} correct"),
                   Assumption("independent test samples", None,
                              "samples drawn independently of the model and of each other")]
    return TestResult(test="error_rate_ci", method="normal (CLT) interval of an error rate", statistic=z, pvalue=p,
                      df=None, alternative=alternative,
                      effect=Effect("error rate", e, ConfidenceInterval(low, high, confidence_level, "normal")),
                      assumptions=assumptions, sentence=text + ".", n=n, models=(name,) if name else (),
                      details=ErrorRateDetails(n_errors, null_error))


# ------------------------------------------------------------------------------------------------------ helpers


def _count_table(table, name: str) -> np.ndarray:
    try:
        obs = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise AssessError(f"`{name}` must be a table of counts (got {type(table).__name__})") from None
    if obs.ndim != 2:
        raise AssessError(f"`{name}` must be a 2-D table of counts (got shape {obs.shape})")
    bad = ~np.isfinite(obs) | (obs < 0) | (obs != np.round(obs))
    if bad.any():
        i, j = (int(v) for v in np.argwhere(bad)[0])
        raise AssessError(f"`{name}` must hold non-negative whole counts (cell [{i}, {j}] is {obs[i, j]})")
    return obs


def _ncx2_interval(stat: float, df: float, confidence_level: float) -> tuple[float, float]:
    """Interval for the noncentrality λ of a chi-squared statistic: λ_lo solves F(stat; df, λ) = 1 − α/2 and λ_hi
    solves F(stat; df, λ) = α/2, with F the noncentral chi-squared cdf (decreasing in λ); 0 when unreachable."""
    return _nc_interval(lambda lam: float(special.chndtr(stat, df, lam)), stat, confidence_level)


def ncf_interval(f: float, df1: float, df2: float, confidence_level: float) -> tuple[float, float]:
    """Interval for the noncentrality λ of an F statistic, as :func:`_ncx2_interval` with the noncentral F."""
    return _nc_interval(lambda lam: float(special.ncfdtr(df1, df2, lam, f)), f * df1, confidence_level)


def _nc_interval(cdf, scale: float, confidence_level: float) -> tuple[float, float]:
    """Solve cdf(λ) = 1 − α/2 and cdf(λ) = α/2 for λ ≥ 0 (cdf decreasing in λ) by bracketing and Brent's
    method; 0 when even λ = 0 leaves less than the target below the statistic."""
    alpha = 1.0 - confidence_level
    if not math.isfinite(scale):
        return math.nan, math.nan

    def solve(target: float) -> float:
        if cdf(0.0) <= target:
            return 0.0
        hi = max(scale, 1.0)
        while cdf(hi) > target:
            hi *= 2.0
            if hi > 1e12:
                return math.inf
        return float(optimize.brentq(lambda lam: cdf(lam) - target, 0.0, hi, xtol=1e-12, rtol=1e-12))
    return solve(1.0 - alpha / 2.0), solve(alpha / 2.0)


def _hypergeometric_log_terms(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Support x of the top-left count given the margins and log C(r1, x) C(r2, c1 − x) (unnormalised)."""
    (a, b), (c, d) = table
    r1, r2, c1 = a + b, c + d, a + c
    x = np.arange(max(0, c1 - r2), min(r1, c1) + 1)
    base = (special.gammaln(r1 + 1) - special.gammaln(x + 1) - special.gammaln(r1 - x + 1)
            + special.gammaln(r2 + 1) - special.gammaln(c1 - x + 1) - special.gammaln(r2 - c1 + x + 1))
    return x, base


def _fisher_p(table: np.ndarray, alternative: str) -> tuple[float, float]:
    """Sample odds ratio ad/bc and Fisher's exact p-value from the hypergeometric distribution of the top-left
    count: one-sided tails, or (two-sided) the probability of tables no more probable than the observed one, with
    the relative tolerance 1 + 1e-7 of scipy.stats.fisher_exact."""
    (a, b), (c, d) = table
    odds = (a * d / (b * c)) if b * c > 0 else (math.inf if a * d > 0 else math.nan)
    if (table.sum(axis=1) == 0).any() or (table.sum(axis=0) == 0).any():
        return odds, 1.0
    x, base = _hypergeometric_log_terms(table)
    pmf = np.exp(base - base.max())
    pmf /= pmf.sum()
    if alternative == "greater":
        p = pmf[x >= a].sum()
    elif alternative == "less":
        p = pmf[x <= a].sum()
    else:
        p = pmf[pmf <= pmf[x == a][0] * (1 + 1e-7)].sum()
    return odds, float(min(1.0, p))


def _conditional_odds_ratio(table: np.ndarray, confidence_level: float, alternative: str) -> tuple[float, float, float]:
    r"""Conditional maximum-likelihood odds ratio of a 2 × 2 table and its exact (Cornfield) interval.

    Given the margins, the top-left count X follows Fisher's noncentral hypergeometric distribution,
    :math:`P(X = x) \propto \binom{r_1}{x}\binom{r_2}{c_1 - x}\psi^x`. The estimate solves
    :math:`E_\psi[X] = a`; the interval's lower end solves :math:`P_\psi(X \ge a) = \alpha/2` and its upper end
    :math:`P_\psi(X \le a) = \alpha/2` (α instead of α/2 for one-sided alternatives), as R ``fisher.test`` and
    :func:`scipy.stats.contingency.odds_ratio` (kind="conditional"); solved here on log ψ over the whole support
    at once, about ten times faster than SciPy's.
    """
    a = int(table[0, 0])
    x, base = _hypergeometric_log_terms(table.astype(np.int64))
    lo_x, hi_x = int(x[0]), int(x[-1])

    def pmf(log_psi: float) -> np.ndarray:
        z = base + x * log_psi
        z = np.exp(z - z.max())
        return z / z.sum()

    def root(fn, lo=-50.0, hi=50.0) -> float:
        return float(optimize.brentq(fn, lo, hi, xtol=1e-12))

    alpha = 1.0 - confidence_level
    tail = alpha / 2.0 if alternative == "two-sided" else alpha
    if a == lo_x:
        est = 0.0
    elif a == hi_x:
        est = math.inf
    else:
        est = math.exp(root(lambda lp: float(pmf(lp) @ x) - a))
    low = 0.0 if (a == lo_x or alternative == "less") else math.exp(
        root(lambda lp: float(pmf(lp)[x >= a].sum()) - tail))
    high = math.inf if (a == hi_x or alternative == "greater") else math.exp(
        root(lambda lp: float(pmf(lp)[x <= a].sum()) - tail))
    return est, low, high
