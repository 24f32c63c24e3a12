"""Significance tests and model comparison (ISO/IEC TS 4213:2022 clause 7, and beyond).

Every test returns a :class:`TestResult` (statistic, p-value, df, effect with its
:class:`~assess.intervals.ConfidenceInterval`, assumptions checked on the data, typed details, one plain-language
sentence). :func:`compare` runs one test over k models with adjusted p-values for the pairs; :func:`compare_all`
runs every test :func:`suggest_tests` finds suitable for the data and their design (paired or independent samples).

Modules: :mod:`~assess.stats.registry` (one :class:`TestSpec` per test: design, data, typed options, details),
:mod:`~assess.stats.counts` (McNemar, Cochran's Q, chi-squared, Fisher, CLT error-rate interval),
:mod:`~assess.stats.folds` (paired t, Wilcoxon, ANOVA, Kruskal–Wallis, Friedman + Nemenyi, corrected resampled t,
5×2cv t), :mod:`~assess.stats.scores` (DeLong paired and unpaired, paired and unpaired bootstrap, Diebold–Mariano,
Welch's t, Mann–Whitney), :mod:`~assess.stats.corrections` (Bonferroni, Holm, BH, BY), :mod:`~assess.stats.shaping`
(data shapes and the design), :mod:`~assess.stats.suggest` (which test fits), :mod:`~assess.stats.runners` (each
test over k models), :mod:`~assess.stats.compare` (orchestration).
"""

from assess.stats._result import (DESIGNS, INDEPENDENT, PAIRED, Assumption, Comparison, ComparisonSet, Design, Effect,
                                  PairResult, TestResult)
from assess.stats.bridge import registry_metric
from assess.stats.compare import (SUBGROUP_TESTS, compare, compare_all, compare_subgroups, data_design,
                                  fold_table_from_predictions)
from assess.stats.corrections import CORRECTIONS, adjust_pvalues, pvalue_matrix
from assess.stats.counts import (chi2_goodness_of_fit, chi2_independence, cochran_q, error_rate_ci, fisher_exact,
                                 mcnemar)
from assess.stats.folds import (NemenyiResult, anova, corrected_resampled_t, cv_5x2_t, friedman, kruskal, nemenyi,
                                nemenyi_q, paired_t, wilcoxon)
from assess.stats.registry import TEST_NAMES, TESTS, Option, TestSpec, cli_options
from assess.stats.scores import (delong, diebold_mariano, mann_whitney, paired_bootstrap, unpaired_bootstrap,
                                 unpaired_delong, welch_t)
from assess.stats.shaping import (AlignedPredictions, SeparatePredictions, align_predictions, arrange_predictions,
                                  contingency_table, correctness_table, fold_design, fold_groups, fold_scores,
                                  fold_table, sample_design, sample_losses)
from assess.stats.suggest import QUESTIONS, Suggestion, suggest_tests, suggestions_frame

__all__ = [
    "Assumption", "Effect", "TestResult", "Comparison", "ComparisonSet", "PairResult", "Design", "DESIGNS", "PAIRED",
    "INDEPENDENT", "TESTS", "TEST_NAMES", "TestSpec", "Option", "cli_options",
    "compare", "compare_all", "compare_subgroups", "data_design", "fold_table_from_predictions", "SUBGROUP_TESTS",
    "registry_metric", "CORRECTIONS", "adjust_pvalues", "pvalue_matrix",
    "chi2_goodness_of_fit", "chi2_independence", "cochran_q", "error_rate_ci", "fisher_exact", "mcnemar",
    "NemenyiResult", "anova", "corrected_resampled_t", "cv_5x2_t", "friedman", "kruskal", "nemenyi", "nemenyi_q",
    "paired_t", "wilcoxon", "delong", "unpaired_delong", "diebold_mariano", "paired_bootstrap", "unpaired_bootstrap",
    "welch_t", "mann_whitney",
    "AlignedPredictions", "SeparatePredictions", "align_predictions", "arrange_predictions", "contingency_table",
    "correctness_table", "fold_design", "fold_groups", "fold_scores", "fold_table",
    "sample_design", "sample_losses", "QUESTIONS", "Suggestion", "suggest_tests", "suggestions_frame",
]
