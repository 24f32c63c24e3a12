"""The ``cost`` section of ``python -m assess metrics`` (ISO 4213 6.6): when the file has ``latency_ms``/``energy_j``
columns, or ``--cost-table F`` names a separate tidy table (``model, latency_ms[, batch_size][, energy_j]``).

JSON, beside the metrics: ``"cost": {model: {key: {"value", "low", "high", "method"}}}`` with SPEC's keys
``latency_mean_ms latency_p50_ms latency_p95_ms latency_p99_ms throughput_per_s energy_per_sample_j`` (intervals
of `assess.analyses.cost._bounds` — analytic for a predictions file, a bootstrap of a cost table's calls stopped once
its bounds are as precise as shown, every one by bootstrap with ``--ci bootstrap``; ``--resamples`` (the most),
``--seed``, ``--confidence-level``; energy only when measured), ``"efficiency": {model:
{"<metric>_per_ms", "<metric>_per_j"}}`` (``--cost-metric``, default accuracy, r2 for numeric tasks, the exact match ratio for multi-label; null for a
lower-is-better metric, where a value per millisecond would reward slowness) and
``"cost_headline"``: the best model by that metric weighed against the cheapest other one at the 95th percentile.
"""

from __future__ import annotations

from assess.core.errors import AssessError
from assess.metrics.registry import headline_of


def add_options(parser) -> None:
    group = parser.add_argument_group("cost", "computational cost (ISO 4213 6.6), from latency_ms/energy_j columns")
    group.add_argument("--cost-table", metavar="F", help="a separate tidy cost table: one row per call of a model "
                                                        "(model, latency_ms, optional batch_size and energy_j)")
    group.add_argument("--cost-metric", metavar="KEY",
                       help="metric of the efficiency and the headline (default: the task's headline metric, "
                            "assess.metrics.registry.headline: roc_auc for binary scores, else accuracy; f1_micro "
                            "for multi-label; mae for numeric tasks)")


def wanted(assessment, args) -> bool:
    from assess.analyses import cost   # (here and in `section`: a run without cost columns has no use for the module)

    return bool(getattr(args, "cost_table", None)) or cost.has_cost(assessment)


def section(assessment, args, reports, decision=None) -> dict:
    """The ``cost``, ``efficiency`` and ``cost_headline`` entries for the metrics JSON."""
    from assess.analyses import cost
    from assess.inputs.read import read_table

    level, n_resamples, seed = args.confidence_level, args.n_resamples, args.seed
    # the cost always has intervals, as on the Cost page: analytic where they apply, unless --ci bootstrap
    ci = "bootstrap" if args.ci == "bootstrap" else "auto"
    if args.cost_table:
        table = read_table(args.cost_table)
        costs = cost.cost_from_table(table.frame, file=table.name, ci=ci, confidence_level=level,
                                     n_resamples=n_resamples, seed=seed)
        unknown = [m for m in costs if m not in assessment.models]
        if unknown:
            raise AssessError(f"{table.name}: model {unknown[0]!r} is not a model of {assessment.table.name} "
                              f"(models: {', '.join(assessment.models)})")
    else:
        costs = cost.cost_from_assessment(assessment, models=list(reports), ci=ci, confidence_level=level,
                                          n_resamples=n_resamples, seed=seed)
    return cost.cost_document(assessment, costs, models=list(reports), metric=args.cost_metric or headline_of(assessment),
                              decision=decision, confidence_level=level, n_resamples=n_resamples, seed=seed)
