"""Classification (ISO/IEC TS 4213 clause 6), regression and pooled forecast metrics: the registry, the formulas,
evaluate().

>>> from assess.metrics import evaluate, metrics_for, get
>>> from assess.core.data import Task
>>> len(metrics_for(Task.BINARY)) > 30
True

Modules: :mod:`.binary`, :mod:`.multiclass`, :mod:`.multilabel`, :mod:`.regression` (formulas over shared per-task
states), :mod:`.registry` (one entry per task and key), :mod:`.evaluate` (the one-call entry point), :mod:`.baselines`
(ISO 5.3.13), :mod:`.resampling` (vectorised bootstrap statistics), :mod:`.threshold` (every binary label metric
against the threshold, from the registry's formulas).
"""

from assess.metrics.baselines import baseline_columns
from assess.metrics.evaluate import CI_METHODS, MetricReport, MetricResult, evaluate
from assess.metrics.registry import (GROUPS, REGISTRY, TABLES, MetricSpec, Proportion, TableColumn, applicable,
                                     applicable_to, get, headline, headline_of, keys_for, metrics_for, shown_by_default, table_for)

__all__ = ["CI_METHODS", "GROUPS", "REGISTRY", "TABLES", "MetricReport", "MetricResult", "MetricSpec", "Proportion",
           "TableColumn", "applicable", "applicable_to", "baseline_columns", "evaluate", "get", "headline", "headline_of", "keys_for",
           "metrics_for", "shown_by_default", "table_for"]
