"""What the Cost page shows for an assessment and its settings: each model's costs, and the metric weighed against
them — the reports, the headline sentence (or why there is none) and the efficiency (ISO/IEC TS 4213 6.6)."""

from __future__ import annotations

from dataclasses import dataclass

from assess.analyses import cost
from assess.core.decision import Decision
from assess.core.defaults import DEFAULT_RESAMPLES
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.inputs.read import LoadedTable
from assess.metrics.reports import compute_reports

#: Bootstrap resamples and seed of every interval of the page: the command line's defaults, so both give one number.
RESAMPLES, SEED = DEFAULT_RESAMPLES, 0


def model_costs(assessment: Assessment, table: LoadedTable | None = None) -> dict[str, cost.ModelCost]:
    """{model: ModelCost} from a separate cost table when one is given, else from the file's own cost columns."""
    if table is not None:
        return cost.cost_from_table(table.frame, file=table.name, n_resamples=RESAMPLES, seed=SEED)
    return cost.cost_from_assessment(assessment, n_resamples=RESAMPLES, seed=SEED)


@dataclass(frozen=True)
class Weighed:
    """``metric`` of every costed model, the sentence weighing the best against a cheaper one (``no_headline`` says
    why there is none), and each model's efficiency (None where the metric is an error: an error per millisecond
    would reward slowness)."""

    reports: dict
    headline: cost.Headline | None
    no_headline: str | None
    efficiency: dict | None


def weigh(assessment: Assessment, table: LoadedTable | None, metric: str, cost_key: str,
          decision: Decision) -> Weighed:
    costs = model_costs(assessment, table)
    reports = compute_reports(assessment, models=list(costs), keys=[metric], decision=decision, ci="auto",
                              n_resamples=RESAMPLES, seed=SEED)
    try:
        line, reason = cost.headline(assessment, costs, metric=metric, cost_key=cost_key, decision=decision,
                                     n_resamples=RESAMPLES, seed=SEED), None
    except AssessError as exc:   # the comparison behind the sentence cannot run on this metric: the costs stand
        line, reason = None, str(exc)
    efficiency = ({m: cost.efficiency(reports[m][metric].value, c) for m, c in costs.items() if m in reports}
                  if cost.efficiency_applies(assessment.task, metric) else None)
    return Weighed(reports, line, reason, efficiency)
