r"""The metric registry: one entry per (task, metric key), the single source the UI, CLI, exports and tests read.

Each :class:`MetricSpec` says what a metric is (display name, LaTeX formula, one-line meaning, source clause), what
it needs (labels, scores or probabilities), which way is better, its range, how its uncertainty is computed
(``kind``: ``"count"`` — no interval; ``"proportion"`` — Wilson / Clopper–Pearson / normal from
:attr:`MetricSpec.proportion`; ``"auc"`` — DeLong; ``"row_mean"`` — a mean of per-row losses, Student-t;
``"delta"`` — the delta method (R², explained variance); ``"median"`` — order statistics (median absolute
error); ``"binned"`` — simultaneous Clopper–Pearson intervals of the score bins (ECE,
:func:`~assess.metrics.calibration_error.ece_interval`); ``"maximum"`` — none, the bootstrap of a maximum cannot
cover; ``"other"`` — bootstrap), where the UI shows it (``group``), the parameters it reads (``beta``, ``k``,
``threshold``), how its ISO 5.3.13 baselines are obtained (``baseline``) and the function that computes it from the
task's shared state.

List metrics with :func:`metrics_for` (by task, optionally group / needs) and look one up with :func:`get`:

>>> from assess.core.data import Task
>>> [m.key for m in metrics_for(Task.BINARY, group="Ranking")]
['roc_auc', 'average_precision', 'pr_auc', 'ks_statistic']
>>> get(Task.MULTICLASS, "cccsmf_accuracy").source
'ISO/IEC TS 4213:2022 Annex D; Flaxman et al. (2015)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from assess.core.data import Task
from assess.core.errors import AssessError, shorten
from assess.metrics import binary, calibration_error, clustering, forecast_state, multiclass, multilabel, regression

__all__ = ["MetricSpec", "Proportion", "TableColumn", "REGISTRY", "TABLES", "GROUPS", "TASKS", "metrics_for", "get",
           "keys_for", "table_for", "applicable", "applicable_to", "headline", "headline_of", "shown_by_default"]

ISO = "ISO/IEC TS 4213:2022"
QAHTAN = "Qahtan, Machine Learning—Evaluation (reference 001)"
NOTES = "Lecture notes Data, Features, and Evaluation (reference 004)"
IOCCHI = "Iocchi, Performance Evaluation slides (reference 002)"
SKL = "scikit-learn sklearn.metrics"

#: UI groups, in display order.
GROUPS = ("Counts", "Threshold metrics", "Agreement", "Likelihood ratios", "Ranking", "Probabilistic",
          "Distribution", "Errors", "Relative errors", "Fit", "Scaled errors", "Prediction intervals",
          "Pair counting", "Matching", "Information", "Internal")

#: Tasks with registry entries: classification, regression, (pooled over rows) forecasts and clustering.
TASKS = (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL, Task.REGRESSION, Task.FORECAST, Task.CLUSTERING)


@dataclass(frozen=True)
class Proportion:
    """A metric that is a ratio x / n of (weighted) counts, so binomial intervals apply.

    ``counts(state)`` returns ``(x, n, n_eff)``: numerator, denominator and the Kish effective size of the
    denominator set :math:`(\\sum w)^2 / \\sum w^2` (equal to ``n`` without weights).
    """

    numerator: str
    denominator: str
    counts: Callable


@dataclass(frozen=True)
class MetricSpec:
    """One metric of one task. ``compute(state)`` returns a float (or an array for a batch state).

    What the bootstrap needs comes from the entry, never from its key: a label metric's ``compute`` runs on a batch
    state of resampled cells; a score metric's optional ``resampled(ranks)`` evaluates a chunk of resamples from the
    one sort (binary: :class:`~assess.metrics.resampling.ResampledRanks`) — without it, ``compute`` runs on a batch
    state carrying the resampled cumulative counts per distinct score (slower, same numbers). ``shared`` names the
    parts of the task's shared state the metric reads beyond the defaults, so they are built only when asked for
    (multi-class: ``"one_vs_rest"`` curves, ``"one_vs_one"`` pairwise AUCs). ``uniform_baseline(state)`` gives the
    uniform-random baseline in closed form where the metric of constant scores would not be it (ties), its docstring
    saying how.
    """

    key: str
    name: str
    task: Task
    needs: str                      # "labels" | "scores" | "probabilities" | "values" (regression, forecast) |
    #                                 "intervals" (forecast: only when the file has lower/upper columns) |
    #                                 "reference" (clustering: reference classes) | "features" (clustering: x_*)
    direction: str                  # "higher" | "lower" | "none"
    range: tuple[float, float]
    latex: str
    meaning: str
    source: str
    kind: str                       # "count" | "proportion" | "auc" | "row_mean" | "delta" | "median" |
    #                                 "maximum" | "other" (see the module docstring)
    group: str
    params: tuple[str, ...]
    compute: Callable
    baseline: str = "simulated"     # "expected" (metric of the expected cells) | "simulated" | "scores" |
    #                                 "constant" (regression: the mean and median of y_true as predictions) |
    #                                 "forecasts" (forecasts: the naive, seasonal naive and drift forecasts) |
    #                                 "random" (clustering: a random partition of the same sizes) | "none"
    proportion: Proportion | None = None
    resampled: Callable | None = None
    shared: tuple[str, ...] = ()
    uniform_baseline: Callable | None = None

    def named(self, *, beta: float = 1.0, k: int = 2) -> str:
        """The name with the parameter the value was computed with, as every table shows it: "Top-3 accuracy",
        "F-beta score (β = 2)" — a bare "Top-k accuracy" does not say which k.

        >>> get(Task.MULTICLASS, "top_k_accuracy").named(k=3)
        'Top-3 accuracy'
        >>> get(Task.BINARY, "fbeta").named(beta=0.5), get(Task.BINARY, "f1").named(beta=0.5)
        ('F-beta score (β = 0.5)', 'F1 score')
        >>> get(Task.MULTICLASS, "fbeta_macro").named(beta=2)
        'F-beta (macro, β = 2)'
        """
        if "k" in self.params:
            return self.name.replace("Top-k", f"Top-{int(k)}")
        if "beta" in self.params:
            # one parenthesis: "F-beta (macro, β = 2)", not "F-beta (macro) (β = 2)"
            setting = f"β = {float(beta):g}"
            return f"{self.name[:-1]}, {setting})" if self.name.endswith(")") else f"{self.name} ({setting})"
        return self.name


@dataclass(frozen=True)
class TableColumn:
    """A column of the per-class (multi-class) or per-label (multi-label) table."""

    key: str
    name: str
    meaning: str
    needs: str
    direction: str
    compute: Callable               # state -> (k,) or (L,) array


# ----------------------------------------------------------------------------------------------------------------
# Proportion counts
# ----------------------------------------------------------------------------------------------------------------

def _bin_prop(num: tuple[str, ...], den: tuple[str, ...]):
    def counts(s):
        x = sum(getattr(s, c) for c in num)
        n = sum(getattr(s, c) for c in den)
        sq = sum(s.cells_sq[c] for c in den) if s.cells_sq else n
        return x, n, (n * n / sq if sq > 0 else 0.0)
    return counts


def _mc_correct(s):
    n = float(s.cm.sum())
    sq = float(s.cm_sq.sum())
    return float(np.trace(s.cm)), n, (n * n / sq if sq > 0 else 0.0)


def _mc_wrong(s):
    x, n, ne = _mc_correct(s)
    return n - x, n, ne


def _uniform_top_k(s) -> float:
    """top-k analytic min(k, K)/K"""
    k = len(s.classes)
    return min(s.top_k, k) / k


def _mc_topk(s):
    sq = s.extra.get("weight_sq", s.weight_sum)
    return s.topk_sum, s.weight_sum, (s.weight_sum ** 2 / sq if sq > 0 else 0.0)


def _ml_exact(s):
    sq = s.sq["weight_sq"] if s.sq else s.weight_sum
    return s.row("exact"), s.weight_sum, (s.weight_sum ** 2 / sq if sq > 0 else 0.0)


CELLS = ("tp", "fp", "tn", "fn")

# ----------------------------------------------------------------------------------------------------------------
# Binary
# ----------------------------------------------------------------------------------------------------------------

_BIN = Task.BINARY
_T = ("threshold",)


def _b(key, name, latex, meaning, source, *, direction="higher", rng=(0.0, 1.0), kind="other",
       group="Threshold metrics", needs="labels", params=_T, baseline="simulated", prop=None, fn=None,
       resampled=None):
    proportion = None
    if prop is not None:
        num, den, num_txt, den_txt = prop
        proportion = Proportion(num_txt, den_txt, _bin_prop(num, den))
        kind = "proportion"
    # A score metric's resample formula sits beside it in binary.py as resampled_<key> (see MetricSpec), or is given
    # with the function of a metric of its own module (``fn``, ``resampled``).
    return MetricSpec(key, name, _BIN, needs, direction, rng, latex, meaning, source, kind, group, params,
                      fn or getattr(binary, key), baseline, proportion,
                      resampled or (getattr(binary, f"resampled_{key}", None) if needs != "labels" else None))


_INF = (0.0, float("inf"))

BINARY = (
    _b("tp", "True positives", r"T_P = \sum_i w_i [y_i = 1][\hat y_i = 1]",
       "Positive rows the model called positive.", f"{ISO} 3.2.4", direction="none", rng=_INF, kind="count",
       group="Counts", baseline="expected"),
    _b("fp", "False positives", r"F_P = \sum_i w_i [y_i = 0][\hat y_i = 1]",
       "Negative rows the model wrongly called positive (false alarms, type I errors).", f"{ISO} 3.2.3",
       direction="none", rng=_INF, kind="count", group="Counts", baseline="expected"),
    _b("tn", "True negatives", r"T_N = \sum_i w_i [y_i = 0][\hat y_i = 0]",
       "Negative rows the model called negative.", f"{ISO} 3.2.5", direction="none", rng=_INF, kind="count",
       group="Counts", baseline="expected"),
    _b("fn", "False negatives", r"F_N = \sum_i w_i [y_i = 1][\hat y_i = 0]",
       "Positive rows the model missed (type II errors).", f"{ISO} 3.2.2", direction="none", rng=_INF,
       kind="count", group="Counts", baseline="expected"),
    _b("n", "Rows", r"n = T_P + F_P + T_N + F_N", "Number of assessed rows (total weight when weighted).",
       f"{ISO} 6.3.2", direction="none", rng=_INF, kind="count", group="Counts", params=(), baseline="expected"),
    _b("prevalence", "Prevalence", r"\pi = (T_P + F_N) / n", "Share of rows that are truly positive.",
       f"{ISO} 6.3.1", direction="none", group="Counts", params=(), baseline="expected",
       prop=(("tp", "fn"), CELLS, "true positives + false negatives", "all rows")),
    _b("accuracy", "Accuracy", r"a = \frac{T_P + T_N}{T_P + F_P + T_N + F_N}",
       "Share of rows classified correctly.", f"{ISO} 3.2.6, 6.3.3", baseline="expected",
       prop=(("tp", "tn"), CELLS, "correct rows", "all rows")),
    _b("error_rate", "Error rate", r"e = \frac{F_P + F_N}{n} = 1 - a", "Share of rows classified wrongly.",
       f"{IOCCHI}, sample error; {ISO} 7 (CLT interval)", direction="lower", baseline="expected",
       prop=(("fp", "fn"), CELLS, "wrong rows", "all rows")),
    _b("precision", "Precision", r"p = \frac{T_P}{T_P + F_P}",
       "Of the rows called positive, the share that truly are.", f"{ISO} 3.2.9, 6.3.4", baseline="expected",
       prop=(("tp",), ("tp", "fp"), "true positives", "rows predicted positive")),
    _b("recall", "Recall (sensitivity)", r"r = \frac{T_P}{T_P + F_N}",
       "Of the truly positive rows, the share the model found.", f"{ISO} 3.2.10, 6.3.4", baseline="expected",
       prop=(("tp",), ("tp", "fn"), "true positives", "truly positive rows")),
    _b("specificity", "Specificity", r"s = \frac{T_N}{T_N + F_P}",
       "Of the truly negative rows, the share the model called negative.", f"{ISO} 3.2.11, 6.3.4",
       baseline="expected", prop=(("tn",), ("tn", "fp"), "true negatives", "truly negative rows")),
    _b("fpr", "False positive rate", r"\mathrm{FPR} = \frac{F_P}{F_P + T_N}",
       "Of the truly negative rows, the share wrongly called positive.", f"{ISO} 3.2.12", direction="lower",
       baseline="expected", prop=(("fp",), ("fp", "tn"), "false positives", "truly negative rows")),
    _b("fnr", "False negative rate", r"\mathrm{FNR} = \frac{F_N}{F_N + T_P}",
       "Of the truly positive rows, the share the model missed.", f"{ISO} 3.2.2, 3.2.10", direction="lower",
       baseline="expected", prop=(("fn",), ("fn", "tp"), "false negatives", "truly positive rows")),
    _b("npv", "Negative predictive value", r"\mathrm{NPV} = \frac{T_N}{T_N + F_N}",
       "Of the rows called negative, the share that truly are.", f"{QAHTAN}, P(-ve)", baseline="expected",
       prop=(("tn",), ("tn", "fn"), "true negatives", "rows predicted negative")),
    _b("fdr", "False discovery rate", r"\mathrm{FDR} = \frac{F_P}{F_P + T_P} = 1 - p",
       "Of the rows called positive, the share that are false alarms.", f"{ISO} clause 4 (FDR)",
       direction="lower", baseline="expected",
       prop=(("fp",), ("fp", "tp"), "false positives", "rows predicted positive")),
    _b("false_omission_rate", "False omission rate", r"\mathrm{FOR} = \frac{F_N}{F_N + T_N}",
       "Of the rows called negative, the share that were actually positive.", f"{ISO} 6.3.2 (from the cells)",
       direction="lower", baseline="expected",
       prop=(("fn",), ("fn", "tn"), "false negatives", "rows predicted negative")),
    _b("f1", "F1 score", r"F_1 = \frac{2T_P}{2T_P + F_P + F_N}",
       "Balance of precision and recall (their harmonic mean).", f"{ISO} 3.2.8, 6.2.5"),
    _b("fbeta", "F-beta score", r"F_\beta = \frac{(1+\beta^2)T_P}{(1+\beta^2)T_P + \beta^2 F_N + F_P}",
       "Precision–recall balance with recall counted beta times as important.", f"{ISO} 6.2.6; {QAHTAN}",
       params=("beta", "threshold")),
    _b("balanced_accuracy", "Balanced accuracy", r"BA = \frac{r + s}{2}",
       "Average of the hit rates on positives and on negatives; fair under class imbalance.",
       f"{QAHTAN}, balanced accuracy", baseline="expected"),
    _b("mcc", "Matthews correlation", r"\frac{T_P T_N - F_P F_N}{\sqrt{(T_P+F_P)(T_P+F_N)(T_N+F_P)(T_N+F_N)}}",
       "Correlation between truth and prediction, from -1 (always wrong) to 1 (perfect).",
       "Matthews (1975); scikit-learn matthews_corrcoef", rng=(-1.0, 1.0), group="Agreement"),
    _b("cohen_kappa", "Cohen's kappa", r"\kappa = \frac{p_o - p_e}{1 - p_e}",
       "Agreement with the truth beyond what chance alone would give.", "Cohen (1960); scikit-learn",
       rng=(-1.0, 1.0), group="Agreement"),
    _b("informedness", "Informedness (Youden's J)", r"J = r + s - 1",
       "How much better than chance the model separates positives from negatives.", "Youden (1950); Powers (2011)",
       rng=(-1.0, 1.0), group="Agreement", baseline="expected"),
    _b("markedness", "Markedness", r"\mathrm{MK} = p + \mathrm{NPV} - 1",
       "How much better than chance a predicted label tells the true one.", "Powers (2011)", rng=(-1.0, 1.0),
       group="Agreement", baseline="expected"),
    _b("lr_plus", "Positive likelihood ratio", r"\mathrm{LR}^+ = \frac{\mathrm{TPR}}{\mathrm{FPR}}",
       "How many times more likely a positive call is for a positive row than for a negative one.",
       f"{SKL}.class_likelihood_ratios", rng=_INF, group="Likelihood ratios"),
    _b("lr_minus", "Negative likelihood ratio", r"\mathrm{LR}^- = \frac{\mathrm{FNR}}{\mathrm{TNR}}",
       "How likely a negative call is for a positive row relative to a negative one (lower is better).",
       f"{SKL}.class_likelihood_ratios", direction="lower", rng=_INF, group="Likelihood ratios"),
    _b("diagnostic_odds_ratio", "Diagnostic odds ratio", r"\mathrm{DOR} = \frac{T_P T_N}{F_P F_N}",
       "Odds of a positive call among positives over the odds among negatives.", "Glas et al. (2003)",
       rng=_INF, group="Likelihood ratios"),
    _b("roc_auc", "ROC AUC", r"\mathrm{AUC} = P(S^+ > S^-) + \tfrac12 P(S^+ = S^-)",
       "Chance that a random positive gets a higher score than a random negative.", f"{ISO} 3.2.16, 6.3.6",
       kind="auc", group="Ranking", needs="scores", params=(), baseline="scores"),
    _b("average_precision", "Average precision", r"\mathrm{AP} = \sum_k (R_k - R_{k-1}) P_k",
       "Precision averaged over every recall level reached while lowering the threshold.",
       f"{ISO} 3.2.15, 6.3.7", group="Ranking", needs="scores", params=(), baseline="scores"),
    _b("pr_auc", "PR AUC (trapezoidal)", r"\sum_k (R_k - R_{k-1}) \frac{P_k + P_{k-1}}{2}",
       "Area under the precision–recall curve, joining its points with straight lines.", f"{ISO} 6.3.7",
       group="Ranking", needs="scores", params=(), baseline="scores"),
    _b("ks_statistic", "KS statistic", r"\max_k |\mathrm{TPR}_k - \mathrm{FPR}_k|",
       "Largest gap between the score distributions of positives and negatives.",
       "Kolmogorov–Smirnov two-sample statistic", group="Ranking", needs="scores", params=(), baseline="scores"),
    _b("log_loss", "Log loss", r"-\frac{1}{n}\sum_i [y_i \ln p_i + (1-y_i)\ln(1-p_i)]",
       "Penalty for confident wrong probabilities (0 is perfect).", f"{SKL}.log_loss", direction="lower",
       rng=_INF, kind="row_mean", group="Probabilistic", needs="probabilities", params=(), baseline="scores"),
    _b("brier_score", "Brier score", r"\frac{1}{n}\sum_i (p_i - y_i)^2",
       "Mean squared gap between the predicted probability and the 0/1 truth.", "Brier (1950); scikit-learn",
       direction="lower", kind="row_mean", group="Probabilistic", needs="probabilities", params=(),
       baseline="scores"),
    _b("ece", "Expected calibration error",
       r"\mathrm{ECE} = \sum_{b=1}^{10} \frac{n_b}{n} \left| o_b - \bar p_b \right|",
       "How far the predicted probabilities are from the observed share of positives: over 10 equal-width score "
       "bins, each bin's gap between its mean score and its fraction of positives, weighted by its rows (0 = "
       "calibrated).", "Naeini et al. (2015); Guo et al. (2017); the calibration chart's bins", direction="lower",
       kind="binned", group="Probabilistic", needs="probabilities", params=(), baseline="scores",
       fn=calibration_error.ece, resampled=calibration_error.resampled_ece),
    _b("kl_divergence", "KL divergence", r"\sum_c P(c) \ln \frac{P(c)}{Q(c)}",
       "How far the predicted class mix is from the true class mix (nats; 0 = same mix).", f"{ISO} 6.2.7, 6.3.5",
       direction="lower", rng=_INF, group="Distribution"),
)

# ----------------------------------------------------------------------------------------------------------------
# Multi-class
# ----------------------------------------------------------------------------------------------------------------

_MC = Task.MULTICLASS


def _mc(key, name, latex, meaning, source, *, direction="higher", rng=(0.0, 1.0), kind="other",
        group="Threshold metrics", needs="labels", params=(), baseline="simulated", prop=None, shared=(),
        uniform_baseline=None):
    proportion = None
    if prop is not None:
        num_txt, den_txt, fn = prop
        proportion = Proportion(num_txt, den_txt, fn)
        kind = "proportion"
    return MetricSpec(key, name, _MC, needs, direction, rng, latex, meaning, source, kind, group, params,
                      getattr(multiclass, key), baseline, proportion, shared=shared, uniform_baseline=uniform_baseline)


def _averaged_mc():
    out = []
    texts = {
        "precision": ("Precision", "Of the rows called class c, the share that truly are", r"\frac{T_{P,c}}{T_{P,c}+F_{P,c}}"),
        "recall": ("Recall", "Of the rows of class c, the share found", r"\frac{T_{P,c}}{T_{P,c}+F_{N,c}}"),
        "f1": ("F1", "Balance of precision and recall of class c", r"\frac{2T_{P,c}}{2T_{P,c}+F_{P,c}+F_{N,c}}"),
        "fbeta": ("F-beta", "Precision–recall balance of class c with recall beta times as important",
                  r"\frac{(1+\beta^2)T_{P,c}}{(1+\beta^2)T_{P,c}+\beta^2F_{N,c}+F_{P,c}}"),
    }
    for base, (title, what, per) in texts.items():
        params = ("beta",) if base == "fbeta" else ()
        out.append(_mc(f"{base}_macro", f"{title} (macro)", r"\frac{1}{k}\sum_c " + per,
                       f"{what}, averaged over classes with equal weight.", f"{ISO} 6.4.3; {NOTES} eq. 12, 15",
                       params=params, baseline="expected" if base in ("precision", "recall") else "simulated"))
        out.append(_mc(f"{base}_micro", f"{title} (micro)", r"\frac{\sum_c T_{P,c}}{n} = \mathrm{OA}",
                       "Counts pooled over classes; for single-label data this equals accuracy.",
                       f"{ISO} 6.4.3; {NOTES} eq. 11, 14", params=params, baseline="expected",
                       prop=("correct rows", "all rows", _mc_correct)))
        out.append(_mc(f"{base}_weighted", f"{title} (weighted)", r"\sum_c \frac{t_c}{n}\," + per,
                       f"{what}, averaged over classes weighted by their number of rows.",
                       f"{ISO} 6.4.3; {NOTES} eq. 16", params=params,
                       baseline="expected" if base in ("precision", "recall") else "simulated"))
    return tuple(out)


MULTICLASS = (
    _mc("accuracy", "Accuracy", r"\mathrm{OA} = \frac{1}{n}\sum_c C_{cc}", "Share of rows given the right class.",
        f"{ISO} 6.4.2; {NOTES} eq. 6", baseline="expected", prop=("correct rows", "all rows", _mc_correct)),
    _mc("error_rate", "Error rate", r"1 - \mathrm{OA}", "Share of rows given a wrong class.",
        f"{IOCCHI}; {ISO} 6.4.2", direction="lower", baseline="expected",
        prop=("wrong rows", "all rows", _mc_wrong)),
    _mc("balanced_accuracy", "Balanced accuracy", r"\frac{1}{k}\sum_c \frac{C_{cc}}{t_c}",
        "Average over classes of the share of each class found (mean per-class accuracy).",
        f"{NOTES} eq. 7; {QAHTAN}", baseline="expected"),
) + _averaged_mc() + (
    _mc("cohen_kappa", "Cohen's kappa", r"\kappa = \frac{p_o - p_e}{1 - p_e},\ p_e = \sum_c t_c p_c / n^2",
        "Agreement with the truth beyond what chance alone would give.", "Cohen (1960); scikit-learn",
        rng=(-1.0, 1.0), group="Agreement"),
    _mc("mcc", "Matthews correlation", r"\frac{n\sum_c C_{cc} - \sum_c t_c p_c}{\sqrt{(n^2 - \sum_c p_c^2)(n^2 - \sum_c t_c^2)}}",
        "Correlation between true and predicted classes (Gorodkin's R_K), -1 to 1.",
        "Gorodkin (2004); scikit-learn matthews_corrcoef", rng=(-1.0, 1.0), group="Agreement"),
    _mc("top_k_accuracy", "Top-k accuracy", r"\frac{1}{n}\sum_i [\mathrm{rank}_i(y_i) < k]",
        "Share of rows whose true class is among the k highest-scored classes.", f"{SKL}.top_k_accuracy_score",
        group="Ranking", needs="scores", params=("k",), baseline="scores",
        prop=("rows with the true class in the top k", "all rows", _mc_topk), uniform_baseline=_uniform_top_k),
    _mc("roc_auc_ovr", "ROC AUC (one-vs-rest, macro)", r"\frac{1}{k}\sum_c \mathrm{AUC}(c \text{ vs rest})",
        "Average over classes of how well the class's score separates it from the others.",
        f"{ISO} 6.4; {NOTES} §4.3.1", kind="auc", group="Ranking", needs="scores", baseline="scores",
        shared=("one_vs_rest",)),
    _mc("roc_auc_ovr_weighted", "ROC AUC (one-vs-rest, weighted)", r"\sum_c \frac{t_c}{n}\mathrm{AUC}(c \text{ vs rest})",
        "One-vs-rest AUC averaged with class sizes as weights.", f"{ISO} 6.4; {SKL}.roc_auc_score",
        kind="auc", group="Ranking", needs="scores", baseline="scores", shared=("one_vs_rest",)),
    _mc("roc_auc_ovo", "ROC AUC (one-vs-one)", r"\frac{2}{k(k-1)}\sum_{a<b}\frac{A(a|b) + A(b|a)}{2}",
        "Average over pairs of classes of how well the scores tell the two apart (Hand & Till).",
        "Hand & Till (2001); scikit-learn roc_auc_score(multi_class='ovo')", kind="auc", group="Ranking", needs="scores",
        baseline="scores", shared=("one_vs_one",)),
    _mc("log_loss", "Log loss", r"-\frac{1}{n}\sum_i \ln p_{i,y_i}",
        "Penalty for confident wrong probabilities (0 is perfect).", f"{SKL}.log_loss", direction="lower",
        rng=_INF, kind="row_mean", group="Probabilistic", needs="probabilities", baseline="scores"),
    _mc("brier_score", "Brier score", r"\frac{1}{n}\sum_i \sum_c (p_{ic} - [y_i = c])^2",
        "Mean squared gap between the probability vector and the one-hot truth (0 to 2, not divided by k).",
        "Brier (1950); scikit-learn brier_score_loss (multi-class)", direction="lower", rng=(0.0, 2.0),
        kind="row_mean", group="Probabilistic", needs="probabilities", baseline="scores"),
    _mc("kl_divergence", "KL divergence", r"\sum_c P(c)\ln\frac{P(c)}{Q(c)}",
        "How far the predicted class mix is from the true class mix (nats; 0 = same mix).",
        f"{ISO} 6.2.7, 6.4.4", direction="lower", rng=_INF, group="Distribution"),
    _mc("js_distance", "Jensen–Shannon distance", r"\sqrt{\tfrac12 D(P\|M) + \tfrac12 D(Q\|M)}",
        "Symmetric, always finite distance between the true and predicted class mixes (0 = same).",
        f"{ISO} 6.4.4; scipy.spatial.distance.jensenshannon", direction="lower",
        rng=(0.0, float(np.sqrt(np.log(2)))), group="Distribution"),
    _mc("total_variation", "Total variation distance", r"\tfrac12 \sum_c |P(c) - Q(c)|",
        "Share of rows that would have to change class for the predicted mix to match the true one.",
        f"{ISO} 6.4.4", direction="lower", group="Distribution"),
    _mc("csmf_accuracy", "CSMF accuracy", r"1 - \frac{\sum_c |P(c) - Q(c)|}{2(1 - \min_c P(c))}",
        "How well the predicted class fractions match the true fractions (1 = exactly).",
        f"{ISO} Annex D; Murray et al. (2011)", group="Distribution"),
    _mc("cccsmf_accuracy", "Chance-corrected CSMF accuracy", r"\frac{\mathrm{CSMF_{acc}} - (1 - e^{-1})}{e^{-1}}",
        "CSMF accuracy rescaled so 0 is random allocation and 1 is perfect.",
        f"{ISO} Annex D; Flaxman et al. (2015)", rng=(1 - float(np.e), 1.0), group="Distribution"),
)

# ----------------------------------------------------------------------------------------------------------------
# Multi-label
# ----------------------------------------------------------------------------------------------------------------

_ML = Task.MULTILABEL


def _ml(key, name, latex, meaning, source, *, direction="higher", rng=(0.0, 1.0), kind="other",
        group="Threshold metrics", needs="labels", params=_T, baseline="simulated", prop=None):
    proportion = None
    if prop is not None:
        proportion = Proportion(*prop)
        kind = "proportion"
    return MetricSpec(key, name, _ML, needs, direction, rng, latex, meaning, source, kind, group, params,
                      getattr(multilabel, key), baseline, proportion)


def _averaged_ml():
    out = []
    per = {
        "precision": ("Precision", r"\frac{T_{P,l}}{T_{P,l}+F_{P,l}}", r"\frac{|Y_i \cap \hat Y_i|}{|\hat Y_i|}",
                      "of the labels predicted, the share that are true"),
        "recall": ("Recall", r"\frac{T_{P,l}}{T_{P,l}+F_{N,l}}", r"\frac{|Y_i \cap \hat Y_i|}{|Y_i|}",
                   "of the true labels, the share predicted"),
        "f1": ("F1", r"\frac{2T_{P,l}}{2T_{P,l}+F_{P,l}+F_{N,l}}", r"\frac{2|Y_i \cap \hat Y_i|}{|Y_i| + |\hat Y_i|}",
               "balance of precision and recall"),
        "jaccard": ("Jaccard", r"\frac{T_{P,l}}{T_{P,l}+F_{P,l}+F_{N,l}}", r"\frac{|Y_i \cap \hat Y_i|}{|Y_i \cup \hat Y_i|}",
                    "overlap of predicted and true label sets"),
    }
    for base, (title, lab, row, what) in per.items():
        src = f"{ISO} 6.5.4" if base == "jaccard" else f"{ISO} 6.4.3, 6.5"
        exp = "expected" if base == "recall" else "simulated"
        out.append(_ml(f"{base}_micro", f"{title} (micro)", r"\text{pooled over labels: }" + lab,
                       f"{what.capitalize()}, counts pooled over all labels.", src, baseline=exp))
        out.append(_ml(f"{base}_macro", f"{title} (macro)", r"\frac{1}{L}\sum_l " + lab,
                       f"{what.capitalize()}, per label, averaged with equal weight.", src, baseline=exp))
        out.append(_ml(f"{base}_weighted", f"{title} (weighted)", r"\sum_l \frac{t_l}{\sum t} " + lab,
                       f"{what.capitalize()}, per label, averaged by label frequency.", src, baseline=exp))
        out.append(_ml(f"{base}_samples", f"{title} (samples)", r"\frac{1}{n}\sum_i " + row,
                       f"{what.capitalize()}, per row, averaged over rows.", src))
    return tuple(out)


MULTILABEL = (
    _ml("hamming_loss", "Hamming loss", r"\frac{1}{nL}\sum_i |Y_i \,\triangle\, \hat Y_i|",
        "Share of individual label decisions that are wrong.", f"{ISO} 6.5.2", direction="lower",
        baseline="expected"),
    _ml("exact_match_ratio", "Exact match ratio", r"\frac{1}{n}\sum_i [Y_i = \hat Y_i]",
        "Share of rows whose whole label set is exactly right.", f"{ISO} 6.5.3",
        prop=("rows with every label right", "all rows", _ml_exact)),
) + _averaged_ml() + (
    _ml("label_cardinality", "Label cardinality", r"\frac{1}{n}\sum_i |Y_i|", "Average number of true labels per row.",
        f"{ISO} 6.5.1", direction="none", rng=_INF, group="Counts", params=(), baseline="expected"),
    _ml("label_density", "Label density", r"\frac{1}{nL}\sum_i |Y_i|",
        "Average share of the labels that are true per row.", f"{ISO} 6.5.1", direction="none", group="Counts",
        params=(), baseline="expected"),
    _ml("coverage_error", "Coverage error", r"\frac{1}{n}\sum_i \max_{l \in Y_i} \mathrm{rank}_i(l)",
        "How far down each row's score ranking one must go to cover all its true labels.",
        f"{SKL}.coverage_error", direction="lower", rng=_INF, group="Ranking", needs="scores", params=(),
        baseline="scores"),
    _ml("label_ranking_average_precision", "Label ranking average precision",
        r"\frac{1}{n}\sum_i \frac{1}{|Y_i|}\sum_{l \in Y_i}\frac{|\{m \in Y_i: s_m \ge s_l\}|}{|\{m: s_m \ge s_l\}|}",
        "For each true label, the share of labels ranked at or above it that are true, averaged.",
        f"{SKL}.label_ranking_average_precision_score", group="Ranking", needs="scores", params=(),
        baseline="scores"),
    _ml("label_ranking_loss", "Label ranking loss", r"\frac{1}{n}\sum_i \frac{|\{(r,f): s_f \ge s_r\}|}{|Y_i|(L-|Y_i|)}",
        "Share of (true, false) label pairs that the scores order the wrong way.", f"{SKL}.label_ranking_loss",
        direction="lower", group="Ranking", needs="scores", params=(), baseline="scores"),
    _ml("kl_divergence", "KL divergence", r"\sum_l P(l)\ln\frac{P(l)}{Q(l)}",
        "How far the mix of predicted labels is from the mix of true labels (nats).", f"{ISO} 6.2.7, 6.5.5",
        direction="lower", rng=_INF, group="Distribution"),
)

# ----------------------------------------------------------------------------------------------------------------
# Regression and forecast (pooled over the rows: the regression set on the one-step-ahead errors)
# ----------------------------------------------------------------------------------------------------------------

REF001 = "Qahtan (reference 001), Table 1"
REF002 = "Iocchi (reference 002), performance metrics for regression"
REF003 = "Evaluation Metrics (reference 003)"
_REAL = (float("-inf"), float("inf"))


#: How each regression metric's uncertainty is computed (``MetricSpec.kind``): means of per-row values and their
#: square roots or totals (``"row_mean"``, Student t), R² and explained variance (``"delta"``, the delta method),
#: the median absolute error (``"median"``, order statistics) and the maximum error (``"maximum"``: no interval —
#: the bootstrap of a maximum cannot cover). Forecasts read the same entries but resample blocks of rows in time.
REGRESSION_KINDS = {"mae": "row_mean", "mse": "row_mean", "rmse": "row_mean", "sse": "row_mean",
                    "mean_error": "row_mean", "mape": "row_mean", "smape": "row_mean", "mspe": "row_mean",
                    "rmspe": "row_mean", "r2": "delta", "explained_variance": "delta",
                    "median_absolute_error": "median", "max_error": "maximum"}


def _regression(task: Task) -> tuple[MetricSpec, ...]:
    r"""The 13 SPEC regression metrics of ``task`` (regression, or a forecast pooled over its rows). Residual
    :math:`e_i = \hat y_i - y_i`; sums weighted by :math:`w_i` when weights are given (:math:`W = \sum w_i`);
    ``shared`` names the parts of :class:`~assess.metrics.regression.RegressionState` each reads."""

    def r(key, name, latex, meaning, source, group, shared, *, direction="lower", rng=_INF):
        return MetricSpec(key, name, task, "values", direction, rng, latex, meaning, source, REGRESSION_KINDS[key],
                          group, (), getattr(regression, key),
                          baseline="forecasts" if task is Task.FORECAST else "constant", shared=shared)

    return (
        r("mae", "Mean absolute error", r"\frac{1}{W}\sum_i w_i |\hat y_i - y_i|",
          "Average size of an error, in the units of y_true.", f"{REF001}; {REF002}; {REF003}", "Errors", ("abs",)),
        r("mse", "Mean squared error", r"\frac{1}{W}\sum_i w_i (\hat y_i - y_i)^2",
          "Average squared error, in squared units of y_true; large errors weigh more.",
          f"{REF001}; {REF002}; {REF003}", "Errors", ("sq",)),
        r("rmse", "Root mean squared error", r"\sqrt{\mathrm{MSE}}",
          "Typical error size in the units of y_true, large errors weighing more than in the MAE.",
          f"{REF002}; {REF003}", "Errors", ("sq",)),
        r("sse", "Sum of squared errors", r"\sum_i w_i (\hat y_i - y_i)^2",
          "Total squared error over the rows (grows with the number of rows).", REF001, "Errors", ("sq",)),
        r("max_error", "Maximum error (l∞)", r"l_\infty = \max_{i: w_i > 0} |\hat y_i - y_i|",
          "The worst single error, in the units of y_true (rows of zero weight left out).",
          f"{QAHTAN}, l∞; {SKL}.max_error", "Errors", ("max",)),
        r("median_absolute_error", "Median absolute error", r"\operatorname{median}_w |\hat y_i - y_i|",
          "Half the errors are smaller than this, in the units of y_true; not moved by a few outliers. Weighted: "
          "the 50% quantile by the averaged inverted CDF (numpy.median without weights; scikit-learn's "
          "median_absolute_error with sample_weight).", f"{REF003}, MedAE; {SKL}.median_absolute_error", "Errors",
          ("median",)),
        r("mean_error", "Mean error (bias)", r"\frac{1}{W}\sum_i w_i (\hat y_i - y_i)",
          "Average of prediction minus truth: positive when the model over-predicts, negative when it "
          "under-predicts, 0 when unbiased.", f"{REF003} (e_t(1) with the sign reversed)", "Errors", ("error",),
          direction="none", rng=_REAL),
        r("mape", "Mean absolute percentage error", r"\frac{1}{W}\sum_i w_i \left|\frac{\hat y_i - y_i}{y_i}\right|",
          "Average error relative to the true value, as a fraction (0.12 = 12%); undefined when some y_true is 0.",
          f"{REF002}; {REF003} (×100)", "Relative errors", ("abs_rel",)),
        r("smape", "Symmetric MAPE", r"\frac{1}{W}\sum_i w_i \frac{2|\hat y_i - y_i|}{|y_i| + |\hat y_i|}",
          "Error relative to the mean of the true and predicted sizes, as a fraction from 0 to 2 (rows with "
          "y_true = y_pred = 0 count 0, an exact prediction).", f"{REF003}, SMAPE (×100)", "Relative errors",
          ("smape",), rng=(0.0, 2.0)),
        r("mspe", "Mean squared percentage error", r"\frac{1}{W}\sum_i w_i \left(\frac{\hat y_i - y_i}{y_i}\right)^2",
          "Average squared relative error (a squared fraction); undefined when some y_true is 0.", REF002,
          "Relative errors", ("sq_rel",)),
        r("rmspe", "Root mean squared percentage error", r"\sqrt{\mathrm{MSPE}}",
          "Typical relative error as a fraction, large ones weighing more; undefined when some y_true is 0.",
          REF002, "Relative errors", ("sq_rel",)),
        r("r2", "R² (coefficient of determination)",
          r"R^2 = 1 - \frac{\sum_i w_i (\hat y_i - y_i)^2}{\sum_i w_i (y_i - \bar y)^2}",
          "Share of the variance of y_true the model explains; 0 is the mean predictor, 1 is perfect, negative is "
          "worse than predicting the mean (it is the skill score 1 − MSE/MSE of the mean). Undefined for a "
          "constant y_true (scikit-learn's force_finite gives 1.0 or 0.0 there).",
          f"{QAHTAN}, eq. (1)–(2); {REF002}; {SKL}.r2_score", "Fit", ("sq", "true_var"), direction="higher",
          rng=(float("-inf"), 1.0)),
        r("explained_variance", "Explained variance", r"1 - \frac{\mathrm{Var}_w(\hat y - y)}{\mathrm{Var}_w(y)}",
          "Like R² but ignoring a constant bias: share of the variance of y_true left unexplained by the errors' "
          "spread. Undefined for a constant y_true (scikit-learn's force_finite gives 1.0 or 0.0 there).",
          f"{REF003}; {SKL}.explained_variance_score", "Fit", ("error_var", "true_var"), direction="higher",
          rng=(float("-inf"), 1.0)),
    )


HK = "Hyndman & Koehler (2006), IJF 22(4); Hyndman & Athanasopoulos, FPP3"


def _forecast_only() -> tuple[MetricSpec, ...]:
    r"""Forecast-only entries (:mod:`assess.metrics.forecast_state`): MASE against the naive and the seasonal naive
    forecast (scale from the file's actuals per series, the same for every model), and the prediction-interval
    scores, which appear only when the file has ``lower``/``upper`` (``needs="intervals"``)."""

    def f(key, name, latex, meaning, source, group, shared, *, needs="values", params=(), direction="lower"):
        return MetricSpec(key, name, Task.FORECAST, needs, direction, _INF, latex, meaning, source, "other", group,
                          params, getattr(forecast_state, key), baseline="forecasts", shared=shared)

    return (
        f("mase", "MASE (vs naive)", r"\frac1W\sum_i w_i \frac{|\hat y_i - y_i|}{\operatorname{mean}_t |y_t - y_{t-1}|}",
          "Errors as a multiple of the naive forecast's one-step error on the same series: below 1 is better than "
          "repeating the last value.", f"{HK} §5.8", "Scaled errors", ("scaled",)),
        f("mase_seasonal", "MASE (vs seasonal naive)",
          r"\frac1W\sum_i w_i \frac{|\hat y_i - y_i|}{\operatorname{mean}_t |y_t - y_{t-m}|}",
          "Errors as a multiple of the seasonal naive forecast's error (the value one season earlier); m from the "
          "time stamps (monthly 12, quarterly 4, …) or given.", f"{HK} §5.8", "Scaled errors", ("scaled_seasonal",),
          params=("season",)),
        f("coverage", "Interval coverage", r"\frac1W\sum_i w_i [l_i \le y_i \le u_i]",
          "Share of true values inside the prediction interval; compare with its nominal level (0.9 for a 90% "
          "interval).", "Hyndman & Athanasopoulos, FPP3 §5.5", "Prediction intervals", ("interval",),
          needs="intervals", direction="none"),
        f("interval_width", "Mean interval width", r"\frac1W\sum_i w_i (u_i - l_i)",
          "Average width of the prediction interval, in the units of y_true: narrower is sharper, if coverage holds.",
          "Hyndman & Athanasopoulos, FPP3 §5.5", "Prediction intervals", ("interval",), needs="intervals"),
        f("winkler_score", "Winkler score",
          r"\frac1W\sum_i w_i \left[(u_i - l_i) + \tfrac2\alpha (l_i - y_i)_+ + \tfrac2\alpha (y_i - u_i)_+\right]",
          "Interval width plus a penalty of 2/α times how far a true value falls outside: rewards narrow intervals "
          "that still cover.", "Winkler (1972); FPP3 §5.9; Gneiting & Raftery (2007) eq. 43", "Prediction intervals",
          ("interval", "winkler"), needs="intervals", params=("level",)),
        f("pinball_loss", "Pinball loss of the bounds",
          r"\frac1W\sum_i w_i \tfrac12\left[L_{\alpha/2}(y_i, l_i) + L_{1-\alpha/2}(y_i, u_i)\right]",
          "The interval's bounds scored as the α/2 and 1 − α/2 quantile forecasts (quantile loss), in the units "
          "of y_true; α/4 times the Winkler score.", "Koenker & Bassett (1978); FPP3 §5.9", "Prediction intervals",
          ("interval", "winkler"), needs="intervals", params=("level",)),
        f("skill_naive", "Skill vs naive", r"1 - \frac{\mathrm{MSE}}{\mathrm{MSE}_\text{naive}}",
          "Share of the naive forecast's squared error the model removes (on the rows where the naive forecast "
          "exists): 0 is no better than repeating the last value, 1 is perfect.", f"{HK} §5.2, §5.8 (skill scores)",
          "Scaled errors", ("skill",), direction="higher"),
        f("skill_seasonal_naive", "Skill vs seasonal naive",
          r"1 - \frac{\mathrm{MSE}}{\mathrm{MSE}_\text{seasonal naive}}",
          "Share of the seasonal naive forecast's squared error the model removes (value one season earlier).",
          f"{HK} §5.2, §5.8 (skill scores)", "Scaled errors", ("skill",), direction="higher", params=("season",)),
        f("skill_drift", "Skill vs drift", r"1 - \frac{\mathrm{MSE}}{\mathrm{MSE}_\text{drift}}",
          "Share of the drift forecast's squared error the model removes (the last value plus the average change).",
          f"{HK} §5.2, §5.8 (skill scores)", "Scaled errors", ("skill",), direction="higher"),
    )


# ----------------------------------------------------------------------------------------------------------------
# Clustering (assess.metrics.clustering): external indices from one contingency table, internal from features x_*
# ----------------------------------------------------------------------------------------------------------------

VINH = "Vinh, Epps & Bailey (2010), JMLR 11"
ROSENBERG = "Rosenberg & Hirschberg (2007), V-measure"


def _clustering() -> tuple[MetricSpec, ...]:
    """External indices (``needs="reference"``: they compare the clusters with the reference classes ``y_true``) and
    internal ones (``needs="features"``); both stay in every report, null with a reason when the file lacks what
    they need. Baselines: a random partition with the same cluster sizes (``baseline="random"``)."""

    def c(key, name, latex, meaning, source, group, *, needs="reference", direction="higher", rng=(0.0, 1.0)):
        return MetricSpec(key, name, Task.CLUSTERING, needs, direction, rng, latex, meaning, source, "other", group,
                          (), getattr(clustering, key), baseline="random" if needs == "reference" else "none")

    return (
        c("adjusted_rand_index", "Adjusted Rand index",
          r"\frac{\sum_{ij}\binom{n_{ij}}{2} - E}{\tfrac12[\sum_i\binom{a_i}{2} + \sum_j\binom{b_j}{2}] - E},\ "
          r"E = \frac{\sum_i\binom{a_i}{2}\sum_j\binom{b_j}{2}}{\binom n2}",
          "Agreement of clusters and reference classes over all pairs of rows, corrected for chance: 0 is a random "
          "partition of the same sizes, 1 is perfect.", f"{QAHTAN}, ARI; Hubert & Arabie (1985); {SKL}."
          "adjusted_rand_score", "Pair counting", rng=(-0.5, 1.0)),
        c("rand_index", "Rand index", r"\frac{\gamma_1 + \gamma_4}{\gamma_1 + \gamma_2 + \gamma_3 + \gamma_4}",
          "Share of pairs of rows on which clusters and classes agree (together in both, or apart in both); a "
          "random partition scores well above 0 — see its baseline.", f"{QAHTAN}, RI; Rand (1971); {SKL}.rand_score",
          "Pair counting"),
        c("fowlkes_mallows", "Fowlkes–Mallows index", r"\frac{T_P}{\sqrt{(T_P + F_P)(T_P + F_N)}}",
          "Geometric mean of pair precision and pair recall: of the pairs put together, the share of one class, "
          "and of the pairs of one class, the share put together.", f"Fowlkes & Mallows (1983); {SKL}."
          "fowlkes_mallows_score", "Pair counting"),
        c("purity", "Purity", r"\frac1n\sum_j \max_i n_{ij}",
          "Each cluster named after its majority class: the share of rows of that class. Rises with the number of "
          "clusters (all singletons score 1).", f"{QAHTAN}, purity", "Matching"),
        c("inverse_purity", "Inverse purity", r"\frac1n\sum_i \max_j n_{ij}",
          "Each class matched with the cluster holding most of it: the share of rows in that cluster. Rises as "
          "clusters merge (one cluster scores 1).", "Amigó et al. (2009), Inf. Retrieval 12", "Matching"),
        c("homogeneity", "Homogeneity", r"h = \frac{I(C;K)}{H(C)} = 1 - \frac{H(C|K)}{H(C)}",
          "How far each cluster holds rows of a single class (1: every cluster is pure).",
          f"{QAHTAN}; {ROSENBERG}; {SKL}.homogeneity_score", "Information"),
        c("completeness", "Completeness", r"c = \frac{I(C;K)}{H(K)} = 1 - \frac{H(K|C)}{H(K)}",
          "How far the rows of each class sit in a single cluster (1: no class is split).",
          f"{QAHTAN}; {ROSENBERG}; {SKL}.completeness_score", "Information"),
        c("v_measure", "V-measure", r"\frac{2hc}{h + c}", "Harmonic mean of homogeneity and completeness.",
          f"{QAHTAN}; {ROSENBERG}; {SKL}.v_measure_score", "Information"),
        c("normalized_mutual_info", "Normalized mutual information", r"\frac{I(C;K)}{\tfrac12[H(C) + H(K)]}",
          "Information the clusters share with the classes, scaled to [0, 1] (equals the V-measure).",
          f"{VINH}; {SKL}.normalized_mutual_info_score", "Information"),
        c("adjusted_mutual_info", "Adjusted mutual information",
          r"\frac{I(C;K) - E[I]}{\tfrac12[H(C) + H(K)] - E[I]}",
          "Mutual information corrected for chance: 0 is a random partition of the same sizes, 1 is perfect.",
          f"{VINH}; {SKL}.adjusted_mutual_info_score", "Information", rng=(-1.0, 1.0)),
        c("silhouette", "Silhouette", r"\frac1n\sum_i \frac{b_i - a_i}{\max(a_i, b_i)}",
          "How much closer each row is to its own cluster than to the nearest other (Euclidean, features x_*): "
          "1 compact and separated, 0 on a border, negative in the wrong cluster.",
          f"{QAHTAN}, Silhouette; Rousseeuw (1987); {SKL}.silhouette_score", "Internal", needs="features",
          rng=(-1.0, 1.0)),
        c("davies_bouldin", "Davies–Bouldin index", r"\frac1K\sum_i \max_{j\ne i}\frac{s_i + s_j}{d(c_i, c_j)}",
          "Average similarity of each cluster with its most similar other cluster (spread over centroid distance); "
          "lower is better, 0 is best.", f"Davies & Bouldin (1979); {SKL}.davies_bouldin_score", "Internal",
          needs="features", direction="lower", rng=_INF),
        c("calinski_harabasz", "Calinski–Harabasz index",
          r"\frac{\sum_k n_k\|c_k - c\|^2 / (K - 1)}{\sum_k\sum_{i \in k}\|x_i - c_k\|^2 / (n - K)}",
          "Spread between clusters over spread within them (variance ratio); higher is better.",
          f"Caliński & Harabasz (1974); {SKL}.calinski_harabasz_score", "Internal", needs="features", rng=_INF),
    )


CLUSTERING = _clustering()
REGRESSION = _regression(Task.REGRESSION)
#: The pooled forecast set is the regression set on the rows (one-step-ahead errors e_t(1), relative errors
#: re_t(1) of reference 003) plus the forecast-only entries.
FORECAST = _regression(Task.FORECAST) + _forecast_only()

#: Every metric of every task with metrics.
REGISTRY: tuple[MetricSpec, ...] = BINARY + MULTICLASS + MULTILABEL + REGRESSION + FORECAST + CLUSTERING

_INDEX = {(m.task, m.key): m for m in REGISTRY}
if len(_INDEX) != len(REGISTRY):
    raise RuntimeError("duplicate (task, key) in the metric registry")


def _task(task) -> Task:
    try:
        t = Task(task)
    except ValueError:
        t = None
    if t not in TASKS:
        raise ValueError(f"`task` must be one of {[t.value for t in TASKS]} (got {task!r})")
    return t


def metrics_for(task, *, group: str | None = None, needs: str | None = None) -> tuple[MetricSpec, ...]:
    """The registry entries of ``task`` in display order, optionally only one UI ``group`` or one ``needs``."""
    t = _task(task)
    if group is not None and group not in GROUPS:
        raise ValueError(f"`group` must be one of {list(GROUPS)} (got {group!r})")
    return tuple(m for m in REGISTRY if m.task == t and (group is None or m.group == group)
                 and (needs is None or m.needs == needs))


def applicable(task, *, has_scores: bool, has_intervals: bool = False) -> tuple[MetricSpec, ...]:
    """The entries of ``task`` a file can answer, in display order: label and value metrics always; score and
    probability metrics only with scores; the forecast interval metrics only with ``lower``/``upper`` columns.
    Clustering keeps every index (one the file cannot give is null with its reason in the report)."""
    t = _task(task)
    return tuple(m for m in metrics_for(t) if t is Task.CLUSTERING or m.needs in ("labels", "values")
                 or (has_scores and m.needs in ("scores", "probabilities"))
                 or (has_intervals and m.needs == "intervals"))


def _first(source):
    """One model's predictions: ``source`` itself, or an Assessment's first model (the columns are the file's)."""
    return source.predictions() if hasattr(source, "predictions") else source


def applicable_to(source) -> tuple[MetricSpec, ...]:
    """:func:`applicable` for a file: an :class:`~assess.inputs.assessment.Assessment` or one model's
    :class:`~assess.core.data.Predictions`."""
    pred = _first(source)
    return applicable(pred.task, has_scores=pred.scores is not None,
                      has_intervals=pred.lower is not None and pred.upper is not None)


def headline(task, *, has_scores: bool) -> str:
    """The one metric every surface leads with for ``task`` (the report's ranking, the default metric of the
    significance tests' bootstrap and of the cost trade-off): the threshold-free ROC AUC for binary scores, else
    accuracy (what McNemar's and Cochran's Q tests compare); the micro F1 over all labels (multi-label); the mean
    absolute error, the loss the paired t and Wilcoxon tests compare (regression, forecasts); the adjusted Rand index
    (clustering: chance-corrected agreement with the reference classes)."""
    t = _task(task)
    if t in (Task.BINARY, Task.MULTICLASS):
        return "roc_auc" if t is Task.BINARY and has_scores else "accuracy"
    return {Task.MULTILABEL: "f1_micro", Task.REGRESSION: "mae", Task.FORECAST: "mae",
            Task.CLUSTERING: "adjusted_rand_index"}[t]


def slice_test_metric(task) -> str | None:
    """The metric the tests across slices use when none is named: the headline metric without scores
    (:func:`headline`), which is a proportion or a mean of per-row losses that χ² and Kruskal–Wallis compare slice
    against rest — except for multi-label files, whose headline micro F1 is neither: their Hamming loss (the mean
    per-row share of wrong labels). None for clustering, which is not sliced."""
    t = _task(task)
    if t is Task.CLUSTERING:
        return None
    return "hamming_loss" if t is Task.MULTILABEL else headline(t, has_scores=False)


def headline_of(source) -> str:
    """:func:`headline` for a file: an Assessment or one model's Predictions."""
    pred = _first(source)
    return headline(pred.task, has_scores=pred.scores is not None)


#: The metrics a Metrics page shows before the user picks (the task's summary at a glance), in registry order.
DEFAULT_SHOWN = {
    Task.BINARY: ("tp", "fp", "tn", "fn", "accuracy", "balanced_accuracy", "precision", "recall", "specificity", "f1",
                  "mcc", "roc_auc", "average_precision", "log_loss", "brier_score"),
    Task.MULTICLASS: ("accuracy", "balanced_accuracy", "precision_macro", "recall_macro", "f1_macro", "f1_weighted",
                      "cohen_kappa", "mcc", "top_k_accuracy", "roc_auc_ovr", "log_loss", "brier_score"),
    Task.MULTILABEL: ("hamming_loss", "exact_match_ratio", "jaccard_samples", "precision_micro", "recall_micro",
                      "f1_micro", "f1_macro", "label_ranking_average_precision"),
    Task.REGRESSION: ("mae", "rmse", "median_absolute_error", "max_error", "mean_error", "mape", "smape", "r2"),
    Task.FORECAST: ("mae", "rmse", "mean_error", "mape", "smape", "mase", "mase_seasonal", "coverage",
                    "winkler_score", "skill_seasonal_naive"),
    # the chance-corrected indices, V-measure and the internal indices
    Task.CLUSTERING: ("adjusted_rand_index", "rand_index", "purity", "inverse_purity", "v_measure",
                      "adjusted_mutual_info", "silhouette", "davies_bouldin", "calinski_harabasz"),
}


def shown_by_default(task) -> tuple[str, ...]:
    """The keys the Metrics page selects before the user picks (each task's summary at a glance)."""
    return DEFAULT_SHOWN[_task(task)]


def keys_for(task) -> tuple[str, ...]:
    """Metric keys of ``task`` in display order."""
    return tuple(m.key for m in metrics_for(task))


def get(task, key: str) -> MetricSpec:
    """The entry for ``key`` of ``task``; otherwise `AssessError` listing the valid keys: a key comes from the user
    (``--metrics``, ``--test-metric``, a settings file, a page), so an unknown one is their input, not our bug."""
    t = _task(task)
    try:
        return _INDEX[(t, key)]
    except KeyError:
        raise AssessError(f"unknown {t.value} metric {shorten(repr(key))}; valid keys: "
                          f"{', '.join(keys_for(t))}") from None


# ----------------------------------------------------------------------------------------------------------------
# Per-class / per-label tables
# ----------------------------------------------------------------------------------------------------------------

TABLES: dict[Task, tuple[TableColumn, ...]] = {
    Task.MULTICLASS: (
        TableColumn("precision", "Precision", "Of the rows called this class, the share that truly are.",
                    "labels", "higher", multiclass.per_class_precision),
        TableColumn("recall", "Recall", "Of the rows of this class, the share found.", "labels", "higher",
                    multiclass.per_class_recall),
        TableColumn("f1", "F1", "Balance of precision and recall for this class.", "labels", "higher",
                    lambda s: multiclass.per_class_fbeta(s, 1.0)),
        TableColumn("specificity", "Specificity", "Of the rows of other classes, the share not called this class.",
                    "labels", "higher", multiclass.per_class_specificity),
        TableColumn("support", "Support", "Rows of this class (total weight when weighted).", "labels", "none",
                    lambda s: s.support),
        TableColumn("roc_auc", "ROC AUC (vs rest)", "How well this class's score separates it from the others.",
                    "scores", "higher", multiclass.per_class_roc_auc),
        TableColumn("average_precision", "Average precision (vs rest)",
                    "Precision averaged over recall levels for this class against the rest.", "scores", "higher",
                    multiclass.per_class_average_precision),
    ),
    Task.MULTILABEL: (
        TableColumn("precision", "Precision", "Of the rows given this label, the share that truly have it.",
                    "labels", "higher", multilabel.per_label_precision),
        TableColumn("recall", "Recall", "Of the rows that have this label, the share given it.", "labels", "higher",
                    multilabel.per_label_recall),
        TableColumn("f1", "F1", "Balance of precision and recall for this label.", "labels", "higher",
                    lambda s: multilabel.per_label_fbeta(s, 1.0)),
        TableColumn("specificity", "Specificity", "Of the rows without this label, the share not given it.",
                    "labels", "higher", multilabel.per_label_specificity),
        TableColumn("jaccard", "Jaccard", "Overlap of rows predicted and rows true for this label.", "labels",
                    "higher", multilabel.per_label_jaccard),
        TableColumn("support", "Support", "Rows with this label (total weight when weighted).", "labels", "none",
                    multilabel.per_label_support),
        TableColumn("roc_auc", "ROC AUC", "How well this label's score separates rows with it from rows without.",
                    "scores", "higher", multilabel.per_label_roc_auc),
        TableColumn("average_precision", "Average precision",
                    "Precision averaged over recall levels for this label.", "scores", "higher",
                    multilabel.per_label_average_precision),
    ),
}


def table_for(task) -> tuple[TableColumn, ...]:
    """Columns of the per-class (multi-class) or per-label (multi-label) table; empty for binary."""
    return TABLES.get(_task(task), ())
