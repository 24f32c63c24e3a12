r"""Planning: how many labelled rows a question needs, and what the test set in hand can detect (issue 36 §2).

Two kinds of question, each answered by a :class:`Plan` (``n``, ``method``, ``inputs``; JSON through `Plan.to_dict`):

- **Precision of one metric** — the rows for a confidence interval of half-width :math:`h` around an expected
  proportion (:func:`rows_for_half_width`: Wald in closed form, Wilson and Clopper–Pearson by searching n for the
  interval itself) or around an expected ROC AUC at a given prevalence (:func:`rows_for_auc_half_width`, Hanley &
  McNeil 1982).
- **Detecting a difference between two models** at significance level :math:`\alpha` with power :math:`1 - \beta`
  (two-sided tests, :math:`z_a = \Phi^{-1}(1 - \alpha/2)`, :math:`z_b = \Phi^{-1}(1 - \beta)`): paired accuracies
  (:func:`mcnemar_rows`, Connor 1987), independent proportions (:func:`two_proportions_rows`, Cohen's arcsine
  effect size), two correlated ROC AUCs (:func:`correlated_aucs_rows`, Obuchowski & McClish 1997) — and, from a file,
  the smallest difference its rows detect and the rows its observed difference would need (:func:`plan_from_file`,
  with the sentence for the meeting).

Every figure is a large-sample (normal) approximation, as in the papers; the planned n is rounded up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
from scipy import optimize

from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.core.formatting import class_phrase, count, counted, percent, significant
from assess.intervals import wilson_bounds
from assess.intervals.proportions import clopper_pearson_bounds
from assess.intervals.interval import check_confidence_level, normal_quantile

#: Interval methods of :func:`rows_for_half_width`, as the command line spells them.
HALF_WIDTH_METHODS = ("wilson", "wald", "clopper-pearson")
#: Metrics :func:`plan_from_file` compares two models on, per task (the first is the default).
FILE_METRICS = {Task.BINARY: ("accuracy", "roc_auc"), Task.MULTICLASS: ("accuracy",),
                Task.MULTILABEL: ("accuracy",), Task.REGRESSION: ("mae",), Task.FORECAST: ("mae",)}
_METRIC_WORDS = {"accuracy": "accuracy", "roc_auc": "ROC AUC", "mae": "mean absolute error",
                 "exact_match": "exact-match ratio (every label right)"}
_NORMAL = NormalDist()
_LARGEST_N = 10 ** 12   # the search for n gives up beyond this: a half-width no realistic test set reaches


@dataclass(frozen=True)
class Plan:
    """One planning answer. ``n``: the rows needed (total over both groups for independent samples; None, with
    ``reason``, when no n answers); ``method``: how it was computed; ``inputs``: what it was computed from (the
    user's figures, or those observed in the file). The file-based form adds ``detectable_difference`` (the smallest
    difference the file's rows detect), ``observed_difference``, ``n_file`` and the meeting's ``sentence``."""

    n: int | None
    method: str
    inputs: dict
    detectable_difference: float | None = None
    observed_difference: float | None = None
    n_file: int | None = None
    sentence: str = ""
    reason: str | None = None
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {"n": self.n, "method": self.method, "inputs": dict(self.inputs)} | dict(self.extra)
        if self.n_file is not None:
            out |= {"detectable_difference": self.detectable_difference,
                    "observed_difference": self.observed_difference, "n_file": self.n_file,
                    "more": None if self.n is None else max(0, self.n - self.n_file)}
        if self.sentence:
            out["sentence"] = self.sentence
        if self.reason:
            out["reason"] = self.reason
        return out


def _z(alpha: float, power: float) -> tuple[float, float]:
    if not 0 < alpha < 1:
        raise AssessError(f"the significance level alpha must be between 0 and 1 (got {alpha:g})")
    if not 0 < power < 1:
        raise AssessError(f"the power must be between 0 and 1 (got {power:g})")
    return _NORMAL.inv_cdf(1 - alpha / 2), _NORMAL.inv_cdf(power)


def _probability(name: str, value: float, *, open_interval: bool = True) -> float:
    value = float(value)
    ok = 0 < value < 1 if open_interval else 0 <= value <= 1
    if not ok:
        raise AssessError(f"{name} must be {'strictly ' if open_interval else ''}between 0 and 1 (got {value:g})")
    return value


def _smallest_n(fits, start: int = 1) -> int | None:
    """The smallest whole n >= ``start`` with ``fits(n)``, for a condition that once met stays met as n grows (a
    half-width that shrinks with n): doubling to a bracket, then bisection. None beyond `_LARGEST_N`."""
    low, high = start - 1, max(start, 1)
    while not fits(high):
        low, high = high, high * 2
        if high > _LARGEST_N:
            return None
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if fits(mid) else (mid, high)
    return high


# --- precision of one metric ---------------------------------------------------------------------------------------

def half_width(expected: float, n: float, *, method: str = "wilson", confidence_level: float = 0.95) -> float:
    r"""Half the width of the interval of a proportion observed at ``expected`` on n rows: Wald
    :math:`z\sqrt{p(1-p)/n}`; Wilson and Clopper–Pearson their interval (`assess.intervals`) on :math:`x = p\,n`
    successes — fractional, so that the width shrinks smoothly with n — halved."""
    if method == "wald":
        return normal_quantile(confidence_level) * math.sqrt(expected * (1 - expected) / n)
    if method == "wilson":
        _, low, high = wilson_bounds(expected * n, n, confidence_level=confidence_level)
    elif method == "clopper-pearson":
        low, high = clopper_pearson_bounds(expected * n, n, confidence_level=confidence_level)
    else:
        raise AssessError(f"the interval method must be one of {', '.join(HALF_WIDTH_METHODS)} (got {method!r})")
    return float(high - low) / 2


def rows_for_half_width(expected: float, width: float, *, method: str = "wilson",
                        confidence_level: float = 0.95, metric: str = "accuracy") -> Plan:
    r"""Rows for an interval of half-width ``width`` around an ``expected`` proportion (accuracy, recall, …).

    Wald: :math:`n = \lceil z^2 p(1-p)/h^2 \rceil` (statsmodels' ``samplesize_confint_proportion``, rounded up).
    Wilson and Clopper–Pearson: the smallest n whose interval at :math:`\hat p = p` is no wider than :math:`2h`,
    found by searching n on the interval itself — their width is not the Wald one (Clopper–Pearson is wider, most of
    all near 0 and 1), so the normal formula would promise a precision they do not give."""
    expected = _probability("the expected value", expected)
    width = _probability("the half-width", width)
    confidence_level = check_confidence_level(confidence_level)
    if method not in HALF_WIDTH_METHODS:
        raise AssessError(f"the interval method must be one of {', '.join(HALF_WIDTH_METHODS)} (got {method!r})")
    if method == "wald":
        n = math.ceil(normal_quantile(confidence_level) ** 2 * expected * (1 - expected) / width ** 2 - 1e-9)
    else:
        n = _smallest_n(lambda k: half_width(expected, k, method=method, confidence_level=confidence_level) <= width)
    return Plan(n, f"{method} interval half-width", {"metric": metric, "expected": expected, "half_width": width,
                                                      "confidence_level": confidence_level},
                reason=None if n is not None else "no realistic number of rows gives so narrow an interval")


def hanley_mcneil_variance(auc: float, n_positive: float, n_negative: float) -> float:
    r"""Variance of the empirical ROC AUC, Hanley & McNeil (1982, *Radiology* 143:29–36, eq. 1):

    .. math:: \mathrm{Var}(\hat A) = \frac{A(1-A) + (n_A - 1)(Q_1 - A^2) + (n_N - 1)(Q_2 - A^2)}{n_A n_N},\qquad
              Q_1 = \frac{A}{2-A},\quad Q_2 = \frac{2A^2}{1+A}

    with :math:`n_A` positives ("abnormal") and :math:`n_N` negatives (Q1, Q2 exact for exponential scores)."""
    q1, q2 = auc / (2 - auc), 2 * auc * auc / (1 + auc)
    return (auc * (1 - auc) + (n_positive - 1) * (q1 - auc * auc) + (n_negative - 1) * (q2 - auc * auc)) / (
        n_positive * n_negative)


def rows_for_auc_half_width(expected: float, width: float, *, prevalence: float,
                            confidence_level: float = 0.95) -> Plan:
    r"""Rows for a normal interval :math:`\hat A \pm z\,\mathrm{SE}` of half-width ``width`` around an ``expected``
    ROC AUC, a share ``prevalence`` of the rows positive: the smallest n with
    :math:`z\sqrt{\mathrm{Var}(\hat A)} \le h`, the variance by :func:`hanley_mcneil_variance` at
    :math:`n_A = \pi n`, :math:`n_N = (1-\pi) n`."""
    expected = _probability("the expected ROC AUC", expected)
    width = _probability("the half-width", width)
    prevalence = _probability("the prevalence", prevalence)
    confidence_level = check_confidence_level(confidence_level)
    z = normal_quantile(confidence_level)
    # at least 2 rows of each class, so that both (n - 1) terms are counts
    start = math.ceil(max(2 / prevalence, 2 / (1 - prevalence)))
    n = _smallest_n(lambda k: z * math.sqrt(hanley_mcneil_variance(expected, prevalence * k, (1 - prevalence) * k))
                    <= width, start)
    return Plan(n, "hanley-mcneil", {"metric": "roc_auc", "expected": expected, "half_width": width,
                                     "prevalence": prevalence, "confidence_level": confidence_level},
                reason=None if n is not None else "no realistic number of rows gives so narrow an interval")


# --- detecting a difference between two models ---------------------------------------------------------------------

def connor_rows(p10: float, p01: float, za: float, zb: float) -> float:
    r"""Connor (1987, *Biometrics* 43:207–211, eq. 3): paired samples for McNemar's test,

    .. math:: n = \frac{\left(z_a\sqrt{\psi} + z_b\sqrt{\psi - \delta^2}\right)^2}{\delta^2},\qquad
              \psi = p_{10} + p_{01},\quad \delta = p_{10} - p_{01}

    (unrounded; infinite when :math:`\delta = 0`)."""
    psi, delta = p10 + p01, p10 - p01
    if delta == 0:
        return math.inf
    return (za * math.sqrt(psi) + zb * math.sqrt(max(psi - delta * delta, 0.0))) ** 2 / (delta * delta)


def mcnemar_rows(p10: float, p01: float, *, power: float = 0.8, alpha: float = 0.05) -> Plan:
    """Paired rows for McNemar's test to detect accuracies differing by ``p10 − p01`` (the expected shares of rows
    model A gets right and B wrong, and the reverse) — :func:`connor_rows`, rounded up."""
    p10 = _probability("the share of rows only model A gets right (p10)", p10, open_interval=False)
    p01 = _probability("the share of rows only model B gets right (p01)", p01, open_interval=False)
    if p10 + p01 > 1:
        raise AssessError(f"the shares of rows only model A and only model B get right (p10, p01) are of the same "
                          f"rows: their sum must be at most 1 (got {p10 + p01:g})")
    za, zb = _z(alpha, power)
    inputs = {"test": "mcnemar", "p10": p10, "p01": p01, "power": power, "alpha": alpha}
    if p10 == p01:
        return Plan(None, "connor", inputs, reason="the two models are expected to be equally accurate (each alone "
                                                   "right on as many rows), so no number of rows detects a difference")
    return Plan(math.ceil(connor_rows(p10, p01, za, zb) - 1e-9), "connor", inputs)


def two_proportions_rows(p1: float, p2: float, *, power: float = 0.8, alpha: float = 0.05) -> Plan:
    r"""Rows for comparing two proportions (two models' accuracies) on independent samples of equal size: Cohen's
    effect size :math:`h = 2\arcsin\sqrt{p_1} - 2\arcsin\sqrt{p_2}` (statsmodels' ``proportion_effectsize``) and
    the smallest n per group whose two-sided z-test power reaches the target,

    .. math:: \Phi\left(|h|\sqrt{n/2} - z_a\right) + \Phi\left(-|h|\sqrt{n/2} - z_a\right) \ge 1 - \beta

    (statsmodels' ``NormalIndPower``). ``n`` is both groups together; ``n_per_group`` beside it."""
    p1 = _probability("the accuracy of model A (p1)", p1)
    p2 = _probability("the accuracy of model B (p2)", p2)
    za, zb = _z(alpha, power)
    inputs = {"test": "two-proportions", "p1": p1, "p2": p2, "power": power, "alpha": alpha}
    h = abs(2 * math.asin(math.sqrt(p1)) - 2 * math.asin(math.sqrt(p2)))
    if h == 0:
        return Plan(None, "two-proportions (arcsine)", inputs,
                    reason="the two accuracies are the same: no number of rows detects a difference")

    def shortfall(n):
        shift = h * math.sqrt(n / 2)
        return _NORMAL.cdf(shift - za) + _NORMAL.cdf(-shift - za) - power

    per_group = optimize.brentq(shortfall, 1e-9, ((za + zb) / h) ** 2 * 2 + 10, xtol=1e-10)
    per_group = math.ceil(per_group - 1e-9)
    return Plan(2 * per_group, "two-proportions (arcsine)", inputs, extra={"n_per_group": per_group})


def obuchowski_variance(auc: float, ratio: float) -> float:
    r"""Obuchowski's (1994; Obuchowski & McClish 1997, *Stat Med* 16:1529–1542) variance function of the ROC AUC
    under a binormal model with equal variances, per positive case,

    .. math:: V(A) = 0.0099\,e^{-a^2/2}\left[(5a^2 + 8) + (a^2 + 8)/\kappa\right],\qquad a = 1.414\,\Phi^{-1}(A)

    with :math:`\kappa = n_N / n_A` negatives per positive (:math:`\mathrm{Var}(\hat A) \approx V(A)/n_A`)."""
    a = 1.414 * _NORMAL.inv_cdf(auc)
    return 0.0099 * math.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / ratio)


def correlated_aucs_rows(auc1: float, auc2: float, *, correlation: float, prevalence: float, power: float = 0.8,
                         alpha: float = 0.05) -> Plan:
    r"""Rows for comparing two ROC AUCs measured on the same cases (Obuchowski & McClish 1997; Obuchowski 1998,
    *Stat Methods Med Res* 7:371–392): positives

    .. math:: n_A = \frac{\left(z_a\sqrt{V_0} + z_b\sqrt{V_1}\right)^2}{(A_1 - A_2)^2},\qquad
              V_1 = V(A_1) + V(A_2) - 2r\sqrt{V(A_1)V(A_2)},\quad V_0 = 2(1 - r)\,V(A_1)

    (:func:`obuchowski_variance`; :math:`V_0` under H0, both AUCs :math:`A_1`), ``correlation`` r the correlation of
    the two AUC estimates (the observed one is DeLong's; 0.3–0.6 is usual for two models scoring the same cases), and
    the total :math:`n = n_A / \pi` rounded up."""
    auc1 = _probability("the ROC AUC of model A", auc1)
    auc2 = _probability("the ROC AUC of model B", auc2)
    prevalence = _probability("the prevalence", prevalence)
    if not -1 < correlation < 1:
        raise AssessError(f"the correlation of the two AUCs must be between −1 and 1 (got {correlation:g})")
    za, zb = _z(alpha, power)
    inputs = {"test": "delong", "auc1": auc1, "auc2": auc2, "correlation": correlation, "prevalence": prevalence,
              "power": power, "alpha": alpha}
    if auc1 == auc2:
        return Plan(None, "obuchowski", inputs,
                    reason="the two ROC AUCs are the same: no number of rows detects a difference")
    ratio = (1 - prevalence) / prevalence
    v1, v2 = obuchowski_variance(auc1, ratio), obuchowski_variance(auc2, ratio)
    v_alt = v1 + v2 - 2 * correlation * math.sqrt(v1 * v2)
    v_null = 2 * (1 - correlation) * v1
    positives = (za * math.sqrt(v_null) + zb * math.sqrt(v_alt)) ** 2 / (auc1 - auc2) ** 2
    positives = math.ceil(positives - 1e-9)
    return Plan(math.ceil(positives / prevalence - 1e-9), "obuchowski", inputs, extra={"n_positive": positives})


# --- from the file in hand ----------------------------------------------------------------------------------------

def plan_from_file(assessment, models=None, *, metric: str | None = None, decision: Decision = Decision(),
                   power: float = 0.8, alpha: float = 0.05) -> Plan:
    r"""What this test set can tell apart: two models scored on the same rows, the smallest difference in
    ``metric`` its n rows detect with ``power`` at ``alpha`` (two-sided), and the rows the observed difference would
    need, each holding the observed spread fixed:

    - accuracy (classification): Connor's formula (:func:`connor_rows`) at the observed discordance
      :math:`\psi = (n_{10} + n_{01})/n`, solved for :math:`\delta` at the file's n;
    - ROC AUC (binary, both models with scores): DeLong's variance of the difference
      :math:`\mathrm{Var}(\hat A - \hat B)` (its covariance is the correlation) scaled as 1/n,
      :math:`\delta = (z_a + z_b)\sqrt{\mathrm{Var}}`, :math:`n' = n\,\mathrm{Var}\,(z_a + z_b)^2/\delta_{obs}^2`;
    - mean absolute error (regression, forecasts): the standard deviation s of the paired differences of absolute
      errors, :math:`\delta = (z_a + z_b)s/\sqrt n`, :math:`n' = ((z_a + z_b)s/\delta_{obs})^2`.

    ``n`` of the plan is :math:`n'` rounded up (None when the observed difference is 0); the sentence is the one
    for the meeting. Unweighted: sample weights are left out."""
    from assess.stats.inputs import comparison_predictions
    from assess.stats.scores import delong
    from assess.stats.shaping import align_predictions, correctness_table, sample_losses

    task = assessment.task
    if task not in FILE_METRICS:
        raise AssessError(f"planning from a file compares models' accuracy, ROC AUC or mean absolute error; "
                          f"a {task.label} file has none of them")
    choices = FILE_METRICS[task]
    metric = metric or choices[0]
    if metric not in choices:
        raise AssessError(f"planning from a {task.label} file compares {' or '.join(choices)}; got {metric!r}")
    models = list(models or assessment.models[:2])   # default: the file's first two
    if len(models) != 2:
        raise AssessError(f"planning from the file compares 2 models; {assessment.table.name} has "
                          f"{len(assessment.models)} ({', '.join(map(str, assessment.models))})")
    za, zb = _z(alpha, power)
    try:
        aligned = align_predictions(comparison_predictions(assessment, models), models=models)
    except AssessError as exc:
        raise AssessError(f"planning from the file needs both models scored on the same rows: {exc}") from None
    n = int(aligned.n)
    inputs = {"models": models, "metric": metric, "power": power, "alpha": alpha}
    if metric == "accuracy":
        correct = correctness_table(aligned, decision=decision).to_numpy()
        n10 = int(np.count_nonzero(correct[:, 0] & ~correct[:, 1]))
        n01 = int(np.count_nonzero(~correct[:, 0] & correct[:, 1]))
        psi, observed = (n10 + n01) / n, (n10 - n01) / n
        inputs |= {"p10": n10 / n, "p01": n01 / n}
        method = "connor"
        if psi == 0:
            return Plan(None, method, inputs, n_file=n, observed_difference=0.0,
                        reason="the two models are right and wrong on the same rows: no discordance to plan from")
        detectable = _connor_detectable(psi, n, za, zb)
        needed = connor_rows(n10 / n, n01 / n, za, zb)
    else:
        if metric == "roc_auc":
            a, b = (aligned.scores[m] for m in models)
            if a is None or b is None:
                raise AssessError("planning on ROC AUC needs both models' scores; use --metric accuracy")
            result = delong(aligned.y_true, np.asarray(a, float), np.asarray(b, float))
            d = result.details
            variance, observed = d.var_a + d.var_b - 2 * d.covariance, d.auc_a - d.auc_b
            inputs |= {"auc_a": d.auc_a, "auc_b": d.auc_b, "correlation": d.correlation,
                       "positive": str(aligned.classes[1])}
            method = "delong variance"
        else:
            losses = [sample_losses(p, loss="absolute") for p in (_aligned_model(aligned, m) for m in models)]
            diff = losses[0] - losses[1]
            variance = float(np.var(diff, ddof=1)) / n if n > 1 else math.nan
            observed = float(diff.mean())
            inputs |= {"sd_of_differences": math.sqrt(variance * n)}
            method = "paired normal"
        if not variance > 0:
            return Plan(None, method, inputs, n_file=n, observed_difference=observed,
                        reason="the two models' values do not vary apart: no spread to plan from")
        detectable = (za + zb) * math.sqrt(variance)
        needed = n * variance * (za + zb) ** 2 / observed ** 2 if observed else math.inf
    n_needed = math.ceil(needed - 1e-9) if math.isfinite(needed) else None
    plan = Plan(n_needed, method, inputs, detectable_difference=detectable, observed_difference=observed, n_file=n,
                reason=None if n_needed else "the observed difference is 0: no number of rows detects it")
    # a multi-label row is right when every label is (`correctness_table`): its accuracy is the exact-match ratio
    words = "exact_match" if task is Task.MULTILABEL else metric
    return Plan(**{**plan.__dict__, "sentence": meeting_sentence(plan, words, aligned.classes, power)})


def _aligned_model(aligned, model):
    """One model's `Predictions` out of aligned ones (its losses are computed on the shared row order)."""
    from assess.stats.shaping import separate

    return separate(aligned).predictions[model]


def _connor_detectable(psi: float, n: int, za: float, zb: float) -> float | None:
    r"""The δ at which Connor's n equals the file's n, the discordance ψ held: n(δ) falls from ∞ at δ → 0 to its
    least at δ = ψ (one model never right where the other is wrong); None when even that needs more rows."""
    def excess(delta):
        return connor_rows((psi + delta) / 2, (psi - delta) / 2, za, zb) - n

    if excess(psi) > 0:
        return None
    return float(optimize.brentq(excess, psi * 1e-9, psi, xtol=1e-12))


def _points(value: float, *, about: bool) -> str:
    """A difference of proportions in percentage points: "about 4" rounds to whole points from 2 up, "1.9" keeps one
    decimal."""
    points = abs(value) * 100
    if about and points >= 1.95:
        return f"{points:,.0f}"
    return f"{points:,.1f}" if points >= 0.095 else f"{points:.2g}"


def _rows(n: int) -> str:
    """A planned count for a sentence: two significant figures from 100 up ("about 2,600")."""
    if n >= 100:
        digits = int(math.floor(math.log10(n))) - 1
        n = int(round(n, -digits))
    return count(n)


def meeting_sentence(plan: Plan, metric: str, classes=(), power: float = 0.8) -> str:
    """"With 569 cases you can detect a difference of about 4 points in accuracy between these models; the
    observed 1.9 points would need about 2,600." ROC AUC names its positive class; mean absolute error is in the
    target's units."""
    words = _METRIC_WORDS[metric]
    if metric == "roc_auc" and len(classes) == 2:
        words += f" for {class_phrase(classes[1], role='positive class')}"
    proportion = metric != "mae"

    def amount(value, about):
        return f"{_points(value, about=about)} points" if proportion else f"{abs(value):.2g}"

    cases = f"With {count(plan.n_file)} cases"
    if plan.detectable_difference is None:
        first = (f"{cases} and the models' observed disagreement, no difference in {words} between these models is "
                 f"detectable with {power:.0%} power")
    else:
        first = (f"{cases} you can detect a difference of about {amount(plan.detectable_difference, True)} in "
                 f"{words} between these models")
    observed = plan.observed_difference
    if plan.n is None:
        return f"{first}; the observed difference is 0, which no number of cases would detect."
    if plan.n <= plan.n_file:
        return f"{first}; the observed {amount(observed, False)} would need about {_rows(plan.n)}, fewer than you have."
    return f"{first}; the observed {amount(observed, False)} would need about {_rows(plan.n)}."


def plan_sentence(plan: Plan) -> str:
    """A plan without a file in one sentence (the file-based plan has its meeting sentence): the rows and what they
    give, or why no number of rows does."""
    if plan.sentence:
        return plan.sentence
    if plan.n is None:
        return f"No number of rows answers this: {plan.reason}."
    i = plan.inputs
    rows = counted(plan.n, "labelled row")
    if plan.method == "hanley-mcneil":
        return (f"{rows} ({percent(i['prevalence'], 0)} positive) give a {percent(i['confidence_level'], 0)} "
                f"interval of ±{significant(i['half_width'], 2)} around a ROC AUC of {significant(i['expected'], 3)} "
                "(Hanley & McNeil 1982).")
    if plan.method.endswith("interval half-width"):
        from assess.metrics import get

        name = {"wilson": "Wilson", "wald": "Wald", "clopper-pearson": "Clopper–Pearson"}[plan.method.split()[0]]
        metric = get(Task.BINARY, i["metric"]).name.split(" (")[0].lower()
        rows_of = "" if i["metric"] in ("accuracy", "error_rate") else f" (the rows {metric} is computed on)"
        article = "an" if metric[0] in "aeio" else "a"
        return (f"{rows}{rows_of} give a {percent(i['confidence_level'], 0)} {name} interval of ±"
                f"{_points(i['half_width'], about=False)} points around {article} {metric} of "
                f"{percent(i['expected'])}.")
    level = f"with {percent(i['power'], 0)} power at the {percent(i['alpha'], 0)} level"
    if plan.method == "connor":
        return (f"{rows}, each scored by both models, detect accuracies {_points(i['p10'] - i['p01'], about=False)} "
                f"points apart {level} (McNemar's test; one model alone right on {percent(i['p10'])} of the rows, "
                f"the other on {percent(i['p01'])}; Connor 1987).")
    if plan.method.startswith("two-proportions"):
        return (f"{rows}, {count(plan.extra['n_per_group'])} per model on separate rows, detect accuracies of "
                f"{percent(i['p1'])} and {percent(i['p2'])} {level} (two-proportion test).")
    return (f"{rows} ({count(plan.extra['n_positive'])} positive) detect ROC AUCs of {significant(i['auc1'], 3)} and "
            f"{significant(i['auc2'], 3)} {level} (DeLong's test, the two AUCs correlated "
            f"{significant(i['correlation'], 2)}; Obuchowski & McClish 1997).")
