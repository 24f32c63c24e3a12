"""``assess metrics FILE --by-time month [--reference 2024-01-01:2024-03-31]``: each metric per period of the file's
time stamps with its interval, and the change of each period against the reference, added to the ``metrics`` JSON:

``"by_time": {model: {period start (ISO date): {"n", "n_labelled", "observed": {key: {"value", "low", "high"}},
"change": {key: {"difference", "low", "high", "pvalue", "p_adjusted"}}}}}`` (the reference's own periods have an
empty ``"change"``; a period with unlabelled rows gets ``"estimated"`` beside ``"observed"`` once an estimator is
passed to :meth:`assess.analyses.over_time.OverTime.to_dict`), and ``"by_time_settings"``: the time column, the
period, the reference in words and the tests' correction. Intervals: ``--ci`` (default ``auto``, the Metrics page's
choice per metric); metrics: ``--metrics`` (default: accuracy and the ROC AUC for binary scores, MAE for numbers).
"""

from __future__ import annotations

from assess.core.errors import AssessError

#: The calendar periods ``--by-time`` takes (`assess.analyses.over_time.PERIODS`; a test keeps the two equal —
#: the help cannot import that module, which pulls in the tests, at every ``metrics`` start).
PERIOD_CHOICES = ("day", "week", "month", "quarter")


def period_value(text: str):
    """``--by-time``: a calendar period, or a whole number ≥ 2 of equal-size windows."""
    text = str(text).strip().lower()
    if text.isdigit() and int(text) >= 2:
        return int(text)
    if text in PERIOD_CHOICES:
        return text
    raise AssessError(f"--by-time must be one of {', '.join(PERIOD_CHOICES)} or a number ≥ 2 of equal-size windows "
                      f"(got {text!r})")


def add_options(parser) -> None:
    group = parser.add_argument_group("over time")
    group.add_argument("--by-time", metavar="PERIOD",
                       help="each metric per day, week, month or quarter of the time-stamp column (or N equal-size "
                            "windows), with intervals and a change test of each period against the reference "
                            "(Benjamini–Hochberg across periods)")
    group.add_argument("--reference", metavar="REF",
                       help="what --by-time compares with: 'first' period (default), the first K periods, or "
                            "START:END dates (both days included), e.g. 2024-01-01:2024-03-31")


def extend(doc: dict, assessment, args, decision, models) -> None:
    """Add ``"by_time"`` and ``"by_time_settings"`` when ``--by-time`` asks for them."""
    if args.by_time is None:
        if args.reference is not None:
            raise AssessError("--reference applies to --by-time; add --by-time PERIOD")
        return
    from assess.analyses.over_time import over_time, parse_reference

    result = over_time(assessment, period_value(args.by_time), reference=parse_reference(args.reference),
                       models=models, keys=args.metrics, decision=decision, ci=args.ci or "auto",
                       confidence_level=args.confidence_level, n_resamples=args.n_resamples, seed=args.seed,
                       test_resamples=args.n_resamples)
    from assess.analyses.over_time import period_estimate

    def estimated(model: str, period: str) -> dict | None:
        return period_estimate(assessment, result, model, period, decision=decision,
                               confidence_level=args.confidence_level, n_resamples=args.n_resamples, seed=args.seed)

    doc["by_time"] = result.to_dict(estimated=estimated if assessment.n_unlabelled else None)
    doc["by_time_settings"] = {"column": result.column, "period": result.period, "reference": result.reference_words,
                               "metrics": list(result.keys), "correction": "fdr_bh"}

