"""Significance tests and model comparison (ISO/IEC TS 4213:2022 clause 7, and beyond).

Every test returns a :class:`TestResult` (statistic, p-value, df, effect with CI, assumptions checked on the data,
one plain-language sentence). :func:`compare` runs one test over k models with adjusted p-values for the pairs;
:func:`compare_all` runs every test :func:`suggest_tests` finds suitable.

Modules: :mod:`~assess.stats.counts` (McNemar, Cochran's Q, chi-squared, Fisher, CLT error-rate interval),
:mod:`~assess.stats.folds` (paired t, Wilcoxon, ANOVA, Kruskal–Wallis, Friedman + Nemenyi, corrected resampled t,
5×2cv t), :mod:`~assess.stats.scores` (DeLong, paired bootstrap, Diebold–Mariano),
:mod:`~assess.stats.corrections` (Bonferroni, Holm, BH, BY), :mod:`~assess.stats.shaping` (data shapes),
:mod:`~assess.stats.suggest` (which test fits), :mod:`~assess.stats.compare` (orchestration).
"""

from assess.stats._result import Assumption, Effect, TestResult
from assess.stats.bridge import registry_metric
from assess.stats.compare import (SUBGROUP_TESTS, TEST_NAMES, TESTS, Comparison, ComparisonSet, PairResult, compare,
                                   compare_all, compare_subgroups, fold_table_from_predictions)
from assess.stats.corrections import CORRECTIONS, adjust_pvalues, pvalue_matrix
from assess.stats.counts import (chi2_goodness_of_fit, chi2_independence, cochran_q, error_rate_ci, fisher_exact,
                                 mcnemar)
from assess.stats.folds import (NemenyiResult, anova, corrected_resampled_t, cv_5x2_t, friedman, kruskal, nemenyi,
                                nemenyi_q, paired_t, wilcoxon)
from assess.stats.scores import delong, diebold_mariano, paired_bootstrap
from assess.stats.shaping import (AlignedPredictions, align_predictions, contingency_table, correctness_table,
                                  fold_groups, fold_scores, fold_table, predicted_labels)
from assess.stats.suggest import QUESTIONS, Suggestion, suggest_tests, suggestions_frame

__all__ = [
    "Assumption", "Effect", "TestResult", "Comparison", "ComparisonSet", "PairResult", "TESTS", "TEST_NAMES",
    "compare", "compare_all", "compare_subgroups", "fold_table_from_predictions", "SUBGROUP_TESTS", "registry_metric", "CORRECTIONS", "adjust_pvalues", "pvalue_matrix",
    "chi2_goodness_of_fit", "chi2_independence", "cochran_q", "error_rate_ci", "fisher_exact", "mcnemar",
    "NemenyiResult", "anova", "corrected_resampled_t", "cv_5x2_t", "friedman", "kruskal", "nemenyi", "nemenyi_q",
    "paired_t", "wilcoxon", "delong", "diebold_mariano", "paired_bootstrap",
    "AlignedPredictions", "align_predictions", "contingency_table", "correctness_table", "fold_groups",
    "fold_scores", "fold_table", "predicted_labels", "QUESTIONS", "Suggestion", "suggest_tests",
    "suggestions_frame",
]
