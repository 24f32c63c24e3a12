"""Tests on per-sample scores and errors: DeLong for two correlated ROC AUCs, the paired bootstrap of any metric's
difference, and Diebold–Mariano for forecasts.

References: DeLong, DeLong & Clarke-Pearson (1988), *Biometrics* 44:837–845; Sun & Xu (2014), *IEEE Signal
Processing Letters* 21(11):1389–1393; Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 13, 16;
Diebold & Mariano (1995), *J Bus Econ Stat* 13:253–263; Harvey, Leybourne & Newbold (1997), *Int J Forecasting*
13:281–291. ISO/IEC TS 4213:2022 clause 7 lists the classical tests these extend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from assess.curves import delong_placements
from assess.errors import AssessError
from assess.stats._common import (NORMAL, StudentT, alpha_of, as_bool_vector, as_float_vector, check_alternative,
                                  check_choice, check_level, check_same_length, fmt_ci, fmt_int, fmt_num, interval,
                                  model_names, pvalue, verdict, warn_undefined)
from assess.stats._result import Assumption, Effect, TestResult


def delong(y_true, score_a, score_b, *, alternative: str = "two-sided", confidence_level: float = 0.95,
           names: Sequence[str] | None = None) -> TestResult:
    r"""DeLong's test for the difference of two correlated ROC AUCs on the same samples.

    From the placement values of :func:`assess.curves.delong_placements` (one sort per model, midranks for ties;
    Sun & Xu 2014), with m positives and n negatives, :math:`S_{10}` and :math:`S_{01}` the 2 × 2 sample
    covariance matrices (ddof 1) of the models' :math:`V_{10}` and :math:`V_{01}` placements,

    .. math:: \operatorname{Var}(\hat A - \hat B) = \frac{S_{10}^{AA} + S_{10}^{BB} - 2S_{10}^{AB}}{m}
        + \frac{S_{01}^{AA} + S_{01}^{BB} - 2S_{01}^{AB}}{n}, \qquad
        z = \frac{\hat A - \hat B}{\sqrt{\operatorname{Var}}} \sim N(0, 1)

    (DeLong et al. 1988; as R ``pROC::roc.test(method = "delong")``). Effect: the AUC difference A − B with the
    normal interval. ``y_true`` is 0/1 (1 = positive); higher scores mean more positive.
    """
    check_alternative(alternative)
    level = check_level(confidence_level)
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
    auc_a, auc_b = float(pa.v10.mean()), float(pb.v10.mean())
    s10 = np.cov(np.vstack([pa.v10, pb.v10]), ddof=1)
    s01 = np.cov(np.vstack([pa.v01, pb.v01]), ddof=1)
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
    low, high = interval(diff, se, NORMAL, alternative, level)
    corr = cov_ab / math.sqrt(var_a * var_b) if var_a > 0 and var_b > 0 else math.nan
    assumptions = [Assumption("paired samples", True, f"both models scored the same {fmt_int(m + n)} samples"),
                   Assumption("large-sample normal approximation", None,
                              f"{fmt_int(m)} positives and {fmt_int(n)} negatives; DeLong's variance is asymptotic")]
    a, b = names
    if diff == 0:
        lead = f"{a} and {b} have the same ROC AUC ({fmt_num(auc_a)})"
    else:
        (hi_n, hi_v), (lo_n, lo_v) = sorted([(a, auc_a), (b, auc_b)], key=lambda t: -t[1])
        ci = fmt_ci(low, high, level) if diff > 0 else fmt_ci(-high, -low, level)
        lead = (f"{hi_n}'s ROC AUC ({fmt_num(hi_v)}) is higher than {lo_n}'s ({fmt_num(lo_v)}) by "
                f"{fmt_num(abs(diff))} ({ci})")
    sentence = f"{lead}; {verdict(p, alpha_of(level), 'DeLong')}."
    return TestResult(test="delong", method="DeLong test for two correlated ROC AUCs", statistic=z, pvalue=p,
                      df=None, alternative=alternative, effect=Effect("ROC AUC difference (A - B)", diff, low, high,
                                                                      level),
                      assumptions=assumptions, sentence=sentence, n=m + n, models=names,
                      details={"auc_a": auc_a, "auc_b": auc_b, "var_a": float(var_a), "var_b": float(var_b),
                               "covariance": float(cov_ab), "correlation": float(corr), "n_positive": m,
                               "n_negative": n})


def paired_bootstrap(y_true, pred_a, pred_b, *, metric: Callable, n_resamples: int = 2000,
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
    — once per chunk of replicates, and with one row (``sample_weight`` or ones) for the observed value — and
    must return one value per row.

    Effect: :math:`\hat\delta = f(y, a) - f(y, b)` with the percentile interval of the :math:`\delta^*_r`
    (Efron & Tibshirani 1993, ch. 13; one-sided for one-sided alternatives).
    p-value (the shift method, Efron & Tibshirani 1993 §16.4): the centred replicates
    :math:`\delta^*_r - \hat\delta` stand for the null distribution of :math:`\hat\delta`, so two-sided
    :math:`p = (1 + \#\{|\delta^*_r - \hat\delta| \ge |\hat\delta|\}) / (B + 1)`; ``"greater"`` counts
    :math:`\delta^*_r - \hat\delta \ge \hat\delta`, ``"less"`` :math:`\le`. The +1 (Davison & Hinkley 1997,
    eq. 4.11) keeps p above 0: with B replicates the smallest p is 1/(B + 1). Replicates where the metric is
    undefined (NaN, e.g. AUC of a one-class resample) are dropped and counted in ``details["n_invalid"]``.
    """
    check_alternative(alternative)
    level = check_level(confidence_level)
    if not callable(metric):
        raise AssessError(f"`metric` must be a callable f(y_true, y, sample_weight=None) (got {metric!r})")
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 1:
        raise AssessError(f"`n_resamples` must be a positive whole number (got {n_resamples!r})")
    n_resamples = int(n_resamples)
    y = np.asarray(y_true)
    a, b = np.asarray(pred_a), np.asarray(pred_b)
    n = y.shape[0] if y.ndim else 0
    if n < 2:
        raise AssessError(f"the paired bootstrap needs at least 2 samples (got {n})")
    for nm, arr in (("pred_a", a), ("pred_b", b)):
        if arr.ndim == 0 or arr.shape[0] != n:
            raise AssessError(f"`{nm}` must have one row per sample of `y_true` ({n}) (got shape {arr.shape})")
    weight = None
    if sample_weight is not None:
        weight = as_float_vector(sample_weight, "sample_weight")
        if weight.size != n:
            raise AssessError(f"`sample_weight` must have one value per sample ({n}) (got {weight.size})")
        if (weight < 0).any():
            raise AssessError(f"`sample_weight` must be non-negative (got {float(weight.min())})")
    names = model_names(names, 2)
    label = metric_name or getattr(metric, "__name__", "metric")
    if vectorized:
        w1 = (np.ones(n) if weight is None else weight)[None, :]
        observed = (float(np.asarray(metric(y, a, sample_weight=w1)).reshape(-1)[0])
                    - float(np.asarray(metric(y, b, sample_weight=w1)).reshape(-1)[0]))
    else:
        observed = float(metric(y, a, sample_weight=weight)) - float(metric(y, b, sample_weight=weight))
    rng = np.random.default_rng(seed)
    deltas = np.empty(n_resamples)
    chunk = max(1, min(n_resamples, 4_000_000 // n))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        idx = rng.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=size * n).reshape(size, n).astype(float)
        if weight is not None:
            counts *= weight
        if vectorized:
            va = np.asarray(metric(y, a, sample_weight=counts), dtype=float)
            vb = np.asarray(metric(y, b, sample_weight=counts), dtype=float)
            if va.shape != (size,) or vb.shape != (size,):
                raise AssessError(f"a vectorized `metric` must return one value per replicate ({size}) "
                                  f"(got shapes {va.shape} and {vb.shape})")
            deltas[start:start + size] = va - vb
        else:
            for r in range(size):
                deltas[start + r] = (float(metric(y, a, sample_weight=counts[r]))
                                     - float(metric(y, b, sample_weight=counts[r])))
    valid = deltas[np.isfinite(deltas)]
    n_invalid = n_resamples - valid.size
    if valid.size == 0 or not math.isfinite(observed):
        p, low, high = math.nan, math.nan, math.nan
        warn_undefined(f"the paired bootstrap is undefined: the metric is undefined on the data or on every "
                       f"resample ({n_invalid} of {n_resamples})")
    else:
        centred = valid - observed
        if alternative == "two-sided":
            extreme = np.count_nonzero(np.abs(centred) >= abs(observed))
            low, high = (float(v) for v in np.quantile(valid, [(1 - level) / 2, (1 + level) / 2]))
        elif alternative == "greater":
            extreme = np.count_nonzero(centred >= observed)
            low, high = float(np.quantile(valid, 1 - level)), math.inf
        else:
            extreme = np.count_nonzero(centred <= observed)
            low, high = -math.inf, float(np.quantile(valid, level))
        p = (1.0 + extreme) / (valid.size + 1.0)
    assumptions = [
        Assumption("independent samples", None, "samples are resampled as independent units"),
        Assumption("at least 1,000 resamples", n_resamples >= 1000,
                   f"{fmt_int(n_resamples)} resamples; the smallest possible p-value is "
                   f"{fmt_num(1 / (valid.size + 1))}"),
        Assumption("metric defined on every resample", n_invalid == 0,
                   f"{fmt_int(n_invalid)} of {fmt_int(n_resamples)} resamples gave an undefined metric"),
    ]
    a_n, b_n = names
    if observed == 0:
        lead = f"{a_n} and {b_n} have the same {label} on {fmt_int(n)} samples"
    else:
        better, worse = (a_n, b_n) if observed > 0 else (b_n, a_n)
        ci = fmt_ci(low, high, level) if observed > 0 else fmt_ci(-high, -low, level)
        lead = (f"{better}'s {label} is higher than {worse}'s by {fmt_num(abs(observed))} on {fmt_int(n)} samples"
                + (f" ({ci})" if ci else ""))
    sentence = f"{lead}; {verdict(p, alpha_of(level), 'paired bootstrap')}."
    return TestResult(test="paired_bootstrap", method="paired bootstrap (percentile interval, shift p-value)",
                      statistic=observed, pvalue=p, df=None, alternative=alternative,
                      effect=Effect(f"{label} difference (A - B)", observed, low, high, level),
                      assumptions=assumptions, sentence=sentence, n=n, models=names,
                      details={"n_resamples": n_resamples, "n_invalid": int(n_invalid), "seed": seed,
                               "metric": label})


def diebold_mariano(y_true, pred_a, pred_b, *, loss: str = "squared", h: int = 1, alternative: str = "two-sided",
                    confidence_level: float = 0.95, harvey_correction: bool = True,
                    names: Sequence[str] | None = None) -> TestResult:
    r"""Diebold–Mariano test of equal forecast accuracy, with the Harvey–Leybourne–Newbold correction.

    Rows are in time order. With errors :math:`e_t = y_t - \hat y_t`, loss :math:`L` (``"squared"``
    :math:`e^2` or ``"absolute"`` :math:`|e|`), differential :math:`d_t = L(e^A_t) - L(e^B_t)`, autocovariances
    :math:`\hat\gamma_k = \frac1n \sum_{t=k+1}^n (d_t - \bar d)(d_{t-k} - \bar d)` and ``h`` the forecast
    horizon,

    .. math:: DM = \frac{\bar d}{\sqrt{(\hat\gamma_0 + 2\sum_{k=1}^{h-1}\hat\gamma_k)/n}}, \qquad
        DM^* = DM\sqrt{\frac{n + 1 - 2h + h(h-1)/n}{n}} \sim t_{n-1}

    (Diebold & Mariano 1995; Harvey, Leybourne & Newbold 1997). ``harvey_correction=False`` gives the original
    DM against N(0, 1). When the long-run variance estimate is not positive for h > 1 the test falls back to
    h = 1, as R ``forecast::dm.test`` (``details["h_used"]``).

    Effect: the mean loss differential :math:`\bar d` (A − B; positive means A's forecasts are worse) with the
    interval that inverts the test. ``alternative="greater"``: A's expected loss exceeds B's.
    """
    check_alternative(alternative)
    level = check_level(confidence_level)
    check_choice("loss", loss, ("squared", "absolute"))
    y = as_float_vector(y_true, "y_true")
    fa = as_float_vector(pred_a, "pred_a")
    fb = as_float_vector(pred_b, "pred_b")
    check_same_length(y, fa, ("y_true", "pred_a"))
    check_same_length(y, fb, ("y_true", "pred_b"))
    n = y.size
    if isinstance(h, bool) or int(h) != h or h < 1:
        raise AssessError(f"`h` must be a whole number ≥ 1 (got {h!r})")
    h = int(h)
    if n < 3 or h >= n:
        raise AssessError(f"Diebold-Mariano needs more than h = {h} forecasts and at least 3 (got {n})")
    names = model_names(names, 2)
    ea, eb = y - fa, y - fb
    la, lb = (ea * ea, eb * eb) if loss == "squared" else (np.abs(ea), np.abs(eb))
    d = la - lb
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
        if mean == 0:
            warn_undefined("Diebold-Mariano is undefined: the loss differential is zero throughout")
    dist = StudentT(n - 1) if harvey_correction else NORMAL
    p = pvalue(dist, stat, alternative) if not math.isnan(stat) else math.nan
    low, high = interval(mean, se / factor, dist, alternative, level)
    word = "squared error" if loss == "squared" else "absolute error"
    assumptions = [Assumption("stationary loss differential", None,
                              "the loss differential is assumed covariance-stationary"),
                   Assumption("variance estimate positive at horizon h", h_used == h,
                              f"long-run variance at h = {h}" + ("" if h_used == h else
                                                                  " was not positive; fell back to h = 1"))]
    a, b = names
    if mean == 0:
        lead = f"Over {fmt_int(n)} forecasts, {a} and {b} have the same mean {word}"
    else:
        better, worse = (b, a) if mean > 0 else (a, b)
        ci = fmt_ci(low, high, level) if mean > 0 else fmt_ci(-high, -low, level)
        lead = (f"Over {fmt_int(n)} forecasts, {better}'s mean {word} is lower than {worse}'s by "
                f"{fmt_num(abs(mean))} ({ci})")
    method = "Diebold-Mariano" + (" with Harvey-Leybourne-Newbold correction" if harvey_correction else "")
    sentence = f"{lead}; {verdict(p, alpha_of(level), 'Diebold-Mariano')}."
    return TestResult(test="diebold_mariano", method=method, statistic=stat, pvalue=p,
                      df=float(n - 1) if harvey_correction else None, alternative=alternative,
                      effect=Effect(f"mean {word} difference (A - B)", mean, low, high, level),
                      assumptions=assumptions, sentence=sentence, n=n, models=names,
                      details={"loss": loss, "h": h, "h_used": h_used, "mean_loss_a": float(la.mean()),
                               "mean_loss_b": float(lb.mean())})


def _long_run_variance(c: np.ndarray, h: int) -> float:
    n = c.size
    total = float(c @ c) / n
    for k in range(1, h):
        total += 2.0 * float(c[k:] @ c[:-k]) / n
    return total
