"""One :class:`TestSpec` per significance test: every fact about a test, in one place.

The CLI builds ``--test`` and its option flags from :data:`TESTS` (:func:`cli_options` merges options of the same
name across tests), the Compare page builds one widget per :class:`Option`, :func:`assess.stats.compare` validates
options and dispatches through :attr:`TestSpec.runner`, and :func:`assess.stats.suggest_tests` reads each test's
design and kind. Adding a test is one function, one runner and one entry here (and its oracle test); it then
reaches the CLI, the page and ``--test all`` (``tests/stats/test_registry.py`` walks the registry to prove it).

Designs (ISO/IEC TS 4213:2022 clause 7): *paired* tests compare models scored on the same samples (or folds) and
use the pairing; *independent* tests compare models scored on different samples. An independent-sample test run on
paired data still runs, but states that its independence assumption is not met and names the paired test to use
(:func:`assess.stats.compare`); a paired test refuses independent data.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from assess.core.data import Task
from assess.core.errors import AssessError
from assess.stats import runners
from assess.stats._result import INDEPENDENT, PAIRED
from assess.stats.clusterings import PermutationDetails, better_than_random_runner
from assess.stats.counts import (CochranDetails, ContingencyDetails, FisherDetails, McNemarDetails,
                                 MCNEMAR_METHODS)
from assess.stats.multilabel import PerLabelMcNemarDetails, run_mcnemar_per_label
from assess.stats.folds import (AnovaDetails, CorrectedTDetails, CV5x2Details, FriedmanDetails, KruskalDetails,
                                PairedTDetails, WilcoxonDetails)
from assess.stats.scores import (MANN_WHITNEY_METHODS, BootstrapDetails, DeLongDetails, DieboldMarianoDetails,
                                 MannWhitneyDetails, UnpairedBootstrapDetails, UnpairedDeLongDetails, WelchDetails)
from assess.stats.shaping import LOSSES
from assess.core.defaults import DEFAULT_RESAMPLES

PREDICTIONS, FOLDS = "predictions", "folds"
PAIRWISE, OMNIBUS = "pairwise", "omnibus"
_KINDS = {str: "choice", bool: "on/off", int: "whole number", float: "number"}


@dataclass(frozen=True)
class Option:
    """A typed option of a test: a keyword of :func:`assess.stats.compare`, a CLI flag and a page widget.

    ``kind`` is ``str`` (one of ``choices``), ``bool``, ``int`` or ``float``; ``default`` None means "decided by the
    data" (``help`` says how). ``minimum``/``maximum`` bound numbers (inclusive). ``flag`` overrides the CLI flag
    (default ``--`` + the name with dashes). ``shown_if`` = (other option, values): the page shows this option
    only while the other one has one of those values. ``data``: the data it applies to.
    """

    name: str
    kind: type
    default: Any
    label: str
    help: str
    choices: tuple = ()
    minimum: float | None = None
    maximum: float | None = None
    flag: str | None = None
    shown_if: tuple[str, tuple] | None = None
    data: tuple[str, ...] = (PREDICTIONS, FOLDS)

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise TypeError(f"option `{self.name}`: kind must be str, bool, int or float (got {self.kind!r})")
        if (self.kind is str) != bool(self.choices):
            raise TypeError(f"option `{self.name}`: choices go with kind str, and only with it")

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    def check(self, value: Any, test: str) -> Any:
        """The value as the test takes it, or AssessError naming the option, the test and the value."""
        if value is None and self.default is None:
            return None
        where = f"option `{self.name}` of test `{test}`"
        if self.kind is str:
            if value not in self.choices:
                raise AssessError(f"{where} must be one of {', '.join(repr(c) for c in self.choices)} "
                                  f"(got {value!r})")
            return value
        if self.kind is bool:
            if not isinstance(value, (bool, np.bool_)):
                raise AssessError(f"{where} must be True or False (got {value!r})")
            return bool(value)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            raise AssessError(f"{where} must be a finite number (got {value!r})")
        if self.kind is int:
            if int(value) != value:
                raise AssessError(f"{where} must be a whole number (got {value!r})")
            value = int(value)
        else:
            value = float(value)
        if self.minimum is not None and value < self.minimum:
            raise AssessError(f"{where} must be ≥ {self.minimum:g} (got {value!r})")
        if self.maximum is not None and value > self.maximum:
            raise AssessError(f"{where} must be ≤ {self.maximum:g} (got {value!r})")
        return value


@dataclass(frozen=True)
class TestSpec:
    """Everything about one test.

    ``key``: the name ``compare(test=...)`` and ``--test`` take; ``title``: for people; ``doc``: one line on what it
    tests; ``reference``: where it comes from. ``design``: :data:`PAIRED` or :data:`INDEPENDENT` samples.
    ``kind``: :data:`PAIRWISE` (two models at a time, corrected over pairs) or :data:`OMNIBUS` (all models at
    once, with post-hoc pairs). ``data``: what it runs on — :data:`PREDICTIONS` (per-sample predictions) and/or
    :data:`FOLDS` (a tidy table of per-fold scores; tests that only take folds also run on predictions with a
    ``fold`` column, scoring the metric per fold). ``needs``: what of the predictions it uses — ``"labels"``,
    ``"scores"``, ``"a metric"``, ``"losses"``, ``"forecasts"`` or ``"fold scores"``. ``metric_on``: the data on
    which ``metric`` applies (a registry key or callable on predictions; a column on a fold table). ``options``:
    its typed options. ``details``: the dataclass in ``TestResult.details`` of its overall (or single) results.
    ``runner``: the function in :mod:`assess.stats.runners` that runs it over k models. ``per_sample``: on numeric
    predictions (regression, forecasts) it compares the models' per-sample errors (option ``loss``) instead of a
    metric per fold, which it still does on classification predictions with folds (:meth:`compares_errors`).
    ``weighted``: it takes the rows' sample weights (the bootstraps: each resample's counts times the weights).
    """

    __test__ = False  # not a pytest test class despite the name

    key: str
    title: str
    doc: str
    reference: str
    design: str
    kind: str
    data: tuple[str, ...]
    needs: str
    options: tuple[Option, ...]
    details: type
    runner: Callable
    metric_on: tuple[str, ...] = ()
    per_sample: bool = False
    weighted: bool = False      # takes the rows' sample weights; every other test counts each row once

    def compares_errors(self, task) -> bool:
        """Whether, on predictions of ``task``, the test compares per-sample errors rather than a metric per fold."""
        return self.per_sample and task is not None and not Task(task).is_classification

    def takes_metric(self, data: str, task=None) -> bool:
        """Whether ``metric`` applies when the test runs on ``data`` (:data:`PREDICTIONS` or :data:`FOLDS`) of
        ``task``: what the page and ``--test all`` pass it to."""
        return data in self.metric_on and not (data == PREDICTIONS and self.compares_errors(task))

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    @property
    def uses_decision(self) -> bool:
        """Whether, on predictions, it counts labels decided by :mod:`assess.core.decision` (correctness, 0/1 losses, label
        metrics, per-fold label metrics) — and so takes ``compare(decision=...)``."""
        return self.needs in ("labels", "a metric", "losses", "fold scores")

    def options_for(self, data: str, task=None) -> tuple[Option, ...]:
        """The options that apply when the test runs on ``data`` (:data:`PREDICTIONS` or :data:`FOLDS`) of
        ``task`` (when known: the per-sample error of a ``per_sample`` test applies to numeric predictions only)."""
        drop = {"loss"} if (self.per_sample and data == PREDICTIONS and task is not None
                            and not self.compares_errors(task)) else set()
        return tuple(o for o in self.options if data in o.data and o.name not in drop)


# ------------------------------------------------------------------------------------------------------- options

MCNEMAR_METHOD = Option("method", str, "exact", "McNemar method",
                        "exact: binomial test on the discordant pairs (valid for any count); midp: mid-p binomial, "
                        "closer to the nominal size; asymptotic: chi-squared, needs about 25 discordant pairs",
                        choices=MCNEMAR_METHODS)
MCNEMAR_CONTINUITY = Option("continuity", bool, True, "Continuity correction",
                            "Edwards' continuity correction of the asymptotic McNemar test",
                            shown_if=("method", ("asymptotic",)))
YATES = Option("continuity", bool, False, "Continuity correction",
               "Yates' continuity correction of 2 × 2 tables (the package's χ² tests are without it)")
N_RESAMPLES = Option("n_resamples", int, DEFAULT_RESAMPLES, "Resamples", "number of bootstrap resamples", minimum=1,
                     maximum=100_000, flag="--resamples")
SEED = Option("seed", int, 0, "Seed", "seed of the resampling: the same seed gives the same numbers", minimum=0,
              maximum=2**32 - 1)
DM_LOSS = Option("loss", str, "squared", "Loss", "loss of each forecast error", choices=("squared", "absolute"))
HORIZON = Option("h", int, None, "Forecast horizon h",
                 "with a horizon column: test that horizon only (default: every horizon, each with its own h); "
                 "without one: the steps ahead of every forecast, autocorrelation up to h − 1 (default 1)",
                 minimum=1, flag="--horizon")
HARVEY = Option("harvey_correction", bool, True, "Small-sample correction",
                "Harvey–Leybourne–Newbold correction, t reference distribution")
ZERO_METHOD = Option("zero_method", str, "wilcox", "Zero differences",
                     "wilcox: drop them; pratt: rank then drop; zsplit: split between signs (SciPy)",
                     choices=("wilcox", "pratt", "zsplit"))
WILCOXON_METHOD = Option("method", str, "auto", "Wilcoxon method",
                         "auto: exact for up to 50 differences without ties or zeros, else the normal approximation",
                         choices=("auto", "exact", "asymptotic"))
WILCOXON_CONTINUITY = Option("continuity", bool, False, "Continuity correction",
                             "continuity correction of the normal approximation")
TEST_TRAIN_RATIO = Option("test_train_ratio", float, None, "Test/train size ratio",
                          "n_test / n_train of each resample (default: 1/(k − 1) for k-fold cross-validation)",
                          minimum=0.0)
N_FOLDS = Option("n_folds", int, None, "Folds per repetition",
                 "k of the k-fold cross-validation (default: the number of distinct folds)", minimum=2)
HIGHER_IS_BETTER = Option("higher_is_better", bool, None, "Higher is better",
                          "rank 1 goes to the highest score (off: to the lowest, for errors and losses); default "
                          "from the metric: off for error metrics of numeric predictions (mae, mse, rmse), else on")
FRIEDMAN_METHOD = Option("method", str, "chi2", "Friedman statistic",
                         "chi2: Friedman's chi-squared; iman_davenport: its F form, less conservative (Demšar 2006)",
                         choices=("chi2", "iman_davenport"))
SAMPLE_LOSS = Option("loss", str, "auto", "Per-sample loss",
                     "what is compared per sample: zero_one (wrong = 1), brier (squared error of the "
                     "probabilities), absolute or squared error; auto: absolute error for numbers, brier with "
                     "scores, else zero_one", choices=LOSSES, data=(PREDICTIONS,))
SAMPLE_ERROR = Option("loss", str, "absolute", "Per-sample error",
                      "numeric predictions: the absolute or squared error of each prediction, paired sample by sample "
                      "(classification predictions are compared by a metric per fold)",
                      choices=("absolute", "squared"), data=(PREDICTIONS,))
MANN_WHITNEY_METHOD = Option("method", str, "auto", "Mann-Whitney method",
                             "auto: exact for up to 8 values per sample without ties, else the normal approximation",
                             choices=MANN_WHITNEY_METHODS)

LABEL_CORRECTION = Option("label_correction", str, "fdr_bh", "Correction across labels",
                          "how the per-label p-values are corrected together: fdr_bh (Benjamini–Hochberg, false "
                          "discovery rate), fdr_by, holm, bonferroni", choices=("fdr_bh", "fdr_by", "holm", "bonferroni"))

_ISO = "ISO/IEC TS 4213:2022"

# --------------------------------------------------------------------------------------------------------- tests

TESTS: dict[str, TestSpec] = {spec.key: spec for spec in (
    TestSpec("mcnemar", "McNemar's test", "do two models differ in accuracy on the same samples?",
             f"{_ISO} 7.9", PAIRED, PAIRWISE, (PREDICTIONS,), "labels",
             (MCNEMAR_METHOD, MCNEMAR_CONTINUITY), McNemarDetails, runners.mcnemar),
    TestSpec("cochran_q", "Cochran's Q test", "do k models differ in accuracy on the same samples?",
             "Cochran (1950)", PAIRED, OMNIBUS, (PREDICTIONS,), "labels",
             (MCNEMAR_METHOD, MCNEMAR_CONTINUITY), CochranDetails, runners.cochran_q),
    TestSpec("mcnemar_per_label", "McNemar's test per label",
             "on which labels do two multi-label models differ in accuracy (corrected across labels)?",
             f"{_ISO} 6.5, 7.9, 7.10.3; Benjamini & Hochberg (1995)", PAIRED, PAIRWISE, (PREDICTIONS,), "labels",
             (MCNEMAR_METHOD, MCNEMAR_CONTINUITY, LABEL_CORRECTION), PerLabelMcNemarDetails,
             run_mcnemar_per_label),
    TestSpec("chi2", "Pearson's chi-squared test", "do models scored on different samples differ in accuracy?",
             f"{_ISO} 7.5", INDEPENDENT, OMNIBUS, (PREDICTIONS,), "labels", (YATES,),
             ContingencyDetails, runners.chi2),
    TestSpec("fisher_exact", "Fisher's exact test",
             "do two models scored on different samples differ in accuracy (exact, for small counts)?",
             f"{_ISO} 7.7", INDEPENDENT, PAIRWISE, (PREDICTIONS,), "labels", (), FisherDetails,
             runners.fisher_exact),
    TestSpec("delong", "DeLong's test", "do two models' ROC AUCs on the same samples differ?",
             "DeLong, DeLong & Clarke-Pearson (1988)", PAIRED, PAIRWISE, (PREDICTIONS,), "scores", (),
             DeLongDetails, runners.delong),
    TestSpec("unpaired_delong", "DeLong's test for independent samples",
             "do the ROC AUCs of two models scored on different samples differ?",
             "DeLong, DeLong & Clarke-Pearson (1988); pROC roc.test(paired = FALSE)", INDEPENDENT, PAIRWISE,
             (PREDICTIONS,), "scores", (), UnpairedDeLongDetails, runners.unpaired_delong),
    TestSpec("paired_bootstrap", "Paired bootstrap", "does any metric differ between two models on the same samples?",
             "Efron & Tibshirani (1993), ch. 13, 16", PAIRED, PAIRWISE, (PREDICTIONS,), "a metric",
             (N_RESAMPLES, SEED), BootstrapDetails, runners.paired_bootstrap, metric_on=(PREDICTIONS,),
             weighted=True),
    TestSpec("unpaired_bootstrap", "Unpaired bootstrap",
             "does any metric differ between two models scored on different samples?",
             "Efron & Tibshirani (1993), §8.3", INDEPENDENT, PAIRWISE, (PREDICTIONS,), "a metric",
             (N_RESAMPLES, SEED), UnpairedBootstrapDetails, runners.unpaired_bootstrap,
             metric_on=(PREDICTIONS,), weighted=True),
    TestSpec("diebold_mariano", "Diebold–Mariano test", "are two forecasts of the same series equally accurate?",
             "Diebold & Mariano (1995); Harvey, Leybourne & Newbold (1997)", PAIRED, PAIRWISE, (PREDICTIONS,),
             "forecasts", (DM_LOSS, HORIZON, HARVEY), DieboldMarianoDetails, runners.diebold_mariano),
    TestSpec("welch_t", "Welch's t-test",
             "do the mean per-sample losses (or per-fold scores) of models on different samples differ?",
             "Welch (1947)", INDEPENDENT, PAIRWISE, (PREDICTIONS, FOLDS), "losses", (SAMPLE_LOSS,),
             WelchDetails, runners.welch_t, metric_on=(FOLDS,)),
    TestSpec("mann_whitney", "Mann–Whitney U test",
             "do the per-sample losses (or per-fold scores) of models on different samples tend to differ?",
             "Mann & Whitney (1947)", INDEPENDENT, PAIRWISE, (PREDICTIONS, FOLDS), "losses",
             (SAMPLE_LOSS, MANN_WHITNEY_METHOD), MannWhitneyDetails, runners.mann_whitney,
             metric_on=(FOLDS,)),
    TestSpec("paired_t", "Paired t-test",
             "do two models' mean errors on the same samples (or mean scores over the same folds) differ?",
             f"{_ISO} 7.2", PAIRED, PAIRWISE, (PREDICTIONS, FOLDS), "fold scores", (SAMPLE_ERROR,), PairedTDetails,
             runners.paired_t, metric_on=(PREDICTIONS, FOLDS), per_sample=True),
    TestSpec("wilcoxon", "Wilcoxon signed-rank test",
             "do two models' errors on the same samples (or scores over the same folds) differ (no normality "
             "needed)?", f"{_ISO} 7.6", PAIRED,
             PAIRWISE, (PREDICTIONS, FOLDS), "fold scores",
             (SAMPLE_ERROR, ZERO_METHOD, WILCOXON_METHOD, WILCOXON_CONTINUITY),
             WilcoxonDetails, runners.wilcoxon, metric_on=(PREDICTIONS, FOLDS), per_sample=True),
    TestSpec("corrected_resampled_t", "Corrected resampled t-test",
             "do two models differ across cross-validation folds that share training data?",
             "Nadeau & Bengio (2003)", PAIRED, PAIRWISE, (FOLDS,), "fold scores",
             (TEST_TRAIN_RATIO, N_FOLDS), CorrectedTDetails, runners.corrected_resampled_t,
             metric_on=(PREDICTIONS, FOLDS)),
    TestSpec("cv_5x2_t", "5×2cv t-test", "do two models differ over 5 repeats of 2-fold cross-validation?",
             "Dietterich (1998)", PAIRED, PAIRWISE, (FOLDS,), "fold scores", (), CV5x2Details,
             runners.cv_5x2_t, metric_on=(PREDICTIONS, FOLDS)),
    TestSpec("anova", "One-way ANOVA", "do k models' mean fold scores differ (folds as independent)?",
             f"{_ISO} 7.3", INDEPENDENT, OMNIBUS, (FOLDS,), "fold scores", (), AnovaDetails,
             runners.anova, metric_on=(PREDICTIONS, FOLDS)),
    TestSpec("kruskal", "Kruskal–Wallis test", "do k models' fold scores differ (rank-based, folds as independent)?",
             f"{_ISO} 7.4", INDEPENDENT, OMNIBUS, (FOLDS,), "fold scores", (), KruskalDetails,
             runners.kruskal, metric_on=(PREDICTIONS, FOLDS)),
    TestSpec("better_than_random", "Permutation test against random partitions",
             "is each clustering closer to the reference classes than a random partition of the same sizes?",
             "Hubert & Arabie (1985); Davison & Hinkley (1997) eq. 4.11", PAIRED, PAIRWISE, (PREDICTIONS,),
             "a metric", (N_RESAMPLES, SEED), PermutationDetails, better_than_random_runner,
             metric_on=(PREDICTIONS,)),
    TestSpec("friedman", "Friedman test with Nemenyi post-hoc",
             "do k models differ in their ranks over the same folds?", "Friedman (1937); Demšar (2006)", PAIRED,
             OMNIBUS, (FOLDS,), "fold scores", (HIGHER_IS_BETTER, FRIEDMAN_METHOD), FriedmanDetails,
             runners.friedman, metric_on=(PREDICTIONS, FOLDS)),
)}
#: Test names `compare` accepts, in registry order (plus "all" for :func:`assess.stats.compare_all`).
TEST_NAMES = tuple(TESTS)


def cli_options() -> dict[str, tuple[Option, dict[str, Option]]]:
    """Options by name across all tests, for one CLI flag each: ``{name: (first option, {test: its option})}``.

    Options that share a name must share kind and flag (``method`` is a choice everywhere, ``continuity`` on/off
    everywhere), so one flag serves them all; their choices are then the union (each test checks its own).
    """
    out: dict[str, tuple[Option, dict[str, Option]]] = {}
    for spec in TESTS.values():
        for opt in spec.options:
            first, by_test = out.setdefault(opt.name, (opt, {}))
            if (opt.kind, opt.cli_flag) != (first.kind, first.cli_flag):
                raise TypeError(f"option `{opt.name}` of `{spec.key}` differs in kind or flag from other tests' "
                                f"`{opt.name}`")
            by_test[spec.key] = opt
    return out
